#pragma once

// Entry points compiled in service_config_example_second_source.cpp, a second source including
// the header-only example.

#include <cstdint>
#include <span>

#include "service_config.bsongen.hpp"

bsongen::result<bsongen::byte_buffer> encode_in_second_source(const config::service_config& c);
bsongen::result<config::service_config> decode_in_second_source(
    std::span<const std::uint8_t> bytes);
