// BSON Binary Vector on the generic path (runtime/generic/src/binary_vector.cpp): vector values
// built from elements encode to the specification's bytes; value_ref::as_vector and
// view_element::as_vector give the typed view of a subtype-9 binary and say why when there is none;
// vector_from_array / vector_to_array follow the specification's conversion rules, for arrays of
// a document and of a document_view alike; Extended JSON keeps subtype 9 as a plain $binary.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "bsongen/binary_vector.hpp"
#include "bsongen/document.hpp"
#include "bsongen/document_view.hpp"
#include "bsongen/extjson.hpp"
#include "hex.hpp"

namespace {

using bsongen::array;
using bsongen::document;
using bsongen::error_code;
using bsongen::value;
using bsongen::vector_dtype;
using bsongen::test::from_hex;
using bsongen::test::to_hex;

std::string hex(std::span<const std::uint8_t> b) { return to_hex(b.data(), b.size()); }

// The specification's test vectors (float32.json "Simple Vector FLOAT32", int8.json "Simple Vector
// INT8", packed_bit.json "PACKED_BIT with padding"): {"vector": Binary(9, ...)}.
constexpr const char* float32_doc = "1C00000005766563746F72000A0000000927000000FE420000E04000";
constexpr const char* int8_doc = "1600000005766563746F7200040000000903007F0700";
constexpr const char* packed_doc = "1600000005766563746F7200040000000910037F0800";

std::string encoded(const value& v) {
  document d;
  d.append("vector", v);
  const bsongen::byte_buffer bytes = bsongen::encode_document(d);
  return hex(bytes);
}

TEST(binary_vector_generic, from_vector_encodes_the_specification_bytes) {
  const std::vector<float> f{127.0F, 7.0F};
  EXPECT_EQ(encoded(value::from_vector(std::span<const float>(f))), float32_doc);
  const std::vector<std::int8_t> i{127, 7};
  EXPECT_EQ(encoded(value::from_vector(std::span<const std::int8_t>(i))), int8_doc);
  const std::vector<std::uint8_t> b{127, 8};
  EXPECT_EQ(encoded(value::from_vector(bsongen::packed_bits(b, 3))), packed_doc);

  const value v = value::from_vector(std::span<const float>(f));
  EXPECT_EQ(v.as_binary().subtype, bsongen::binary_subtype::vector);
  EXPECT_EQ(hex(v.as_binary().bytes), "27000000FE420000E040");
}

TEST(binary_vector_generic, from_vector_refuses_packed_bits_against_the_rules) {
  const std::vector<std::uint8_t> b{127, 7};
  try {
    (void)value::from_vector(bsongen::packed_bits(b, 3));
    ADD_FAILURE() << "nonzero ignored bits accepted";
  } catch (const bsongen::exception& e) {
    EXPECT_EQ(e.error().code, error_code::invalid_value);
    EXPECT_NE(e.error().message.find("ignored bits"), std::string::npos) << e.error().message;
  }
  EXPECT_THROW((void)value::from_vector(bsongen::packed_bits(b, 8)), bsongen::exception);
  EXPECT_THROW((void)value::from_vector(bsongen::packed_bits(std::span<const std::uint8_t>(), 2)),
               bsongen::exception);
}

TEST(binary_vector_generic, as_vector_views_a_decoded_subtype_9_binary) {
  const std::vector<std::uint8_t> bytes = from_hex(float32_doc);
  bsongen::result<document> d = bsongen::decode_document(bytes);
  ASSERT_TRUE(d);
  bsongen::result<bsongen::vector_view> v = (*d)["vector"].as_vector();
  ASSERT_TRUE(v) << v.error().to_string();
  EXPECT_EQ(v->dtype(), vector_dtype::float32);
  ASSERT_EQ(v->size(), 2U);
  EXPECT_EQ(v->as_float32()[0], 127.0F);
  EXPECT_EQ(v->as_float32()[1], 7.0F);

  const value built =
      value::from_vector(bsongen::packed_bits(std::vector<std::uint8_t>{0xEE, 0xE0}, 4));
  v = built.as_vector();
  ASSERT_TRUE(v);
  EXPECT_EQ(v->size(), 12U);
  EXPECT_EQ(v->padding(), 4);
}

TEST(binary_vector_generic, as_vector_says_why_there_is_no_vector) {
  document d{{"s", "text"},
             {"b", bsongen::binary{{0x27, 0x00}, bsongen::binary_subtype::generic}},
             {"short", bsongen::binary{{0x27, 0x00, 0x01}, bsongen::binary_subtype::vector}},
             {"dtype", bsongen::binary{{0x05, 0x00}, bsongen::binary_subtype::vector}}};
  bsongen::result<bsongen::vector_view> v = d["missing"].as_vector();
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, error_code::missing_field);

