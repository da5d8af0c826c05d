// bsongen::number<T> (bsongen/number.hpp): a widened number that remembers the BSON type it was
// read as; the encode rules are tested with the codec (tests/generated/value_codecs_test.cpp).

#include "bsongen/number.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace {

using bsongen::bson_type;
using bsongen::number;

TEST(number, new_numbers_have_their_own_type) {
  EXPECT_EQ(number<std::int64_t>().wire_type(), bson_type::int64);
  EXPECT_EQ(number<double>(2.5).wire_type(), bson_type::double_);
  EXPECT_EQ(number<double>().value(), 0.0);
}

TEST(number, assignment_keeps_the_remembered_type) {
  number<std::int64_t> n(7, bson_type::int32);
  n = std::int64_t{1} << 40;
  EXPECT_EQ(n.wire_type(), bson_type::int32);
  EXPECT_EQ(n.value(), std::int64_t{1} << 40);
  const std::int64_t plain = n;  // converts to T
  EXPECT_EQ(plain, std::int64_t{1} << 40);
  n.set_wire_type(bson_type::int64);
  EXPECT_EQ(n.wire_type(), bson_type::int64);
}

TEST(number, only_number_types_can_be_remembered) {
  // number<int64> is never read as a double; anything else counts as the own type.
  EXPECT_EQ(number<std::int64_t>(1, bson_type::double_).wire_type(), bson_type::int64);
  EXPECT_EQ(number<std::int64_t>(1, bson_type::string).wire_type(), bson_type::int64);
  EXPECT_EQ(number<double>(1, bson_type::int32).wire_type(), bson_type::int32);
  EXPECT_EQ(number<double>(1, bson_type::int64).wire_type(), bson_type::int64);
  EXPECT_EQ(number<double>(1, bson_type::boolean).wire_type(), bson_type::double_);
}

TEST(number, compares_values_exactly_whatever_the_remembered_type) {
  EXPECT_EQ(number<double>(3, bson_type::int32), number<double>(3.0));
  EXPECT_TRUE(number<double>(2.5) == 2.5);
  EXPECT_FALSE(number<std::int64_t>(2) == 2.5);  // not truncated to 2
  EXPECT_TRUE(number<std::int64_t>(2) == 2.0);
  EXPECT_TRUE(number<std::int64_t>(-1) == -1);
  EXPECT_FALSE(number<std::int64_t>(-1) == 18446744073709551615ULL);
  EXPECT_TRUE(number<std::int64_t>(9007199254740993) == 9007199254740993LL);
  EXPECT_FALSE(number<std::int64_t>(9007199254740993) == 9007199254740992.0);
}

static_assert(number<double>(1.5) + 1 == 2.5);

}  // namespace
