// decode_document and validate_document on malformed input: every rejection names the error
// code, the element path and the byte offset, and the validate-only path agrees.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bson_builder.hpp"
#include "bsongen/detail/unpooled_decode.hpp"
#include "bsongen/document.hpp"
#include "bsongen/pool.hpp"

namespace bsongen {
namespace {

using test::bson_builder;
using test::document_of;

// Decodes `bytes`, expecting failure with this code, path and offset; checks validate agrees.
void expect_error(const std::vector<std::uint8_t>& bytes, error_code code, const std::string& path,
                  std::size_t offset, const decode_options& options = {}) {
  result<document> r = decode_document(bytes, options);
  ASSERT_FALSE(r) << "decoded although malformed";
  EXPECT_EQ(r.error().code, code) << r.error().to_string();
  EXPECT_EQ(r.error().path, path) << r.error().to_string();
  EXPECT_EQ(r.error().offset, offset) << r.error().to_string();
  EXPECT_FALSE(r.error().message.empty());
  result<void> v = validate_document(bytes, options);
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, code);
  EXPECT_EQ(v.error().path, path);
  EXPECT_EQ(v.error().offset, offset);
}

TEST(decode, accepts_a_well_formed_document_and_points_into_one_copy) {
  const auto bytes =
      document_of(bson_builder().u8(0x02).cstr("s").str("hello").u8(0x10).cstr("n").i32(7));
  result<document> r = decode_document(bytes);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ((*r)["s"].as_string(), "hello");
  EXPECT_EQ((*r)["n"].as_int32(), 7);
  EXPECT_EQ(r->source_size(), bytes.size());
  // The string lives in the document's copy, not in the caller's buffer.
  const char* text = (*r)["s"].as_string().data();
  EXPECT_FALSE(text >= reinterpret_cast<const char*>(bytes.data()) &&
               text < reinterpret_cast<const char*>(bytes.data() + bytes.size()));
  EXPECT_TRUE(validate_document(bytes));
}

TEST(decode, input_shorter_than_a_length_field_is_truncated) {
  expect_error({5, 0, 0}, error_code::truncated, "", 0);
}

TEST(decode, declared_length_beyond_the_input_is_truncated) {
  std::vector<std::uint8_t> bytes = document_of(bson_builder().u8(0x10).cstr("n").i32(1));
  bytes.pop_back();
  expect_error(bytes, error_code::truncated, "", bytes.size());
}

TEST(decode, declared_length_below_five_is_invalid) {
  expect_error({4, 0, 0, 0, 0}, error_code::invalid_length, "", 0);
  expect_error({0xFF, 0xFF, 0xFF, 0xFF, 0}, error_code::invalid_length, "", 0);
}

TEST(decode, bytes_after_the_document_are_trailing) {
  std::vector<std::uint8_t> bytes = document_of(bson_builder());
  bytes.push_back(0);
  expect_error(bytes, error_code::trailing_bytes, "", 5);
}

TEST(decode, document_without_its_terminator) {
  expect_error({5, 0, 0, 0, 1}, error_code::missing_terminator, "", 4);
}

TEST(decode, element_running_past_its_document_is_truncated) {
  // int64 "x" with only 4 value bytes before the terminator.
  const auto bytes = document_of(bson_builder().u8(0x12).cstr("x").i32(1));
  expect_error(bytes, error_code::truncated, "x", 4);
}

TEST(decode, unknown_type_byte_is_reported_with_offset) {
  const auto bytes =
      document_of(bson_builder().u8(0x10).cstr("a").i32(1).u8(0x14).cstr("b").i32(0));
  expect_error(bytes, error_code::invalid_type, "", 11);
  const auto high = document_of(bson_builder().u8(0x80).cstr("b").i32(0));
  expect_error(high, error_code::invalid_type, "", 4);
}

TEST(decode, boolean_other_than_zero_or_one) {
  const auto bytes = document_of(bson_builder().u8(0x08).cstr("flag").u8(2));
  expect_error(bytes, error_code::invalid_bool, "flag", 4);
}

TEST(decode, key_without_nul_before_the_end) {
  // The key "abc" runs into the document's terminator.
  const std::vector<std::uint8_t> bytes{9, 0, 0, 0, 0x0A, 'a', 'b', 'c', 0};
  expect_error(bytes, error_code::missing_terminator, "", 4);
}

TEST(decode, string_errors_name_the_element) {
  // Length 0 (a BSON string holds at least its NUL).
  expect_error(document_of(bson_builder().u8(0x02).cstr("s").i32(0).u8(0)),
               error_code::invalid_length, "s", 4);
  // Length past the document.
  expect_error(document_of(bson_builder().u8(0x02).cstr("s").i32(50).cstr("x")),
               error_code::invalid_length, "s", 4);
  // Last byte not NUL.
  expect_error(document_of(bson_builder().u8(0x02).cstr("s").i32(2).raw("xy")),
               error_code::missing_terminator, "s", 4);
}

TEST(decode, invalid_utf8_in_strings_and_keys) {
  for (const std::string& bad :
       {std::string("\xC3"), std::string("\xC0\xAF"), std::string("\xED\xA0\x80"),
        std::string("\xF4\x90\x80\x80"), std::string("ok\xFFok"),
        std::string("a long ascii prefix then \x80")}) {
    SCOPED_TRACE(bad);
    expect_error(document_of(bson_builder().u8(0x02).cstr("s").str(bad)), error_code::invalid_utf8,
                 "s", 4);
  }
  expect_error(document_of(bson_builder().u8(0x0A).cstr("k\xFF")), error_code::invalid_utf8,
               "k\xFF", 4);
  // Valid multi-byte text passes: 2, 3 and 4-byte sequences.
  EXPECT_TRUE(decode_document(
      document_of(bson_builder().u8(0x02).cstr("\xC3\xA9").str("\xE2\x98\x86\xF0\x9F\x98\x80"))));
}

TEST(decode, utf8_validation_can_be_turned_off) {
  decode_options lenient;
  lenient.validate_utf8 = false;
  const auto bytes = document_of(bson_builder().u8(0x02).cstr("s").str("\xFF\xFE"));
  result<document> r = decode_document(bytes, lenient);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ((*r)["s"].as_string(), "\xFF\xFE");
}

TEST(decode, nested_errors_carry_the_full_path_and_the_offset_in_the_outer_input) {
  // {a: {b: [1, 2, {c: <bool 7>}]}}
  bson_builder inner;
  inner.u8(0x08).cstr("c").u8(7);
  bson_builder arr;
  arr.u8(0x10).cstr("0").i32(1).u8(0x10).cstr("1").i32(2).u8(0x03).cstr("2").doc(inner);
  bson_builder b;
  b.u8(0x04).cstr("b").doc(arr);
  const auto bytes = document_of(bson_builder().u8(0x03).cstr("a").doc(b));
  // Offsets: outer 4 + "a" element header 3 = 7 (doc a) + 4 = 11 (element b) + 3 + 4 = 18 (array
  // body) + 7 + 7 = 32 (element "2") + 3 + 4 = 39 (element c).
  expect_error(bytes, error_code::invalid_bool, "a.b.2.c", 39);
}

TEST(decode, embedded_length_errors) {
  // Below 5.
  expect_error(document_of(bson_builder().u8(0x03).cstr("d").i32(4).u8(0)),
               error_code::invalid_length, "d", 4);
  // Past the parent.
  expect_error(document_of(bson_builder().u8(0x03).cstr("d").i32(64).u8(0)),
               error_code::invalid_length, "d", 4);
  // Not NUL-terminated.
  expect_error(document_of(bson_builder().u8(0x03).cstr("d").i32(5).u8(1)),
               error_code::missing_terminator, "d", 4);
}

TEST(decode, binary_old_subtype_inner_length_must_agree) {
  const auto good = document_of(bson_builder().u8(0x05).cstr("b").i32(6).u8(0x02).i32(2).raw("xy"));
  result<document> r = decode_document(good);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ((*r)["b"].as_binary().bytes.size(), 2u);
  const auto bad = document_of(bson_builder().u8(0x05).cstr("b").i32(6).u8(0x02).i32(3).raw("xy"));
  expect_error(bad, error_code::invalid_length, "b", 4);
  const auto negative = document_of(bson_builder().u8(0x05).cstr("b").i32(-1).u8(0x00));
  expect_error(negative, error_code::invalid_length, "b", 4);
}

TEST(decode, code_with_scope_framing) {
  bson_builder scope;
  scope.u8(0x10).cstr("x").i32(1);
  bson_builder good_body;
  good_body.str("f()").doc(scope);
  const auto good =
      document_of(bson_builder()
                      .u8(0x0F)
                      .cstr("c")
                      .i32(static_cast<std::int32_t>(good_body.size() + 4))
                      .raw(std::string(good_body.bytes().begin(), good_body.bytes().end())));
  result<document> r = decode_document(good);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ((*r)["c"].as_javascript_with_scope_code(), "f()");
  EXPECT_EQ((*r)["c"].as_javascript_with_scope_scope()["x"].as_int32(), 1);

  // Total length one too large: the scope no longer fills the rest exactly.
  const auto bad =
      document_of(bson_builder()
                      .u8(0x0F)
                      .cstr("c")
                      .i32(static_cast<std::int32_t>(good_body.size() + 5))
                      .raw(std::string(good_body.bytes().begin(), good_body.bytes().end()))
                      .u8(0));
  expect_error(bad, error_code::invalid_length, "c", 4);
  // Below the minimum of 14.
  expect_error(document_of(bson_builder().u8(0x0F).cstr("c").i32(13).raw(std::string(9, '\0'))),
               error_code::invalid_length, "c", 4);
  // Errors inside the scope name the element.
  bson_builder bad_scope;
  bad_scope.u8(0x08).cstr("x").u8(9);
  bson_builder bad_scope_body;
  bad_scope_body.str("f()").doc(bad_scope);
  const auto inner = document_of(
      bson_builder()
          .u8(0x0F)
          .cstr("c")
          .i32(static_cast<std::int32_t>(bad_scope_body.size() + 4))
          .raw(std::string(bad_scope_body.bytes().begin(), bad_scope_body.bytes().end())));
  expect_error(inner, error_code::invalid_bool, "c.x", 4 + 3 + 4 + 8 + 4);
}

// {a: {a: {a: ... {} ...}}} with `levels` embedded documents below the outermost.
std::vector<std::uint8_t> nested(std::size_t levels) { return test::nested_documents(levels + 1); }

std::string path_of(std::size_t segments) {
  std::string path;
  for (std::size_t i = 0; i < segments; ++i) path += i == 0 ? "a" : ".a";
  return path;
}

TEST(decode, depth_limit_allows_exactly_max_depth_levels) {
  EXPECT_TRUE(decode_document(nested(99)));  // 100 documents on the path, the outermost included
  expect_error(nested(100), error_code::too_deep, path_of(100), 4 + 7 * 99);
}

TEST(decode, hundred_thousand_levels_fail_cleanly_without_deep_recursion) {
  const std::vector<std::uint8_t> bytes = nested(100'000);
  result<document> r = decode_document(bytes);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::too_deep);
  EXPECT_EQ(r.error().offset, 4u + 7 * 99);
  EXPECT_FALSE(validate_document(bytes));
}

TEST(decode, depth_limit_is_configurable_up_to_max_depth_limit) {
  decode_options deep;
  deep.max_depth = 200'000;                                             // acts as max_depth_limit
  const std::vector<std::uint8_t> bytes = nested(max_depth_limit - 1);  // max_depth_limit levels
  result<document> r = decode_document(bytes, deep);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(validate_document(bytes, deep));
  // One more level is refused whatever the option says, at the element that opens it.
  expect_error(nested(max_depth_limit), error_code::too_deep, path_of(max_depth_limit),
               4 + 7 * (max_depth_limit - 1), deep);
  decode_options shallow;
  shallow.max_depth = 3;
  expect_error(nested(3), error_code::too_deep, "a.a.a", 4 + 7 * 2, shallow);
  // 0 accepts nothing: the outermost document is already one level.
  decode_options none;
  none.max_depth = 0;
  expect_error(document_of(bson_builder()), error_code::too_deep, "", 0, none);
  // The decoded chain is as deep as the input; copies and comparisons walk it.
  std::size_t depth = 0;
  value_ref v = (*r)["a"];
  while (v) {
    ++depth;
    v = v["a"];
  }
  EXPECT_EQ(depth, max_depth_limit - 1);
  const document copy = *r;
  EXPECT_EQ(copy, *r);
}

TEST(decode, size_limit_is_checked_before_anything_else) {
  decode_options small;
  small.max_size = 16;
  const auto bytes = document_of(bson_builder().u8(0x02).cstr("s").str("more than sixteen bytes"));
  expect_error(bytes, error_code::too_large, "", 0, small);
  // A declared length of 2 GiB - 1 over a 5-byte input is refused as too large before any
  // allocation, whatever the input holds.
  expect_error({0xFF, 0xFF, 0xFF, 0x7F, 0}, error_code::too_large, "", 0);
}

TEST(decode, unpooled_baseline_decodes_the_same_document) {
  // detail::decode_document_unpooled: the benchmark's generic_nopool row.
  decode_options nopool;
  nopool.memory = std::pmr::new_delete_resource();
  bson_builder inner;
  inner.u8(0x02).cstr("t").str("text").u8(0x07).cstr("id").raw(std::string(12, '\x01'));
  const auto bytes =
      document_of(bson_builder().u8(0x03).cstr("d").doc(inner).u8(0x12).cstr("n").i64(5));
  result<document> a = detail::decode_document_unpooled(bytes, nopool);
  result<document> b = decode_document(bytes);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(*a, *b);
  EXPECT_EQ(encode_document(*a).to_vector(), bytes);
}

TEST(decode, arena_blocks_can_come_from_the_runtime_pool) {
  pool_resource pool;
  decode_options options;
  options.memory = &pool;
  bson_builder inner;
  inner.u8(0x02).cstr("t").str("text");
  const auto bytes =
      document_of(bson_builder().u8(0x03).cstr("d").doc(inner).u8(0x10).cstr("n").i32(5));
  {
    result<document> d = decode_document(bytes, options);
    ASSERT_TRUE(d) << d.error().to_string();
    EXPECT_GT(pool.bytes_from_upstream(), 0u);
    EXPECT_EQ((*d)["d"]["t"].as_string(), "text");
    EXPECT_EQ(encode_document(*d).to_vector(), bytes);
  }
  pool.release();
  EXPECT_EQ(pool.bytes_from_upstream(), 0u);
}

}  // namespace
}  // namespace bsongen
