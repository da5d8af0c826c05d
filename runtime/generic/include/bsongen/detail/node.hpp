#pragma once

// node: the 32-byte in-memory form of one element of a generic document.
//
// Key view (12 bytes) + type tag + binary subtype + flags + a 16-byte payload. Every
// variable-length part (keys, strings, binary bytes, nested element arrays) points into the owning
// document's arena, usually into the one copy of the decoded input, so decoding never copies bytes
// that are already in the right form. The elements of one document or array are contiguous.
//
// Layout contracts the encoder and decoder rely on:
//  * string, javascript, symbol: text.data/text.size, the bytes followed by a NUL;
//  * binary: text.data/text.size are the payload bytes (for subtype 0x02 without its inner length);
//  * regex: text is the pattern; the options follow the pattern's NUL and are text.extra bytes
//  long;
//  * db_pointer: text is the namespace; the 12 ObjectId bytes follow its NUL;
//  * javascript_with_scope: scope points at a code_with_scope in the arena.
// Array elements keep the key they were read with (arrays are encoded with canonical keys).

#include <cstddef>
#include <cstdint>

#include "bsongen/bson_type.hpp"

namespace bsongen::detail {

struct node;

// Trivial (no member initializers) so it can live in the payload union; value-initialize it.
struct container {
  node* elements;
  std::uint32_t size;
  std::uint32_t capacity;
};

struct code_with_scope {
  const char* code;
  std::uint32_t code_size;
  container scope;
};

struct text_ref {
  const char* data;
  std::uint32_t size;
  std::uint32_t extra;
};

union payload {
  double f64;
  std::int32_t i32;
  std::int64_t i64;
  std::uint64_t u64;
  bool boolean;
  text_ref text;
  std::uint8_t bytes[16];  // ObjectId (12), Decimal128 (16, little-endian as in BSON)
  container doc;
  code_with_scope* cws;
};

// node::flags: what is already known to hold of a node's bytes. A set bit is a promise encode
// relies on to skip its own check (decision 5: encode refuses what decode would reject); a clear
// bit promises nothing, so zero (what value-initialization gives) is always truthful. Whoever
// writes a node's key or texts must set these from what it checked, or clear them.
namespace node_flags {
// The key's bytes are UTF-8.
inline constexpr std::uint16_t key_utf8 = 1u << 0;
// The value's own texts are UTF-8: a string's, javascript's or symbol's text, a dbPointer's
// namespace, a regex's pattern and options, a javascriptWithScope's code; vacuously true for the
// types without text (value_rules' `utf8` is false). Nested elements carry their own flags.
inline constexpr std::uint16_t text_utf8 = 1u << 1;
inline constexpr std::uint16_t utf8 = key_utf8 | text_utf8;
}  // namespace node_flags

// text_utf8 for a node of type `t` whose texts nobody has checked.
[[nodiscard]] constexpr std::uint16_t unchecked_text_flags(bson_type t) noexcept {
  return rule_of(t).utf8 ? 0 : node_flags::text_utf8;
}

struct node {
  const char* key;
  std::uint32_t key_size;
  bson_type type;
  std::uint8_t subtype;
  std::uint16_t flags;  // node_flags
  payload as;
};

static_assert(sizeof(node) == 32, "elements are meant to stay two per cache half-line");

}  // namespace bsongen::detail
