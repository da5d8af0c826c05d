#pragma once

// Encode/decode helpers shared by the tests: each reports a failed step as a test failure (with
// the library's error text) and returns an empty value, so a test keeps going and shows every
// difference at once.

#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <vector>

#include "bsongen/codec.hpp"
#include "bsongen/document.hpp"

namespace bsongen::test {

using bytes = std::vector<std::uint8_t>;

inline bytes to_bytes(const byte_buffer& b) { return {b.data(), b.data() + b.size()}; }

// The generic path's encoding of `d`.
inline bytes generic_encoding(document_ref d) { return to_bytes(encode_document(d)); }

// Generated code (or any type with a bsongen::codec): encode `v`, expecting success.
template <class T>
bytes encode_ok(const T& v) {
  auto r = bsongen::encode(v);
  EXPECT_TRUE(r) << r.error().to_string();
  return r ? to_bytes(*r) : bytes{};
}

template <class T>
T decode_ok(std::span<const std::uint8_t> b, const decode_options& options = {}) {
  auto r = bsongen::decode<T>(b, options);
  EXPECT_TRUE(r) << r.error().to_string();
  return r ? std::move(*r) : T{};
}

template <class T>
error decode_error(std::span<const std::uint8_t> b, const decode_options& options = {}) {
  auto r = bsongen::decode<T>(b, options);
  EXPECT_FALSE(r) << "decoded although an error was expected";
  return r ? error{} : r.error();
}

// Encodes, decodes, re-encodes: the value and the bytes survive.
template <class T>
void expect_round_trip(const T& v) {
  const bytes first = encode_ok(v);
  const T back = decode_ok<T>(first);
  EXPECT_TRUE(back == v);
  EXPECT_EQ(encode_ok(back), first);
}

}  // namespace bsongen::test
