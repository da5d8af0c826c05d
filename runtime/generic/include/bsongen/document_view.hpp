#pragma once

// document_view: a zero-copy, allocation-free view over encoded BSON.
//
//   auto v = bsongen::document_view::from_bytes(bytes);   // validates once, copies nothing
//   if (!v) return v.error();
//   for (bsongen::view_element e : *v) std::cout << e.key() << '\n';
//   std::string_view name = (*v)["name"].as_string();
//
// from_bytes validates the whole document exactly as decode_document does, so every later read
// trusts the structure and is a few loads. Lookups and iteration walk the bytes (linear in the
// number of elements before the one wanted).
//
// Lifetime: the view and everything it returns point into `bytes`, which must outlive them and
// stay unchanged.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <span>
#include <string_view>

#include "bsongen/binary_vector.hpp"
#include "bsongen/bson_type.hpp"
#include "bsongen/decimal128.hpp"
#include "bsongen/decode_options.hpp"
#include "bsongen/detail/endian.hpp"
#include "bsongen/error.hpp"
#include "bsongen/object_id.hpp"
#include "bsongen/types.hpp"
#include "bsongen/value.hpp"

namespace bsongen {

class document_view;
class array_view;

namespace detail {
// Bytes of the value of a type-`t` element starting at `v`. Precondition: validated bytes.
[[nodiscard]] std::size_t trusted_value_size(bson_type t, const std::uint8_t* v) noexcept;
[[noreturn]] void throw_view_type_mismatch(bson_type expected, bool missing, bson_type actual);
}  // namespace detail

// One element of a document_view: its key, type and value. Missing (falsy) when a lookup fails.
class view_element {
 public:
  view_element() noexcept = default;
  // Precondition: `type_byte` points at an element of validated BSON.
  explicit view_element(const std::uint8_t* type_byte) noexcept
      : start_(type_byte),
        key_size_(
            static_cast<std::uint32_t>(std::strlen(reinterpret_cast<const char*>(type_byte + 1)))) {
  }

  [[nodiscard]] bool exists() const noexcept { return start_ != nullptr; }
  explicit operator bool() const noexcept { return exists(); }
  [[nodiscard]] std::string_view key() const noexcept {
    return {reinterpret_cast<const char*>(start_ + 1), key_size_};
  }
  // Throws missing_field on a missing element.
  [[nodiscard]] bson_type type() const {
    if (start_ == nullptr) detail::throw_view_type_mismatch(bson_type::null, true, bson_type::null);
    return static_cast<bson_type>(*start_);
  }
  [[nodiscard]] bool is(bson_type t) const noexcept {
    return start_ != nullptr && *start_ == static_cast<std::uint8_t>(t);
  }

  [[nodiscard]] double as_double() const { return detail::load_f64_le(expect(bson_type::double_)); }
  [[nodiscard]] std::int32_t as_int32() const {
    return detail::load_i32_le(expect(bson_type::int32));
  }
  [[nodiscard]] std::int64_t as_int64() const {
    return detail::load_i64_le(expect(bson_type::int64));
  }
  [[nodiscard]] bool as_bool() const { return *expect(bson_type::boolean) != 0; }
  [[nodiscard]] std::string_view as_string() const { return text(expect(bson_type::string)); }
  [[nodiscard]] std::string_view as_javascript() const {
    return text(expect(bson_type::javascript));
  }
  [[nodiscard]] std::string_view as_symbol() const { return text(expect(bson_type::symbol)); }
  [[nodiscard]] object_id as_object_id() const {
    return object_id::from_bytes(expect(bson_type::object_id));
  }
  [[nodiscard]] decimal128 as_decimal128() const {
    return decimal128::from_bytes(expect(bson_type::decimal128));
  }
  [[nodiscard]] datetime as_datetime() const {
    return datetime(std::chrono::milliseconds(detail::load_i64_le(expect(bson_type::datetime))));
  }
  [[nodiscard]] timestamp as_timestamp() const {
    const std::uint8_t* v = expect(bson_type::timestamp);
    return {detail::load_u32_le(v + 4), detail::load_u32_le(v)};
  }
  [[nodiscard]] binary_view as_binary() const;
  // The vector a binary of subtype 0x09 holds, as value_ref::as_vector (bsongen/value.hpp): never
  // throws; offsets are within the payload.
  [[nodiscard]] result<vector_view> as_vector() const;
  [[nodiscard]] regex_view as_regex() const;
  [[nodiscard]] db_pointer_view as_db_pointer() const;
  [[nodiscard]] std::string_view as_javascript_with_scope_code() const {
    return text(expect(bson_type::javascript_with_scope) + 4);
  }
  [[nodiscard]] document_view as_javascript_with_scope_scope() const;
  [[nodiscard]] document_view as_document() const;
  [[nodiscard]] array_view as_array() const;

