// BSON Binary Vector, binary subtype 9 (bsongen/binary_vector.hpp): parse_vector checks exactly
// the specification's rules, each with its error code and byte offset; views read what the bytes
// say (float32 as little-endian binary32, bits most significant first); owning decodes fill their
// targets or leave them alone; encoders write exactly the specification's bytes and refuse, with a
// clear error, anything the decoder would refuse. The specification's own vectors run in
// tests/generic/binary_vector_corpus_test.cpp.

#include "bsongen/binary_vector.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <memory_resource>
#include <span>
#include <string>
#include <vector>

#include "bsongen/pmr_types.hpp"
#include "bsongen/writer.hpp"
#include "hex.hpp"

namespace {

using bsongen::error_code;
using bsongen::packed_bits;
using bsongen::vector_dtype;
using bsongen::test::from_hex;
using bsongen::test::to_hex;
using bytes = std::vector<std::uint8_t>;

std::string hex(std::span<const std::uint8_t> b) { return to_hex(b.data(), b.size()); }

// The error code, offset and message a parse of `payload` (at `offset`) gives; fails the test
// when it succeeds.
bsongen::error parse_error(const bytes& payload, std::size_t offset = 0) {
  bsongen::result<bsongen::vector_view> r = bsongen::parse_vector(payload, offset);
  EXPECT_FALSE(r) << "accepted " << hex(payload);
  return r ? bsongen::error() : r.error();
}

// --- parse_vector: the specification's rules, one by one. ---

TEST(binary_vector_parse, payload_shorter_than_its_header_is_invalid_length) {
  for (const bytes& payload : {bytes{}, bytes{0x03}, bytes{0x27}, bytes{0x10}}) {
    const bsongen::error e = parse_error(payload, 40);
    EXPECT_EQ(e.code, error_code::invalid_length) << hex(payload);
    EXPECT_EQ(e.offset, 40U);
    EXPECT_NE(e.message.find("2-byte header"), std::string::npos) << e.message;
  }
}

TEST(binary_vector_parse, unknown_dtype_is_invalid_value_at_the_dtype_byte) {
  for (int dtype = 0; dtype < 256; ++dtype) {
    if (bsongen::is_vector_dtype(static_cast<std::uint8_t>(dtype))) continue;
    const bsongen::error e = parse_error(bytes{static_cast<std::uint8_t>(dtype), 0}, 7);
    EXPECT_EQ(e.code, error_code::invalid_value);
    EXPECT_EQ(e.offset, 7U);
  }
  const bsongen::error e = parse_error(bytes{0x04, 0x00, 0x01});
  EXPECT_EQ(e.message,
            "binary vector dtype 0x04 is not int8 (0x03), float32 (0x27) or packed_bit (0x10)");
  EXPECT_TRUE(bsongen::is_vector_dtype(0x03));
  EXPECT_TRUE(bsongen::is_vector_dtype(0x27));
  EXPECT_TRUE(bsongen::is_vector_dtype(0x10));
}

TEST(binary_vector_parse, int8_and_float32_refuse_any_padding_at_the_padding_byte) {
  for (int padding = 1; padding < 256; ++padding) {
    const auto p = static_cast<std::uint8_t>(padding);
    const bsongen::error i = parse_error(bytes{0x03, p, 0x7F, 0x07}, 10);
    EXPECT_EQ(i.code, error_code::invalid_value);
    EXPECT_EQ(i.offset, 11U);
    const bsongen::error f = parse_error(bytes{0x27, p, 0, 0, 0xFE, 0x42}, 10);
    EXPECT_EQ(f.code, error_code::invalid_value);
    EXPECT_EQ(f.offset, 11U);
  }
  EXPECT_EQ(parse_error(bytes{0x03, 0x03, 0x7F}).message,
            "int8 vector padding is 3; it must be 0 for int8");
  EXPECT_EQ(parse_error(bytes{0x27, 0x01}).message,
            "float32 vector padding is 1; it must be 0 for float32");
  // Both wrong: the padding is reported, as for int8.
  EXPECT_EQ(parse_error(bytes{0x27, 0x03, 0x2A}).code, error_code::invalid_value);
}

TEST(binary_vector_parse, float32_data_not_a_multiple_of_4_is_invalid_length_at_the_data) {
  for (std::size_t n : {1U, 2U, 3U, 5U, 6U, 7U, 9U}) {
    bytes payload{0x27, 0x00};
    payload.resize(2 + n, 0x2A);
    const bsongen::error e = parse_error(payload, 100);
    EXPECT_EQ(e.code, error_code::invalid_length) << n;
    EXPECT_EQ(e.offset, 102U);
    EXPECT_EQ(e.message, "float32 vector data of " + std::to_string(n) +
                             " bytes is not a multiple of 4 (the element size)");
  }
  for (std::size_t n : {0U, 4U, 8U, 12U}) {
    bytes payload{0x27, 0x00};
    payload.resize(2 + n, 0x2A);
    EXPECT_TRUE(bsongen::parse_vector(payload)) << n;
  }
}

TEST(binary_vector_parse, packed_bit_padding_above_7_is_invalid_value) {
  for (int padding = 8; padding < 256; ++padding) {
    const bsongen::error e = parse_error(bytes{0x10, static_cast<std::uint8_t>(padding), 0x00}, 3);
    EXPECT_EQ(e.code, error_code::invalid_value);
    EXPECT_EQ(e.offset, 4U);
  }
  EXPECT_EQ(parse_error(bytes{0x10, 0x08, 0x01}).message,
            "packed_bit vector padding is 8, above the maximum of 7");
}

TEST(binary_vector_parse, packed_bit_padding_with_no_data_is_invalid_value) {
  for (std::uint8_t padding = 1; padding <= 7; ++padding) {
    const bsongen::error e = parse_error(bytes{0x10, padding}, 3);
    EXPECT_EQ(e.code, error_code::invalid_value);
    EXPECT_EQ(e.offset, 4U);
    EXPECT_NE(e.message.find("no data bytes"), std::string::npos) << e.message;
  }
  EXPECT_TRUE(bsongen::parse_vector(bytes{0x10, 0x00}));
}

TEST(binary_vector_parse, packed_bit_ignored_bits_must_be_zero_checked_at_the_last_byte) {
  // Every padding against every last byte: accepted exactly when the low `padding` bits are 0.
  for (std::uint8_t padding = 0; padding <= 7; ++padding) {
    for (int last = 0; last < 256; ++last) {
      const bytes payload{0x10, padding, 0xFF, static_cast<std::uint8_t>(last)};
      const bool clean = (last & ((1 << padding) - 1)) == 0;
      bsongen::result<bsongen::vector_view> r = bsongen::parse_vector(payload, 20);
      ASSERT_EQ(static_cast<bool>(r), clean) << hex(payload);
      if (!clean) {
        EXPECT_EQ(r.error().code, error_code::invalid_value);
        EXPECT_EQ(r.error().offset, 23U);  // the last byte
      }
    }
  }
  // The specification's prose example: [255] with padding 7.
  EXPECT_EQ(parse_error(bytes{0x10, 0x07, 0xFF}).message,
            "packed_bit vector last byte 0xff has nonzero ignored bits (its 7 low bits, the "
            "padding, must be 0)");
  // Only the last byte has ignored bits.
  EXPECT_TRUE(bsongen::parse_vector(bytes{0x10, 0x07, 0xFF, 0x80}));
}

TEST(binary_vector_parse, valid_payloads_give_dtype_padding_size_and_the_payload_back) {
  const bytes f = from_hex("27000000FE420000E040");
  bsongen::result<bsongen::vector_view> v = bsongen::parse_vector(f);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->dtype(), vector_dtype::float32);
  EXPECT_TRUE(v->is(vector_dtype::float32));
  EXPECT_EQ(v->padding(), 0);
  EXPECT_EQ(v->size(), 2U);
  EXPECT_EQ(v->data().data(), f.data() + 2);
  EXPECT_EQ(v->payload().data(), f.data());
  EXPECT_EQ(v->payload().size(), f.size());

