#pragma once

// UTF-8 validation for keys and strings (RFC 3629: no overlong forms, no surrogates, nothing
// above U+10FFFF). NUL bytes count as valid: BSON strings may hold them, keys cannot by framing.

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace bsongen::detail {

// The general path, entered at the first non-ASCII byte.
[[nodiscard]] bool is_valid_utf8_slow(const std::uint8_t* p, std::size_t n) noexcept;

// ASCII fast path 8 bytes at a time; most keys and strings never leave it.
[[nodiscard]] inline bool is_valid_utf8(const std::uint8_t* p, std::size_t n) noexcept {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t word;
    std::memcpy(&word, p + i, 8);
    if ((word & 0x8080808080808080ULL) != 0) return is_valid_utf8_slow(p + i, n - i);
  }
  for (; i < n; ++i) {
    if (p[i] >= 0x80) return is_valid_utf8_slow(p + i, n - i);
  }
  return true;
}

[[nodiscard]] inline bool is_valid_utf8(const char* p, std::size_t n) noexcept {
  return is_valid_utf8(reinterpret_cast<const std::uint8_t*>(p), n);
}

}  // namespace bsongen::detail
