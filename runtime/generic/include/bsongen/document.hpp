#pragma once

// document: an owning, ordered BSON document of any shape; decode_document / encode_document.
//
//   bsongen::document d{{"a", 1}, {"b", "x"}, {"c", bsongen::array{1, 2.5}},
//                       {"d", bsongen::document{{"e", true}}}};
//   bsongen::byte_buffer bytes = bsongen::encode_document(d);
//
//   bsongen::result<bsongen::document> r = bsongen::decode_document(bytes);
//   if (!r) { std::cerr << r.error().to_string() << '\n'; return; }  // what, path, byte offset
//   std::int32_t a = (*r)["a"].as_int32();
//
// Keys keep their order; duplicate keys read from input are kept as read: iteration shows every
// element, find()/operator[]/set() use the last one with the key (decode_options::duplicate_keys
// = duplicate_key_policy::reject refuses such input instead). A document owns an arena: decoding
// copies the input into it once and keys and strings point into that copy, elements are 32-byte
// nodes stored contiguously per document. Everything borrowed from a document (value_ref,
// element, string_view, ...) is valid until the document is destroyed, assigned to, appended to,
// set() on, or cleared. Moving a document keeps borrowed views valid.
//
// Encoding, copies, equality and destruction keep their nesting on the heap: any depth built
// through the API works; decoding stops at decode_options::max_depth (at most max_depth_limit).

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "bsongen/binary_vector.hpp"
#include "bsongen/byte_buffer.hpp"
#include "bsongen/decode_options.hpp"
#include "bsongen/error.hpp"
#include "bsongen/raw_document.hpp"
#include "bsongen/value.hpp"
#include "bsongen/writer.hpp"

namespace bsongen {

namespace detail {
struct document_adopter;  // hands a decoded tree and its arena to a document (decode.cpp)
}  // namespace detail

// One key/value pair of a document initializer list: `{"key", value}`.
struct field {
  template <class T>
  requires std::constructible_from<value, T&&> field(std::string_view k, T&& v)
      : key(k), val(std::forward<T>(v)) {}  // NOLINT: braced use
  std::string_view key;
  mutable value val;  // mutable: the document moves it out of the const initializer_list
};

class document : public detail::document_access<document> {
 public:
  document() noexcept = default;
  document(std::initializer_list<field> fields);
  explicit document(document_ref other);  // deep copy

  document(const document& other) : document(document_ref(other)) {}
  document& operator=(const document& other);
  document(document&& other) noexcept
      : arena_(std::move(other.arena_)),
        root_(std::exchange(other.root_, {})),
        source_size_(std::exchange(other.source_size_, 0)),
        dead_bytes_(std::exchange(other.dead_bytes_, 0)),
        compact_at_(std::exchange(other.compact_at_, initial_compact_at)) {}
  document& operator=(document&& other) noexcept;
  ~document() = default;

  [[nodiscard]] const detail::container& root() const noexcept { return root_; }
  operator document_ref() const noexcept {
    return document_ref(&root_);
  }  // NOLINT: borrowing is free
  [[nodiscard]] document_ref ref() const noexcept { return document_ref(&root_); }

  // Appends an element (a key already present is kept: BSON allows duplicates). Keys must not
  // contain NUL (throws invalid_value). Documents and arrays passed by rvalue are moved in.
  document& append(std::string_view key, value v);
  // Replaces the last element with this key (the one find() returns), or appends when there is
  // none. Memory stays bounded over any number of calls: once replaced values outweigh the live
  // ones, the document moves to a fresh arena, which invalidates everything borrowed from it.
  document& set(std::string_view key, value v);
  void clear() noexcept;

  // Bytes of the input this document was decoded from (0 when built): an encode size hint.
  [[nodiscard]] std::size_t source_size() const noexcept { return source_size_; }

  friend bool operator==(const document& a, const document& b) { return a.ref() == b.ref(); }

 private:
  friend class value;
  friend class array;
  friend struct detail::document_adopter;
  detail::arena& storage(std::size_t bytes_hint);
  void compact();

  static constexpr std::size_t initial_compact_at = 4096;

