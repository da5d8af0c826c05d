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
  const document d{{"a", array{1, document{{"b", 2.5}},
                               javascript_with_scope{"f()", to_raw_document(document{{"x", 1}})}}},
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

// A BSON document holding a type wrapper's key cannot be written as Extended JSON that reads back
// as it (the specification has no escape for a leading '$'). check_extjson_round_trip says which,
// and the rule is checked against the parser: what it flags does not read back, what it passes
// does, in both modes.
TEST(extjson_round_trip_check, flags_exactly_the_documents_that_do_not_read_back) {
  const object_id oid = object_id::from_hex("56e1fc72e0c917e9c4714161").value();
  struct lookalike {
    document doc;
    const char* path;
  };
  const std::vector<lookalike> flagged = {
      {document{{"a", document{{"$regex", "x"}, {"$options", ""}}}}, "a.$regex"},
      {document{{"a", document{{"$regex", "x"}}}}, "a.$regex"},
      {document{{"a", document{{"$oid", "zz"}}}}, "a.$oid"},
      {document{{"a", document{{"$oid", "56e1fc72e0c917e9c4714161"}}}}, "a.$oid"},
      {document{{"a", document{{"$numberInt", "5"}}}}, "a.$numberInt"},
      {document{{"a", document{{"$numberLong", "5"}}}}, "a.$numberLong"},
      {document{{"a", document{{"$date", document{{"$numberLong", "5"}}}}}}, "a.$date"},
      {document{{"a", document{{"x", 1}, {"$date", 5}}}}, "a.$date"},  // not first
      {document{
           {"a", document{{"$regularExpression", document{{"pattern", "x"}, {"options", ""}}}}}},
       "a.$regularExpression"},
      {document{{"a", document{{"$code", "f()"}, {"$scope", document{}}}}}, "a.$code"},
      {document{{"a", document{{"$scope", document{}}}}}, "a.$scope"},
      {document{{"a", document{{"$binary", "AAE="}, {"$type", "00"}}}}, "a.$binary"},
      {document{{"a", document{{"$uuid", "c8edabc3-f738-4ca3-b68d-ab92a91478a3"}}}}, "a.$uuid"},
      {document{{"a", document{{"$minKey", 1}}}}, "a.$minKey"},
      {document{{"a", document{{"$undefined", true}}}}, "a.$undefined"},
      {document{{"a", document{{"$timestamp", document{{"t", 1}, {"i", 1}}}}}}, "a.$timestamp"},
      {document{{"a", document{{"$dbPointer", document{{"$ref", "c"}, {"$id", oid}}}}}},
       "a.$dbPointer"},
      {document{{"$oid", "zz"}}, "$oid"},  // the top level
      {document{{"a", array{1, document{{"$symbol", "s"}}}}}, "a.1.$symbol"},
      {document{{"a", javascript_with_scope{"f()", to_raw_document(document{{"$maxKey", 1}})}}},
       "a.$maxKey"},
      {document{{"a", document{{"b", document{{"$numberDouble", "1"}}}}}}, "a.b.$numberDouble"},
  };
  const std::vector<document> passed = {
      document{{"dbref", document{{"$ref", "c"}, {"$id", 1}, {"$db", "d"}}}},
      document{{"query", document{{"$type", "string"}}}},
      document{{"operator", document{{"$regex", regex{"p", ""}}, {"$options", "i"}}}},
      document{{"options", document{{"$options", "i"}}}},
      document{{"other", document{{"$a", "b"}, {"$", 1}, {"$numberint", "5"}, {"oid", 1}}}},
      document{{"$key", 42}},
      document{{"a", array{document{{"$in", array{1, 2}}}}}},
  };
  auto reads_back = [](const document& d, extjson_mode mode) {
    auto back = extjson_to_bson(to_extjson(d.ref(), mode));
    if (!back) return false;
    const byte_buffer bytes = encode_document(d.ref());
    return std::vector<std::uint8_t>(back->span().begin(), back->span().end()) ==
           std::vector<std::uint8_t>(bytes.span().begin(), bytes.span().end());
  };
  for (const lookalike& l : flagged) {
    SCOPED_TRACE(canonical(l.doc));
    const auto checked = check_extjson_round_trip(l.doc.ref());
    ASSERT_FALSE(checked);
    EXPECT_EQ(checked.error().code, error_code::invalid_value);
    EXPECT_EQ(checked.error().path, l.path);
    const byte_buffer bytes = encode_document(l.doc.ref());
    const auto view = document_view::from_bytes(bytes);
    ASSERT_TRUE(view);
    const auto from_view = check_extjson_round_trip(*view);
    ASSERT_FALSE(from_view);
    EXPECT_EQ(from_view.error().path, l.path);
    EXPECT_FALSE(reads_back(l.doc, extjson_mode::canonical)) << "flagged, yet it reads back";
  }
  for (const document& d : passed) {
    SCOPED_TRACE(canonical(d));
    EXPECT_TRUE(check_extjson_round_trip(d.ref()));
    const byte_buffer bytes = encode_document(d.ref());
    EXPECT_TRUE(check_extjson_round_trip(*document_view::from_bytes(bytes)));
    EXPECT_TRUE(reads_back(d, extjson_mode::canonical));
    EXPECT_TRUE(reads_back(d, extjson_mode::relaxed));
  }
  // The offset is that of the document holding the key, in the bytes checked.
  const document nested{{"n", 1}, {"a", document{{"$oid", "zz"}}}};
  const byte_buffer bytes = encode_document(nested.ref());
  const auto checked = check_extjson_round_trip(*document_view::from_bytes(bytes));
  ASSERT_FALSE(checked);
  EXPECT_EQ(checked.error().offset, 4u + 7u + 3u);  // length, "n" int32 element, "a" header
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

  // From a position: the same documents, each call returning where the next starts.
  writer again;
  std::size_t at = 0;
  for (int i = 0; i < 3; ++i) {
    auto end = extjson_to_bson_prefix(text, at, again);
    ASSERT_TRUE(end) << end.error().to_string();
    at = *end;
  }
  EXPECT_EQ(at, text.size());
  EXPECT_TRUE(std::ranges::equal(again.bytes(), out.bytes()));
}

// Errors from a position count from the start of the whole text, in the offset and in the
// message's own positions, as if the document had been read where it is.
TEST(extjson_parser, prefix_from_a_position_reports_positions_in_the_whole_text) {
  const std::string bad_value = R"({"a": 1} {"c": tru})";
  writer out;
  auto r = extjson_to_bson_prefix(bad_value, bad_value.find('}') + 1, out);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().offset, bad_value.find("tru"));
  EXPECT_EQ(r.error().path, "c");

  const std::string unclosed = R"({"a": 1} {"b": [1, 2)";
  r = extjson_to_bson_prefix(unclosed, unclosed.find('}') + 1, out);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().offset, unclosed.size());
  EXPECT_NE(
      r.error().message.find("array that opens at byte " + std::to_string(unclosed.find('['))),
      std::string::npos)
      << r.error().message;
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
  // 100 objects open (decode_options' default limit); the 101st, the value of the 100th "a", is
  // one too many, as it is for decode_document.
  std::string path = "a";
  for (int i = 1; i < 100; ++i) path += ".a";
  EXPECT_EQ(expect_error(deep, error_code::too_deep, path).offset, 500u);

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

