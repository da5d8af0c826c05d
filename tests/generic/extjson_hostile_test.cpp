// Hostile Extended JSON: texts found by extjson_parse_fuzz (suite hostile_extjson), and the
// limits a parser of untrusted text must keep (suite extjson_hostile, issue 11 items 10, 11, 14):
// depth counted as the BSON decoder counts it, memory bounded near max_size and released after
// large text, error messages that cannot drive a terminal.
//
// This binary links the heap counter (tests/support/heap_counter.hpp), so the memory figures
// include everything: simdjson's index, the padded copy, the output, messages.

#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>
#include <string_view>

#include "bsongen/detail/extjson_builder.hpp"
#include "bsongen/extjson.hpp"
#include "heap_counter.hpp"

namespace bsongen {
namespace {

using test::heap::measure;
using heap_use = test::heap::use;

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
  auto bytes =
      extjson_to_bson(R"({"a": {"$regularExpression": {"pattern": "b", "options": "xmi"}}})");
  ASSERT_TRUE(bytes);
  auto doc = decode_document(bytes->span());
  ASSERT_TRUE(doc);
  EXPECT_EQ((*doc)["a"].as_regex().options, "imx");
}

// ---- Issue 11 item 10: one depth limit for text and bytes. ----

void leaf_values(document& d) {
  d.append("date", datetime(std::chrono::milliseconds(-1)));
  d.append("ptr", db_pointer{"db.c", object_id::from_hex("56e1fc72e0c917e9c4714161").value()});
  d.append("ts", timestamp{1, 2});
  d.append("re", regex{"a", "i"});
  d.append("bin", binary{{1, 2, 3}, binary_subtype::generic});
  d.append("dec", decimal128::from_string("1.5").value());
  d.append("min", min_key{});
  d.append("n", std::int64_t{1} << 40);
}

// A random document exactly `depth` levels deep (the outermost is 1) whose levels hold the values
// Extended JSON writes as nested objects: type wrappers one to three objects deep ($numberLong,
// $date, $dbPointer), code with scope (its scope is a level), arrays of documents.
document random_deep_document(std::mt19937& rng, std::size_t depth) {
  document inner;
  leaf_values(inner);
  std::size_t levels = 1;
  while (levels < depth) {
    document outer;
    const auto kind = rng() % 3;
    if (kind == 0 && levels + 2 <= depth) {
      array a;
      a.push_back(1);
      a.push_back(std::move(inner));
      outer.append("a", std::move(a));
      levels += 2;
    } else if (kind == 1) {
      outer.append("c", javascript_with_scope{"f()", to_raw_document(inner)});
      ++levels;
    } else {
      outer.append("d", std::move(inner));
      ++levels;
    }
    if (rng() % 2 == 0) leaf_values(outer);
    inner = std::move(outer);
  }
  return inner;
}

TEST(extjson_hostile, text_converts_exactly_when_its_bson_decodes_with_the_same_depth_limit) {
  std::mt19937 rng(11);
  for (const std::size_t depth : {1u, 2u, 3u, 50u, 99u, 100u, 101u, 150u}) {
    for (int round = 0; round < 4; ++round) {
      SCOPED_TRACE("depth " + std::to_string(depth) + " round " + std::to_string(round));
      const document doc = random_deep_document(rng, depth);
      const byte_buffer bytes = encode_document(doc.ref());
      decode_options decode;
      decode.max_depth = depth;
      ASSERT_TRUE(decode_document(bytes.span(), decode));
      // (max_depth 0 is left out: what it means is being settled for decoding, issue 11 item 4.)
      if (depth > 1) {
        decode.max_depth = depth - 1;
        ASSERT_FALSE(decode_document(bytes.span(), decode)) << "the document is not that deep";
      }
      for (const extjson_mode mode : {extjson_mode::canonical, extjson_mode::relaxed}) {
        const std::string text = to_extjson(doc.ref(), mode);
        extjson_parse_options limits;
        limits.max_depth = depth;
        auto back = extjson_to_bson(text, limits);
        ASSERT_TRUE(back) << back.error().to_string();
        if (mode == extjson_mode::canonical) {
          EXPECT_EQ(back->to_vector(), bytes.to_vector());
        }
        if (depth == 1) continue;
        limits.max_depth = depth - 1;
        auto too_deep = extjson_to_bson(text, limits);
        ASSERT_FALSE(too_deep) << "text converted to BSON that decoding rejects";
        EXPECT_EQ(too_deep.error().code, error_code::too_deep) << too_deep.error().to_string();
      }
    }
  }
}

TEST(extjson_hostile, default_limits_agree_with_decoding) {
  // 101 nested objects: the BSON would be 101 levels, which decode_document rejects by default.
  std::string deep;
  for (int i = 0; i < 101; ++i) deep += R"({"a":)";
  deep += '1';
  deep.append(101, '}');
  auto r = extjson_to_bson(deep);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::too_deep);
  EXPECT_EQ(r.error().offset, 100u * 5);  // the 101st '{'
  // A type wrapper at the 101st JSON level is a value at the 100th BSON level: accepted.
  std::string wrapped;
  for (int i = 0; i < 100; ++i) wrapped += R"({"a":)";
  wrapped += R"({"$date":{"$numberLong":"1"}})";
  wrapped.append(100, '}');
  auto ok = extjson_to_bson(wrapped);
  ASSERT_TRUE(ok) << ok.error().to_string();
  EXPECT_TRUE(decode_document(ok->span()));
}