  v = d["s"].as_vector();
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, error_code::type_mismatch);
  EXPECT_EQ(v.error().message, "expected binary subtype 0x09 (vector), found string");
  EXPECT_EQ(v.error().path, "s");

  v = d["b"].as_vector();
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, error_code::type_mismatch);
  EXPECT_EQ(v.error().message, "expected binary subtype 0x09 (vector), found binary subtype 0x00");

  v = d["short"].as_vector();
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, error_code::invalid_length);
  EXPECT_EQ(v.error().offset, 2U);  // within the payload

  v = d["dtype"].as_vector();
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, error_code::invalid_value);
}

TEST(binary_vector_generic, view_element_as_vector_matches_the_document_path) {
  document d{
      {"s", "text"},
      {"b", bsongen::binary{{0x27, 0x00}, bsongen::binary_subtype::generic}},
      {"pad", bsongen::binary{{0x03, 0x01, 0x7F}, bsongen::binary_subtype::vector}},
      {"bits", bsongen::binary{{0x10, 0x07, 0xFF}, bsongen::binary_subtype::vector}},
      {"ok", value::from_vector(std::span<const std::int8_t>(std::vector<std::int8_t>{-1, 2}))}};
  const bsongen::byte_buffer bytes = bsongen::encode_document(d);
  bsongen::result<bsongen::document_view> view = bsongen::document_view::from_bytes(bytes);
  ASSERT_TRUE(view);
  for (const char* key : {"s", "b", "pad", "bits", "ok", "missing"}) {
    const bsongen::result<bsongen::vector_view> a = d[key].as_vector();
    const bsongen::result<bsongen::vector_view> b = (*view)[key].as_vector();
    ASSERT_EQ(static_cast<bool>(a), static_cast<bool>(b)) << key;
    if (!a) {
      EXPECT_EQ(a.error().code, b.error().code) << key;
      EXPECT_EQ(a.error().message, b.error().message) << key;
      EXPECT_EQ(a.error().offset, b.error().offset) << key;
    } else {
      EXPECT_EQ(hex(a->payload()), hex(b->payload())) << key;
    }
  }
  EXPECT_EQ((*view)["pad"].as_vector().error().code, error_code::invalid_value);
  EXPECT_EQ((*view)["bits"].as_vector().error().code, error_code::invalid_value);
  EXPECT_EQ((*view)["s"].as_vector().error().path, "s");
  const bsongen::int8_vector_view ok = (*view)["ok"].as_vector()->as_int8();
  EXPECT_EQ(ok[0], -1);
  EXPECT_EQ(ok[1], 2);
}

// --- vector_from_array: the specification's conversion rules. ---

bsongen::error conversion_error(const array& a, vector_dtype dtype, std::uint8_t padding = 0) {
  bsongen::result<value> r = bsongen::vector_from_array(a, dtype, padding);
  EXPECT_FALSE(r) << "accepted";
  return r ? bsongen::error() : r.error();
}

