#pragma once

// value: one BSON value of any type, owning (bsongen::value) or borrowed from a document
// (bsongen::value_ref); document_ref / array_ref read nested documents and arrays in place.
//
//   bsongen::document d{{"name", "ada"}, {"tags", bsongen::array{1, 2.5}}};
//   bsongen::value_ref tags = d["tags"];
//   double second = tags[1].as_double();              // 2.5
//   for (bsongen::element e : d) std::cout << e.key() << ' ' << type_name(e.type()) << '\n';
//
// Lifetime: value_ref, element, document_ref, array_ref and every string_view/span they return
// point into the document (or value) they came from and are invalid once it is destroyed,
// assigned to, or appended to.
//
// Accessors: as_<type>() returns the value when the type matches and throws bsongen::exception
// (type_mismatch, or missing_field on a missing value) otherwise. Check type()/is() first for a
// non-throwing path. A missing value (operator[] of an absent key or index) is falsy.
//
// Sizes: BSON sizes are int32, so no string, key, binary payload, regex (pattern + options),
// dbPointer namespace or code can be longer than max_part_size (2 GiB - 6 bytes): building a
// value or appending a key that long throws too_large before anything is copied. Shorter parts
// can still add up to a document beyond 2 GiB, which encode_document refuses with too_large.
//
// Equality: two values are equal when their canonical BSON encodings are equal (same types, keys
// in the same order, doubles compared bit for bit, regex options compared as sorted), except that
// array keys are ignored.

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "bsongen/binary_vector.hpp"
#include "bsongen/bson_type.hpp"
#include "bsongen/decimal128.hpp"
#include "bsongen/detail/arena.hpp"
#include "bsongen/detail/node.hpp"
#include "bsongen/error.hpp"
#include "bsongen/object_id.hpp"
#include "bsongen/raw_document.hpp"
#include "bsongen/types.hpp"

namespace bsongen {

class document;
class array;
class document_ref;
class array_ref;
namespace pmr {
class value;  // bsongen/pmr_value.hpp
}

// Construction tags for the types that C++ has no natural spelling of.
struct javascript {
  std::string code;
};
struct symbol {  // deprecated BSON type
  std::string text;
};
struct undefined {  // deprecated BSON type
  friend constexpr bool operator==(undefined, undefined) noexcept { return true; }
};
struct db_pointer {  // deprecated BSON type
  std::string ns;
  object_id id;
};

// Borrowed forms returned by the accessors (see the lifetime note above).
struct binary_view {
  std::span<const std::uint8_t> bytes;  // for subtype 0x02, without the inner length
  binary_subtype subtype = binary_subtype::generic;
};
struct regex_view {
  std::string_view pattern;
  std::string_view options;  // as stored; the encoder writes them sorted
};
struct db_pointer_view {
  std::string_view ns;
  object_id id;
};

// The longest part a value can hold (see "Sizes" above): an int32 length less the 5 bytes of the
// smallest document around it.
inline constexpr std::size_t max_part_size =
    static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()) - 5;

namespace detail {

[[noreturn]] void throw_type_mismatch(bson_type expected, const node* actual);
// Why `actual` (nullptr: missing) holds no vector: missing_field, or type_mismatch for another type
// or binary subtype, with its key as the path.
[[nodiscard]] bsongen::error not_a_vector(const node* actual);
[[nodiscard]] bool nodes_equal(const node& a, const node& b);
[[nodiscard]] bool containers_equal(const container& a, const container& b, bool compare_keys);

// Random access over a contiguous run of nodes, yielding Ref by value.
template <class Ref>
class node_iterator {
 public:
  using iterator_category = std::random_access_iterator_tag;
  using iterator_concept = std::random_access_iterator_tag;
  using value_type = Ref;
  using difference_type = std::ptrdiff_t;
  using reference = Ref;
  using pointer = void;

