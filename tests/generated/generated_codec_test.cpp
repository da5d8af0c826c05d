// Generated codecs: round trips of every type and option, field order, unknown-field and
// duplicate policies, and the errors hostile or malformed input must produce.

#include <bson/bson.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "all_types.bsongen.hpp"
#include "bsongen/codec.hpp"
#include "bsongen/document.hpp"
#include "codec_helpers.hpp"
#include "deep_bson.bsongen.hpp"
#include "double_1.bsongen.hpp"
#include "orders.bsongen.hpp"

// Functions of a user's own with the names of bsongen's entry points, in the namespace of a
// generated struct, so argument-dependent lookup finds them for shop::address. bsongen's entry
// points must never call them (an unqualified call inside bsongen would pick these: the
// non-template is the better match, and one calling back into bsongen would recurse forever).
namespace shop {
int user_function_calls = 0;
bsongen::result<std::size_t> encoded_size(const address&) {
  ++user_function_calls;
  return std::size_t{1};
}
bsongen::result<void> encode(const address&, bsongen::writer&) {
  ++user_function_calls;
  return {};
}
bsongen::result<void> decode(std::span<const std::uint8_t>, address&,
                             const bsongen::decode_options& = {}) {
  ++user_function_calls;
  return {};
}
}  // namespace shop