// Issue 11 item 10: the limit counts BSON levels, as decode_options::max_depth does.
TEST(extjson_parser, depth_counts_the_levels_of_the_bson_not_of_the_json) {
  extjson_parse_options two;
  two.max_depth = 2;
  // Two levels of BSON, however many JSON objects write its values.
  for (const char* text : {
           R"({"a": {"b": 1}})",
           R"({"a": {"$date": {"$numberLong": "1"}}})",
           R"({"a": {"b": {"$date": {"$numberLong": "1"}}}})",
           R"({"a": {"b": {"$dbPointer": {"$ref": "c",)"
           R"( "$id": {"$oid": "56e1fc72e0c917e9c4714161"}}}}})",
           R"({"a": {"b": {"$binary": {"base64": "AQI=", "subType": "00"}}}})",
           R"({"a": {"b": {"$timestamp": {"t": 1, "i": 2}}}})",
           R"({"a": {"b": {"$regex": "p", "$options": "i"}}})",
           R"j({"a": {"$code": "f()", "$scope": {"x": {"$numberInt": "1"}}}})j",
           R"({"a": [{"$minKey": 1}, {"$numberLong": "5"}]})",
       }) {
    SCOPED_TRACE(text);
    auto r = extjson_to_bson(text, two);
    ASSERT_TRUE(r) << r.error().to_string();
    decode_options decode;
    decode.max_depth = 2;
    EXPECT_TRUE(decode_document(r->span(), decode));
  }
  // Three levels: a document, array or $scope one level further, or a query operator document
  // that stays a document.
  for (const char* text : {
           R"({"a": {"b": {}}})",
           R"({"a": {"b": []}})",
           R"({"a": [[1]]})",
           R"j({"a": {"$code": "f()", "$scope": {"x": {}}}})j",
           R"j({"a": {"$code": "f()", "$scope": {"x": {"$code": "g()", "$scope": {}}}}})j",
           R"({"a": {"b": {"$regex": {"$regularExpression": {"pattern": "p", "options": ""}},)"
           R"( "$options": "i"}}})",
           R"({"a": {"b": {"$ref": "c", "$id": 1}}})",
           R"({"a": {"b": {"$type": "string"}}})",
           R"({"a": {"b": {"$regex": {"$regularExpression": {"pattern": "p", "options": ""}}}}})",
       }) {
    SCOPED_TRACE(text);
    auto r = extjson_to_bson(text, two);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, error_code::too_deep) << r.error().to_string();
    extjson_parse_options three;
    three.max_depth = 3;
    auto deeper = extjson_to_bson(text, three);
    ASSERT_TRUE(deeper) << deeper.error().to_string();
    decode_options decode;
    decode.max_depth = 2;
    EXPECT_FALSE(decode_document(deeper->span(), decode));
  }
  // The error names the container that is one level too deep, where its '{' is.
  const std::string text = R"({"a": {"b": {"c": 1}}})";
  auto r = extjson_to_bson(text, two);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().path, "a.b");
  EXPECT_EQ(r.error().offset, text.find("{\"c\""));
  EXPECT_EQ(r.error().message, "nesting exceeds the depth limit of 2");
}

