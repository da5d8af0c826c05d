#pragma once

// The BSON corpus's Extended JSON checks, called by the corpus runner (bson_corpus_test.cpp) for
// each case. Inputs are the corpus strings as they appear in the files, so the runner's JSON
// reader stays its own business. Each function returns one line per failed check (empty: pass).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bsongen::test {

struct extjson_valid_case {
  std::string_view canonical_bson_hex;
  std::string_view canonical_extjson;
  std::optional<std::string_view> relaxed_extjson;
  std::optional<std::string_view> degenerate_extjson;
  bool lossy = false;
};

// For a `valid` case:
//  * canonical_bson -> canonical (and relaxed, when given) Extended JSON equals the corpus text,
//    from validated bytes (document_view) and from a decoded document alike;
//  * canonical_extjson parses and writes back to itself; unless lossy it parses to canonical_bson;
//  * relaxed_extjson parses and writes back (relaxed) to itself;
//  * degenerate_extjson parses and writes canonical_extjson; unless lossy it parses to
//  canonical_bson.
// JSON texts are compared as parsed JSON with key order, value types (an integer is not a double)
// and string contents exact.
[[nodiscard]] std::vector<std::string> check_extjson_valid(const extjson_valid_case& c);

// For a `parseErrors` case of a file whose bson_type is `bson_type` ("0x13" for Decimal128):
// Decimal128 strings must be rejected by decimal128::from_string and, as a $numberDecimal value,
// by the Extended JSON parser; every other string must be rejected by the Extended JSON parser
// with json_syntax or json_invalid and a message.
[[nodiscard]] std::vector<std::string> check_extjson_parse_error(std::string_view bson_type,
                                                                 std::string_view text);

}  // namespace bsongen::test