namespace {

using bytes = std::vector<std::uint8_t>;

using bsongen::test::decode_error;
using bsongen::test::decode_ok;
using bsongen::test::encode_ok;
using bsongen::test::expect_round_trip;
using bsongen::test::to_bytes;

bytes to_bytes(const bson_t* b) {
  const std::uint8_t* p = bson_get_data(b);
  return {p, p + b->len};
}

gen_test::scalars sample_scalars() {
  gen_test::scalars s;
  s.d = -2.5;
  s.i32 = -7;
  s.i64 = 1LL << 40;
  s.b = true;
  s.s = "h\xc3\xa9llo";
  s.js = "function() {}";
  s.when = bsongen::datetime(std::chrono::milliseconds(-1234567));
  s.oid = bsongen::object_id::generate(99);
  s.dec = bsongen::decimal128::from_int64(-42);
  s.bin = {{1, 2, 3}, bsongen::binary_subtype::user_defined};
  s.id = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  s.ts = {123, 456};
  s.re = {"^a.*b$", "im"};
  s.cws.code = "x + y";
  s.c = gen_test::color::blue;
  s.sz = gen_test::size::large;
  return s;
}

TEST(generated_codec, scalars_round_trip) { expect_round_trip(sample_scalars()); }

TEST(generated_codec, scalars_match_libbson) {
  const gen_test::scalars s = sample_scalars();
  bson_t* b = bson_new();
  BSON_APPEND_DOUBLE(b, "d", s.d);
  BSON_APPEND_INT32(b, "i32", s.i32);
  BSON_APPEND_INT64(b, "i64", s.i64);
  BSON_APPEND_BOOL(b, "b", true);
  BSON_APPEND_UTF8(b, "s", s.s.c_str());
  BSON_APPEND_CODE(b, "js", s.js.c_str());
  BSON_APPEND_DATE_TIME(b, "when", -1234567);
  bson_oid_t oid;
  bson_oid_init_from_data(&oid, s.oid.data());
  BSON_APPEND_OID(b, "oid", &oid);
  bson_decimal128_t dec{s.dec.low_bits(), s.dec.high_bits()};
  BSON_APPEND_DECIMAL128(b, "dec", &dec);
  BSON_APPEND_BINARY(b, "bin", BSON_SUBTYPE_USER, s.bin.bytes.data(), 3);
  BSON_APPEND_BINARY(b, "id", BSON_SUBTYPE_UUID, s.id.data(), 16);
  BSON_APPEND_TIMESTAMP(b, "ts", 123, 456);
  BSON_APPEND_REGEX(b, "re", "^a.*b$", "im");
  BSON_APPEND_NULL(b, "nothing");
  BSON_APPEND_MINKEY(b, "lo");
  BSON_APPEND_MAXKEY(b, "hi");
  bson_t empty = BSON_INITIALIZER;
  BSON_APPEND_CODE_WITH_SCOPE(b, "cws", "x + y", &empty);
  BSON_APPEND_DOCUMENT(b, "raw", &empty);
  BSON_APPEND_INT32(b, "c", 40);
  BSON_APPEND_UTF8(b, "sz", "L");
  EXPECT_EQ(encode_ok(s), to_bytes(b));
  bson_destroy(b);
}

TEST(generated_codec, fixed_shape_matches_libbson_and_round_trips) {
  gen_test::fixed_shape f;
  f.id = bsongen::object_id::generate(5);
  f.corners = {gen_test::point{1.5, -2.0, 3}, gen_test::point{4.0, 5.0, -6}};
  f.c = gen_test::color::green;
  f.on = true;
  f.stamp = bsongen::datetime(std::chrono::milliseconds(77));
  f.u[3] = 9;
  EXPECT_EQ(bsongen::codec<gen_test::fixed_shape>::fixed_size, encode_ok(f).size());
  expect_round_trip(f);

  bson_t* b = bson_new();
  bson_oid_t oid;
  bson_oid_init_from_data(&oid, f.id.data());
  BSON_APPEND_OID(b, "_id", &oid);
  bson_t corners, p0, p1;
  BSON_APPEND_ARRAY_BEGIN(b, "corners", &corners);
  BSON_APPEND_DOCUMENT_BEGIN(&corners, "0", &p0);
  BSON_APPEND_DOUBLE(&p0, "x", 1.5);
  BSON_APPEND_DOUBLE(&p0, "y", -2.0);
  BSON_APPEND_INT32(&p0, "t", 3);
  bson_append_document_end(&corners, &p0);
  BSON_APPEND_DOCUMENT_BEGIN(&corners, "1", &p1);
  BSON_APPEND_DOUBLE(&p1, "x", 4.0);
  BSON_APPEND_DOUBLE(&p1, "y", 5.0);
  BSON_APPEND_INT32(&p1, "t", -6);
  bson_append_document_end(&corners, &p1);
  bson_append_array_end(b, &corners);
  BSON_APPEND_INT32(b, "c", 2);
  BSON_APPEND_BOOL(b, "on", true);
  BSON_APPEND_DATE_TIME(b, "stamp", 77);
  BSON_APPEND_BINARY(b, "u", BSON_SUBTYPE_UUID, f.u.data(), 16);
  EXPECT_EQ(encode_ok(f), to_bytes(b));
  bson_destroy(b);
}

// A fixed-shape struct whose bytes differ from the skeleton (here: an int32 where a double is
// expected, which decode widens) takes the general path and still decodes.
TEST(generated_codec, fixed_shape_falls_back_to_general_path) {
  bson_t* b = bson_new();
  BSON_APPEND_INT32(b, "x", 7);  // widened to double
  BSON_APPEND_DOUBLE(b, "y", 1.0);
  BSON_APPEND_INT32(b, "t", 2);
  const auto p = decode_ok<gen_test::point>(to_bytes(b));
  EXPECT_EQ(p.x, 7.0);
  EXPECT_EQ(p.y, 1.0);
  EXPECT_EQ(p.tag, 2);
  bson_destroy(b);
}

// An element that leaves the in-order chain (here every element of a fixed-shape struct whose
// shape did not match) is first compared with the field the chain expected, key and NUL in place:
// a key that only starts with the expected one is another key, and a key the document's end cuts
// off is an error, as when it is read the general way.
TEST(generated_codec, expected_field_is_matched_by_its_whole_key) {
  bson_t* b = bson_new();
  BSON_APPEND_INT32(b, "x", 7);      // an int32: off the fixed shape
  BSON_APPEND_DOUBLE(b, "yy", 5.0);  // unknown (skipped), while "y" is expected
  BSON_APPEND_INT32(b, "y", 1);
  BSON_APPEND_INT32(b, "t", 2);
  gen_test::point used{9.0, 9.0, 9};
  ASSERT_TRUE(bsongen::decode(to_bytes(b), used));
  EXPECT_EQ(used.x, 7.0);
  EXPECT_EQ(used.y, 1.0);
  EXPECT_EQ(used.tag, 2);
  bson_destroy(b);

  // {x: int32 7, then a double element whose key "y" has no NUL before the document's end}
  const bytes cut = {15, 0, 0, 0, 0x10, 'x', 0, 7, 0, 0, 0, 0x01, 'y', 0, 0};
  bytes truncated = cut;
  truncated.pop_back();  // the document's own NUL now follows "y" directly
  truncated[0] = static_cast<std::uint8_t>(truncated.size());
  const auto e = decode_error<gen_test::point>(truncated);
  const auto generic = bsongen::decode_document(truncated);
  ASSERT_FALSE(generic);
  EXPECT_EQ(e.code, generic.error().code);
  EXPECT_EQ(e.offset, generic.error().offset);
}

// Values of another type than the schema's that the field reads (int32 for int64 and double,
// null for an optional), in schema order, decode into a used object as into a new one.
TEST(generated_codec, in_order_fields_of_other_types_decode_into_a_used_object) {
  bson_t* b = bson_new();
  BSON_APPEND_INT32(b, "_id", 5);  // int64 field
  BSON_APPEND_UTF8(b, "name", "n");
  BSON_APPEND_INT32(b, "level", 4);
  BSON_APPEND_INT32(b, "ratio", 2);  // double field
  BSON_APPEND_NULL(b, "maybe");
  BSON_APPEND_NULL(b, "maybe_point");
  BSON_APPEND_INT32(b, "small", 3);
  gen_test::options used;
  used.maybe = 1;
  used.maybe_point = gen_test::point{1.0, 2.0, 3};
  used.note = "left over";
  ASSERT_TRUE(bsongen::decode(to_bytes(b), used));
  const auto fresh = decode_ok<gen_test::options>(to_bytes(b));
  EXPECT_TRUE(used == fresh);
  EXPECT_EQ(fresh.id, 5);
  EXPECT_EQ(fresh.ratio, 2.0);
  EXPECT_FALSE(fresh.maybe.has_value());
  EXPECT_FALSE(fresh.maybe_point.has_value());
  EXPECT_EQ(fresh.note, "");
  EXPECT_EQ(fresh.small, 3);
  bson_destroy(b);
}

TEST(generated_codec, fixed_shape_rejects_bad_values_found_on_fast_path) {
  gen_test::fixed_shape f;
  bytes b = encode_ok(f);
  // The bool's value byte: "on" is the 4th element; find its prefix.
  const std::string prefix("\x08on", 4);
  auto at = std::search(b.begin(), b.end(), prefix.begin(), prefix.end());
  ASSERT_NE(at, b.end());
  *(at + 4) = 2;
  const auto e = decode_error<gen_test::fixed_shape>(b);
  EXPECT_EQ(e.code, bsongen::error_code::invalid_bool);
  EXPECT_EQ(e.path, "on");
  // At the element's type byte, where the generic decoder reports it too.
  EXPECT_EQ(e.offset, static_cast<std::size_t>(at - b.begin()));
  const auto generic = bsongen::decode_document(b);
  ASSERT_FALSE(generic);
  EXPECT_EQ(generic.error().offset, e.offset);
}

TEST(generated_codec, containers_round_trip) {
  gen_test::containers c;
  c.ints = {1, -2, 3};
  c.flags = {true, false, true};
  c.names = {"a", "", "c"};
  c.points.resize(12);
  c.points[11].x = 11;
  c.grid = {1, 2, 3};
  c.by_name = {{"one", 1}, {"two", 2}};
  c.nested = {{1}, {}, {2, 3}};
  c.lookup["p"] = gen_test::point{1, 2, 3};
  expect_round_trip(c);

  bson_t* b = bson_new();
  bson_t arr;
  BSON_APPEND_ARRAY_BEGIN(b, "ints", &arr);
  BSON_APPEND_INT32(&arr, "0", 1);
  BSON_APPEND_INT32(&arr, "1", -2);
  BSON_APPEND_INT32(&arr, "2", 3);
  bson_append_array_end(b, &arr);
  const auto ints_only = to_bytes(b);
  bson_destroy(b);
  gen_test::containers only;
  only.ints = {1, -2, 3};
  const bytes ours = encode_ok(only);
  // The ints element is the first element in both encodings.
  ASSERT_GT(ours.size(), ints_only.size());
  EXPECT_TRUE(std::equal(ints_only.begin() + 4, ints_only.end() - 1, ours.begin() + 4));
}

TEST(generated_codec, array_of_wrong_length_is_an_error) {
  bson_t* b = bson_new();
  bson_t arr;
  BSON_APPEND_ARRAY_BEGIN(b, "grid", &arr);
  BSON_APPEND_INT64(&arr, "0", 1);
  BSON_APPEND_INT64(&arr, "1", 2);
  bson_append_array_end(b, &arr);
  const auto e = decode_error<gen_test::containers>(to_bytes(b));
  EXPECT_EQ(e.code, bsongen::error_code::invalid_length);
  EXPECT_EQ(e.path, "grid");
  bson_destroy(b);
}

TEST(generated_codec, defaults_options_and_omit_empty) {
  gen_test::options o;
  EXPECT_EQ(o.name, "anon");
  EXPECT_EQ(o.level, 3);
  EXPECT_EQ(o.ratio, 0.5);
  EXPECT_TRUE(o.enabled);
  EXPECT_EQ(o.c, gen_test::color::green);
  o.id = 5;
  const bytes b = encode_ok(o);
  bson_t doc;
  ASSERT_TRUE(bson_init_static(&doc, b.data(), b.size()));
  EXPECT_FALSE(bson_has_field(&doc, "note"));   // omit_empty
  EXPECT_FALSE(bson_has_field(&doc, "list"));   // omit_empty
  EXPECT_FALSE(bson_has_field(&doc, "maybe"));  // nullopt is omitted
  EXPECT_TRUE(bson_has_field(&doc, "name"));
  expect_round_trip(o);

  o.note = "n";
  o.list = {1};
  o.maybe = 0;
  o.maybe_point = gen_test::point{1, 2, 3};
  expect_round_trip(o);
}

TEST(generated_codec, defaults_at_the_ends_of_their_ranges) {
  constexpr std::int64_t lowest = std::numeric_limits<std::int64_t>::min();
  const gen_test::extremes fresh;
  EXPECT_EQ(fresh.lowest, lowest);
  EXPECT_EQ(fresh.lowest32, std::numeric_limits<std::int32_t>::min());
  EXPECT_EQ(fresh.big, 18446744073709551616.0);
  EXPECT_EQ(static_cast<std::int64_t>(fresh.wide), lowest);
  expect_round_trip(fresh);
  // Decoding an empty document into a used object resets every member to its default.
  gen_test::extremes used{1, 2, 3.0, std::int64_t{4}};
  const bytes empty{5, 0, 0, 0, 0};
  ASSERT_TRUE(bsongen::decode(std::span<const std::uint8_t>(empty), used));
  EXPECT_TRUE(used == fresh);
}

TEST(generated_codec, null_decodes_to_empty_optional) {
  bson_t* b = bson_new();
  BSON_APPEND_INT64(b, "_id", 1);
  BSON_APPEND_NULL(b, "maybe");
  const auto o = decode_ok<gen_test::options>(to_bytes(b));
  EXPECT_FALSE(o.maybe.has_value());
  bson_destroy(b);
}

TEST(generated_codec, containers_decoded_into_a_used_object_take_the_new_lengths) {
  gen_test::containers longer;
  longer.ints = {1, 2, 3, 4, 5};
  longer.flags = {true, true, true, true};
  longer.names = {"a long string that lives on the heap", "b", "c", "d"};
  longer.nested = {{1, 2}, {3}, {4, 5, 6}};
  longer.points.resize(12);
  gen_test::containers shorter;
  shorter.ints = {9};
  shorter.flags = {false, true};
  shorter.names = {"x", "another string long enough for the heap"};
  shorter.nested = {{7}, {}};
  shorter.points.resize(12);
  shorter.points[3].x = 3;

  // Decoding over a used object reuses its elements; the result must equal a fresh decode of the
  // same bytes, in both directions (shrinking and growing every container).
  gen_test::containers reused = longer;
  ASSERT_TRUE(bsongen::decode(encode_ok(shorter), reused));
  EXPECT_EQ(reused, shorter);
  ASSERT_TRUE(bsongen::decode(encode_ok(longer), reused));
  EXPECT_EQ(reused, longer);
}

// Arrays of strings take an inline path per key width (1, 2 and 3 digits) that hands over to the
// general loop at index 1000 or at the first element it does not take (here non-ASCII text). Over
// every such boundary, into vectors of every size around them, the result equals the input.
TEST(generated_codec, string_arrays_decode_across_key_widths_and_hand_overs) {
  const auto text = [](std::size_t i, std::size_t non_ascii_at) {
    std::string s = "element " + std::to_string(i) + (i % 3 == 0 ? " on the heap, past SSO" : "");
    if (i == non_ascii_at) s += "\xc3\xa9";
    return s;
  };
  const std::size_t none = std::numeric_limits<std::size_t>::max();
  for (const std::size_t length : {0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, 1001, 1200}) {
    for (const std::size_t non_ascii_at :
         {none, std::size_t{0}, std::size_t{10}, std::size_t{500}}) {
      gen_test::containers in;
      for (std::size_t i = 0; i < length; ++i) in.names.push_back(text(i, non_ascii_at));
      const auto encoded = encode_ok(in);
      for (const std::size_t old_length : {0, 1, 10, 150, 1100}) {
        gen_test::containers reused;
        reused.names.assign(old_length, std::string(40, 'o'));
        ASSERT_TRUE(bsongen::decode(encoded, reused));
        EXPECT_EQ(reused.names, in.names) << length << " strings into " << old_length;
      }
      EXPECT_EQ(decode_ok<gen_test::containers>(encoded).names, in.names) << length << " strings";
    }
  }
}

// A canonical array of bools is stored into a vector<bool> 64 values at a time: lengths around
// every word boundary, irregular bits, into vectors of other sizes (whose old bits must not leak).
TEST(generated_codec, bool_arrays_decode_at_every_word_boundary) {
  for (const std::size_t length : {1, 2, 63, 64, 65, 127, 128, 129, 999, 1000, 1001, 1100}) {
    gen_test::containers in;
    for (std::size_t i = 0; i < length; ++i) in.flags.push_back((i * 2654435761U >> 7) % 3 == 0);
    const auto encoded = encode_ok(in);
    for (const std::size_t old_length : {0, 5, 64, 200, 1500}) {
      gen_test::containers reused;
      reused.flags.assign(old_length, true);
      ASSERT_TRUE(bsongen::decode(encoded, reused));
      EXPECT_EQ(reused.flags, in.flags) << length << " bools into " << old_length;
    }
    EXPECT_EQ(decode_ok<gen_test::containers>(encoded).flags, in.flags) << length << " bools";
  }
}

// A used map keeps the entries whose keys come again in its order and recycles the others' nodes;
// whatever the overlap, the result equals a fresh decode (repeated keys: the last value wins).
TEST(generated_codec, maps_decoded_into_a_used_object_equal_a_fresh_decode) {
  using bsongen::document;
  const std::vector<document> inputs = {
      document{{"a", std::int64_t{1}}, {"b", std::int64_t{2}}, {"c", std::int64_t{3}}},
      document{{"a", std::int64_t{4}}, {"b", std::int64_t{5}}, {"c", std::int64_t{6}}},
      document{{"a", std::int64_t{7}}, {"b", std::int64_t{8}}},  // fewer
      document{{"a", std::int64_t{7}},
               {"b", std::int64_t{8}},
               {"d", std::int64_t{9}},
               {"e", std::int64_t{10}}},                         // more, new keys
      document{{"x", std::int64_t{1}}, {"a", std::int64_t{2}}},  // no common prefix
      document{{"a", std::int64_t{1}}, {"a", std::int64_t{2}}, {"b", std::int64_t{3}}},  // repeated
      document{{"b", std::int64_t{1}}, {"a", std::int64_t{2}}},  // out of order
      document{},
  };
  for (std::size_t b = 0; b < inputs.size(); ++b) {
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      const bytes used_bytes = to_bytes(
          bsongen::encode_document(document{{"by_name", inputs[b]}, {"lookup", document{}}}));
      const bytes input = to_bytes(
          bsongen::encode_document(document{{"by_name", inputs[i]}, {"lookup", document{}}}));
      gen_test::containers used = decode_ok<gen_test::containers>(used_bytes);
      const auto fresh = decode_ok<gen_test::containers>(input);
      ASSERT_TRUE(bsongen::decode(std::span<const std::uint8_t>(input), used));
      EXPECT_EQ(used.by_name, fresh.by_name) << "input " << i << " decoded over input " << b;
    }
  }
  // The unordered map (its iteration order is not the input's) the same way.
  gen_test::containers used;
  used.lookup = {{"p", {1, 2, 3}}, {"q", {4, 5, 6}}, {"r", {7, 8, 9}}};
  gen_test::containers next;
  next.lookup = {{"r", {0, 0, 1}}, {"q", {0, 0, 2}}, {"s", {0, 0, 3}}};
  ASSERT_TRUE(bsongen::decode(encode_ok(next), used));
  EXPECT_EQ(used.lookup, next.lookup);
}

