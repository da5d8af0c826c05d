// Generated codecs of `binary_vector<dtype[, N]>` fields (schemas/binary_vectors.yaml and
// binary_vectors_pmr.yaml): every form round-trips to the bytes the specification gives
// (hand-assembled here: Debian's libbson 1.23 and python3-bson predate subtype 9); hostile
// payloads are refused with the field's path and the element's offset; a fixed dimension refuses
// another one, naming both; encode refuses packed bits the specification refuses.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory_resource>
#include <string>
#include <vector>

#include "binary_vectors.bsongen.hpp"
#include "binary_vectors_pmr.bsongen.hpp"
#include "bson_builder.hpp"
#include "bsongen/codec.hpp"
#include "bsongen/writer.hpp"
#include "codec_helpers.hpp"
#include "default_resource_refuses.hpp"

namespace {

using bytes = std::vector<std::uint8_t>;
using bsongen::error_code;
using bsongen::test::bson_builder;
using bsongen::test::decode_error;
using bsongen::test::decode_ok;
using bsongen::test::document_of;
using bsongen::test::encode_error;
using bsongen::test::encode_ok;
using bsongen::test::expect_round_trip;

// A binary element `key` of subtype `subtype` holding `payload`, as the test spells it.
bson_builder& binary_element(bson_builder& b, std::string_view key, std::uint8_t subtype,
                             const bytes& payload) {
  b.u8(0x05).cstr(key).i32(static_cast<std::int32_t>(payload.size())).u8(subtype);
  return b.append(payload);
}

bytes float32_payload(std::initializer_list<float> values) {
  bytes out{0x27, 0x00};
  for (float f : values) {
    const auto u = std::bit_cast<std::uint32_t>(f);
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(u >> (8 * i)));
  }
  return out;
}

vectors::every_vector sample() {
  vectors::every_vector v;
  v.embedding = {1.5F, -2.0F, 0.25F};
  v.quantized = {-128, 0, 127};
  v.bits.push_back(true);
  v.bits.push_back(false);
  v.bits.push_back(true);  // bytes {0xA0}, padding 5
  v.fixed_embedding = {1.0F, 2.0F, 3.0F, 4.0F};
  v.fixed_quantized = {1, -1, 2};
  v.maybe = std::vector<float>{9.0F};
  v.maybe_fixed = std::array<std::int8_t, 2>{7, 8};
  v.nullable_bits = bsongen::packed_bits(std::vector<std::uint8_t>{0xFF}, 0);
  v.kept_null = bsongen::nullable<std::vector<float>>(nullptr);
  v.many = {{1, 2}, {}, {3}};
  v.many_fixed = {{0.5F, 1.5F}};
  v.by_name["a"] = bsongen::packed_bits(std::vector<std::uint8_t>{0x80}, 7);
  v.pair = {std::vector<float>{1.0F}, std::vector<float>{}};
  return v;
}

TEST(binary_vector_codec, every_form_round_trips) {
  expect_round_trip(sample());
  expect_round_trip(vectors::every_vector{});
}

TEST(binary_vector_codec, writes_the_specification_bytes) {
  vectors::embedding_row row{.id = 7, .vector = {1, 2, 3, 4, 5, 6, 7, 8}, .norm = 0.5};
  bson_builder b;
  b.u8(0x12).cstr("_id").i64(7);
  binary_element(b, "vector", 0x09, float32_payload({1, 2, 3, 4, 5, 6, 7, 8}));
  b.u8(0x01).cstr("norm").f64(0.5);
  const bytes expected = document_of(b);
  EXPECT_EQ(encode_ok(row), expected);
  EXPECT_TRUE(decode_ok<vectors::embedding_row>(expected) == row);
  static_assert(bsongen::codec<vectors::embedding_row>::fixed_size == 79);

  vectors::every_vector v;
  v.quantized = {-1, 2};
  v.bits = bsongen::packed_bits(std::vector<std::uint8_t>{0xEE, 0xE0}, 4);  // 12 bits
  const bytes encoded = encode_ok(v);
  const bytes int8 = {0x05, 'q', 'u', 'a', 'n', 't',  'i',  'z',  'e',  'd',
                      0x00, 4,   0,   0,   0,   0x09, 0x03, 0x00, 0xFF, 0x02};
  const bytes bits = {0x05, 'b', 'i', 't', 's', 0x00, 4, 0, 0, 0, 0x09, 0x10, 0x04, 0xEE, 0xE0};
  EXPECT_NE(std::search(encoded.begin(), encoded.end(), int8.begin(), int8.end()), encoded.end());
  EXPECT_NE(std::search(encoded.begin(), encoded.end(), bits.begin(), bits.end()), encoded.end());
}