  // The encoded value (what follows the key).
  [[nodiscard]] std::span<const std::uint8_t> value_bytes() const noexcept {
    return {value_start(),
            detail::trusted_value_size(static_cast<bson_type>(*start_), value_start())};
  }
  // The next element's type byte (or the terminator).
  [[nodiscard]] const std::uint8_t* next() const noexcept {
    return value_start() +
           detail::trusted_value_size(static_cast<bson_type>(*start_), value_start());
  }

 private:
  [[nodiscard]] const std::uint8_t* value_start() const noexcept { return start_ + key_size_ + 2; }
  [[nodiscard]] const std::uint8_t* expect(bson_type t) const {
    if (!is(t)) [[unlikely]] {
      detail::throw_view_type_mismatch(
          t, start_ == nullptr,
          start_ == nullptr ? bson_type::null : static_cast<bson_type>(*start_));
    }
    return value_start();
  }
  [[nodiscard]] static std::string_view text(const std::uint8_t* v) noexcept {
    return {reinterpret_cast<const char*>(v + 4),
            static_cast<std::size_t>(detail::load_i32_le(v) - 1)};
  }

  const std::uint8_t* start_ = nullptr;
  std::uint32_t key_size_ = 0;
};

class view_iterator {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = view_element;
  using difference_type = std::ptrdiff_t;
  using reference = view_element;
  using pointer = void;

  view_iterator() noexcept = default;
  explicit view_iterator(const std::uint8_t* p) noexcept : p_(p) {}
  view_element operator*() const noexcept { return view_element(p_); }
  view_iterator& operator++() noexcept {
    p_ = view_element(p_).next();
    return *this;
  }
  view_iterator operator++(int) noexcept {
    auto old = *this;
    ++*this;
    return old;
  }
  // The end iterator points at the terminating NUL.
  friend bool operator==(view_iterator a, view_iterator b) noexcept { return a.p_ == b.p_; }

 private:
  const std::uint8_t* p_ = nullptr;
};

class document_view {
 public:
  using iterator = view_iterator;

  // An empty document's view.
  document_view() noexcept : bytes_(empty_bytes, 5) {}

  // Validates `bytes` (one document spanning all of them) like decode_document.
  [[nodiscard]] static result<document_view> from_bytes(std::span<const std::uint8_t> bytes,
                                                        const decode_options& options = {});
  // No checks. Precondition: `bytes` is one valid BSON document (e.g. encode_document output, or
  // a sub-document of a validated view).
  [[nodiscard]] static document_view from_trusted_bytes(
      std::span<const std::uint8_t> bytes) noexcept {
    return document_view(bytes);
  }

  [[nodiscard]] std::span<const std::uint8_t> bytes() const noexcept { return bytes_; }
  [[nodiscard]] iterator begin() const noexcept { return iterator(bytes_.data() + 4); }
  [[nodiscard]] iterator end() const noexcept {
    return iterator(bytes_.data() + bytes_.size() - 1);
  }
  [[nodiscard]] bool empty() const noexcept { return bytes_.size() == 5; }
  // Linear: counts the elements.
  [[nodiscard]] std::size_t count() const noexcept;

  // The last element with this key (see document.hpp on duplicate keys); missing when absent.
  // Walks the whole document.
  [[nodiscard]] view_element find(std::string_view key) const noexcept;
  [[nodiscard]] view_element operator[](std::string_view key) const noexcept { return find(key); }
  [[nodiscard]] bool contains(std::string_view key) const noexcept { return find(key).exists(); }

 private:
  explicit document_view(std::span<const std::uint8_t> bytes) noexcept : bytes_(bytes) {}
  static constexpr std::uint8_t empty_bytes[5] = {5, 0, 0, 0, 0};
  std::span<const std::uint8_t> bytes_;
};

// An array inside a document_view; elements by position (linear) or by iteration.
class array_view {
 public:
  using iterator = view_iterator;

  array_view() noexcept = default;
  explicit array_view(document_view doc) noexcept : doc_(doc) {}

  [[nodiscard]] iterator begin() const noexcept { return doc_.begin(); }
  [[nodiscard]] iterator end() const noexcept { return doc_.end(); }
  [[nodiscard]] bool empty() const noexcept { return doc_.empty(); }
  [[nodiscard]] std::size_t count() const noexcept { return doc_.count(); }
  // The i-th element (whatever its key says); missing when there are fewer.
  [[nodiscard]] view_element operator[](std::size_t i) const noexcept;
  [[nodiscard]] document_view as_document_view() const noexcept { return doc_; }

 private:
  document_view doc_;
};

// vector_from_array (bsongen/document.hpp) over an array read in place.
[[nodiscard]] result<value> vector_from_array(const array_view& elements, vector_dtype dtype,
                                              std::uint8_t padding = 0);

inline document_view view_element::as_document() const {
  const std::uint8_t* v = expect(bson_type::document);
  return document_view::from_trusted_bytes({v, static_cast<std::size_t>(detail::load_i32_le(v))});
}
inline array_view view_element::as_array() const {
  const std::uint8_t* v = expect(bson_type::array);
  return array_view(
      document_view::from_trusted_bytes({v, static_cast<std::size_t>(detail::load_i32_le(v))}));
}

}  // namespace bsongen
