#pragma once

// The fixed-shape fast path: a document whose every byte but its values is known in advance (a
// fixed-shape struct, a fixed array of fixed-width values) is checked against its skeleton in one
// pass of word compares, then its values load without per-element framing checks. Generated
// sources of schemas with fixed-shape structs include it (catalog.FIXED_SHAPE_HEADER), and
// array_codec.hpp for fixed arrays.

#include <array>
#include <cstddef>
#include <cstdint>

#include "bsongen/detail/endian.hpp"

namespace bsongen::detail {

struct byte_run {
  std::uint32_t offset;
  std::uint32_t length;
};

// The widest fixed array whose fast path builds its shape (below): the shape is computed at compile
// time, at a cost of compile-time steps per byte (clang's default limit ran out near 39 KB), so
// wider arrays decode the general way. Fixed-shape structs are not bound by it: the generator
// writes their shapes out (up to catalog.MAX_FIXED_WIDTH).
inline constexpr std::size_t max_fixed_shape_size = 4096;

// Words [first, first + count) of a fixed shape's Size / 8 whole words.
struct word_run {
  std::uint32_t first;
  std::uint32_t count;
};

// A fixed-shape document's skeleton (every byte for zero values) and which bytes are constant
// (type bytes, keys, lengths) as 8-byte words, so one pass of xor/and/or verifies the shape.
// Words holding only value bytes need no compare: `runs` lists the words that are compared, in
// order, and `skeleton` / `constant_mask` hold those words only (Compared = the runs' total).
// The default, one run over every word, is what most shapes are; a long stretch of values (a
// fixed-dimension binary vector's elements) splits the runs, so decode's check costs the constant
// bytes' words and not the document's size.
template <std::size_t Size, std::size_t Compared = Size / 8, std::size_t Runs = 1>
struct fixed_shape {
  static constexpr std::size_t words = Size / 8;
  static constexpr std::size_t tail = Size % 8;
  // Every word, in one run: the loop needs no run table.
  static constexpr bool dense = Runs == 1 && Compared == words;
  std::array<std::uint64_t, Compared> skeleton{};
  std::array<std::uint64_t, Compared> constant_mask{};
  std::array<std::uint8_t, tail + 1> tail_skeleton{};
  std::array<std::uint8_t, tail + 1> tail_constant{};
  std::array<word_run, Runs> runs = {{{0, static_cast<std::uint32_t>(Compared)}}};
};

// `value_runs` lists the bytes that hold values (not compared). Fixed arrays build their shapes
// here, dense (their elements are scalars of at most 16 bytes between type bytes and keys, so
// every word holds a constant byte); the generator writes fixed structs' shapes out instead
// (cpp.FixedView), in the same layout, with runs where values leave whole words.
template <std::size_t Size, std::size_t Runs>
consteval fixed_shape<Size> make_fixed_shape(const char (&skeleton)[Size + 1],
                                             const std::array<byte_run, Runs>& value_runs) {
  std::array<bool, Size + 1> is_value{};
  for (const byte_run& run : value_runs) {
    for (std::uint32_t i = 0; i < run.length; ++i) is_value[run.offset + i] = true;
  }
  fixed_shape<Size> shape;
  for (std::size_t i = 0; i < Size; ++i) {
    const auto byte = static_cast<std::uint8_t>(skeleton[i]);
    const std::uint8_t constant = is_value[i] ? 0 : 0xFF;
    if (i / 8 < shape.words) {
      const std::size_t shift = (i % 8) * 8;
      shape.skeleton[i / 8] |= static_cast<std::uint64_t>(byte) << shift;
      shape.constant_mask[i / 8] |= static_cast<std::uint64_t>(constant) << shift;
    } else {
      shape.tail_skeleton[i % 8] = byte;
      shape.tail_constant[i % 8] = constant;
    }
  }
  return shape;
}

// Precondition: p points at Size readable bytes.
template <std::size_t Size, std::size_t Compared, std::size_t Runs>
[[nodiscard]] inline bool matches_shape(const std::uint8_t* p,
                                        const fixed_shape<Size, Compared, Runs>& shape) noexcept {
  std::uint64_t diff = 0;
  if constexpr (fixed_shape<Size, Compared, Runs>::dense) {
    for (std::size_t i = 0; i < shape.words; ++i) {
      diff |= (load_u64_le(p + 8 * i) ^ shape.skeleton[i]) & shape.constant_mask[i];
    }
  } else {
    std::size_t k = 0;
    for (const word_run& run : shape.runs) {
      const std::uint8_t* const q = p + 8 * std::size_t{run.first};
      for (std::size_t i = 0; i < run.count; ++i, ++k) {
        diff |= (load_u64_le(q + 8 * i) ^ shape.skeleton[k]) & shape.constant_mask[k];
      }
    }
  }
  for (std::size_t i = 0; i < shape.tail; ++i) {
    diff |= static_cast<std::uint64_t>((p[8 * shape.words + i] ^ shape.tail_skeleton[i]) &
                                       shape.tail_constant[i]);
  }
  return diff == 0;
}

}  // namespace bsongen::detail
