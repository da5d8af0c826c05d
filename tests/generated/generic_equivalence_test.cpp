// The generated codec against the generic path, one BSON type at a time (schemas/every_type.yaml:
// one field per type the schema format has). For each type:
//   - the generated encoder writes byte for byte what encode_document writes for the same value;
//   - bytes the generic encoder wrote decode, through generated code, to that same value;
//   - hand-built input, canonical or not, well formed or not, gets the same verdict from both
//     decoders (the same error code, path and offset when rejected), and when accepted, both
//     encoders write the decoded value back as the same bytes.
// A divergence in one type shows up as that type's case, named after it.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "bson_builder.hpp"
#include "bsongen/codec.hpp"
#include "bsongen/document.hpp"
#include "codec_helpers.hpp"
#include "every_type.bsongen.hpp"

namespace bsongen {
namespace {

using test::bson_builder;
using test::bytes;
using test::document_of;
using test::encode_ok;
using test::generic_encoding;

const object_id some_id = object_id::from_hex("507f1f77bcf86cd799439011").value();

raw_document raw_of(const document& d) { return raw_document(generic_encoding(d)); }

// The generic document equal to a default-constructed every_type::all, field for field.
document defaults_document() {
  return document{
      {"double", 0.0},
      {"string", ""},
      {"document", document{{"n", 0}, {"x", 0.0}}},
      {"array", array{}},
      {"fixed_array", array{0.0, 0.0}},
      {"binary", binary{}},
      {"uuid", binary{std::vector<std::uint8_t>(16, 0), binary_subtype::uuid}},
      {"float32_vector", binary{{0x27, 0x00}, binary_subtype::vector}},
      {"int8_vector", binary{{0x03, 0x00}, binary_subtype::vector}},
      {"packed_bit_vector", binary{{0x10, 0x00}, binary_subtype::vector}},
      {"fixed_vector", binary{{0x27, 0x00, 0, 0, 0, 0, 0, 0, 0, 0}, binary_subtype::vector}},
      {"object_id", object_id{}},
      {"bool", false},
      {"datetime", datetime{}},
      {"null", nullptr},
      {"regex", regex{}},
      {"javascript", javascript{""}},
      {"code_with_scope", javascript_with_scope{"", to_raw_document(document{})}},
      {"int32", std::int32_t{0}},
      {"timestamp", timestamp{}},
      {"int64", std::int64_t{0}},
      {"decimal128", decimal128{}},
      {"min_key", min_key{}},
      {"max_key", max_key{}},
      {"raw_document", document{}},
      {"any", nullptr},
      {"map", document{}},
  };
}

// One value of one type: how generated code holds it and how the generic path does.
struct value_case {
  std::string name;
  std::string key;  // the field's BSON key in every_type::all
  std::function<void(every_type::all&)> set;
  value generic;
  std::string pending_encode;  // non-empty: the encode check waits for this fix
  std::string pending_decode;  // non-empty: the decode check waits for this fix
  // The value read back from the generic encoding when that is not `set`'s (it is canonical).
  std::function<void(every_type::all&)> set_read = {};
};

// GoogleTest prints a failing case's parameter by its name, not as bytes.
void PrintTo(const value_case& c, std::ostream* os) { *os << c.name; }

every_type::all with(const value_case& c) {
  every_type::all s;
  c.set(s);
  return s;
}

// BSONGEN_RUN_PENDING=1 in the environment runs the pending cases too (to check a fix).
bool skip_pending(const std::string& reason) {
  return !reason.empty() && std::getenv("BSONGEN_RUN_PENDING") == nullptr;
}

std::vector<value_case> value_cases() {
  std::vector<value_case> cases;
  auto add = [&](std::string name, std::string key, std::function<void(every_type::all&)> set,
                 value generic, std::string pending_encode = {}, std::string pending_decode = {}) {
    cases.push_back({std::move(name), std::move(key), std::move(set), std::move(generic),
                     std::move(pending_encode), std::move(pending_decode)});
  };
  add(
      "double", "double", [](auto& s) { s.dbl = -2.5; }, -2.5);
  add(
      "double_negative_zero", "double", [](auto& s) { s.dbl = -0.0; }, -0.0);
  add(
      "string", "string", [](auto& s) { s.string = "h\xc3\xa9llo \xF0\x9F\x98\x80"; },
      "h\xc3\xa9llo \xF0\x9F\x98\x80");
  add(
      "string_with_nul", "string", [](auto& s) { s.string = std::string("a\0b", 3); },
      std::string_view("a\0b", 3));
  add(
      "document", "document",
      [](auto& s) {
        s.document = {7, 0.5};
      },
      document{{"n", 7}, {"x", 0.5}});
  add(
      "array", "array",
      [](auto& s) {
        s.array = {1, -2, 3};
      },
      array{1, -2, 3});
  add(
      "fixed_array", "fixed_array",
      [](auto& s) {
        s.fixed_array = {1.5, -2.0};
      },
      array{1.5, -2.0});
  add(
      "binary_subtype_0", "binary",
      [](auto& s) {
        s.binary = {{1, 2, 3}, binary_subtype::generic};
      },
      binary{{1, 2, 3}, binary_subtype::generic});
  add(
      "binary_subtype_2", "binary",
      [](auto& s) {
        s.binary = {{4, 5}, binary_subtype::binary_old};
      },
      binary{{4, 5}, binary_subtype::binary_old});
  add(
      "binary_subtype_4", "binary",
      [](auto& s) {
        s.binary = {std::vector<std::uint8_t>(16, 0xAB), binary_subtype::uuid};
      },
      binary{std::vector<std::uint8_t>(16, 0xAB), binary_subtype::uuid});
  add(
      "binary_user_defined", "binary",
      [](auto& s) {
        s.binary = {{9}, static_cast<binary_subtype>(0x80)};
      },
      binary{{9}, static_cast<binary_subtype>(0x80)});
  add(
      "uuid", "uuid", [](auto& s) { s.uuid.fill(0x5A); },
      binary{std::vector<std::uint8_t>(16, 0x5A), binary_subtype::uuid});
  // Binary vectors: the generic path holds the subtype-9 binary, payload and all (1.5F is
  // 0x3FC00000, -2.0F 0xC0000000, little-endian).
  add(
      "float32_vector", "float32_vector",
      [](auto& s) {
        s.float32_vector = {1.5F, -2.0F};
      },
      binary{{0x27, 0x00, 0x00, 0x00, 0xC0, 0x3F, 0x00, 0x00, 0x00, 0xC0}, binary_subtype::vector});
  add(
      "int8_vector", "int8_vector",
      [](auto& s) {
        s.int8_vector = {-128, 0, 127};
      },
      binary{{0x03, 0x00, 0x80, 0x00, 0x7F}, binary_subtype::vector});
  add(
      "packed_bit_vector", "packed_bit_vector",
      [](auto& s) {
        s.packed_bit_vector = packed_bits(std::vector<std::uint8_t>{0xEE, 0xE0}, 4);
      },
      binary{{0x10, 0x04, 0xEE, 0xE0}, binary_subtype::vector});
  add(
      "fixed_vector", "fixed_vector",
      [](auto& s) {
        s.fixed_vector = {-2.0F, 1.5F};
      },
      binary{{0x27, 0x00, 0x00, 0x00, 0x00, 0xC0, 0x00, 0x00, 0xC0, 0x3F}, binary_subtype::vector});
  add(
      "object_id", "object_id", [](auto& s) { s.object_id = some_id; }, some_id);
  add(
      "bool", "bool", [](auto& s) { s.boolean = true; }, true);
  add(
      "datetime", "datetime",
      [](auto& s) { s.datetime = datetime(std::chrono::milliseconds(-1234567)); },
      datetime(std::chrono::milliseconds(-1234567)));
  add(
      "null", "null", [](auto&) {}, nullptr);
  add(
      "regex", "regex",
      [](auto& s) {
        s.regex = {"^a.*b$", "im"};
      },
      regex{"^a.*b$", "im"});
  add(
      "regex_unsorted_options", "regex",
      [](auto& s) {
        s.regex = {"a", "xi"};
      },
      regex{"a", "xi"});
  cases.back().set_read = [](auto& s) { s.regex = {"a", "ix"}; };
  add(
      "javascript", "javascript", [](auto& s) { s.javascript = "function() { return 1; }"; },
      javascript{"function() { return 1; }"});
  add(
      "code_with_scope", "code_with_scope",
      [](auto& s) {
        s.code_with_scope.code = "x + y";
        s.code_with_scope.scope = raw_of(document{{"x", 1}, {"y", array{2}}});
      },
      javascript_with_scope{"x + y", to_raw_document(document{{"x", 1}, {"y", array{2}}})});
  add(
      "int32", "int32", [](auto& s) { s.int32 = -7; }, std::int32_t{-7});
  add(
      "timestamp", "timestamp",
      [](auto& s) {
        s.timestamp = {1700000000, 42};
      },
      timestamp{1700000000, 42});
  add(
      "int64", "int64", [](auto& s) { s.int64 = std::int64_t{1} << 40; }, std::int64_t{1} << 40);
  add(
      "decimal128", "decimal128",
      [](auto& s) { s.decimal128 = decimal128::from_string("12.50").value(); },
      decimal128::from_string("12.50").value());
  add(
      "min_key", "min_key", [](auto&) {}, min_key{});
  add(
      "max_key", "max_key", [](auto&) {}, max_key{});
  add(
      "raw_document", "raw_document",
      [](auto& s) {
        s.raw_document = raw_of(document{{"a", 1}, {"b", "two"}});
      },
      document{{"a", 1}, {"b", "two"}});
  add(
      "any_document", "any",
      [](auto& s) {
        s.any = document{{"k", array{1, "two"}}};
      },
      document{{"k", array{1, "two"}}});
  add(
      "any_int64", "any", [](auto& s) { s.any = std::int64_t{-3}; }, std::int64_t{-3});
  add(
      "any_regex_unsorted_options", "any",
      [](auto& s) {
        s.any = regex{"a", "xi"};
      },
      regex{"a", "xi"});
  add(
      "any_binary_subtype_2", "any",
      [](auto& s) {
        s.any = binary{{4, 5}, binary_subtype::binary_old};
      },
      binary{{4, 5}, binary_subtype::binary_old});
  add(
      "map", "map",
      [](auto& s) {
        s.map = {{"a", 1}, {"b", -2}};
      },
      document{{"a", std::int64_t{1}}, {"b", std::int64_t{-2}}});
  return cases;
}

template <class Case>
std::string case_name(const ::testing::TestParamInfo<Case>& param) {
  return param.param.name;
}

class generic_equivalence : public ::testing::TestWithParam<value_case> {};

TEST_P(generic_equivalence, generated_encoder_writes_the_generic_bytes) {
  const value_case& c = GetParam();
  if (skip_pending(c.pending_encode)) GTEST_SKIP() << c.pending_encode;
  document expected = defaults_document();
  expected.set(c.key, c.generic);
  const every_type::all s = with(c);
  const bytes generated = encode_ok(s);
  EXPECT_EQ(generated, generic_encoding(expected));
  EXPECT_EQ(encoded_size(s).value(), generated.size());
}

TEST_P(generic_equivalence, generic_bytes_decode_to_the_same_value) {
  const value_case& c = GetParam();
  if (skip_pending(c.pending_decode)) GTEST_SKIP() << c.pending_decode;
  const bytes input = generic_encoding(document{{c.key, c.generic}});

  result<document> generic = decode_document(input);
  ASSERT_TRUE(generic) << generic.error().to_string();
  EXPECT_TRUE((*generic)[c.key] == c.generic.ref());

  result<every_type::all> generated = decode<every_type::all>(input);
  ASSERT_TRUE(generated) << generated.error().to_string();
  every_type::all expected;
  (c.set_read ? c.set_read : c.set)(expected);
  EXPECT_TRUE(*generated == expected);
}

// The all-defaults struct, and every value at once in one document.
TEST(generic_equivalence, defaults_encode_to_the_generic_bytes) {
  EXPECT_EQ(encode_ok(every_type::all{}), generic_encoding(defaults_document()));
}

INSTANTIATE_TEST_SUITE_P(every_type, generic_equivalence, ::testing::ValuesIn(value_cases()),
                         case_name<value_case>);

// Hand-built input: one element (type byte, key, value) in an otherwise empty document.
struct input_case {
  std::string name;
  bytes element;
  std::string pending;             // non-empty: both checks wait for this fix
  std::string pending_error = {};  // non-empty: the error check waits for this fix
};

void PrintTo(const input_case& c, std::ostream* os) { *os << c.name; }

bytes element_bytes(std::uint8_t type, std::string_view key, const bson_builder& value_bytes) {
  return bson_builder().u8(type).cstr(key).append(value_bytes.bytes()).bytes();
}

std::vector<input_case> input_cases() {
  using b = bson_builder;
  const bson_builder bad_bool_doc = b().u8(0x08).cstr("f").u8(3);
  const std::int32_t bad_scope_total = static_cast<std::int32_t>(4 + 6 + 5 + bad_bool_doc.size());
  return {
      // Well formed, not canonical: both accept and write back the same (canonical) bytes.
      {"regex_unsorted_options", element_bytes(0x0B, "regex", b().cstr("a").cstr("xi")), {}},
      {"any_regex_unsorted_options", element_bytes(0x0B, "any", b().cstr("a").cstr("xi")), {}},
      {"binary_subtype_2", element_bytes(0x05, "binary", b().i32(6).u8(2).i32(2).u8s({4, 5})), {}},
      {"any_binary_subtype_2", element_bytes(0x05, "any", b().i32(6).u8(2).i32(2).u8s({4, 5})), {}},
      {"bool_one", element_bytes(0x08, "bool", b().u8(1)), {}},
      {"string_with_nul",
       element_bytes(0x02, "string", b().i32(4).raw(std::string_view("a\0b", 3)).u8(0)),
       {}},
      {"empty_regex", element_bytes(0x0B, "regex", b().cstr("").cstr("")), {}},
      // Malformed: both reject, with the same error.
      {"double_truncated", element_bytes(0x01, "double", b().u8s({0, 0, 0, 0})), {}},
      {"string_length_zero", element_bytes(0x02, "string", b().i32(0).u8(0)), {}},
      {"string_length_beyond_document", element_bytes(0x02, "string", b().i32(50).cstr("x")), {}},
      {"string_without_nul", element_bytes(0x02, "string", b().i32(2).raw("xy")), {}},
      {"string_invalid_utf8", element_bytes(0x02, "string", b().str("\xFF")), {}},
      {"document_length_lies", element_bytes(0x03, "document", b().i32(64).u8(0)), {}},
      {"document_bad_element", element_bytes(0x03, "document", b().doc(bad_bool_doc)), {}},
      {"array_length_lies", element_bytes(0x04, "array", b().i32(4).u8(0)), {}},
      {"binary_negative_length", element_bytes(0x05, "binary", b().i32(-1).u8(0)), {}},
      {"binary_length_beyond_document",
       element_bytes(0x05, "binary", b().i32(40).u8(0).u8s({1, 2})),
       {}},
      {"binary_subtype_2_prefix_lies",
       element_bytes(0x05, "binary", b().i32(6).u8(2).i32(3).u8s({4, 5})),
       {}},
      {"binary_subtype_2_too_short",
       element_bytes(0x05, "binary", b().i32(2).u8(2).u8s({0, 0})),
       {}},
      {"any_binary_subtype_2_prefix_lies",
       element_bytes(0x05, "any", b().i32(6).u8(2).i32(3).u8s({4, 5})),
       {}},
      {"float32_vector_negative_length",
       element_bytes(0x05, "float32_vector", b().i32(-1).u8(9)),
       {}},
      {"float32_vector_length_beyond_document",
       element_bytes(0x05, "float32_vector", b().i32(40).u8(9).u8s({0x27, 0x00})),
       {}},
      {"object_id_truncated", element_bytes(0x07, "object_id", b().u8s({1, 2, 3, 4, 5, 6})), {}},
      {"bool_two", element_bytes(0x08, "bool", b().u8(2)), {}},
      {"datetime_truncated", element_bytes(0x09, "datetime", b().u8s({1, 2, 3})), {}},
      {"regex_invalid_utf8", element_bytes(0x0B, "regex", b().cstr("\xFF").cstr("")), {}},
      {"regex_options_unterminated", element_bytes(0x0B, "regex", b().cstr("a").raw("i")), {}},
      {"javascript_invalid_utf8", element_bytes(0x0D, "javascript", b().str("\xC3")), {}},
      {"code_with_scope_length_lies",
       element_bytes(0x0F, "code_with_scope", b().i32(100).str("x").doc(b())),
       {}},
      {"code_with_scope_bad_scope",
       element_bytes(0x0F, "code_with_scope", b().i32(bad_scope_total).str("x").doc(bad_bool_doc)),
       {}},
      {"int32_truncated", element_bytes(0x10, "int32", b().u8s({1, 2})), {}},
      {"timestamp_truncated", element_bytes(0x11, "timestamp", b().u8s({1, 2, 3, 4, 5})), {}},
      {"int64_truncated", element_bytes(0x12, "int64", b().u8s({1})), {}},
      {"decimal128_truncated", element_bytes(0x13, "decimal128", b().i64(1)), {}},
      {"raw_document_bad_element", element_bytes(0x03, "raw_document", b().doc(bad_bool_doc)), {}},
      {"any_bad_element", element_bytes(0x03, "any", b().doc(bad_bool_doc)), {}},
      {"any_unknown_type", element_bytes(0x42, "any", b()), {}},
      {"map_invalid_utf8_key",
       element_bytes(0x03, "map", b().doc(b().u8(0x12).cstr("\xFF").i64(1))),
       {}},
      {"map_bad_element",
       element_bytes(0x03, "map", b().doc(b().u8(0x12).cstr("k").u8s({1, 2}))),
       {}},
  };
}

class generic_equivalence_hostile : public ::testing::TestWithParam<input_case> {};

TEST_P(generic_equivalence_hostile, same_verdict_and_same_bytes_written_back) {
  const input_case& c = GetParam();
  if (skip_pending(c.pending)) GTEST_SKIP() << c.pending;
  const bytes input = document_of(c.element);
  result<document> generic = decode_document(input);
  result<every_type::all> generated = decode<every_type::all>(input);
  ASSERT_EQ(generic.has_value(), generated.has_value())
      << (generic ? "generic accepted; generated: " + generated.error().to_string()
                  : "generated accepted; generic: " + generic.error().to_string());
  if (!generic) return;
  ASSERT_EQ(generic->size(), 1u);
  const bsongen::element read = *generic->begin();
  document expected = defaults_document();
  expected.set(read.key(), value(read));
  EXPECT_EQ(encode_ok(*generated), generic_encoding(expected));
}

// Decision 1: an error about an element points at its type byte, from either decoder; and one
// verdict (code) for the same fault.
TEST_P(generic_equivalence_hostile, same_error) {
  const input_case& c = GetParam();
  if (skip_pending(c.pending)) GTEST_SKIP() << c.pending;
  if (skip_pending(c.pending_error)) GTEST_SKIP() << c.pending_error;
  const bytes input = document_of(c.element);
  result<document> generic = decode_document(input);
  result<every_type::all> generated = decode<every_type::all>(input);
  if (generic || generated) return;  // the verdicts are the test above's
  const error& g = generated.error();
  const error& d = generic.error();
  EXPECT_EQ(name(g.code), name(d.code))
      << "generated: " << g.to_string() << "\ngeneric: " << d.to_string();
  EXPECT_EQ(g.path, d.path) << "generated: " << g.to_string() << "\ngeneric: " << d.to_string();
  EXPECT_EQ(g.offset, d.offset) << "generated: " << g.to_string() << "\ngeneric: " << d.to_string();
}

INSTANTIATE_TEST_SUITE_P(every_type, generic_equivalence_hostile,
                         ::testing::ValuesIn(input_cases()), case_name<input_case>);

}  // namespace
}  // namespace bsongen
