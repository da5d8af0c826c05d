// schemas/header_only/service_config.yaml, the header-only example (bsongen generate
// --header-only, one header with the codecs inline, no generated source compiled): a
// configuration round-trips, two sources of one program that both include the header encode and
// decode alike, and a misspelt setting is refused (`unknown_fields: reject`) with its path.

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "bsongen/codec.hpp"
#include "bsongen/document.hpp"
#include "codec_helpers.hpp"
#include "service_config.bsongen.hpp"  // generated with --header-only: types and codecs
#include "service_config_example_second_source.hpp"

namespace {

using bsongen::test::bytes;
using bsongen::test::decode_error;
using bsongen::test::encode_ok;
using bsongen::test::expect_round_trip;
using bsongen::test::generic_encoding;
using bsongen::test::to_bytes;

config::service_config sample() {
  config::service_config c;
  c.name = "invoice-renderer";
  c.log_level = config::log_level::warning;
  c.endpoints = {{"db-1.internal", 27017, true}, {"db-2.internal", 27018, false}};
  c.timeout_ms = 2500;
  c.features = {{"pdfA3", true}, {"legacyFonts", false}};
  return c;
}

TEST(service_config_example, round_trips) {
  expect_round_trip(sample());
  expect_round_trip(config::service_config{});
}

TEST(service_config_example, two_sources_including_the_header_agree) {
  const bytes here = encode_ok(sample());
  const auto there = encode_in_second_source(sample());
  ASSERT_TRUE(there) << there.error().to_string();
  EXPECT_EQ(to_bytes(*there), here);
  const auto back = decode_in_second_source(here);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_TRUE(*back == sample());
}

TEST(service_config_example, absent_settings_take_their_defaults) {
  const bytes minimal = generic_encoding(bsongen::document{{"name", "tiny"}});
  const auto c = bsongen::decode<config::service_config>(minimal);
  ASSERT_TRUE(c) << c.error().to_string();
  EXPECT_EQ(c->log_level, config::log_level::info);
  EXPECT_EQ(c->timeout_ms, 5000);
  EXPECT_EQ(c->max_connections, 100);
}

TEST(service_config_example, a_misspelt_setting_is_refused_with_its_path) {
  const bytes b = generic_encoding(bsongen::document{
      {"name", "invoice-renderer"},
      {"endpoints", bsongen::array{bsongen::document{{"host", "db-1"}, {"prot", 27017}}}},
  });
  const bsongen::error e = decode_error<config::service_config>(b);
  EXPECT_EQ(e.code, bsongen::error_code::unknown_field);
  EXPECT_EQ(e.path, "endpoints.0.prot");
}

}  // namespace
