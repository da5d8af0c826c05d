// Fuzz target: decode_document / validate_document on arbitrary bytes.
//
// Properties beyond "no crash, no out-of-bounds read":
// - decode_document and validate_document accept the same inputs and report the same error
//   (code, path, offset), and every error points inside the input;
// - whatever decodes re-encodes (encoded_size exact) to bytes that decode to an equal document
//   and re-encode byte-identically; canonical input re-encodes to exactly the input;
// - encoding into a caller buffer one byte short fails with buffer_too_small, an exact one works;
// - a deep copy compares equal; decoding without UTF-8 validation accepts the same document.

#include <cstdint>
#include <cstdio>
#include <span>
#include <vector>

#include "bsongen/document.hpp"
#include "bsongen/document_view.hpp"
#include "fuzz_support.hpp"

using namespace bsongen;
using bsongen::fuzz::same_bytes;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> input(data, size);
  result<document> decoded = decode_document(input);
  result<void> validated = validate_document(input);
  BSONGEN_FUZZ_REQUIRE(decoded.has_value() == validated.has_value(),
                       "decode and validate disagree");
  if (!decoded) {
    fuzz::require_sane_error(decoded.error(), size);
    BSONGEN_FUZZ_REQUIRE(fuzz::same_error(decoded.error(), validated.error()),
                         "decode and validate report different errors");
    return 0;
  }

  decode_options lenient;
  lenient.validate_utf8 = false;
  result<document> lenient_decoded = decode_document(input, lenient);
  BSONGEN_FUZZ_REQUIRE(lenient_decoded && *lenient_decoded == *decoded,
                       "UTF-8 leniency changed the result");

  const byte_buffer encoded = encode_document(*decoded);
  BSONGEN_FUZZ_REQUIRE(encoded.size() == encoded_size(*decoded), "encoded_size is not exact");
  result<document> again = decode_document(encoded);
  if (!again) std::fprintf(stderr, "re-decoding: %s\n", again.error().to_string().c_str());
  BSONGEN_FUZZ_REQUIRE(again.has_value(), "re-encoded bytes do not decode");
  BSONGEN_FUZZ_REQUIRE(*again == *decoded, "re-encoded bytes decode to a different document");
  BSONGEN_FUZZ_REQUIRE(same_bytes(encode_document(*again), encoded),
                       "canonical bytes do not re-encode identically");

  auto view = document_view::from_trusted_bytes(input);
  if (fuzz::is_canonical(view, false)) {
    BSONGEN_FUZZ_REQUIRE(same_bytes(encoded, input),
                         "canonical input does not re-encode byte-identically");
  }

  std::vector<std::uint8_t> exact(encoded.size());
  writer fits(exact);
  BSONGEN_FUZZ_REQUIRE(encode_document(*decoded, fits).has_value(),
                       "encoding into an exact buffer failed");
  BSONGEN_FUZZ_REQUIRE(same_bytes(exact, encoded), "caller-buffer encoding differs");
  std::vector<std::uint8_t> short_buffer(encoded.size() - 1);
  writer too_small(short_buffer);
  result<void> overflow = encode_document(*decoded, too_small);
  BSONGEN_FUZZ_REQUIRE(!overflow && overflow.error().code == error_code::buffer_too_small,
                       "a one-byte-short buffer was not reported");

  const document copy(*decoded);
  BSONGEN_FUZZ_REQUIRE(copy == *decoded, "a deep copy differs");
  return 0;
}
