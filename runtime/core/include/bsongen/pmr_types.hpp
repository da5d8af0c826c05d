#pragma once

// bsongen::binary, regex, raw_document, javascript_with_scope and packed_bits for the structs of
// `allocator: pmr` schemas (docs/schema-format.md, "Allocators"): the same values, their bytes and
// texts on the struct's std::pmr::memory_resource. Allocator-aware as the std::pmr containers are
// (an allocator_type, constructors that take one, get_allocator()), so a struct, vector, map or
// optional holding one builds it on its own resource. A header of its own: <memory_resource> is
// what the light bsongen/types.hpp, which every generated header includes, keeps out.
//
// The generated codecs take either spelling (detail::binary_codec, detail::regex_codec,
// detail::raw_document_codec, detail::javascript_with_scope_codec, a struct's capture of unknown
// elements); the generic path (bsongen::value, bsongen::document) keeps the plain types.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory_resource>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bsongen/binary_vector.hpp"  // basic_packed_bits
#include "bsongen/bson_type.hpp"
#include "bsongen/detail/endian.hpp"
#include "bsongen/raw_document.hpp"  // detail::empty_document_bytes

namespace bsongen::pmr {

// Owning binary data with its subtype, as bsongen::binary (for subtype 2 `bytes` is the payload
// without the inner length).
struct binary {
  std::pmr::vector<std::uint8_t> bytes;
  binary_subtype subtype = binary_subtype::generic;

  using allocator_type = std::pmr::polymorphic_allocator<>;

  binary() = default;
  explicit binary(const allocator_type& memory) : bytes(memory) {}
  binary(std::span<const std::uint8_t> payload, binary_subtype kind,
         const allocator_type& memory = {})
      : bytes(payload.begin(), payload.end(), memory), subtype(kind) {}
  binary(const binary& other, const allocator_type& memory)
      : bytes(other.bytes, memory), subtype(other.subtype) {}
  binary(binary&& other, const allocator_type& memory)
      : bytes(std::move(other.bytes), memory), subtype(other.subtype) {}
  binary(const binary&) = default;
  binary(binary&&) = default;
  binary& operator=(const binary&) = default;
  binary& operator=(binary&&) = default;
  ~binary() = default;

  [[nodiscard]] allocator_type get_allocator() const noexcept { return bytes.get_allocator(); }

  friend bool operator==(const binary&, const binary&) = default;
};

// A regular expression, as bsongen::regex (options are written sorted).
struct regex {
  std::pmr::string pattern;
  std::pmr::string options;

  using allocator_type = std::pmr::polymorphic_allocator<>;

  regex() = default;
  explicit regex(const allocator_type& memory) : pattern(memory), options(memory) {}
  regex(std::string_view pattern_text, std::string_view options_text,
        const allocator_type& memory = {})
      : pattern(pattern_text, memory), options(options_text, memory) {}
  regex(const regex& other, const allocator_type& memory)
      : pattern(other.pattern, memory), options(other.options, memory) {}
  regex(regex&& other, const allocator_type& memory)
      : pattern(std::move(other.pattern), memory), options(std::move(other.options), memory) {}
  regex(const regex&) = default;
  regex(regex&&) = default;
  regex& operator=(const regex&) = default;
  regex& operator=(regex&&) = default;
  ~regex() = default;

  [[nodiscard]] allocator_type get_allocator() const noexcept { return pattern.get_allocator(); }

  friend bool operator==(const regex&, const regex&) = default;
};

// A BSON document kept as validated bytes, as bsongen::raw_document: an embedded document the
// schema does not model, or the unknown elements a struct captures. Always holds a complete, valid
// document; the empty document is an empty vector that bytes() reads as the 5 constant bytes, so
// a new struct that captures nothing takes no memory for it.
class raw_document {
 public:
  using allocator_type = std::pmr::polymorphic_allocator<>;