// Issue 11 item 12: wrappers are written as documents before they shrink to their value, which
// overflowed a caller buffer of exactly the size of the BSON.
TEST(extjson_parser, a_caller_buffer_of_exactly_the_bson_size_is_enough) {
  const std::string text =
      R"j({"_id": {"$oid": "56e1fc72e0c917e9c4714161"}, "n": {"$numberLong": "7"},)j"
      R"j( "d": {"$date": {"$numberLong": "1"}},)j"
      R"j( "b": {"$binary": {"base64": "AQID", "subType": "00"}},)j"
      R"j( "a": [{"$numberInt": "1"}, {"$minKey": 1}], "t": {"$timestamp": {"t": 1, "i": 2}}})j";
  auto expected = extjson_to_bson(text);
  ASSERT_TRUE(expected) << expected.error().to_string();
  const std::size_t n = expected->size();
  std::vector<std::uint8_t> buffer(n + 2);
  {
    writer out(std::span<std::uint8_t>(buffer.data(), n));
    auto r = extjson_to_bson(text, out);
    ASSERT_TRUE(r) << r.error().to_string();
    EXPECT_EQ(out.size(), n);
    EXPECT_FALSE(out.overflowed());
    EXPECT_EQ(std::memcmp(buffer.data(), expected->data(), n), 0);
  }
  {
    // After bytes already written: the room left is what counts.
    writer out(std::span<std::uint8_t>(buffer.data(), n + 2));
    out.put_u8(1);
    out.put_u8(2);
    ASSERT_TRUE(extjson_to_bson(text, out));
    EXPECT_EQ(out.size(), n + 2);
    EXPECT_EQ(std::memcmp(buffer.data() + 2, expected->data(), n), 0);
  }
  {
    // One byte short: buffer_too_small with the size needed, and the writer as it was.
    writer out(std::span<std::uint8_t>(buffer.data(), n));
    out.put_u8(9);
    auto r = extjson_to_bson(text, out);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, error_code::buffer_too_small);
    EXPECT_NE(r.error().message.find(std::to_string(n) + " bytes"), std::string::npos)
        << r.error().to_string();
    EXPECT_EQ(out.size(), 1u);
    EXPECT_FALSE(out.overflowed()) << "a failed conversion left the writer overflowed";
    // The same writer still takes a document that fits.
    ASSERT_TRUE(extjson_to_bson(R"({"a": {"$numberInt": "1"}})", out));
    EXPECT_EQ(out.size(), 1u + 12u);
  }
  {
    // An error of the text itself is reported as such, not as the buffer's.
    writer out(std::span<std::uint8_t>(buffer.data(), 8));
    auto r = extjson_to_bson(R"({"a": "a long string", "b": {"$numberInt": "x"}})", out);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, error_code::json_invalid) << r.error().to_string();
  }
}

