// Hostile input to the stepping over of elements decode does not keep: the source fields a
// projection leaves out (its skip runs, tests/generated/schemas/projections.yaml) and keys no
// struct knows (the general path), validated (the default) and trusted
// (decode_options::validate_skipped = false). Trusted stepping reads a skipped value's length
// prefix only, so garbage inside passes; what must hold in both modes: no read outside the input
// (the documents sit in exactly sized buffers, which the sanitized builds check), lengths that
// run past their document refused with an error inside the input, and the kept values the same.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bson_builder.hpp"
#include "bsongen/codec.hpp"
#include "codec_helpers.hpp"
#include "projections.bsongen.hpp"

namespace {

using bsongen::decode_options;
using bsongen::error_code;
using namespace bsongen::test;

const decode_options validated{};
const decode_options trusted{.validate_skipped = false};

// {title: "t", <element>, lastKey: 7}: `element` sits where summary steps over it, between two
// fields it keeps.
bytes around(const bson_builder& element) {
  bson_builder body;
  body.u8(0x02).cstr("title").str("t");
  body.append(element.bytes());
  body.u8(0x10).cstr("lastKey").i32(7);
  return document_of(body);
}

bson_builder element(std::uint8_t type, std::string_view key) {
  bson_builder b;
  b.u8(type).cstr(key);
  return b;
}

struct verdicts {
  bool validated;  // accepted with full validation
  bool trusted;    // accepted stepping over by length
};

// Decodes `doc` (in an exactly sized buffer) into summary both ways and checks the verdicts; an
// accepted document gives the kept values, a refused one an error inside the input.
void expect(const bytes& doc, verdicts want, const std::string& what) {
  SCOPED_TRACE(what);
  for (const auto& [options, accepted] :
       {std::pair{validated, want.validated}, std::pair{trusted, want.trusted}}) {
    const std::vector<std::uint8_t> exact(doc.begin(), doc.end());
    auto r = bsongen::decode<proj::summary>(std::span<const std::uint8_t>(exact), options);
    EXPECT_EQ(r.has_value(), accepted) << (options.validate_skipped ? "validated: " : "trusted: ")
                                       << (r ? std::string("accepted") : r.error().to_string());
    if (r) {
      EXPECT_EQ(r->title, "t");
      EXPECT_EQ(r->last, 7);
    } else {
      EXPECT_LT(r.error().offset, doc.size());
    }
  }
}

// Known source fields (stepped over by the skip runs) and an unknown key (the general path)
// carry the same garbage and reach the same verdicts.
void expect_both_paths(std::uint8_t type, std::string_view source_key, const bson_builder& value,
                       verdicts want, const std::string& what) {
  for (std::string_view key : {source_key, std::string_view("not_in_the_source")}) {
    bson_builder e = element(type, key);
    e.append(value.bytes());
    expect(around(e), want, what + " under `" + std::string(key) + "`");
  }
}

TEST(projection_hostile, garbage_inside_a_skipped_string_passes_only_when_trusted) {
  expect_both_paths(0x02, "note", bson_builder().i32(3).u8s({'a', 0xFF, 0}), {false, true},
                    "bad UTF-8");
  expect_both_paths(0x02, "note", bson_builder().i32(3).u8s({'a', 'b', 'c'}), {false, true},
                    "no NUL where the length ends");
}

TEST(projection_hostile, a_skipped_string_length_outside_its_document_is_refused) {
  expect_both_paths(0x02, "note", bson_builder().i32(1000).u8s({'a', 0}), {false, false},
                    "length past the document");
  expect_both_paths(0x02, "note", bson_builder().i32(0).u8(0), {false, false}, "length 0");
  expect_both_paths(0x02, "note", bson_builder().i32(-8).u8(0), {false, false}, "negative length");
  // Exactly to the end of the document (the title and lastKey follow it inside the length):
  // the string swallows lastKey, and the document then lacks a valid end.
  expect_both_paths(0x02, "note", bson_builder().i32(12).u8s({'a', 0}), {false, false},
                    "length over the next element");
}

TEST(projection_hostile, garbage_inside_a_skipped_document_passes_only_when_trusted) {
  const bson_builder bad_inner =
      bson_builder().i32(12).u8(0x42).cstr("x").u8s({1, 2, 3, 4}).u8(0);  // type 0x42
  expect_both_paths(0x03, "at", bad_inner, {false, true}, "unknown type inside");
  bson_builder deep;
  bson_builder inner = bson_builder();
  for (int i = 0; i < 200; ++i) {  // 200 levels: past max_depth
    bson_builder level;
    level.u8(0x03).cstr("a").doc(inner);
    inner = level;
  }
  deep.doc(inner);
  expect_both_paths(0x03, "at", deep, {false, true}, "nested past max_depth");
  expect_both_paths(0x03, "raw", bson_builder().i32(6).u8(0x08).u8(0), {false, true},
                    "no terminator inside");
}

TEST(projection_hostile, a_skipped_documents_length_outside_its_document_is_refused) {
  expect_both_paths(0x03, "at", bson_builder().i32(4000).u8(0), {false, false}, "past the end");
  expect_both_paths(0x03, "at", bson_builder().i32(4).u8(0), {false, false}, "below 5");
  expect_both_paths(0x04, "tags", bson_builder().i32(-1).u8(0), {false, false}, "negative");
}

TEST(projection_hostile, skipped_binaries_regexes_and_code_with_scope) {
  expect_both_paths(0x05, "blob", bson_builder().i32(-1).u8(0), {false, false},
                    "binary, negative length");
  expect_both_paths(0x05, "blob", bson_builder().i32(500).u8(0), {false, false},
                    "binary past the end");
  expect_both_paths(0x05, "blob", bson_builder().i32(5).u8(2).i32(9).u8(1), {false, true},
                    "old binary whose inner length disagrees");
  expect_both_paths(0x0B, "pattern", bson_builder().u8s({'a', 0xFF, 0}).cstr(""), {false, true},
                    "regex not UTF-8");
  // A regex without its NULs: it runs to the document's end, in both modes.
  bson_builder unterminated = element(0x0B, "pattern");
  unterminated.raw("abc");
  expect(document_of(bson_builder().u8(0x02).cstr("title").str("t").append(unterminated.bytes())),
         {false, false}, "regex without NUL");
  const bson_builder scope_garbage =
      bson_builder().i32(4 + 8 + 7).str("x+y").i32(7).u8(0x08).cstr("").u8(0);  // bool, no value
  expect_both_paths(0x0F, "code", scope_garbage, {false, true}, "code with a broken scope");
  expect_both_paths(0x0F, "code", bson_builder().i32(900).str("x"), {false, false},
                    "code with scope past the end");
}

TEST(projection_hostile, values_whose_type_the_value_decides) {
  // `anything` (any) and `amount` (number<int64>) are stepped over whatever their type byte.
  expect_both_paths(0x03, "anything", bson_builder().i32(7).u8(0x08).u8(0).u8(0), {false, true},
                    "any: a document whose bool has no value");
  expect_both_paths(0x08, "amount", bson_builder().u8(9), {false, true}, "a bool of 9");
  expect_both_paths(0x12, "amount", bson_builder().u8s({1, 2}), {false, false}, "int64 cut short");
  expect_both_paths(0x01, "amount", bson_builder().u8s({1, 2, 3, 4, 5, 6, 7}), {false, false},
                    "double cut short");
}

TEST(projection_hostile, element_headers_are_checked_in_both_modes) {
  expect(around(bson_builder().u8(0x20).cstr("note").i32(1)), {false, false}, "unknown type");
  expect(around(bson_builder().u8(0x02).u8s({'n', 0xFF, 0}).str("x")), {false, false},
         "key not UTF-8");
  bson_builder no_nul = bson_builder().u8(0x02).cstr("title").str("t");
  no_nul.u8(0x10).raw("lastKe");
  expect(document_of(no_nul), {false, false}, "key without NUL");
}

TEST(projection_hostile, captured_elements_are_validated_even_when_trusted) {
  // Elements a struct captures are kept (a raw_document holds valid BSON): trusted input does not
  // let garbage into them.
  bson_builder bad = element(0x02, "not_in_the_source");
  bad.i32(3).u8s({'a', 0xFF, 0});
  const bytes doc = around(bad);
  EXPECT_TRUE(bsongen::decode<proj::summary>(doc, trusted));
  for (const decode_options& options : {validated, trusted}) {
    auto r = bsongen::decode<proj::keeper>(doc, options);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, error_code::invalid_utf8);
    EXPECT_EQ(r.error().path, "not_in_the_source");
  }
}