// Keys out of the map's sorted order (as clients that write insertion order send them) decoded
// into a used map: every mix of keys the map holds, keys it lacks, keys the input no longer has and
// repeated keys gives what a fresh decode gives (the same values, or the same error), under both
// duplicate-key policies, for std::map and std::unordered_map.
TEST(generated_codec, unsorted_map_keys_decoded_into_a_used_map_equal_a_fresh_decode) {
  using bsongen::document;
  using key_list = std::vector<std::string>;
  const std::string long_key = "a key longer than a short string's own buffer";
  const std::vector<key_list> key_lists = {
      {"a", "b", "c"},
      {"c", "a", "b"},                 // the same keys, out of order
      {"d", "c", "b", "a"},            // reversed, one more
      {"b", "c", "a", "d"},            // in order at first, then not
      {"c", "b"},                      // fewer
      {"e", "a"},                      // one new, one held
      {"c", "a", "c", "b"},            // repeated after the order broke
      {"b", "a", "b"},                 // repeated, one held key absent
      {"a", "c", "b", "a"},            // the first key (matched in order) repeated
      {"c", "x", "x", "a"},            // a new key repeated
      {long_key, "d", "b", long_key},  // a key beyond the lookup copy's inline storage
      {},
  };
  // Each value tells which input and element it came from, so a stale value shows.
  const auto encode_keys = [](const key_list& keys, std::int64_t from) {
    document by_name;
    document lookup;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      const std::int64_t v = from + static_cast<std::int64_t>(i);
      by_name.append(keys[i], v);
      lookup.append(
          keys[i],
          document{{"x", static_cast<double>(v)}, {"y", 0.5}, {"t", static_cast<std::int32_t>(v)}});
    }
    return to_bytes(bsongen::encode_document(document{{"by_name", by_name}, {"lookup", lookup}}));
  };
  for (const auto policy :
       {bsongen::duplicate_key_policy::last_wins, bsongen::duplicate_key_policy::reject}) {
    bsongen::decode_options options;
    options.duplicate_keys = policy;
    for (std::size_t b = 0; b < key_lists.size(); ++b) {
      for (std::size_t i = 0; i < key_lists.size(); ++i) {
        const bytes input = encode_keys(key_lists[i], 0);
        const auto fresh = bsongen::decode<gen_test::containers>(input, options);
        gen_test::containers used = decode_ok<gen_test::containers>(encode_keys(key_lists[b], 100));
        const auto again = bsongen::decode(std::span<const std::uint8_t>(input), used, options);
        const std::string where = "input " + std::to_string(i) + " decoded over input " +
                                  std::to_string(b) + ", policy " +
                                  std::to_string(static_cast<int>(policy));
        ASSERT_EQ(static_cast<bool>(again), static_cast<bool>(fresh)) << where;
        if (fresh) {
          EXPECT_EQ(used.by_name, fresh->by_name) << where;
          EXPECT_EQ(used.lookup, fresh->lookup) << where;
        } else {
          EXPECT_EQ(again.error().code, fresh.error().code) << where;
          EXPECT_EQ(again.error().path, fresh.error().path) << where;
          EXPECT_EQ(again.error().offset, fresh.error().offset) << where;
        }
      }
    }
  }
}

