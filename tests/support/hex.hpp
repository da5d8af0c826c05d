#pragma once

// Hex text to bytes and back, for the corpus files (which give BSON as hex) and readable failures.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace bsongen::test {

inline std::vector<std::uint8_t> from_hex(const std::string& hex) {
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::vector<std::uint8_t> out;
  out.reserve(hex.size() / 2);
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<std::uint8_t>(nibble(hex[i]) * 16 + nibble(hex[i + 1])));
  }
  return out;
}

inline std::string to_hex(const std::uint8_t* p, std::size_t n) {
  static constexpr char digits[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(n * 2);
  for (std::size_t i = 0; i < n; ++i) {
    out += digits[p[i] >> 4];
    out += digits[p[i] & 15];
  }
  return out;
}

}  // namespace bsongen::test
