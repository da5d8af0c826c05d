// detail::decode_value: the generic decoder started at one element value (what `any` fields use).
// It must read a value exactly as decode_document reads it as an element, build into the caller's
// arena, and report errors in the caller's terms: offsets in the caller's input, paths below the
// value, depth counted from the levels already open.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bson_builder.hpp"
#include "bsongen/detail/arena.hpp"
#include "bsongen/detail/node.hpp"
#include "bsongen/detail/value_wire.hpp"
#include "bsongen/document.hpp"

namespace bsongen {
namespace {

using test::bson_builder;
using test::document_of;

struct value_result {
  const std::uint8_t* next = nullptr;
  detail::node node{};
  error err;
};

// Decodes the value of the element whose type byte is at bytes[element], inside the outermost
// document of `bytes`, with `depth` levels open around it.
value_result decode_at(const std::vector<std::uint8_t>& bytes, std::size_t element,
                       detail::arena& a, std::size_t depth = 1, std::size_t max_depth = 100,
                       bool utf8 = true) {
  detail::decode_state st;
  st.origin = bytes.data();
  st.depth = depth;
  st.max_depth = max_depth;
  st.validate_utf8 = utf8;
  const std::uint8_t* type_byte = bytes.data() + element;
  const std::uint8_t* p = type_byte + 1;
  while (*p != 0) ++p;  // the key
  ++p;
  value_result r;
  r.next = detail::decode_value(st, type_byte, *type_byte, p, bytes.data() + bytes.size() - 1, a,
                                r.node);
  r.err = st.err;
  return r;
}

detail::arena_ptr new_arena() {
  return detail::arena_ptr(detail::arena::create(detail::default_block_resource(), 256));
}

TEST(decode_value, every_element_of_a_rich_document_decodes_as_decode_document_reads_it) {
  const auto scope = document_of(bson_builder().u8(0x10).cstr("x").i32(1));
  const auto inner =
      document_of(bson_builder().u8(0x02).cstr("0").str("z").u8(0x08).cstr("1").u8(1));
  bson_builder body;
  body.u8(0x01).cstr("d").i64(0x400921FB54442D18).u8(0x02).cstr("s").str("hello");
  body.u8(0x03).cstr("doc").raw(std::string(inner.begin(), inner.end()));
  body.u8(0x04).cstr("arr").raw(std::string(inner.begin(), inner.end()));
  body.u8(0x05).cstr("b").i32(3).u8(0x00).raw("xyz");
  body.u8(0x05).cstr("old").i32(7).u8(0x02).i32(3).raw("abc");
  body.u8(0x06).cstr("u").u8(0x07).cstr("oid").raw("123456789012").u8(0x08).cstr("t").u8(1);
  body.u8(0x09).cstr("dt").i64(-5).u8(0x0A).cstr("n").u8(0x0B).cstr("r").cstr("^a").cstr("mi");
  body.u8(0x0C).cstr("p").str("db.c").raw("123456789012").u8(0x0D).cstr("js").str("f()");
  body.u8(0x0E).cstr("sym").str("y").u8(0x0F).cstr("c").i32(
      static_cast<std::int32_t>(4 + 6 + scope.size()));
  body.i32(2).cstr("f").raw(std::string(scope.begin(), scope.end()));
  body.u8(0x10).cstr("i").i32(-7).u8(0x11).cstr("ts").i64(42).u8(0x12).cstr("l").i64(1LL << 40);
  body.u8(0x13).cstr("m").raw("0123456789abcdef").u8(0x7F).cstr("max").u8(0xFF).cstr("min");
  const auto bytes = document_of(body);
  result<document> whole = decode_document(bytes);
  ASSERT_TRUE(whole) << whole.error().to_string();

  detail::arena_ptr a = new_arena();
  std::size_t element = 4;
  for (bsongen::element e : *whole) {
    SCOPED_TRACE(std::string(e.key()));
    ASSERT_EQ(bytes[element], static_cast<std::uint8_t>(e.type()));
    value_result r = decode_at(bytes, element, *a);
    ASSERT_NE(r.next, nullptr) << r.err.to_string();
    EXPECT_EQ(r.node.key, nullptr);
    EXPECT_EQ(r.node.key_size, 0u);
    EXPECT_TRUE(value_ref(&r.node) == e.value());
    element = static_cast<std::size_t>(r.next - bytes.data());
  }
  EXPECT_EQ(element, bytes.size() - 1);  // each `next` is the following element
}

TEST(decode_value, parts_live_in_the_callers_arena_not_in_the_input) {
  const auto bytes = document_of(bson_builder().u8(0x02).cstr("s").str("text"));
  detail::arena_ptr a = new_arena();
  value_result r = decode_at(bytes, 4, *a);
  ASSERT_NE(r.next, nullptr) << r.err.to_string();
  const char* text = r.node.as.text.data;
  EXPECT_FALSE(text >= reinterpret_cast<const char*>(bytes.data()) &&
               text < reinterpret_cast<const char*>(bytes.data() + bytes.size()));
  EXPECT_EQ(std::string_view(text, r.node.as.text.size), "text");
}

TEST(decode_value, errors_inside_the_value_carry_the_callers_offset_and_the_path_below_it) {
  // {"pad": 1, "v": {"x": {"flag": bool 7}}}: "v" at 13, its document at 16, "x" at 20, the inner
  // document at 23, "flag" at 27.
  const auto innermost = document_of(bson_builder().u8(0x08).cstr("flag").u8(7));
  const auto middle = document_of(
      bson_builder().u8(0x03).cstr("x").raw(std::string(innermost.begin(), innermost.end())));
  const auto bytes = document_of(bson_builder().u8(0x10).cstr("pad").i32(1).u8(0x03).cstr("v").raw(
      std::string(middle.begin(), middle.end())));
  detail::arena_ptr a = new_arena();
  value_result r = decode_at(bytes, 13, *a);
  ASSERT_EQ(r.next, nullptr);
  EXPECT_EQ(r.err.code, error_code::invalid_bool) << r.err.to_string();
  EXPECT_EQ(r.err.path, "x.flag");
  EXPECT_EQ(r.err.offset, 27u);
  // decode_document says the same with the value's key in front.
  result<document> whole = decode_document(bytes);
  ASSERT_FALSE(whole);
  EXPECT_EQ(whole.error().path, "v.x.flag");
  EXPECT_EQ(whole.error().offset, 27u);
}

TEST(decode_value, errors_about_the_value_itself_point_at_its_element_with_an_empty_path) {
  // "pad" int32 at 4 (9 bytes), then "s" at 13: a string whose length runs past the document.
  const auto bytes = document_of(
      bson_builder().u8(0x10).cstr("pad").i32(1).u8(0x02).cstr("s").i32(50).raw("ab").u8(0));
  detail::arena_ptr a = new_arena();
  value_result r = decode_at(bytes, 13, *a);
  ASSERT_EQ(r.next, nullptr);
  EXPECT_EQ(r.err.code, error_code::invalid_length) << r.err.to_string();
  EXPECT_EQ(r.err.path, "");
  EXPECT_EQ(r.err.offset, 13u);
  // Invalid UTF-8 in an honest string: the same element, and accepted when UTF-8 is not checked.
  const auto bad = document_of(
      bson_builder().u8(0x10).cstr("pad").i32(1).u8(0x02).cstr("s").i32(2).u8(0xFF).u8(0));
  r = decode_at(bad, 13, *a);
  ASSERT_EQ(r.next, nullptr);
  EXPECT_EQ(r.err.code, error_code::invalid_utf8);
  EXPECT_EQ(r.err.offset, 13u);
  r = decode_at(bad, 13, *a, 1, 100, false);
  EXPECT_NE(r.next, nullptr) << r.err.to_string();
  // A type byte BSON does not define.
  const auto unknown =
      document_of(bson_builder().u8(0x10).cstr("pad").i32(1).u8(0x42).cstr("s").i32(1));
  r = decode_at(unknown, 13, *a);
  ASSERT_EQ(r.next, nullptr);
  EXPECT_EQ(r.err.code, error_code::invalid_type);
  EXPECT_EQ(r.err.offset, 13u);
}

TEST(decode_value, depth_counts_the_levels_open_around_the_value) {
  // "v": {"a": {}}: the value's document is one level below its enclosing document, "a" two.
  const auto inner = document_of(bson_builder().u8(0x03).cstr("a").i32(5).u8(0));
  const auto bytes =
      document_of(bson_builder().u8(0x03).cstr("v").raw(std::string(inner.begin(), inner.end())));
  detail::arena_ptr a = new_arena();
  // Enclosing document at depth 1: the value's levels are 2 and 3.
  EXPECT_NE(decode_at(bytes, 4, *a, 1, 3).next, nullptr);
  value_result r = decode_at(bytes, 4, *a, 1, 2);
  ASSERT_EQ(r.next, nullptr);
  EXPECT_EQ(r.err.code, error_code::too_deep);
  EXPECT_EQ(r.err.path, "a");
  EXPECT_EQ(r.err.offset, 11u);  // the element "a" opens the level beyond the limit
  // Enclosing document at depth 2 (itself nested): the same value now needs 4 levels.
  r = decode_at(bytes, 4, *a, 2, 3);
  ASSERT_EQ(r.next, nullptr);
  EXPECT_EQ(r.err.code, error_code::too_deep);
  r = decode_at(bytes, 4, *a, 3, 3);
  ASSERT_EQ(r.next, nullptr);
  EXPECT_EQ(r.err.path, "");
  EXPECT_EQ(r.err.offset, 4u);  // the value's own document is already too deep
  // The same document decoded whole agrees with depth 1.
  decode_options two;
  two.max_depth = 2;
  EXPECT_FALSE(decode_document(bytes, two));
}

TEST(decode_value, duplicate_keys_follow_the_decode_states_policy) {
  // "v": {"k": 1, "k": 2}: "v" at 4, its document at 7, the second "k" at 18.
  const auto inner =
      document_of(bson_builder().u8(0x10).cstr("k").i32(1).u8(0x10).cstr("k").i32(2));
  const auto bytes =
      document_of(bson_builder().u8(0x03).cstr("v").raw(std::string(inner.begin(), inner.end())));
  detail::arena_ptr a = new_arena();
  detail::decode_state st;
  st.origin = bytes.data();
  st.depth = 1;
  detail::node n{};
  const std::uint8_t* end = bytes.data() + bytes.size() - 1;
  ASSERT_NE(detail::decode_value(st, bytes.data() + 4, 0x03, bytes.data() + 7, end, *a, n),
            nullptr);
  EXPECT_EQ(value_ref(&n)["k"].as_int32(), 2);
  st.duplicate_keys = duplicate_key_policy::reject;
  ASSERT_EQ(detail::decode_value(st, bytes.data() + 4, 0x03, bytes.data() + 7, end, *a, n),
            nullptr);
  EXPECT_EQ(st.err.code, error_code::duplicate_field);
  EXPECT_EQ(st.err.path, "k");
  EXPECT_EQ(st.err.offset, 18u);
}

}  // namespace
}  // namespace bsongen
