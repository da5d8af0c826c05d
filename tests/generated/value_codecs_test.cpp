// The leaf value codecs of generated code (bsongen/detail/value_codecs.hpp): every leaf kind
// against pymongo's bytes and the generic path's encoding; binary subtype 2 with one meaning; regex
// options in canonical order; what encode refuses; members narrowed with `cpp:`; the value forms
// nullable<T> and number<T>; javascript_with_scope as the one type of its BSON value.

#include "bsongen/detail/value_codecs.hpp"  // copy_flagging

#include <bson/bson.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "bsongen/codec.hpp"
#include "bsongen/document.hpp"
#include "codec_helpers.hpp"
#include "value_codecs.bsongen.hpp"

namespace {

using bytes = std::vector<std::uint8_t>;
using bsongen::binary;
using bsongen::binary_subtype;
using bsongen::document;
using bsongen::error_code;

using bsongen::test::decode_error;
using bsongen::test::decode_generic;
using bsongen::test::decode_ok;
using bsongen::test::encode_error;
using bsongen::test::encode_ok;
using bsongen::test::generic_encoding;
using bsongen::test::read_documents;
using bsongen::test::to_bytes;

bytes to_bytes(const bson_t* b) {
  const std::uint8_t* p = bson_get_data(b);
  return {p, p + b->len};
}

bytes text_bytes(std::string_view s) { return {s.begin(), s.end()}; }

// --- Binary subtype 2: `bytes` is the payload without the inner length, on both paths. ---

bytes libbson_old_binary(const bytes& payload) {
  bson_t b = BSON_INITIALIZER;
  EXPECT_TRUE(bson_append_binary(&b, "b", -1, BSON_SUBTYPE_BINARY_DEPRECATED, payload.data(),
                                 static_cast<std::uint32_t>(payload.size())));
  bytes out = to_bytes(&b);
  bson_destroy(&b);
  return out;
}

// copy_flagging, which copies strings (NulIsBad false) and map keys (true) in encode's write pass:
// at every length to 40 bytes it copies exactly the bytes asked for, flags no ASCII run (a false
// flag would send every such encode through the exact check again) and flags a byte above 0x7f,
// or a NUL where that is bad, at every position.
TEST(value_codecs, copy_flagging_copies_exactly_and_flags_exactly_the_bytes_to_check) {
  const auto check = [](auto nul_is_bad) {
    constexpr bool NulIsBad = decltype(nul_is_bad)::value;
    for (std::size_t n = 0; n <= 40; ++n) {
      std::string text(n, 'a');
      for (std::size_t i = 0; i < n; ++i) text[i] = static_cast<char>(1 + (i * 37) % 127);
      const auto copied = [&](const std::string& s) {
        std::array<std::uint8_t, 64> dst;  // room for n + 2 bytes
        dst.fill(0xee);
        const std::uint64_t flags = bsongen::detail::copy_flagging<NulIsBad>(
            dst.data() + 1, reinterpret_cast<const std::uint8_t*>(s.data()), n);
        EXPECT_EQ(dst[0], 0xee);
        EXPECT_EQ(dst[n + 1], 0xee);  // nothing written around the copy
        EXPECT_EQ(std::string(dst.begin() + 1, dst.begin() + 1 + static_cast<std::ptrdiff_t>(n)),
                  s);
        return flags;
      };
      EXPECT_EQ(copied(text), 0u) << "ASCII without NUL flagged at length " << n;
      for (std::size_t at = 0; at < n; ++at) {
        std::string high = text;
        high[at] = '\x80';
        EXPECT_NE(copied(high), 0u) << "0x80 at " << at << " of " << n;
        std::string nul = text;
        nul[at] = '\0';
        EXPECT_EQ(copied(nul) != 0, NulIsBad) << "NUL at " << at << " of " << n;
      }
    }
  };
  check(std::false_type{});
  check(std::true_type{});
}

TEST(value_codecs, old_binary_decodes_to_the_payload_on_both_paths) {
  for (const bytes& payload : {text_bytes("abc"), bytes{}, bytes(300, 0x5A)}) {
    SCOPED_TRACE(payload.size());
    const bytes wire = libbson_old_binary(payload);  // libbson writes the inner length itself
    const vc::old_binary generated = decode_ok<vc::old_binary>(wire);
    EXPECT_EQ(generated.b.subtype, binary_subtype::binary_old);
    EXPECT_EQ(generated.b.bytes, payload);
    const document generic = decode_generic(wire);
    const bsongen::binary_view view = generic["b"].as_binary();
    EXPECT_EQ(bytes(view.bytes.begin(), view.bytes.end()), generated.b.bytes);
  }
}

TEST(value_codecs, old_binary_encodes_like_libbson_and_the_generic_path) {
  for (const bytes& payload : {text_bytes("abc"), bytes{}, bytes(300, 0x5A)}) {
    SCOPED_TRACE(payload.size());
    vc::old_binary v;
    v.b = binary{payload, binary_subtype::binary_old};
    const bytes generated = encode_ok(v);
    EXPECT_EQ(generated, libbson_old_binary(payload));
    EXPECT_EQ(generated, generic_encoding(document{{"b", v.b}}));
    // The inner length is always the payload's: the generic decoder (which checks it) agrees.
    EXPECT_EQ(decode_generic(generated)["b"].as_binary().bytes.size(), payload.size());
  }
}

TEST(value_codecs, old_binary_moves_between_the_paths_unchanged) {
  const bytes wire = libbson_old_binary(text_bytes("payload"));
  // generic -> generated -> bytes
  const document generic = decode_generic(wire);
  const bsongen::binary_view view = generic["b"].as_binary();
  vc::old_binary moved;
  moved.b = binary{{view.bytes.begin(), view.bytes.end()}, view.subtype};
  EXPECT_EQ(encode_ok(moved), wire);
  // generated -> generic -> bytes
  const vc::old_binary generated = decode_ok<vc::old_binary>(wire);
  EXPECT_EQ(generic_encoding(document{{"b", generated.b}}), wire);
}

TEST(value_codecs_hostile, old_binary_with_a_wrong_inner_length_is_rejected) {
  bytes wire = libbson_old_binary(text_bytes("abcd"));
  wire[4 + 1 + 2 + 5] = 3;  // inner length 3 where the payload holds 4 bytes
  const bsongen::error e = decode_error<vc::old_binary>(wire);
  EXPECT_EQ(e.code, error_code::invalid_length);
  EXPECT_EQ(e.path, "b");
  EXPECT_FALSE(bsongen::decode_document(wire));
}

// --- Regex options: one canonical order on both paths. ---

TEST(value_codecs, regex_options_are_written_sorted_like_the_generic_encoder) {
  for (const auto& [given, written] : {std::pair<std::string, std::string>{"xmi", "imx"},
                                       {"usmlix", "ilmsux"},
                                       {"", ""},
                                       {"i", "i"}}) {
    SCOPED_TRACE(given);
    vc::texts t;
    t.re = bsongen::regex{"a.b", given};
    const bytes generated = encode_ok(t);
    EXPECT_EQ(generated, generic_encoding(decode_generic(generated)));
    EXPECT_EQ(decode_ok<vc::texts>(generated).re.options, written);
    bson_t b = BSON_INITIALIZER;
    ASSERT_TRUE(bson_append_regex(&b, "re", -1, "a.b", given.c_str()));  // libbson sorts too
    const bytes lib = to_bytes(&b);
    bson_destroy(&b);
    const bytes ours = generic_encoding(document{{"re", t.re}});
    EXPECT_EQ(ours, lib);
    // The regex element of the generated document equals the generic one byte for byte.
    const auto at =
        std::search(generated.begin(), generated.end(), ours.begin() + 4, ours.end() - 1);
    EXPECT_NE(at, generated.end());
  }
}

TEST(value_codecs, regex_options_that_are_not_ascii_are_kept_as_given_on_both_paths) {
  vc::texts t;
  t.re = bsongen::regex{"x",
                        "z\xc3\xa9"
                        "a"};
  const bytes generated = encode_ok(t);
  EXPECT_EQ(decode_ok<vc::texts>(generated).re.options,
            "z\xc3\xa9"
            "a");
  EXPECT_EQ(generated, generic_encoding(decode_generic(generated)));
}

// --- Encode refuses what decode would reject (the field path is added by the caller). ---

const std::string bad_utf8 = "ok \xc3\x28 no";  // a lead byte without its continuation
const std::string surrogate = "\xed\xa0\x80";   // U+D800 encoded: not UTF-8
const std::string overlong = "\xc0\xaf";        // overlong '/'

TEST(value_codecs, encode_refuses_invalid_utf8_in_every_text) {
  for (const std::string& bad : {bad_utf8, surrogate, overlong, std::string(40, 'a') + "\xff"}) {
    SCOPED_TRACE(bad);
    const auto expect_refused = [&](auto mutate) {
      vc::texts t;
      mutate(t);
      EXPECT_EQ(encode_error(t).code, error_code::invalid_utf8);
    };
    expect_refused([&](vc::texts& t) { t.s = bad; });
    expect_refused([&](vc::texts& t) { t.js = bad; });
    expect_refused([&](vc::texts& t) { t.re.pattern = bad; });
    expect_refused([&](vc::texts& t) { t.re.options = bad; });
    expect_refused([&](vc::texts& t) { t.cws.code = bad; });
    expect_refused([&](vc::texts& t) { t.list = {"fine", bad}; });
    expect_refused([&](vc::texts& t) { t.by_key["k"] = bad; });
    expect_refused([&](vc::texts& t) { t.n = bad; });
  }
}

// Encode checks strings while copying them and, when a byte was not ASCII, checks again before
// returning: the three entry points refuse the same text with the same path, and a writer that
// already held bytes is left exactly as it was.
TEST(value_codecs, invalid_text_found_while_writing_leaves_the_writer_as_it_was) {
  for (const std::string& bad :
       {bad_utf8, std::string(3, 'a') + "\xff", std::string(40, 'a') + "\xff"}) {
    SCOPED_TRACE(bad);
    vc::texts in_list;
    in_list.list = {"fine", std::string(70, 'b'), bad};
    vc::texts in_code;  // JavaScript code with scope is checked the same way
    in_code.cws.code = std::string(20, 'c') + bad;
    for (const auto& [t, path] : {std::pair{in_list, "list.2"}, std::pair{in_code, "cws"}}) {
      const bsongen::error via_buffer = encode_error(t);
      EXPECT_EQ(via_buffer.code, error_code::invalid_utf8);
      EXPECT_EQ(via_buffer.path, path);

      auto sized = bsongen::encoded_size(t);
      ASSERT_FALSE(sized);
      EXPECT_EQ(sized.error().path, via_buffer.path);

      bsongen::writer w;
      ASSERT_TRUE(bsongen::encode(vc::texts{}, w));
      const bytes before(w.bytes().begin(), w.bytes().end());
      auto r = bsongen::encode(t, w);
      ASSERT_FALSE(r);
      EXPECT_EQ(r.error().path, via_buffer.path);
      EXPECT_EQ(bytes(w.bytes().begin(), w.bytes().end()), before);
      EXPECT_FALSE(w.overflowed());
      ASSERT_TRUE(bsongen::encode(vc::texts{}, w));  // the writer goes on from where it was
      EXPECT_EQ(w.size(), 2 * before.size());
    }
  }
}

TEST(value_codecs, encode_accepts_valid_utf8_and_nul_inside_strings) {
  vc::texts t;
  t.s = std::string("nul \0 inside", 12);  // a BSON string is framed by its length
  t.js = "\xf0\x9f\x98\x80 \xe6\x97\xa5 \xc3\xa9";
  t.re = {"\xc3\xa9+", "i"};
  t.cws.code = "\xe2\x82\xac";
  t.list = {std::string(100, 'x') + "\xc3\xa9"};
  t.n = "\xc3\xa9";
  const bytes b = encode_ok(t);
  EXPECT_TRUE(decode_ok<vc::texts>(b) == t);
  EXPECT_EQ(generic_encoding(decode_generic(b)), b);
}

TEST(value_codecs, encode_refuses_nul_in_regex_c_strings) {
  vc::texts t;
  t.re.pattern = std::string("a\0b", 3);
  EXPECT_EQ(encode_error(t).code, error_code::invalid_value);
  t.re = {"a", std::string("i\0", 2)};
  EXPECT_EQ(encode_error(t).code, error_code::invalid_value);
}

TEST(value_codecs, encode_refuses_enum_values_inside_arrays_and_vectors) {
  vc::enum_lists v;
  v.pair = {vc::level::low, vc::level::high};
  const bytes b = encode_ok(v);
  EXPECT_TRUE(decode_ok<vc::enum_lists>(b) == v);
  v.pair = {};  // value-initialized: 0 names no enumerator of `level` (1, 2)
  EXPECT_EQ(encode_error(v).code, error_code::invalid_value);
  v.pair = {vc::level::low, vc::level::low};
  v.list = {vc::level::high, static_cast<vc::level>(7)};
  EXPECT_EQ(encode_error(v).code, error_code::invalid_value);
}

TEST(value_codecs, fixed_arrays_of_enums_start_at_the_first_enumerator) {
  // Zero names no enumerator of `level`: a fixed array's elements start where a scalar enum
  // member does, so whatever decode leaves in a struct, encode writes.
  const vc::enum_lists fresh;
  EXPECT_EQ(fresh.pair, (std::array{vc::level::low, vc::level::low}));
  EXPECT_EQ(encode_ok(fresh),
            generic_encoding(document{{"pair", bsongen::array{1, 1}}, {"list", bsongen::array{}}}));
  // A document that lacks `pair` (not required) leaves the initial value in a new struct and
  // resets it in a reused one.
  const bytes without_pair = generic_encoding(document{{"list", bsongen::array{2}}});
  const vc::enum_lists decoded = decode_ok<vc::enum_lists>(without_pair);
  EXPECT_EQ(decoded.pair, fresh.pair);
  EXPECT_TRUE(encode_ok(decoded) == generic_encoding(document{{"pair", bsongen::array{1, 1}},
                                                              {"list", bsongen::array{2}}}));
  vc::enum_lists reused;
  reused.pair = {vc::level::high, vc::level::high};
  ASSERT_TRUE(bsongen::decode(std::span<const std::uint8_t>(without_pair), reused));
  EXPECT_EQ(reused.pair, fresh.pair);
  EXPECT_FALSE(encode_ok(reused).empty());
}

TEST(value_codecs, a_failed_decode_leaves_no_half_made_enum_behind) {
  // Each holder makes a value-initialized element (0: no enumerator of `level`) before it reads
  // the value, 7, that the enum refuses: the failed decode takes that element out again, so the
  // struct it leaves still encodes.
  const std::pair<const char*, bsongen::value> cases[] = {
      {"list", bsongen::array{1, 7}},
      {"by_key", document{{"a", 1}, {"b", 7}}},
      {"in_order", document{{"a", 1}, {"b", 7}}},
      {"unordered", document{{"a", 1}, {"b", 7}}},
      {"maybe", 7},
      {"opt", 7},
      {"nested", bsongen::array{nullptr, 7}},
  };
  for (const auto& [key, value] : cases) {
    SCOPED_TRACE(key);
    const bytes b = generic_encoding(document{{key, value}});
    vc::enum_holders reused;
    const auto decoded = bsongen::decode(std::span<const std::uint8_t>(b), reused);
    ASSERT_FALSE(decoded);
    EXPECT_EQ(decoded.error().code, error_code::invalid_value);
    EXPECT_TRUE(bsongen::encode(reused).has_value()) << bsongen::encode(reused).error().to_string();
  }
}

// --- javascript_with_scope: one type for generated members and generic values. ---

TEST(value_codecs, javascript_with_scope_is_one_type_for_both_paths) {
  static_assert(std::is_same_v<decltype(vc::texts::cws), bsongen::javascript_with_scope>);
  vc::texts t;
  t.cws = bsongen::javascript_with_scope{"f(x)", bsongen::to_raw_document(document{{"x", 1}})};
  const bsongen::value as_value = t.cws;  // the generic value built from the same object
  EXPECT_EQ(as_value.as_javascript_with_scope_code(), "f(x)");
  EXPECT_EQ(as_value.as_javascript_with_scope_scope()["x"].as_int32(), 1);
  const bytes generated = encode_ok(t);
  const document by_hand{
      {"s", ""},         {"js", bsongen::javascript{""}}, {"re", bsongen::regex{}},
      {"cws", as_value}, {"list", bsongen::array{}},      {"by_key", document{}},
      {"n", nullptr}};
  EXPECT_EQ(generated, generic_encoding(by_hand));
  EXPECT_TRUE(decode_ok<vc::texts>(generated).cws == t.cws);
}

// --- Members narrowed with `cpp:`: range-checked both ways, on the fixed-shape path (every field
// fixed-width) and the general one. ---

template <class T>
class narrowed_members : public testing::Test {};
using narrowed_types = testing::Types<vc::fixed_narrowed, vc::narrowed>;
TYPED_TEST_SUITE(narrowed_members, narrowed_types);

template <class T>
T in_range_values() {
  T v;
  v.i32_as_i64 = std::numeric_limits<std::int32_t>::min();
  v.i32_as_u32 = std::numeric_limits<std::int32_t>::max();
  v.i64_as_u64 = std::numeric_limits<std::int64_t>::max();
  v.d_as_int = -123;
  v.d_as_i64 = (std::int64_t{1} << 53);
  v.d_as_float = 1.5F;
  v.secs = std::chrono::sys_seconds(std::chrono::seconds(-1700000000));
  if constexpr (requires { v.pair; }) v.pair = {0, 2147483647U};
  if constexpr (requires { v.list; }) v.list = {-2147483648LL, 2147483647LL};
  return v;
}

// The document of in_range_values<T>() with element `key` replaced by `replacement` (same
// position, so a fixed-shape document keeps its shape when the type does not change).
template <class T>
bytes with_element(std::string_view key, bsongen::value replacement) {
  document d = decode_generic(encode_ok(in_range_values<T>()));
  d.set(key, std::move(replacement));
  return generic_encoding(d);
}

TYPED_TEST(narrowed_members, values_in_range_round_trip_exactly) {
  const TypeParam v = in_range_values<TypeParam>();
  const bytes b = encode_ok(v);
  EXPECT_TRUE(decode_ok<TypeParam>(b) == v);
  const document d = decode_generic(b);
  EXPECT_EQ(d["i32_as_i64"].as_int32(), std::numeric_limits<std::int32_t>::min());
  EXPECT_EQ(d["i64_as_u64"].as_int64(), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(d["d_as_i64"].as_double(), 9007199254740992.0);
  EXPECT_EQ(d["secs"].as_datetime().time_since_epoch().count(), -1700000000000);
}

TYPED_TEST(narrowed_members, encode_refuses_values_the_bson_type_cannot_hold) {
  const auto expect_refused = [](auto mutate, std::string_view what) {
    SCOPED_TRACE(what);
    TypeParam v = in_range_values<TypeParam>();
    mutate(v);
    const bsongen::error e = encode_error(v);
    EXPECT_EQ(e.code, error_code::inexact) << e.to_string();
  };
  expect_refused([](TypeParam& v) { v.i32_as_i64 = std::int64_t{1} << 31; }, "int32 from int64");
  expect_refused([](TypeParam& v) { v.i32_as_i64 = -(std::int64_t{1} << 31) - 1; }, "int32 low");
  expect_refused([](TypeParam& v) { v.i32_as_u32 = 1U << 31; }, "int32 from uint32");
  expect_refused([](TypeParam& v) { v.i64_as_u64 = std::uint64_t{1} << 63; }, "int64 from uint64");
  expect_refused([](TypeParam& v) { v.d_as_i64 = (std::int64_t{1} << 53) + 1; },
                 "double from int64");
  expect_refused(
      [](TypeParam& v) {
        v.secs = std::chrono::sys_seconds(
            std::chrono::seconds(std::numeric_limits<std::int64_t>::max() / 1000 + 1));
      },
      "datetime from seconds");
  if constexpr (requires(TypeParam v) { v.pair; }) {
    expect_refused([](TypeParam& v) { v.pair[1] = 1U << 31; }, "array<int32> from uint32");
  }
  if constexpr (requires(TypeParam v) { v.list; }) {
    expect_refused([](TypeParam& v) { v.list.push_back(std::int64_t{1} << 40); },
                   "vector<int32> from int64");
  }
}

TYPED_TEST(narrowed_members, decode_refuses_values_the_member_cannot_hold) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const auto expect_inexact = [](const bytes& b, std::string_view path) {
    const bsongen::error e = decode_error<TypeParam>(b);
    EXPECT_EQ(e.code, error_code::inexact) << e.to_string();
    EXPECT_EQ(e.path, path);
  };
  expect_inexact(with_element<TypeParam>("i32_as_u32", std::int32_t{-1}), "i32_as_u32");
  expect_inexact(with_element<TypeParam>("i64_as_u64", std::int64_t{-1}), "i64_as_u64");
  for (const double d : {nan, inf, -inf, 1.5, 3e9, -3e9}) {
    SCOPED_TRACE(d);
    expect_inexact(with_element<TypeParam>("d_as_int", d), "d_as_int");
  }
  for (const double d : {nan, 9223372036854775808.0, 0.5}) {
    SCOPED_TRACE(d);
    expect_inexact(with_element<TypeParam>("d_as_i64", d), "d_as_i64");
  }
  for (const double d : {-1.0, 256.0, 0.5}) {
    SCOPED_TRACE(d);
    expect_inexact(with_element<TypeParam>("d_as_u8", d), "d_as_u8");
  }
  for (const double d : {2.0, -1.0, 0.5}) {
    SCOPED_TRACE(d);
    expect_inexact(with_element<TypeParam>("d_as_bool", d), "d_as_bool");
  }
  // -0.0 is no integer's value: held as 0 it would encode as +0.0 (red team, issue 35 item 5).
  for (const char* key : {"d_as_int", "d_as_i64", "d_as_u8", "d_as_bool"}) {
    SCOPED_TRACE(key);
    expect_inexact(with_element<TypeParam>(key, -0.0), key);
  }
  expect_inexact(with_element<TypeParam>("d_as_float", 1e300), "d_as_float");
  expect_inexact(with_element<TypeParam>("d_as_float", -1e39), "d_as_float");
  for (const std::int64_t ms : {1500, -1500, 1}) {
    SCOPED_TRACE(ms);
    expect_inexact(
        with_element<TypeParam>("secs", bsongen::datetime(std::chrono::milliseconds(ms))), "secs");
  }
  if constexpr (requires(TypeParam v) { v.pair; }) {
    expect_inexact(with_element<TypeParam>("pair", bsongen::array{1, -1}), "pair.1");
  }
}

TYPED_TEST(narrowed_members, decode_converts_exact_values) {
  EXPECT_EQ(decode_ok<TypeParam>(with_element<TypeParam>("d_as_int", 42.0)).d_as_int, 42);
  EXPECT_EQ(decode_ok<TypeParam>(with_element<TypeParam>("d_as_int", -2147483648.0)).d_as_int,
            std::numeric_limits<int>::min());
  EXPECT_EQ(
      decode_ok<TypeParam>(with_element<TypeParam>("d_as_i64", -9223372036854775808.0)).d_as_i64,
      std::numeric_limits<std::int64_t>::min());
  // Float members round to the nearest float; infinities and NaN are floats too.
  EXPECT_EQ(decode_ok<TypeParam>(with_element<TypeParam>("d_as_float", 0.1)).d_as_float, 0.1F);
  EXPECT_TRUE(
      std::isinf(decode_ok<TypeParam>(
                     with_element<TypeParam>("d_as_float", std::numeric_limits<double>::infinity()))
                     .d_as_float));
  EXPECT_TRUE(
      std::isnan(decode_ok<TypeParam>(with_element<TypeParam>(
                                          "d_as_float", std::numeric_limits<double>::quiet_NaN()))
                     .d_as_float));
  EXPECT_EQ(decode_ok<TypeParam>(with_element<TypeParam>(
                                     "secs", bsongen::datetime(std::chrono::milliseconds(-2000))))
                .secs.time_since_epoch(),
            std::chrono::seconds(-2));
  // An int32 widens into the double member's integer type when it fits.
  EXPECT_EQ(decode_ok<TypeParam>(with_element<TypeParam>("d_as_int", std::int32_t{-5})).d_as_int,
            -5);
}

// Every family of `cpp:` spelling the linker accepts (vc::spelled): it compiles, the values
// round-trip, and the BSON holds what the kind says (a clock's ticks as milliseconds).
TEST(value_codecs, accepted_cpp_spellings_compile_and_round_trip) {
  using namespace std::chrono;
  vc::spelled v;
  v.long_int = -5;
  v.unsigned_long_int = 7;
  v.size = 9;
  v.difference = -11;
  v.flag = true;
  v.short_int = -300;
  v.byte = 200;
  v.real = 65535;
  v.when_ms = time_point<system_clock, duration<long long, std::milli>>(milliseconds(1500));
  v.when_us = sys_time<microseconds>(microseconds(-2000));
  v.when_tenths = sys_time<duration<std::int32_t, std::ratio<1, 10>>>(
      duration<std::int32_t, std::ratio<1, 10>>(25));
  v.when_days = sys_days(days(3));
  v.id[15] = 0xAB;
  v.name = "ada";
  const std::string first = "x", second = "y";
  v.names = {first, second};
  v.counts = {{"c", short{-2}}};
  v.entries = {{"e", std::uint16_t{65535}}, {"e", std::uint16_t{1}}};
  v.ordered = {{"o", 3}};
  v.maybe = std::int16_t{-7};
  v.nothing = std::uint8_t{255};
  v.pair = {0.5F, -1.0F};
  v.wide = bsongen::number<std::int64_t>(std::int64_t{1} << 40);
  const bytes encoded = encode_ok(v);
  const document generic = decode_generic(encoded);
  EXPECT_EQ(generic["when_tenths"].as_datetime(), bsongen::datetime(milliseconds(2500)));
  EXPECT_EQ(generic["when_days"].as_datetime(), bsongen::datetime(milliseconds(3 * 86'400'000)));
  EXPECT_EQ(generic["real"].as_double(), 65535.0);
  EXPECT_EQ(generic["entries"].as_document().size(), 2U);  // repeated keys kept, in order
  const vc::spelled back = decode_ok<vc::spelled>(encoded);
  EXPECT_EQ(back.long_int, v.long_int);
  EXPECT_EQ(back.unsigned_long_int, v.unsigned_long_int);
  EXPECT_EQ(back.size, v.size);
  EXPECT_EQ(back.difference, v.difference);
  EXPECT_EQ(back.flag, v.flag);
  EXPECT_EQ(back.short_int, v.short_int);
  EXPECT_EQ(back.byte, v.byte);
  EXPECT_EQ(back.real, v.real);
  EXPECT_EQ(back.when_ms, v.when_ms);
  EXPECT_EQ(back.when_us, v.when_us);
  EXPECT_EQ(back.when_tenths, v.when_tenths);
  EXPECT_EQ(back.when_days, v.when_days);
  EXPECT_EQ(back.id, v.id);
  EXPECT_EQ(back.name, v.name);
  EXPECT_EQ(back.counts, v.counts);
  EXPECT_EQ(back.ordered, v.ordered);
  EXPECT_EQ(back.maybe, v.maybe);
  EXPECT_EQ(back.nothing, v.nothing);
  EXPECT_EQ(back.pair, v.pair);
  EXPECT_EQ(back.wide.value(), v.wide.value());
  // The views point into `encoded`, which outlives them here.
  ASSERT_EQ(back.names.size(), 2U);
  EXPECT_EQ(back.names[1], "y");
  EXPECT_EQ(back.entries, v.entries);
}

// --- nullable<T> and number<T>. ---

TEST(value_codecs, nullable_members_write_null_and_values) {
  vc::leaves v;
  EXPECT_TRUE(v.n.is_null());
  v.n = 5;
  v.ns = nullptr;
  v.pt = vc::point{1, 2};
  v.nums = {1.5, nullptr};
  v.by_key = {{"a", std::int64_t{3}}, {"b", nullptr}};
  const bytes b = encode_ok(v);
  const document d = decode_generic(b);
  EXPECT_EQ(d["n"].as_int32(), 5);
  EXPECT_TRUE(d["ns"].is_null());
  EXPECT_EQ(d["pt"]["y"].as_int32(), 2);
  EXPECT_EQ(d["nums"][0].as_double(), 1.5);
  EXPECT_TRUE(d["nums"][1].is_null());
  EXPECT_EQ(d["by_key"]["a"].as_int64(), 3);
  EXPECT_TRUE(d["by_key"]["b"].is_null());
  EXPECT_FALSE(d.contains("maybe"));
  const vc::leaves back = decode_ok<vc::leaves>(b);
  EXPECT_TRUE(back == v);
  EXPECT_EQ(encode_ok(back), b);
}

TEST(value_codecs, optional_nullable_keeps_absent_null_and_a_value_apart) {
  const bytes absent = generic_encoding(document{});
  const bytes null = generic_encoding(document{{"v", nullptr}, {"s", nullptr}});
  const bytes value = generic_encoding(document{{"v", 7}, {"s", "x"}});
  const auto a = decode_ok<vc::absent_null_value>(absent);
  const auto n = decode_ok<vc::absent_null_value>(null);
  const auto v = decode_ok<vc::absent_null_value>(value);
  EXPECT_FALSE(a.v.has_value());
  ASSERT_TRUE(n.v.has_value());
  EXPECT_TRUE(n.v->is_null());
  ASSERT_TRUE(v.v.has_value());
  EXPECT_EQ(*v.v, 7);
  EXPECT_EQ(*v.s, "x");
  EXPECT_EQ(encode_ok(a), absent);
  EXPECT_EQ(encode_ok(n), null);
  EXPECT_EQ(encode_ok(v), value);
  // Decoding into a used object: each state replaces the previous one.
  vc::absent_null_value reused = v;
  ASSERT_TRUE(bsongen::decode(null, reused));
  EXPECT_TRUE(reused.v.has_value() && reused.v->is_null());
  ASSERT_TRUE(bsongen::decode(absent, reused));
  EXPECT_FALSE(reused.v.has_value());
}

TEST(value_codecs, optional_any_keeps_a_null_as_a_value) {
  const bytes absent = generic_encoding(document{});
  const bytes null = generic_encoding(document{{"a", nullptr}});
  const bytes value = generic_encoding(document{{"a", "x"}});
  const auto a = decode_ok<vc::absent_null_any>(absent);
  const auto n = decode_ok<vc::absent_null_any>(null);
  const auto v = decode_ok<vc::absent_null_any>(value);
  EXPECT_FALSE(a.a.has_value());
  ASSERT_TRUE(n.a.has_value());
  EXPECT_TRUE(n.a->is_null());
  ASSERT_TRUE(v.a.has_value());
  EXPECT_EQ(v.a->as_string(), "x");
  EXPECT_EQ(encode_ok(a), absent);
  EXPECT_EQ(encode_ok(n), null);
  EXPECT_EQ(encode_ok(v), value);
  vc::absent_null_any reused = v;
  ASSERT_TRUE(bsongen::decode(null, reused));
  EXPECT_TRUE(reused.a.has_value() && reused.a->is_null());
  ASSERT_TRUE(bsongen::decode(absent, reused));
  EXPECT_FALSE(reused.a.has_value());
}

TEST(value_codecs_hostile, nullable_reports_the_elements_type_mismatch) {
  const bsongen::error e =
      decode_error<vc::absent_null_value>(generic_encoding(document{{"v", "text"}}));
  EXPECT_EQ(e.code, error_code::type_mismatch);
  EXPECT_EQ(e.path, "v");
}

TEST(value_codecs, number_remembers_the_type_it_was_read_as) {
  for (const bsongen::value& wire :
       {bsongen::value(std::int32_t{-3}), bsongen::value(std::int64_t{-3}),
        bsongen::value(std::int64_t{1} << 40)}) {
    vc::leaves v;
    document d = decode_generic(encode_ok(v));
    d.set("wide", wire);
    d.set("real", wire);
    const bytes b = generic_encoding(d);
    const vc::leaves back = decode_ok<vc::leaves>(b);
    EXPECT_EQ(back.wide.wire_type(), wire.type());
    EXPECT_EQ(back.real.wire_type(), wire.type());
    EXPECT_EQ(encode_ok(back), b);  // written back as read
  }
}

TEST(value_codecs, number_writes_its_own_type_when_the_value_no_longer_fits) {
  vc::leaves v;
  v.wide = bsongen::number<std::int64_t>(5, bsongen::bson_type::int32);
  v.real = bsongen::number<double>(5, bsongen::bson_type::int32);
  EXPECT_EQ(decode_generic(encode_ok(v))["wide"].type(), bsongen::bson_type::int32);
  EXPECT_EQ(decode_generic(encode_ok(v))["real"].type(), bsongen::bson_type::int32);
  v.wide = std::int64_t{1} << 40;  // keeps the remembered int32, which no longer fits
  v.real = 0.5;
  const document d = decode_generic(encode_ok(v));
  EXPECT_EQ(d["wide"].as_int64(), std::int64_t{1} << 40);
  EXPECT_EQ(d["real"].as_double(), 0.5);
  EXPECT_EQ(v.wide.wire_type(), bsongen::bson_type::int32);
  // number<double> remembered as int64: integral values up to 2^53 stay int64, others double.
  v.real = bsongen::number<double>(9007199254740992.0, bsongen::bson_type::int64);
  EXPECT_EQ(decode_generic(encode_ok(v))["real"].as_int64(), std::int64_t{1} << 53);
  v.real = 18014398509481984.0;  // 2^54: decode would refuse it as int64
  EXPECT_EQ(decode_generic(encode_ok(v))["real"].as_double(), 18014398509481984.0);
  v.real = -0.0;  // an integer would lose the sign
  EXPECT_TRUE(std::signbit(decode_generic(encode_ok(v))["real"].as_double()));
  v.real = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(std::isnan(decode_generic(encode_ok(v))["real"].as_double()));
}

TEST(value_codecs_hostile, number_refuses_what_its_type_cannot_hold) {
  document d = decode_generic(encode_ok(vc::leaves{}));
  d.set("real", (std::int64_t{1} << 53) + 1);
  bsongen::error e = decode_error<vc::leaves>(generic_encoding(d));
  EXPECT_EQ(e.code, error_code::inexact);
  EXPECT_EQ(e.path, "real");
  d.set("real", -(std::int64_t{1} << 53) - 1);
  EXPECT_EQ(decode_error<vc::leaves>(generic_encoding(d)).code, error_code::inexact);
  d.set("real", -(std::int64_t{1} << 53));
  EXPECT_EQ(decode_ok<vc::leaves>(generic_encoding(d)).real, -9007199254740992.0);
  d = decode_generic(encode_ok(vc::leaves{}));
  d.set("wide", 1.0);
  e = decode_error<vc::leaves>(generic_encoding(d));
  EXPECT_EQ(e.code, error_code::type_mismatch);
  EXPECT_EQ(e.message, "expected int64, found double");
  d.set("wide", "1");
  EXPECT_EQ(decode_error<vc::leaves>(generic_encoding(d)).code, error_code::type_mismatch);
}

// --- Every leaf kind: pymongo's bytes round-trip exactly, and the generic path agrees. ---

TEST(value_codecs, pymongo_leaf_documents_round_trip_byte_for_byte) {
  const std::vector<bytes> docs = read_documents(BSONGEN_PYMONGO_LEAF_DOCUMENTS);
  ASSERT_EQ(docs.size(), 3U) << "pymongo documents missing: " << BSONGEN_PYMONGO_LEAF_DOCUMENTS;
  for (std::size_t n = 0; n < docs.size(); ++n) {
    SCOPED_TRACE(n);
    const vc::leaves v = decode_ok<vc::leaves>(docs[n]);
    EXPECT_EQ(encode_ok(v), docs[n]);
    EXPECT_EQ(generic_encoding(decode_generic(docs[n])), docs[n]);
  }
}

TEST(value_codecs, pymongo_leaf_documents_hold_the_values_pymongo_was_given) {
  const std::vector<bytes> docs = read_documents(BSONGEN_PYMONGO_LEAF_DOCUMENTS);
  ASSERT_EQ(docs.size(), 3U);
  const vc::leaves first = decode_ok<vc::leaves>(docs[0]);
  EXPECT_EQ(first.s, "h\xc3\xa9llo");
  EXPECT_EQ(first.old.bytes, text_bytes("old payload"));
  EXPECT_EQ(first.old.subtype, binary_subtype::binary_old);
  EXPECT_EQ(first.re.options, "imx");
  EXPECT_EQ(first.cws.code, "f(x)");
  EXPECT_EQ(
      decode_generic(bytes(first.cws.scope.bytes().begin(), first.cws.scope.bytes().end()))["x"]
          .as_int32(),
      1);
  EXPECT_EQ(first.when.time_since_epoch().count(), 1715949015123);
  EXPECT_EQ(first.lv, vc::level::low);
  EXPECT_EQ(first.md, vc::mood::calm);
  EXPECT_EQ(first.n, 5);
  EXPECT_EQ(first.ns, "x");
  ASSERT_TRUE(first.maybe.has_value());
  EXPECT_EQ(*first.maybe, 2.5);
  EXPECT_EQ(first.wide, 7);
  EXPECT_EQ(first.wide.wire_type(), bsongen::bson_type::int32);
  EXPECT_EQ(first.real, 3.0);
  EXPECT_EQ(first.real.wire_type(), bsongen::bson_type::int32);
  ASSERT_EQ(first.nums.size(), 4U);
  EXPECT_TRUE(first.nums[1].is_null());
  EXPECT_EQ(first.nums[3]->wire_type(), bsongen::bson_type::int64);
  EXPECT_EQ(first.pt->y, 2);
  const vc::leaves nulls = decode_ok<vc::leaves>(docs[1]);
  EXPECT_TRUE(nulls.old.bytes.empty());
  EXPECT_TRUE(nulls.n.is_null());
  EXPECT_TRUE(nulls.ns.is_null());
  ASSERT_TRUE(nulls.maybe.has_value());
  EXPECT_TRUE(nulls.maybe->is_null());
  EXPECT_TRUE(nulls.a.is_null());
  EXPECT_TRUE(nulls.pt.is_null());
  EXPECT_EQ(nulls.wide.wire_type(), bsongen::bson_type::int64);
  EXPECT_EQ(nulls.real, 9007199254740992.0);
  EXPECT_EQ(nulls.real.wire_type(), bsongen::bson_type::int64);
  const vc::leaves third = decode_ok<vc::leaves>(docs[2]);
  EXPECT_FALSE(third.maybe.has_value());
  EXPECT_EQ(third.old.bytes, bytes(4, 0));
  EXPECT_EQ(third.real.wire_type(), bsongen::bson_type::double_);
}

TEST(value_codecs, generated_encode_equals_the_generic_encode_of_the_same_values) {
  const std::uint8_t oid_bytes[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  vc::leaves v;
  v.d = -2.5;
  v.s = "h\xc3\xa9llo";
  v.raw = bsongen::to_raw_document(document{{"k", bsongen::array{1, "x"}}});
  v.bin = binary{{1, 2, 3}, binary_subtype::user_defined};
  v.old = binary{{4, 5}, binary_subtype::binary_old};
  v.id = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  v.oid = bsongen::object_id::from_bytes(oid_bytes);
  v.b = true;
  v.when = bsongen::datetime(std::chrono::milliseconds(-1234567));
  v.re = {"^a", "xi"};
  v.js = "f()";
  v.cws = {"g(y)", bsongen::to_raw_document(document{{"y", "z"}})};
  v.i32 = -7;
  v.ts = {1700000000, 3};
  v.i64 = std::int64_t{1} << 40;
  v.dec = bsongen::decimal128::from_string("12.50").value();
  v.a = bsongen::array{1, document{{"k", nullptr}}};
  v.lv = vc::level::high;
  v.md = vc::mood::busy;
  v.n = nullptr;
  v.ns = "n";
  v.maybe = bsongen::nullable<double>(nullptr);
  v.wide = bsongen::number<std::int64_t>(9, bsongen::bson_type::int32);
  v.real = 0.25;
  v.nums = {nullptr, bsongen::number<double>(2, bsongen::bson_type::int64)};
  v.by_key = {{"a", std::int64_t{1}}, {"b", nullptr}};
  v.pt = vc::point{3, 4};
  std::vector<std::uint8_t> uuid_bytes(v.id.begin(), v.id.end());
  const document by_hand{
      {"d", -2.5},
      {"s", "h\xc3\xa9llo"},
      {"raw", document{{"k", bsongen::array{1, "x"}}}},
      {"bin", binary{{1, 2, 3}, binary_subtype::user_defined}},
      {"old", binary{{4, 5}, binary_subtype::binary_old}},
      {"id", binary{uuid_bytes, binary_subtype::uuid}},
      {"oid", v.oid},
      {"b", true},
      {"when", v.when},
      {"nothing", nullptr},
      {"re", bsongen::regex{"^a", "xi"}},
      {"js", bsongen::javascript{"f()"}},
      {"cws", v.cws},
      {"i32", std::int32_t{-7}},
      {"ts", v.ts},
      {"i64", std::int64_t{1} << 40},
      {"dec", v.dec},
      {"lo", bsongen::min_key{}},
      {"hi", bsongen::max_key{}},
      {"a", bsongen::array{1, document{{"k", nullptr}}}},
      {"lv", std::int32_t{2}},
      {"md", "busy"},
      {"n", nullptr},
      {"ns", "n"},
      {"maybe", nullptr},
      {"wide", std::int32_t{9}},
      {"real", 0.25},
      {"nums", bsongen::array{nullptr, std::int64_t{2}}},
      {"by_key", document{{"a", std::int64_t{1}}, {"b", nullptr}}},
      {"pt", document{{"x", 3}, {"y", 4}}},
  };
  const bytes generated = encode_ok(v);
  EXPECT_EQ(generated, generic_encoding(by_hand));
  v.re.options = "ix";  // both encoders write regex options sorted
  EXPECT_TRUE(decode_ok<vc::leaves>(generated) == v);
}

}  // namespace
