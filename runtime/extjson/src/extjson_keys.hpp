#pragma once

// The '$' keys Extended JSON gives a meaning to, in one place for both directions: the parser
// (extjson_builder.cpp) turns objects holding them into typed values, and the writer
// (extjson_write.cpp) checks that a BSON document holds none of them, since its text would read
// back as the value the keys resemble (the specification has no escape for a leading '$').

#include <array>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "bsongen/bson_type.hpp"

namespace bsongen::detail {

// The keys that make an object a type wrapper (or, for $type/$regex/$options, may).
enum class special : std::uint8_t {
  none,
  oid,
  symbol,
  number_int,
  number_long,
  number_double,
  number_decimal,
  binary,
  type,
  code,
  scope,
  timestamp,
  regular_expression,
  db_pointer,
  date,
  min_key,
  max_key,
  undefined,
  uuid,
  regex,
  options,
  count_
};

// One length switch and at most four fixed-size compares: runs for every '$' key.
[[nodiscard]] inline special classify(std::string_view key) noexcept {
  if (key.size() < 4 || key[0] != '$') return special::none;
  auto is = [key](const auto& name) {
    return key.size() == sizeof name - 1 && std::memcmp(key.data(), name, sizeof name - 1) == 0;
  };
  switch (key.size()) {
    case 4:
      return is("$oid") ? special::oid : special::none;
    case 5:
      return is("$date")   ? special::date
             : is("$code") ? special::code
             : is("$type") ? special::type
             : is("$uuid") ? special::uuid
                           : special::none;
    case 6:
      return is("$scope") ? special::scope : is("$regex") ? special::regex : special::none;
    case 7:
      return is("$binary")   ? special::binary
             : is("$symbol") ? special::symbol
             : is("$minKey") ? special::min_key
             : is("$maxKey") ? special::max_key
                             : special::none;
    case 8:
      return is("$options") ? special::options : special::none;
    case 10:
      return is("$numberInt")   ? special::number_int
             : is("$timestamp") ? special::timestamp
             : is("$undefined") ? special::undefined
             : is("$dbPointer") ? special::db_pointer
                                : special::none;
    case 11:
      return is("$numberLong") ? special::number_long : special::none;
    case 13:
      return is("$numberDouble") ? special::number_double : special::none;
    case 14:
      return is("$numberDecimal") ? special::number_decimal : special::none;
    case 18:
      return is("$regularExpression") ? special::regular_expression : special::none;
    default:
      return special::none;
  }
}

// Keys that make their object a type wrapper or an error: every special key but $type, $regex
// and $options, which are also query operators ({"$type": "string"}, {"$regex": {...}}).
[[nodiscard]] constexpr bool makes_wrapper(special s) noexcept {
  return s != special::none && s != special::type && s != special::regex && s != special::options;
}

// Wrappers that must be the object's only key.
inline constexpr std::array<special, 14> single_key_wrappers{
    special::oid,           special::symbol,
    special::number_int,    special::number_long,
    special::number_double, special::number_decimal,
    special::timestamp,     special::regular_expression,
    special::db_pointer,    special::date,
    special::min_key,       special::max_key,
    special::undefined,     special::uuid};

// Whether a BSON document holding an element of key `key` and type `type` would, written as a
// plain JSON object, not read back as a document: a wrapper's key, or the legacy regex form
// {"$regex": <string>, ...} (a $regex holding anything else is the query operator, and $type,
// $options, $ref, $id, $db and other '$' keys keep their object a document).
[[nodiscard]] inline bool reads_back_as_other(std::string_view key, bson_type type) noexcept {
  const special s = classify(key);
  return makes_wrapper(s) || (s == special::regex && type == bson_type::string);
}

}  // namespace bsongen::detail
