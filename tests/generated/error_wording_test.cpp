// One wording per error: the generic decoder and a generated decoder, given the same malformed
// document, refuse it with the same code, message and path (bsongen/detail/error_messages.hpp
// holds the messages both build).

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bsongen/codec.hpp"
#include "bsongen/document.hpp"
#include "value_codecs.bsongen.hpp"

namespace {

using bytes = std::vector<std::uint8_t>;

// push_back, byte by byte: g++ 12 warns (stringop-overflow, a false positive) on inserting an
// initializer_list into a vector that was empty.
void append(bytes& out, std::initializer_list<int> values) {
  for (const int v : values) out.push_back(static_cast<std::uint8_t>(v));
}

// Writes the document's size into its first four bytes (little-endian).
void set_length(bytes& doc) {
  const auto n = static_cast<std::uint32_t>(doc.size());
  for (int i = 0; i < 4; ++i)
    doc[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(n >> (8 * i));
}

// A document of one element: type byte, key, then `value` as given (malformed on purpose), with
// the document's own length and closing NUL right.
bytes one_element(std::uint8_t type, std::string_view key, std::initializer_list<int> value) {
  bytes out(4, 0);  // the length, set below
  out.push_back(type);
  for (const char c : key) out.push_back(static_cast<std::uint8_t>(c));
  out.push_back(0);
  for (const int b : value) out.push_back(static_cast<std::uint8_t>(b));
  out.push_back(0);
  set_length(out);
  return out;
}

// `depth` documents nested under key "a".
bytes nested(std::size_t depth) {
  bytes out;
  for (std::size_t i = 0; i < depth; ++i) append(out, {0, 0, 0, 0, 0x03, 'a', 0});
  append(out, {5, 0, 0, 0, 0});
  for (std::size_t i = 0; i < depth; ++i) out.push_back(0);
  // Each level's length: from its start to its own closing NUL.
  for (std::size_t i = 0; i < depth; ++i) {
    const std::size_t start = 7 * i;
    const auto n = static_cast<std::uint32_t>(out.size() - start - i);
    for (int b = 0; b < 4; ++b)
      out[start + static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(n >> (8 * b));
  }
  return out;
}

struct malformed {
  const char* what;
  bytes document;
};

std::vector<malformed> malformed_documents() {
  return {
      {"unknown type byte", one_element(0x42, "d", {0, 0, 0, 0, 0, 0, 0, 0})},
      {"double past the end", one_element(0x01, "d", {0, 0, 0})},
      {"int32 past the end", one_element(0x10, "i32", {1, 2})},
      {"bool byte 2", one_element(0x08, "b", {2})},
      {"string length 0", one_element(0x02, "s", {0, 0, 0, 0, 0})},
      {"string length past the end", one_element(0x02, "s", {100, 0, 0, 0, 'a', 0})},
      {"string without its NUL", one_element(0x02, "s", {2, 0, 0, 0, 'a', 'b'})},
      {"string not UTF-8", one_element(0x02, "s", {3, 0, 0, 0, 0xff, 0xfe, 0})},
      {"string past the end", one_element(0x02, "s", {3, 0})},
      {"binary negative length", one_element(0x05, "bin", {0xff, 0xff, 0xff, 0xff, 0})},
      {"binary length past the end", one_element(0x05, "bin", {100, 0, 0, 0, 0, 1})},
      {"old binary inner length", one_element(0x05, "old", {5, 0, 0, 0, 2, 3, 0, 0, 0, 'x'})},
      {"regex not UTF-8", one_element(0x0B, "re", {0xff, 0, 0})},
      {"code with scope below its minimum", one_element(0x0F, "cws", {4, 0, 0, 0})},
      {"code with scope past the end",
       one_element(0x0F, "cws", {100, 0, 0, 0, 2, 0, 0, 0, 'x', 0, 5, 0, 0, 0, 0})},
      {"code with scope lengths disagree",
       one_element(0x0F, "cws", {15, 0, 0, 0, 2, 0, 0, 0, 'x', 0, 5, 0, 0, 0, 0, 0})},
      {"embedded document below 5", one_element(0x03, "pt", {4, 0, 0, 0, 0})},
      {"embedded document past the end", one_element(0x03, "pt", {100, 0, 0, 0, 0})},
      {"embedded document without its NUL", one_element(0x03, "pt", {5, 0, 0, 0, 1})},
      {"embedded document in any, below 5", one_element(0x03, "a", {4, 0, 0, 0, 0})},
      {"embedded document in any, without its NUL", one_element(0x03, "a", {5, 0, 0, 0, 1})},
      {"key not UTF-8", one_element(0x10, "\xff", {1, 0, 0, 0})},
      {"nesting past the limit", nested(101)},
  };
}

TEST(error_wording_hostile, generic_and_generated_decoders_say_the_same) {
  for (const malformed& m : malformed_documents()) {
    SCOPED_TRACE(m.what);
    const std::span<const std::uint8_t> input(m.document);
    const bsongen::result<void> generic = bsongen::validate_document(input);
    const bsongen::result<vc::leaves> generated = bsongen::decode<vc::leaves>(input);
    ASSERT_FALSE(generic);
    ASSERT_FALSE(generated);
    EXPECT_EQ(generated.error().code, generic.error().code);
    EXPECT_EQ(generated.error().message, generic.error().message);
    EXPECT_EQ(generated.error().path, generic.error().path);
  }
}

TEST(error_wording_hostile, a_repeated_key_reads_the_same_on_both_paths) {
  bytes doc(4, 0);
  for (int i = 0; i < 2; ++i) append(doc, {0x10, 'i', '3', '2', 0, 1, 0, 0, 0});
  doc.push_back(0);
  set_length(doc);
  bsongen::decode_options reject;
  reject.duplicate_keys = bsongen::duplicate_key_policy::reject;
  const std::span<const std::uint8_t> input(doc);
  const bsongen::result<void> generic = bsongen::validate_document(input, reject);
  const bsongen::result<vc::leaves> generated = bsongen::decode<vc::leaves>(input, reject);
  ASSERT_FALSE(generic);
  ASSERT_FALSE(generated);
  EXPECT_EQ(generated.error().code, bsongen::error_code::duplicate_field);
  EXPECT_EQ(generated.error().message, generic.error().message);
  EXPECT_EQ(generated.error().path, generic.error().path);
}

}  // namespace
