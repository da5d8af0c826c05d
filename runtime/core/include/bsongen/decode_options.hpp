#pragma once

// Limits and choices for decoding untrusted BSON.

#include <cstddef>
#include <memory_resource>

namespace bsongen {

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
  // Where the document's arena takes its blocks; nullptr means the runtime default. Must outlive
  // the decoded document.
  std::pmr::memory_resource* memory = nullptr;
  // false: one call to `memory` per element array instead of a bump arena (the benchmark's
  // generic_nopool baseline; slower, never needed in production).
  bool pooled = true;
};

}  // namespace bsongen
