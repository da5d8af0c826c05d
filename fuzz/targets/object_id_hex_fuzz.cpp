// Fuzz target: object_id::from_hex on arbitrary text, and to_hex on arbitrary bytes.
//
// Properties: from_hex accepts exactly the strings of 24 hex digits (an independent check);
// what parses prints as the lowercase of its input and re-parses equal; a rejection's offset lies
// inside the text; any 12 bytes print to 24 lowercase hex digits that parse back to them.

#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>

#include "bsongen/object_id.hpp"
#include "fuzz_support.hpp"

using namespace bsongen;

namespace {

bool is_24_hex_digits(std::string_view text) {
  if (text.size() != 24) return false;
  for (char c : text) {
    if (std::isxdigit(static_cast<unsigned char>(c)) == 0) return false;
  }
  return true;
}

bool is_lowercase_hex(std::string_view text) {
  for (char c : text) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  result<object_id> parsed = object_id::from_hex(text);
  BSONGEN_FUZZ_REQUIRE(parsed.has_value() == is_24_hex_digits(text),
                       "from_hex disagrees with the hex grammar");
  if (parsed) {
    const std::string hex = parsed->to_hex();
    std::string lowered(text);
    for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    BSONGEN_FUZZ_REQUIRE(hex == lowered, "to_hex is not the lowercase input");
    result<object_id> again = object_id::from_hex(hex);
    BSONGEN_FUZZ_REQUIRE(again && *again == *parsed, "to_hex does not re-parse equal");
  } else {
    BSONGEN_FUZZ_REQUIRE(parsed.error().code == error_code::invalid_value,
                         "from_hex failed with another code");
    BSONGEN_FUZZ_REQUIRE(parsed.error().offset <= size, "error offset beyond the text");
  }

  if (size >= object_id::size) {
    const object_id id = object_id::from_bytes(data);
    char buffer[24];
    id.to_hex(buffer);
    const std::string_view hex(buffer, 24);
    BSONGEN_FUZZ_REQUIRE(is_lowercase_hex(hex) && hex == id.to_hex(),
                         "to_hex(char*) and to_hex() differ");
    result<object_id> back = object_id::from_hex(hex);
    BSONGEN_FUZZ_REQUIRE(back && *back == id, "bytes -> hex -> bytes changed the id");
  }
  return 0;
}
