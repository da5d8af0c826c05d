#include "bsongen/detail/utf8.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace bsongen::detail {

// One pass with no early exit (the last load overlaps the ones before): is_ascii (utf8.hpp) says
// why it is hand-written. Decoders check every string they read, so this is what text-heavy
// documents pay for that check (flat_bson's 48 strings of 80 bytes, oid_string's one of 79).
bool is_ascii_long(const std::uint8_t* p, std::size_t n) noexcept {
#if defined(__SSE2__)
  const auto load = [p](std::size_t at) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
  };
  __m128i bits = load(n - 16);
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32) bits = _mm_or_si128(bits, _mm_or_si128(load(i), load(i + 16)));
  if (i + 16 <= n) bits = _mm_or_si128(bits, load(i));
  return _mm_movemask_epi8(bits) == 0;
#else
  std::uint64_t bits = 0;
  std::uint64_t word;
  for (std::size_t i = 0; i + 8 <= n; i += 8) {
    std::memcpy(&word, p + i, 8);
    bits |= word;
  }
  std::memcpy(&word, p + n - 8, 8);
  return ((bits | word) & 0x8080808080808080ULL) == 0;
#endif
}

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

bool is_valid_utf8_call(const std::uint8_t* p, std::size_t n) noexcept {
  return is_valid_utf8(p, n);
}

}  // namespace bsongen::detail