TEST(binary_vector_generic, int8_from_integers_in_range) {
  bsongen::result<value> v =
      bsongen::vector_from_array(array{127, std::int64_t{7}, -128}, vector_dtype::int8);
  ASSERT_TRUE(v) << v.error().to_string();
  EXPECT_EQ(hex(v->as_binary().bytes), "03007F0780");
  EXPECT_EQ(v->as_binary().subtype, bsongen::binary_subtype::vector);

  bsongen::error e = conversion_error(array{1, 128}, vector_dtype::int8);
  EXPECT_EQ(e.code, error_code::invalid_value);
  EXPECT_EQ(e.path, "1");
  EXPECT_EQ(e.message, "int8 vector element 128 is outside [-128, 127]");
  EXPECT_EQ(conversion_error(array{-129}, vector_dtype::int8).code, error_code::invalid_value);
  EXPECT_EQ(conversion_error(array{std::int64_t{1} << 40}, vector_dtype::int8).code,
            error_code::invalid_value);
  e = conversion_error(array{127.77, 7.77}, vector_dtype::int8);
  EXPECT_EQ(e.code, error_code::type_mismatch);
  EXPECT_EQ(e.path, "0");
  EXPECT_EQ(e.message, "int8 vector element is double; int8 takes an int32 or int64");
  EXPECT_EQ(conversion_error(array{1.0}, vector_dtype::int8).code, error_code::type_mismatch);
  EXPECT_EQ(conversion_error(array{true}, vector_dtype::int8).code, error_code::type_mismatch);
  e = conversion_error(array{127, 7}, vector_dtype::int8, 3);
  EXPECT_EQ(e.code, error_code::invalid_value);
  EXPECT_EQ(e.offset, 0U);
  ASSERT_TRUE(bsongen::vector_from_array(array{}, vector_dtype::int8));
}

TEST(binary_vector_generic, float32_from_doubles_and_integers) {
  bsongen::result<value> v = bsongen::vector_from_array(
      array{127.7, -7.7, 3, std::int64_t{-2}, -std::numeric_limits<double>::infinity()},
      vector_dtype::float32);
  ASSERT_TRUE(v) << v.error().to_string();
  EXPECT_EQ(hex(v->as_binary().bytes),
            "2700"
            "6666FF42"
            "6666F6C0"
            "00004040"
            "000000C0"
            "000080FF");

  // int64 converts directly (through double, 2^60 + 2^36 + 1 would round twice).
  const std::int64_t big = (std::int64_t{1} << 60) + (std::int64_t{1} << 36) + 1;
  v = bsongen::vector_from_array(array{big}, vector_dtype::float32);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->as_vector()->as_float32()[0], static_cast<float>(big));

  v = bsongen::vector_from_array(array{std::nan("")}, vector_dtype::float32);
  ASSERT_TRUE(v);
  EXPECT_TRUE(std::isnan(v->as_vector()->as_float32()[0]));

  bsongen::error e = conversion_error(array{1.0, 1e300}, vector_dtype::float32);
  EXPECT_EQ(e.code, error_code::invalid_value);
  EXPECT_EQ(e.path, "1");
  EXPECT_EQ(e.message, "float32 vector element 1.0000000000000001e+300 is beyond float32's range");
  EXPECT_EQ(conversion_error(array{"1.0"}, vector_dtype::float32).code, error_code::type_mismatch);
  EXPECT_EQ(conversion_error(array{127.0, 7.0}, vector_dtype::float32, 3).code,
            error_code::invalid_value);
  // The largest float32 itself, as a double, is in range.
  EXPECT_TRUE(bsongen::vector_from_array(
      array{static_cast<double>(std::numeric_limits<float>::max())}, vector_dtype::float32));
}

TEST(binary_vector_generic, packed_bit_from_bytes_0_to_255_with_padding) {
  bsongen::result<value> v =
      bsongen::vector_from_array(array{127, std::int64_t{8}}, vector_dtype::packed_bit, 3);
  ASSERT_TRUE(v) << v.error().to_string();
  EXPECT_EQ(hex(v->as_binary().bytes), "10037F08");
  EXPECT_EQ(encoded(*v), packed_doc);

  EXPECT_EQ(conversion_error(array{256}, vector_dtype::packed_bit).code, error_code::invalid_value);
  bsongen::error e = conversion_error(array{-1}, vector_dtype::packed_bit);
  EXPECT_EQ(e.message, "packed_bit vector element -1 is outside [0, 255]");
  EXPECT_EQ(conversion_error(array{127.5}, vector_dtype::packed_bit).code,
            error_code::type_mismatch);
  EXPECT_EQ(conversion_error(array{1}, vector_dtype::packed_bit, 8).code,
            error_code::invalid_value);
  EXPECT_EQ(conversion_error(array{}, vector_dtype::packed_bit, 1).code, error_code::invalid_value);
  e = conversion_error(array{127, 7}, vector_dtype::packed_bit, 3);
  EXPECT_EQ(e.code, error_code::invalid_value);
  EXPECT_NE(e.message.find("ignored bits"), std::string::npos);
  EXPECT_EQ(e.offset, 0U);
}

