#pragma once

// UTF-8 validation for keys and strings (RFC 3629: no overlong forms, no surrogates, nothing
// above U+10FFFF). NUL bytes count as valid: BSON strings may hold them, keys cannot by framing.

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace bsongen::detail {

// The n > 32 bytes at p are all ASCII: is_ascii's out-of-line part (utf8.cpp).
[[nodiscard]] bool is_ascii_long(const std::uint8_t* p, std::size_t n) noexcept;

// True when the n bytes at p are all ASCII (so UTF-8 too). The library's one ASCII test: both
// decoders and both encoders ask it before the validator, since keys and strings are mostly ASCII
// and mostly short. Hand-written for speed, rather than a byte loop or std::all_of: up to 32
// bytes it is two to four overlapping word loads ORed together (no loop, no call, no branch per
// byte), small enough to inline into every string codec; longer text goes out of line, 32 bytes
// a step with SSE2 (part of every x86-64) and 8 with the portable fallback. The bench rows that
// show it: string_array_1000 (30-byte strings, generated decode), oid_string and flat_bson
// (79- and 80-byte strings), full_bson, deep_bson (keys).
[[nodiscard]] inline bool is_ascii(const std::uint8_t* p, std::size_t n) noexcept {
  constexpr std::uint64_t highs = 0x8080808080808080ULL;
  const auto word = [p](std::size_t at) {
    std::uint64_t w;
    std::memcpy(&w, p + at, 8);
    return w;
  };
  if (n >= 8) {
    if (n <= 16) return ((word(0) | word(n - 8)) & highs) == 0;
    if (n <= 32) return ((word(0) | word(8) | word(n - 16) | word(n - 8)) & highs) == 0;
    return is_ascii_long(p, n);
  }
  if (n >= 4) {
    std::uint32_t a;
    std::uint32_t b;
    std::memcpy(&a, p, 4);
    std::memcpy(&b, p + n - 4, 4);
    return ((a | b) & 0x80808080U) == 0;
  }
  if (n == 0) return true;
  return ((p[0] | p[n / 2] | p[n - 1]) & 0x80U) == 0;  // n <= 3: every byte
}

// True when the n bytes at p are all ASCII and none is NUL: a key or C string that needs no other
// check. One pass where a NUL search and is_ascii would take two (map keys are checked on every
// encode): a byte b is in 1..0x7F exactly when neither b nor b - 1 has its high bit set, and
// subtracting 1 from every byte of a word borrows across bytes only below a zero byte, which
// fails the test anyway. Up to 32 bytes inline, as is_ascii; longer text takes the two passes.
[[nodiscard]] inline bool is_ascii_without_nul(const std::uint8_t* p, std::size_t n) noexcept {
  constexpr std::uint64_t ones = 0x0101010101010101ULL;
  constexpr std::uint64_t highs = 0x8080808080808080ULL;
  const auto bad = [p](std::size_t at) {
    std::uint64_t w;
    std::memcpy(&w, p + at, 8);
    return (w - ones) | w;
  };
  if (n >= 8) {
    if (n <= 16) return ((bad(0) | bad(n - 8)) & highs) == 0;
    if (n <= 32) return ((bad(0) | bad(8) | bad(n - 16) | bad(n - 8)) & highs) == 0;
    return std::memchr(p, 0, n) == nullptr && is_ascii_long(p, n);
  }
  if (n >= 4) {
    std::uint32_t a;
    std::uint32_t b;
    std::memcpy(&a, p, 4);
    std::memcpy(&b, p + n - 4, 4);
    return (((a - 0x01010101U) | a | (b - 0x01010101U) | b) & 0x80808080U) == 0;
  }
  std::uint32_t any = 0;
  for (std::size_t i = 0; i < n; ++i) any |= (p[i] - 1U) | p[i];  // 0 - 1 wraps to all ones
  return (any & 0x80U) == 0;
}

// The general validator, for text is_ascii has refused (it strides over ASCII runs 8 bytes at a
// time but does not test the whole text for ASCII first).
[[nodiscard]] bool is_valid_utf8_slow(const std::uint8_t* p, std::size_t n) noexcept;

[[nodiscard]] inline bool is_valid_utf8(const std::uint8_t* p, std::size_t n) noexcept {
  return is_ascii(p, n) || is_valid_utf8_slow(p, n);
}

[[nodiscard]] inline bool is_valid_utf8(const char* p, std::size_t n) noexcept {
  return is_valid_utf8(reinterpret_cast<const std::uint8_t*>(p), n);
}

// is_valid_utf8 as a call, for code that must stay small where it is inlined many times (the
// string checks in a generated struct's size()).
[[nodiscard]] bool is_valid_utf8_call(const std::uint8_t* p, std::size_t n) noexcept;

}  // namespace bsongen::detail