  detail::arena_ptr arena_;
  detail::container root_{};
  std::size_t source_size_ = 0;
  std::size_t dead_bytes_ = 0;  // bytes of values set() replaced, still in the arena
  std::size_t compact_at_ = initial_compact_at;  // dead_bytes_ above this: see compact()
};

class array : public detail::array_access<array> {
 public:
  // An initializer-list item: lets `array{1, "x", 2.5}` move its values in.
  struct item {
    template <class T>
    requires std::constructible_from<value, T&&> item(T&& v)
        : val(std::forward<T>(v)) {}  // NOLINT: braced use
    mutable value val;
  };

  array() noexcept = default;
  array(std::initializer_list<item> items);
  explicit array(array_ref other);  // deep copy

  array(const array& other) : array(array_ref(other)) {}
  array& operator=(const array& other);
  array(array&& other) noexcept
      : arena_(std::move(other.arena_)), root_(std::exchange(other.root_, {})) {}
  array& operator=(array&& other) noexcept;
  ~array() = default;

  [[nodiscard]] const detail::container& root() const noexcept { return root_; }
  operator array_ref() const noexcept { return array_ref(&root_); }  // NOLINT: borrowing is free
  [[nodiscard]] array_ref ref() const noexcept { return array_ref(&root_); }

  array& push_back(value v);
  void clear() noexcept;

  friend bool operator==(const array& a, const array& b) { return a.ref() == b.ref(); }

 private:
  friend class value;
  detail::arena& storage(std::size_t bytes_hint);

  detail::arena_ptr arena_;
  detail::container root_{};
};

// The canonical encoding of `doc` as a raw_document, e.g. for a javascript_with_scope's scope
// (bsongen/raw_document.hpp, the one type both paths use for that BSON value).
[[nodiscard]] raw_document to_raw_document(document_ref doc);

// BSON Binary Vector (binary subtype 0x09, bsongen/binary_vector.hpp) to and from a plain BSON
// array, under the specification's conversion rules:
//  * int8: every element an int32 or int64 in [-128, 127];
//  * float32: every element a double, int32 or int64, rounded to the nearest float32; infinities
//    and NaN are kept, a finite value beyond float32's range is refused;
//  * packed_bit: every element an int32 or int64 in [0, 255], one packed byte each (the
//    specification's "list of integers in [0, 255]"), with `padding` the ignored low bits of the
//    last byte (0..7, 0 for no bytes, those bits 0).
// Errors: type_mismatch for an element of another BSON type (a double for int8 or packed_bit,
// even 1.0), invalid_value for one out of range and for padding against the rules; the path is
// the element's index and the offset 0 (the array may not come from bytes).
//
//   bsongen::result<bsongen::value> v =
//       bsongen::vector_from_array(bsongen::array{1, 2, 3}, bsongen::vector_dtype::int8);
[[nodiscard]] result<value> vector_from_array(array_ref elements, vector_dtype dtype,
                                              std::uint8_t padding = 0);
// The elements as an array: int32 for int8, double for float32 (exact), int32 bytes 0..255 for
// packed_bit (the padding is the view's padding()).
[[nodiscard]] array vector_to_array(const vector_view& vector);

// Decodes and validates one BSON document that spans all of `bytes` (see decode_options for the
// limits). Errors carry the code, the element path ("a.b.3.c") and the byte offset in `bytes`.
[[nodiscard]] result<document> decode_document(std::span<const std::uint8_t> bytes,
                                               const decode_options& options = {});

// Validates as decode_document does, building nothing and allocating nothing.
[[nodiscard]] result<void> validate_document(std::span<const std::uint8_t> bytes,
                                             const decode_options& options = {});

// Appends the canonical BSON encoding of `doc` to `out` (arrays get keys "0", "1", ...; regex
// options are written sorted). Fails only with buffer_too_small when `out` is a caller buffer that
// cannot hold it (its contents are then unspecified), or too_large beyond 2 GiB.
result<void> encode_document(document_ref doc, writer& out);
// The canonical encoding as a new buffer.
[[nodiscard]] byte_buffer encode_document(document_ref doc);
// Exact byte count encode_document writes.
[[nodiscard]] std::size_t encoded_size(document_ref doc);

}  // namespace bsongen
