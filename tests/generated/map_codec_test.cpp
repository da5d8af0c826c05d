// map<string, T> fields (detail::map_codec) in their three spellings (schemas/map_spellings.yaml):
// std::map and std::unordered_map keep one value per key, the last one; a sequence of pairs keeps
// the entries in document order, repeated keys included, so a document round-trips byte for byte.
// Under decode_options::duplicate_keys = reject all three refuse a repeated key.
// Errors inside an entry carry the entry's key in their path, and no input crashes a decoder.

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "bson_builder.hpp"
#include "bsongen/codec.hpp"
#include "bsongen/document.hpp"
#include "bsongen/writer.hpp"
#include "codec_helpers.hpp"
#include "map_spellings.bsongen.hpp"

namespace {

using bsongen::test::bson_builder;
using bsongen::test::bytes;
using bsongen::test::decode_error;
using bsongen::test::decode_ok;
using bsongen::test::encode_error;
using bsongen::test::encode_ok;

using entries = std::vector<std::pair<std::string, std::int64_t>>;

// An embedded document of int64 elements, in the order given (repeats allowed).
bson_builder int64_document(const entries& e) {
  bson_builder body;
  for (const auto& [key, value] : e) body.u8(0x12).cstr(key).i64(value);
  return body;
}

// A gen_maps::maps document whose three int64 maps hold `e` each, and nothing else.
bytes maps_document(const entries& e) {
  bson_builder body;
  body.u8(0x03).cstr("sorted").doc(int64_document(e));
  body.u8(0x03).cstr("unordered").doc(int64_document(e));
  body.u8(0x03).cstr("in_order").doc(int64_document(e));
  return bson_builder().doc(body).bytes();
}

TEST(map_codec, a_sequence_of_pairs_keeps_document_order_and_repeated_keys) {
  const bytes doc = maps_document({{"b", 1}, {"a", 2}, {"b", 3}});
  const auto m = decode_ok<gen_maps::maps>(doc);
  EXPECT_EQ(m.in_order, (entries{{"b", 1}, {"a", 2}, {"b", 3}}));
  // The associative spellings keep one entry per key: the last value.
  EXPECT_EQ(m.sorted, (std::map<std::string, std::int64_t>{{"a", 2}, {"b", 3}}));
  EXPECT_EQ(m.unordered, (std::unordered_map<std::string, std::int64_t>{{"a", 2}, {"b", 3}}));
}

TEST(map_codec, a_sequence_of_pairs_round_trips_the_document_exactly) {
  gen_maps::maps m;
  m.in_order = {{"zeta", 1}, {"alpha", 2}, {"zeta", 3}, {"", 4}, {"h\xc3\xa9", 5}};
  m.points = {{"second", {1, 2}}, {"first", {3, 4}}};
  m.labels = {{"b", "x"}, {"a", "y"}};
  m.anything = {{"n", bsongen::value(std::int32_t{7})},
                {"s", bsongen::value("text")},
                {"n", bsongen::value(nullptr)}};
  const bytes encoded = encode_ok(m);
  const auto back = decode_ok<gen_maps::maps>(encoded);
  EXPECT_EQ(back.in_order, m.in_order);
  EXPECT_EQ(back.points, m.points);
  EXPECT_EQ(back.labels, m.labels);
  EXPECT_EQ(back.anything, m.anything);
  EXPECT_EQ(encode_ok(back), encoded);
  // The generic path reads the same entries, in the same order.
  const auto generic = bsongen::test::decode_generic(encoded);
  const bsongen::document_ref in_order = generic.find("in_order").as_document();
  ASSERT_EQ(in_order.size(), m.in_order.size());
  for (std::size_t i = 0; i < m.in_order.size(); ++i) {
    EXPECT_EQ(in_order.at(i).key(), m.in_order[i].first);
    EXPECT_EQ(in_order.at(i).value().as_int64(), m.in_order[i].second);
  }
}

TEST(map_codec, decoding_into_a_used_sequence_of_pairs_leaves_only_the_new_entries) {
  gen_maps::maps m;
  m.labels = {{"old", "stale"}};
  ASSERT_TRUE(bsongen::decode(maps_document({{"a", 1}, {"b", 2}, {"c", 3}}), m));
  EXPECT_EQ(m.in_order, (entries{{"a", 1}, {"b", 2}, {"c", 3}}));
  EXPECT_TRUE(m.labels.empty());  // absent: reset to its default
  ASSERT_TRUE(bsongen::decode(maps_document({{"longer key than fifteen", 9}}), m));
  EXPECT_EQ(m.in_order, (entries{{"longer key than fifteen", 9}}));
  ASSERT_TRUE(bsongen::decode(maps_document({{"x", 1}, {"y", 2}, {"x", 3}, {"w", 4}}), m));
  EXPECT_EQ(m.in_order, (entries{{"x", 1}, {"y", 2}, {"x", 3}, {"w", 4}}));
  ASSERT_TRUE(bsongen::decode(maps_document({}), m));
  EXPECT_TRUE(m.in_order.empty());
}

// A gen_maps::maps document whose int64 map `field` alone holds `e`.
bytes one_map_document(const std::string& field, const entries& e) {
  bson_builder body;
  body.u8(0x03).cstr(field).doc(int64_document(e));
  return bson_builder().doc(body).bytes();
}

TEST(map_codec, duplicate_keys_reject_refuses_a_repeated_key_in_every_spelling_and_state) {
  const bsongen::decode_options reject{.duplicate_keys = bsongen::duplicate_key_policy::reject};
  const std::string long_key = "a key longer than any inline string";
  // Key lists with a repeat, and where the first repeat is (index into the list).
  const std::vector<std::pair<entries, std::size_t>> repeated = {
      {{{"a", 1}, {"a", 2}}, 1},
      {{{"a", 1}, {"b", 2}, {"a", 3}}, 2},
      {{{"b", 1}, {"a", 2}, {"c", 3}, {"a", 4}, {"b", 5}}, 3},
      {{{long_key, 1}, {"z", 2}, {long_key, 3}}, 2},
      {{{"c", 1}, {"b", 2}, {"a", 3}, {"b", 4}}, 3},
  };
  for (const std::string field : {"sorted", "unordered", "in_order"}) {
    for (const auto& [keys, repeat] : repeated) {
      entries unique;
      for (const auto& entry : keys) {
        bool seen = false;
        for (const auto& u : unique) seen |= u.first == entry.first;
        if (!seen) unique.push_back(entry);
      }
      entries reversed(unique.rbegin(), unique.rend());
      // What the struct held before: nothing (a new struct), the same keys sorted, the same
      // keys in another order, other keys: each sends a std::map down another path.
      const std::vector<entries> before = {{}, unique, reversed, {{"other", 1}, {"x", 2}}};
      const bytes doc = one_map_document(field, keys);
      // The repeated element's type byte: 4 (length) + 1 + field + NUL + 4, then the entries.
      std::size_t offset = 4 + 1 + field.size() + 1 + 4;
      for (std::size_t i = 0; i < repeat; ++i) offset += 1 + keys[i].first.size() + 1 + 8;
      for (const entries& held : before) {
        gen_maps::maps m;
        if (!held.empty()) {
          ASSERT_TRUE(bsongen::decode(one_map_document(field, held), m));
        }
        const auto r = bsongen::decode(doc, m, reject);
        ASSERT_FALSE(r) << field << " " << keys.size() << " keys after " << held.size();
        EXPECT_EQ(r.error().code, bsongen::error_code::duplicate_field);
        EXPECT_EQ(r.error().path, field + "." + keys[repeat].first);
        EXPECT_EQ(r.error().offset, offset) << field << " after " << held.size();
      }
      // A new struct, and the generic decoder's verdict on the same bytes.
      EXPECT_EQ(bsongen::decode<gen_maps::maps>(doc, reject).error().code,
                bsongen::error_code::duplicate_field);
      EXPECT_EQ(bsongen::decode_document(doc, reject).error().code,
                bsongen::error_code::duplicate_field);
      // The default policy decodes them: covered by
      // a_sequence_of_pairs_keeps_document_order_and_repeated_keys.
      EXPECT_TRUE(bsongen::decode<gen_maps::maps>(doc));
    }
  }
}

TEST(map_codec, an_error_inside_an_entry_names_its_key_and_offset) {
  // points: {"p": {"x": 1, "y": "two"}}: y is a string where the point holds an int32.
  bson_builder point;
  point.u8(0x10).cstr("x").i32(1).u8(0x02).cstr("y").str("two");
  bson_builder points;
  points.u8(0x03).cstr("p").doc(point);
  bson_builder body;
  body.u8(0x03).cstr("points").doc(points);
  const bytes doc = bson_builder().doc(body).bytes();
  const bsongen::error e = decode_error<gen_maps::maps>(doc);
  EXPECT_EQ(e.code, bsongen::error_code::type_mismatch);
  EXPECT_EQ(e.path, "points.p.y");
  // The element's type byte: 4 (document length) + 1 + "points\0" + 4 + 1 + "p\0" + 4 + the x
  // element (1 + 2 + 4).
  EXPECT_EQ(e.offset, 4U + 1 + 7 + 4 + 1 + 2 + 4 + 7);
}

TEST(map_codec, keys_that_are_not_utf8_are_refused_both_ways) {
  bson_builder body;
  body.u8(0x03).cstr("in_order").doc(bson_builder().u8(0x12).cstr("\xff").i64(1));
  const bsongen::error decoding = decode_error<gen_maps::maps>(bson_builder().doc(body).bytes());
  EXPECT_EQ(decoding.code, bsongen::error_code::invalid_utf8);
  EXPECT_EQ(decoding.path, "in_order.\xff");  // the raw key: error::to_string() escapes it

  gen_maps::maps m;
  m.in_order = {{"ok", 1}, {"\xff", 2}};
  EXPECT_FALSE(encode_error(m).message.empty());
  m.in_order = {{std::string("nul\0inside", 10), 1}};
  EXPECT_EQ(encode_error(m).path, std::string("in_order.nul\0inside", 19));
}

// Every prefix and every single-byte change of a document holding all three spellings decodes or
// fails cleanly (the sanitizer builds check the "cleanly"), and what decodes encodes again.
gen_maps::nested_maps some_nested_maps() {
  gen_maps::nested_maps m;
  auto key = [](char c, int i) {
    return std::string(1, c) + "-key-long-enough-to-allocate-" + std::to_string(i);
  };
  for (int i = 0; i < 40; ++i) {
    m.before[key('b', i)] = i;
    m.after[key('a', i)] = -i;
    auto& inner = m.tree[key('t', i)];
    for (int j = 0; j < i % 5; ++j) inner[key('i', j)] = std::int64_t{i} * 1000 + j;
    m.hashed[key('h', i)][key('x', i)] = i;
    m.pairs_of_trees.emplace_back(key('p', i % 3), std::map<std::string, int>{{key('y', i), i}});
  }
  m.list.resize(3);
  m.list[1][key('l', 1)] = "one";
  m.list[2][key('l', 2)] = "two";
  m.maybe = std::map<std::string, std::int32_t>{{"m", 7}};
  return m;
}

// The same entries, in the same order, as a generic document: what encode must write.
template <class Map, class F>
bsongen::document as_document(const Map& map, F&& value) {
  bsongen::document d;
  for (const auto& [k, v] : map) d.append(k, value(v));
  return d;
}

TEST(map_codec, node_based_maps_nested_in_any_container_encode_their_entries_in_order) {
  const gen_maps::nested_maps m = some_nested_maps();
  auto plain = [](const auto& v) { return bsongen::value(v); };
  auto inner = [&](const auto& v) { return bsongen::value(as_document(v, plain)); };
  bsongen::document expected;
  expected.append("before", as_document(m.before, plain));
  expected.append("tree", as_document(m.tree, inner));
  expected.append("hashed", as_document(m.hashed, inner));
  expected.append("pairs_of_trees", as_document(m.pairs_of_trees, inner));
  bsongen::array list;
  for (const auto& entry : m.list) list.push_back(as_document(entry, plain));
  expected.append("list", std::move(list));
  expected.append("maybe", as_document(m.maybe.value(), plain));
  expected.append("after", as_document(m.after, plain));
  EXPECT_EQ(encode_ok(m), bsongen::test::generic_encoding(expected.ref()));
  // And into a caller's buffer, and after the struct changed: each encode records anew.
  std::vector<std::uint8_t> buffer(encode_ok(m).size());
  bsongen::writer w{std::span<std::uint8_t>(buffer)};
  ASSERT_TRUE(bsongen::encode(m, w));
  EXPECT_EQ(buffer, encode_ok(m));
  gen_maps::nested_maps changed = m;
  changed.tree.erase(changed.tree.begin());
  changed.skipped["now"] = 1;
  EXPECT_EQ(decode_ok<gen_maps::nested_maps>(encode_ok(changed)).tree, changed.tree);
  EXPECT_EQ(decode_ok<gen_maps::nested_maps>(encode_ok(changed)).skipped, changed.skipped);
}

TEST(map_codec_hostile, truncated_and_corrupted_documents_fail_cleanly) {
  gen_maps::maps m;
  m.sorted = {{"a", 1}, {"b", 2}};
  m.unordered = {{"c", 3}};
  m.in_order = {{"z", 4}, {"z", 5}};
  m.points = {{"p", {6, 7}}};
  m.labels = {{"l", "label"}};
  m.anything = {{"v", bsongen::value(bsongen::document{{"k", 1.5}})}};
  const bytes doc = encode_ok(m);
  for (std::size_t n = 0; n < doc.size(); ++n) {
    const std::span<const std::uint8_t> prefix(doc.data(), n);
    EXPECT_FALSE(bsongen::decode<gen_maps::maps>(prefix)) << "prefix of " << n << " bytes";
  }
  gen_maps::maps reused;
  for (std::size_t i = 0; i < doc.size(); ++i) {
    for (const std::uint8_t flip : {std::uint8_t{0x01}, std::uint8_t{0x80}, std::uint8_t{0xff}}) {
      bytes corrupted = doc;
      corrupted[i] ^= flip;
      if (auto r = bsongen::decode<gen_maps::maps>(corrupted)) {
        EXPECT_TRUE(bsongen::encode(*r)) << "byte " << i;
      }
      static_cast<void>(bsongen::decode(corrupted, reused));
    }
  }
}

}  // namespace
