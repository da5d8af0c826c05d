// The second source of service_config_example_test that includes the header-only example
// (schemas/header_only/service_config.yaml): with the codecs defined in every source that
// includes the header, the program links only when each definition is inline.

#include "service_config_example_second_source.hpp"

#include <cstdint>
#include <span>

#include "service_config.bsongen.hpp"  // generated with --header-only: types and codecs

bsongen::result<bsongen::byte_buffer> encode_in_second_source(const config::service_config& c) {
  return bsongen::encode(c);
}

bsongen::result<config::service_config> decode_in_second_source(
    std::span<const std::uint8_t> bytes) {
  return bsongen::decode<config::service_config>(bytes);
}