// A used map takes a key's new value in place only when the key is the same: keys of every length
// up to past the 16 bytes compared inline, differing from the held key in any one byte.
TEST(generated_codec, map_keys_differing_in_one_byte_are_told_apart_when_decoding_into_a_used_map) {
  for (std::size_t n = 0; n <= 20; ++n) {
    std::string held(n, ' ');
    for (std::size_t i = 0; i < n; ++i) held[i] = static_cast<char>('a' + i % 26);
    gen_test::containers same;
    same.by_name = {{held, 2}};
    gen_test::containers used;
    used.by_name = {{held, 1}};
    ASSERT_TRUE(bsongen::decode(encode_ok(same), used));
    EXPECT_EQ(used.by_name, same.by_name) << "same key of " << n << " bytes";
    for (std::size_t at = 0; at < n; ++at) {
      gen_test::containers other;
      std::string key = held;
      key[at] = static_cast<char>(key[at] ^ 0x20);
      other.by_name = {{key, 3}};
      used.by_name = {{held, 1}};
      ASSERT_TRUE(bsongen::decode(encode_ok(other), used));
      EXPECT_EQ(used.by_name, other.by_name) << n << "-byte key differing at byte " << at;
    }
  }
}

TEST(generated_codec, absent_fields_take_defaults_when_decoding_into_a_used_object) {
  gen_test::options used;
  used.id = 1;
  used.name = "changed";
  used.maybe = 4;
  bson_t* b = bson_new();
  BSON_APPEND_INT64(b, "_id", 2);
  ASSERT_TRUE(bsongen::decode(to_bytes(b), used));
  EXPECT_EQ(used.id, 2);
  EXPECT_EQ(used.name, "anon");
  EXPECT_FALSE(used.maybe.has_value());
  bson_destroy(b);
}

