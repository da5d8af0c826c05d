// Extended JSON: the writer's forms, the parser's mapping, its errors (code, path, offset), and
// the shortest round-trip doubles.

#include "bsongen/extjson.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace bsongen {
namespace {

std::string canonical(const document& d) { return to_extjson(d.ref(), extjson_mode::canonical); }
std::string relaxed(const document& d) { return to_extjson(d.ref(), extjson_mode::relaxed); }

std::string format(double v) {
  char buffer[detail::max_double_chars];
  return std::string(buffer, detail::format_double(v, buffer));
}

// Parses `json` and expects an error of `code` at `path`, returning it for further checks.
error expect_error(std::string_view json, error_code code, std::string_view path = {}) {
  auto r = extjson_to_bson(json);
  EXPECT_FALSE(r) << json << " was accepted";
  if (r) return {};
  EXPECT_EQ(r.error().code, code) << r.error().to_string();
  EXPECT_EQ(r.error().path, path) << r.error().to_string();
  EXPECT_FALSE(r.error().message.empty());
  EXPECT_LE(r.error().offset, json.size());
  return r.error();
}

TEST(extjson_writer, canonical_keeps_every_type) {
  const document d{{"i", 1},
                   {"l", std::int64_t{2}},
                   {"d", 1.5},
                   {"s", "x"},
                   {"b", true},
                   {"n", nullptr},
                   {"o", object_id::from_hex("56e1fc72e0c917e9c4714161").value()},
                   {"t", datetime(std::chrono::milliseconds(1356351330501))},
                   {"ts", timestamp{123456789, 42}},
                   {"r", regex{"ab", "mi"}},
                   {"bin", binary{{0xFF, 0xFF}, binary_subtype::generic}},
                   {"dec", decimal128::from_string("1.5").value()},
                   {"min", min_key{}},
                   {"max", max_key{}},
                   {"a", array{1, "two"}},
                   {"doc", document{{"k", undefined{}}}}};
  EXPECT_EQ(
      canonical(d),
      R"({"i":{"$numberInt":"1"},"l":{"$numberLong":"2"},"d":{"$numberDouble":"1.5"},"s":"x",)"
      R"("b":true,"n":null,"o":{"$oid":"56e1fc72e0c917e9c4714161"},)"
      R"("t":{"$date":{"$numberLong":"1356351330501"}},"ts":{"$timestamp":{"t":123456789,"i":42}},)"
      R"("r":{"$regularExpression":{"pattern":"ab","options":"im"}},)"
      R"("bin":{"$binary":{"base64":"//8=","subType":"00"}},"dec":{"$numberDecimal":"1.5"},)"
      R"("min":{"$minKey":1},"max":{"$maxKey":1},"a":[{"$numberInt":"1"},"two"],)"
      R"("doc":{"k":{"$undefined":true}}})");
}

TEST(extjson_writer, relaxed_uses_plain_numbers_and_iso_dates_in_range) {
  const document d{{"i", 1},
                   {"l", std::int64_t{1} << 40},
                   {"d", 1.0},
                   {"nan", std::numeric_limits<double>::quiet_NaN()},
                   {"inf", -std::numeric_limits<double>::infinity()},
                   {"epoch", datetime(std::chrono::milliseconds(0))},
                   {"ms", datetime(std::chrono::milliseconds(1356351330001))},
                   {"before_1970", datetime(std::chrono::milliseconds(-1))},
                   {"y10k", datetime(std::chrono::milliseconds(253402300800000))}};
  EXPECT_EQ(relaxed(d),
            R"({"i":1,"l":1099511627776,"d":1.0,"nan":{"$numberDouble":"NaN"},)"
            R"("inf":{"$numberDouble":"-Infinity"},"epoch":{"$date":"1970-01-01T00:00:00Z"},)"
            R"("ms":{"$date":"2012-12-24T12:15:30.001Z"},)"
            R"("before_1970":{"$date":{"$numberLong":"-1"}},)"
            R"("y10k":{"$date":{"$numberLong":"253402300800000"}}})");
}

TEST(extjson_writer, escapes_what_json_strings_cannot_hold) {
  const document d{{"k\"\\", std::string("a\0b\x01\n\t\x1f\xc3\xa9", 9)}};
  EXPECT_EQ(relaxed(d), R"({"k\"\\":"a\u0000b\u0001\n\t\u001f)"
                        "\xc3\xa9"
                        R"("})");
}