  const bytes i = from_hex("03007F0780");
  v = bsongen::parse_vector(i);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->dtype(), vector_dtype::int8);
  EXPECT_EQ(v->size(), 3U);

  const bytes b = from_hex("1004EEE0");
  v = bsongen::parse_vector(b);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->dtype(), vector_dtype::packed_bit);
  EXPECT_EQ(v->padding(), 4);
  EXPECT_EQ(v->size(), 12U);

  for (const char* empty : {"0300", "2700", "1000"}) {
    v = bsongen::parse_vector(from_hex(empty));
    ASSERT_TRUE(v) << empty;
    EXPECT_EQ(v->size(), 0U);
    EXPECT_TRUE(v->empty());
  }
  EXPECT_TRUE(bsongen::vector_view().payload().empty());
}

TEST(binary_vector_parse, typed_parse_refuses_another_dtype_as_type_mismatch) {
  const bytes i = from_hex("03007F07");
  bsongen::result<bsongen::float32_vector_view> f = bsongen::parse_float32_vector(i, 5);
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().code, error_code::type_mismatch);
  EXPECT_EQ(f.error().offset, 5U);
  EXPECT_EQ(f.error().message, "binary vector dtype is int8, expected float32");
  EXPECT_EQ(bsongen::parse_packed_bit_vector(i).error().code, error_code::type_mismatch);
  EXPECT_EQ(bsongen::parse_int8_vector(from_hex("1000")).error().code, error_code::type_mismatch);
  // A malformed payload keeps its own verdict.
  EXPECT_EQ(bsongen::parse_float32_vector(from_hex("270001")).error().code,
            error_code::invalid_length);
  EXPECT_TRUE(bsongen::parse_int8_vector(i));
}