// wide_row's 128 bytes of elements fill 16 whole words of its fixed shape (words 4-19 of 21):
// decode's shape check compares words 0-3 and 20 and the 7-byte tail, encode copies the
// skeleton's bytes 0-31 and 160-174 and stores the rest.
TEST(binary_vector_codec, fixed_shape_skips_long_value_stretches) {
  vectors::wide_row row{.id = -3, .vector = {}, .norm = 2.5};
  for (std::size_t i = 0; i < row.vector.size(); ++i) {
    row.vector[i] = 0.5F + static_cast<float>(i);
  }
  bson_builder b;
  b.u8(0x12).cstr("_id").i64(-3);
  bytes payload{0x27, 0x00};
  for (const float f : row.vector) {
    const auto u = std::bit_cast<std::uint32_t>(f);
    for (int i = 0; i < 4; ++i) payload.push_back(static_cast<std::uint8_t>(u >> (8 * i)));
  }
  binary_element(b, "vector", 0x09, payload);
  b.u8(0x01).cstr("norm").f64(2.5);
  const bytes expected = document_of(b);
  static_assert(bsongen::codec<vectors::wide_row>::fixed_size == 175);
  ASSERT_EQ(expected.size(), 175U);

  // Into a writer whose buffer held other bytes first: every byte is written.
  bsongen::writer w;
  std::memset(w.extend(400), 0xAB, 400);
  w.clear();
  ASSERT_TRUE(bsongen::encode(row, w));
  EXPECT_EQ(bytes(w.bytes().begin(), w.bytes().end()), expected);

  vectors::wide_row out{};
  ASSERT_TRUE(bsongen::codec<vectors::wide_row>::decode_fixed(expected.data(), out));
  EXPECT_TRUE(out == row);

  // Constant bytes past the skipped words still count: `norm` renamed `nora` (word 20) leaves
  // the fast path, and the general decoder skips the unknown field.
  bytes renamed = expected;
  ASSERT_EQ(renamed[164], 'm');
  renamed[164] = 'a';
  EXPECT_FALSE(bsongen::codec<vectors::wide_row>::decode_fixed(renamed.data(), out));
  const vectors::wide_row decoded = decode_ok<vectors::wide_row>(renamed);
  EXPECT_EQ(decoded.norm, 0.0);
  EXPECT_EQ(decoded.vector, row.vector);
  // So do the tail's (the terminator) and the vector's header (its dtype, in word 3).
  bytes no_terminator = expected;
  no_terminator.back() = 1;
  EXPECT_FALSE(bsongen::codec<vectors::wide_row>::decode_fixed(no_terminator.data(), out));
  bytes int8_dtype = expected;
  ASSERT_EQ(int8_dtype[30], 0x27);
  int8_dtype[30] = 0x03;
  EXPECT_FALSE(bsongen::codec<vectors::wide_row>::decode_fixed(int8_dtype.data(), out));
  EXPECT_EQ(decode_error<vectors::wide_row>(int8_dtype).code, error_code::type_mismatch);
}

TEST(binary_vector_codec, omit_empty_and_absent_forms) {
  vectors::every_vector v;
  const bytes encoded = encode_ok(v);
  const std::string text(encoded.begin(), encoded.end());
  EXPECT_EQ(text.find("sparse"), std::string::npos);  // both omit_empty fields left out
  EXPECT_EQ(text.find("maybe"), std::string::npos);   // std::nullopt
  EXPECT_NE(text.find("embedding"), std::string::npos);
  v.sparse = {1.0F};
  const bytes with_sparse = encode_ok(v);
  EXPECT_NE(std::string(with_sparse.begin(), with_sparse.end()).find("sparse"), std::string::npos);
}

