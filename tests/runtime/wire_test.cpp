// bsongen/detail/wire.hpp: read_element_header, which every decoder uses for keys it does not
// predict (map labels, unknown and out-of-order fields, array keys out of sequence). ASCII keys are
// read a word at a time; everything else by the byte loop and the UTF-8 validator. Every key
// length up to 40 (5 words), every position of a non-ASCII byte, and every distance from the key
// to the document's end, so neither path is trusted where the other one applies.

#include "bsongen/detail/wire.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace {

using bsongen::error_code;
using bsongen::detail::decode_state;
using bsongen::detail::read_element_header;

constexpr std::uint8_t int32_type = 0x10;

struct header_read {
  bool ok = false;
  std::uint8_t type = 0;
  std::string key;
  std::size_t consumed = 0;  // bytes from the type byte to where p was left
  bsongen::error err;
};

// The element header `type, key, NUL` at the start of a buffer with `after` bytes following the
// NUL before doc_end (the document's terminating NUL), followed by padding that must not be read
// as part of the key.
header_read read(std::string_view key_bytes, std::size_t after, bool terminated = true) {
  std::vector<std::uint8_t> buffer;
  buffer.push_back(int32_type);
  buffer.insert(buffer.end(), key_bytes.begin(), key_bytes.end());
  if (terminated) buffer.push_back(0);
  buffer.insert(buffer.end(), after, 'v');
  const std::size_t doc_end = buffer.size();
  buffer.insert(buffer.end(), 16, 0);  // the terminator and whatever follows: never part of a key
  decode_state st;
  st.origin = buffer.data();
  const std::uint8_t* p = buffer.data();
  std::string_view key;
  header_read r;
  r.ok = read_element_header(st, p, buffer.data() + doc_end, r.type, key);
  if (r.ok) {
    r.key = std::string(key);
    r.consumed = static_cast<std::size_t>(p - buffer.data());
  }
  r.err = st.err;
  return r;
}

std::string ascii_key(std::size_t n) {
  std::string key;
  for (std::size_t i = 0; i < n; ++i) key.push_back(static_cast<char>('a' + i % 26));
  return key;
}

TEST(wire, read_element_header_reads_ascii_keys_of_every_length_at_every_distance_to_the_end) {
  for (std::size_t n = 0; n <= 40; ++n) {
    const std::string key = ascii_key(n);
    for (std::size_t after = 0; after <= 10; ++after) {
      const header_read r = read(key, after);
      ASSERT_TRUE(r.ok) << "length " << n << ", " << after << " bytes after";
      EXPECT_EQ(r.type, int32_type);
      EXPECT_EQ(r.key, key) << "length " << n << ", " << after << " bytes after";
      EXPECT_EQ(r.consumed, 1 + n + 1);
    }
  }
}

TEST(wire, read_element_header_reads_utf8_keys_with_the_non_ascii_bytes_anywhere) {
  const std::string two_bytes = "\xC3\xA9";  // é
  for (std::size_t n = 0; n <= 24; ++n) {
    for (std::size_t at = 0; at <= n; ++at) {
      std::string key = ascii_key(n);
      key.insert(at, two_bytes);
      for (const std::size_t after : {std::size_t{0}, std::size_t{8}}) {
        const header_read r = read(key, after);
        ASSERT_TRUE(r.ok) << "length " << key.size() << ", at " << at;
        EXPECT_EQ(r.key, key);
        EXPECT_EQ(r.consumed, 1 + key.size() + 1);
      }
    }
  }
}

TEST(wire, read_element_header_refuses_keys_that_are_not_utf8_wherever_the_bad_byte_is) {
  for (std::size_t n = 0; n <= 24; ++n) {
    for (std::size_t at = 0; at <= n; ++at) {
      for (const std::string_view bad :
           {std::string_view("\xFF"), std::string_view("\xC3"), std::string_view("\x80")}) {
        std::string key = ascii_key(n);
        key.insert(at, bad);
        for (const std::size_t after : {std::size_t{0}, std::size_t{8}}) {
          const header_read r = read(key, after);
          ASSERT_FALSE(r.ok) << "length " << key.size() << ", at " << at;
          EXPECT_EQ(r.err.code, error_code::invalid_utf8);
          EXPECT_EQ(r.err.offset, 0U);
          EXPECT_EQ(r.err.path, key);  // the error names the element by its key
        }
      }
    }
  }
}

TEST(wire, read_element_header_refuses_a_key_that_runs_into_the_end_of_its_document) {
  for (std::size_t n = 1; n <= 40; ++n) {
    const header_read r = read(ascii_key(n), 0, /*terminated=*/false);
    ASSERT_FALSE(r.ok) << "length " << n;
    EXPECT_EQ(r.err.code, error_code::missing_terminator);
    EXPECT_EQ(r.err.offset, 0U);
  }
}

TEST(wire, read_element_header_skips_validation_when_the_decoder_does_not_validate) {
  std::vector<std::uint8_t> buffer = {int32_type, 'a', 0xFF, 0, 'v', 'v', 'v', 'v', 'v', 'v', 0};
  decode_state st;
  st.origin = buffer.data();
  st.validate_utf8 = false;
  const std::uint8_t* p = buffer.data();
  std::uint8_t type = 0;
  std::string_view key;
  ASSERT_TRUE(read_element_header(st, p, buffer.data() + buffer.size() - 1, type, key));
  EXPECT_EQ(key, "a\xFF");
  EXPECT_EQ(p, buffer.data() + 4);
}

}  // namespace
