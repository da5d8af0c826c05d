// bsongen::nullable<T> (bsongen/nullable.hpp): a T or null, the member type of `nullable<T>`.

#include "bsongen/nullable.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace {

using bsongen::nullable;

TEST(nullable, starts_null_and_takes_values_and_null) {
  nullable<std::string> n;
  EXPECT_TRUE(n.is_null());
  EXPECT_FALSE(n.has_value());
  EXPECT_TRUE(n == nullptr);
  n = "ada";
  EXPECT_FALSE(n.is_null());
  EXPECT_EQ(*n, "ada");
  EXPECT_EQ(n->size(), 3U);
  EXPECT_EQ(n.value(), "ada");
  n = nullptr;
  EXPECT_TRUE(n.is_null());
  EXPECT_THROW(static_cast<void>(n.value()), std::bad_optional_access);
  EXPECT_EQ(n.value_or("none"), "none");
  n.emplace(3, 'x');
  EXPECT_EQ(*n, "xxx");
  n.reset();
  EXPECT_TRUE(n.is_null());
}

TEST(nullable, compares_with_nullables_values_and_null) {
  const nullable<int> null;
  const nullable<int> five = 5;
  EXPECT_EQ(null, nullable<int>(nullptr));
  EXPECT_NE(null, five);
  EXPECT_EQ(five, nullable<int>(5));
  EXPECT_TRUE(five == 5);
  EXPECT_TRUE(5 == five);  // the rewritten candidate
  EXPECT_FALSE(five == 6);
  EXPECT_FALSE(null == 0);  // null equals no value
  EXPECT_FALSE(five == nullptr);
  EXPECT_TRUE(nullable<std::string>("x") == "x");
}

TEST(nullable, works_as_a_container_element) {
  std::vector<nullable<double>> v = {1.5, nullptr, 2};
  EXPECT_EQ(v[0], 1.5);
  EXPECT_TRUE(v[1].is_null());
  EXPECT_EQ(v, (std::vector<nullable<double>>{1.5, nullptr, 2.0}));
  std::optional<nullable<int>> absent;
  std::optional<nullable<int>> null = nullable<int>(nullptr);
  EXPECT_NE(absent, null);  // absent, null and a value stay apart
  EXPECT_TRUE(null->is_null());
}

static_assert(nullable<int>().is_null());
static_assert(*nullable<int>(3) == 3);

}  // namespace