// Issue 11 item 13: valid JSON numbers that simdjson refuses.
TEST(extjson_parser, numbers_beyond_int64_are_doubles_and_beyond_double_a_range_error) {
  auto doc = parse_extjson(
      R"({"below": -9223372036854775809, "min": -9223372036854775808,)"
      R"( "above": 9223372036854775808,)"
      R"( "u64": 18446744073709551616, "huge": -123456789012345678901234567890123456789,)"
      R"( "tiny": 1e-400, "neg_tiny": -1e-400, "max": 1.7976931348623157e308,)"
      R"( "sub": 4.9406564584124654e-324})");
  ASSERT_TRUE(doc) << doc.error().to_string();
  EXPECT_EQ((*doc)["below"].type(), bson_type::double_);
  EXPECT_EQ((*doc)["below"].as_double(), -9223372036854775808.0);
  EXPECT_EQ((*doc)["min"].type(), bson_type::int64);
  EXPECT_EQ((*doc)["min"].as_int64(), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ((*doc)["above"].as_double(), 9223372036854775808.0);
  EXPECT_EQ((*doc)["u64"].as_double(), 18446744073709551616.0);
  EXPECT_EQ((*doc)["huge"].as_double(), -1.2345678901234568e38);
  EXPECT_EQ((*doc)["tiny"].as_double(), 0.0);
  EXPECT_TRUE(std::signbit((*doc)["neg_tiny"].as_double()));
  EXPECT_EQ((*doc)["max"].as_double(), std::numeric_limits<double>::max());
  EXPECT_EQ((*doc)["sub"].as_double(), std::numeric_limits<double>::denorm_min());

  for (const char* big : {"1e400", "-1e400", "1.7976931348623159e308", "1e99999999999999999999"}) {
    const std::string text = std::string(R"({"x": [1, )") + big + "]}";
    const error e = expect_error(text, error_code::inexact, "x.1");
    EXPECT_EQ(e.offset, text.find(big)) << e.to_string();
    EXPECT_NE(e.message.find("beyond the range of a double"), std::string::npos);
  }
  const error wrapped =
      expect_error(R"({"x": {"$numberDouble": "-1e400"}})", error_code::inexact, "x");
  EXPECT_NE(wrapped.message.find("$numberDouble"), std::string::npos);
  // Still not numbers.
  for (const char* bad : {"-", "01", "1.", ".5", "1e", "+1", "0x10", "1e+"}) {
    SCOPED_TRACE(bad);
    expect_error(std::string(R"({"x": )") + bad + "}", error_code::json_syntax, "x");
  }
}

// Issue 11 item 14 and the stage-1 offsets: where simdjson says only what kind of problem it
// found, the error still points at it.
TEST(extjson_errors, structural_errors_point_at_where_the_text_goes_wrong) {
  struct expected {
    std::string text;
    std::size_t offset;
    std::string message;
  };
  const std::vector<expected> cases = {
      {R"({"a": 1} x)", 9, "text continues after the document"},
      {R"({"a": 1},)", 8, "text continues after the document"},
      {R"({"a": 1}])", 8, "text continues after the document"},
      {R"({"a": 1} {)", 9, "text continues after the document"},
      {R"({"a": 1}   "x)", 11, "text continues after the document"},
      {R"({"a": [1, 2)", 11, "the text ends inside the array that opens at byte 6"},
      {R"({"a": {"b": 1)", 13, "the text ends inside the object that opens at byte 6"},
      {"{", 1, "the text ends inside the object that opens at byte 0"},
      {R"({"a": [1}])", 8, "'}' does not close the array that opens at byte 6"},
      {R"({"a": "x)", 6, "a string is not closed"},
      {R"({"a": 1, "b)", 9, "a string is not closed"},
      {"{\"a\": \"x\xff\"}", 8, "the text is not valid UTF-8"},
      {"{\"a\": \"x\x01\"}", 8, "a string holds an unescaped control character"},
      {"  ", 2, "the text holds no JSON value"},
  };
  for (const expected& c : cases) {
    SCOPED_TRACE(c.text);
    auto r = extjson_to_bson(c.text);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, error_code::json_syntax) << r.error().to_string();
    EXPECT_EQ(r.error().offset, c.offset) << r.error().to_string();
    EXPECT_EQ(r.error().message, c.message) << r.error().to_string();
  }
  // An error before the break is the one reported, with its path.
  const error first =
      expect_error(R"({"a": {"$numberInt": "x"}, "b": [1, 2)", error_code::json_invalid, "a");
  EXPECT_EQ(first.offset, 6u);
  EXPECT_EQ(expect_error(R"({"a": tru, "b": "\u00e9)", error_code::json_syntax, "a").offset, 6u);
  EXPECT_EQ(expect_error("{\"a\": 01, \"b\": \"\xff\"}", error_code::json_syntax, "a").offset, 6u);
  EXPECT_EQ(expect_error(R"({"a": 01} {"b": 1})", error_code::json_syntax, "a").offset, 6u);
  // A bad value in an array is named by its index.
  EXPECT_EQ(expect_error(R"({"a": [1, tru]})", error_code::json_syntax, "a.1").offset, 10u);
  EXPECT_EQ(expect_error(R"({"a": [1, "\x"]})", error_code::json_syntax, "a.1").offset, 10u);
  // Through the prefix reader the offsets are the same.
  writer out;
  auto r = extjson_to_bson_prefix(R"({"a": [1, 2)", out);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().offset, 11u);
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
