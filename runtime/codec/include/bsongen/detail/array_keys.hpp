#pragma once

// Array keys "0", "1", ...: each index's decimal digits and NUL as one little-endian word (first
// digit in the low byte), so encode stores a key and decode checks one with a single operation. A
// table serves the first thousand; a decimal counter runs on from there. The containers of
// array_codec.hpp build on it.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

#include "bsongen/detail/endian.hpp"

namespace bsongen::detail {

inline constexpr std::size_t table_index_keys = 1000;

consteval std::array<std::uint32_t, table_index_keys> make_index_key_table() {
  std::array<std::uint32_t, table_index_keys> t{};
  for (std::uint32_t i = 0; i < table_index_keys; ++i) {
    std::uint32_t word = 0;
    std::uint32_t shift = 0;
    for (std::uint32_t div = i >= 100 ? 100 : i >= 10 ? 10 : 1; div != 0; div /= 10) {
      word |= (static_cast<std::uint32_t>('0') + i / div % 10) << shift;
      shift += 8;
    }
    t[i] = word;  // the NUL is the zero byte after the digits
  }
  return t;
}
inline constexpr std::array<std::uint32_t, table_index_keys> index_key_table =
    make_index_key_table();

// Bytes of the key of index i, with its NUL.
[[nodiscard]] constexpr std::size_t index_key_size(std::size_t i) noexcept {
  std::size_t digits = 1;
  for (; i >= 10; i /= 10) ++digits;
  return digits + 1;
}
// Sum of index_key_size(i) for i in [0, n): the key bytes of an n-element array.
[[nodiscard]] constexpr std::size_t index_keys_size(std::size_t n) noexcept {
  std::size_t total = 0;
  std::size_t digits = 1;
  for (std::size_t start = 0, stop = 10; start < n; start = stop, stop *= 10, ++digits) {
    total += (std::min(n, stop) - start) * (digits + 1);
  }
  return total;
}
// Writes the key of index i (any size) and its NUL; returns the end.
constexpr std::uint8_t* put_index_key(std::uint8_t* out, std::size_t i) noexcept {
  const std::size_t n = index_key_size(i) - 1;
  for (std::size_t d = n; d-- > 0; i /= 10) out[d] = static_cast<std::uint8_t>('0' + i % 10);
  out[n] = 0;
  return out + n + 1;
}

// The keys of consecutive indices from 0. word() holds the digits and NUL of the current index
// while it has at most 7 digits (fits(); beyond that, keys go through put_index_key and
// read_element_header).
class index_keys {
 public:
  [[nodiscard]] std::size_t index() const noexcept { return index_; }
  [[nodiscard]] std::uint64_t word() const noexcept { return word_; }
  [[nodiscard]] std::uint32_t size() const noexcept { return size_; }
  [[nodiscard]] bool fits() const noexcept { return size_ <= 8; }

  void next() noexcept {
    ++index_;
    if (index_ < table_index_keys) [[likely]] {
      word_ = index_key_table[index_];
      size_ = index_ >= 100 ? 4 : index_ >= 10 ? 3 : 2;
      return;
    }
    increment();
  }

 private:
  // Adds one to the decimal digits of word_, carrying; past 7 digits word_ stops being kept.
  void increment() noexcept {
    if (!fits()) return;
    for (std::uint32_t pos = size_ - 1; pos-- > 0;) {
      const std::uint32_t shift = pos * 8;
      const auto digit = static_cast<std::uint8_t>(word_ >> shift);
      if (digit != '9') {
        word_ += std::uint64_t{1} << shift;
        return;
      }
      word_ -= std::uint64_t{'9' - '0'} << shift;
    }
    // Every digit was 9: one more digit, a leading 1.
    ++size_;
    word_ = size_ <= 8 ? word_ << 8 | '1' : 0;
  }

  std::size_t index_ = 0;
  std::uint64_t word_ = '0';
  std::uint32_t size_ = 2;
};

// Whether the element at p (a type byte, then a key) has key `keys`, the expected index key.
[[nodiscard]] inline bool has_index_key(const std::uint8_t* p, const std::uint8_t* doc_end,
                                        const index_keys& keys) noexcept {
  const auto avail = static_cast<std::size_t>(doc_end - p);
  if (!keys.fits() || avail <= keys.size()) return false;
  if (avail > 8) {
    const std::uint64_t mask =
        keys.size() == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * keys.size())) - 1;
    return ((load_u64_le(p + 1) ^ keys.word()) & mask) == 0;
  }
  for (std::uint32_t i = 0; i < keys.size(); ++i) {
    if (p[1 + i] != static_cast<std::uint8_t>(keys.word() >> (8 * i))) return false;
  }
  return true;
}

}  // namespace bsongen::detail
