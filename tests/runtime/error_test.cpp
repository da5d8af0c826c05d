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
  EXPECT_EQ(e.to_string(),
            "type_mismatch at orders.3.qty (byte 117): expected int32, found string");
}

TEST(Error, ToStringFallsBackToDescriptionWithoutMessage) {
  bsongen::error e(bsongen::error_code::truncated, "", 4);
  EXPECT_EQ(e.to_string(), "truncated (byte 4): input ends before the declared length");
}

// Issue 11 item 14: keys come from hostile input and reached terminals raw through error messages.
TEST(Error, ToStringEscapesWhatATerminalWouldInterpret) {
  bsongen::error e(bsongen::error_code::unknown_field, "key 'x\x1b]0;pwned\x07' is unknown", 9);
  e.prepend_path(std::string("k\x1b[2J\r\n", 7));
  e.prepend_path(
      "\xc2\x9b"
      "31m");  // U+009B, the C1 control sequence introducer
  EXPECT_EQ(e.to_string(),
            "unknown_field at \\u009b31m.k\\x1b[2J\\r\\n (byte 9): key 'x\\x1b]0;pwned\\x07' is "
            "unknown");
  // The raw bytes stay available to programs.
  EXPECT_EQ(e.path,
            "\xc2\x9b"
            "31m.k\x1b[2J\r\n");
}

TEST(Error, PrintableKeepsReadableUtf8AndEscapesEverythingElse) {
  using bsongen::printable;
  EXPECT_EQ(printable("orders.3.qty"), "orders.3.qty");
  const std::string readable = "caf\xc3\xa9 \xe2\x98\x86 \xf0\x9f\x98\x80";
  EXPECT_EQ(printable(readable), readable);
  EXPECT_EQ(printable(std::string("a\0b\tc\x7f", 6)), "a\\x00b\\tc\\x7f");
  EXPECT_EQ(printable("back\\slash"), "back\\\\slash");  // so "\x1b" typed literally stays apart
  EXPECT_EQ(printable("\\x1b"), "\\\\x1b");
  // Not UTF-8: a lone continuation byte, a truncated sequence, an overlong form, a surrogate,
  // a code point beyond U+10FFFF.
  EXPECT_EQ(printable("\x80"), "\\x80");
  EXPECT_EQ(printable("a\xe2\x98"), "a\\xe2\\x98");
  EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");
  EXPECT_EQ(printable("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");
  // Valid but invisible or reordering: bidirectional override ("Trojan Source"), zero-width
  // space, line separator, BOM, a tag character.
  EXPECT_EQ(printable("\xe2\x80\xae"
                      "abc"),
            "\\u202eabc");
  EXPECT_EQ(printable("a\xe2\x80\x8b"
                      "b"),
            "a\\u200bb");
  EXPECT_EQ(printable("\xe2\x80\xa8"), "\\u2028");
  EXPECT_EQ(printable("\xef\xbb\xbf"), "\\ufeff");
  EXPECT_EQ(printable("\xf3\xa0\x81\x81"), "\\U000e0041");
}

TEST(Error, EveryByteValueComesOutPrintable) {
  for (int b = 0; b < 256; ++b) {
    const std::string out = bsongen::printable(std::string(1, static_cast<char>(b)));
    for (const char c : out) {
      const auto u = static_cast<unsigned char>(c);
      EXPECT_TRUE(u >= 0x20 && u < 0x7f) << "byte " << b << " gives " << out;
    }
  }
}

TEST(Error, EveryCodeHasANameAndDescription) {
  for (int c = 0; c <= static_cast<int>(bsongen::error_code::out_of_memory); ++c) {
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
