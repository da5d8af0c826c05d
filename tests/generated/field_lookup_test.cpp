// detail::find_field, the key lookup of generated struct decoders for elements out of schema
// order: an open-addressing table built at compile time (make_key_index) over each key's first
// and last 8 bytes and size. Keys shorter than, equal to and longer than 8 bytes; keys sharing
// their first 8 bytes, or their first and last 8 bytes and size (they share a slot and probe on);
// prefixes of schema keys and keys a schema key is a prefix of; bytes above 0x7F. Every schema key
// must be found, every other key not, whether its head comes from key_head or from the key in
// place in a document.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "bsongen/detail/struct_table.hpp"

namespace {

using bsongen::detail::find_field;
using bsongen::detail::key_head;
using bsongen::detail::key_head_in_place;
using bsongen::detail::make_key_index;
using bsongen::detail::struct_table;

constexpr std::string_view keys[] = {"_id", "a", "created", "created_", "created_at", "created_by",
                                     "created_by_x", "metadata.a", "metadata.b", "metadata.ab",
                                     "f03_ratio", "f03_rati", "property_001", "property_002",
                                     "property_010", "property_100",
                                     // Same first and last 8 bytes and size: one slot, probed on.
                                     "attribute_1_of_the_record", "attribute_2_of_the_record",
                                     "attribute_3_of_the_record", "x\xc3\xa9", "\xe2\x82\xac"};
constexpr std::size_t count = std::size(keys);
constexpr auto index = make_key_index<count>(keys);

struct_table table_of(const std::string_view* k, const std::uint16_t* slots, unsigned shift,
                      std::uint32_t n) {
  return {k,     slots,   shift,   nullptr, n, bsongen::detail::unknown_policy::skip,
          false, nullptr, nullptr, nullptr};
}

// The index of `key` found both ways: its head from key_head, and in place, as decode reads it
// from a document (the key, its NUL and more bytes after).
std::size_t lookup(const struct_table& table, const std::string& key) {
  const std::size_t by_head = find_field(table, key, key_head(key));
  std::string in_document = key + std::string(1, '\0') + "\xff\xff\xff\xff\xff\xff\xff\xff";
  const auto* k = reinterpret_cast<const std::uint8_t*>(in_document.data());
  EXPECT_EQ(key_head_in_place(k, key.size()), key_head(key)) << key;
  const std::size_t in_place =
      find_field(table, {in_document.data(), key.size()}, key_head_in_place(k, key.size()));
  EXPECT_EQ(by_head, in_place) << key;
  return by_head;
}

TEST(field_lookup, the_index_has_room_to_spare) {
  EXPECT_GE(index.slots.size(), 2 * count);
  const auto used = static_cast<std::size_t>(
      std::count_if(index.slots.begin(), index.slots.end(), [](auto s) { return s != 0; }));
  EXPECT_EQ(used, count);
}

TEST(field_lookup, finds_every_key_and_nothing_else) {
  const struct_table table = table_of(keys, index.slots.data(), index.shift, count);
  for (std::size_t i = 0; i < count; ++i) EXPECT_EQ(lookup(table, std::string(keys[i])), i) << i;
  const std::vector<std::string> absent = {"",
                                           "_",
                                           "_i",
                                           "_idx",
                                           "b",
                                           "create",
                                           "created_a",
                                           "created_c",
                                           "created_by_",
                                           "created_by_xy",
                                           "metadata.",
                                           "metadata.c",
                                           "metadata",
                                           "f03_rat",
                                           "f03_ratio_",
                                           "property_000",
                                           "property_011",
                                           "property_1000",
                                           "attribute_4_of_the_record",
                                           "attribute_1_of_the_recor",
                                           "x\xc3",
                                           "\xff"};
  for (const std::string& key : absent) EXPECT_EQ(lookup(table, key), count) << key;
}

TEST(field_lookup, one_key_and_no_key) {
  static constexpr std::string_view one[] = {"only_one_key"};
  static constexpr auto one_index = make_key_index<1>(one);
  const struct_table with_one = table_of(one, one_index.slots.data(), one_index.shift, 1);
  EXPECT_EQ(lookup(with_one, "only_one_key"), 0U);
  EXPECT_EQ(lookup(with_one, "only_one_kex"), 1U);
  // A struct without fields: the generated keys table holds one empty key, the index none.
  static constexpr std::string_view none[] = {""};
  static constexpr auto no_index = make_key_index<0>(none);
  const struct_table without = table_of(none, no_index.slots.data(), no_index.shift, 0);
  EXPECT_EQ(lookup(without, "key"), 0U);
  EXPECT_EQ(lookup(without, ""), 0U);
}

}  // namespace
