// Fuzz target: the decoder bsongen generates for a struct with `any` fields
// (fuzz/targets/schemas/fuzz_models.yaml, fuzz_model::tagged), checked against the generic
// decoder; see generated_fuzz.hpp for the properties. `any` values go through the generic path's
// own code, so they must agree with it value for value.

#include <cstdint>

#include "fuzz_models.bsongen.hpp"
#include "generated_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return bsongen::fuzz::check_generated_decoder<::fuzz_model::tagged>(data, size);
}