TEST(extjson_writer, view_and_document_write_the_same_text) {
  const document d{
      {"a", array{1, document{{"b", 2.5}}, javascript_with_scope{"f()", to_raw_document(document{{"x", 1}})}}},
      {"c", db_pointer{"ns", object_id::from_hex("56e1fc72e0c917e9c4714161").value()}},
      {"s", symbol{"sym"}},
      {"js", javascript{"g()"}}};
  const byte_buffer bytes = encode_document(d.ref());
  const auto view = document_view::from_bytes(bytes);
  ASSERT_TRUE(view);
  for (const extjson_mode mode : {extjson_mode::canonical, extjson_mode::relaxed}) {
    EXPECT_EQ(to_extjson(*view, mode), to_extjson(d.ref(), mode));
  }
  EXPECT_EQ(relaxed(d),
            R"j({"a":[1,{"b":2.5},{"$code":"f()","$scope":{"x":1}}],)j"
            R"j("c":{"$dbPointer":{"$ref":"ns","$id":{"$oid":"56e1fc72e0c917e9c4714161"}}},)j"
            R"j("s":{"$symbol":"sym"},"js":{"$code":"g()"}})j");
}

TEST(extjson_doubles, print_shortest_round_trip_in_the_corpus_forms) {
  EXPECT_EQ(format(1.0), "1.0");
  EXPECT_EQ(format(-0.0), "-0.0");
  EXPECT_EQ(format(0.0), "0.0");
  EXPECT_EQ(format(0.1), "0.1");
  EXPECT_EQ(format(1.0001220703125), "1.0001220703125");
  EXPECT_EQ(format(1.2345678921232e18), "1.2345678921232E+18");
  EXPECT_EQ(format(-1.2345678921232e18), "-1.2345678921232E+18");
  EXPECT_EQ(format(1e15), "1000000000000000.0");
  EXPECT_EQ(format(1e16), "1E+16");
  EXPECT_EQ(format(0.0001), "0.0001");
  EXPECT_EQ(format(0.00001), "1E-5");
  EXPECT_EQ(format(5e-324), "5E-324");
  EXPECT_EQ(format(std::numeric_limits<double>::max()), "1.7976931348623157E+308");
  EXPECT_EQ(format(123.456), "123.456");
}

TEST(extjson_doubles, every_printed_double_parses_back_to_the_same_bits) {
  std::mt19937_64 rng(20261130);
  for (int i = 0; i < 20000; ++i) {
    const std::uint64_t bits = rng();
    double v;
    std::memcpy(&v, &bits, sizeof v);
    if (!std::isfinite(v)) continue;
    const std::string text = format(v);
    double back = 0;
    ASSERT_EQ(std::sscanf(text.c_str(), "%lf", &back), 1) << text;
    ASSERT_EQ(std::memcmp(&v, &back, sizeof v), 0) << text;
    // And through the parser, relaxed form.
    auto bytes = extjson_to_bson(R"({"d":)" + text + "}");
    ASSERT_TRUE(bytes) << text;
    const auto view = document_view::from_bytes(*bytes);
    ASSERT_TRUE(view);
    const double parsed = (*view)["d"].as_double();
    ASSERT_EQ(std::memcmp(&v, &parsed, sizeof v), 0) << text;
  }
}

TEST(extjson_parser, relaxed_numbers_take_the_narrowest_type) {
  auto doc =
      parse_extjson(R"({"a": 1, "b": -2147483649, "c": 1.0, "d": 1e2, "e": 18446744073709551615,
                               "f": 123456789012345678901234567890, "g": -0})");
  ASSERT_TRUE(doc) << doc.error().to_string();
  EXPECT_EQ((*doc)["a"].type(), bson_type::int32);
  EXPECT_EQ((*doc)["b"].as_int64(), -2147483649LL);
  EXPECT_EQ((*doc)["c"].as_double(), 1.0);
  EXPECT_EQ((*doc)["d"].as_double(), 100.0);
  EXPECT_EQ((*doc)["e"].as_double(), 18446744073709551615.0);
  EXPECT_EQ((*doc)["f"].as_double(), 1.2345678901234568e29);
  EXPECT_EQ((*doc)["g"].type(), bson_type::int32);
}

