// encode_document: canonical bytes, exact sizes, caller buffers, and write/read/write round trips.

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "bson_builder.hpp"
#include "bsongen/document.hpp"
#include "bsongen/document_view.hpp"

namespace bsongen {
namespace {

document every_type() {
  return document{
      {"double", -0.0},
      {"string", "\xC3\xA9t\xC3\xA9"},
      {"doc", document{{"x", 1}}},
      {"array", array{true, nullptr, "s"}},
      {"bin", binary{{1, 2, 3, 4}, binary_subtype::generic}},
      {"bin_old", binary{{7}, binary_subtype::binary_old}},
      {"undef", undefined{}},
      {"oid", object_id::from_bytes(reinterpret_cast<const std::uint8_t*>("0123456789ab"))},
      {"bool", false},
      {"date", datetime(std::chrono::milliseconds(1234))},
      {"null", nullptr},
      {"regex", regex{"^x", "sim"}},
      {"ptr", db_pointer{"a.b", object_id{}}},
      {"js", javascript{"1+1"}},
      {"sym", symbol{"sym"}},
      {"cws", javascript_with_scope{"y", to_raw_document(document{{"y", 2}})}},
      {"i32", -7},
      {"ts", timestamp{100, 5}},
      {"i64", std::int64_t{-8}},
      {"dec", decimal128(0x3040000000000000ULL, 0)},
      {"min", min_key{}},
      {"max", max_key{}},
  };
}

TEST(encode, small_document_has_the_exact_spec_bytes) {
  const document d{{"a", 1}, {"b", "x"}, {"c", array{true}}};
  const test::bson_builder expected_array = test::bson_builder().u8(0x08).cstr("0").u8(1);
  test::bson_builder body;
  body.u8(0x10).cstr("a").i32(1).u8(0x02).cstr("b").str("x").u8(0x04).cstr("c").doc(expected_array);
  EXPECT_EQ(encode_document(d).to_vector(), test::document_of(body));
  EXPECT_EQ(encoded_size(d), test::document_of(body).size());
}

TEST(encode, empty_document_is_five_bytes) {
  EXPECT_EQ(encode_document(document{}).to_vector(), (std::vector<std::uint8_t>{5, 0, 0, 0, 0}));
}

TEST(encode, every_type_round_trips_write_read_write) {
  const document original = every_type();
  const byte_buffer first = encode_document(original);
  EXPECT_EQ(first.size(), encoded_size(original));
  result<document> decoded = decode_document(first);
  ASSERT_TRUE(decoded) << decoded.error().to_string();
  EXPECT_EQ(*decoded, original);
  const byte_buffer second = encode_document(*decoded);
  EXPECT_EQ(second, first);
  EXPECT_EQ((*decoded)["regex"].as_regex().options, "ims");
  EXPECT_EQ((*decoded)["bin_old"].as_binary().bytes.size(), 1u);
  EXPECT_EQ((*decoded)["string"].as_string(), "\xC3\xA9t\xC3\xA9");
}

TEST(encode, arrays_get_canonical_keys_whatever_they_were_read_with) {
  // [1, 2] stored under keys "7" and "x".
  test::bson_builder arr;
  arr.u8(0x10).cstr("7").i32(1).u8(0x10).cstr("x").i32(2);
  const auto bytes = test::document_of(test::bson_builder().u8(0x04).cstr("a").doc(arr));
  result<document> d = decode_document(bytes);
  ASSERT_TRUE(d);
  test::bson_builder canonical_arr;
  canonical_arr.u8(0x10).cstr("0").i32(1).u8(0x10).cstr("1").i32(2);
  EXPECT_EQ(encode_document(*d).to_vector(),
            test::document_of(test::bson_builder().u8(0x04).cstr("a").doc(canonical_arr)));
}

TEST(encode, long_arrays_number_their_keys) {
  array a;
  for (int i = 0; i < 1234; ++i) a.push_back(i);
  const document d{{"a", std::move(a)}};
  const byte_buffer bytes = encode_document(d);
  result<document> back = decode_document(bytes);
  ASSERT_TRUE(back);
  EXPECT_EQ((*back)["a"][1233].as_int32(), 1233);
  std::string last_key;
  for (view_element e : (*document_view::from_bytes(bytes))["a"].as_array()) last_key = e.key();
  EXPECT_EQ(last_key, "1233");
}

TEST(encode, appends_to_a_reused_writer) {
  const document d{{"k", "v"}};
  writer w;
  ASSERT_TRUE(encode_document(d, w));
  ASSERT_TRUE(encode_document(d, w));
  EXPECT_EQ(w.size(), 2 * encoded_size(d));
  w.clear();
  ASSERT_TRUE(encode_document(d, w));
  EXPECT_EQ(byte_buffer(w.bytes()), encode_document(d));
}

TEST(encode, caller_buffer_that_fits_and_one_that_does_not) {
  const document d{{"k", "value"}};
  std::array<std::uint8_t, 64> big{};
  writer fits(big);
  ASSERT_TRUE(encode_document(d, fits));
  EXPECT_EQ(byte_buffer(fits.bytes()), encode_document(d));
  std::array<std::uint8_t, 8> small{};
  writer too_small(small);
  result<void> r = encode_document(d, too_small);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::buffer_too_small);
}

TEST(encode, built_documents_can_be_mutated_and_re_encoded) {
  document d{{"a", 1}};
  for (int i = 0; i < 100; ++i) {
    std::string key = std::to_string(i);
    key.insert(0, 1, 'k');
    d.append(key, std::string(static_cast<std::size_t>(i), 'x'));
  }
  d.set("a", document{{"nested", true}});
  result<document> back = decode_document(encode_document(d));
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, d);
  EXPECT_EQ((*back)["k99"].as_string().size(), 99u);
  EXPECT_TRUE((*back)["a"]["nested"].as_bool());
}