TEST(binary_vector_view, as_typed_view_throws_type_mismatch_for_another_dtype) {
  const bytes i = from_hex("03007F07");
  const bsongen::vector_view v = *bsongen::parse_vector(i);
  EXPECT_EQ(v.as_int8().size(), 2U);
  try {
    (void)v.as_float32();
    ADD_FAILURE() << "as_float32 on an int8 vector did not throw";
  } catch (const bsongen::exception& e) {
    EXPECT_EQ(e.error().code, error_code::type_mismatch);
  }
  EXPECT_THROW((void)v.as_packed_bit(), bsongen::exception);
}

// --- Views. ---

TEST(binary_vector_view, float32_reads_little_endian_binary32_bit_for_bit) {
  // 127.0, -7.7f, -inf, +inf, -0.0, a quiet NaN with a payload: every bit pattern kept.
  const bytes payload = from_hex(
      "2700"
      "0000FE42"
      "6666F6C0"
      "000080FF"
      "0000807F"
      "00000080"
      "0100C07F");
  const bsongen::float32_vector_view v = *bsongen::parse_float32_vector(payload);
  ASSERT_EQ(v.size(), 6U);
  EXPECT_EQ(v[0], 127.0F);
  EXPECT_EQ(v[1], -7.7F);
  EXPECT_EQ(v[2], -std::numeric_limits<float>::infinity());
  EXPECT_EQ(v[3], std::numeric_limits<float>::infinity());
  EXPECT_EQ(std::bit_cast<std::uint32_t>(v[4]), 0x80000000U);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(v[5]), 0x7FC00001U);

  std::vector<float> copied(6);
  v.copy_to(copied);
  std::vector<float> iterated(v.begin(), v.end());
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(std::bit_cast<std::uint32_t>(copied[i]), std::bit_cast<std::uint32_t>(v[i])) << i;
    EXPECT_EQ(std::bit_cast<std::uint32_t>(iterated[i]), std::bit_cast<std::uint32_t>(v[i])) << i;
  }
  EXPECT_EQ(v.bytes().size(), 24U);
  static_assert(std::random_access_iterator<bsongen::float32_vector_view::iterator>);
  EXPECT_EQ(v.end() - v.begin(), 6);
  EXPECT_EQ(v.begin()[1], -7.7F);
}