// A struct of 70 fields, two words of seen bits: decoding into a used object resets exactly the
// absent fields on both sides of the word boundary, as a new object would hold them.
TEST(generated_codec, absent_fields_past_64_take_defaults_when_decoding_into_a_used_object) {
  // Every field set, from a document holding all 70.
  bson_t* all = bson_new();
  for (int i = 0; i < 70; ++i) {
    char key[16];  // room for any int: the sanitizer build's -Wformat-truncation checks it
    std::snprintf(key, sizeof key, "f%d", i);
    if (i % 3 == 0) {
      BSON_APPEND_UTF8(all, key, "set");
    } else {
      BSON_APPEND_INT32(all, key, 1);
    }
  }
  const auto used_bytes = to_bytes(all);
  bson_destroy(all);
  gen_test::wide_optional used = decode_ok<gen_test::wide_optional>(used_bytes);
  ASSERT_EQ(used.f69, "set");
  ASSERT_EQ(used.f65, 1);
  bson_t* b = bson_new();
  BSON_APPEND_INT32(b, "f1", 11);
  BSON_APPEND_INT32(b, "f62", 62);
  BSON_APPEND_UTF8(b, "f63", "sixty-three");
  BSON_APPEND_INT32(b, "f64", 64);
  BSON_APPEND_INT32(b, "f68", 68);
  ASSERT_TRUE(bsongen::decode(to_bytes(b), used));
  const auto fresh = decode_ok<gen_test::wide_optional>(to_bytes(b));
  EXPECT_TRUE(used == fresh);
  EXPECT_EQ(fresh.f1, 11);
  EXPECT_EQ(fresh.f62, 62);
  EXPECT_EQ(fresh.f63, "sixty-three");
  EXPECT_EQ(fresh.f64, 64);
  EXPECT_EQ(fresh.f68, 68);
  EXPECT_EQ(fresh.f65, 7);  // absent: its default
  EXPECT_FALSE(fresh.f69.has_value());
  bson_destroy(b);
}