  node_iterator() noexcept = default;
  explicit node_iterator(const node* n) noexcept : node_(n) {}
  Ref operator*() const noexcept { return Ref(node_); }
  Ref operator[](difference_type i) const noexcept { return Ref(node_ + i); }
  node_iterator& operator++() noexcept {
    ++node_;
    return *this;
  }
  node_iterator operator++(int) noexcept {
    auto old = *this;
    ++node_;
    return old;
  }
  node_iterator& operator--() noexcept {
    --node_;
    return *this;
  }
  node_iterator operator--(int) noexcept {
    auto old = *this;
    --node_;
    return old;
  }
  node_iterator& operator+=(difference_type d) noexcept {
    node_ += d;
    return *this;
  }
  node_iterator& operator-=(difference_type d) noexcept {
    node_ -= d;
    return *this;
  }
  friend node_iterator operator+(node_iterator it, difference_type d) noexcept { return it += d; }
  friend node_iterator operator+(difference_type d, node_iterator it) noexcept { return it += d; }
  friend node_iterator operator-(node_iterator it, difference_type d) noexcept { return it -= d; }
  friend difference_type operator-(node_iterator a, node_iterator b) noexcept {
    return a.node_ - b.node_;
  }
  friend bool operator==(node_iterator a, node_iterator b) noexcept { return a.node_ == b.node_; }
  friend auto operator<=>(node_iterator a, node_iterator b) noexcept { return a.node_ <=> b.node_; }

 private:
  const node* node_ = nullptr;
};

template <class Derived>
class value_access;
template <class Derived>
class document_access;
// Hands a decoded node and the arena holding its parts to a value (decode_any_value).
struct value_adopter;
template <class Derived>
class array_access;

}  // namespace detail

// A borrowed value inside a document, array or value (see the lifetime note above).
class value_ref;
// A value_ref that also knows its key: what iterating a document yields.
class element;

namespace detail {

// Read access shared by value_ref and value. Derived provides `const node* node_ptr() const`.
template <class Derived>
class value_access {
 public:
  [[nodiscard]] bool exists() const noexcept { return n() != nullptr; }
  explicit operator bool() const noexcept { return exists(); }

  // Throws missing_field on a missing value.
  [[nodiscard]] bson_type type() const { return checked()->type; }
  // False on a missing value.
  [[nodiscard]] bool is(bson_type t) const noexcept { return n() != nullptr && n()->type == t; }
  [[nodiscard]] bool is_null() const noexcept { return is(bson_type::null); }
  [[nodiscard]] bool is_document() const noexcept { return is(bson_type::document); }
  [[nodiscard]] bool is_array() const noexcept { return is(bson_type::array); }
  [[nodiscard]] bool is_string() const noexcept { return is(bson_type::string); }

