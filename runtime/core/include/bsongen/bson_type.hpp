#pragma once

// The element type bytes of the BSON specification (bsonspec.org/spec.html).

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
  symbol = 0x0E,                  // deprecated
  javascript_with_scope = 0x0F,   // deprecated
  int32 = 0x10,
  timestamp = 0x11,
  int64 = 0x12,
  decimal128 = 0x13,
  min_key = 0xFF,
  max_key = 0x7F,
};

// True for the 21 type bytes BSON defines.
[[nodiscard]] constexpr bool is_bson_type(std::uint8_t byte) noexcept {
  return (byte >= 0x01 && byte <= 0x13) || byte == 0xFF || byte == 0x7F;
}

// Bytes of a value whose size its type fixes (0 for null, undefined, MinKey and MaxKey), or -1
// when the value carries its own length (strings, binary, documents, regexes, ...).
[[nodiscard]] constexpr int fixed_value_size(bson_type t) noexcept {
  switch (t) {
    case bson_type::double_:
    case bson_type::datetime:
    case bson_type::int64:
    case bson_type::timestamp:
      return 8;
    case bson_type::int32:
      return 4;
    case bson_type::boolean:
      return 1;
    case bson_type::null:
    case bson_type::undefined:
    case bson_type::min_key:
    case bson_type::max_key:
      return 0;
    case bson_type::object_id:
      return 12;
    case bson_type::decimal128:
      return 16;
    default:
      return -1;
  }
}

// The spec's name of a type, e.g. "double", "objectId", "javascriptWithScope".
[[nodiscard]] constexpr std::string_view type_name(bson_type t) noexcept {
  switch (t) {
    case bson_type::double_: return "double";
    case bson_type::string: return "string";
    case bson_type::document: return "document";
    case bson_type::array: return "array";
    case bson_type::binary: return "binary";
    case bson_type::undefined: return "undefined";
    case bson_type::object_id: return "objectId";
    case bson_type::boolean: return "bool";
    case bson_type::datetime: return "datetime";
    case bson_type::null: return "null";
    case bson_type::regex: return "regex";
    case bson_type::db_pointer: return "dbPointer";
    case bson_type::javascript: return "javascript";
    case bson_type::symbol: return "symbol";
    case bson_type::javascript_with_scope: return "javascriptWithScope";
    case bson_type::int32: return "int32";
    case bson_type::timestamp: return "timestamp";
    case bson_type::int64: return "int64";
    case bson_type::decimal128: return "decimal128";
    case bson_type::min_key: return "minKey";
    case bson_type::max_key: return "maxKey";
  }
  return "unknown";
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
