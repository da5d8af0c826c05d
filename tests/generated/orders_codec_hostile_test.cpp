// Hostile input against generated decoders (schemas/orders.yaml: unknown fields captured at the
// top, rejected in line items, duplicate keys rejected; bench/schemas/flat_bson.yaml: unknown
// fields skipped). Every case asserts the error code, path and offset, and that the generic decoder
// rejects the input too: a generated decoder never accepts what the generic decoder rejects.

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "bson_builder.hpp"
#include "bsongen/codec.hpp"
#include "bsongen/document.hpp"
#include "flat_bson.bsongen.hpp"
#include "orders.bsongen.hpp"

namespace bsongen {
namespace {

using test::bson_builder;
using test::document_of;

struct expected_error {
  error_code code;
  std::string path;
  std::size_t offset;
};

template <class T>
void expect_rejected(const std::vector<std::uint8_t>& bytes, const expected_error& expected,
                     const decode_options& options = {}) {
  auto r = decode<T>(std::span<const std::uint8_t>(bytes), options);
  ASSERT_FALSE(r.has_value()) << "the generated decoder accepted hostile input";
  EXPECT_EQ(name(r.error().code), name(expected.code)) << r.error().to_string();
  EXPECT_EQ(r.error().path, expected.path) << r.error().to_string();
  EXPECT_EQ(r.error().offset, expected.offset) << r.error().to_string();
}

// The required members of an order: _id, number, createdAt.
bson_builder order_body() {
  bson_builder b;
  b.u8(0x07).cstr("_id").raw("0123456789ab");
  b.u8(0x12).cstr("number").i64(42);
  b.u8(0x09).cstr("createdAt").i64(1715938200000);
  return b;
}
// Offset of the first byte after order_body() in a document: length, then 17 + 16 + 19 bytes.
constexpr std::size_t after_order_body = 4 + 17 + 16 + 19;

TEST(hostile_generated, a_minimal_order_decodes) {
  auto r = decode<shop::order>(document_of(order_body()));
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(r->number, 42);
}

TEST(hostile_generated, unknown_key_with_invalid_utf8_is_rejected_when_captured_or_skipped) {
  // Found by orders_decode_fuzz and flat_bson_decode_fuzz: unknown keys were captured or skipped
  // without the UTF-8 check the generic decoder makes, so invalid BSON was accepted.
  auto body = order_body();
  body.u8(0x10).u8s({'k', 0xFF, 0}).i32(1);
  const auto order_bytes = document_of(body);
  // The error names the element with the bad key (README, "Errors"), as the generic decoder does.
  ASSERT_EQ(decode_document(order_bytes).error().path, "k\xFF");
  expect_rejected<shop::order>(order_bytes, {error_code::invalid_utf8, "k\xFF", after_order_body});

  const auto flat = document_of(bson_builder().u8(0x10).u8s({'k', 0xC3, 0x28, 0}).i32(1));
  ASSERT_EQ(decode_document(flat).error().path, "k\xC3(");
  expect_rejected<bench::flat_bson>(flat, {error_code::invalid_utf8, "k\xC3(", 4});

  decode_options lenient;
  lenient.validate_utf8 = false;
  EXPECT_TRUE(decode<shop::order>(std::span<const std::uint8_t>(order_bytes), lenient));
}

TEST(hostile_generated, long_unknown_key_with_invalid_utf8_is_rejected_out_of_order) {
  // Keys a word or more from the document's end are looked up where they lie, without
  // read_element_header's checks; one that matches no field must still get them. Here the bad
  // byte sits in the key's second word and more elements follow, so the key is found in place.
  auto body = order_body();
  body.u8(0x10).u8s({'u', 'n', 'k', 'n', 'o', 'w', 'n', '_', 'k', 0xFF, 'y', 0}).i32(1);
  body.u8(0x02).cstr("status").str("paid");
  const auto order_bytes = document_of(body);
  ASSERT_EQ(decode_document(order_bytes).error().path, "unknown_k\xFFy");
  expect_rejected<shop::order>(order_bytes,
                               {error_code::invalid_utf8, "unknown_k\xFFy", after_order_body});

  // A valid long key, out of schema order with fields after it, still decodes into its field.
  auto valid = order_body();
  valid.u8(0x05).cstr("attachment").i32(3).u8(0).u8s({1, 2, 3});
  valid.u8(0x09).cstr("shippedAt").i64(1715938300000);
  valid.u8(0x08).cstr("gift").u8(1);
  auto r = decode<shop::order>(document_of(valid));
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(r->attachment.has_value());
  ASSERT_TRUE(r->shipped_at.has_value());
  EXPECT_TRUE(r->gift);
  EXPECT_TRUE(r->extra.empty());
}

TEST(hostile_generated, invalid_utf8_array_key_inside_a_known_array_is_rejected) {
  auto item = document_of(bson_builder()
                              .u8(0x02)
                              .cstr("sku")
                              .str("A-1")
                              .u8(0x10)
                              .cstr("qty")
                              .i32(1)
                              .u8(0x13)
                              .cstr("unitPrice")
                              .raw("0123456789abcdef"));
  bson_builder items;
  items.u8(0x03).u8s({0xFE, 0}).append(item);
  auto body = order_body();
  body.u8(0x04).cstr("items").append(document_of(items));
  const auto bytes = document_of(body);
  ASSERT_EQ(decode_document(bytes).error().path, "items.\xFE");
  // "items" at after_order_body; its array at +7; the bad element at +4 inside the array.
  expect_rejected<shop::order>(bytes,
                               {error_code::invalid_utf8, "items.\xFE", after_order_body + 7 + 4});
}

TEST(hostile_generated, lying_string_lengths_in_known_fields_are_rejected) {
  for (std::int32_t length : {0, -1, std::numeric_limits<std::int32_t>::min(),
                              std::numeric_limits<std::int32_t>::max()}) {
    SCOPED_TRACE(length);
    auto body = order_body();
    body.u8(0x02).cstr("notes").i32(length).cstr("x");
    const auto bytes = document_of(body);
    ASSERT_FALSE(decode_document(bytes));
    auto r = decode<shop::order>(std::span<const std::uint8_t>(bytes));
    ASSERT_FALSE(r);
    // A length past the document is `invalid_length` in both decoders.
    EXPECT_EQ(r.error().code, error_code::invalid_length) << r.error().to_string();
    EXPECT_EQ(r.error().path, "notes") << r.error().to_string();
    EXPECT_GE(r.error().offset, after_order_body);
    EXPECT_LE(r.error().offset, bytes.size());
  }
}

TEST(hostile_generated, outer_framing_lies_are_rejected_before_any_member) {
  auto bytes = document_of(order_body());
  auto longer = bytes;
  longer[0] = static_cast<std::uint8_t>(longer[0] + 1);
  ASSERT_FALSE(decode<shop::order>(std::span<const std::uint8_t>(longer)));
  auto two_gib = bytes;
  two_gib[0] = two_gib[1] = two_gib[2] = 0xFF;
  two_gib[3] = 0x7F;
  expect_rejected<shop::order>(two_gib, {error_code::too_large, "", 0});
  auto trailing = bytes;
  trailing.push_back(0);
  expect_rejected<shop::order>(trailing, {error_code::trailing_bytes, "", bytes.size()});
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    SCOPED_TRACE(n);
    auto r = decode<shop::order>(std::span<const std::uint8_t>(bytes.data(), n));
    ASSERT_FALSE(r);
    EXPECT_LE(r.error().offset, n);
  }
}

TEST(hostile_generated, one_hundred_thousand_levels_in_a_skipped_field_stop_at_the_depth_limit) {
  bson_builder body;
  body.u8(0x03).cstr("a").append(test::nested_documents(100000));
  const auto bytes = document_of(body);
  auto r = decode<bench::flat_bson>(std::span<const std::uint8_t>(bytes));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::too_deep) << r.error().to_string();
  EXPECT_LE(r.error().offset, bytes.size());
}