  [[nodiscard]] double as_double() const { return expect(bson_type::double_)->as.f64; }
  [[nodiscard]] std::int32_t as_int32() const { return expect(bson_type::int32)->as.i32; }
  [[nodiscard]] std::int64_t as_int64() const { return expect(bson_type::int64)->as.i64; }
  [[nodiscard]] bool as_bool() const { return expect(bson_type::boolean)->as.boolean; }
  [[nodiscard]] std::string_view as_string() const { return text(bson_type::string); }
  [[nodiscard]] std::string_view as_javascript() const { return text(bson_type::javascript); }
  [[nodiscard]] std::string_view as_symbol() const { return text(bson_type::symbol); }
  [[nodiscard]] object_id as_object_id() const {
    return object_id::from_bytes(expect(bson_type::object_id)->as.bytes);
  }
  [[nodiscard]] decimal128 as_decimal128() const {
    return decimal128::from_bytes(expect(bson_type::decimal128)->as.bytes);
  }
  [[nodiscard]] datetime as_datetime() const {
    return datetime(std::chrono::milliseconds(expect(bson_type::datetime)->as.i64));
  }
  [[nodiscard]] timestamp as_timestamp() const {
    const std::uint64_t raw = expect(bson_type::timestamp)->as.u64;
    return {static_cast<std::uint32_t>(raw >> 32), static_cast<std::uint32_t>(raw)};
  }
  [[nodiscard]] binary_view as_binary() const {
    const node* v = expect(bson_type::binary);
    return {{reinterpret_cast<const std::uint8_t*>(v->as.text.data), v->as.text.size},
            static_cast<binary_subtype>(v->subtype)};
  }
  // The vector a binary of subtype 0x09 holds (bsongen/binary_vector.hpp), viewed in place: never
  // throws; missing_field on a missing value, type_mismatch for another type or subtype, and the
  // specification's verdict (invalid_value, invalid_length; offset within the payload) for a
  // payload that breaks its rules.
  //
  //   bsongen::result<bsongen::vector_view> v = doc["embedding"].as_vector();
  //   if (v && v->is(bsongen::vector_dtype::float32)) use(v->as_float32());
  [[nodiscard]] result<vector_view> as_vector() const {
    const node* v = n();
    if (v == nullptr || v->type != bson_type::binary ||
        v->subtype != static_cast<std::uint8_t>(binary_subtype::vector)) [[unlikely]] {
      return not_a_vector(v);
    }
    return parse_vector({reinterpret_cast<const std::uint8_t*>(v->as.text.data), v->as.text.size});
  }
  [[nodiscard]] regex_view as_regex() const {
    const node* v = expect(bson_type::regex);
    return {{v->as.text.data, v->as.text.size},
            {v->as.text.data + v->as.text.size + 1, v->as.text.extra}};
  }
  [[nodiscard]] db_pointer_view as_db_pointer() const {
    const node* v = expect(bson_type::db_pointer);
    return {{v->as.text.data, v->as.text.size},
            object_id::from_bytes(
                reinterpret_cast<const std::uint8_t*>(v->as.text.data + v->as.text.size + 1))};
  }
  // Code, then its scope document.
  [[nodiscard]] std::string_view as_javascript_with_scope_code() const {
    const node* v = expect(bson_type::javascript_with_scope);
    return {v->as.cws->code, v->as.cws->code_size};
  }
  [[nodiscard]] document_ref as_javascript_with_scope_scope() const;
  [[nodiscard]] document_ref as_document() const;
  [[nodiscard]] array_ref as_array() const;

  // The element with this key in a document (the last, if the key repeats); missing when this is
  // not a document or has no such key.
  [[nodiscard]] value_ref operator[](std::string_view key) const;
  // The element at this position in an array; missing when this is not an array or too short.
  [[nodiscard]] value_ref operator[](std::size_t index) const;
  // Disambiguates d["a"][0] (a literal 0 would also convert to string_view).
  [[nodiscard]] value_ref operator[](int index) const;

 private:
  [[nodiscard]] const node* n() const noexcept {
    return static_cast<const Derived&>(*this).node_ptr();
  }
  [[nodiscard]] const node* checked() const {
    const node* v = n();
    if (v == nullptr) [[unlikely]]
      throw_type_mismatch(bson_type::null, nullptr);
    return v;
  }
  [[nodiscard]] const node* expect(bson_type t) const {
    const node* v = n();
    if (v == nullptr || v->type != t) [[unlikely]]
      throw_type_mismatch(t, v);
    return v;
  }
  [[nodiscard]] std::string_view text(bson_type t) const {
    const node* v = expect(t);
    return {v->as.text.data, v->as.text.size};
  }
};

}  // namespace detail

class value_ref : public detail::value_access<value_ref> {
 public:
  value_ref() noexcept = default;  // missing
  explicit value_ref(const detail::node* n) noexcept : node_(n) {}
  [[nodiscard]] const detail::node* node_ptr() const noexcept { return node_; }

 private:
  const detail::node* node_ = nullptr;
};

