// Fuzz target: the decoder bsongen generates for bench/schemas/flat_bson.yaml (bench::flat_bson),
// checked against the generic decoder; see generated_fuzz.hpp for the properties.

#include <cstdint>

#include "flat_bson.bsongen.hpp"
#include "generated_fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return bsongen::fuzz::check_generated_decoder<::bench::flat_bson>(data, size);
}
