// bsongen_generate(HEADERS) with compile definitions that evaluate to nothing. The library
// scanned_empty_definitions has only such definitions (nlohmann_json::nlohmann_json's, five in
// Debian's package, and two of its own): they used to reach bsongen-scan as a bare -D that
// swallowed the next argument and failed the build. This test's own target has real definitions
// beside empty ones; the real ones must reach the scan.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <type_traits>

#include "flagged.bsongen.hpp"
#include "quiet.bsongen.hpp"

namespace {

template <class T>
concept has_never = requires(T t) {
  t.never;
};

TEST(scanned_definitions, the_targets_definitions_reached_the_scan) {
  flagged::settings s;
  EXPECT_EQ(s.extra, -7);  // FLAGGED_EXTRA_DEFAULT=-7: a value may start with '-'
  static_assert(!has_never<flagged::settings>);

  s.always = 1;
  s.extra = 2;
  auto bytes = bsongen::encode(s);
  ASSERT_TRUE(bytes) << bytes.error().to_string();
  // {"always": 1, "extra": 2}: the generated codec knows the member the definition enabled.
  const std::uint8_t expected[] = {0x1C, 0, 0,    0,   0x10, 'a', 'l', 'w', 'a', 'y', 's', 0, 1, 0,
                                   0,    0, 0x10, 'e', 'x',  't', 'r', 'a', 0,   2,   0,   0, 0, 0};
  ASSERT_EQ(bytes->size(), sizeof expected);
  EXPECT_TRUE(std::equal(bytes->span().begin(), bytes->span().end(), expected));
  auto back = bsongen::decode<flagged::settings>(bytes->span());
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(back->extra, 2);
}

template <class T>
concept has_quiet_never = requires(T t) {
  t.never;
};

TEST(scanned_definitions, a_target_whose_definitions_are_all_empty_scans) {
  static_assert(!has_quiet_never<quiet::note>);
  quiet::note n{"hi"};
  // {"text": "hi"}
  EXPECT_EQ(quiet::byte_count(n), 4U + 1U + 5U + 4U + 3U + 1U);
  auto bytes = bsongen::encode(n);
  ASSERT_TRUE(bytes) << bytes.error().to_string();
  auto back = bsongen::decode<quiet::note>(bytes->span());
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(back->text, "hi");
}

// scanned_flagged_codecs links nlohmann_json for the empty definitions it brings; using it keeps
// that link from being dropped as unused.
TEST(scanned_definitions, the_target_links_nlohmann_json) {
  EXPECT_EQ(nlohmann::json::parse("[1]").size(), 1U);
}

}  // namespace
