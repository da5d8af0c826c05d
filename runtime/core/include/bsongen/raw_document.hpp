#pragma once

// raw_document: a BSON document kept as validated bytes; javascript_with_scope: BSON's deprecated
// "JavaScript code with scope" with its scope as such bytes. Value types shared by generated
// structs (members the schema does not model, captured unknown elements) and the generic path
// (bsongen::value is constructible from a javascript_with_scope). Their `allocator: pmr` spellings,
// bsongen::pmr::raw_document and pmr::javascript_with_scope, are in bsongen/pmr_types.hpp.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

#include "bsongen/byte_buffer.hpp"
#include "bsongen/detail/endian.hpp"

namespace bsongen {

namespace detail {
// The empty document's bytes: what a raw_document holding an empty buffer reads as.
inline constexpr std::uint8_t empty_document_bytes[5] = {5, 0, 0, 0, 0};
}  // namespace detail

// A BSON document kept as bytes: an embedded document the schema does not model, or the unknown
// elements a struct captures. Always holds a complete, valid document (default: the empty
// document, 5 bytes). The empty document is kept as an empty buffer that bytes() reads as those 5
// constant bytes: a struct that captures unknown elements is then built, and decoded into when
// none is unknown, without a heap allocation (one malloc and free per new struct before).
class raw_document {
 public:
  raw_document() noexcept = default;
  // Precondition: `bytes` is one complete, valid BSON document (decoders check this).
  explicit raw_document(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

  [[nodiscard]] std::span<const std::uint8_t> bytes() const noexcept {
    return bytes_.empty() ? std::span<const std::uint8_t>(detail::empty_document_bytes)
                          : bytes_.span();
  }
  // A held document is never shorter than the empty one, so this is a select, not a branch.
  [[nodiscard]] std::size_t size() const noexcept {
    return bytes_.size() < sizeof detail::empty_document_bytes ? sizeof detail::empty_document_bytes
                                                               : bytes_.size();
  }
  // True when the document has no elements.
  [[nodiscard]] bool empty() const noexcept {
    return bytes_.size() <= sizeof detail::empty_document_bytes;
  }

  // Keeps the buffer's capacity for the next assign() or append_element().
  void clear() noexcept { bytes_.clear(); }
  // Replaces the contents, reusing the buffer's capacity. Precondition as for the constructor.
  void assign(std::span<const std::uint8_t> bytes) { bytes_.assign(bytes); }
  // Appends one encoded element (type byte, key, NUL, value). Precondition: it is well formed.
  void append_element(std::span<const std::uint8_t> element) {
    if (bytes_.empty()) bytes_.assign(detail::empty_document_bytes);
    const std::size_t old_size = bytes_.size();
    bytes_.resize_uninitialized(old_size + element.size());
    std::uint8_t* p = bytes_.data();
    std::memcpy(p + old_size - 1, element.data(), element.size());
    p[old_size + element.size() - 1] = 0;
    detail::store_i32_le(p, static_cast<std::int32_t>(old_size + element.size()));
  }

  friend bool operator==(const raw_document& a, const raw_document& b) noexcept {
    const std::span<const std::uint8_t> x = a.bytes();
    const std::span<const std::uint8_t> y = b.bytes();
    return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size()) == 0;
  }

 private:
  byte_buffer bytes_;  // empty: the empty document
};

// BSON's deprecated "JavaScript code with scope" (type 0x0F): the code and its scope document as
// bytes. The one type for this BSON value: generated members (schema kind
// `javascript_with_scope`, alias `code_with_scope`) and `bsongen::value` construction alike. From
// a generic document: `javascript_with_scope{"f(x)", bsongen::to_raw_document(doc)}`.
struct javascript_with_scope {
  std::string code;
  raw_document scope;
  friend bool operator==(const javascript_with_scope&, const javascript_with_scope&) = default;
};

}  // namespace bsongen