  raw_document() = default;
  explicit raw_document(const allocator_type& memory) : bytes_(memory) {}
  // Precondition: `bytes` is one complete, valid BSON document (decoders check this).
  explicit raw_document(std::span<const std::uint8_t> bytes, const allocator_type& memory = {})
      : bytes_(bytes.begin(), bytes.end(), memory) {}
  raw_document(const raw_document& other, const allocator_type& memory)
      : bytes_(other.bytes_, memory) {}
  raw_document(raw_document&& other, const allocator_type& memory)
      : bytes_(std::move(other.bytes_), memory) {}
  raw_document(const raw_document&) = default;
  raw_document(raw_document&&) = default;
  raw_document& operator=(const raw_document&) = default;
  raw_document& operator=(raw_document&&) = default;
  ~raw_document() = default;

  [[nodiscard]] allocator_type get_allocator() const noexcept { return bytes_.get_allocator(); }

  [[nodiscard]] std::span<const std::uint8_t> bytes() const noexcept {
    return bytes_.empty() ? std::span<const std::uint8_t>(detail::empty_document_bytes)
                          : std::span<const std::uint8_t>(bytes_);
  }
  [[nodiscard]] std::size_t size() const noexcept { return bytes().size(); }
  // True when the document has no elements.
  [[nodiscard]] bool empty() const noexcept {
    return bytes_.size() <= sizeof detail::empty_document_bytes;
  }

  // Keeps the vector's capacity for the next assign() or append_element().
  void clear() noexcept { bytes_.clear(); }
  // Replaces the contents. Precondition as for the constructor.
  void assign(std::span<const std::uint8_t> bytes) { bytes_.assign(bytes.begin(), bytes.end()); }
  // Appends one encoded element (type byte, key, NUL, value) before the closing NUL.
  // Precondition: it is well formed.
  void append_element(std::span<const std::uint8_t> element) {
    if (bytes_.empty()) {
      bytes_.assign(detail::empty_document_bytes,
                    detail::empty_document_bytes + sizeof detail::empty_document_bytes);
    }
    bytes_.insert(bytes_.end() - 1, element.begin(), element.end());
    detail::store_i32_le(bytes_.data(), static_cast<std::int32_t>(bytes_.size()));
  }

  friend bool operator==(const raw_document& a, const raw_document& b) noexcept {
    const std::span<const std::uint8_t> x = a.bytes();
    const std::span<const std::uint8_t> y = b.bytes();
    return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size()) == 0;
  }

 private:
  std::pmr::vector<std::uint8_t> bytes_;  // empty: the empty document
};

// BSON's deprecated "JavaScript code with scope", as bsongen::javascript_with_scope.
struct javascript_with_scope {
  std::pmr::string code;
  raw_document scope;

  using allocator_type = std::pmr::polymorphic_allocator<>;

  javascript_with_scope() = default;
  explicit javascript_with_scope(const allocator_type& memory) : code(memory), scope(memory) {}
  javascript_with_scope(std::string_view code_text, std::span<const std::uint8_t> scope_bytes,
                        const allocator_type& memory = {})
      : code(code_text, memory), scope(scope_bytes, memory) {}
  javascript_with_scope(const javascript_with_scope& other, const allocator_type& memory)
      : code(other.code, memory), scope(other.scope, memory) {}
  javascript_with_scope(javascript_with_scope&& other, const allocator_type& memory)
      : code(std::move(other.code), memory), scope(std::move(other.scope), memory) {}
  javascript_with_scope(const javascript_with_scope&) = default;
  javascript_with_scope(javascript_with_scope&&) = default;
  javascript_with_scope& operator=(const javascript_with_scope&) = default;
  javascript_with_scope& operator=(javascript_with_scope&&) = default;
  ~javascript_with_scope() = default;

  [[nodiscard]] allocator_type get_allocator() const noexcept { return code.get_allocator(); }

  friend bool operator==(const javascript_with_scope&, const javascript_with_scope&) = default;
};

// A packed_bit vector's bits and padding (bsongen/binary_vector.hpp), bytes on the struct's
// resource.
using packed_bits = basic_packed_bits<std::pmr::polymorphic_allocator<std::uint8_t>>;

}  // namespace bsongen::pmr