TEST(extjson_parser, base64_takes_every_padding_and_rejects_misplaced_padding) {
  auto payload = [](std::string_view base64) -> std::optional<std::vector<std::uint8_t>> {
    auto doc = parse_extjson(R"({"b": {"$binary": {"base64": ")" + std::string(base64) +
                             R"(", "subType": "00"}}})");
    if (!doc) return std::nullopt;
    const binary_view b = (*doc)["b"].as_binary();
    return std::vector<std::uint8_t>(b.bytes.begin(), b.bytes.end());
  };
  EXPECT_EQ(payload(""), std::vector<std::uint8_t>{});
  EXPECT_EQ(payload("AQ=="), (std::vector<std::uint8_t>{1}));
  EXPECT_EQ(payload("AQI="), (std::vector<std::uint8_t>{1, 2}));
  EXPECT_EQ(payload("AQID"), (std::vector<std::uint8_t>{1, 2, 3}));
  EXPECT_EQ(payload("AQIDBA=="), (std::vector<std::uint8_t>{1, 2, 3, 4}));
  for (const char* bad : {"A", "AQ=", "A===", "====", "AQ=I", "AQ==AQ==", "AQI*", "AQ\u00e9="}) {
    EXPECT_FALSE(payload(bad)) << bad;
  }
}

TEST(extjson_parser, keeps_key_order_and_duplicates) {
  auto doc = parse_extjson(R"({"z": 1, "a": 2, "z": 3})");
  ASSERT_TRUE(doc);
  ASSERT_EQ(doc->size(), 3u);
  EXPECT_EQ(doc->at(0).key(), "z");
  EXPECT_EQ(doc->at(1).key(), "a");
  EXPECT_EQ(doc->at(2).as_int32(), 3);
}

TEST(extjson_parser, reads_legacy_and_relaxed_forms) {
  auto doc = parse_extjson(R"({"bin": {"$binary": "//8=", "$type": "80"},
                               "re": {"$options": "xi", "$regex": "^a"},
                               "uuid": {"$uuid": "73ffd264-44b3-4c69-90e8-e7d1dfc035d4"},
                               "date": {"$date": "2012-12-24T13:15:30.501+01:00"},
                               "date2": {"$date": "1970-01-01T00:00:00.5Z"}})");
  ASSERT_TRUE(doc) << doc.error().to_string();
  EXPECT_EQ((*doc)["bin"].as_binary().subtype, binary_subtype::user_defined);
  EXPECT_EQ((*doc)["bin"].as_binary().bytes.size(), 2u);
  EXPECT_EQ((*doc)["re"].as_regex().pattern, "^a");
  EXPECT_EQ((*doc)["re"].as_regex().options, "ix");
  EXPECT_EQ((*doc)["uuid"].as_binary().subtype, binary_subtype::uuid);
  EXPECT_EQ((*doc)["date"].as_datetime().time_since_epoch().count(), 1356351330501);
  EXPECT_EQ((*doc)["date2"].as_datetime().time_since_epoch().count(), 500);
}

TEST(extjson_parser, leaves_dbref_and_query_operators_as_documents) {
  auto doc =
      parse_extjson(R"({"ref": {"$ref": "c", "$id": 1}, "q": {"$type": "string"},)"
                    R"( "r": {"$regex": {"$regularExpression": {"pattern": "p", "options": ""}},)"
                    R"( "$options": "i"}})");
  ASSERT_TRUE(doc) << doc.error().to_string();
  EXPECT_TRUE((*doc)["ref"].is_document());
  EXPECT_EQ((*doc)["q"]["$type"].as_string(), "string");
  EXPECT_EQ((*doc)["r"]["$regex"].type(), bson_type::regex);
  EXPECT_EQ((*doc)["r"]["$options"].as_string(), "i");
}