TEST(generated_codec, shuffled_field_order_decodes) {
  gen_test::scalars s = sample_scalars();
  const bytes b = encode_ok(s);
  // Re-emit the elements in reverse order with libbson's iterator and builder.
  bson_t doc;
  ASSERT_TRUE(bson_init_static(&doc, b.data(), b.size()));
  std::vector<std::string> keys;
  bson_iter_t it;
  ASSERT_TRUE(bson_iter_init(&it, &doc));
  while (bson_iter_next(&it)) keys.emplace_back(bson_iter_key(&it));
  bson_t* reversed = bson_new();
  for (auto k = keys.rbegin(); k != keys.rend(); ++k) {
    ASSERT_TRUE(bson_iter_init_find(&it, &doc, k->c_str()));
    ASSERT_TRUE(bson_append_iter(reversed, k->c_str(), -1, &it));
  }
  EXPECT_TRUE(decode_ok<gen_test::scalars>(to_bytes(reversed)) == s);
  bson_destroy(reversed);
}

TEST(generated_codec, int32_widens_into_int64_and_double) {
  bson_t* b = bson_new();
  BSON_APPEND_INT32(b, "d", 3);
  BSON_APPEND_INT32(b, "i64", -9);
  const auto s = decode_ok<gen_test::scalars>(to_bytes(b));
  EXPECT_EQ(s.d, 3.0);
  EXPECT_EQ(s.i64, -9);
  bson_destroy(b);
}

TEST(generated_codec, missing_required_field) {
  bson_t* b = bson_new();
  BSON_APPEND_UTF8(b, "name", "x");
  const auto e = decode_error<gen_test::options>(to_bytes(b));
  EXPECT_EQ(e.code, bsongen::error_code::missing_field);
  EXPECT_EQ(e.path, "_id");
  bson_destroy(b);
}

TEST(generated_codec, wrong_type_names_path_types_and_offset) {
  gen_test::containers c;
  c.points.resize(3);
  bytes b = encode_ok(c);
  // points.1.x: turn its double into a string of the same length? Simpler: change the type byte
  // to int64 (same 8-byte width), which a double field does not accept.
  const std::string key("\x01x", 3);
  auto at = b.begin();
  for (int i = 0; i < 2; ++i) at = std::search(at + 1, b.end(), key.begin(), key.end());
  ASSERT_NE(at, b.end());
  *at = 0x12;
  const auto e = decode_error<gen_test::containers>(b);
  EXPECT_EQ(e.code, bsongen::error_code::type_mismatch);
  EXPECT_EQ(e.path, "points.1.x");
  EXPECT_EQ(e.message, "expected double, found int64");
  EXPECT_EQ(e.offset, static_cast<std::size_t>(at - b.begin()));  // the element's type byte
  EXPECT_EQ(e.to_string().rfind("type_mismatch at points.1.x (byte ", 0), 0U);
}

TEST(generated_codec, integer_out_of_member_range_is_inexact) {
  bson_t* b = bson_new();
  BSON_APPEND_INT64(b, "_id", 1);
  BSON_APPEND_INT32(b, "small", 70000);  // member is std::uint16_t
  const auto e = decode_error<gen_test::options>(to_bytes(b));
  EXPECT_EQ(e.code, bsongen::error_code::inexact);
  EXPECT_EQ(e.path, "small");
  bson_destroy(b);
}

TEST(generated_codec, enum_values_are_checked) {
  bson_t* b = bson_new();
  BSON_APPEND_INT32(b, "c", 3);
  auto e = decode_error<gen_test::scalars>(to_bytes(b));
  EXPECT_EQ(e.code, bsongen::error_code::invalid_value);
  EXPECT_EQ(e.path, "c");
  bson_destroy(b);
  b = bson_new();
  BSON_APPEND_UTF8(b, "sz", "large");  // stored name is "L"
  e = decode_error<gen_test::scalars>(to_bytes(b));
  EXPECT_EQ(e.code, bsongen::error_code::invalid_value);
  EXPECT_EQ(e.path, "sz");
  bson_destroy(b);

  gen_test::scalars bad = sample_scalars();
  bad.c = static_cast<gen_test::color>(3);
  auto r = bsongen::encode(bad);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, bsongen::error_code::invalid_value);

  gen_test::fixed_shape fixed_bad;  // the fixed-shape encoder checks enums too
  fixed_bad.c = static_cast<gen_test::color>(0);
  auto fixed_r = bsongen::encode(fixed_bad);
  ASSERT_FALSE(fixed_r);
  EXPECT_EQ(fixed_r.error().code, bsongen::error_code::invalid_value);
}

