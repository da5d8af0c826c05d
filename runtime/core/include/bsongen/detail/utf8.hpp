#pragma once

// UTF-8 validation for keys and strings (RFC 3629: no overlong forms, no surrogates, nothing
// above U+10FFFF). NUL bytes count as valid: BSON strings may hold them, keys cannot by framing.

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace bsongen::detail {

// The general path, entered at the first non-ASCII byte.
[[nodiscard]] bool is_valid_utf8_slow(const std::uint8_t* p, std::size_t n) noexcept;

// ASCII fast path 8 bytes at a time (the last word overlapping the one before), so most keys and
// strings cost a few word loads and never reach the general path.
[[nodiscard]] inline bool is_valid_utf8(const std::uint8_t* p, std::size_t n) noexcept {
  constexpr std::uint64_t highs = 0x8080808080808080ULL;
  if (n >= 8) {
    std::uint64_t any = 0;
    std::size_t i = 0;
    for (; i + 8 < n; i += 8) {
      std::uint64_t word;
      std::memcpy(&word, p + i, 8);
      any |= word;
      if ((any & highs) != 0) return is_valid_utf8_slow(p, n);
    }
    std::uint64_t last;
    std::memcpy(&last, p + n - 8, 8);
    return ((any | last) & highs) == 0 || is_valid_utf8_slow(p, n);
  }
  if (n >= 4) {
    std::uint32_t a;
    std::uint32_t b;
    std::memcpy(&a, p, 4);
    std::memcpy(&b, p + n - 4, 4);
    return ((a | b) & 0x80808080U) == 0 || is_valid_utf8_slow(p, n);
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (p[i] >= 0x80) return is_valid_utf8_slow(p, n);
  }
  return true;
}

[[nodiscard]] inline bool is_valid_utf8(const char* p, std::size_t n) noexcept {
  return is_valid_utf8(reinterpret_cast<const std::uint8_t*>(p), n);
}

}  // namespace bsongen::detail