TEST(binary_vector_view, float32_reads_unaligned_data) {
  // The payload at an odd address: elements are memcpy'd, never dereferenced as float*.
  bytes storage = from_hex(
      "00"
      "2700"
      "0000FE42"
      "0000E040");
  const std::span<const std::uint8_t> payload(storage.data() + 1, storage.size() - 1);
  const bsongen::float32_vector_view v = *bsongen::parse_float32_vector(payload);
  EXPECT_EQ(v[0], 127.0F);
  EXPECT_EQ(v[1], 7.0F);
}

TEST(binary_vector_view, int8_reads_twos_complement) {
  const bytes payload = from_hex(
      "0300"
      "7F"
      "07"
      "80"
      "FF"
      "00");
  const bsongen::int8_vector_view v = *bsongen::parse_int8_vector(payload);
  const std::vector<std::int8_t> want{127, 7, -128, -1, 0};
  EXPECT_EQ(std::vector<std::int8_t>(v.begin(), v.end()), want);
  std::vector<std::int8_t> copied(5);
  v.copy_to(copied);
  EXPECT_EQ(copied, want);
  EXPECT_EQ(v[2], -128);
  static_assert(std::random_access_iterator<bsongen::int8_vector_view::iterator>);
}

TEST(binary_vector_view, packed_bits_read_most_significant_first_without_the_padding) {
  // The specification's example: [238, 224] with padding 4 is 1110 1110 1110.
  const bytes payload = from_hex("1004EEE0");
  const bsongen::packed_bit_vector_view v = *bsongen::parse_packed_bit_vector(payload);
  ASSERT_EQ(v.size(), 12U);
  EXPECT_EQ(v.padding(), 4);
  const std::vector<bool> want{1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0};
  EXPECT_EQ(std::vector<bool>(v.begin(), v.end()), want);
  for (std::size_t i = 0; i < 12; ++i) EXPECT_EQ(v.test(i), want[i]) << i;
  EXPECT_EQ(hex(v.bytes()), "EEE0");
  const packed_bits owned = v.to_packed_bits();
  EXPECT_EQ(hex(owned.bytes), "EEE0");
  EXPECT_EQ(owned.padding, 4);
  static_assert(std::random_access_iterator<bsongen::packed_bit_vector_view::iterator>);
}

// --- Owning decodes. ---

TEST(binary_vector_decode, fills_vectors_and_packed_bits) {
  std::vector<float> f{9.0F};
  ASSERT_TRUE(bsongen::decode_vector(from_hex("27000000FE420000E040"), f));
  EXPECT_EQ(f, (std::vector<float>{127.0F, 7.0F}));
  ASSERT_TRUE(bsongen::decode_vector(from_hex("2700"), f));
  EXPECT_TRUE(f.empty());

  std::vector<std::int8_t> i;
  ASSERT_TRUE(bsongen::decode_vector(from_hex("03007F0780"), i));
  EXPECT_EQ(i, (std::vector<std::int8_t>{127, 7, -128}));

  packed_bits b;
  ASSERT_TRUE(bsongen::decode_vector(from_hex("10037F08"), b));
  EXPECT_EQ(hex(b.bytes), "7F08");
  EXPECT_EQ(b.padding, 3);
  EXPECT_EQ(b.size(), 13U);
}