TEST(extjson_hostile, wrapper_shaped_nesting_cannot_exceed_the_json_cap) {
  // {"$oid": {"$oid": ...}} is never a level of BSON, but it is one of JSON: the cap stops it.
  std::string text;
  for (int i = 0; i < 5000; ++i) text += R"({"$oid":)";
  text += '1';
  text.append(5000, '}');
  auto r = extjson_to_bson(std::string(R"({"a":)") + text + "}");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::too_deep);
  EXPECT_NE(r.error().message.find("JSON nesting"), std::string::npos) << r.error().to_string();
}

// ---- Issue 11 item 11: memory near max_size, whatever the length of the text. ----

// {"a": ["xxx...", "xxx...", ...]}: strings of 1000 bytes, about `size` bytes of text.
std::string strings_text(std::size_t size) {
  std::string text = R"({"a": [)";
  const std::string item = '"' + std::string(1000, 'x') + "\",";
  while (text.size() < size) text += item;
  text.back() = ']';
  return text + "}";
}

TEST(extjson_hostile, text_beyond_max_size_stops_growing_the_bson_near_max_size) {
  const std::string text = strings_text(4 << 20);
  extjson_parse_options limits;
  limits.max_size = 256 << 10;
  writer out;
  auto r = extjson_to_bson(text, out, limits);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::too_large);
  EXPECT_EQ(out.size(), 0u);
  // It failed at the string that passed the limit, not at the end of the text.
  EXPECT_LT(r.error().offset, 300u << 10) << r.error().to_string();
  EXPECT_LE(out.capacity(), 2 * (limits.max_size + detail::extjson_builder::wrapper_slack));

  // One string far beyond the limit is refused before it is copied.
  std::string one_string = R"({"s": ")";
  one_string.append(4 << 20, 'x');
  one_string += "\"}";
  writer out2;
  auto big = extjson_to_bson(one_string, out2, limits);
  ASSERT_FALSE(big);
  EXPECT_EQ(big.error().code, error_code::too_large);
  EXPECT_EQ(big.error().path, "s");
  EXPECT_EQ(big.error().offset, 6u);
  EXPECT_LT(out2.capacity(), 4096u);
}

TEST(extjson_hostile, dense_text_that_cannot_fit_is_rejected_before_it_is_tokenized) {
  // 1 M array elements: at least 3 bytes of BSON each, far beyond 64 KiB.
  std::string text = R"({"a": [)";
  for (int i = 0; i < 1'000'000; ++i) text += "1,";
  text.back() = ']';
  text += '}';
  extjson_parse_options limits;
  limits.max_size = 64 << 10;
  const heap_use use = measure([&] {
    auto r = extjson_to_bson(text, limits);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, error_code::too_large);
    // The offset of the separator that passes 2 * max_size + 2 of them.
    const std::size_t limit = 2 * (64 << 10) + 2;
    EXPECT_EQ(r.error().offset, std::string_view(R"({"a": [)").size() + 2 * limit - 1)
        << r.error().to_string();
  });
  std::printf("2 MB dense text, 64 KiB limit: heap peak %zu bytes\n", use.peak);
  // The output buffer reserves up to max_size; simdjson would take 5.7 bytes per byte of text.
  EXPECT_LT(use.peak, limits.max_size + (16u << 10))
      << "the parser was allocated for text that cannot fit";
}

TEST(extjson_hostile, the_separator_bound_never_rejects_what_fits) {
  // Its tightest case: {"": {"$minKey": {"$numberInt": "1"}}, ...}, 4 separators per element
  // for 2 bytes of BSON. A document of exactly max_size converts.
  const int count = 200'000;
  std::string text = "{";
  for (int i = 0; i < count; ++i) text += R"("":{"$minKey":{"$numberInt":"1"}},)";
  text.back() = '}';
  extjson_parse_options limits;
  limits.max_size = 5 + 2 * count;
  auto r = extjson_to_bson(text, limits);
  ASSERT_TRUE(r) << r.error().to_string();
  EXPECT_EQ(r->size(), limits.max_size);
  limits.max_size -= 1;
  auto over = extjson_to_bson(text, limits);
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error().code, error_code::too_large);
  // White space is no BSON: a short document in long text is not refused for its length.
  extjson_parse_options small;
  small.max_size = 64;
  std::string spaced = R"({"a": 1})";
  spaced.append(1 << 20, ' ');
  EXPECT_TRUE(extjson_to_bson(spaced, small));
}

