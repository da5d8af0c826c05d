// The code generated from a header written the way applications write them
// (tests/scanner/data/realworld_fixture/realworld/model.hpp, through bsongen_generate(HEADERS)):
// members without initializers, default member initializers, a class with its own constructor,
// aliases, unscoped enums with aliases and explicit underlying types, inline namespaces, macros,
// escaped keys, deprecated members, recursion. Each struct encodes to the bytes libbson writes for
// the same values and decodes back; absent fields take the value a new object has, whether decoding
// into a new object or into a used one.

#include <bson/bson.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "bson_builder.hpp"
#include "codec_helpers.hpp"
#include "libbson_doc.hpp"
#include "scanned_realworld.bsongen.hpp"

namespace {

namespace rw = corp::rw;
using bytes = std::vector<std::uint8_t>;
using bsongen::test::decode_error;
using bsongen::test::decode_ok;
using bsongen::test::encode_ok;

using bson_doc = bsongen::test::libbson_doc;

const bytes empty_document = {5, 0, 0, 0, 0};

// Decodes `input` into `obj` (a used object), expecting success.
template <class T>
void decode_into(const bytes& input, T& obj) {
  const bsongen::result<void> r = bsongen::decode(input, obj);
  ASSERT_TRUE(r) << r.error().to_string();
}

rw::settings changed_settings() {
  rw::settings s;
  s.retries = -1;
  s.threshold = 9.5;
  s.enabled = false;
  s.name = "changed";
  s.tags = {"x"};
  s.limits = {{"mem", 1}};
  s.window = {1, 2};
  s.shade = rw::red;
  s.verbosity = rw::lowest;
  s.port = std::nullopt;
  s.origin = {7, 8, std::nullopt};
  s.plain = {1, 2, 3};
  return s;
}

void expect_initial_settings(const rw::settings& s) {
  EXPECT_EQ(s.retries, 3);
  EXPECT_EQ(s.threshold, 0.25);
  EXPECT_TRUE(s.enabled);
  EXPECT_EQ(s.name, "default");
  EXPECT_EQ(s.tags, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(s.limits, (rw::counters_t{{"cpu", 4}}));
  EXPECT_EQ(s.window, (std::array<int, 2>{10, 20}));
  EXPECT_EQ(s.shade, rw::blue);
  EXPECT_EQ(s.verbosity, rw::high);
  EXPECT_EQ(s.port, 8080);
  EXPECT_EQ(s.origin.lat, 1.5);
  EXPECT_EQ(s.origin.lon, -2.5);
  EXPECT_EQ(s.origin.label, "home");
  EXPECT_TRUE(s.plain.empty());
}

TEST(scanned_realworld, members_without_initializers_decode_absent_as_zero) {
  const rw::reading fresh = decode_ok<rw::reading>(empty_document);
  EXPECT_EQ(fresh.n, 0);
  EXPECT_EQ(fresh.x, 0.0);
  EXPECT_FALSE(fresh.b);
  EXPECT_EQ(fresh.a, (std::array<double, 3>{}));
  EXPECT_EQ(fresh.l, 0);
  EXPECT_EQ(fresh.uc, 0);
  EXPECT_EQ(fresh.c, rw::red);
  EXPECT_EQ(fresh.d, rw::delta::flat);
  EXPECT_EQ(fresh.off, rw::offset::none);
  EXPECT_EQ(fresh.at.time_since_epoch().count(), 0);
  EXPECT_EQ(fresh.where.lat, 0.0);
  EXPECT_FALSE(fresh.where.label.has_value());
  // The same as a value-initialized reading, byte for byte.
  EXPECT_EQ(encode_ok(fresh), encode_ok(rw::reading{}));

  rw::reading used{};
  used.n = 5;
  used.x = 1.5;
  used.b = true;
  used.a = {1, 2, 3};
  used.c = rw::blue;
  used.d = rw::delta::up;
  used.where.label = "somewhere";
  decode_into(empty_document, used);
  EXPECT_EQ(encode_ok(used), encode_ok(rw::reading{}));
}

TEST(scanned_realworld, absent_fields_take_default_member_initializers) {
  expect_initial_settings(decode_ok<rw::settings>(empty_document));

  // A used object resets every absent field to its initializer, not to a zero value.
  rw::settings used = changed_settings();
  decode_into(empty_document, used);
  expect_initial_settings(used);

  // Present fields are read, the others reset.
  bson_doc partial;
  BSON_APPEND_INT32(partial.doc, "retries", 9);
  BSON_APPEND_UTF8(partial.doc, "name", "given");
  rw::settings reused = changed_settings();
  decode_into(partial.data(), reused);
  EXPECT_EQ(reused.retries, 9);
  EXPECT_EQ(reused.name, "given");
  reused.retries = 3;
  reused.name = "default";
  expect_initial_settings(reused);
}

TEST(scanned_realworld, a_user_constructor_decides_initial_values) {
  const rw::account fresh = decode_ok<rw::account>(empty_document);
  EXPECT_EQ(fresh.balance, 100);
  EXPECT_EQ(fresh.owner, "nobody");

  rw::account used(7);
  used.owner = "ann";
  used.rates = {{"eur", 1.25}};
  decode_into(empty_document, used);
  EXPECT_EQ(used.balance, 100);
  EXPECT_EQ(used.owner, "nobody");
  EXPECT_TRUE(used.rates.empty());

  rw::account full(-5);
  full.owner = "bob";
  full.rates = {{"usd", 0.5}};
  full.lookups = 3;  // BSONGEN_IGNORE: not written
  bson_doc expected;
  BSON_APPEND_INT64(expected.doc, "balance", -5);
  BSON_APPEND_UTF8(expected.doc, "owner", "bob");
  bson_t rates;
  BSON_APPEND_DOCUMENT_BEGIN(expected.doc, "rates", &rates);
  BSON_APPEND_DOUBLE(&rates, "usd", 0.5);
  bson_append_document_end(expected.doc, &rates);
  EXPECT_EQ(encode_ok(full), expected.data());
  const rw::account back = decode_ok<rw::account>(expected.data());
  EXPECT_EQ(back.balance, -5);
  EXPECT_EQ(back.owner, "bob");
  EXPECT_EQ(back.rates, full.rates);
  EXPECT_EQ(back.lookups, 0);
}

TEST(scanned_realworld, narrow_wide_and_enum_members_encode_like_libbson) {
  using std::chrono::system_clock;
  rw::reading r{};
  r.n = std::numeric_limits<int>::min();
  r.x = -0.125;
  r.b = true;
  r.a = {1, 2, 3};
  r.l = std::numeric_limits<long>::min();
  r.ll = std::numeric_limits<long long>::max();
  r.u = std::numeric_limits<unsigned>::max();
  r.i8 = -128;
  r.uc = 255;
  r.u16 = 65535;
  r.c = rw::green;
  r.d = rw::delta::down;
  r.o = rw::octet::top;
  r.off = rw::offset::min;
  r.at = system_clock::time_point(std::chrono::milliseconds(-1500));
  r.at_us = rw::micro_time(std::chrono::microseconds(2'000'000));
  r.at_min = std::chrono::time_point<system_clock, std::chrono::minutes>(std::chrono::minutes(3));
  r.at_s32 = std::chrono::time_point<system_clock, std::chrono::duration<std::int32_t>>(
      std::chrono::duration<std::int32_t>(std::numeric_limits<std::int32_t>::min()));
  r.where = {45.5, -73.25, "mtl"};

  bson_doc expected;
  BSON_APPEND_INT32(expected.doc, "n", std::numeric_limits<std::int32_t>::min());
  BSON_APPEND_DOUBLE(expected.doc, "x", -0.125);
  BSON_APPEND_BOOL(expected.doc, "b", true);
  bson_t a;
  BSON_APPEND_ARRAY_BEGIN(expected.doc, "a", &a);
  BSON_APPEND_DOUBLE(&a, "0", 1);
  BSON_APPEND_DOUBLE(&a, "1", 2);
  BSON_APPEND_DOUBLE(&a, "2", 3);
  bson_append_array_end(expected.doc, &a);
  BSON_APPEND_INT64(expected.doc, "l", std::numeric_limits<std::int64_t>::min());
  BSON_APPEND_INT64(expected.doc, "ll", std::numeric_limits<std::int64_t>::max());
  BSON_APPEND_INT64(expected.doc, "u", 4'294'967'295LL);
  BSON_APPEND_INT32(expected.doc, "i8", -128);
  BSON_APPEND_INT32(expected.doc, "uc", 255);
  BSON_APPEND_INT32(expected.doc, "u16", 65535);
  BSON_APPEND_INT32(expected.doc, "c", 5);
  BSON_APPEND_INT32(expected.doc, "d", -2'000'000'000);
  BSON_APPEND_INT32(expected.doc, "o", 255);
  BSON_APPEND_INT32(expected.doc, "off", -32768);
  BSON_APPEND_DATE_TIME(expected.doc, "at", -1500);
  BSON_APPEND_DATE_TIME(expected.doc, "at_us", 2000);
  BSON_APPEND_DATE_TIME(expected.doc, "at_min", 180'000);
  BSON_APPEND_DATE_TIME(expected.doc, "at_s32", -2'147'483'648'000LL);
  bson_t where;
  BSON_APPEND_DOCUMENT_BEGIN(expected.doc, "where", &where);
  BSON_APPEND_DOUBLE(&where, "lat", 45.5);
  BSON_APPEND_DOUBLE(&where, "lon", -73.25);
  BSON_APPEND_UTF8(&where, "label", "mtl");
  bson_append_document_end(expected.doc, &where);
  EXPECT_EQ(encode_ok(r), expected.data());

  const rw::reading back = decode_ok<rw::reading>(expected.data());
  EXPECT_EQ(back.l, r.l);
  EXPECT_EQ(back.u, r.u);
  EXPECT_EQ(back.i8, r.i8);
  EXPECT_EQ(back.uc, r.uc);
  EXPECT_EQ(back.d, rw::delta::down);
  EXPECT_EQ(back.o, rw::octet::top);
  EXPECT_EQ(back.at_min, r.at_min);
  EXPECT_EQ(back.at_s32, r.at_s32);
  EXPECT_EQ(encode_ok(back), expected.data());
}

TEST(scanned_realworld, values_the_members_cannot_hold_are_errors) {
  // One past an unsigned char, an int8_t, a uint16_t (int32 elements) and a uint32_t (int64).
  const std::pair<const char*, std::int32_t> narrow[] = {{"uc", 256}, {"i8", -129}, {"u16", -1}};
  for (const auto& [key, value] : narrow) {
    bson_doc input;
    bson_append_int32(input.doc, key, -1, value);
    EXPECT_EQ(decode_error<rw::reading>(input.data()).code, bsongen::error_code::inexact) << key;
  }
  bson_doc negative_unsigned;
  BSON_APPEND_INT64(negative_unsigned.doc, "u", -1);
  EXPECT_EQ(decode_error<rw::reading>(negative_unsigned.data()).code, bsongen::error_code::inexact);
  // Seconds that do not fit 32 bits, minutes that are not whole.
  bson_doc seconds_overflow;
  BSON_APPEND_DATE_TIME(seconds_overflow.doc, "at_s32", 2'147'483'648'000LL);
  EXPECT_EQ(decode_error<rw::reading>(seconds_overflow.data()).code, bsongen::error_code::inexact);
  bson_doc part_of_a_minute;
  BSON_APPEND_DATE_TIME(part_of_a_minute.doc, "at_min", 61'000);
  EXPECT_EQ(decode_error<rw::reading>(part_of_a_minute.data()).code, bsongen::error_code::inexact);
  // Enum values with no enumerator: the explicit values only.
  bson_doc not_a_color;
  BSON_APPEND_INT32(not_a_color.doc, "c", 1);
  EXPECT_EQ(decode_error<rw::reading>(not_a_color.data()).code, bsongen::error_code::invalid_value);
  rw::reading bad_octet{};
  bad_octet.o = static_cast<rw::octet>(7);
  EXPECT_EQ(bsongen::test::encode_error(bad_octet).code, bsongen::error_code::invalid_value);
}

TEST(scanned_realworld, enum_aliases_are_their_value) {
  rw::c_style c{};
  c.id = 4;
  c.lvl = rw::last;  // an alias of `high`
  bson_doc expected;
  BSON_APPEND_INT32(expected.doc, "id", 4);
  BSON_APPEND_INT32(expected.doc, "lvl", 3);
  EXPECT_EQ(encode_ok(c), expected.data());
  EXPECT_EQ(decode_ok<rw::c_style>(expected.data()).lvl, rw::high);

  bson_doc first;
  BSON_APPEND_INT32(first.doc, "lvl", 0);  // `lowest` and its alias `first`
  EXPECT_EQ(decode_ok<rw::c_style>(first.data()).lvl, rw::first);
  bson_doc unnamed;
  BSON_APPEND_INT32(unnamed.doc, "lvl", 1);
  EXPECT_EQ(decode_error<rw::c_style>(unnamed.data()).code, bsongen::error_code::invalid_value);
}

rw::category leaf(std::string name) {
  rw::category c;
  c.name = std::move(name);
  return c;
}

TEST(scanned_realworld, macro_members_escaped_keys_and_recursion) {
  bson_doc expected;
  BSON_APPEND_INT32(expected.doc, "from_macro", 11);
  BSON_APPEND_UTF8(expected.doc, "a.b", "dot");
  BSON_APPEND_INT32(expected.doc, "k\"ey\\ \xC3\xA9\t$", 12);
  const char* plain_keys[] = {"end", "out", "p", "v", "st", "value_type", "size"};
  std::int32_t next = 13;
  for (const char* key : plain_keys) bson_append_int32(expected.doc, key, -1, next++);
  bson_t roots;
  bson_t root;
  bson_t children;
  bson_t child;
  bson_t by_code;
  bson_t coded;
  bson_t empty;
  BSON_APPEND_ARRAY_BEGIN(expected.doc, "roots", &roots);
  BSON_APPEND_DOCUMENT_BEGIN(&roots, "0", &root);
  BSON_APPEND_UTF8(&root, "name", "top");
  BSON_APPEND_ARRAY_BEGIN(&root, "children", &children);
  BSON_APPEND_DOCUMENT_BEGIN(&children, "0", &child);
  BSON_APPEND_UTF8(&child, "name", "kid");
  BSON_APPEND_ARRAY_BEGIN(&child, "children", &empty);
  bson_append_array_end(&child, &empty);
  BSON_APPEND_DOCUMENT_BEGIN(&child, "by_code", &empty);
  bson_append_document_end(&child, &empty);
  bson_append_document_end(&children, &child);
  bson_append_array_end(&root, &children);
  BSON_APPEND_DOCUMENT_BEGIN(&root, "by_code", &by_code);
  BSON_APPEND_DOCUMENT_BEGIN(&by_code, "x1", &coded);
  BSON_APPEND_UTF8(&coded, "name", "coded");
  BSON_APPEND_ARRAY_BEGIN(&coded, "children", &empty);
  bson_append_array_end(&coded, &empty);
  BSON_APPEND_DOCUMENT_BEGIN(&coded, "by_code", &empty);
  bson_append_document_end(&coded, &empty);
  bson_append_document_end(&by_code, &coded);
  bson_append_document_end(&root, &by_code);
  bson_append_document_end(&roots, &root);
  bson_append_array_end(expected.doc, &roots);
  bson_t spot;
  BSON_APPEND_DOCUMENT_BEGIN(expected.doc, "spot", &spot);
  BSON_APPEND_DOUBLE(&spot, "lat", 1);
  BSON_APPEND_DOUBLE(&spot, "lon", 2);
  bson_append_document_end(expected.doc, &spot);

  const rw::odd back = decode_ok<rw::odd>(expected.data());
  EXPECT_EQ(back.from_macro, 11);
  EXPECT_EQ(back.dotted, "dot");
  EXPECT_EQ(back.escaped, 12);
  EXPECT_EQ(back.value_type, 18);
  EXPECT_EQ(back.size, 19);
  ASSERT_EQ(back.roots.size(), 1U);
  EXPECT_EQ(back.roots[0].children.at(0).name, "kid");
  EXPECT_EQ(back.roots[0].by_code.at("x1").name, "coded");
  ASSERT_TRUE(back.spot.has_value());
  EXPECT_FALSE(back.spot->label.has_value());
  EXPECT_EQ(encode_ok(back), expected.data());

  rw::odd built;
  built.from_macro = 11;
  built.dotted = "dot";
  built.escaped = 12;
  built.end = 13;
  built.out = 14;
  built.p = 15;
  built.v = 16;
  built.st = 17;
  built.value_type = 18;
  built.size = 19;
  rw::category top = leaf("top");
  top.children.push_back(leaf("kid"));
  top.by_code.emplace("x1", leaf("coded"));
  built.roots.push_back(std::move(top));
  built.spot = rw::place_t{1, 2, std::nullopt};
  EXPECT_EQ(encode_ok(built), expected.data());
}

TEST(scanned_realworld, bool_vectors_time_t_and_unusual_enums_round_trip) {
  rw::switches s;
  s.bits = {true, false, true};
  s.pair = {false, true};
  s.bytes = {0, 255};
  s.stamp = 1'700'000'000;
  s.area = rw::region::west;
  s.mode = rw::switch_off;
  bson_doc expected;
  bson_t bits;
  BSON_APPEND_ARRAY_BEGIN(expected.doc, "bits", &bits);
  BSON_APPEND_BOOL(&bits, "0", true);
  BSON_APPEND_BOOL(&bits, "1", false);
  BSON_APPEND_BOOL(&bits, "2", true);
  bson_append_array_end(expected.doc, &bits);
  bson_t pair;
  BSON_APPEND_ARRAY_BEGIN(expected.doc, "pair", &pair);
  BSON_APPEND_BOOL(&pair, "0", false);
  BSON_APPEND_BOOL(&pair, "1", true);
  bson_append_array_end(expected.doc, &pair);
  bson_t octets;
  BSON_APPEND_ARRAY_BEGIN(expected.doc, "bytes", &octets);
  BSON_APPEND_INT32(&octets, "0", 0);
  BSON_APPEND_INT32(&octets, "1", 255);
  bson_append_array_end(expected.doc, &octets);
  BSON_APPEND_INT64(expected.doc, "stamp", 1'700'000'000);
  BSON_APPEND_UTF8(expected.doc, "area", "west");
  BSON_APPEND_INT32(expected.doc, "mode", 0);
  EXPECT_EQ(encode_ok(s), expected.data());

  rw::switches used;
  used.bits = {false, false, false, false};
  decode_into(expected.data(), used);
  EXPECT_EQ(used.bits, s.bits);
  EXPECT_EQ(used.pair, s.pair);
  EXPECT_EQ(used.bytes, s.bytes);
  EXPECT_EQ(used.stamp, s.stamp);
  EXPECT_EQ(used.area, rw::region::west);
  EXPECT_EQ(used.mode, rw::switch_off);
  EXPECT_EQ(decode_ok<rw::switches>(empty_document).area, rw::region::east);
}

TEST(scanned_realworld, deprecated_members_are_still_fields) {
  bson_doc expected;
  BSON_APPEND_INT32(expected.doc, "legacy", 5);
  BSON_APPEND_INT32(expected.doc, "current", 6);
  // Through a used object and encode(const T&) only: a copy of the struct would be the user's
  // own deprecation warning (clang).
  rw::legacy_record record{};
  decode_into(expected.data(), record);
  EXPECT_EQ(record.current, 6);
  EXPECT_EQ(encode_ok(record), expected.data());  // the deprecated member kept its 5
}

}  // namespace