TEST(binary_vector_decode, fixed_dimension_names_stored_and_expected) {
  std::array<float, 2> f{};
  ASSERT_TRUE(bsongen::decode_vector(from_hex("27000000FE420000E040"), f));
  EXPECT_EQ(f, (std::array<float, 2>{127.0F, 7.0F}));

  std::array<float, 3> three{1.0F, 2.0F, 3.0F};
  bsongen::result<void> r = bsongen::decode_vector(from_hex("27000000FE420000E040"), three, 50);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::invalid_length);
  EXPECT_EQ(r.error().offset, 52U);
  EXPECT_EQ(r.error().message, "float32 vector has 2 elements, expected dimension 3");
  EXPECT_EQ(three, (std::array<float, 3>{1.0F, 2.0F, 3.0F}));  // unchanged

  std::array<std::int8_t, 2> i{};
  ASSERT_TRUE(bsongen::decode_vector(from_hex("03007F80"), i));
  EXPECT_EQ(i, (std::array<std::int8_t, 2>{127, -128}));
  std::array<std::int8_t, 1> one{5};
  r = bsongen::decode_vector(from_hex("03007F80"), one);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "int8 vector has 2 elements, expected dimension 1");
  EXPECT_EQ(one[0], 5);
}

TEST(binary_vector_decode, errors_leave_the_target_unchanged) {
  std::vector<float> f{1.0F, 2.0F};
  EXPECT_EQ(bsongen::decode_vector(from_hex("27002A2A2A"), f).error().code,
            error_code::invalid_length);
  EXPECT_EQ(bsongen::decode_vector(from_hex("03007F"), f).error().code, error_code::type_mismatch);
  EXPECT_EQ(f, (std::vector<float>{1.0F, 2.0F}));

  std::vector<std::int8_t> i{3};
  EXPECT_FALSE(bsongen::decode_vector(from_hex("03017F"), i));
  EXPECT_EQ(i, std::vector<std::int8_t>{3});

  packed_bits b(std::vector<std::uint8_t>{0x80}, 7);
  EXPECT_EQ(bsongen::decode_vector(from_hex("1007FF"), b).error().code, error_code::invalid_value);
  EXPECT_EQ(hex(b.bytes), "80");
  EXPECT_EQ(b.padding, 7);
}

// --- Encoding. ---

TEST(binary_vector_encode, sizes) {
  using bsongen::vector_payload_size;
  EXPECT_EQ(vector_payload_size(vector_dtype::float32, 0), 2U);
  EXPECT_EQ(vector_payload_size(vector_dtype::float32, 3), 14U);
  EXPECT_EQ(vector_payload_size(vector_dtype::int8, 3), 5U);
  EXPECT_EQ(vector_payload_size(vector_dtype::packed_bit, 0), 2U);
  EXPECT_EQ(vector_payload_size(vector_dtype::packed_bit, 1), 3U);
  EXPECT_EQ(vector_payload_size(vector_dtype::packed_bit, 8), 3U);
  EXPECT_EQ(vector_payload_size(vector_dtype::packed_bit, 9), 4U);
  EXPECT_EQ(bsongen::vector_value_size(vector_dtype::float32, 2), 15U);
  constexpr std::size_t huge = std::numeric_limits<std::size_t>::max() / 2;
  EXPECT_EQ(vector_payload_size(vector_dtype::float32, huge),
            std::numeric_limits<std::size_t>::max());
  EXPECT_EQ(vector_payload_size(vector_dtype::int8, std::numeric_limits<std::size_t>::max()),
            std::numeric_limits<std::size_t>::max());
  EXPECT_EQ(
      bsongen::vector_value_size(vector_dtype::int8, std::numeric_limits<std::size_t>::max() - 4),
      std::numeric_limits<std::size_t>::max());
  EXPECT_EQ(bsongen::packed_bit_padding(0), 0);
  EXPECT_EQ(bsongen::packed_bit_padding(1), 7);
  EXPECT_EQ(bsongen::packed_bit_padding(12), 4);
  EXPECT_EQ(bsongen::packed_bit_padding(16), 0);
  static_assert(bsongen::vector_payload_size(vector_dtype::float32, 2) == 10);
}