TEST(binary_vector_generic, unknown_dtype_is_refused) {
  const bsongen::error e = conversion_error(array{1}, static_cast<vector_dtype>(0x04));
  EXPECT_EQ(e.code, error_code::invalid_value);
}

TEST(binary_vector_generic, array_view_converts_as_array_ref_does) {
  const document d{{"a", array{127, 8}}, {"f", array{1.5, 2}}, {"bad", array{1, 2.5}}};
  const bsongen::byte_buffer bytes = bsongen::encode_document(d);
  const bsongen::document_view view = *bsongen::document_view::from_bytes(bytes);
  for (const vector_dtype dtype :
       {vector_dtype::int8, vector_dtype::float32, vector_dtype::packed_bit}) {
    for (const char* key : {"a", "f", "bad"}) {
      for (const std::uint8_t padding : {std::uint8_t{0}, std::uint8_t{3}}) {
        const bsongen::result<value> a =
            bsongen::vector_from_array(d[key].as_array(), dtype, padding);
        const bsongen::result<value> b =
            bsongen::vector_from_array(view[key].as_array(), dtype, padding);
        ASSERT_EQ(static_cast<bool>(a), static_cast<bool>(b)) << key;
        if (a) {
          EXPECT_EQ(*a, *b) << key;
        } else {
          EXPECT_EQ(a.error().message, b.error().message) << key;
          EXPECT_EQ(a.error().path, b.error().path) << key;
        }
      }
    }
  }
}

// --- vector_to_array. ---

TEST(binary_vector_generic, to_array_gives_int32_double_and_byte_elements) {
  const std::vector<std::uint8_t> i = from_hex("03007F0780");
  EXPECT_EQ(bsongen::vector_to_array(*bsongen::parse_vector(i)), (array{127, 7, -128}));
  const array ints = bsongen::vector_to_array(*bsongen::parse_vector(i));
  EXPECT_EQ(ints[0].type(), bsongen::bson_type::int32);

  const std::vector<std::uint8_t> f = from_hex(
      "27006666FF42"
      "6666F6C0");
  const array floats = bsongen::vector_to_array(*bsongen::parse_vector(f));
  ASSERT_EQ(floats.size(), 2U);
  EXPECT_EQ(floats[0].as_double(), static_cast<double>(127.7F));
  EXPECT_EQ(floats[1].as_double(), static_cast<double>(-7.7F));

  const std::vector<std::uint8_t> b = from_hex("10037F08");
  EXPECT_EQ(bsongen::vector_to_array(*bsongen::parse_vector(b)), (array{127, 8}));
  EXPECT_TRUE(bsongen::vector_to_array(*bsongen::parse_vector(from_hex("2700"))).empty());
}

TEST(binary_vector_generic, array_round_trips_through_a_vector) {
  for (const vector_dtype dtype :
       {vector_dtype::int8, vector_dtype::float32, vector_dtype::packed_bit}) {
    const array in =
        dtype == vector_dtype::float32 ? array{0.5, -2.0, 1e30 * 0.0, 3.25} : array{0, 1, 100, 127};
    bsongen::result<value> v = bsongen::vector_from_array(in, dtype);
    ASSERT_TRUE(v) << v.error().to_string();
    EXPECT_EQ(bsongen::vector_to_array(*v->as_vector()), in);
  }
}

// --- Extended JSON: subtype 9 stays a plain $binary. ---

TEST(binary_vector_generic, extjson_writes_and_reads_subtype_09) {
  const std::vector<float> f{127.0F, 7.0F};
  const document d{{"vector", value::from_vector(std::span<const float>(f))}};
  const std::string json = bsongen::to_extjson(d, bsongen::extjson_mode::canonical);
  EXPECT_EQ(json, R"({"vector":{"$binary":{"base64":"JwAAAP5CAADgQA==","subType":"09"}}})");
  bsongen::result<document> back = bsongen::parse_extjson(json);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(hex(bsongen::encode_document(*back)), float32_doc);
}

}  // namespace