TEST(binary_vector_codec, decodes_into_a_reused_struct) {
  vectors::every_vector target = sample();
  const bytes small = encode_ok(vectors::every_vector{});
  ASSERT_TRUE(bsongen::decode(small, target));
  EXPECT_TRUE(target == vectors::every_vector{});
  ASSERT_TRUE(bsongen::decode(encode_ok(sample()), target));
  EXPECT_TRUE(target == sample());
}

// One binary element `v` in the one-field struct embedding_row's place: a document of
// `_id`, `vector` (the payload given), `norm`.
bytes row_with(std::uint8_t subtype, const bytes& payload) {
  bson_builder b;
  b.u8(0x12).cstr("_id").i64(1);
  binary_element(b, "vector", subtype, payload);
  b.u8(0x01).cstr("norm").f64(0);
  return document_of(b);
}

TEST(binary_vector_codec_hostile, wrong_dimension_names_both) {
  const bytes doc = row_with(0x09, float32_payload({1, 2, 3}));
  const bsongen::error e = decode_error<vectors::embedding_row>(doc);
  EXPECT_EQ(e.code, error_code::invalid_length);
  EXPECT_EQ(e.path, "vector");
  EXPECT_EQ(e.offset, 4 + 1 + 4 + 8);  // the element's type byte
  EXPECT_EQ(e.message, "float32 vector has 3 elements, expected dimension 8");
}

struct hostile_case {
  const char* name;
  std::uint8_t subtype;
  bytes payload;
  error_code code;
};

TEST(binary_vector_codec_hostile, payloads_the_specification_refuses) {
  const std::vector<hostile_case> cases = {
      {"subtype 0", 0x00, float32_payload({1, 2, 3, 4, 5, 6, 7, 8}), error_code::invalid_value},
      {"empty payload", 0x09, {}, error_code::invalid_length},
      {"dtype only", 0x09, {0x27}, error_code::invalid_length},
      {"unknown dtype", 0x09, {0x42, 0x00}, error_code::invalid_value},
      {"int8 where float32 belongs",
       0x09,
       {0x03, 0x00, 1, 2, 3, 4, 5, 6, 7, 8},
       error_code::type_mismatch},
      {"float32 padding", 0x09,
       [] {
         bytes p = float32_payload({1, 2, 3, 4, 5, 6, 7, 8});
         p[1] = 1;
         return p;
       }(),
       error_code::invalid_value},
      {"float32 data not a multiple of 4", 0x09, {0x27, 0x00, 1, 2, 3}, error_code::invalid_length},
  };
  for (const hostile_case& c : cases) {
    SCOPED_TRACE(c.name);
    const bsongen::error e = decode_error<vectors::embedding_row>(row_with(c.subtype, c.payload));
    EXPECT_EQ(e.code, c.code) << e.to_string();
    EXPECT_EQ(e.path, "vector");
    EXPECT_EQ(e.offset, 17U);
  }
}

