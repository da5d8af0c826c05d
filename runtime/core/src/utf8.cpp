#include "bsongen/detail/utf8.hpp"

namespace bsongen::detail {

bool is_valid_utf8_slow(const std::uint8_t* p, std::size_t n) noexcept {
  std::size_t i = 0;
  while (i < n) {
    // Re-enter the 8-byte ASCII stride after each multi-byte sequence.
    while (i + 8 <= n) {
      std::uint64_t word;
      std::memcpy(&word, p + i, 8);
      if ((word & 0x8080808080808080ULL) != 0) break;
      i += 8;
    }
    if (i >= n) break;
    const std::uint8_t b0 = p[i];
    if (b0 < 0x80) {
      ++i;
      continue;
    }
    if (b0 >= 0xC2 && b0 <= 0xDF) {
      if (i + 1 >= n || (p[i + 1] & 0xC0) != 0x80) return false;
      i += 2;
      continue;
    }
    if (b0 >= 0xE0 && b0 <= 0xEF) {
      if (i + 2 >= n) return false;
      const std::uint8_t b1 = p[i + 1];
      // E0 needs A0..BF (no overlong); ED needs 80..9F (no surrogates).
      const std::uint8_t lo = b0 == 0xE0 ? 0xA0 : 0x80;
      const std::uint8_t hi = b0 == 0xED ? 0x9F : 0xBF;
      if (b1 < lo || b1 > hi || (p[i + 2] & 0xC0) != 0x80) return false;
      i += 3;
      continue;
    }
    if (b0 >= 0xF0 && b0 <= 0xF4) {
      if (i + 3 >= n) return false;
      const std::uint8_t b1 = p[i + 1];
      // F0 needs 90..BF (no overlong); F4 needs 80..8F (nothing above U+10FFFF).
      const std::uint8_t lo = b0 == 0xF0 ? 0x90 : 0x80;
      const std::uint8_t hi = b0 == 0xF4 ? 0x8F : 0xBF;
      if (b1 < lo || b1 > hi || (p[i + 2] & 0xC0) != 0x80 || (p[i + 3] & 0xC0) != 0x80)
        return false;
      i += 4;
      continue;
    }
    return false;  // 80..C1 (continuation or overlong lead) and F5..FF
  }
  return true;
}

}  // namespace bsongen::detail
