// Fuzz target: generated decoders and the generic decoder reach the same verdict under the same
// decode_options, depth limits included.
//
// The first input byte chooses the options (max_depth 0..15, UTF-8 validation on or off, and
// whether decodes take their memory from a std::pmr pool resource, which returns what it is given
// to pools by size: `any` values' and documents' memory through decode_options::memory); the rest
// is the document. For every struct of fuzz/targets/schemas/fuzz_models.yaml:
// - a generated decoder never accepts what the generic decoder rejects with the same options
//   (fixed-shape fast paths, recursion through vectors and skipped unknown fields included);
// - for fuzz_model::anything, whose fields are all `any` and whose unknown elements are captured,
//   nothing is typed, so the verdicts are equal: it accepts exactly what the generic decoder
//   accepts;
// - every error points inside the input;
// - the structs that allocate decode into their `allocator: pmr` twins (fuzz_model_pmr, derived
//   by fuzz/targets/CMakeLists.txt) with the same verdict, error and bytes (check_pmr_twin in
//   generated_fuzz.hpp), under the same options.

#include <cstdint>
#include <cstdio>
#include <memory_resource>
#include <span>

#include "bsongen/codec.hpp"
#include "bsongen/document.hpp"
#include "fuzz_models.bsongen.hpp"
#include "fuzz_models_pmr.bsongen.hpp"
#include "fuzz_support.hpp"
#include "generated_fuzz.hpp"

namespace {

using namespace bsongen;

template <generated_document T>
void check_verdict(std::span<const std::uint8_t> input, const decode_options& options,
                   bool generic_accepts, bool verdicts_equal) {
  result<T> decoded = decode<T>(input, options);
  if (!decoded) fuzz::require_sane_error(decoded.error(), input.size());
  if (decoded && !generic_accepts) {
    std::fprintf(stderr, "max_depth %zu: generated accepted, generic rejected\n",
                 options.max_depth);
  }
  BSONGEN_FUZZ_REQUIRE(!decoded || generic_accepts,
                       "a generated decoder accepted what the generic decoder rejects");
  if (verdicts_equal && !decoded && generic_accepts) {
    std::fprintf(stderr, "generated: %s\n", decoded.error().to_string().c_str());
  }
  BSONGEN_FUZZ_REQUIRE(!verdicts_equal || decoded.has_value() == generic_accepts,
                       "an all-`any` struct rejected what the generic decoder accepts");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  // Declared first: it outlives every document and value decoded from it.
  std::pmr::unsynchronized_pool_resource pool;
  decode_options options;
  options.max_depth = data[0] & 0x0F;
  options.validate_utf8 = (data[0] & 0x80) == 0;
  if ((data[0] & 0x40) != 0) options.memory = &pool;
  const std::span<const std::uint8_t> input(data + 1, size - 1);

  result<document> generic = decode_document(input, options);
  if (!generic) fuzz::require_sane_error(generic.error(), input.size());
  const bool accepted = generic.has_value();

  check_verdict<::fuzz_model::point>(input, options, accepted, false);
  check_verdict<::fuzz_model::holder>(input, options, accepted, false);
  check_verdict<::fuzz_model::holder_of_holder>(input, options, accepted, false);
  check_verdict<::fuzz_model::tree>(input, options, accepted, false);
  check_verdict<::fuzz_model::tagged>(input, options, accepted, false);
  check_verdict<::fuzz_model::anything>(input, options, accepted, true);
  fuzz::check_pmr_twin<::fuzz_model::tree, ::fuzz_model_pmr::tree>(input, options);
  fuzz::check_pmr_twin<::fuzz_model::tagged, ::fuzz_model_pmr::tagged>(input, options);
  fuzz::check_pmr_twin<::fuzz_model::anything, ::fuzz_model_pmr::anything>(input, options);
  return 0;
}
