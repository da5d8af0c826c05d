// The code generated from a scanned header (tests/scanner/data/scan_fixture/all_types.hpp, built
// through bsongen_generate(HEADERS)): the user's own structs encode to the bytes libbson writes for
// the same values and decode back, with the C++-side spellings the scanner recorded (unsigned and
// `long long` integers, nanosecond time points, unordered maps, enums stored as names).

#include <bson/bson.h>
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "codec_helpers.hpp"
#include "libbson_doc.hpp"
#include "scanned_all_types.bsongen.hpp"

namespace {

using bytes = std::vector<std::uint8_t>;

using bson_doc = bsongen::test::libbson_doc;

using bsongen::test::decode_error;
using bsongen::test::decode_ok;
using bsongen::test::encode_ok;

scan_fixture::options sample_options() {
  scan_fixture::options o;
  o.id = bsongen::object_id::generate(42);
  o.name = "ann";
  o.level = scan_fixture::priority::high;
  o.color = scan_fixture::blue;
  o.status = scan_fixture::state::shipped;
  o.history = {scan_fixture::state::pending, scan_fixture::state::shipped};
  o.cache = 99;
  return o;
}

TEST(scanned_codec, options_encode_like_libbson_in_declaration_order) {
  const scan_fixture::options o = sample_options();
  bson_doc expected;
  bson_oid_t oid;
  bson_oid_init_from_data(&oid, o.id.data());
  BSON_APPEND_OID(expected.doc, "_id", &oid);
  BSON_APPEND_UTF8(expected.doc, "name", "ann");
  // notes and short_key ("n") are empty and BSONGEN_OMIT_EMPTY; cache is BSONGEN_IGNORE.
  BSON_APPEND_INT32(expected.doc, "level", 9);
  BSON_APPEND_INT32(expected.doc, "color", 70000);
  BSON_APPEND_UTF8(expected.doc, "status", "SHIPPED");  // BSONGEN_BSON_NAME
  bson_t history;
  BSON_APPEND_ARRAY_BEGIN(expected.doc, "history", &history);
  BSON_APPEND_UTF8(&history, "0", "pending");
  BSON_APPEND_UTF8(&history, "1", "SHIPPED");
  bson_append_array_end(expected.doc, &history);
  EXPECT_EQ(encode_ok(o), expected.data());
}

TEST(scanned_codec, options_decode_and_enforce_required_fields) {
  const scan_fixture::options o = sample_options();
  const scan_fixture::options back = decode_ok<scan_fixture::options>(encode_ok(o));
  EXPECT_EQ(back.id, o.id);
  EXPECT_EQ(back.name, "ann");
  EXPECT_EQ(back.level, scan_fixture::priority::high);
  EXPECT_EQ(back.color, scan_fixture::blue);
  EXPECT_EQ(back.status, scan_fixture::state::shipped);
  EXPECT_EQ(back.history, o.history);
  EXPECT_EQ(back.cache, 0);  // ignored: never decoded

  bson_doc missing_name;
  BSON_APPEND_INT32(missing_name.doc, "level", 1);
  EXPECT_EQ(decode_error<scan_fixture::options>(missing_name.data()).code,
            bsongen::error_code::missing_field);

  bson_doc unknown_enumerator;
  BSON_APPEND_UTF8(unknown_enumerator.doc, "name", "ann");
  BSON_APPEND_UTF8(unknown_enumerator.doc, "status", "shipped");  // stored as SHIPPED
  EXPECT_EQ(decode_error<scan_fixture::options>(unknown_enumerator.data()).code,
            bsongen::error_code::invalid_value);
}

TEST(scanned_codec, unsigned_and_long_long_members_use_the_wider_bson_integer) {
  scan_fixture::scalars s;
  s.byte = 255;
  s.word = 65535;
  s.dword = 4'000'000'000U;
  s.wide_ll = -(1LL << 50);
  const scan_fixture::scalars back = decode_ok<scan_fixture::scalars>(encode_ok(s));
  EXPECT_EQ(back.byte, 255);
  EXPECT_EQ(back.word, 65535);
  EXPECT_EQ(back.dword, 4'000'000'000U);
  EXPECT_EQ(back.wide_ll, -(1LL << 50));

  bson_doc dword_as_int64;
  BSON_APPEND_INT64(dword_as_int64.doc, "dword", 4'000'000'000LL);
  EXPECT_EQ(decode_ok<scan_fixture::scalars>(dword_as_int64.data()).dword, 4'000'000'000U);

  // Values the member's C++ type cannot hold are errors, never wrapped.
  bson_doc word_too_big;
  BSON_APPEND_INT32(word_too_big.doc, "word", 70000);
  EXPECT_EQ(decode_error<scan_fixture::scalars>(word_too_big.data()).code,
            bsongen::error_code::inexact);
  bson_doc dword_negative;
  BSON_APPEND_INT64(dword_negative.doc, "dword", -1);
  EXPECT_EQ(decode_error<scan_fixture::scalars>(dword_negative.data()).code,
            bsongen::error_code::inexact);
}

TEST(scanned_codec, time_points_of_any_precision_are_milliseconds_on_the_wire) {
  scan_fixture::scalars s;
  s.when_ms = bsongen::datetime(std::chrono::milliseconds(1500));
  s.when_ns = std::chrono::system_clock::time_point(std::chrono::nanoseconds(2'500'999'999));
  s.when_s = std::chrono::time_point<std::chrono::system_clock, std::chrono::seconds>(
      std::chrono::seconds(-3));
  const bytes encoded = encode_ok(s);
  bson_t view;
  ASSERT_TRUE(bson_init_static(&view, encoded.data(), encoded.size()));
  bson_iter_t it;
  ASSERT_TRUE(bson_iter_init_find(&it, &view, "when_ms"));
  EXPECT_EQ(bson_iter_date_time(&it), 1500);
  ASSERT_TRUE(bson_iter_init_find(&it, &view, "when_ns"));
  EXPECT_EQ(bson_iter_date_time(&it), 2500);  // truncated to the millisecond
  ASSERT_TRUE(bson_iter_init_find(&it, &view, "when_s"));
  EXPECT_EQ(bson_iter_date_time(&it), -3000);

  const scan_fixture::scalars back = decode_ok<scan_fixture::scalars>(encoded);
  EXPECT_EQ(back.when_ns.time_since_epoch(), std::chrono::milliseconds(2500));
  EXPECT_EQ(back.when_s.time_since_epoch(), std::chrono::seconds(-3));
}

TEST(scanned_codec, runtime_types_and_bson_as_markers_round_trip) {
  scan_fixture::scalars s;
  s.text = "h\xc3\xa9llo";
  s.id = bsongen::object_id::generate(7);
  s.amount = bsongen::decimal128::from_int64(-42);
  s.blob = {{1, 2, 3}, bsongen::binary_subtype::user_defined};
  s.stamp = {123, 456};
  s.pattern = {"^a", "i"};
  s.code = "function() {}";
  s.uuid[15] = 0xAB;
  s.scoped.code = "x";
  const bytes encoded = encode_ok(s);
  bson_t view;
  ASSERT_TRUE(bson_init_static(&view, encoded.data(), encoded.size()));
  bson_iter_t it;
  ASSERT_TRUE(bson_iter_init_find(&it, &view, "code"));
  EXPECT_EQ(bson_iter_type(&it), BSON_TYPE_CODE);  // BSONGEN_AS(javascript)
  ASSERT_TRUE(bson_iter_init_find(&it, &view, "uuid"));
  bson_subtype_t subtype{};
  std::uint32_t length = 0;
  const std::uint8_t* data = nullptr;
  bson_iter_binary(&it, &subtype, &length, &data);
  EXPECT_EQ(subtype, BSON_SUBTYPE_UUID);  // BSONGEN_AS(uuid)
  EXPECT_EQ(length, 16U);

  const scan_fixture::scalars back = decode_ok<scan_fixture::scalars>(encoded);
  EXPECT_EQ(back.text, s.text);
  EXPECT_EQ(back.id, s.id);
  EXPECT_EQ(back.amount, s.amount);
  EXPECT_EQ(back.blob, s.blob);
  EXPECT_EQ(back.stamp, s.stamp);
  EXPECT_EQ(back.pattern, s.pattern);
  EXPECT_EQ(back.code, s.code);
  EXPECT_EQ(back.uuid, s.uuid);
  EXPECT_EQ(back.scoped, s.scoped);
  EXPECT_EQ(encode_ok(back), encoded);
}

TEST(scanned_codec, binary_vectors_round_trip_as_subtype_9) {
  scan_fixture::vectors v;
  v.embedding = {1.5F, -2.5F};
  v.quantized = {-7, 7};
  v.fixed = {1.0F, 2.0F, 3.0F};
  v.maybe_fixed = std::array<std::int8_t, 2>{4, 5};
  v.bits.push_back(true);
  v.pmr_bits.push_back(false);
  v.maybe_bits = bsongen::packed_bits(std::vector<std::uint8_t>{0xF0}, 4);
  v.many_bits.resize(2);
  v.small_numbers = {1, 2};
  const bytes encoded = encode_ok(v);
  bson_t view;
  ASSERT_TRUE(bson_init_static(&view, encoded.data(), encoded.size()));
  for (const char* key : {"embedding", "quantized", "fixed", "maybe_fixed", "bits", "pmr_bits"}) {
    bson_iter_t it;
    ASSERT_TRUE(bson_iter_init_find(&it, &view, key)) << key;
    bson_subtype_t subtype{};
    std::uint32_t length = 0;
    const std::uint8_t* data = nullptr;
    ASSERT_EQ(bson_iter_type(&it), BSON_TYPE_BINARY) << key;
    bson_iter_binary(&it, &subtype, &length, &data);
    EXPECT_EQ(static_cast<int>(subtype), 9) << key;
  }
  bson_iter_t it;
  ASSERT_TRUE(bson_iter_init_find(&it, &view, "small_numbers"));
  EXPECT_EQ(bson_iter_type(&it), BSON_TYPE_ARRAY);               // no marker: a BSON array
  EXPECT_FALSE(bson_iter_init_find(&it, &view, "on_resource"));  // omit_empty
  const scan_fixture::vectors back = decode_ok<scan_fixture::vectors>(encoded);
  EXPECT_EQ(back.embedding, v.embedding);
  EXPECT_EQ(back.fixed, v.fixed);
  EXPECT_EQ(back.maybe_fixed, v.maybe_fixed);
  EXPECT_EQ(back.bits, v.bits);
  EXPECT_EQ(back.maybe_bits, v.maybe_bits);
  EXPECT_EQ(encode_ok(back), encoded);
}

TEST(scanned_codec, containers_round_trip_and_reject_unknown_and_duplicate_keys) {
  scan_fixture::containers c;
  c.numbers = {1, -2, 3};
  c.labels = {"a", "b"};
  c.point = {1.5, 2.5, 3.5};
  c.nickname = "nick";
  c.shipping = scan_fixture::address{"main st", std::nullopt};
  c.history = {{"old st", "12345"}};
  c.counts = {{"x", 1LL << 40}};
  c.groups = {{"g", {"m1", "m2"}}};  // one key: unordered iteration order is then fixed
  c.by_name = {{"home", {"elm st", "999"}}};
  c.matrix = {{1, 2}, {65535}};
  c.rank = bsongen::nullable<std::int32_t>(nullptr);
  c.readings = {1.5, nullptr};
  c.price = bsongen::number<double>(12, bsongen::bson_type::int32);
  c.total = std::int64_t{1} << 40;
  c.ordered = {{"b", 1}, {"a", 2}, {"b", 3}};  // document order, the repeated key kept
  const bytes encoded = encode_ok(c);
  const scan_fixture::containers back = decode_ok<scan_fixture::containers>(encoded);
  EXPECT_EQ(back.ordered, c.ordered);
  EXPECT_EQ(back.numbers, c.numbers);
  EXPECT_EQ(back.labels, c.labels);
  EXPECT_EQ(back.point, c.point);
  EXPECT_EQ(back.nickname, c.nickname);
  ASSERT_TRUE(back.shipping.has_value());
  EXPECT_EQ(back.shipping->street, "main st");
  EXPECT_FALSE(back.shipping->postcode.has_value());
  ASSERT_EQ(back.history.size(), 1U);
  EXPECT_EQ(back.history[0].postcode, "12345");
  EXPECT_EQ(back.counts, c.counts);
  EXPECT_EQ(back.groups, c.groups);
  ASSERT_EQ(back.by_name.size(), 1U);
  EXPECT_EQ(back.by_name.at("home").street, "elm st");
  EXPECT_EQ(back.matrix, c.matrix);
  EXPECT_TRUE(back.alias.is_null());
  ASSERT_TRUE(back.rank.has_value());
  EXPECT_TRUE(back.rank->is_null());
  EXPECT_EQ(back.readings, c.readings);
  EXPECT_EQ(back.price.wire_type(), bsongen::bson_type::int32);
  EXPECT_EQ(back.total, std::int64_t{1} << 40);
  EXPECT_EQ(encode_ok(back), encoded);

  bson_doc unknown;
  BSON_APPEND_INT32(unknown.doc, "surprise", 1);  // BSONGEN_UNKNOWN_FIELDS(reject)
  EXPECT_EQ(decode_error<scan_fixture::containers>(unknown.data()).code,
            bsongen::error_code::unknown_field);
  bson_doc duplicate;
  BSON_APPEND_UTF8(duplicate.doc, "nickname", "a");
  BSON_APPEND_UTF8(duplicate.doc, "nickname", "b");  // BSONGEN_DUPLICATE_KEYS(reject)
  EXPECT_EQ(decode_error<scan_fixture::containers>(duplicate.data()).code,
            bsongen::error_code::duplicate_field);
}

TEST(scanned_codec, capture_member_keeps_unknown_elements_for_the_next_encode) {
  bson_doc input;
  BSON_APPEND_UTF8(input.doc, "kind", "k");
  BSON_APPEND_INT32(input.doc, "later", 5);
  BSON_APPEND_BOOL(input.doc, "flag", true);
  const scan_fixture::open_document back = decode_ok<scan_fixture::open_document>(input.data());
  EXPECT_EQ(back.kind, "k");
  EXPECT_FALSE(back.rest.empty());
  EXPECT_EQ(encode_ok(back), input.data());
}

TEST(scanned_codec, recursive_documents_nest) {
  scan_fixture::tree root{"root", {{"a", {{"a1", {}}}}, {"b", {}}}};
  const scan_fixture::tree back = decode_ok<scan_fixture::tree>(encode_ok(root));
  ASSERT_EQ(back.children.size(), 2U);
  ASSERT_EQ(back.children[0].children.size(), 1U);
  EXPECT_EQ(back.children[0].children[0].label, "a1");
  EXPECT_EQ(back.children[1].label, "b");
}

}  // namespace
