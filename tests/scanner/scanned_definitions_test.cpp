// bsongen_generate(HEADERS) with a target whose compile definitions include entries that evaluate
// to nothing: nlohmann_json::nlohmann_json's (Debian's package has five) and two of this test's
// own. Each used to reach bsongen-scan as a bare -D that swallowed the next argument, failing the
// build; now they are dropped and the real definitions still reach the scan.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <type_traits>

#include "flagged.bsongen.hpp"

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

// The target links nlohmann_json for the definitions it brings; using it keeps that honest.
TEST(scanned_definitions, the_target_links_nlohmann_json) {
  EXPECT_EQ(nlohmann::json::parse("[1]").size(), 1U);
}

}  // namespace
