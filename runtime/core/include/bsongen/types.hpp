#pragma once

// Small BSON value types shared by the generic document and generated structs.

#include <compare>
#include <cstdint>
#include <string>
#include <vector>

#include "bsongen/bson_type.hpp"
#include "bsongen/detail/light_std.hpp"  // std::chrono time points

namespace bsongen {

// BSON datetime: milliseconds since the Unix epoch, as a system_clock time point.
using datetime = std::chrono::time_point<std::chrono::system_clock, std::chrono::milliseconds>;

// BSON timestamp (internal MongoDB type): seconds and an ordinal within the second.
// On the wire the increment is the low 32 bits and the seconds the high 32 bits.
struct timestamp {
  std::uint32_t seconds = 0;
  std::uint32_t increment = 0;
  friend auto operator<=>(const timestamp&, const timestamp&) = default;
};

// Owning binary data with its subtype. For subtype 2 (old binary) `bytes` is the payload without
// the inner int32 length the wire format repeats: encoders write that length, decoders check and
// strip it, on the generated and the generic path alike.
struct binary {
  std::vector<std::uint8_t> bytes;
  binary_subtype subtype = binary_subtype::generic;
  friend bool operator==(const binary&, const binary&) = default;
};

struct regex {
  std::string pattern;
  std::string options;  // the spec requires them sorted alphabetically on encode
  friend bool operator==(const regex&, const regex&) = default;
};

// The unit types MinKey and MaxKey compare below and above every other value in MongoDB.
struct min_key {
  friend constexpr bool operator==(min_key, min_key) noexcept { return true; }
};
struct max_key {
  friend constexpr bool operator==(max_key, max_key) noexcept { return true; }
};

}  // namespace bsongen
