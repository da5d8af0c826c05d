// Hostile input against the generic decoder (decode_document), validation alone
// (validate_document) and the zero-copy view (document_view::from_bytes): lying lengths, missing
// terminators, absurd nesting, invalid UTF-8, trailing bytes. Every case asserts the error code,
// the element path and the byte offset, and that all three entry points agree on them.

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "bson_builder.hpp"
#include "bsongen/detail/wire.hpp"
#include "bsongen/document.hpp"
#include "bsongen/document_view.hpp"

namespace bsongen {
namespace {

using test::bson_builder;
using test::document_of;
using test::nested_documents;

struct expected_error {
  error_code code;
  std::string path;
  std::size_t offset;
};

void expect_same_error(const error& actual, const expected_error& expected,
                       const char* entry_point) {
  SCOPED_TRACE(entry_point);
  EXPECT_EQ(name(actual.code), name(expected.code)) << actual.to_string();
  EXPECT_EQ(actual.path, expected.path) << actual.to_string();
  EXPECT_EQ(actual.offset, expected.offset) << actual.to_string();
  EXPECT_FALSE(actual.message.empty());
}

// The three validating entry points must reject `bytes` with exactly this error.
void expect_rejected(const std::vector<std::uint8_t>& bytes, const expected_error& expected,
                     const decode_options& options = {}) {
  auto decoded = decode_document(bytes, options);
  ASSERT_FALSE(decoded.has_value()) << "decode_document accepted hostile input";
  expect_same_error(decoded.error(), expected, "decode_document");

  auto validated = validate_document(bytes, options);
  ASSERT_FALSE(validated.has_value()) << "validate_document accepted hostile input";
  expect_same_error(validated.error(), expected, "validate_document");

  auto view = document_view::from_bytes(bytes, options);
  ASSERT_FALSE(view.has_value()) << "document_view::from_bytes accepted hostile input";
  expect_same_error(view.error(), expected, "document_view::from_bytes");
}

void expect_accepted(const std::vector<std::uint8_t>& bytes, const decode_options& options = {}) {
  auto decoded = decode_document(bytes, options);
  ASSERT_TRUE(decoded.has_value()) << decoded.error().to_string();
  auto validated = validate_document(bytes, options);
  ASSERT_TRUE(validated.has_value()) << validated.error().to_string();
  auto view = document_view::from_bytes(bytes, options);
  ASSERT_TRUE(view.has_value()) << view.error().to_string();
}

// {"a": 1} as int32: 0C000000 10 6100 01000000 00.
std::vector<std::uint8_t> small_document() {
  return document_of(bson_builder().u8(0x10).cstr("a").i32(1));
}

std::vector<std::uint8_t> with_declared_length(std::vector<std::uint8_t> bytes,
                                               std::int32_t length) {
  const auto u = static_cast<std::uint32_t>(length);
  for (int i = 0; i < 4; ++i)
    bytes[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(u >> (8 * i));
  return bytes;
}

// ---- outermost framing ----

TEST(hostile_decode, input_shorter_than_any_document_is_truncated_at_zero) {
  expect_rejected({}, {error_code::truncated, "", 0});
  expect_rejected({5, 0, 0, 0}, {error_code::truncated, "", 0});
}

TEST(hostile_decode, declared_length_larger_than_the_buffer_is_truncated_at_the_end_of_input) {
  const auto bytes = with_declared_length(small_document(), 13);
  expect_rejected(bytes, {error_code::truncated, "", bytes.size()});
}

TEST(hostile_decode, negative_and_tiny_declared_lengths_are_invalid) {
  for (std::int32_t length : {-1, std::numeric_limits<std::int32_t>::min(), 0, 4}) {
    SCOPED_TRACE(length);
    expect_rejected(with_declared_length(small_document(), length),
                    {error_code::invalid_length, "", 0});
  }
}

TEST(hostile_decode, two_gib_declared_length_is_too_large_before_anything_else) {
  const auto bytes =
      with_declared_length(small_document(), std::numeric_limits<std::int32_t>::max());
  expect_rejected(bytes, {error_code::too_large, "", 0});
  // Without the size limit, the same lie is caught against the real input size.
  decode_options unlimited;
  unlimited.max_size = std::numeric_limits<std::size_t>::max();
  expect_rejected(bytes, {error_code::truncated, "", bytes.size()}, unlimited);
}

TEST(hostile_decode, document_without_its_closing_nul_is_rejected_at_the_last_byte) {
  auto bytes = small_document();
  bytes.back() = 0x01;
  expect_rejected(bytes, {error_code::missing_terminator, "", bytes.size() - 1});
}

TEST(hostile_decode, trailing_bytes_after_the_document_are_rejected_where_they_start) {
  auto bytes = small_document();
  const std::size_t end = bytes.size();
  bytes.push_back(0x00);
  expect_rejected(bytes, {error_code::trailing_bytes, "", end});
  bytes.insert(bytes.end(), {0x05, 0, 0, 0, 0});  // a whole second document is trailing too
  expect_rejected(bytes, {error_code::trailing_bytes, "", end});
}

TEST(hostile_decode, nul_type_byte_before_the_declared_end_is_an_invalid_length) {
  // 0A000000 00 0000 0000 00: the first element's type byte is the terminator, 5 bytes early.
  expect_rejected({0x0A, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {error_code::invalid_length, "", 4});
}

TEST(hostile_decode, the_wire_rules_frame_the_outermost_document_as_the_generic_decoder_does) {
  // open_document at depth 0 is how generated decoders start: same code, message and offset.
  const auto good = small_document();
  auto trailing = good;
  trailing.push_back(0);
  auto unterminated = good;
  unterminated.back() = 1;
  const std::vector<std::vector<std::uint8_t>> inputs = {
      {}, {5, 0, 0}, with_declared_length(good, 4), with_declared_length(good, 13), unterminated};
  for (const auto& bytes : inputs) {
    SCOPED_TRACE(bytes.size());
    auto generic = validate_document(bytes);
    ASSERT_FALSE(generic);
    detail::decode_state st;
    st.origin = bytes.data();
    const std::uint8_t* body = nullptr;
    const std::uint8_t* doc_end = nullptr;
    ASSERT_FALSE(
        detail::open_document(st, bytes.data(), bytes.data() + bytes.size(), body, doc_end));
    EXPECT_EQ(st.err.code, generic.error().code) << st.err.to_string();
    EXPECT_EQ(st.err.offset, generic.error().offset) << st.err.to_string();
    EXPECT_EQ(st.err.message, generic.error().message);
  }
  // Empty input: a clear message, not "runs past the end of its document".
  EXPECT_EQ(validate_document(std::vector<std::uint8_t>{}).error().message,
            "input has 0 bytes, a document needs at least 5");
}

TEST(hostile_decode, skip_value_points_at_the_element_as_the_generic_decoder_does) {
  // {"v": {"s": string of length 50 in 4 bytes}}: the generic decoder reports "v.s" at 11.
  const auto inner = document_of(bson_builder().u8(0x02).cstr("s").i32(50).raw("abc"));
  const auto bytes = document_of(bson_builder().u8(0x03).cstr("v").append(inner));
  auto generic = validate_document(bytes);
  ASSERT_FALSE(generic);
  EXPECT_EQ(generic.error().offset, 11u);
  detail::decode_state st;
  st.origin = bytes.data();
  st.depth = 1;
  const std::uint8_t* end = bytes.data() + bytes.size() - 1;
  ASSERT_EQ(detail::skip_value(st, 0x03, bytes.data() + 7, end, bytes.data() + 4), nullptr);
  // (The codes still differ: truncated here, invalid_length there; the generated side owns that.)
  EXPECT_EQ(st.err.offset, 11u);  // the nested element "s"
  EXPECT_EQ(st.err.path, "s");
  // An error about the value itself points at the element passed in.
  const auto bad_length = document_of(bson_builder().u8(0x03).cstr("v").i32(3).u8(0));
  detail::decode_state st2;
  st2.origin = bad_length.data();
  st2.depth = 1;
  ASSERT_EQ(detail::skip_value(st2, 0x03, bad_length.data() + 7,
                               bad_length.data() + bad_length.size() - 1, bad_length.data() + 4),
            nullptr);
  EXPECT_EQ(st2.err.offset, 4u);
  EXPECT_EQ(validate_document(bad_length).error().offset, 4u);
}

// ---- embedded documents ----

TEST(hostile_decode, embedded_length_past_its_parent_is_rejected_at_the_element) {
  for (std::int32_t length : {std::numeric_limits<std::int32_t>::max(), 6, 0x10000}) {
    SCOPED_TRACE(length);
    const auto bytes = document_of(bson_builder().u8(0x03).cstr("a").i32(length).u8(0));
    expect_rejected(bytes, {error_code::invalid_length, "a", 4});
  }
}

TEST(hostile_decode, negative_and_tiny_embedded_lengths_are_rejected) {
  for (std::int32_t length : {-1, std::numeric_limits<std::int32_t>::min(), 0, 4}) {
    SCOPED_TRACE(length);
    const auto bytes = document_of(bson_builder().u8(0x04).cstr("arr").i32(length).u8(0));
    expect_rejected(bytes, {error_code::invalid_length, "arr", 4});
  }
}

TEST(hostile_decode, embedded_length_shorter_than_its_elements_misses_its_terminator) {
  // {"a": {"b": 1}} with the inner length claiming 5: byte 4 of the inner document is not NUL.
  const auto bytes =
      document_of(bson_builder().u8(0x03).cstr("a").i32(5).u8(0x10).cstr("b").i32(1).u8(0));
  expect_rejected(bytes, {error_code::missing_terminator, "a", 4});
}

TEST(hostile_decode, element_running_past_an_embedded_end_reports_the_nested_path) {
  // {"d": {"x": int64 with only 3 bytes before the inner terminator}}.
  const auto inner = document_of(bson_builder().u8(0x12).cstr("x").u8s({1, 2, 3}));
  const auto bytes = document_of(bson_builder().u8(0x03).cstr("d").append(inner));
  // Outer element at 4; the inner document at 4+1+2 = 7; its element at 7+4 = 11.
  expect_rejected(bytes, {error_code::truncated, "d.x", 11});
}

// ---- keys ----

TEST(hostile_decode, key_without_terminator_is_rejected_at_its_element) {
  // 09000000 10 616263 00: the only NUL is the document's own terminator.
  expect_rejected({0x09, 0, 0, 0, 0x10, 'a', 'b', 'c', 0}, {error_code::missing_terminator, "", 4});
  const auto inner = std::vector<std::uint8_t>{0x09, 0, 0, 0, 0x10, 'x', 'y', 'z', 0};
  const auto bytes = document_of(bson_builder().u8(0x03).cstr("d").append(inner));
  expect_rejected(bytes, {error_code::missing_terminator, "d", 11});
}

TEST(hostile_decode, unknown_type_bytes_are_rejected) {
  for (std::uint8_t type :
       {std::uint8_t{0x14}, std::uint8_t{0x20}, std::uint8_t{0x80}, std::uint8_t{0xFE}}) {
    SCOPED_TRACE(static_cast<int>(type));
    const auto bytes = document_of(bson_builder().u8(0x0A).cstr("ok").u8(type).cstr("k"));
    expect_rejected(bytes, {error_code::invalid_type, "", 8});
  }
}

// ---- strings ----

TEST(hostile_decode, string_length_zero_is_invalid) {
  const auto bytes = document_of(bson_builder().u8(0x02).cstr("s").i32(0));
  expect_rejected(bytes, {error_code::invalid_length, "s", 4});
}

TEST(hostile_decode, negative_and_overflowing_string_lengths_are_invalid) {
  for (std::int32_t length : {-1, std::numeric_limits<std::int32_t>::min(),
                              std::numeric_limits<std::int32_t>::max(), 3}) {
    SCOPED_TRACE(length);
    const auto bytes = document_of(bson_builder().u8(0x02).cstr("s").i32(length).cstr("x"));
    expect_rejected(bytes, {error_code::invalid_length, "s", 4});
  }
}

TEST(hostile_decode, string_without_its_nul_is_rejected) {
  // Length 2 covers "xy": its last byte must be the NUL.
  const auto bytes = document_of(bson_builder().u8(0x02).cstr("s").i32(2).raw("xy"));
  expect_rejected(bytes, {error_code::missing_terminator, "s", 4});
  // The same for JavaScript code and symbols, which share the string layout.
  for (std::uint8_t type : {std::uint8_t{0x0D}, std::uint8_t{0x0E}}) {
    const auto other = document_of(bson_builder().u8(type).cstr("s").i32(2).raw("xy"));
    expect_rejected(other, {error_code::missing_terminator, "s", 4});
  }
}

TEST(hostile_decode, embedded_nul_inside_a_string_is_valid_bson) {
  const auto bytes = document_of(bson_builder().u8(0x02).cstr("s").i32(4).u8s({'a', 0, 'b', 0}));
  expect_accepted(bytes);
  auto d = decode_document(bytes);
  ASSERT_TRUE(d);
  EXPECT_EQ((*d)["s"].as_string(), std::string_view("a\0b", 3));
}

// ---- UTF-8 ----

TEST(hostile_decode, invalid_utf8_in_strings_is_rejected_and_accepted_when_not_validated) {
  const std::vector<std::vector<std::uint8_t>> invalid = {
      {0xC3, 0x28},              // a lead byte followed by ASCII
      {0xC0, 0xAF},              // overlong '/'
      {0xED, 0xA0, 0x80},        // UTF-16 surrogate U+D800
      {0xF4, 0x90, 0x80, 0x80},  // above U+10FFFF
      {0xE2, 0x82},              // truncated sequence at the end
      {0xFF},
  };
  decode_options lenient;
  lenient.validate_utf8 = false;
  for (const auto& text : invalid) {
    bson_builder body;
    body.u8(0x02).cstr("s").i32(static_cast<std::int32_t>(text.size() + 1)).append(text).u8(0);
    const auto bytes = document_of(body);
    expect_rejected(bytes, {error_code::invalid_utf8, "s", 4});
    expect_accepted(bytes, lenient);
  }
}

TEST(hostile_decode, invalid_utf8_in_a_key_is_rejected_with_the_key_as_read) {
  const auto bytes =
      document_of(bson_builder().u8(0x10).cstr("ok").i32(1).u8(0x0A).u8s({'k', 0xFF, 0}));
  // The path segment is the key's raw bytes: that is the only name the element has.
  expect_rejected(bytes, {error_code::invalid_utf8, "k\xFF", 12});
}

TEST(hostile_decode, invalid_utf8_in_regex_and_nested_strings_names_the_element) {
  const auto regex =
      document_of(bson_builder().u8(0x0B).cstr("r").u8s({'a', 0xC0, 0xAF, 0}).cstr("i"));
  expect_rejected(regex, {error_code::invalid_utf8, "r", 4});
  const auto inner = document_of(bson_builder().u8(0x02).cstr("0").i32(2).u8s({0x80, 0}));
  const auto array = document_of(bson_builder().u8(0x04).cstr("list").append(inner));
  expect_rejected(array, {error_code::invalid_utf8, "list.0", 14});
}

// ---- other variable-length types ----

TEST(hostile_decode, binary_lengths_that_lie_are_rejected) {
  for (std::int32_t length : {-1, std::numeric_limits<std::int32_t>::min(),
                              std::numeric_limits<std::int32_t>::max(), 4}) {
    SCOPED_TRACE(length);
    const auto bytes =
        document_of(bson_builder().u8(0x05).cstr("b").i32(length).u8(0x00).raw("xyz"));
    expect_rejected(bytes, {error_code::invalid_length, "b", 4});
  }
  // Subtype 0x02 repeats the length inside; 8 outer bytes must carry an inner length of 4.
  const auto old =
      document_of(bson_builder().u8(0x05).cstr("b").i32(8).u8(0x02).i32(5).raw("abcd"));
  expect_rejected(old, {error_code::invalid_length, "b", 4});
  const auto short_old = document_of(bson_builder().u8(0x05).cstr("b").i32(3).u8(0x02).raw("abc"));
  expect_rejected(short_old, {error_code::invalid_length, "b", 4});
}

TEST(hostile_decode, binary_header_cut_short_is_truncated) {
  const auto bytes = document_of(bson_builder().u8(0x05).cstr("b").u8s({1, 0, 0}));
  expect_rejected(bytes, {error_code::truncated, "b", 4});
}

TEST(hostile_decode, regex_without_both_nuls_is_rejected) {
  // Pattern "ab" then options "i" with no NUL before the document's terminator.
  const auto bytes = document_of(bson_builder().u8(0x0B).cstr("r").cstr("ab").raw("i"));
  expect_rejected(bytes, {error_code::missing_terminator, "r", 4});
}

TEST(hostile_decode, code_with_scope_lengths_that_disagree_are_rejected) {
  const auto scope = document_of(bson_builder().u8(0x10).cstr("x").i32(1));  // 12 bytes
  // Honest: 4 + (4 + 2) + 12 = 22.
  auto build = [&](std::int32_t total, std::int32_t code_length) {
    bson_builder body;
    body.u8(0x0F).cstr("c").i32(total).i32(code_length).cstr("f").append(scope);
    return document_of(body);
  };
  expect_accepted(build(22, 2));
  for (std::int32_t total : {13, 21, 23, -1, std::numeric_limits<std::int32_t>::max()}) {
    SCOPED_TRACE(total);
    expect_rejected(build(total, 2), {error_code::invalid_length, "c", 4});
  }
  // A code string that claims to run over the scope.
  expect_rejected(build(22, 14), {error_code::invalid_length, "c", 4});
  expect_rejected(build(22, 0), {error_code::invalid_length, "c", 4});
}

TEST(hostile_decode, errors_inside_a_code_with_scope_scope_name_the_scope_path) {
  const auto scope = document_of(bson_builder().u8(0x08).cstr("flag").u8(7));  // bool 7
  bson_builder body;
  body.u8(0x0F)
      .cstr("c")
      .i32(static_cast<std::int32_t>(4 + 6 + scope.size()))
      .i32(2)
      .cstr("f")
      .append(scope);
  // Element "c" at 4; its value at 7; the scope at 7+4+6 = 17; "flag" at 21.
  expect_rejected(document_of(body), {error_code::invalid_bool, "c.flag", 21});
}

TEST(hostile_decode, db_pointer_cut_short_is_truncated) {
  const auto bytes =
      document_of(bson_builder().u8(0x0C).cstr("p").str("db.c").u8s({1, 2, 3, 4, 5}));
  expect_rejected(bytes, {error_code::truncated, "p", 4});
}

TEST(hostile_decode, boolean_other_than_zero_or_one_is_rejected) {
  const auto bytes = document_of(bson_builder().u8(0x08).cstr("b").u8(2));
  expect_rejected(bytes, {error_code::invalid_bool, "b", 4});
}

TEST(hostile_decode, fixed_size_values_cut_short_are_truncated) {
  const std::vector<std::pair<std::uint8_t, std::size_t>> fixed = {
      {0x01, 8}, {0x07, 12}, {0x09, 8}, {0x10, 4}, {0x11, 8}, {0x12, 8}, {0x13, 16}};
  for (auto [type, size] : fixed) {
    SCOPED_TRACE(static_cast<int>(type));
    bson_builder body;
    body.u8(type).cstr("v");
    for (std::size_t i = 0; i + 1 < size; ++i) body.u8(0x11);
    expect_rejected(document_of(body), {error_code::truncated, "v", 4});
  }
}

// ---- nesting ----

std::string repeated_path(std::size_t segments) {
  std::string path;
  for (std::size_t i = 0; i < segments; ++i) path += i == 0 ? "a" : ".a";
  return path;
}

TEST(hostile_decode, one_hundred_thousand_levels_stop_at_the_depth_limit) {
  const auto bytes = nested_documents(100000);
  // The element that would open document 101 sits in document 100, which starts at 7 * 99.
  expect_rejected(bytes, {error_code::too_deep, repeated_path(100), 7 * 99 + 4});
}

TEST(hostile_decode, no_option_raises_the_depth_limit_beyond_max_depth_limit) {
  decode_options deep;
  deep.max_depth = 100000;  // acts as max_depth_limit
  const auto at_limit = nested_documents(max_depth_limit);
  expect_accepted(at_limit, deep);

  auto d = decode_document(at_limit, deep);
  ASSERT_TRUE(d);
  std::size_t levels = 1;
  for (document_ref level = *d; !level.empty(); ++levels) level = level["a"].as_document();
  EXPECT_EQ(levels, max_depth_limit);

  auto view = document_view::from_bytes(at_limit, deep);
  ASSERT_TRUE(view);
  levels = 1;
  for (document_view level = *view; !level.empty(); ++levels) level = level["a"].as_document();
  EXPECT_EQ(levels, max_depth_limit);

  // 100,000 levels stop where the cap stops them, without recursion.
  const auto bytes = nested_documents(100000);
  expect_rejected(
      bytes, {error_code::too_deep, repeated_path(max_depth_limit), 7 * (max_depth_limit - 1) + 4},
      deep);
  deep.max_depth = 999;
  expect_rejected(bytes, {error_code::too_deep, repeated_path(999), 7 * 998 + 4}, deep);
  deep.max_depth = 0;
  expect_rejected(bytes, {error_code::too_deep, "", 0}, deep);
}

TEST(hostile_decode, depth_counts_code_with_scope_scopes) {
  const auto scope = document_of(bson_builder().u8(0x0A).cstr("n"));
  bson_builder body;
  body.u8(0x0F)
      .cstr("c")
      .i32(static_cast<std::int32_t>(4 + 6 + scope.size()))
      .i32(2)
      .cstr("f")
      .append(scope);
  decode_options flat;
  flat.max_depth = 1;
  expect_rejected(document_of(body), {error_code::too_deep, "c", 4}, flat);
  flat.max_depth = 2;
  expect_accepted(document_of(body), flat);
}

// ---- duplicates ----

TEST(hostile_decode, duplicate_keys_are_kept_in_order_and_re_encode_unchanged) {
  const auto bytes =
      document_of(bson_builder().u8(0x10).cstr("k").i32(1).u8(0x02).cstr("k").str("two"));
  expect_accepted(bytes);
  auto d = decode_document(bytes);
  ASSERT_TRUE(d);
  ASSERT_EQ(d->size(), 2u);
  EXPECT_EQ((*d)["k"].as_string(), "two");  // the last one wins
  EXPECT_EQ(d->at(0).as_int32(), 1);
  EXPECT_EQ(encode_document(*d).to_vector(), bytes);
  auto view = document_view::from_bytes(bytes);
  ASSERT_TRUE(view);
  EXPECT_EQ(view->count(), 2u);
  EXPECT_EQ((*view)["k"].as_string(), "two");
}

TEST(hostile_decode, duplicate_keys_rejected_on_request_at_the_second_occurrence) {
  decode_options reject;
  reject.duplicate_keys = duplicate_key_policy::reject;
  // {"a": 1, "k": 1, "b": null, "k": "two", "a": 2}: "k" repeats first, at element 4 + 7 + 7 + 3.
  const auto flat = document_of(bson_builder()
                                    .u8(0x10)
                                    .cstr("a")
                                    .i32(1)
                                    .u8(0x10)
                                    .cstr("k")
                                    .i32(1)
                                    .u8(0x0A)
                                    .cstr("b")
                                    .u8(0x02)
                                    .cstr("k")
                                    .str("two")
                                    .u8(0x10)
                                    .cstr("a")
                                    .i32(2));
  expect_accepted(flat);
  expect_rejected(flat, {error_code::duplicate_field, "k", 4 + 7 + 7 + 3}, reject);

  // Nested: {"d": {"x": 1, "y": [1, 1], "x": 2}}: arrays' keys are not checked ("0", "0" would
  // pass too); the path names the repeated key below its document.
  const auto inner = document_of(
      bson_builder()
          .u8(0x10)
          .cstr("x")
          .i32(1)
          .u8(0x04)
          .cstr("y")
          .append(document_of(bson_builder().u8(0x10).cstr("0").i32(1).u8(0x10).cstr("0").i32(1)))
          .u8(0x10)
          .cstr("x")
          .i32(2));
  const auto nested = document_of(bson_builder().u8(0x03).cstr("d").append(inner));
  // "d" at 4, its document at 7, "x" at 11, "y" at 18 (an array of 19 bytes), "x" again at 40.
  expect_rejected(nested, {error_code::duplicate_field, "d.x", 40}, reject);

  // The same key in different documents is no duplicate; nor are keys that only share a prefix.
  const auto distinct =
      document_of(bson_builder()
                      .u8(0x10)
                      .cstr("x")
                      .i32(1)
                      .u8(0x03)
                      .cstr("d")
                      .append(document_of(bson_builder().u8(0x10).cstr("x").i32(1)))
                      .u8(0x10)
                      .cstr("xx")
                      .i32(1)
                      .u8(0x10)
                      .cstr("")
                      .i32(1));
  expect_accepted(distinct, reject);
}

TEST(hostile_decode, one_repeat_among_a_hundred_thousand_keys_is_found) {
  // 100,000 keys in one document, all distinct but one repeat at the very end: the check must
  // find it (and not take quadratic time, which would show as a test timeout).
  decode_options reject;
  reject.duplicate_keys = duplicate_key_policy::reject;
  reject.max_size = 64 * 1024 * 1024;
  bson_builder body;
  std::size_t last_element = 0;
  for (int i = 0; i < 100'000; ++i) body.u8(0x0A).cstr("key" + std::to_string(i));
  last_element = 4 + body.size();
  body.u8(0x0A).cstr("key77");
  const auto bytes = document_of(body);
  expect_rejected(bytes, {error_code::duplicate_field, "key77", last_element}, reject);
}

// ---- regex options ----

TEST(hostile_decode, non_ascii_regex_options_survive_a_round_trip) {
  // Found by generic_decode_fuzz: options "t\xC3\xA9n" were sorted byte by byte on encode,
  // splitting the two-byte UTF-8 sequence, so the re-encoded document no longer decoded.
  const auto bytes = document_of(bson_builder().u8(0x0B).cstr("r").cstr("p").cstr("t\xC3\xA9n"));
  auto d = decode_document(bytes);
  ASSERT_TRUE(d) << d.error().to_string();
  const byte_buffer encoded = encode_document(*d);
  EXPECT_EQ(encoded.to_vector(), bytes);  // no canonical order beyond ASCII: kept as read
  auto again = decode_document(encoded);
  ASSERT_TRUE(again) << again.error().to_string();
  EXPECT_EQ(*again, *d);
}

TEST(hostile_decode, ascii_regex_options_are_sorted_and_compare_as_sets) {
  const auto unsorted = document_of(bson_builder().u8(0x0B).cstr("r").cstr("p").cstr("xmi"));
  const auto sorted = document_of(bson_builder().u8(0x0B).cstr("r").cstr("p").cstr("imx"));
  auto a = decode_document(unsorted);
  auto b = decode_document(sorted);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(encode_document(*a).to_vector(), sorted);
  EXPECT_EQ(*a, *b);
  // Two non-ASCII option strings with the same bytes in another grouping are different options.
  const auto one =
      document_of(bson_builder().u8(0x0B).cstr("r").cstr("p").cstr("\xC3\xA9\xC4\xAA"));
  const auto other =
      document_of(bson_builder().u8(0x0B).cstr("r").cstr("p").cstr("\xC3\xAA\xC4\xA9"));
  auto c = decode_document(one);
  auto e = decode_document(other);
  ASSERT_TRUE(c && e);
  EXPECT_NE(*c, *e);
}

// ---- every truncation of a valid document ----

TEST(hostile_decode, every_prefix_and_every_single_byte_corruption_of_a_rich_document_is_handled) {
  // One element of each variable-length kind, so each prefix cuts some length or terminator.
  const auto scope = document_of(bson_builder().u8(0x10).cstr("x").i32(1));
  const auto inner =
      document_of(bson_builder().u8(0x02).cstr("0").str("z").u8(0x08).cstr("1").u8(1));
  bson_builder body;
  body.u8(0x02)
      .cstr("s")
      .str("hello")
      .u8(0x03)
      .cstr("d")
      .append(inner)
      .u8(0x04)
      .cstr("a")
      .append(inner)
      .u8(0x05)
      .cstr("b")
      .i32(3)
      .u8(0x00)
      .raw("xyz")
      .u8(0x0B)
      .cstr("r")
      .cstr("^a")
      .cstr("im")
      .u8(0x0C)
      .cstr("p")
      .str("db.c")
      .raw("123456789012")
      .u8(0x0F)
      .cstr("c")
      .i32(static_cast<std::int32_t>(4 + 6 + scope.size()))
      .i32(2)
      .cstr("f")
      .append(scope)
      .u8(0x13)
      .cstr("m")
      .raw("0123456789abcdef");
  const auto bytes = document_of(body);
  expect_accepted(bytes);

  for (std::size_t n = 0; n < bytes.size(); ++n) {
    SCOPED_TRACE(n);
    const std::vector<std::uint8_t> prefix(bytes.begin(),
                                           bytes.begin() + static_cast<std::ptrdiff_t>(n));
    auto r = decode_document(prefix);
    ASSERT_FALSE(r);
    EXPECT_LE(r.error().offset, n);
  }
  // Flipping any byte either keeps a valid document or yields an error inside the input; the
  // three entry points agree either way.
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    for (std::uint8_t flip : {std::uint8_t{0x01}, std::uint8_t{0x80}, std::uint8_t{0xFF}}) {
      auto corrupt = bytes;
      corrupt[i] ^= flip;
      auto decoded = decode_document(corrupt);
      auto validated = validate_document(corrupt);
      ASSERT_EQ(decoded.has_value(), validated.has_value()) << "byte " << i;
      if (!decoded) {
        EXPECT_LT(decoded.error().offset, corrupt.size() + 1) << "byte " << i;
        EXPECT_EQ(decoded.error().code, validated.error().code) << "byte " << i;
        EXPECT_EQ(decoded.error().offset, validated.error().offset) << "byte " << i;
        EXPECT_EQ(decoded.error().path, validated.error().path) << "byte " << i;
      }
    }
  }
}

}  // namespace
}  // namespace bsongen