class element : public value_ref {
 public:
  element() noexcept = default;
  explicit element(const detail::node* n) noexcept : value_ref(n) {}
  // The key as read or built. Precondition: exists().
  [[nodiscard]] std::string_view key() const noexcept {
    return {node_ptr()->key, node_ptr()->key_size};
  }
  [[nodiscard]] value_ref value() const noexcept { return value_ref(node_ptr()); }
};

namespace detail {

// Read access shared by document_ref and document. Derived provides `const container& root()
// const`.
template <class Derived>
class document_access {
 public:
  using iterator = node_iterator<element>;

  [[nodiscard]] std::size_t size() const noexcept { return r().size; }
  [[nodiscard]] bool empty() const noexcept { return r().size == 0; }
  [[nodiscard]] iterator begin() const noexcept { return iterator(r().elements); }
  [[nodiscard]] iterator end() const noexcept { return iterator(r().elements + r().size); }

  // The last element with this key (a key read twice: the later one wins, as in generated
  // structs and other drivers; iteration still shows both); missing when absent. Linear: documents
  // are small and keep their order; index them yourself for repeated lookups in large ones.
  [[nodiscard]] element find(std::string_view key) const noexcept {
    const container& c = r();
    for (const node* e = c.elements + c.size; e != c.elements;) {
      --e;
      if (e->key_size == key.size() &&
          (key.empty() || std::memcmp(e->key, key.data(), key.size()) == 0)) {
        return element(e);
      }
    }
    return element();
  }
  [[nodiscard]] value_ref operator[](std::string_view key) const noexcept { return find(key); }
  [[nodiscard]] bool contains(std::string_view key) const noexcept { return find(key).exists(); }
  // The element at position i. Precondition: i < size().
  [[nodiscard]] element at(std::size_t i) const noexcept { return element(r().elements + i); }

 private:
  [[nodiscard]] const container& r() const noexcept {
    return static_cast<const Derived&>(*this).root();
  }
};

// Read access shared by array_ref and array. Derived provides `const container& root() const`.
template <class Derived>
class array_access {
 public:
  using iterator = node_iterator<value_ref>;

  [[nodiscard]] std::size_t size() const noexcept { return r().size; }
  [[nodiscard]] bool empty() const noexcept { return r().size == 0; }
  [[nodiscard]] iterator begin() const noexcept { return iterator(r().elements); }
  [[nodiscard]] iterator end() const noexcept { return iterator(r().elements + r().size); }
  // Missing when i >= size().
  [[nodiscard]] value_ref operator[](std::size_t i) const noexcept {
    return i < r().size ? value_ref(r().elements + i) : value_ref();
  }
  [[nodiscard]] value_ref operator[](int i) const noexcept {
    return i < 0 ? value_ref() : (*this)[static_cast<std::size_t>(i)];
  }

 private:
  [[nodiscard]] const container& r() const noexcept {
    return static_cast<const Derived&>(*this).root();
  }
};

}  // namespace detail

// A borrowed document (see the lifetime note above).
class document_ref : public detail::document_access<document_ref> {
 public:
  document_ref() noexcept = default;
  explicit document_ref(const detail::container* c) noexcept : root_(c != nullptr ? c : &empty_) {}
  [[nodiscard]] const detail::container& root() const noexcept { return *root_; }

  friend bool operator==(document_ref a, document_ref b) {
    return detail::containers_equal(a.root(), b.root(), true);
  }

 private:
  static constexpr detail::container empty_{};
  const detail::container* root_ = &empty_;
};

// A borrowed array (see the lifetime note above).
class array_ref : public detail::array_access<array_ref> {
 public:
  array_ref() noexcept = default;
  explicit array_ref(const detail::container* c) noexcept : root_(c != nullptr ? c : &empty_) {}
  [[nodiscard]] const detail::container& root() const noexcept { return *root_; }

  friend bool operator==(array_ref a, array_ref b) {
    return detail::containers_equal(a.root(), b.root(), false);
  }