TEST(binary_vector_codec_hostile, packed_bits_and_lengths) {
  struct bits_case {
    const char* name;
    bytes payload;
    error_code code;
  };
  const std::vector<bits_case> cases = {
      {"padding above 7", {0x10, 0x08, 0x00}, error_code::invalid_value},
      {"padding without data", {0x10, 0x03}, error_code::invalid_value},
      {"ignored bits set", {0x10, 0x04, 0xFF}, error_code::invalid_value},
      {"float32 where packed_bit belongs", {0x27, 0x00}, error_code::type_mismatch},
  };
  for (const bits_case& c : cases) {
    SCOPED_TRACE(c.name);
    vectors::every_vector v;
    v.many = {{1}, {2}};
    bytes doc = encode_ok(v);
    // Replace `bits` (an empty packed_bit vector: 00 02 00 00 00 09 10 00) with the case's.
    const bytes empty_bits = {0x05, 'b', 'i', 't', 's', 0x00, 2, 0, 0, 0, 0x09, 0x10, 0x00};
    auto at = std::search(doc.begin(), doc.end(), empty_bits.begin(), empty_bits.end());
    ASSERT_NE(at, doc.end());
    const auto offset = static_cast<std::size_t>(at - doc.begin());
    bytes replacement = {0x05, 'b', 'i', 't', 's', 0x00};
    bson_builder len;
    len.i32(static_cast<std::int32_t>(c.payload.size())).u8(0x09).append(c.payload);
    replacement.insert(replacement.end(), len.bytes().begin(), len.bytes().end());
    at = doc.erase(at, at + static_cast<std::ptrdiff_t>(empty_bits.size()));
    doc.insert(at, replacement.begin(), replacement.end());
    bsongen::detail::store_u32_le(doc.data(), static_cast<std::uint32_t>(doc.size()));
    const bsongen::error e = decode_error<vectors::every_vector>(doc);
    EXPECT_EQ(e.code, c.code) << e.to_string();
    EXPECT_EQ(e.path, "bits");
    EXPECT_EQ(e.offset, offset);
  }
  // A binary length past the document, and a vector inside a container: the path names it.
  bytes doc = row_with(0x09, float32_payload({1, 2, 3, 4, 5, 6, 7, 8}));
  bsongen::detail::store_u32_le(doc.data() + 17 + 8, 1000);
  EXPECT_EQ(decode_error<vectors::embedding_row>(doc).code, error_code::invalid_length);

  vectors::every_vector v;
  v.many = {{1}, {2}};
  bytes many = encode_ok(v);
  const bytes second = {0x05, '1', 0x00, 3, 0, 0, 0, 0x09, 0x03, 0x00};
  auto at = std::search(many.begin(), many.end(), second.begin(), second.end());
  ASSERT_NE(at, many.end());
  at[9] = 0x01;  // int8 padding
  const bsongen::error e = decode_error<vectors::every_vector>(many);
  EXPECT_EQ(e.code, error_code::invalid_value);
  EXPECT_EQ(e.path, "many.1");
  EXPECT_EQ(e.offset, static_cast<std::size_t>(at - many.begin()));
}

TEST(binary_vector_codec, encode_refuses_what_decode_refuses) {
  vectors::every_vector v;
  v.bits = bsongen::packed_bits(std::vector<std::uint8_t>{0xFF}, 4);  // ignored bits set
  bsongen::error e = encode_error(v);
  EXPECT_EQ(e.code, error_code::invalid_value);
  EXPECT_EQ(e.path, "bits");

  v = {};
  v.by_name["k"] = bsongen::packed_bits(std::vector<std::uint8_t>{}, 3);  // padding, no data
  e = encode_error(v);
  EXPECT_EQ(e.code, error_code::invalid_value);
  EXPECT_EQ(e.path, "by_name.k");

  v = {};
  v.nullable_bits = bsongen::packed_bits(std::vector<std::uint8_t>{0x00}, 9);
  e = encode_error(v);
  EXPECT_EQ(e.code, error_code::invalid_value);
  EXPECT_EQ(e.path, "nullable_bits");
}

TEST(binary_vector_codec, pmr_forms_allocate_on_the_structs_resource) {
  vectors_pmr::every_vector v;
  v.embedding = {1.0F, 2.0F};
  v.quantized = {3, 4};
  v.bits.push_back(true);
  v.fixed_embedding = {1, 2, 3, 4};
  v.maybe = std::pmr::vector<float>{5.0F};
  v.nullable_bits = bsongen::pmr::packed_bits(std::vector<std::uint8_t>{0xC0}, 6);
  v.many.emplace_back(std::pmr::vector<float>{6.0F});
  v.by_name.emplace("x", bsongen::pmr::packed_bits(std::vector<std::uint8_t>{0x01}, 0));
  const bytes encoded = encode_ok(v);

  std::array<std::byte, 4096> buffer{};
  std::pmr::monotonic_buffer_resource arena(buffer.data(), buffer.size(),
                                            std::pmr::null_memory_resource());
  const bsongen::test::default_resource_refuses refuse;
  auto back = bsongen::decode<vectors_pmr::every_vector>(encoded, {.memory = &arena});
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(back->embedding.get_allocator().resource(), &arena);
  EXPECT_EQ(back->bits.get_allocator().resource(), &arena);
  EXPECT_EQ(back->maybe->get_allocator().resource(), &arena);
  EXPECT_EQ(back->nullable_bits->get_allocator().resource(), &arena);
  EXPECT_EQ(back->many[0].get_allocator().resource(), &arena);
  EXPECT_EQ(back->by_name.begin()->second.get_allocator().resource(), &arena);
  EXPECT_TRUE(*back == v);
  EXPECT_EQ(encode_ok(*back), encoded);
}

}  // namespace
