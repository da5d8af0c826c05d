#pragma once

// Limits and choices for decoding untrusted BSON.

#include <cstddef>
#include <cstdint>
#include <memory_resource>

namespace bsongen {

// The most nesting any decode accepts, whatever decode_options::max_depth says (a larger
// max_depth counts as this). Generated decoders recurse once per document or array level, so this
// bounds their stack use: a few hundred KiB at the limit in an optimized build.
inline constexpr std::size_t max_depth_limit = 1000;

// What a decoder does with a key that appears twice in one document.
enum class duplicate_key_policy : std::uint8_t {
  last_wins,  // the later element replaces the earlier (lookups find the last)
  reject,     // error duplicate_field at the second occurrence
};

struct decode_options {
  // Largest accepted outermost document, checked against its declared length before anything is
  // allocated. 16 MiB is MongoDB's document limit.
  std::size_t max_size = 16 * 1024 * 1024;
  // Most documents/arrays on one path, the outermost counted as 1 (MongoDB allows 100 levels).
  // The decoder keeps its nesting on the heap, so no limit can overflow the C++ stack; the limit
  // bounds memory and keeps recursive consumers of the result (encode, equality) safe.
  std::size_t max_depth = 100;
  // Check that every string, key, regex and DBPointer namespace is UTF-8, as the spec requires.
  bool validate_utf8 = true;
  // Repeated keys in one document: the last wins, or the decode fails.
  duplicate_key_policy duplicate_keys = duplicate_key_policy::last_wins;
  // Where the document's arena takes its blocks; nullptr means the runtime default. Must outlive
  // the decoded document.
  std::pmr::memory_resource* memory = nullptr;
  // false: one call to `memory` per element array instead of a bump arena (the benchmark's
  // generic_nopool baseline; slower, never needed in production).
  bool pooled = true;
};

}  // namespace bsongen
