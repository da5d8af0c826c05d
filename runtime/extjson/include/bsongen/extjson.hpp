#pragma once

// MongoDB Extended JSON v2 (canonical and relaxed) to and from BSON.
//
//   auto bytes = bsongen::extjson_to_bson(R"({"_id": {"$oid": "56e1fc72e0c917e9c4714161"}, "n":
//   1})"); if (!bytes) std::cerr << bytes.error().to_string() << '\n'; auto view =
//   bsongen::document_view::from_bytes(*bytes); std::string relaxed = bsongen::to_extjson(*view);
//   // {"_id":{"$oid":"56e1..."},"n":1} std::string canonical = bsongen::to_extjson(*view,
//   bsongen::extjson_mode::canonical);
//                                                                     // ..."n":{"$numberInt":"1"}}
//
// Writing follows the specification's canonical and relaxed forms, compactly (no spaces). Doubles
// print their shortest round-trip digits: fixed notation with at least one fractional digit
// ("1.0", "-0.0", "0.0001") when the decimal exponent is in [-4, 16), otherwise scientific with an
// upper-case E and a sign ("1.2345678921232E+18", "5E-324"), as the BSON corpus expects.
//
// Parsing accepts canonical, relaxed and the legacy forms the specification lists ($binary with
// $type, $regex with $options, $uuid, $date as an ISO-8601 string), keeps key order, and rejects
// anything else that looks like a type wrapper with json_invalid. A bare JSON number is an int32
// when it has no fraction or exponent and fits, else an int64 when it fits, else a double.
// Errors carry the JSON path ("a.b.3") and the character offset in the text.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "bsongen/byte_buffer.hpp"
#include "bsongen/document.hpp"
#include "bsongen/document_view.hpp"
#include "bsongen/error.hpp"
#include "bsongen/writer.hpp"

namespace bsongen {

enum class extjson_mode : std::uint8_t {
  canonical,  // every type kept: {"$numberInt": "1"}, {"$date": {"$numberLong": "0"}}
  relaxed,    // numbers as JSON numbers, dates 1970..9999 as ISO-8601 strings; may lose the type
};

// Appends the Extended JSON text of `doc` to `out`. The documents come from validated bytes or
// from the document API, so writing cannot fail.
void append_extjson(document_view doc, std::string& out, extjson_mode mode = extjson_mode::relaxed);
void append_extjson(document_ref doc, std::string& out, extjson_mode mode = extjson_mode::relaxed);
[[nodiscard]] std::string to_extjson(document_view doc, extjson_mode mode = extjson_mode::relaxed);
[[nodiscard]] std::string to_extjson(document_ref doc, extjson_mode mode = extjson_mode::relaxed);

struct extjson_parse_options {
  // Most JSON objects and arrays on one path, the outermost counted as 1. Type wrappers are
  // objects too ({"$date": {"$numberLong": "0"}} is two levels), hence more than BSON's 100.
  // Values above 1024 act as 1024 (the tokenizer's limit).
  std::size_t max_depth = 128;
  // Largest BSON document the text may produce (MongoDB's 16 MiB by default).
  std::size_t max_size = 16 * 1024 * 1024;
};

// Converts one Extended JSON document (a JSON object; white space around it allowed, nothing else)
// straight to BSON appended to `out`, without building a document. On error `out` is left at its
// size before the call.
[[nodiscard]] result<void> extjson_to_bson(std::string_view json, writer& out,
                                           const extjson_parse_options& options = {});
[[nodiscard]] result<byte_buffer> extjson_to_bson(std::string_view json,
                                                  const extjson_parse_options& options = {});

// Converts the first JSON object of `json` (after leading white space) and returns how many
// characters it took, up to and including its closing brace: the way to read JSON lines or
// concatenated documents. Offsets in errors are relative to `json`.
[[nodiscard]] result<std::size_t> extjson_to_bson_prefix(std::string_view json, writer& out,
                                                         const extjson_parse_options& options = {});

// Parses one Extended JSON document into an owning document.
[[nodiscard]] result<document> parse_extjson(std::string_view json,
                                             const extjson_parse_options& options = {});

namespace detail {
// Longest text format_double writes ("-2.2250738585072014E-308").
inline constexpr std::size_t max_double_chars = 32;
// Writes the Extended JSON form of a finite double (see the header comment) to `out` and returns
// one past the last character. Precondition: std::isfinite(v); `out` has max_double_chars room.
char* format_double(double v, char* out) noexcept;
}  // namespace detail

}  // namespace bsongen