TEST(binary_vector_encode, writes_the_binary_value_as_the_specification_lays_it_out) {
  bsongen::writer out;
  const std::vector<float> f{127.0F, 7.0F};
  ASSERT_TRUE(bsongen::write_vector_value(out, std::span<const float>(f)));
  EXPECT_EQ(hex(out.bytes()),
            "0A00000009"
            "2700"
            "0000FE42"
            "0000E040");

  out.clear();
  const std::vector<std::int8_t> i{127, 7, -128};
  ASSERT_TRUE(bsongen::write_vector_value(out, std::span<const std::int8_t>(i)));
  EXPECT_EQ(hex(out.bytes()),
            "0500000009"
            "0300"
            "7F0780");

  out.clear();
  ASSERT_TRUE(
      bsongen::write_vector_value(out, packed_bits(std::vector<std::uint8_t>{0x7F, 0x08}, 3)));
  EXPECT_EQ(hex(out.bytes()),
            "0400000009"
            "1003"
            "7F08");

  out.clear();
  ASSERT_TRUE(bsongen::write_vector_value(out, std::span<const float>()));
  EXPECT_EQ(hex(out.bytes()),
            "0200000009"
            "2700");
}

TEST(binary_vector_encode, refuses_packed_bits_the_decoder_would_refuse) {
  bsongen::writer out;
  out.put_u8(0xAB);
  const auto refused = [&](std::vector<std::uint8_t> b, std::uint8_t padding) {
    bsongen::result<void> r = bsongen::write_packed_bit_vector_value(out, b, padding);
    EXPECT_FALSE(r) << hex(b) << " padding " << int{padding};
    EXPECT_EQ(hex(out.bytes()), "AB");  // unchanged
    EXPECT_FALSE(bsongen::to_packed_bit_vector_binary(b, padding));
    EXPECT_FALSE(bsongen::check_packed_bits(b, padding));
    return r ? bsongen::error() : r.error();
  };
  bsongen::error e = refused({0x01}, 8);
  EXPECT_EQ(e.code, error_code::invalid_value);
  EXPECT_EQ(e.offset, 0U);
  EXPECT_EQ(e.message, "packed_bit vector padding is 8, above the maximum of 7");
  e = refused({}, 1);
  EXPECT_EQ(e.code, error_code::invalid_value);
  EXPECT_NE(e.message.find("no data bytes"), std::string::npos);
  e = refused({0xFF}, 7);  // the specification's prose test
  EXPECT_EQ(e.code, error_code::invalid_value);
  EXPECT_NE(e.message.find("ignored bits"), std::string::npos);
  refused({0x7F, 0x07}, 3);
  EXPECT_FALSE(bsongen::write_vector_value(out, packed_bits(std::vector<std::uint8_t>{0x07}, 3)));
}

TEST(binary_vector_encode, every_packed_bit_encoding_is_one_the_decoder_accepts) {
  // The encoder's verdict and the decoder's agree for every padding, data length and last byte.
  for (int padding = 0; padding < 256; ++padding) {
    for (int last = -1; last < 256; ++last) {
      std::vector<std::uint8_t> b;
      if (last >= 0) b = {0xFF, static_cast<std::uint8_t>(last)};
      bsongen::writer out;
      const bool encoded = static_cast<bool>(
          bsongen::write_packed_bit_vector_value(out, b, static_cast<std::uint8_t>(padding)));
      bytes payload{0x10, static_cast<std::uint8_t>(padding)};
      payload.insert(payload.end(), b.begin(), b.end());
      ASSERT_EQ(encoded, static_cast<bool>(bsongen::parse_vector(payload)))
          << "padding " << padding << " last " << last;
      if (encoded) {
        EXPECT_EQ(hex(out.bytes().subspan(5)), hex(payload));
      }
    }
  }
}

