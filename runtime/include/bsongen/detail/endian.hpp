#pragma once

// Little-endian loads and stores as inlined shifts and bit casts.
//
// This is the C++ form of the js-bson lesson "replace per-value DataView/Buffer objects with bit
// math": no conversion object, no allocation, no branch. g++ and clang fold the shift/or pattern
// into a single unaligned mov at -O2 on little-endian targets; bench/byte_io_bench.cpp shows it
// costs the same as a memcpy load. Callers guarantee the pointed-to bytes are in bounds.

#include <bit>
#include <cstdint>

namespace bsongen::detail {

[[nodiscard]] inline std::uint32_t load_u32_le(const std::uint8_t* p) noexcept {
  return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
         static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}

[[nodiscard]] inline std::uint64_t load_u64_le(const std::uint8_t* p) noexcept {
  return static_cast<std::uint64_t>(p[0]) | static_cast<std::uint64_t>(p[1]) << 8 |
         static_cast<std::uint64_t>(p[2]) << 16 | static_cast<std::uint64_t>(p[3]) << 24 |
         static_cast<std::uint64_t>(p[4]) << 32 | static_cast<std::uint64_t>(p[5]) << 40 |
         static_cast<std::uint64_t>(p[6]) << 48 | static_cast<std::uint64_t>(p[7]) << 56;
}

[[nodiscard]] inline std::int32_t load_i32_le(const std::uint8_t* p) noexcept {
  return static_cast<std::int32_t>(load_u32_le(p));
}

[[nodiscard]] inline std::int64_t load_i64_le(const std::uint8_t* p) noexcept {
  return static_cast<std::int64_t>(load_u64_le(p));
}

[[nodiscard]] inline double load_f64_le(const std::uint8_t* p) noexcept {
  return std::bit_cast<double>(load_u64_le(p));
}

inline void store_u32_le(std::uint8_t* p, std::uint32_t v) noexcept {
  p[0] = static_cast<std::uint8_t>(v);
  p[1] = static_cast<std::uint8_t>(v >> 8);
  p[2] = static_cast<std::uint8_t>(v >> 16);
  p[3] = static_cast<std::uint8_t>(v >> 24);
}

inline void store_u64_le(std::uint8_t* p, std::uint64_t v) noexcept {
  p[0] = static_cast<std::uint8_t>(v);
  p[1] = static_cast<std::uint8_t>(v >> 8);
  p[2] = static_cast<std::uint8_t>(v >> 16);
  p[3] = static_cast<std::uint8_t>(v >> 24);
  p[4] = static_cast<std::uint8_t>(v >> 32);
  p[5] = static_cast<std::uint8_t>(v >> 40);
  p[6] = static_cast<std::uint8_t>(v >> 48);
  p[7] = static_cast<std::uint8_t>(v >> 56);
}

inline void store_i32_le(std::uint8_t* p, std::int32_t v) noexcept {
  store_u32_le(p, static_cast<std::uint32_t>(v));
}

inline void store_i64_le(std::uint8_t* p, std::int64_t v) noexcept {
  store_u64_le(p, static_cast<std::uint64_t>(v));
}

inline void store_f64_le(std::uint8_t* p, double v) noexcept {
  store_u64_le(p, std::bit_cast<std::uint64_t>(v));
}

// Big-endian forms, used by ObjectId's timestamp and counter fields.
[[nodiscard]] inline std::uint32_t load_u32_be(const std::uint8_t* p) noexcept {
  return static_cast<std::uint32_t>(p[0]) << 24 | static_cast<std::uint32_t>(p[1]) << 16 |
         static_cast<std::uint32_t>(p[2]) << 8 | static_cast<std::uint32_t>(p[3]);
}

inline void store_u32_be(std::uint8_t* p, std::uint32_t v) noexcept {
  p[0] = static_cast<std::uint8_t>(v >> 24);
  p[1] = static_cast<std::uint8_t>(v >> 16);
  p[2] = static_cast<std::uint8_t>(v >> 8);
  p[3] = static_cast<std::uint8_t>(v);
}

}  // namespace bsongen::detail
