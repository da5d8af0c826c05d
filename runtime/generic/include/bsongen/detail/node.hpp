#pragma once

// node: the 32-byte in-memory form of one element of a generic document.
//
// Key view (12 bytes) + type tag + binary subtype + a 16-byte payload. Every variable-length part
// (keys, strings, binary bytes, nested element arrays) points into the owning document's arena,
// usually into the one copy of the decoded input, so decoding never copies bytes that are already
// in the right form. The elements of one document or array are contiguous.
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

struct node {
  const char* key;
  std::uint32_t key_size;
  bson_type type;
  std::uint8_t subtype;
  std::uint16_t unused;
  payload as;
};

static_assert(sizeof(node) == 32, "elements are meant to stay two per cache half-line");

}  // namespace bsongen::detail