TEST(binary_vector_encode, caller_buffer_too_small_is_buffer_too_small_and_writes_nothing) {
  std::array<std::uint8_t, 14> buffer{};
  bsongen::writer out(buffer);
  out.put_u8(0x11);
  const std::vector<float> f{1.0F, 2.0F};  // 15 bytes, 13 left
  bsongen::result<void> r = bsongen::write_vector_value(out, std::span<const float>(f));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::buffer_too_small);
  EXPECT_EQ(r.error().message, "binary vector value needs 15 bytes");
  EXPECT_EQ(out.size(), 1U);
  EXPECT_FALSE(out.overflowed());
  const std::vector<std::int8_t> i{1, 2, 3};  // 10 bytes fit
  ASSERT_TRUE(bsongen::write_vector_value(out, std::span<const std::int8_t>(i)));
  EXPECT_EQ(hex(out.bytes()),
            "11"
            "0500000009"
            "0300"
            "010203");
}

TEST(binary_vector_encode, payloads_beyond_a_document_are_too_large) {
  bsongen::writer out;
  bool stored = false;
  bsongen::result<void> r = bsongen::detail::write_vector_value_with(
      out, bsongen::max_vector_payload_size + 1, [&](std::uint8_t*) { stored = true; });
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::too_large);
  EXPECT_FALSE(stored);
  EXPECT_EQ(out.size(), 0U);
  EXPECT_EQ(bsongen::max_vector_payload_size + 12,
            static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()));
}

TEST(binary_vector_encode, store_functions_return_the_end_and_match_the_sizes) {
  std::array<std::uint8_t, 32> buffer{};
  const std::vector<float> f{1.5F, -2.0F, 0.0F};
  std::uint8_t* end = bsongen::store_vector_value(buffer.data(), std::span<const float>(f));
  EXPECT_EQ(static_cast<std::size_t>(end - buffer.data()),
            bsongen::vector_value_size(vector_dtype::float32, 3));
  const std::vector<std::uint8_t> b{0xA0};
  end = bsongen::store_packed_bit_vector_payload(buffer.data(), b, 5);
  EXPECT_EQ(static_cast<std::size_t>(end - buffer.data()),
            bsongen::vector_payload_size(vector_dtype::packed_bit, 3));
  EXPECT_EQ(hex({buffer.data(), 3}), "1005A0");
}

TEST(binary_vector_encode, round_trips_every_float_bit_pattern_class) {
  std::vector<float> f;
  for (std::uint32_t bits :
       {0x00000000U, 0x80000000U, 0x00000001U, 0x007FFFFFU, 0x3F800000U, 0x7F7FFFFFU, 0xFF7FFFFFU,
        0x7F800000U, 0xFF800000U, 0x7FC00000U, 0xFFC00001U, 0x7F800001U}) {
    f.push_back(std::bit_cast<float>(bits));
  }
  const bsongen::binary b = bsongen::to_vector_binary(std::span<const float>(f));
  EXPECT_EQ(b.subtype, bsongen::binary_subtype::vector);
  std::vector<float> back;
  ASSERT_TRUE(bsongen::decode_vector(b.bytes, back));
  ASSERT_EQ(back.size(), f.size());
  for (std::size_t i = 0; i < f.size(); ++i) {
    EXPECT_EQ(std::bit_cast<std::uint32_t>(back[i]), std::bit_cast<std::uint32_t>(f[i])) << i;
  }
  const std::vector<std::int8_t> i{-128, -1, 0, 1, 127};
  std::vector<std::int8_t> i_back;
  ASSERT_TRUE(bsongen::decode_vector(
      bsongen::to_vector_binary(std::span<const std::int8_t>(i)).bytes, i_back));
  EXPECT_EQ(i_back, i);
}

// --- packed_bits. ---