// ctest runs each case in a process of its own; run with others, a parser state kept by an
// earlier case (before the fix) hides the allocation this measures.
TEST(extjson_hostile, peak_memory_stays_a_bounded_multiple_of_the_text) {
  const std::string text = strings_text(4 << 20);
  extjson_parse_options limits;
  limits.max_size = 256 << 10;
  const heap_use use = measure([&] {
    auto r = extjson_to_bson(text, limits);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, error_code::too_large);
  });
  const double factor = static_cast<double>(use.peak) / static_cast<double>(text.size());
  std::printf("%zu bytes of text, 256 KiB limit: heap peak %zu bytes (%.2fx)\n", text.size(),
              use.peak, factor);
  // simdjson's index (5.7 bytes per byte) and the padded copy (1), plus output near max_size.
  EXPECT_LT(factor, 7.2);
}

TEST(extjson_hostile, large_text_releases_the_parser_state_it_needed) {
  ASSERT_TRUE(extjson_to_bson(R"({"warm": "up"})"));  // the thread's state for small text
  ASSERT_TRUE(parse_extjson(R"({"warm": "up"})"));
  const std::string text = strings_text(4 << 20);
  const heap_use bytes_use = measure([&] { ASSERT_TRUE(extjson_to_bson(text)); });
  const heap_use document_use = measure([&] {
    ASSERT_TRUE(parse_extjson(text));
    ASSERT_TRUE(parse_extjson(text));
  });
  std::printf("4 MB of text: peak %zu bytes, retained %td (extjson_to_bson), %td (parse_extjson)\n",
              bytes_use.peak, bytes_use.retained, document_use.retained);
  EXPECT_LE(bytes_use.retained, 0);
  // decode_document keeps up to 2 MiB of node scratch per thread (generic/src/decode.cpp).
  EXPECT_LT(document_use.retained, 3 << 20);
  // And small text after it keeps reusing a small state.
  const heap_use small_use = measure([&] { ASSERT_TRUE(extjson_to_bson(R"({"a": 1})")); });
  EXPECT_LT(small_use.peak, 64u << 10);
}

// ---- Issue 11 item 14: what error messages show. ----

TEST(extjson_hostile, key_bytes_in_messages_cannot_drive_a_terminal) {
  auto r = extjson_to_bson(
      R"({"\u001b]0;title\u0007\u001b[2J\u202e": {"x\u009b1m": {"$numberInt": 7}}})");
  ASSERT_FALSE(r);
  // Raw for programs:
  EXPECT_EQ(r.error().path,
            "\x1b]0;title\x07\x1b[2J\xe2\x80\xae.x\xc2\x9b"
            "1m");
  const std::string shown = r.error().to_string();
  const std::string expected_start =
      "json_invalid at \\x1b]0;title\\x07\\x1b[2J\\u202e.x\\u009b1m (byte ";
  EXPECT_EQ(shown.rfind(expected_start, 0), 0u) << shown;
  for (const char c : shown) {
    const auto u = static_cast<unsigned char>(c);
    EXPECT_TRUE(u >= 0x20 && u != 0x7f) << "raw control byte " << static_cast<int>(u);
  }
  // A key quoted in a message is escaped the same way.
  auto nul = extjson_to_bson(R"({"\u001b[31mred\u0000": 1})");
  ASSERT_FALSE(nul);
  EXPECT_NE(nul.error().to_string().find("'\\x1b[31mred'"), std::string::npos)
      << nul.error().to_string();
}

TEST(extjson_hostile, errors_in_any_prefix_point_inside_the_text_at_the_problem) {
  const std::string text =
      R"j({"_id": {"$oid": "56e1fc72e0c917e9c4714161"}, "s": "a\"b\u00e9", "n": [1, -2.5e3],)j"
      R"j( "d": {"$date": "2012-12-24T12:15:30.501Z"}, "z": null})j";
  for (std::size_t n = 1; n < text.size(); ++n) {
    const std::string prefix = text.substr(0, n);
    auto r = extjson_to_bson(prefix);
    ASSERT_FALSE(r) << prefix;
    // A document cut short is reported where the text ends, or at the unclosed string's quote,
    // or (a wrapper cut inside its value) at the token that is wrong: never at byte 0 for a
    // text that starts well.
    EXPECT_GT(r.error().offset, 0u) << prefix << ": " << r.error().to_string();
    EXPECT_LE(r.error().offset, n) << prefix << ": " << r.error().to_string();
  }
}

}  // namespace
}  // namespace bsongen
