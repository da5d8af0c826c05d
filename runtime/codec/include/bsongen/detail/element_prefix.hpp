#pragma once

// Element prefixes of generated struct codecs: the type byte, key and NUL that precede a field's
// value, built at compile time, compared and written in place; and the short-text compare that
// struct tables (struct_table.hpp) and maps (map_codec.hpp) match keys with. Every generated
// source with a struct includes it (catalog.STRUCT_CODEC_HEADERS).

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "bsongen/bson_type.hpp"
#include "bsongen/detail/endian.hpp"

namespace bsongen::detail {

// p[0..N) == q[0..N), as a few word compares: libc's memcmp is an out-of-line call that costs
// more than the compare for these short keys. Loads from a constant q fold into immediates.
template <std::size_t N>
[[nodiscard]] inline bool equal_bytes(const std::uint8_t* p, const std::uint8_t* q) noexcept {
  if constexpr (N >= 8) {
    std::uint64_t diff = 0;
    for (std::size_t i = 0; i + 8 <= N; i += 8) diff |= load_u64_le(p + i) ^ load_u64_le(q + i);
    if constexpr (N % 8 != 0) diff |= load_u64_le(p + N - 8) ^ load_u64_le(q + N - 8);
    return diff == 0;
  } else if constexpr (N >= 4) {
    return ((load_u32_le(p) ^ load_u32_le(q)) |
            (load_u32_le(p + N - 4) ^ load_u32_le(q + N - 4))) == 0;
  } else {
    std::uint32_t diff = 0;
    for (std::size_t i = 0; i < N; ++i) diff |= static_cast<std::uint32_t>(p[i] ^ q[i]);
    return diff == 0;
  }
}

// A field's element prefix: its type byte, its key and the key's NUL, built at compile time.
//
//   static constexpr detail::element_prefix prefix_id{bson_type::object_id, "_id"};
template <std::size_t KeyChars>
struct element_prefix {
  static constexpr std::size_t size = KeyChars + 1;  // type byte, key, NUL
  std::uint8_t type;
  std::array<std::uint8_t, size> bytes{};

  constexpr element_prefix(bson_type t, const char (&key)[KeyChars]) noexcept
      : type(static_cast<std::uint8_t>(t)) {
    bytes[0] = type;
    for (std::size_t i = 0; i < KeyChars; ++i) bytes[1 + i] = static_cast<std::uint8_t>(key[i]);
  }
};

// The key and NUL of a field whose value decides its type byte (`any`).
template <std::size_t KeyChars>
struct key_suffix {
  static constexpr std::size_t size = KeyChars;  // key and NUL
  std::array<std::uint8_t, size> bytes{};

  constexpr explicit key_suffix(const char (&key)[KeyChars]) noexcept {
    for (std::size_t i = 0; i < KeyChars; ++i) bytes[i] = static_cast<std::uint8_t>(key[i]);
  }
};

// True when the element at p (p <= doc_end) starts with `prefix`.
template <std::size_t K>
[[nodiscard]] inline bool has_prefix(const std::uint8_t* p, const std::uint8_t* doc_end,
                                     const element_prefix<K>& prefix) noexcept {
  return static_cast<std::size_t>(doc_end - p) >= prefix.size &&
         equal_bytes<element_prefix<K>::size>(p, prefix.bytes.data());
}
// True when the element at p has a valid type byte and then `key`.
template <std::size_t K>
[[nodiscard]] inline bool has_prefix(const std::uint8_t* p, const std::uint8_t* doc_end,
                                     const key_suffix<K>& key) noexcept {
  return static_cast<std::size_t>(doc_end - p) > key.size && is_bson_type(*p) &&
         equal_bytes<key_suffix<K>::size>(p + 1, key.bytes.data());
}

template <std::size_t K>
inline std::uint8_t* put_prefix(std::uint8_t* out, const element_prefix<K>& prefix) noexcept {
  std::memcpy(out, prefix.bytes.data(), prefix.size);
  return out + prefix.size;
}
template <std::size_t K>
inline std::uint8_t* put_prefix(std::uint8_t* out, std::uint8_t type,
                                const key_suffix<K>& key) noexcept {
  *out = type;
  std::memcpy(out + 1, key.bytes.data(), key.size);
  return out + 1 + key.size;
}

// a == b without a libc call for texts of up to 16 bytes (map keys mostly are): two loads from
// each end, overlapping when shorter than the loads; memcmp beyond. Reads only inside a and b.
[[nodiscard]] inline bool same_text(std::string_view a, std::string_view b) noexcept {
  const std::size_t n = a.size();
  if (n != b.size()) return false;
  const auto* x = reinterpret_cast<const std::uint8_t*>(a.data());
  const auto* y = reinterpret_cast<const std::uint8_t*>(b.data());
  if (n >= 8) {
    if (n > 16) return std::memcmp(x, y, n) == 0;
    return ((load_u64_le(x) ^ load_u64_le(y)) |
            (load_u64_le(x + n - 8) ^ load_u64_le(y + n - 8))) == 0;
  }
  if (n >= 4) {
    return ((load_u32_le(x) ^ load_u32_le(y)) |
            (load_u32_le(x + n - 4) ^ load_u32_le(y + n - 4))) == 0;
  }
  // 0 to 3 bytes: first, middle and last (the same byte when n is 1)
  return n == 0 || ((x[0] ^ y[0]) | (x[n / 2] ^ y[n / 2]) | (x[n - 1] ^ y[n - 1])) == 0;
}

}  // namespace bsongen::detail