TEST(hostile_generated, duplicate_keys_follow_each_structs_policy) {
  auto body = order_body();
  body.u8(0x12).cstr("number").i64(43);
  const auto bytes = document_of(body);
  ASSERT_TRUE(decode_document(bytes));  // BSON allows duplicates; the order schema rejects them
  expect_rejected<shop::order>(bytes, {error_code::duplicate_field, "number", after_order_body});
}

TEST(hostile_generated, unknown_field_in_a_rejecting_struct_names_its_path) {
  auto item = document_of(bson_builder()
                              .u8(0x02)
                              .cstr("sku")
                              .str("A-1")
                              .u8(0x10)
                              .cstr("qty")
                              .i32(1)
                              .u8(0x13)
                              .cstr("unitPrice")
                              .raw("0123456789abcdef")
                              .u8(0x0A)
                              .cstr("surprise"));
  bson_builder items;
  items.u8(0x03).cstr("0").append(item);
  auto body = order_body();
  body.u8(0x04).cstr("items").append(document_of(items));
  const auto bytes = document_of(body);
  // The items array at after_order_body + 7; element "0" at +4; its document at +3; "surprise"
  // after the item's length and its sku (13 bytes), qty (9) and unitPrice (27) elements.
  const std::size_t item_start = after_order_body + 7 + 4 + 3;
  const std::size_t surprise = item_start + 4 + (1 + 4 + 8) + (1 + 4 + 4) + (1 + 10 + 16);
  expect_rejected<shop::order>(bytes, {error_code::unknown_field, "items.0.surprise", surprise});
}

