// Fuzz target: Extended JSON parsing (extjson_to_bson, parse_extjson, the prefix form) on
// arbitrary text, then printing in both modes.
//
// Properties: every parse error points inside the text; text that parses gives valid BSON, the
// same bytes through every entry point, and a document equal to decoding those bytes; its
// canonical printing re-parses to exactly the same bytes (canonical mode loses nothing); its
// relaxed printing re-parses, and printing that again gives the same relaxed text.

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "bsongen/document.hpp"
#include "bsongen/document_view.hpp"
#include "bsongen/extjson.hpp"
#include "fuzz_support.hpp"

using namespace bsongen;
using bsongen::fuzz::same_bytes;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  result<byte_buffer> bytes = extjson_to_bson(text);
  result<document> parsed = parse_extjson(text);
  BSONGEN_FUZZ_REQUIRE(bytes.has_value() == parsed.has_value(),
                       "extjson_to_bson and parse_extjson disagree");
  if (!bytes) {
    fuzz::require_sane_error(bytes.error(), size);
    return 0;
  }

  // The parser counts depth as decoding does, with the same default limits: what it accepts
  // decodes with default options.
  result<document> decoded = decode_document(bytes->span());
  if (!decoded)
    std::fprintf(stderr, "decoding the parsed BSON: %s\n", decoded.error().to_string().c_str());
  BSONGEN_FUZZ_REQUIRE(decoded.has_value(), "parsed Extended JSON is not valid BSON");
  BSONGEN_FUZZ_REQUIRE(*decoded == *parsed,
                       "parse_extjson and decoding extjson_to_bson's bytes differ");

  writer prefix_out;
  result<std::size_t> taken = extjson_to_bson_prefix(text, prefix_out);
  BSONGEN_FUZZ_REQUIRE(taken.has_value() && *taken <= size, "the prefix parser fails or overruns");
  BSONGEN_FUZZ_REQUIRE(same_bytes(prefix_out.bytes(), bytes->span()),
                       "the prefix parser gives other bytes");

  const document_view view = document_view::from_trusted_bytes(bytes->span());
  const std::string canonical = to_extjson(view, extjson_mode::canonical);
  BSONGEN_FUZZ_REQUIRE(canonical == to_extjson(decoded->ref(), extjson_mode::canonical),
                       "view and document print different canonical text");
  result<byte_buffer> canonical_bytes = extjson_to_bson(canonical);
  if (!canonical_bytes)
    std::fprintf(stderr, "re-parsing %s: %s\n", canonical.c_str(),
                 canonical_bytes.error().to_string().c_str());
  BSONGEN_FUZZ_REQUIRE(canonical_bytes.has_value(),
                       "canonical Extended JSON we printed does not parse");
  BSONGEN_FUZZ_REQUIRE(same_bytes(canonical_bytes->span(), bytes->span()),
                       "canonical print and re-parse changed the bytes");

  const std::string relaxed = to_extjson(view, extjson_mode::relaxed);
  result<byte_buffer> relaxed_bytes = extjson_to_bson(relaxed);
  if (!relaxed_bytes)
    std::fprintf(stderr, "re-parsing %s: %s\n", relaxed.c_str(),
                 relaxed_bytes.error().to_string().c_str());
  BSONGEN_FUZZ_REQUIRE(relaxed_bytes.has_value(),
                       "relaxed Extended JSON we printed does not parse");
  const std::string relaxed_again =
      to_extjson(document_view::from_trusted_bytes(relaxed_bytes->span()), extjson_mode::relaxed);
  BSONGEN_FUZZ_REQUIRE(relaxed_again == relaxed, "relaxed printing is not a fixed point");
  return 0;
}