TEST(packed_bits, push_back_keeps_padding_and_ignored_bits_in_step) {
  packed_bits b;
  EXPECT_TRUE(b.empty());
  EXPECT_TRUE(b.valid());
  const std::vector<bool> bits{1, 1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0};
  for (std::size_t i = 0; i < bits.size(); ++i) {
    b.push_back(bits[i]);
    EXPECT_EQ(b.size(), i + 1);
    EXPECT_EQ(b.padding, bsongen::packed_bit_padding(i + 1));
    EXPECT_TRUE(b.valid()) << i;
  }
  EXPECT_EQ(hex(b.bytes), "EEE0");
  for (std::size_t i = 0; i < bits.size(); ++i) EXPECT_EQ(b[i], bits[i]) << i;
  b.set(3, true);
  b.set(0, false);
  EXPECT_EQ(hex(b.bytes), "7EE0");
  EXPECT_TRUE(b.test(3));
  EXPECT_FALSE(b.test(0));
  b.clear();
  EXPECT_EQ(b.size(), 0U);
  EXPECT_EQ(b.padding, 0);
}

TEST(packed_bits, bit_count_constructor_and_validity) {
  const packed_bits zeros(13);
  EXPECT_EQ(hex(zeros.bytes), "0000");
  EXPECT_EQ(zeros.padding, 3);
  EXPECT_EQ(zeros.size(), 13U);
  EXPECT_TRUE(zeros.valid());
  const std::array<std::uint8_t, 1> one{0x01};
  const std::array<std::uint8_t, 1> all{0xFF};
  const std::array<std::uint8_t, 1> first{0x80};
  EXPECT_FALSE(packed_bits(one, 8).valid());
  EXPECT_FALSE(packed_bits(std::span<const std::uint8_t>(), 1).valid());
  EXPECT_FALSE(packed_bits(all, 7).valid());
  EXPECT_TRUE(packed_bits(first, 7).valid());
}

TEST(packed_bits, equality_compares_padding_and_bytes) {
  // The specification's comparison prose test.
  const packed_bits v1(std::vector<std::uint8_t>{0x80}, 7);
  const packed_bits v2(std::vector<std::uint8_t>{0xFF}, 7);
  packed_bits v3;
  v3.push_back(true);
  EXPECT_NE(v1, v2);
  EXPECT_EQ(v1, v3);
  EXPECT_NE(packed_bits(std::vector<std::uint8_t>{0x80}, 6), v1);
}

TEST(packed_bits, pmr_spelling_keeps_its_bytes_on_its_resource) {
  std::array<std::byte, 512> arena{};
  std::pmr::monotonic_buffer_resource memory(arena.data(), arena.size(),
                                             std::pmr::null_memory_resource());
  std::pmr::vector<bsongen::pmr::packed_bits> many(&memory);
  many.emplace_back(std::size_t{20});
  EXPECT_EQ(many[0].get_allocator().resource(), &memory);
  EXPECT_EQ(many[0].size(), 20U);
  bsongen::pmr::packed_bits decoded(&memory);
  ASSERT_TRUE(bsongen::decode_vector(from_hex("1004EEE0"), decoded));
  EXPECT_EQ(decoded.get_allocator().resource(), &memory);
  EXPECT_EQ(decoded.size(), 12U);
  bsongen::writer out;
  ASSERT_TRUE(bsongen::write_vector_value(out, decoded));
  EXPECT_EQ(hex(out.bytes()),
            "0400000009"
            "1004EEE0");
  static_assert(
      std::uses_allocator_v<bsongen::pmr::packed_bits, std::pmr::polymorphic_allocator<>>);
}

TEST(binary_vector_dtype, names) {
  EXPECT_EQ(bsongen::vector_dtype_name(vector_dtype::int8), "int8");
  EXPECT_EQ(bsongen::vector_dtype_name(vector_dtype::float32), "float32");
  EXPECT_EQ(bsongen::vector_dtype_name(vector_dtype::packed_bit), "packed_bit");
  EXPECT_EQ(bsongen::vector_dtype_name(static_cast<vector_dtype>(0x04)), "unknown");
  EXPECT_EQ(static_cast<int>(vector_dtype::int8), 0x03);
  EXPECT_EQ(static_cast<int>(vector_dtype::float32), 0x27);
  EXPECT_EQ(static_cast<int>(vector_dtype::packed_bit), 0x10);
}

}  // namespace
