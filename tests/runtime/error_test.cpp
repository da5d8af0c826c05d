#include "bsongen/error.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

TEST(Error, ToStringNamesCodePathOffsetAndMessage) {
  bsongen::error e(bsongen::error_code::type_mismatch, "expected int32, found string", 117);
  e.prepend_path("qty");
  e.prepend_path("3");
  e.prepend_path("orders");
  EXPECT_EQ(e.path, "orders.3.qty");
  EXPECT_EQ(e.to_string(), "type_mismatch at orders.3.qty (byte 117): expected int32, found string");
}

TEST(Error, ToStringFallsBackToDescriptionWithoutMessage) {
  bsongen::error e(bsongen::error_code::truncated, "", 4);
  EXPECT_EQ(e.to_string(), "truncated (byte 4): input ends before the declared length");
}

TEST(Error, EveryCodeHasANameAndDescription) {
  for (int c = 0; c <= static_cast<int>(bsongen::error_code::io_error); ++c) {
    auto code = static_cast<bsongen::error_code>(c);
    EXPECT_NE(bsongen::name(code), "unknown") << c;
    EXPECT_NE(bsongen::describe(code), "unknown error code") << c;
  }
}

TEST(Result, HoldsValueOrError) {
  bsongen::result<int> ok = 5;
  ASSERT_TRUE(ok);
  EXPECT_EQ(*ok, 5);
  EXPECT_EQ(ok.value(), 5);

  bsongen::result<int> bad = bsongen::error(bsongen::error_code::invalid_value, "bad", 2);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, bsongen::error_code::invalid_value);
  EXPECT_THROW((void)bad.value(), bsongen::exception);
}

TEST(Result, VoidSpecialization) {
  bsongen::result<void> ok;
  EXPECT_TRUE(ok);
  EXPECT_NO_THROW(ok.value());
  bsongen::result<void> bad = bsongen::error(bsongen::error_code::too_deep, "depth 101", 9);
  EXPECT_FALSE(bad);
  try {
    bad.value();
    FAIL() << "value() of an error must throw";
  } catch (const bsongen::exception& ex) {
    EXPECT_EQ(ex.error().code, bsongen::error_code::too_deep);
    EXPECT_STREQ(ex.what(), "too_deep (byte 9): depth 101");
  }
}

}  // namespace
