// detail::find_field, the key search of generated struct decoders for elements out of schema
// order: it compares keys' first 8 bytes as integers (key_head) and the bytes after only on a
// tie. Keys shorter than, equal to and longer than 8 bytes; keys sharing their first 8 bytes and
// differing after; prefixes of schema keys and keys a schema key is a prefix of; bytes above 0x7F
// (ordered unsigned, as the generator sorts them). Every schema key must be found, every other
// key not.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bsongen/detail/codec_support.hpp"

namespace {

using bsongen::detail::field_key;
using bsongen::detail::find_field;
using bsongen::detail::key_head;

// The keys in the order the generator writes `sorted` (by their bytes, unsigned). The entries
// point into `keys`, which must outlive the table.
std::vector<field_key> sorted_table(const std::vector<std::string>& keys) {
  std::vector<field_key> table;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    table.emplace_back(keys[i], static_cast<std::uint32_t>(i));
  }
  std::sort(table.begin(), table.end(),
            [](const field_key& a, const field_key& b) { return a.key < b.key; });
  return table;
}

TEST(field_lookup, heads_order_as_keys_do) {
  constexpr std::string_view ordered[] = {"",         "a",         "ab",        "abcdefg",
                                          "abcdefgh", "abcdefgh0", "abcdefgh1", "abcdefgi",
                                          "b",        "\x7f",      "\x80",      "\xff\xff"};
  for (std::size_t i = 0; i + 1 < std::size(ordered); ++i) {
    EXPECT_LE(key_head(ordered[i]), key_head(ordered[i + 1])) << i;
  }
  // At compile time (the generated tables) and at run time (the element's key) alike.
  constexpr std::uint64_t compiled = key_head("created_at");
  const std::string run_time = "created_at";
  EXPECT_EQ(compiled, key_head(run_time));
  EXPECT_EQ(key_head("abc"), key_head(std::string("abc")));
}

TEST(field_lookup, finds_every_key_and_nothing_else) {
  const std::vector<std::string> keys = {"_id",          "a",
                                         "created",      "created_",
                                         "created_at",   "created_by",
                                         "created_by_x", "metadata.a",
                                         "metadata.b",   "metadata.ab",
                                         "f03_ratio",    "f03_rati",
                                         "property_001", "property_002",
                                         "property_010", "property_100",
                                         "x\xc3\xa9",    "\xe2\x82\xac"};
  const std::vector<field_key> table = sorted_table(keys);
  const std::size_t none = keys.size();
  for (std::size_t i = 0; i < keys.size(); ++i) {
    EXPECT_EQ(find_field(table, keys[i], none), i) << keys[i];
  }
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
                                           "x\xc3",
                                           "\xff"};
  for (const std::string& key : absent) EXPECT_EQ(find_field(table, key, none), none) << key;
}

TEST(field_lookup, one_key_and_no_key) {
  const std::vector<std::string> keys = {"only_one_key"};
  const std::vector<field_key> one = sorted_table(keys);
  EXPECT_EQ(find_field(one, "only_one_key", 1), 0U);
  EXPECT_EQ(find_field(one, "only_one_kex", 1), 1U);
  EXPECT_EQ(find_field(std::span<const field_key>{}, "key", 0), 0U);
}

}  // namespace
