// Fuzz target: projections (bench::flat_projection of bench::flat_bson, shop::order_summary of
// shop::order) decoding arbitrary bytes, validated and trusted (decode_options::
// validate_skipped = false). Properties, beyond check_generated_decoder's for each projection:
// - trusted decoding never reads outside the input (ASan) and its errors point inside it;
// - what the validated projection accepts, the trusted one accepts with the same values;
// - what the source struct accepts, the projection accepts, holding the source's values for the
//   fields it keeps.

#include <cstdint>
#include <span>

#include "flat_bson.bsongen.hpp"
#include "fuzz_support.hpp"
#include "generated_fuzz.hpp"
#include "orders.bsongen.hpp"

namespace {

using namespace bsongen;

template <generated_document Projection, generated_document Source>
void check_projection(std::span<const std::uint8_t> input) {
  const result<Projection> validated = decode<Projection>(input);
  const result<Projection> trusted = decode<Projection>(input, {.validate_skipped = false});
  if (!trusted) fuzz::require_sane_error(trusted.error(), input.size());
  if (validated) {
    BSONGEN_FUZZ_REQUIRE(trusted.has_value(), "trusted refused what validation accepts");
    const result<byte_buffer> a = encode(*trusted);
    const result<byte_buffer> b = encode(*validated);  // encodings compare NaNs too
    BSONGEN_FUZZ_REQUIRE(a && b && fuzz::same_bytes(a->span(), b->span()),
                         "trusted and validated read different values");
  }
  const result<Source> source = decode<Source>(input);
  if (!source) return;
  BSONGEN_FUZZ_REQUIRE(validated.has_value(), "the projection refused what its source accepts");
  result<byte_buffer> kept = encode(*validated);
  result<byte_buffer> whole = encode(*source);
  BSONGEN_FUZZ_REQUIRE(kept && whole, "a decoded struct does not encode");
  result<document> kept_doc = decode_document(kept->span());
  result<document> whole_doc = decode_document(whole->span());
  BSONGEN_FUZZ_REQUIRE(kept_doc && whole_doc, "an encoding the generic decoder refuses");
  BSONGEN_FUZZ_REQUIRE(fuzz::documents_agree(*kept_doc, *whole_doc),
                       "the projection and its source read different values");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> input(data, size);
  check_projection<::bench::flat_projection, ::bench::flat_bson>(input);
  check_projection<::shop::order_summary, ::shop::order>(input);
  fuzz::check_generated_decoder<::bench::flat_projection>(data, size);
  return fuzz::check_generated_decoder<::shop::order_summary>(data, size);
}
