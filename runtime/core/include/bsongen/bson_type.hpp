#pragma once

// The element type bytes of the BSON specification (bsonspec.org/spec.html).

#include <array>
#include <cstdint>
#include <string_view>

namespace bsongen {

enum class bson_type : std::uint8_t {
  double_ = 0x01,
  string = 0x02,
  document = 0x03,
  array = 0x04,
  binary = 0x05,
  undefined = 0x06,  // deprecated
  object_id = 0x07,
  boolean = 0x08,
  datetime = 0x09,  // int64 milliseconds since the Unix epoch
  null = 0x0A,
  regex = 0x0B,
  db_pointer = 0x0C,  // deprecated
  javascript = 0x0D,
  symbol = 0x0E,                 // deprecated
  javascript_with_scope = 0x0F,  // deprecated
  int32 = 0x10,
  timestamp = 0x11,
  int64 = 0x12,
  decimal128 = 0x13,
  min_key = 0xFF,
  max_key = 0x7F,
};

namespace detail {

// How a value of a type lays out its bytes: each is one length rule of the spec.
enum class value_layout : std::uint8_t {
  none,             // not a BSON type byte
  fixed,            // exactly `width` bytes (0 for null, undefined, MinKey, MaxKey)
  string,           // string, javascript, symbol: int32 n >= 1, n bytes, the last one NUL
  binary,           // int32 n >= 0, subtype byte, n bytes; subtype 2: its first 4 bytes are
                    // an int32 equal to n - 4 (binary_old_prefix)
  document,         // document, array: int32 n >= 5 counting itself, elements, NUL at n - 1
  regex,            // two C strings (pattern, options), each up to its first NUL
  db_pointer,       // a string (the namespace), then 12 ObjectId bytes
  code_with_scope,  // int32 total >= 14, a string (the code), a document filling the rest exactly
};

// What the spec says about the values of one type byte. The one table every reader, writer and
// validator of the runtime takes widths, minimum sizes and UTF-8 duties from (HACKING.md, "Adding
// a BSON type").
struct value_rule {
  std::string_view name;  // the spec's name: "double", "objectId", "javascriptWithScope"
  value_layout layout;
  std::uint8_t width;  // fixed: the value's size; otherwise the fewest bytes a valid value has
  bool utf8;           // holds text the spec requires to be UTF-8 (checked when validating)
};

// Binary subtype 2 (old binary) repeats its length in a 4-byte prefix of the payload.
inline constexpr std::int32_t binary_old_prefix = 4;

[[nodiscard]] consteval std::array<value_rule, 256> make_value_rules() {
  std::array<value_rule, 256> t{};
  for (auto& r : t) r = {"unknown", value_layout::none, 0, false};
  using L = value_layout;
  t[0x01] = {"double", L::fixed, 8, false};
  t[0x02] = {"string", L::string, 5, true};
  t[0x03] = {"document", L::document, 5, false};
  t[0x04] = {"array", L::document, 5, false};
  t[0x05] = {"binary", L::binary, 5, false};
  t[0x06] = {"undefined", L::fixed, 0, false};
  t[0x07] = {"objectId", L::fixed, 12, false};
  t[0x08] = {"bool", L::fixed, 1, false};
  t[0x09] = {"datetime", L::fixed, 8, false};
  t[0x0A] = {"null", L::fixed, 0, false};
  t[0x0B] = {"regex", L::regex, 2, true};
  t[0x0C] = {"dbPointer", L::db_pointer, 5 + 12, true};
  t[0x0D] = {"javascript", L::string, 5, true};
  t[0x0E] = {"symbol", L::string, 5, true};
  t[0x0F] = {"javascriptWithScope", L::code_with_scope, 4 + 5 + 5, true};
  t[0x10] = {"int32", L::fixed, 4, false};
  t[0x11] = {"timestamp", L::fixed, 8, false};
  t[0x12] = {"int64", L::fixed, 8, false};
  t[0x13] = {"decimal128", L::fixed, 16, false};
  t[0x7F] = {"maxKey", L::fixed, 0, false};
  t[0xFF] = {"minKey", L::fixed, 0, false};
  return t;
}
inline constexpr std::array<value_rule, 256> value_rules = make_value_rules();

[[nodiscard]] constexpr const value_rule& rule_of(std::uint8_t type) noexcept {
  return value_rules[type];
}
[[nodiscard]] constexpr const value_rule& rule_of(bson_type type) noexcept {
  return value_rules[static_cast<std::uint8_t>(type)];
}

}  // namespace detail

// True for the 21 type bytes BSON defines. Decoders ask this once per element: two compares,
// checked against the table at compile time below.
[[nodiscard]] constexpr bool is_bson_type(std::uint8_t byte) noexcept {
  return (byte >= 0x01 && byte <= 0x13) || byte == 0xFF || byte == 0x7F;
}

namespace detail {
[[nodiscard]] consteval bool is_bson_type_matches_the_table() {
  for (unsigned b = 0; b < 256; ++b) {
    const auto byte = static_cast<std::uint8_t>(b);
    if (is_bson_type(byte) != (rule_of(byte).layout != value_layout::none)) return false;
  }
  return true;
}
static_assert(is_bson_type_matches_the_table(), "is_bson_type disagrees with value_rules");
}  // namespace detail

// Bytes of a value whose size its type fixes (0 for null, undefined, MinKey and MaxKey), or -1
// when the value carries its own length (strings, binary, documents, regexes, ...).
[[nodiscard]] constexpr int fixed_value_size(bson_type t) noexcept {
  const detail::value_rule& r = detail::rule_of(t);
  return r.layout == detail::value_layout::fixed ? r.width : -1;
}

// The spec's name of a type, e.g. "double", "objectId", "javascriptWithScope".
[[nodiscard]] constexpr std::string_view type_name(bson_type t) noexcept {
  return detail::rule_of(t).name;
}

// Binary subtypes the spec names.
enum class binary_subtype : std::uint8_t {
  generic = 0x00,
  function = 0x01,
  binary_old = 0x02,  // deprecated: payload carries its own int32 length
  uuid_old = 0x03,    // deprecated
  uuid = 0x04,
  md5 = 0x05,
  encrypted = 0x06,
  compressed_column = 0x07,
  sensitive = 0x08,
  vector = 0x09,
  user_defined = 0x80,  // 0x80..0xFF
};

}  // namespace bsongen
