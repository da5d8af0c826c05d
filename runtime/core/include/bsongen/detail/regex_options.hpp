#pragma once

// The canonical form of regex options, one rule for every encoder (generated and generic) and
// for the generic path's equality: the BSON spec lists options alphabetically. Options are ASCII
// letters; when any byte is not ASCII they are kept as given, since sorting bytes would split
// multi-byte UTF-8 sequences (and pymongo, libbson and the corpus agree on ASCII options only).

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace bsongen::detail {

// Sorts the n option bytes at p in place (see above).
inline void sort_regex_options(std::uint8_t* p, std::size_t n) noexcept {
  if (std::all_of(p, p + n, [](std::uint8_t byte) { return byte < 0x80; })) std::sort(p, p + n);
}

inline void sort_regex_options(char* p, std::size_t n) noexcept {
  sort_regex_options(reinterpret_cast<std::uint8_t*>(p), n);
}

}  // namespace bsongen::detail
