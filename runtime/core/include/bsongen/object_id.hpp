#pragma once

// object_id: the 12-byte BSON ObjectId as a trivially copyable value.
//
// generate() follows the BSON ObjectId spec: 4-byte big-endian seconds since the epoch, a 5-byte
// random value drawn once per process (and drawn again in a child after fork, through a
// pthread_atfork handler, so the hot path pays no getpid() call), and a 3-byte big-endian counter
// that starts at a random value and wraps at 2^24. It is thread-safe and takes no lock: the
// counter is one relaxed atomic increment.
//
// Byte order is significant: operator<=> compares the bytes, so ids sort by creation second first.
//
//   auto id = bsongen::object_id::generate();
//   std::string hex = id.to_hex();                          // 24 lowercase hex digits
//   auto back = bsongen::object_id::from_hex(hex);          // result<object_id>

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>  // also declares std::hash, specialized below

#include "bsongen/detail/endian.hpp"
#include "bsongen/detail/light_std.hpp"  // std::chrono time points
#include "bsongen/error.hpp"

namespace bsongen {

class object_id {
 public:
  static constexpr std::size_t size = 12;

  // All twelve bytes zero.
  constexpr object_id() noexcept = default;

  // Copies 12 bytes straight into the value: no intermediate buffer (js-bson NODE-4194).
  explicit object_id(std::span<const std::uint8_t, size> bytes) noexcept {
    std::memcpy(bytes_.data(), bytes.data(), size);
  }
  // Precondition: `bytes` points at 12 readable bytes.
  [[nodiscard]] static object_id from_bytes(const std::uint8_t* bytes) noexcept {
    object_id id;
    std::memcpy(id.bytes_.data(), bytes, size);
    return id;
  }

  // A new, process-unique id (see the header comment).
  [[nodiscard]] static object_id generate() noexcept;
  // As generate(), with the given seconds instead of the clock (tests, deterministic data).
  [[nodiscard]] static object_id generate(std::uint32_t seconds) noexcept;

  // Exactly 24 hex digits, either case. Anything else is an invalid_value error saying where.
  [[nodiscard]] static result<object_id> from_hex(std::string_view hex);
  // 24 lowercase hex digits.
  [[nodiscard]] std::string to_hex() const;
  // Writes 24 lowercase hex digits to `out` (no NUL).
  void to_hex(char* out) const noexcept;

  [[nodiscard]] std::span<const std::uint8_t, size> bytes() const noexcept {
    return std::span<const std::uint8_t, size>(bytes_);
  }
  [[nodiscard]] const std::uint8_t* data() const noexcept { return bytes_.data(); }

  // Seconds since the Unix epoch stored in the first four bytes.
  [[nodiscard]] std::uint32_t timestamp() const noexcept {
    return detail::load_u32_be(bytes_.data());
  }
  [[nodiscard]] std::chrono::system_clock::time_point time() const noexcept {
    return std::chrono::system_clock::time_point(std::chrono::seconds(timestamp()));
  }

  friend bool operator==(const object_id&, const object_id&) noexcept = default;
  friend auto operator<=>(const object_id&, const object_id&) noexcept = default;

 private:
  std::array<std::uint8_t, size> bytes_{};
};

namespace detail {
// Test hook: the next generate() uses `next` (mod 2^24) as its counter. Not for production use:
// setting it backwards can repeat ids within a second.
void object_id_counter_for_testing(std::uint32_t next) noexcept;
}  // namespace detail

}  // namespace bsongen

template <>
struct std::hash<bsongen::object_id> {
  std::size_t operator()(const bsongen::object_id& id) const noexcept {
    // The counter and random bytes vary most; mix two overlapping 8-byte loads.
    std::uint64_t a = bsongen::detail::load_u64_le(id.data());
    std::uint64_t b = bsongen::detail::load_u64_le(id.data() + 4);
    return static_cast<std::size_t>((a ^ (b * 0x9E3779B97F4A7C15ULL)) * 0xC2B2AE3D27D4EB4FULL);
  }
};
