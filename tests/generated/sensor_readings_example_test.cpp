// schemas/sensor_readings.yaml, the fixed-shape example: it stays fixed-shape, a reading encodes
// to the bytes the generic path writes for the same fields and round-trips, a document in another
// key order still decodes, and a value of the wrong type is refused with its path and offset.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "bsongen/codec.hpp"
#include "bsongen/document.hpp"
#include "codec_helpers.hpp"
#include "sensor_readings.bsongen.hpp"

namespace {

using bsongen::test::bytes;
using bsongen::test::decode_error;
using bsongen::test::decode_ok;
using bsongen::test::encode_error;
using bsongen::test::encode_ok;
using bsongen::test::expect_round_trip;
using bsongen::test::generic_encoding;

// What the schema's comment promises: a field that is not of fixed width (a string, a `T?`)
// added to either struct would make this fail to compile.
static_assert(bsongen::detail::fixed_shape_document<sensors::position>);
static_assert(bsongen::detail::fixed_shape_document<sensors::reading>);

sensors::reading sample() {
  sensors::reading r;
  r.id = *bsongen::object_id::from_hex("6570a1b2c3d4e5f607182930");
  r.station = 4711;
  r.sensor = {0x3f, 0x2a, 0x91, 0x0c, 0x55, 0x6e, 0x4b, 0x1d,
              0x9a, 0x07, 0xc1, 0x3e, 0x88, 0x20, 0x4f, 0x61};
  r.taken_at = bsongen::datetime(std::chrono::milliseconds(1'701'820'800'250));
  r.sequence = 9'000'000'001;
  r.temperature_c = -3.25;
  r.humidity_pct = 87.5;
  r.pressure_hpa = 1013.2;
  r.acceleration = {0.01, -0.02, 9.81};
  r.battery_mv = 3620;
  r.heater_on = true;
  r.quality = sensors::quality::estimated;
  r.site = {52.5163, 13.3777, 34.0};
  return r;
}

// The offset of the element with this type byte and key (which must be in `b`).
std::size_t element_offset(const bytes& b, std::uint8_t type, const std::string& key) {
  bytes prefix{type};
  prefix.insert(prefix.end(), key.begin(), key.end());
  prefix.push_back(0);
  const auto at = std::search(b.begin(), b.end(), prefix.begin(), prefix.end());
  EXPECT_NE(at, b.end()) << key;
  return static_cast<std::size_t>(at - b.begin());
}

TEST(sensor_readings_example, round_trips) { expect_round_trip(sample()); }

TEST(sensor_readings_example, encodes_the_generic_paths_bytes_at_the_fixed_size) {
  const sensors::reading r = sample();
  const bsongen::document expected{
      {"_id", r.id},
      {"station", r.station},
      {"sensor",
       bsongen::binary{{r.sensor.begin(), r.sensor.end()}, bsongen::binary_subtype::uuid}},
      {"takenAt", r.taken_at},
      {"seq", r.sequence},
      {"tempC", r.temperature_c},
      {"humidity", r.humidity_pct},
      {"pressure", r.pressure_hpa},
      {"accel", bsongen::array{0.01, -0.02, 9.81}},
      {"batteryMv", r.battery_mv},
      {"heater", true},
      {"quality", 1},
      {"site", bsongen::document{{"lat", 52.5163}, {"lon", 13.3777}, {"altM", 34.0}}},
  };
  const bytes encoded = encode_ok(r);
  EXPECT_EQ(encoded, generic_encoding(expected));
  EXPECT_EQ(encoded.size(), bsongen::codec<sensors::reading>::fixed_size);
  EXPECT_EQ(encode_ok(sensors::reading{}).size(), bsongen::codec<sensors::reading>::fixed_size);
}

TEST(sensor_readings_example, another_key_order_decodes_the_general_way) {
  const bytes encoded = encode_ok(sample());
  const std::vector<bytes> elements = bsongen::test::elements_of(encoded);
  std::vector<std::size_t> reversed(elements.size());
  for (std::size_t i = 0; i < reversed.size(); ++i) reversed[i] = reversed.size() - 1 - i;
  EXPECT_TRUE(decode_ok<sensors::reading>(bsongen::test::document_of(elements, reversed)) ==
              sample());
}

TEST(sensor_readings_example, a_value_of_the_wrong_type_names_its_path_and_offset) {
  bytes b = encode_ok(sample());
  // site.lat's type byte from double to int64 (same width): the skeleton compare misses, and the
  // general decoder refuses it.
  const std::size_t at = element_offset(b, 0x01, "lat");
  b[at] = 0x12;
  const bsongen::error e = decode_error<sensors::reading>(b);
  EXPECT_EQ(e.code, bsongen::error_code::type_mismatch);
  EXPECT_EQ(e.path, "site.lat");
  EXPECT_EQ(e.offset, at);
  EXPECT_EQ(e.message, "expected double, found int64");
}

TEST(sensor_readings_example, encode_refuses_a_quality_no_enumerator_names) {
  sensors::reading r = sample();
  r.quality = static_cast<sensors::quality>(7);
  EXPECT_EQ(encode_error(r).code, bsongen::error_code::invalid_value);
}

}  // namespace
