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
// when it has no fraction or exponent and fits, else an int64 when it fits, else the nearest
// double, as the specification requires (-9223372036854775809 and 1e2 are doubles; 1e-400 is
// 0.0). A number beyond the range of a double (1e400) fails with `inexact`: infinity is no
// approximation of it, and JSON (RFC 8259, section 6) lets a parser limit the range it accepts.
//
// Errors carry the JSON path ("a.b.3") and the byte offset in the text of what is wrong: the
// token for syntax errors, the opening '{' of a type wrapper that is malformed or of a container
// that is too deep, the first byte that is not valid UTF-8, the opening quote of a string that is
// not closed, the first non-white-space byte after the document, the end of the text when it ends
// inside the document.

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

// Whether the Extended JSON text of `doc` (either mode) reads back as `doc`, as far as its keys
// decide. Extended JSON has no escape for a key's leading '$' (the specification's "Restrictions
// and limitations"), so a document, at any depth, holding a type wrapper's key ($oid, $numberInt,
// $date, $code, $scope, $binary, ... or $regex holding a string) is written as an object that
// reads back as that type ({"$oid": "56e1fc72e0c917e9c4714161"}), as another document, or as
// an error ({"$oid": "zz"}). Returns invalid_value with the path of that key and the byte offset
// of the document holding it (0 for a document_ref); other '$' keys ($ref/$id/$db, the query
// operators $type and $regex holding a non-string, $options, $anything) read back as written.
// Relaxed mode loses number and date types by design; this check is about documents only.
//
//   if (auto ok = bsongen::check_extjson_round_trip(view); !ok) report(ok.error());
//   else bsongen::append_extjson(view, out, bsongen::extjson_mode::canonical);
[[nodiscard]] result<void> check_extjson_round_trip(document_view doc);
[[nodiscard]] result<void> check_extjson_round_trip(document_ref doc);

// The limits of decode_options, with the same meaning and defaults, so BSON made from text always
// decodes with the same options (bsongen-dump --from-json output included).
struct extjson_parse_options {
  // Most documents/arrays on one path of the BSON produced, the outermost counted as 1: counted
  // as decode_options::max_depth counts them, so type wrappers ({"$date": {"$numberLong": "0"}}
  // is one value, not two levels) and the objects inside them are no level and a $scope document
  // is one. (The specification suggests parsers accept 200 levels of JSON; set 200 here and in
  // decode_options for that.) JSON nesting itself stops at 1000 levels whatever this says.
  std::size_t max_depth = 100;
  // Largest BSON document the text may produce (MongoDB's 16 MiB by default). Checked as the
  // BSON grows, so conversion stops near this size, not after building all the text says. Text
  // with more than 2 * max_size + 2 ':' and ',' outside strings is rejected before it is
  // tokenized: every accepted document has at least one byte of BSON per two of them (see
  // extjson_parse.cpp). Parsing needs about 7 bytes of memory per byte of text (simdjson's index
  // and a padded copy), released after the call for text over 1 MiB; callers that accept text of
  // any length bound it before the call.
  std::size_t max_size = 16 * 1024 * 1024;
};

// Converts one Extended JSON document (a JSON object; white space around it allowed, nothing else)
// straight to BSON appended to `out`, without building a document. On error `out` is left as it
// was before the call (size, bytes, overflowed()). Into a caller buffer, any BSON that fits the
// room left succeeds (buffer_too_small says how many bytes it needs otherwise).
[[nodiscard]] result<void> extjson_to_bson(std::string_view json, writer& out,
                                           const extjson_parse_options& options = {});
[[nodiscard]] result<byte_buffer> extjson_to_bson(std::string_view json,
                                                  const extjson_parse_options& options = {});

// Converts the first JSON object of `json` (after leading white space) and returns how many
// characters it took, up to and including its closing brace: the way to read JSON lines or
// concatenated documents. Offsets in errors are relative to `json`.
[[nodiscard]] result<std::size_t> extjson_to_bson_prefix(std::string_view json, writer& out,
                                                         const extjson_parse_options& options = {});
// The same from position `from` of `json`: converts the first JSON object at or after it and
// returns the position one past its closing brace, where the next call starts. Offsets in errors,
// and the positions their messages name, count from the start of `json`: the way to read many
// documents from one text and report errors where they are in it.
[[nodiscard]] result<std::size_t> extjson_to_bson_prefix(std::string_view json, std::size_t from,
                                                         writer& out,
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
