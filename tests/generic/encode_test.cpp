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

}  // namespace
}  // namespace bsongen