TEST(encode, deep_documents_encode_without_recursion) {
  // 200,000 levels built by moving each level into the next (no copies): far deeper than the C++
  // stack could recurse. Encoding walks it with an explicit stack.
  value inner = document{};
  for (int i = 0; i < 200'000; ++i) inner = document{{"a", std::move(inner)}};
  const document deep{{"a", std::move(inner)}};
  const byte_buffer bytes = encode_document(deep);
  EXPECT_EQ(bytes.size(), encoded_size(deep));
  EXPECT_EQ(bytes.size(), 200'001u * 7 + 5 + 5 - 5 + 200'001u * 1);
  // No decode option reaches that deep (max_depth_limit), but the bytes are well formed up to it.
  decode_options options;
  options.max_depth = 300'000;
  result<void> r = validate_document(bytes, options);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::too_deep);
  EXPECT_EQ(r.error().offset, 4 + 7 * (max_depth_limit - 1));
}

// Issue 11 item 5: what decoding would reject is refused before a byte is written, with the path.
TEST(encode_hostile, text_decoding_would_reject_is_refused_with_its_path) {
  auto refused = [](const document& doc, error_code code, std::string_view path) {
    writer out;
    out.put_u8(7);  // earlier contents stay as they were
    auto r = encode_document(doc, out);
    ASSERT_FALSE(r) << "encoded";
    EXPECT_EQ(r.error().code, code) << r.error().to_string();
    EXPECT_EQ(r.error().path, path) << r.error().to_string();
    EXPECT_EQ(out.size(), 1U);
  };
  refused(document{{"a", document{{"b", array{"ok", std::string_view("\xFF")}}}}},
          error_code::invalid_utf8, "a.b.1");
  refused(document{{"x", 1}, {std::string_view("k\xC3"), 2}}, error_code::invalid_utf8, "k\xC3");
  refused(document{{"r", regex{"a", "\xFF"}}}, error_code::invalid_utf8, "r");
  refused(document{{"c", javascript{"\xE2\x82"}}}, error_code::invalid_utf8, "c");
  // Valid UTF-8 beyond ASCII, and a NUL inside a string (length-prefixed), are fine.
  writer out;
  EXPECT_TRUE(
      encode_document(document{{"caf\xC3\xA9", std::string_view("a\0\xF0\x9F\x98\x80", 6)}}, out));
}

// Encode skips its UTF-8 check for elements the decoder (validate_utf8) or the building API
// already found valid (node_flags). What neither checked, and what copies, moves and set() carry
// along, must still be refused, each with its element's path.
void expect_refused(const document& doc, std::string_view path) {
  writer out;
  auto r = encode_document(doc, out);
  ASSERT_FALSE(r) << "encoded";
  EXPECT_EQ(r.error().code, error_code::invalid_utf8) << r.error().to_string();
  EXPECT_EQ(r.error().path, path) << r.error().to_string();
  EXPECT_EQ(out.size(), 0U);
}

document decode_unchecked(const std::vector<std::uint8_t>& bytes) {
  decode_options options;
  options.validate_utf8 = false;
  result<document> doc = decode_document(bytes, options);
  EXPECT_TRUE(doc) << doc.error().to_string();
  return doc ? std::move(*doc) : document{};
}

