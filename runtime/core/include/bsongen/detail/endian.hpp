#pragma once

// Little-endian loads and stores, inlined, with no conversion object and no allocation: the C++
// form of the js-bson lesson "replace per-value DataView/Buffer objects with bit math".
//
// Measured, not assumed (bench/byte_io_bench.cpp, rows byte_io_*_1000/{shift,memcpy,runtime}):
// the classic shift-and-or form compiles to one mov for a single value, but in loops at -O3 g++ 12
// vectorizes the byte stores before merging them (about 10x slower encode) and clang 14 vectorizes
// memcpy loops but not shift loops (3-4x slower). So on little-endian hosts the runtime moves the
// bytes with a fixed-size std::memcpy (one unaligned mov, and vectorizable), and bit_casts doubles;
// the shift form remains only where the host is big-endian. Callers guarantee the pointed-to bytes
// are in bounds.

#include <bit>
#include <cstdint>
#include <cstring>

namespace bsongen::detail {

inline constexpr bool host_is_little_endian = std::endian::native == std::endian::little;
static_assert(host_is_little_endian || std::endian::native == std::endian::big,
              "mixed-endian hosts are not supported");

[[nodiscard]] inline std::uint32_t load_u32_le(const std::uint8_t* p) noexcept {
  if constexpr (host_is_little_endian) {
    std::uint32_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
  } else {
    return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
           static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
  }
}

[[nodiscard]] inline std::uint64_t load_u64_le(const std::uint8_t* p) noexcept {
  if constexpr (host_is_little_endian) {
    std::uint64_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
  } else {
    return static_cast<std::uint64_t>(load_u32_le(p)) |
           static_cast<std::uint64_t>(load_u32_le(p + 4)) << 32;
  }
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
  if constexpr (host_is_little_endian) {
    std::memcpy(p, &v, sizeof v);
  } else {
    p[0] = static_cast<std::uint8_t>(v);
    p[1] = static_cast<std::uint8_t>(v >> 8);
    p[2] = static_cast<std::uint8_t>(v >> 16);
    p[3] = static_cast<std::uint8_t>(v >> 24);
  }
}

inline void store_u64_le(std::uint8_t* p, std::uint64_t v) noexcept {
  if constexpr (host_is_little_endian) {
    std::memcpy(p, &v, sizeof v);
  } else {
    store_u32_le(p, static_cast<std::uint32_t>(v));
    store_u32_le(p + 4, static_cast<std::uint32_t>(v >> 32));
  }
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

// Big-endian forms, used by ObjectId's timestamp and counter fields (never on a hot loop).
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
