#pragma once

// Encode/decode helpers shared by the tests: each reports a failed step as a test failure (with
// the library's error text) and returns an empty value, so a test keeps going and shows every
// difference at once.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <span>
#include <vector>

#include "bsongen/codec.hpp"
#include "bsongen/detail/endian.hpp"
#include "bsongen/detail/wire.hpp"
#include "bsongen/document.hpp"

namespace bsongen::test {

using bytes = std::vector<std::uint8_t>;

inline bytes to_bytes(const byte_buffer& b) { return {b.data(), b.data() + b.size()}; }

// The generic path's encoding of `d`.
inline bytes generic_encoding(document_ref d) { return to_bytes(encode_document(d)); }

// The elements of a document (a valid one), each from its type byte to its end.
inline std::vector<bytes> elements_of(std::span<const std::uint8_t> doc) {
  std::vector<bytes> out;
  const std::uint8_t* p = doc.data() + 4;
  const std::uint8_t* const end = doc.data() + doc.size() - 1;
  while (p < end) {
    const std::uint8_t* const element = p;
    const std::uint8_t* const value = p + 1 + std::strlen(reinterpret_cast<const char*>(p + 1)) + 1;
    bsongen::detail::decode_state st;
    p = bsongen::detail::skip_value(st, *element, value, end);
    if (p == nullptr) ADD_FAILURE() << "a test document that does not walk";
    if (p == nullptr) break;
    out.emplace_back(element, p);
  }
  return out;
}

// A document of the given elements, in the given order (indices into `elements`; repeats allowed).
inline bytes document_of(const std::vector<bytes>& elements,
                         const std::vector<std::size_t>& order) {
  bytes out(4);
  for (std::size_t i : order) out.insert(out.end(), elements[i].begin(), elements[i].end());
  out.push_back(0);
  bsongen::detail::store_u32_le(out.data(), static_cast<std::uint32_t>(out.size()));
  return out;
}

// Generated code (or any type with a bsongen::codec): encode `v`, expecting success.
template <class T>
bytes encode_ok(const T& v) {
  auto r = bsongen::encode(v);
  EXPECT_TRUE(r) << r.error().to_string();
  return r ? to_bytes(*r) : bytes{};
}

template <class T>
error encode_error(const T& v) {
  auto r = bsongen::encode(v);
  EXPECT_FALSE(r) << "encoded although an error was expected";
  return r ? error{} : r.error();
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

// The generic path's decoding of `b`, expecting success.
inline document decode_generic(std::span<const std::uint8_t> b) {
  auto r = decode_document(b);
  EXPECT_TRUE(r) << r.error().to_string();
  return r ? std::move(*r) : document{};
}

// The documents of a BSON stream file (a mongodump, or what a peer wrote), up to the first one
// whose length does not fit.
inline std::vector<bytes> read_documents(const char* path) {
  std::ifstream in(path, std::ios::binary);
  const bytes all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<bytes> docs;
  std::size_t at = 0;
  while (at + 4 <= all.size()) {
    const auto n = static_cast<std::size_t>(detail::load_i32_le(all.data() + at));
    if (n < 5 || at + n > all.size()) break;
    docs.emplace_back(all.begin() + static_cast<std::ptrdiff_t>(at),
                      all.begin() + static_cast<std::ptrdiff_t>(at + n));
    at += n;
  }
  return docs;
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