 private:
  static constexpr detail::container empty_{};
  const detail::container* root_ = &empty_;
};

inline bool operator==(value_ref a, value_ref b) {
  if (!a.exists() || !b.exists()) return a.exists() == b.exists();
  return detail::nodes_equal(*a.node_ptr(), *b.node_ptr());
}

namespace detail {

template <class D>
document_ref value_access<D>::as_javascript_with_scope_scope() const {
  return document_ref(&expect(bson_type::javascript_with_scope)->as.cws->scope);
}
template <class D>
document_ref value_access<D>::as_document() const {
  return document_ref(&expect(bson_type::document)->as.doc);
}
template <class D>
array_ref value_access<D>::as_array() const {
  return array_ref(&expect(bson_type::array)->as.doc);
}
template <class D>
value_ref value_access<D>::operator[](std::string_view key) const {
  const node* v = n();
  if (v == nullptr || v->type != bson_type::document) return value_ref();
  return document_ref(&v->as.doc).find(key);
}
template <class D>
value_ref value_access<D>::operator[](std::size_t index) const {
  const node* v = n();
  if (v == nullptr || v->type != bson_type::array) return value_ref();
  return array_ref(&v->as.doc)[index];
}
template <class D>
value_ref value_access<D>::operator[](int index) const {
  return index < 0 ? value_ref() : (*this)[static_cast<std::size_t>(index)];
}

// Integral types a value stores as int32 or int64 (not bool, not character types).
template <class T>
concept bson_integer = std::integral<T> && !std::same_as<T, bool> && !std::same_as<T, char> &&
                       !std::same_as<T, wchar_t> && !std::same_as<T, char8_t> &&
                       !std::same_as<T, char16_t> && !std::same_as<T, char32_t>;

[[noreturn]] void throw_integer_out_of_range();

}  // namespace detail

// An owning BSON value of any type, built from the C++ value it holds:
//
//   value a = 42;                     // int32 (integers up to 32 bits; wider ones are int64)
//   value b = std::int64_t{1} << 40;  // int64
//   value c = "text";                 // string
//   value d = document{{"x", 1}};     // embedded document (moved in without a copy)
//   value e = bsongen::javascript{"f()"};
//
// Holds its variable-length parts in an arena of its own (none for scalars), sized to them: a value
// keeps alive what it holds, never the document it was decoded or copied from.
class value : public detail::value_access<value> {
 public:
  value() noexcept : value(nullptr) {}
  value(std::nullptr_t) noexcept { set_type(bson_type::null); }  // NOLINT: implicit by design
  value(bool v) noexcept {
    set_type(bson_type::boolean);
    node_.as.boolean = v;
  }  // NOLINT
  value(double v) noexcept {
    set_type(bson_type::double_);
    node_.as.f64 = v;
  }  // NOLINT
  template <detail::bson_integer T>
  value(T v) {  // NOLINT
    if constexpr (std::is_signed_v<T> && sizeof(T) <= 4) {
      set_type(bson_type::int32);
      node_.as.i32 = static_cast<std::int32_t>(v);
    } else if constexpr (std::is_unsigned_v<T> && sizeof(T) < 4) {
      set_type(bson_type::int32);
      node_.as.i32 = static_cast<std::int32_t>(v);
    } else {
      if constexpr (std::is_unsigned_v<T> && sizeof(T) >= 8) {
        if (v > static_cast<T>(std::numeric_limits<std::int64_t>::max()))
          detail::throw_integer_out_of_range();
      }
      set_type(bson_type::int64);
      node_.as.i64 = static_cast<std::int64_t>(v);
    }
  }
  value(const char* s) : value(std::string_view(s)) {}         // NOLINT
  value(const std::string& s) : value(std::string_view(s)) {}  // NOLINT
  value(std::string_view s);                                   // NOLINT
  value(object_id id) noexcept {
    set_type(bson_type::object_id);
    std::memcpy(node_.as.bytes, id.data(), 12);
  }  // NOLINT
  value(decimal128 d) noexcept {
    set_type(bson_type::decimal128);
    d.to_bytes(node_.as.bytes);
  }  // NOLINT
  value(datetime t) noexcept {
    set_type(bson_type::datetime);
    node_.as.i64 = t.time_since_epoch().count();
  }                              // NOLINT
  value(timestamp t) noexcept {  // NOLINT
    set_type(bson_type::timestamp);
    node_.as.u64 = static_cast<std::uint64_t>(t.seconds) << 32 | t.increment;
  }
  value(const binary& b);                                        // NOLINT
  value(const regex& r);                                         // NOLINT
  value(min_key) noexcept { set_type(bson_type::min_key); }      // NOLINT
  value(max_key) noexcept { set_type(bson_type::max_key); }      // NOLINT
  value(undefined) noexcept { set_type(bson_type::undefined); }  // NOLINT
  value(const javascript& code);                                 // NOLINT
  value(const symbol& s);                                        // NOLINT
  value(const db_pointer& p);                                    // NOLINT
  // The scope is decoded from its bytes; throws bsongen::exception when they are not a valid
  // document (raw_document's precondition).
  value(const javascript_with_scope& c);                         // NOLINT
  value(const document& d);                                      // NOLINT
  value(document&& d) noexcept;                                  // NOLINT
  value(const array& a);                                         // NOLINT
  value(array&& a) noexcept;                                     // NOLINT
  value(value_ref v);                                            // NOLINT: a deep copy
  value(const element& e) : value(static_cast<value_ref>(e)) {}  // NOLINT