TEST(extjson_parser, writes_straight_into_a_writer_and_appends) {
  writer out;
  out.put_u8(0xAB);
  ASSERT_TRUE(extjson_to_bson(R"({"a": "b"})", out));
  const byte_buffer expected = encode_document(document{{"a", "b"}}.ref());
  ASSERT_EQ(out.size(), 1 + expected.size());
  EXPECT_EQ(std::memcmp(out.data() + 1, expected.data(), expected.size()), 0);
  // A failed parse leaves the writer as it was.
  EXPECT_FALSE(extjson_to_bson(R"({"a": {"$numberInt": "x"}})", out));
  EXPECT_EQ(out.size(), 1 + expected.size());
}

TEST(extjson_parser, a_caller_buffer_too_small_is_an_error_not_an_overrun) {
  std::uint8_t buffer[16];
  writer out(buffer);
  auto r = extjson_to_bson(R"({"key": "a string longer than sixteen bytes"})", out);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::buffer_too_small);
}

TEST(extjson_parser, prefix_reads_one_document_of_several) {
  const std::string text = "  {\"a\": 1}\n{\"b\": \"}\"}{\"c\": [3]}";
  writer out;
  auto first = extjson_to_bson_prefix(text, out);
  ASSERT_TRUE(first) << first.error().to_string();
  EXPECT_EQ(*first, text.find('}') + 1);
  std::size_t pos = *first;
  auto second = extjson_to_bson_prefix(std::string_view(text).substr(pos), out);
  ASSERT_TRUE(second);
  pos += *second;
  auto third = extjson_to_bson_prefix(std::string_view(text).substr(pos), out);
  ASSERT_TRUE(third);
  EXPECT_EQ(pos + *third, text.size());
}

TEST(extjson_errors, wrappers_name_the_problem_the_path_and_the_offset) {
  const error e =
      expect_error(R"({"a": [1, {"b": {"$numberInt": 42}}]})", error_code::json_invalid, "a.1.b");
  EXPECT_NE(e.message.find("$numberInt"), std::string::npos);
  EXPECT_EQ(e.offset, std::string_view(R"({"a": [1, {"b": )").size());  // the wrapper's '{'

  expect_error(R"({"x": {"$oid": "56e1fc72e0c917e9c4714161", "y": 1}})", error_code::json_invalid,
               "x");
  expect_error(R"({"x": {"$date": 42}})", error_code::json_invalid, "x");
  expect_error(R"({"x": {"$date": 4200000000000}})", error_code::json_invalid, "x");
  expect_error(R"({"x": {"$date": "2012-13-24T12:15:30Z"}})", error_code::json_invalid, "x");
  expect_error(R"({"x": {"$binary": {"base64": "//8", "subType": "00"}}})",
               error_code::json_invalid, "x");
  expect_error(R"({"x": {"$binary": "//8="}})", error_code::json_invalid, "x");
  expect_error(R"({"x": {"$scope": {}}})", error_code::json_invalid, "x");
  expect_error(R"({"x": {"$timestamp": {"t": -1, "i": 1}}})", error_code::json_invalid, "x");
  expect_error(R"({"x": {"$numberLong": "9223372036854775808"}})", error_code::json_invalid, "x");
  expect_error(R"({"x": {"$numberDouble": "inf"}})", error_code::json_invalid, "x");
  expect_error(R"({"x": {"$numberDecimal": "1.2.3"}})", error_code::json_invalid, "x");
  expect_error(R"({"$oid": "56e1fc72e0c917e9c4714161"})", error_code::json_invalid);
}

TEST(extjson_errors, malformed_json_is_a_syntax_error_at_its_place) {
  EXPECT_EQ(expect_error(R"({"a": tru})", error_code::json_syntax, "a").offset, 6u);
  expect_error(R"({"a": 1,})", error_code::json_syntax);
  expect_error(R"({"a": [1, 2)", error_code::json_syntax);
  expect_error(R"({"a": 01})", error_code::json_syntax, "a");
  EXPECT_EQ(expect_error(R"({"a": 1} {"b": 2})", error_code::json_syntax).offset, 9u);
  expect_error("", error_code::json_syntax);
  EXPECT_EQ(expect_error("{\"a\": \"\xC3\x28\"}", error_code::json_syntax).offset,
            7u);                                               // bad UTF-8
  expect_error("{\"a\": \"x\ty\"}", error_code::json_syntax);  // raw control character
}

TEST(extjson_errors, non_objects_nul_keys_and_limits) {
  expect_error("[1, 2]", error_code::json_invalid);
  expect_error("\"text\"", error_code::json_invalid);
  expect_error(R"({"a\u0000b": 1})", error_code::json_invalid);
  expect_error(R"({"x": {"$regularExpression": {"pattern": "a\u0000", "options": ""}}})",
               error_code::json_invalid, "x");

  std::string deep;
  for (int i = 0; i < 200; ++i) deep += R"({"a":)";
  deep += "1";
  for (int i = 0; i < 200; ++i) deep += "}";
  // 128 objects open; the 129th, the value of the 128th "a", is one too many.
  std::string path = "a";
  for (int i = 1; i < 128; ++i) path += ".a";
  expect_error(deep, error_code::too_deep, path);

  extjson_parse_options small;
  small.max_size = 32;
  auto r =
      extjson_to_bson(R"({"a": "a string that makes the document longer than 32 bytes"})", small);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::too_large);
}

