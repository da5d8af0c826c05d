// Byte I/O: little-endian loads/stores, the writer's modes, the reader's bounds.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "bsongen/detail/endian.hpp"
#include "bsongen/reader.hpp"
#include "bsongen/writer.hpp"

namespace {

using namespace bsongen;

TEST(Endian, LoadsAreLittleEndian) {
  const std::uint8_t b[8] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x88};
  EXPECT_EQ(detail::load_u32_le(b), 0x04030201u);
  EXPECT_EQ(detail::load_u64_le(b), 0x8807060504030201ull);
  EXPECT_EQ(detail::load_i64_le(b), static_cast<std::int64_t>(0x8807060504030201ull));
  const std::uint8_t neg[4] = {0xFF, 0xFF, 0xFF, 0xFF};
  EXPECT_EQ(detail::load_i32_le(neg), -1);
  EXPECT_EQ(detail::load_u32_be(b), 0x01020304u);
}

TEST(Endian, DoubleMatchesIeee754Bytes) {
  // 120.384 as BSON stores it (from the js-bson benchmark document {_id: 120.384}).
  const std::uint8_t bytes[8] = {0x7F, 0x6A, 0xBC, 0x74, 0x93, 0x18, 0x5E, 0x40};
  EXPECT_EQ(detail::load_f64_le(bytes), 120.384);
  std::uint8_t out[8];
  detail::store_f64_le(out, 120.384);
  EXPECT_EQ(std::memcmp(out, bytes, 8), 0);
}

TEST(Endian, RoundTripsExtremes) {
  std::uint8_t buf[8];
  for (std::int64_t v : {std::numeric_limits<std::int64_t>::min(), std::int64_t{-1},
                         std::int64_t{0}, std::numeric_limits<std::int64_t>::max()}) {
    detail::store_i64_le(buf, v);
    EXPECT_EQ(detail::load_i64_le(buf), v);
  }
  for (std::int32_t v : {std::numeric_limits<std::int32_t>::min(), -120, 0,
                         std::numeric_limits<std::int32_t>::max()}) {
    detail::store_i32_le(buf, v);
    EXPECT_EQ(detail::load_i32_le(buf), v);
  }
  for (double v : {0.0, -0.0, 1e308, -5e-324, std::numeric_limits<double>::infinity()}) {
    detail::store_f64_le(buf, v);
    EXPECT_EQ(std::memcmp(&v, buf, 8), 0);  // bit-exact, including -0.0
  }
  detail::store_f64_le(buf, std::nan(""));
  EXPECT_TRUE(std::isnan(detail::load_f64_le(buf)));
  detail::store_u32_be(buf, 0xA1B2C3D4u);
  EXPECT_EQ(buf[0], 0xA1);
  EXPECT_EQ(buf[3], 0xD4);
}

TEST(Writer, GrowsAndKeepsCapacityOnClear) {
  writer w;
  for (int i = 0; i < 1000; ++i) w.put_i32(i);
  ASSERT_EQ(w.size(), 4000u);
  EXPECT_EQ(detail::load_i32_le(w.data() + 4 * 999), 999);
  const auto cap = w.capacity();
  const auto* data = w.data();
  w.clear();
  EXPECT_EQ(w.size(), 0u);
  EXPECT_EQ(w.capacity(), cap);
  for (int i = 0; i < 1000; ++i) w.put_i32(i);
  EXPECT_EQ(w.data(), data) << "a reused writer must not reallocate";
}

TEST(Writer, ReserveMakesExtendAllocationFree) {
  writer w;
  w.reserve(100);
  const auto* data = w.data();
  std::uint8_t* p = w.extend(100);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p, data);
  EXPECT_EQ(w.size(), 100u);
}

TEST(Writer, StringsAndKeysHaveTheirFraming) {
  writer w;
  w.put_cstring("ab");
  w.put_string("xyz");
  const std::vector<std::uint8_t> expected = {'a', 'b', 0, 4, 0, 0, 0, 'x', 'y', 'z', 0};
  EXPECT_EQ(std::vector<std::uint8_t>(w.bytes().begin(), w.bytes().end()), expected);
  w.patch_i32(3, 9);
  EXPECT_EQ(w.data()[3], 9);
}

TEST(Writer, CallerBufferNeverGrowsAndReportsOverflow) {
  std::array<std::uint8_t, 8> storage{};
  writer w{std::span<std::uint8_t>(storage)};
  EXPECT_TRUE(w.uses_caller_buffer());
  w.put_i32(7);
  w.put_i32(8);
  EXPECT_FALSE(w.overflowed());
  EXPECT_EQ(w.data(), storage.data());
  w.put_u8(1);
  EXPECT_TRUE(w.overflowed());
  w.put_i64(1);  // a no-op after overflow, never a write past the span
  EXPECT_EQ(w.size(), 8u);
  w.clear();
  EXPECT_FALSE(w.overflowed());
}