// Issue 11 item 14: input too short to hold a document said "document runs past the end of its
// document"; it says what it got, as the generic decoder does.
TEST(hostile_generated, input_shorter_than_a_document_says_so) {
  const std::vector<std::uint8_t> bytes = {0x05, 0x00, 0x00, 0x00, 0x00};
  for (std::size_t n = 0; n < 5; ++n) {
    SCOPED_TRACE(n);
    auto r = decode<shop::order>(std::span<const std::uint8_t>(bytes.data(), n));
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, error_code::truncated);
    EXPECT_EQ(r.error().offset, 0u);
    EXPECT_EQ(r.error().message,
              "input has " + std::to_string(n) + " bytes, a document needs at least 5");
    auto generic = decode_document(std::span<const std::uint8_t>(bytes.data(), n));
    ASSERT_FALSE(generic);
    EXPECT_EQ(generic.error().message, r.error().message);
  }
}

// Issue 11 item 12: encode into a caller buffer that is too small leaves the writer as it was
// (codec.hpp's contract), so the same writer still takes a document that fits.
TEST(hostile_generated, failed_encode_into_a_caller_buffer_leaves_the_writer_as_it_was) {
  shop::order o{};
  o.number = 42;
  const auto needed = encoded_size(o);
  ASSERT_TRUE(needed);
  std::vector<std::uint8_t> storage(*needed + 3);
  writer w{std::span<std::uint8_t>(storage)};
  w.put_u8(0xAB);
  w.put_u8(0xCD);
  w.put_u8(0xEF);
  w.put_u8(0x01);  // now one byte short of the order
  auto r = encode(o, w);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::buffer_too_small);
  EXPECT_EQ(w.size(), 4u);
  EXPECT_FALSE(w.overflowed());
  w.truncate(3);
  ASSERT_TRUE(encode(o, w)) << "the writer stayed unusable after the failed encode";
  EXPECT_FALSE(w.overflowed());
  EXPECT_EQ(w.size(), storage.size());
}

}  // namespace
}  // namespace bsongen
