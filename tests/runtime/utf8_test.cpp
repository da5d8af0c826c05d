// bsongen/detail/utf8.hpp: is_ascii, the library's one ASCII test (overlapping word loads up to
// 32 bytes, an out-of-line SSE2 or word loop beyond), and the UTF-8 validator behind it. Every
// length up to 100 with a high bit at every position, so no byte is left out of a load.

#include "bsongen/detail/utf8.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace {

using bsongen::detail::is_ascii;
using bsongen::detail::is_ascii_without_nul;
using bsongen::detail::is_valid_utf8;
using bsongen::detail::is_valid_utf8_call;

TEST(utf8, is_ascii_sees_every_byte_at_every_length) {
  for (std::size_t n = 0; n <= 100; ++n) {
    // At an offset into a larger buffer, so loads are unaligned and bytes around the text (all
    // high) must not be read as part of it.
    std::vector<std::uint8_t> buffer(n + 32, 0xFF);
    std::uint8_t* text = buffer.data() + 7;
    for (std::size_t i = 0; i < n; ++i) text[i] = static_cast<std::uint8_t>('a' + i % 26);
    EXPECT_TRUE(is_ascii(text, n)) << "length " << n;
    EXPECT_TRUE(is_valid_utf8(text, n)) << "length " << n;
    for (std::size_t at = 0; at < n; ++at) {
      for (const std::uint8_t high : {std::uint8_t{0x80}, std::uint8_t{0xC3}, std::uint8_t{0xFF}}) {
        const std::uint8_t kept = text[at];
        text[at] = high;
        EXPECT_FALSE(is_ascii(text, n)) << "length " << n << ", byte " << at;
        text[at] = kept;
      }
    }
  }
}

// Every length up to 100 (the inline sizes and the long path), each position holding each byte
// that must fail (NUL, a high byte) or must pass (1 and 0x7F, the edges of the range the word
// test admits), and pairs of them: a NUL before a 1 is where the test's borrow crosses bytes.
TEST(utf8, is_ascii_without_nul_refuses_nul_and_high_bytes_at_every_position) {
  const auto reference = [](const std::uint8_t* p, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      if (p[i] == 0 || p[i] >= 0x80) return false;
    }
    return true;
  };
  const std::uint8_t probes[] = {0x00, 0x01, 0x7F, 0x80, 0xFF};
  for (std::size_t n = 0; n <= 100; ++n) {
    // Surrounded by NULs and high bytes, which must not be read as part of the text.
    std::vector<std::uint8_t> buffer(n + 32, 0);
    for (std::size_t i = 0; i < buffer.size(); i += 2) buffer[i] = 0xFF;
    std::uint8_t* text = buffer.data() + 7;
    for (std::size_t i = 0; i < n; ++i) text[i] = static_cast<std::uint8_t>('a' + i % 26);
    EXPECT_TRUE(is_ascii_without_nul(text, n)) << "length " << n;
    for (std::size_t at = 0; at < n; ++at) {
      for (const std::uint8_t first : probes) {
        const std::uint8_t kept = text[at];
        text[at] = first;
        EXPECT_EQ(is_ascii_without_nul(text, n), reference(text, n))
            << "length " << n << ", byte " << at << " = " << int{first};
        if (at + 1 < n) {
          for (const std::uint8_t second : probes) {
            const std::uint8_t kept_next = text[at + 1];
            text[at + 1] = second;
            EXPECT_EQ(is_ascii_without_nul(text, n), reference(text, n))
                << "length " << n << ", bytes " << at << ".. = " << int{first} << ", "
                << int{second};
            text[at + 1] = kept_next;
          }
        }
        text[at] = kept;
      }
    }
  }
}

// The validator is entered only for text is_ascii refused: sequences at every position of ASCII
// runs of every length, valid and not, through both entry points.
TEST(utf8, validator_agrees_at_every_position) {
  struct sample {
    std::string bytes;
    bool valid;
  };
  const std::vector<sample> samples = {
      {"\xC3\xA9", true},           {"\xE2\x82\xAC", true},  {"\xF0\x9F\x98\x80", true},
      {"\xF4\x8F\xBF\xBF", true},   {"\xC3", false},         {"\xC0\xAF", false},
      {"\xE0\x80\xAF", false},      {"\xED\xA0\x80", false}, {"\xF4\x90\x80\x80", false},
      {"\xF0\x9F\x98", false},      {"\x80", false},         {"\xFF", false},
      {std::string("\0", 1), true},
  };
  for (const sample& s : samples) {
    for (std::size_t n = 0; n <= 70; n += 1) {
      for (std::size_t at = 0; at <= n; at += 3) {
        std::string text(n, 'x');
        text.insert(at, s.bytes);
        const auto* p = reinterpret_cast<const std::uint8_t*>(text.data());
        EXPECT_EQ(is_valid_utf8(p, text.size()), s.valid) << n << " " << at;
        EXPECT_EQ(is_valid_utf8_call(p, text.size()), s.valid) << n << " " << at;
        // A truncated multi-byte sequence at the very end is invalid too.
        if (s.valid && s.bytes.size() > 1 && at == n) {
          EXPECT_FALSE(is_valid_utf8(p, text.size() - 1)) << n;
        }
      }
    }
  }
}

}  // namespace