// The contract encoders rely on (codec.hpp, encode_document, extjson_to_bson): an extend that
// does not fit changes nothing, so a failed encode leaves the writer as it was.
TEST(Writer, ExtendThatDoesNotFitChangesNothing) {
  std::array<std::uint8_t, 8> storage{};
  writer w{std::span<std::uint8_t>(storage)};
  w.put_i32(7);
  EXPECT_EQ(w.extend(5), nullptr);
  EXPECT_EQ(w.size(), 4u);
  EXPECT_FALSE(w.overflowed());
  std::uint8_t* p = w.extend(4);  // what still fits, fits
  ASSERT_EQ(p, storage.data() + 4);
  EXPECT_EQ(w.size(), 8u);
}

TEST(Writer, AfterAPutOverflowsNothingMoreIsWrittenUntilRewound) {
  std::array<std::uint8_t, 8> storage{};
  writer w{std::span<std::uint8_t>(storage)};
  w.put_u8(1);
  const writer::mark before = w.position();
  w.put_i64(2);  // 8 bytes do not fit in the 7 left
  EXPECT_TRUE(w.overflowed());
  w.put_u8(3);  // would fit, but the stream already has a hole
  EXPECT_EQ(w.extend(1), nullptr);
  w.truncate(0);  // shrinking does not end the overflow either
  w.put_u8(4);
  EXPECT_EQ(w.size(), 0u);
  EXPECT_TRUE(w.overflowed());
  w.rewind(before);
  EXPECT_FALSE(w.overflowed());
  EXPECT_EQ(w.size(), 1u);
  w.put_u8(5);
  EXPECT_EQ(w.size(), 2u);
  EXPECT_EQ(storage[1], 5);
}

TEST(Writer, MovedFromWriterIsEmptyAndGrowable) {
  writer a;
  a.put_i32(1);
  writer b = std::move(a);
  EXPECT_EQ(b.size(), 4u);
  EXPECT_EQ(a.size(), 0u);  // NOLINT(bugprone-use-after-move): the state is specified
  EXPECT_EQ(a.capacity(), 0u);
  a.put_i32(2);  // writes into a buffer of its own, never into b's
  EXPECT_EQ(a.size(), 4u);
  EXPECT_EQ(detail::load_i32_le(b.data()), 1);
  EXPECT_NE(a.data(), b.data());
}

TEST(Writer, TakeMovesBytesOut) {
  writer w;
  w.put_f64(1.5);
  byte_buffer b = w.take();
  EXPECT_EQ(b.size(), 8u);
  EXPECT_EQ(detail::load_f64_le(b.data()), 1.5);
  EXPECT_EQ(w.size(), 0u);
  w.put_u8(1);  // still usable
  EXPECT_EQ(w.size(), 1u);
}

TEST(Reader, NeverReadsPastTheEnd) {
  const std::uint8_t bytes[6] = {1, 0, 0, 0, 'k', 0};
  reader r{std::span<const std::uint8_t>(bytes)};
  std::int64_t big = 0;
  EXPECT_FALSE(r.read_i64(big));
  EXPECT_EQ(r.offset(), 0u) << "a failed read leaves the position unchanged";
  std::int32_t v = 0;
  ASSERT_TRUE(r.read_i32(v));
  EXPECT_EQ(v, 1);
  std::string_view key;
  ASSERT_TRUE(r.read_cstring(key));
  EXPECT_EQ(key, "k");
  EXPECT_TRUE(r.at_end());
  std::uint8_t b = 0;
  EXPECT_FALSE(r.read_u8(b));
  EXPECT_FALSE(r.read_cstring(key));
  EXPECT_EQ(r.take(1), nullptr);
}

TEST(Reader, CStringWithoutNulFails) {
  const std::uint8_t bytes[3] = {'a', 'b', 'c'};
  reader r{std::span<const std::uint8_t>(bytes)};
  std::string_view s;
  EXPECT_FALSE(r.read_cstring(s));
  EXPECT_EQ(r.offset(), 0u);
}

TEST(Reader, SplitKeepsOffsetsFromTheOutermostInput) {
  const std::uint8_t bytes[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  reader r{std::span<const std::uint8_t>(bytes)};
  ASSERT_TRUE(r.skip(2));
  reader sub;
  ASSERT_TRUE(r.split(4, sub));
  EXPECT_EQ(sub.offset(), 2u);
  EXPECT_EQ(sub.remaining(), 4u);
  EXPECT_EQ(r.offset(), 6u);
  std::int64_t too_big = 0;
  EXPECT_FALSE(sub.read_i64(too_big)) << "a sub-reader is bounded by its own length";
  EXPECT_FALSE(r.split(5, sub));
}

TEST(Reader, EmptyInput) {
  reader r{std::span<const std::uint8_t>()};
  EXPECT_TRUE(r.at_end());
  std::string_view s;
  EXPECT_FALSE(r.read_cstring(s));
}

}  // namespace