TEST(generated_codec, unknown_fields_skip_reject_capture) {
  bson_t* b = bson_new();
  BSON_APPEND_INT32(b, "a", 1);
  BSON_APPEND_UTF8(b, "zzz", "extra");
  BSON_APPEND_UTF8(b, "b", "two");
  const bytes input = to_bytes(b);
  bson_destroy(b);

  // skip: tree has no "a"/"b"/"zzz" except by policy default.
  EXPECT_EQ(decode_ok<gen_test::tree>(input).value, 0);

  const auto e = decode_error<gen_test::strict>(input);
  EXPECT_EQ(e.code, bsongen::error_code::unknown_field);
  EXPECT_EQ(e.path, "zzz");

  const auto o = decode_ok<gen_test::open>(input);
  EXPECT_EQ(o.a, 1);
  EXPECT_EQ(o.b, "two");
  EXPECT_FALSE(o.rest.empty());
  bson_t rest;
  ASSERT_TRUE(bson_init_static(&rest, o.rest.bytes().data(), o.rest.size()));
  EXPECT_TRUE(bson_has_field(&rest, "zzz"));
  // Written back after the known fields.
  const bytes again = encode_ok(o);
  EXPECT_EQ(again.size(), input.size());
  expect_round_trip(o);
}

TEST(generated_codec, skipped_unknown_fields_are_validated) {
  bson_t* b = bson_new();
  BSON_APPEND_UTF8(b, "unknown", "abc");
  bytes input = to_bytes(b);
  bson_destroy(b);
  input[4 + 1 + 8] = 0x7F;  // the string's length byte: far past the end
  const auto e = decode_error<gen_test::tree>(input);
  EXPECT_EQ(e.code, bsongen::error_code::invalid_length);  // as the generic decoder says it
  EXPECT_EQ(e.path, "unknown");
}

TEST(generated_codec, duplicate_keys) {
  bson_t* b = bson_new();
  BSON_APPEND_INT64(b, "_id", 1);
  BSON_APPEND_INT64(b, "_id", 2);
  const auto e = decode_error<gen_test::options>(to_bytes(b));
  EXPECT_EQ(e.code, bsongen::error_code::duplicate_field);
  EXPECT_EQ(e.path, "_id");
  bson_destroy(b);

  b = bson_new();  // last_wins elsewhere
  BSON_APPEND_INT32(b, "value", 1);
  BSON_APPEND_INT32(b, "value", 2);
  EXPECT_EQ(decode_ok<gen_test::tree>(to_bytes(b)).value, 2);
  bson_destroy(b);
}

TEST(generated_codec, every_truncation_fails_cleanly) {
  shop::order o;
  o.items.resize(3);
  o.tags["x"] = "y";
  o.tracking = std::array<std::uint8_t, 16>{};
  const bytes full = encode_ok(o);
  for (std::size_t n = 0; n < full.size(); ++n) {
    bytes cut(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n));
    auto r = bsongen::decode<shop::order>(cut);
    EXPECT_FALSE(r) << "prefix of " << n << " bytes decoded";
  }
  // Same bytes, declared length kept: every cut makes the document run past its input.
  for (std::size_t n = 5; n < full.size(); ++n) {
    bytes cut(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n));
    auto r = bsongen::decode<shop::order>(cut);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, bsongen::error_code::truncated);
  }
}

TEST(generated_codec, every_single_byte_corruption_is_handled) {
  shop::order o;
  o.items.resize(2);
  o.tags["x"] = "y";
  o.notes = "some notes";
  const bytes full = encode_ok(o);
  for (std::size_t i = 0; i < full.size(); ++i) {
    for (std::uint8_t v : {std::uint8_t{0}, std::uint8_t{0x7F}, std::uint8_t{0xFF}}) {
      bytes bad = full;
      bad[i] = v;
      auto r = bsongen::decode<shop::order>(bad);  // must not crash or read out of bounds
      if (!r) {
        EXPECT_LE(r.error().offset, full.size());
      }
    }
  }
}

TEST(generated_codec, wrong_lengths) {
  bytes b = encode_ok(gen_test::point{});
  bytes longer = b;
  longer.push_back(0);
  auto e = decode_error<gen_test::point>(longer);
  EXPECT_EQ(e.code, bsongen::error_code::trailing_bytes);

  bytes short_length = b;
  short_length[0] = 4;
  e = decode_error<gen_test::point>(short_length);
  EXPECT_EQ(e.code, bsongen::error_code::invalid_length);

  gen_test::strict s;
  s.b = "hello";
  bytes str = encode_ok(s);
  // The string's int32 length follows "\x02b\0": claim 2 bytes instead of 6.
  const std::string key(
      "\x02"
      "b",
      3);
  auto at = std::search(str.begin(), str.end(), key.begin(), key.end()) + 3;
  *at = 2;
  e = decode_error<gen_test::strict>(str);
  EXPECT_EQ(e.code, bsongen::error_code::missing_terminator);
  EXPECT_EQ(e.path, "b");
}

TEST(generated_codec, invalid_utf8_is_rejected) {
  gen_test::strict s;
  s.b = "ok\xff";
  EXPECT_EQ(bsongen::encode(s).error().code, bsongen::error_code::invalid_utf8);  // nor written
  s.b = "ok?";
  bytes b = encode_ok(s);
  *std::find(b.begin(), b.end(), '?') = 0xFF;
  const auto e = decode_error<gen_test::strict>(b);
  EXPECT_EQ(e.code, bsongen::error_code::invalid_utf8);
  EXPECT_EQ(e.path, "b");
}

