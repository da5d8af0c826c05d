// Hostile Extended JSON found by extjson_parse_fuzz, kept as regressions: each text must parse
// to valid BSON that prints and re-parses to the same bytes.

#include "bsongen/extjson.hpp"

#include <gtest/gtest.h>

#include <string>

namespace bsongen {
namespace {

void expect_round_trip(const std::string& text) {
  SCOPED_TRACE(text);
  auto bytes = extjson_to_bson(text);
  ASSERT_TRUE(bytes) << bytes.error().to_string();
  auto doc = decode_document(bytes->span());
  ASSERT_TRUE(doc) << doc.error().to_string();
  auto parsed = parse_extjson(text);
  ASSERT_TRUE(parsed) << parsed.error().to_string();
  EXPECT_EQ(*parsed, *doc);
  const std::string canonical = to_extjson(*doc, extjson_mode::canonical);
  auto again = extjson_to_bson(canonical);
  ASSERT_TRUE(again) << again.error().to_string();
  EXPECT_EQ(again->to_vector(), bytes->to_vector()) << canonical;
}

TEST(hostile_extjson, non_ascii_regex_options_are_not_split_by_sorting) {
  // Options "i\u1615": sorting the bytes of U+1615 (E1 98 95) made invalid UTF-8 in the BSON.
  expect_round_trip(R"({"a": {"$regularExpression": {"pattern": "b", "options": "i\u1615"}}})");
  expect_round_trip(R"({"a": {"$regex": "b", "$options": "\u00e9x"}})");
}

TEST(hostile_extjson, ascii_regex_options_are_still_sorted) {
  auto bytes = extjson_to_bson(R"({"a": {"$regularExpression": {"pattern": "b", "options": "xmi"}}})");
  ASSERT_TRUE(bytes);
  auto doc = decode_document(bytes->span());
  ASSERT_TRUE(doc);
  EXPECT_EQ((*doc)["a"].as_regex().options, "imx");
}

}  // namespace
}  // namespace bsongen