// Every prefix of a valid source document, closed as a document, and every byte of it set to
// 0x00, 0x7F and 0xFF: whatever the verdicts, no read outside the input, errors inside it, and a
// document the validated decode accepts is accepted trusted with the same values.
TEST(projection_hostile, every_truncation_and_byte_corruption) {
  proj::source s;
  s.title = "title";
  s.tags = {{"a", 1}};
  s.maybe = proj::tag{"m", 2};
  s.anything = bsongen::value(bsongen::document{{"k", 1}});
  s.note = bsongen::nullable<std::string>("note");
  s.pattern = bsongen::regex{"p", "i"};
  s.code =
      bsongen::javascript_with_scope{"c", bsongen::to_raw_document(bsongen::document{{"x", 1}})};
  s.raw = bsongen::to_raw_document(bsongen::document{{"r", true}});
  const bytes doc = encode_ok(s);
  std::vector<bytes> inputs;
  for (std::size_t cut = 5; cut < doc.size(); ++cut) {
    bytes b(doc.begin(), doc.begin() + static_cast<std::ptrdiff_t>(cut));
    b.back() = 0;
    bsongen::detail::store_u32_le(b.data(), static_cast<std::uint32_t>(b.size()));
    inputs.push_back(std::move(b));
  }
  for (std::size_t at = 4; at + 1 < doc.size(); ++at) {
    for (const std::uint8_t v : {std::uint8_t{0x00}, std::uint8_t{0x7F}, std::uint8_t{0xFF}}) {
      bytes b = doc;
      b[at] = v;
      inputs.push_back(std::move(b));
    }
  }
  int accepted_trusted_only = 0;
  for (const bytes& input : inputs) {
    const std::vector<std::uint8_t> exact(input.begin(), input.end());
    const std::span<const std::uint8_t> span(exact);
    auto checked = bsongen::decode<proj::summary>(span, validated);
    auto stepped = bsongen::decode<proj::summary>(span, trusted);
    auto fixed = bsongen::decode<proj::fixed_view>(span, trusted);
    if (checked) {
      ASSERT_TRUE(stepped) << stepped.error().to_string();
      EXPECT_TRUE(*checked == *stepped);
    } else {
      EXPECT_LT(checked.error().offset, input.size());
    }
    if (!stepped) {
      EXPECT_LT(stepped.error().offset, input.size());
    }
    if (!fixed) {
      EXPECT_LT(fixed.error().offset, input.size());
    }
    accepted_trusted_only += stepped && !checked ? 1 : 0;
  }
  // The corruptions inside skipped values that only validation catches.
  EXPECT_GT(accepted_trusted_only, 0);
}

}  // namespace
