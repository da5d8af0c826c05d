// document_view: validated once, then read in place without copying or allocating. This binary
// links the heap counter (tests/support/heap_counter.hpp), so a test can show that validating and
// reading a view allocates nothing.

#include "bsongen/document_view.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bson_builder.hpp"
#include "bsongen/document.hpp"
#include "heap_counter.hpp"

namespace bsongen {
namespace {

const document& sample() {
  static const document d{
      {"name", "view"},
      {"n", 42},
      {"big", std::int64_t{1} << 40},
      {"pi", 3.25},
      {"yes", true},
      {"nothing", nullptr},
      {"id", object_id::from_bytes(reinterpret_cast<const std::uint8_t*>("0123456789ab"))},
      {"when", datetime(std::chrono::milliseconds(1'700'000'000'000))},
      {"ts", timestamp{7, 9}},
      {"dec", decimal128(0x3040000000000000ULL, 1234)},
      {"bin", binary{{1, 2, 3}, binary_subtype::uuid_old}},
      {"old", binary{{9, 8}, binary_subtype::binary_old}},
      {"re", regex{"^a.*", "xi"}},
      {"ptr", db_pointer{"db.coll", object_id::from_bytes(
                                        reinterpret_cast<const std::uint8_t*>("abcdefghijkl"))}},
      {"js", javascript{"f()"}},
      {"sym", symbol{"s"}},
      {"cws", javascript_with_scope{"g(x)", to_raw_document(document{{"x", 1}})}},
      {"list", array{1, "two", document{{"three", 3}}}},
      {"sub", document{{"inner", "deep"}}},
      {"min", min_key{}},
      {"max", max_key{}},
      {"undef", undefined{}},
  };
  return d;
}

TEST(document_view, reads_every_type_in_place) {
  const byte_buffer bytes = encode_document(sample());
  result<document_view> r = document_view::from_bytes(bytes);
  ASSERT_TRUE(r) << r.error().to_string();
  const document_view& v = *r;
  EXPECT_EQ(v.count(), sample().size());
  EXPECT_EQ(v["name"].as_string(), "view");
  EXPECT_EQ(v["n"].as_int32(), 42);
  EXPECT_EQ(v["big"].as_int64(), std::int64_t{1} << 40);
  EXPECT_EQ(v["pi"].as_double(), 3.25);
  EXPECT_TRUE(v["yes"].as_bool());
  EXPECT_TRUE(v["nothing"].is(bson_type::null));
  EXPECT_EQ(v["id"].as_object_id(), sample()["id"].as_object_id());
  EXPECT_EQ(v["when"].as_datetime(), sample()["when"].as_datetime());
  EXPECT_EQ(v["ts"].as_timestamp(), (timestamp{7, 9}));
  EXPECT_EQ(v["dec"].as_decimal128(), decimal128(0x3040000000000000ULL, 1234));
  EXPECT_EQ(v["bin"].as_binary().subtype, binary_subtype::uuid_old);
  EXPECT_EQ(v["bin"].as_binary().bytes.size(), 3u);
  EXPECT_EQ(v["old"].as_binary().bytes.size(), 2u);  // without the inner length
  EXPECT_EQ(v["old"].as_binary().bytes[0], 9);
  EXPECT_EQ(v["re"].as_regex().pattern, "^a.*");
  EXPECT_EQ(v["re"].as_regex().options, "ix");  // the encoder sorted them
  EXPECT_EQ(v["ptr"].as_db_pointer().ns, "db.coll");
  EXPECT_EQ(v["js"].as_javascript(), "f()");
  EXPECT_EQ(v["sym"].as_symbol(), "s");
  EXPECT_EQ(v["cws"].as_javascript_with_scope_code(), "g(x)");
  EXPECT_EQ(v["cws"].as_javascript_with_scope_scope()["x"].as_int32(), 1);
  EXPECT_EQ(v["list"].as_array().count(), 3u);
  EXPECT_EQ(v["list"].as_array()[1].as_string(), "two");
  EXPECT_EQ(v["list"].as_array()[2].as_document()["three"].as_int32(), 3);
  EXPECT_EQ(v["sub"].as_document()["inner"].as_string(), "deep");
  EXPECT_TRUE(v["min"].is(bson_type::min_key));
  EXPECT_TRUE(v["max"].is(bson_type::max_key));
  EXPECT_TRUE(v["undef"].is(bson_type::undefined));
}

TEST(document_view, strings_point_into_the_callers_bytes) {
  const byte_buffer bytes = encode_document(sample());
  const document_view v = *document_view::from_bytes(bytes);
  const char* text = v["sub"].as_document()["inner"].as_string().data();
  EXPECT_GE(reinterpret_cast<const std::uint8_t*>(text), bytes.data());
  EXPECT_LT(reinterpret_cast<const std::uint8_t*>(text), bytes.data() + bytes.size());
}

TEST(document_view, validation_and_reads_allocate_nothing) {
  const byte_buffer bytes = encode_document(sample());
  (void)document_view::from_bytes(bytes);  // warms the thread's validation scratch
  const std::size_t before = test::heap::allocations();
  result<document_view> r = document_view::from_bytes(bytes);
  ASSERT_TRUE(r);
  std::size_t seen = 0;
  for (view_element e : *r) seen += e.key().size();
  const std::int32_t n = (*r)["n"].as_int32();
  const std::string_view inner = (*r)["sub"].as_document()["inner"].as_string();
  EXPECT_EQ(test::heap::allocations(), before);
  EXPECT_GT(seen, 0u);
  EXPECT_EQ(n, 42);
  EXPECT_EQ(inner, "deep");
}

TEST(document_view, iteration_keeps_order_and_duplicates) {
  test::bson_builder body;
  body.u8(0x10).cstr("k").i32(1).u8(0x10).cstr("k").i32(2).u8(0x0A).cstr("z");
  const auto bytes = test::document_of(body);
  const document_view v = *document_view::from_bytes(bytes);
  std::vector<std::string> keys;
  for (view_element e : v) keys.emplace_back(e.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"k", "k", "z"}));
  EXPECT_EQ(v["k"].as_int32(), 2);  // lookups return the last element with the key
  EXPECT_EQ(v.find("k").as_int32(), 2);
}

TEST(document_view, missing_and_mismatched_reads_say_why) {
  const byte_buffer bytes = encode_document(sample());
  const document_view v = *document_view::from_bytes(bytes);
  EXPECT_FALSE(v["absent"]);
  EXPECT_FALSE(v.contains("absent"));
  try {
    (void)v["n"].as_string();
    FAIL();
  } catch (const exception& e) {
    EXPECT_EQ(e.error().code, error_code::type_mismatch);
  }
  try {
    (void)v["absent"].as_int32();
    FAIL();
  } catch (const exception& e) {
    EXPECT_EQ(e.error().code, error_code::missing_field);
  }
  EXPECT_FALSE(v["list"].as_array()[7]);
}

TEST(document_view, rejects_what_decode_rejects) {
  test::bson_builder body;
  body.u8(0x08).cstr("b").u8(3);
  result<document_view> r = document_view::from_bytes(test::document_of(body));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::invalid_bool);
  EXPECT_EQ(r.error().path, "b");
  EXPECT_EQ(r.error().offset, 4u);
}

TEST(document_view, default_view_is_the_empty_document) {
  const document_view v;
  EXPECT_TRUE(v.empty());
  EXPECT_EQ(v.begin(), v.end());
  EXPECT_EQ(v.bytes().size(), 5u);
}

}  // namespace
}  // namespace bsongen
