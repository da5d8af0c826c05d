#pragma once

// Limits and choices for decoding untrusted BSON.

#include <cstddef>
#include <cstdint>

#include "bsongen/detail/light_std.hpp"  // std::pmr::memory_resource

namespace bsongen {

// The most documents/arrays on one path that any decode accepts, whatever
// decode_options::max_depth says (a larger max_depth acts as this). Generated decoders recurse once
// per level (about 300 bytes of C++ stack each: 30,000 levels overflowed an 8 MiB stack), so 1,024
// levels need about 300 KiB and fit a 1 MiB thread stack with room for the caller; Extended JSON
// parsing stops at the same 1,024. MongoDB itself stores at most 100 levels. The generic path keeps
// its nesting on the heap and needs no such bound; it honours the cap so both paths accept the
// same documents.
inline constexpr std::size_t max_depth_limit = 1024;

// What a decoder does with a key that an earlier element of the same document already had.
enum class duplicate_key_policy : std::uint8_t {
  // Keep every element as read; lookups (find, operator[], generated members) see the last one.
  last_wins,
  // Fail with duplicate_field at the element that repeats the key (arrays are not checked: their
  // keys carry no meaning).
  reject,
};

struct decode_options {
  // Largest accepted outermost document, checked against its declared length before anything is
  // allocated. 16 MiB is MongoDB's document limit.
  std::size_t max_size = 16 * 1024 * 1024;
  // Most documents/arrays on one path, the outermost counted as 1 (MongoDB allows 100 levels);
  // values above max_depth_limit act as max_depth_limit, and 0 accepts nothing.
  std::size_t max_depth = 100;
  // Check that every string, key, regex and DBPointer namespace is UTF-8, as the spec requires.
  bool validate_utf8 = true;
  duplicate_key_policy duplicate_keys = duplicate_key_policy::last_wins;
  // Generated decoders: how they step over the elements they do not keep (keys the struct does
  // not know, and the source's fields a projection leaves out; elements captured by
  // `unknown_fields: capture` are kept, so always validated). true: each is validated as fully
  // as the generic decoder validates it (lengths, terminators, UTF-8, booleans, nested documents
  // to max_depth), so a decoder accepts only valid BSON. false: for input validated elsewhere,
  // such as documents straight from a MongoDB server (which validated them on insert): a skipped
  // element's key is read as any key is, its value is stepped over by its length prefix alone,
  // checked to end inside its document (never a read outside the input) and not looked into. The
  // trade-off: garbage inside a skipped value (a bad UTF-8 byte, a broken nested document) goes
  // unnoticed, so a document the generic decoder rejects may decode; what decode reads is
  // validated either way. A projection of a few fields out of many decodes several times faster
  // (README, "Projections, field paths and trusted input").
  bool validate_skipped = true;
  // Where the document's arena takes its blocks; nullptr means the runtime default. Generated
  // decoders: what a new struct of an `allocator: pmr` schema is built on, and where the values
  // of `any` members take their memory. Must outlive the decoded document, struct or values.
  std::pmr::memory_resource* memory = nullptr;
};

}  // namespace bsongen