TEST(encode_hostile, text_decoded_without_utf8_validation_is_refused_with_its_path) {
  using test::bson_builder;
  using test::document_of;
  // A string, nested in an array in a document, after valid elements.
  const auto bad_string =
      document_of(bson_builder().u8(0x10).cstr("n").i32(1).u8(0x03).cstr("a").doc(
          bson_builder().u8(0x04).cstr("b").doc(
              bson_builder().u8(0x02).cstr("0").str("ok").u8(0x02).cstr("1").str("\xC3("))));
  expect_refused(decode_unchecked(bad_string), "a.b.1");
  // A key (an ASCII string value), a non-ASCII key that is not UTF-8.
  expect_refused(decode_unchecked(document_of(bson_builder().u8(0x02).cstr("k\xFF").str("v"))),
                 "k\xFF");
  // A regex's options, javascript code, a symbol, a dbPointer's namespace.
  expect_refused(
      decode_unchecked(document_of(bson_builder().u8(0x0B).cstr("r").cstr("a").cstr("\xFF"))), "r");
  expect_refused(decode_unchecked(document_of(bson_builder().u8(0x0D).cstr("c").str("\xE2\x82"))),
                 "c");
  expect_refused(decode_unchecked(document_of(bson_builder().u8(0x0E).cstr("s").str("\x80"))), "s");
  expect_refused(decode_unchecked(document_of(
                     bson_builder().u8(0x0C).cstr("p").str("\xFE").raw("0123456789ab"))),
                 "p");
  // Code with scope: the code, and a string inside the scope.
  const bson_builder scope = bson_builder().u8(0x02).cstr("x").str("\xC0\xAF");
  bson_builder cws_body;
  cws_body.str("ok").doc(scope);
  const auto cws = document_of(bson_builder()
                                   .u8(0x0F)
                                   .cstr("w")
                                   .i32(static_cast<std::int32_t>(4 + cws_body.size()))
                                   .append(cws_body.bytes()));
  expect_refused(decode_unchecked(cws), "w.x");
  // Valid non-ASCII text decoded without validation still encodes, byte for byte.
  const auto fine = document_of(bson_builder().u8(0x02).cstr("caf\xC3\xA9").str("\xE2\x82\xAC"));
  writer out;
  ASSERT_TRUE(encode_document(decode_unchecked(fine), out));
  EXPECT_EQ(std::vector<std::uint8_t>(out.bytes().begin(), out.bytes().end()), fine);
}

TEST(encode_hostile, copies_moves_and_set_keep_what_encode_knows_of_utf8_truthful) {
  const std::string_view bad("\xFF\xFE");
  // Copies and moves of a document that holds invalid text (built, then decoded unchecked).
  document built{{"ok", "yes"}, {"bad", bad}};
  expect_refused(built, "bad");
  expect_refused(document(built), "bad");
  document moved(std::move(built));
  expect_refused(moved, "bad");
  document assigned;
  assigned = moved;
  expect_refused(assigned, "bad");
  // An element copied into another document or array keeps its verdict.
  document copied_into;
  copied_into.append("x", 1).append("y", moved["bad"]);
  expect_refused(copied_into, "y");
  array items;
  items.push_back("fine").push_back(value(moved["bad"]));
  expect_refused(document{{"items", std::move(items)}}, "items.1");
  expect_refused(document{{"v", value(value(bad))}}, "v");
  // set(): a valid element (decoded, so vouched for) replaced by invalid text is refused; an
  // invalid one replaced by valid text encodes; an invalid key stays invalid whatever its value.
  document decoded =
      decode_document(encode_document(document{{"a", "x"}, {"b", 2}}).span()).value();
  decoded.set("a", bad);
  expect_refused(decoded, "a");
  decoded.set("a", "fixed");
  writer out;
  EXPECT_TRUE(encode_document(decoded, out));
  document bad_key;
  bad_key.append(std::string_view("k\xC3"), bad);
  bad_key.set(std::string_view("k\xC3"), "valid");
  expect_refused(bad_key, "k\xC3");
  // A nested document taken by value (moved in) and then copied keeps its elements' verdicts.
  document inner{{"deep", regex{"\xFF", "i"}}};
  document outer{{"in", std::move(inner)}};
  expect_refused(document(outer), "in.deep");
  // A decoded document whose text was never checked, copied and nested, is still refused.
  const document unchecked = decode_unchecked(
      test::document_of(test::bson_builder().u8(0x02).cstr("s").str("\xED\xA0\x80")));
  expect_refused(document{{"wrap", unchecked}}, "wrap.s");
  expect_refused(document{{"arr", array{value(unchecked["s"])}}}, "arr.0");
}

}  // namespace
}  // namespace bsongen