TEST(extjson_errors, deep_nesting_stops_at_the_cap_whatever_the_option_says) {
  extjson_parse_options unlimited;
  unlimited.max_depth = std::numeric_limits<std::size_t>::max();
  const std::string deep = "{\"a\":" + std::string(100000, '[') + std::string(100000, ']') + "}";
  auto r = extjson_to_bson(deep, unlimited);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::too_deep);
}

// Hostile text: every prefix of a document full of wrappers, and random byte mutations of it,
// must give a document or an error within the text, never a crash; and whatever parses must be
// valid BSON whose canonical text parses back to the same bytes.
TEST(extjson_errors, truncated_and_mutated_text_is_rejected_or_round_trips) {
  const std::string text =
      R"j({"_id": {"$oid": "56e1fc72e0c917e9c4714161"}, "s": "a\"b\u00e9",)j"
      R"j( "n": [1, -2.5e3, 9223372036854775807], "d": {"$date": "2012-12-24T12:15:30.501Z"},)j"
      R"j( "b": {"$binary": {"base64": "AQID", "subType": "80"}},)j"
      R"j( "r": {"$regularExpression": {"pattern": "^x", "options": "i"}},)j"
      R"j( "t": {"$timestamp": {"t": 1, "i": 2}},)j"
      R"j( "c": {"$code": "f()", "$scope": {"x": {"$numberLong": "3"}}},)j"
      R"j( "m": {"$minKey": 1}, "z": null})j";
  ASSERT_TRUE(extjson_to_bson(text)) << extjson_to_bson(text).error().to_string();
  auto check = [](const std::string& input) {
    auto r = extjson_to_bson(input);
    if (!r) {
      EXPECT_LE(r.error().offset, input.size()) << input;
      EXPECT_FALSE(r.error().message.empty());
      return;
    }
    const auto view = document_view::from_bytes(*r);
    ASSERT_TRUE(view) << input << ": " << view.error().to_string();
    auto again = extjson_to_bson(to_extjson(*view, extjson_mode::canonical));
    ASSERT_TRUE(again) << input;
    EXPECT_TRUE(*again == *r) << input;
  };
  for (std::size_t n = 0; n < text.size(); ++n) check(text.substr(0, n));
  std::mt19937 rng(7);
  const std::string alphabet = "{}[]\":,\\$0123456789.eE-+ abtnu\x01\xff\xc3";
  for (int i = 0; i < 20000; ++i) {
    std::string mutated = text;
    for (int k = 0; k < 3; ++k) {
      mutated[rng() % mutated.size()] = alphabet[rng() % alphabet.size()];
    }
    check(mutated);
  }
}

}  // namespace
}  // namespace bsongen
