// Fuzz target: decimal128::from_string on arbitrary text, and to_string on arbitrary bits.
//
// Properties: a string that parses prints (to_string and to_chars agree, within
// max_string_length) and re-parses to the same bits, and printing is a fixed point; a rejected
// string's error points inside it. Any 16 bytes print to a string that parses and prints the same.

#include <cstdint>
#include <string>
#include <string_view>

#include "bsongen/decimal128.hpp"
#include "fuzz_support.hpp"

using namespace bsongen;

namespace {

std::string printed(const decimal128& d) {
  std::string s = d.to_string();
  char buffer[decimal128::max_string_length];
  const char* end = d.to_chars(buffer);
  BSONGEN_FUZZ_REQUIRE(
      end >= buffer && static_cast<std::size_t>(end - buffer) <= decimal128::max_string_length,
      "to_chars wrote outside max_string_length");
  BSONGEN_FUZZ_REQUIRE(std::string_view(buffer, static_cast<std::size_t>(end - buffer)) == s,
                       "to_chars and to_string differ");
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  result<decimal128> parsed = decimal128::from_string(text);
  if (parsed) {
    const std::string s = printed(*parsed);
    result<decimal128> again = decimal128::from_string(s);
    BSONGEN_FUZZ_REQUIRE(again.has_value(), "a printed decimal128 does not parse");
    BSONGEN_FUZZ_REQUIRE(*again == *parsed, "print and re-parse changed the bits");
    BSONGEN_FUZZ_REQUIRE(printed(*again) == s, "printing is not a fixed point");
  } else {
    BSONGEN_FUZZ_REQUIRE(parsed.error().offset <= size, "error offset beyond the text");
    BSONGEN_FUZZ_REQUIRE(parsed.error().code == error_code::invalid_value ||
                             parsed.error().code == error_code::inexact,
                         "from_string failed with an undocumented error code");
  }

  if (size >= 16) {
    const decimal128 bits = decimal128::from_bytes(data);
    const std::string s = printed(bits);
    result<decimal128> back = decimal128::from_string(s);
    BSONGEN_FUZZ_REQUIRE(back.has_value(), "the string of arbitrary bits does not parse");
    BSONGEN_FUZZ_REQUIRE(printed(*back) == s, "arbitrary bits: print, parse, print differs");
  }
  return 0;
}