  // A binary of subtype 0x09 (bsongen/binary_vector.hpp) holding these elements:
  //
  //   bsongen::document d{{"embedding", bsongen::value::from_vector(std::span<const float>(v))}};
  //
  // Packed bits that break the specification's rules (padding above 7, padding with no bytes,
  // nonzero ignored bits) throw bsongen::exception (invalid_value). vector_from_array
  // (bsongen/document.hpp) builds one from a BSON array.
  [[nodiscard]] static value from_vector(std::span<const float> elements);
  [[nodiscard]] static value from_vector(std::span<const std::int8_t> elements);
  [[nodiscard]] static value from_vector(const packed_bits& bits);

  value(const value& other) : value(value_ref(&other.node_)) {}
  value& operator=(const value& other) {
    if (this != &other) *this = value(other);
    return *this;
  }
  value(value&& other) noexcept = default;
  value& operator=(value&& other) noexcept = default;
  ~value() = default;

  [[nodiscard]] const detail::node* node_ptr() const noexcept { return &node_; }
  [[nodiscard]] value_ref ref() const noexcept { return value_ref(&node_); }
  operator value_ref() const noexcept { return ref(); }  // NOLINT: borrowing is free

  // Compared through value_ref (see the equality note above).

 private:
  friend class document;
  friend class array;
  friend struct detail::value_adopter;
  friend class pmr::value;
  // A deep copy of v with its parts on `upstream` (the runtime's block resource when nullptr).
  value(value_ref v, std::pmr::memory_resource* upstream);
  // Where its parts are, or nullptr when it has none.
  [[nodiscard]] std::pmr::memory_resource* parts_resource() const noexcept;
  void set_type(bson_type t) noexcept {
    node_.key = nullptr;
    node_.key_size = 0;
    node_.type = t;
    node_.subtype = 0;
    node_.flags = detail::node_flags::key_utf8 | detail::unchecked_text_flags(t);  // no key
  }
  // Its arena, made with a first block of `bytes` on `upstream` (the runtime's block resource when
  // nullptr) if it has none yet.
  detail::arena& own_arena(std::size_t bytes, std::pmr::memory_resource* upstream = nullptr);

  detail::node node_{};
  detail::value_storage storage_;
};

}  // namespace bsongen