TEST(generated_codec, depth_is_bounded) {
  gen_test::tree root;
  gen_test::tree* node = &root;
  for (int i = 0; i < 150; ++i) {
    node->children.emplace_back();
    node = &node->children.back();
  }
  const bytes b = encode_ok(root);
  auto e = decode_error<gen_test::tree>(b);
  EXPECT_EQ(e.code, bsongen::error_code::too_deep);
  bsongen::decode_options deep;
  deep.max_depth = 1000;
  auto r = bsongen::decode<gen_test::tree>(std::span<const std::uint8_t>(b), deep);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_TRUE(*r == root);
}

TEST(generated_codec, caller_buffer_and_reused_writer) {
  gen_test::point p{1, 2, 3};
  std::uint8_t small[8];
  bsongen::writer tiny(small);
  auto r = bsongen::encode(p, tiny);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, bsongen::error_code::buffer_too_small);

  bsongen::writer w;
  ASSERT_TRUE(bsongen::encode(p, w));
  ASSERT_TRUE(bsongen::encode(p, w));  // appends a second document
  EXPECT_EQ(w.size(), 2 * bsongen::codec<gen_test::point>::fixed_size);
}

// Fixed-shape structs whose values cannot fail to encode (no enum, no narrowed member) encode
// and decode through shortcuts in bsongen/codec.hpp: same bytes, same options, same errors.
static_assert(bsongen::codec<gen_test::point>::encode_always_succeeds);
static_assert(!bsongen::codec<gen_test::fixed_shape>::encode_always_succeeds);  // an enum member

TEST(generated_codec, fixed_shape_shortcuts_keep_the_general_paths_contract) {
  const gen_test::point p{1.5, -2, 7};
  const bytes b = encode_ok(p);
  EXPECT_EQ(b.size(), bsongen::codec<gen_test::point>::fixed_size);
  EXPECT_EQ(*bsongen::encoded_size(p), b.size());
  auto one_buffer = bsongen::encode(p);
  ASSERT_TRUE(one_buffer);
  EXPECT_EQ(to_bytes(*one_buffer), b);
  EXPECT_EQ(decode_ok<gen_test::point>(b), p);

  bsongen::decode_options small;
  small.max_size = b.size() - 1;
  EXPECT_EQ(decode_error<gen_test::point>(b, small).code, bsongen::error_code::too_large);
  bsongen::decode_options flat;
  flat.max_depth = 0;
  EXPECT_EQ(decode_error<gen_test::point>(b, flat).code, bsongen::error_code::too_deep);

  // Into a reused object: the shortcut overwrites every member.
  gen_test::point reused{9, 9, 9};
  ASSERT_TRUE(bsongen::decode(std::span<const std::uint8_t>(b), reused));
  EXPECT_EQ(reused, p);
  // Bytes of another shape (the int32 written as a double) take the general decoder, which
  // reports the element.
  bytes other = b;
  other[b.size() - 1 - 4 - 3] = static_cast<std::uint8_t>(bsongen::bson_type::double_);
  const auto e = decode_error<gen_test::point>(other);
  EXPECT_EQ(e.path, "t");
}

TEST(generated_codec, map_key_with_nul_cannot_be_encoded) {
  gen_test::containers c;
  c.by_name[std::string("a\0b", 3)] = 1;
  auto r = bsongen::encode(c);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, bsongen::error_code::invalid_value);
}

TEST(generated_codec, string_view_member_points_into_input) {
  bson_t* b = bson_new();
  BSON_APPEND_INT64(b, "_id", 1);
  BSON_APPEND_UTF8(b, "view", "viewed");
  const bytes input = to_bytes(b);
  bson_destroy(b);
  const auto o = decode_ok<gen_test::options>(input);
  EXPECT_EQ(o.view, "viewed");
  EXPECT_GE(reinterpret_cast<const std::uint8_t*>(o.view.data()), input.data());
  EXPECT_LT(reinterpret_cast<const std::uint8_t*>(o.view.data()), input.data() + input.size());
}

TEST(generated_codec, deep_bson_and_seed_round_trip) {
  bench::deep_bson d;
  d.left.left.left.left.left.leftValue = "deepest";
  expect_round_trip(d);
  seed::double_1 one{120.384};
  expect_round_trip(one);
  EXPECT_EQ(encode_ok(one).size(), 18U);  // 4 + "\x01_id\0" + 8 + 1
}

TEST(generated_codec, empty_struct) {
  const bytes b = encode_ok(gen_test::empty{});
  EXPECT_EQ(b, (bytes{5, 0, 0, 0, 0}));
  expect_round_trip(gen_test::empty{});
}

TEST(generated_codec, members_named_like_their_struct) {
  // label::label and rest::rest (a struct member), and label::rest (the capture member) also
  // names a struct: the generated operator== must still name the struct.
  gen_test::rest r;
  r.rest.label = "outer";
  r.rest.kind = 7;
  r.labels = {gen_test::label{"a", 1, {}}, gen_test::label{"b", 2, {}}};
  expect_round_trip(r);
  EXPECT_FALSE(r == gen_test::rest{});
}

TEST(generated_codec, entry_points_never_call_user_functions_found_by_adl) {
  shop::address a;
  a.street = "Hauptstrasse 1";
  a.city = "Berlin";
  const bytes b = encode_ok(a);
  EXPECT_EQ(bsongen::encoded_size(a).value(), b.size());
  bsongen::writer w;
  ASSERT_TRUE(bsongen::encode(a, w));
  EXPECT_EQ(w.size(), b.size());
  shop::address back;
  ASSERT_TRUE(bsongen::decode(std::span<const std::uint8_t>(b), back));
  EXPECT_EQ(back, a);
  EXPECT_EQ(bsongen::decode<shop::address>(b).value(), a);
  EXPECT_EQ(shop::user_function_calls, 0);
}

}  // namespace
