// Fuzz target: the decoder bsongen generates for schemas/orders.yaml (shop::order), checked against
// the generic decoder; see generated_fuzz.hpp for the properties.

#include <cstdint>

#include "generated_fuzz.hpp"
#include "orders.bsongen.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return bsongen::fuzz::check_generated_decoder<::shop::order>(data, size);
}
