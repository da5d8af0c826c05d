#pragma once

// decimal128: IEEE 754-2008 decimal128 in the binary integer decimal (BID) encoding BSON uses.
//
// from_string/to_string are exact: every string the BSON corpus lists converts to the canonical
// bits and back to the canonical string, and any string that cannot be represented without
// rounding is rejected (error_code::inexact), never rounded silently.
//
//   auto d = bsongen::decimal128::from_string("12.50");   // result<decimal128>
//   d->to_string();                                        // "12.50"
//
// operator== compares representations (1.0 and 1.00 differ, and so do 0 and -0), as BSON's bytes
// do; a NaN equals a NaN with the same bits. It is not IEEE numeric equality.

#include <compare>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "bsongen/detail/endian.hpp"
#include "bsongen/error.hpp"

namespace bsongen {

class decimal128 {
 public:
  // Zero with exponent 0 ("0").
  constexpr decimal128() noexcept = default;
  constexpr decimal128(std::uint64_t high, std::uint64_t low) noexcept : high_(high), low_(low) {}

  // Precondition: `bytes` points at 16 readable bytes, little-endian as in BSON.
  [[nodiscard]] static decimal128 from_bytes(const std::uint8_t* bytes) noexcept {
    return {detail::load_u64_le(bytes + 8), detail::load_u64_le(bytes)};
  }
  // Writes the 16 BSON bytes to `out`.
  void to_bytes(std::uint8_t* out) const noexcept {
    detail::store_u64_le(out, low_);
    detail::store_u64_le(out + 8, high_);
  }

  // Decimal strings ("1.5E+3", "-0.00", "Infinity", "-inf", "NaN") per the BSON corpus.
  // The whole of `text` must be the number: no white space, no trailing characters. Infinity and
  // NaN are case-insensitive ("inf", "Infinity", "nan"); a sign on NaN is accepted and dropped, as
  // libbson does, so every NaN parses to the canonical quiet NaN.
  // Errors: invalid_value for bad syntax, inexact for a value that needs more than 34 digits or an
  // exponent outside [-6176, 6111] after exact clamping. error::offset is the index in `text` of
  // a syntax error (0 for inexact, which concerns the whole value); callers embedding the string
  // add their own base offset.
  [[nodiscard]] static result<decimal128> from_string(std::string_view text);
  // The canonical string the BSON corpus gives (scientific form where the spec asks for it).
  [[nodiscard]] std::string to_string() const;

  // The longest string to_string can return: "-1.234567890123456789012345678901234E-6143".
  static constexpr std::size_t max_string_length = 42;
  // Writes to_string()'s characters to `out` (not NUL-terminated) and returns one past the last,
  // with no allocation; for writers that format straight into their own buffer.
  // Precondition: `out` points at max_string_length writable chars.
  char* to_chars(char* out) const noexcept;

  // Exact conversions.
  [[nodiscard]] static decimal128 from_int64(std::int64_t v) noexcept;
  // The value as an int64 when it is a finite integer in range; inexact/invalid_value otherwise.
  [[nodiscard]] result<std::int64_t> to_int64() const;

  [[nodiscard]] constexpr std::uint64_t high_bits() const noexcept { return high_; }
  [[nodiscard]] constexpr std::uint64_t low_bits() const noexcept { return low_; }
  [[nodiscard]] bool is_nan() const noexcept {
    return (high_ & 0x7C00000000000000ULL) == 0x7C00000000000000ULL;
  }
  [[nodiscard]] bool is_infinite() const noexcept {
    return (high_ & 0x7C00000000000000ULL) == 0x7800000000000000ULL;
  }
  [[nodiscard]] bool is_negative() const noexcept { return (high_ >> 63) != 0; }

  friend constexpr bool operator==(const decimal128&, const decimal128&) noexcept = default;

 private:
  std::uint64_t high_ = 0x3040000000000000ULL;  // exponent bias 6176, coefficient 0
  std::uint64_t low_ = 0;
};

}  // namespace bsongen
