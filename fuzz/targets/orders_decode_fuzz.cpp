// Fuzz target: the decoder bsongen generates for schemas/orders.yaml (shop::order), checked against
// the generic decoder, and its `allocator: pmr` twin (shop_arena::order) checked against it; see
// generated_fuzz.hpp for the properties.

#include <cstdint>

#include "generated_fuzz.hpp"
#include "orders.bsongen.hpp"
#include "orders_arena.bsongen.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  bsongen::fuzz::check_pmr_twin<::shop::order, ::shop_arena::order>({data, size});
  return bsongen::fuzz::check_generated_decoder<::shop::order>(data, size);
}
