// `any` fields (bsongen::value inside generated structs, detail::any_codec): every BSON type
// round trips and encodes to the generic path's bytes; malformed values inside them fail with the
// generic decoder's verdict, their path below the field and their offset in the input; values
// encode_document would refuse (text that is not UTF-8) are refused by generated encode too.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "any_fields.bsongen.hpp"
#include "bsongen/codec.hpp"
#include "bsongen/document.hpp"
#include "codec_helpers.hpp"

namespace {

using bytes = std::vector<std::uint8_t>;

using bsongen::test::encode_ok;
using bsongen::test::generic_encoding;
using bsongen::test::to_bytes;

// One element of every BSON type, a nested document and array among them, and a binary vector
// (subtype 9) beside the other binary subtypes.
bsongen::document every_type() {
  const std::uint8_t oid_bytes[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  const bsongen::object_id oid = bsongen::object_id::from_bytes(oid_bytes);
  const float embedding[] = {0.25F, -1.0F, 3.5F};
  return bsongen::document{
      {"double", 2.5},
      {"string", "h\xc3\xa9llo"},
      {"document", bsongen::document{{"a", 1}, {"b", bsongen::document{{"c", "deep"}}}}},
      {"array", bsongen::array{1, "two", bsongen::array{3.0}, bsongen::document{{"k", nullptr}}}},
      {"binary", bsongen::binary{{1, 2, 3}, bsongen::binary_subtype::generic}},
      {"binary_old", bsongen::binary{{4, 5}, bsongen::binary_subtype::binary_old}},
      {"uuid", bsongen::binary{std::vector<std::uint8_t>(16, 7), bsongen::binary_subtype::uuid}},
      {"vector", bsongen::value::from_vector(std::span<const float>(embedding))},
      {"undefined", bsongen::undefined{}},
      {"object_id", oid},
      {"bool", true},
      {"datetime", bsongen::datetime(std::chrono::milliseconds(1700000000123))},
      {"null", nullptr},
      {"regex", bsongen::regex{"^a.*b$", "im"}},
      {"db_pointer", bsongen::db_pointer{"db.coll", oid}},
      {"javascript", bsongen::javascript{"function() { return 1; }"}},
      {"symbol", bsongen::symbol{"sym"}},
      {"code_with_scope",
       bsongen::javascript_with_scope{"x + y", bsongen::to_raw_document(bsongen::document{
                                                   {"x", 1}, {"y", bsongen::array{2}}})}},
      {"int32", std::int32_t{-7}},
      {"timestamp", bsongen::timestamp{1700000000, 42}},
      {"int64", std::int64_t{1} << 40},
      {"decimal128", bsongen::decimal128::from_string("12.50").value()},
      {"min_key", bsongen::min_key{}},
      {"max_key", bsongen::max_key{}},
  };
}

any_test::tagged tagged_holding(bsongen::value metadata) {
  any_test::tagged t;
  t.id = 7;
  t.metadata = std::move(metadata);
  t.name = "n";
  return t;
}

// The encoding of tagged_holding(v), built with the generic path.
bytes generic_tagged(const bsongen::value& v) {
  return generic_encoding(bsongen::document{{"_id", 7}, {"metadata", v}, {"name", "n"}});
}

// The offset of `needle` in `haystack` (which must contain it once).
std::size_t find_bytes(const bytes& haystack, const bytes& needle) {
  for (std::size_t i = 0; i + needle.size() <= haystack.size(); ++i) {
    if (std::memcmp(haystack.data() + i, needle.data(), needle.size()) == 0) return i;
  }
  ADD_FAILURE() << "pattern not found";
  return 0;
}

TEST(any_codec, every_bson_type_round_trips_with_the_generic_encoding) {
  const bsongen::document all = every_type();
  ASSERT_EQ(all.size(), 24u);
  for (bsongen::element e : all) {
    SCOPED_TRACE(std::string(e.key()));
    const any_test::tagged original = tagged_holding(bsongen::value(e.value()));
    const bytes encoded = encode_ok(original);
    EXPECT_EQ(encoded, generic_tagged(original.metadata));
    EXPECT_EQ(bsongen::encoded_size(original).value(), encoded.size());

    auto decoded = bsongen::decode<any_test::tagged>(encoded);
    ASSERT_TRUE(decoded) << decoded.error().to_string();
    EXPECT_EQ(decoded->metadata.type(), e.type());
    EXPECT_EQ(*decoded, original);
    EXPECT_EQ(encode_ok(*decoded), encoded);
  }
}

TEST(any_codec, whole_document_of_every_type_round_trips) {
  const any_test::tagged original = tagged_holding(bsongen::value(every_type()));
  const bytes encoded = encode_ok(original);
  EXPECT_EQ(encoded, generic_tagged(original.metadata));
  auto decoded = bsongen::decode<any_test::tagged>(encoded);
  ASSERT_TRUE(decoded) << decoded.error().to_string();
  EXPECT_EQ(decoded->metadata["array"][2][0].as_double(), 3.0);
  EXPECT_EQ(decoded->metadata["code_with_scope"].as_javascript_with_scope_scope()["x"].as_int32(),
            1);
  const bsongen::result<bsongen::vector_view> vector = decoded->metadata["vector"].as_vector();
  ASSERT_TRUE(vector) << vector.error().to_string();
  ASSERT_TRUE(vector->is(bsongen::vector_dtype::float32));
  EXPECT_EQ(std::vector<float>(vector->as_float32().begin(), vector->as_float32().end()),
            (std::vector<float>{0.25F, -1.0F, 3.5F}));
  EXPECT_EQ(encode_ok(*decoded), encoded);
}

TEST(any_codec, decoded_value_owns_its_bytes) {
  bytes encoded = encode_ok(tagged_holding(bsongen::document{{"s", "kept"}}));
  auto decoded = bsongen::decode<any_test::tagged>(encoded);
  ASSERT_TRUE(decoded) << decoded.error().to_string();
  std::fill(encoded.begin(), encoded.end(), std::uint8_t{0xEE});
  EXPECT_EQ(decoded->metadata["s"].as_string(), "kept");
}

TEST(any_codec, containers_and_optional_of_any) {
  any_test::containers c;
  c.values = {bsongen::value(1), bsongen::value("two"), bsongen::value(bsongen::array{3, 4}),
              bsongen::value(nullptr), bsongen::value(bsongen::regex{"x", "si"})};
  c.attributes.emplace("color", bsongen::value("red"));
  c.attributes.emplace("size", bsongen::value(std::int64_t{10}));
  c.attributes.emplace("nested", bsongen::value(bsongen::document{{"z", false}}));
  c.extra = bsongen::value(bsongen::min_key{});

  auto encoded = bsongen::encode(c);
  ASSERT_TRUE(encoded) << encoded.error().to_string();
  const bsongen::document generic{
      {"values",
       bsongen::array{1, "two", bsongen::array{3, 4}, nullptr, bsongen::regex{"x", "is"}}},
      {"attributes", bsongen::document{{"color", "red"},
                                       {"nested", bsongen::document{{"z", false}}},
                                       {"size", std::int64_t{10}}}},
      {"extra", bsongen::min_key{}}};
  EXPECT_EQ(to_bytes(*encoded), generic_encoding(generic));

  auto decoded = bsongen::decode<any_test::containers>(encoded->span());
  ASSERT_TRUE(decoded) << decoded.error().to_string();
  EXPECT_EQ(*decoded, c);

  // optional<any>: absent stays absent, and a null is a value (decision 7: an `any` holds null
  // itself, so only absence is absent), written back as null.
  c.extra.reset();
  auto without_extra = bsongen::decode<any_test::containers>(bsongen::encode(c)->span());
  ASSERT_TRUE(without_extra) << without_extra.error().to_string();
  EXPECT_FALSE(without_extra->extra.has_value());
  const bytes with_null = generic_encoding(bsongen::document{{"extra", nullptr}});
  auto null_extra = bsongen::decode<any_test::containers>(with_null);
  ASSERT_TRUE(null_extra) << null_extra.error().to_string();
  ASSERT_TRUE(null_extra->extra.has_value());
  EXPECT_TRUE(null_extra->extra->is_null());
  auto again = bsongen::encode(*null_extra);
  ASSERT_TRUE(again) << again.error().to_string();
  const auto reread = bsongen::decode_document(again->span());
  ASSERT_TRUE(reread) << reread.error().to_string();
  EXPECT_TRUE((*reread)["extra"].is_null());
}

TEST(any_codec, error_inside_the_value_names_its_path_and_offset) {
  // metadata.x.3 is a string whose bytes are not UTF-8.
  const bytes good = generic_tagged(bsongen::document{{"x", bsongen::array{1, 2, 3, "ab\x01"}}});
  bytes bad = good;
  const std::size_t string_value = find_bytes(bad, {4, 0, 0, 0, 'a', 'b', 1, 0});
  bad[string_value + 4] = 0xC3;  // a lead byte followed by 'b', not a continuation byte

  auto r = bsongen::decode<any_test::tagged>(bad);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, bsongen::error_code::invalid_utf8);
  EXPECT_EQ(r.error().path, "metadata.x.3");
  // The element's type byte (decision 1), as the generic decoder says.
  EXPECT_EQ(r.error().offset, string_value - 3);
  const auto generic = bsongen::decode_document(bad);
  ASSERT_FALSE(generic);
  EXPECT_EQ(generic.error().offset, r.error().offset);
  EXPECT_EQ(generic.error().path, r.error().path);

  bsongen::decode_options lenient;
  lenient.validate_utf8 = false;
  EXPECT_TRUE(bsongen::decode<any_test::tagged>(bad, lenient));
}

TEST(any_codec, nesting_counts_against_max_depth) {
  bsongen::value nested = bsongen::document{};
  for (int i = 0; i < 10; ++i) nested = bsongen::document{{"d", nested}};
  const bytes encoded = generic_tagged(nested);  // 12 levels with the outer document

  bsongen::decode_options options;
  options.max_depth = 12;
  EXPECT_TRUE(bsongen::decode<any_test::tagged>(encoded, options));
  EXPECT_TRUE(bsongen::decode_document(encoded, options));
  options.max_depth = 11;
  auto r = bsongen::decode<any_test::tagged>(encoded, options);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, bsongen::error_code::too_deep);
  EXPECT_EQ(r.error().path.rfind("metadata.d.d", 0), 0u) << r.error().path;
  EXPECT_FALSE(bsongen::decode_document(encoded, options));
}

// Cuts the input inside the any value (outer length and terminator kept consistent) and flips
// every byte of the value: decoding never reads outside the input, fails exactly when the generic
// decoder fails on the same bytes, and points inside the input.
TEST(any_codec, hostile_truncation_and_corruption) {
  const bytes good = generic_tagged(every_type());
  const std::size_t metadata_value =
      find_bytes(good, {'m', 'e', 't', 'a', 'd', 'a', 't', 'a', 0}) + 9;
  std::int32_t metadata_size = 0;
  std::memcpy(&metadata_size, good.data() + metadata_value, 4);
  const std::size_t metadata_end = metadata_value + static_cast<std::size_t>(metadata_size);

  for (std::size_t cut = metadata_value; cut < metadata_end; ++cut) {
    bytes truncated(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(cut));
    truncated.push_back(0);
    const auto size = static_cast<std::int32_t>(truncated.size());
    std::memcpy(truncated.data(), &size, 4);
    auto r = bsongen::decode<any_test::tagged>(truncated);
    ASSERT_FALSE(r) << "cut at " << cut;
    EXPECT_LT(r.error().offset, truncated.size()) << "cut at " << cut;
    EXPECT_FALSE(bsongen::decode_document(truncated)) << "cut at " << cut;
  }

  std::size_t failures = 0;
  for (std::size_t at = metadata_value + 4; at + 1 < metadata_end; ++at) {
    for (const int flip : {0x01, 0x80, 0xFF}) {
      bytes corrupt = good;
      corrupt[at] = static_cast<std::uint8_t>(corrupt[at] ^ flip);
      auto generated = bsongen::decode<any_test::tagged>(corrupt);
      auto generic = bsongen::decode_document(corrupt);
      ASSERT_EQ(generated.has_value(), generic.has_value())
          << "byte " << at << " ^ " << flip << ": "
          << (generated ? generic.error().to_string() : generated.error().to_string());
      if (!generated) {
        ++failures;
        EXPECT_LT(generated.error().offset, corrupt.size());
        EXPECT_EQ(generated.error().path.rfind("metadata", 0), 0u) << generated.error().path;
      }
    }
  }
  EXPECT_GT(failures, 0u);
}

// Each type as the field's whole value (scalars and strings take a path of their own, not the
// generic decoder's walk): every byte of the value flipped and every cut inside it fails exactly
// when the generic decoder fails on the same bytes, with its code, offset and path.
TEST(any_codec, hostile_values_of_every_type_fail_as_the_generic_decoder_does) {
  const std::uint8_t field_name[] = {'m', 'e', 't', 'a', 'd', 'a', 't', 'a', 0};
  const auto same_verdict = [](const bytes& input, const std::string& what) {
    auto generated = bsongen::decode<any_test::tagged>(input);
    auto generic = bsongen::decode_document(input);
    ASSERT_EQ(generated.has_value(), generic.has_value())
        << what << ": "
        << (generated ? generic.error().to_string() : generated.error().to_string());
    if (generated) return;
    EXPECT_EQ(bsongen::name(generated.error().code), bsongen::name(generic.error().code))
        << what << ": " << generated.error().to_string() << " / " << generic.error().to_string();
    EXPECT_EQ(generated.error().offset, generic.error().offset)
        << what << ": " << generated.error().to_string() << " / " << generic.error().to_string();
    EXPECT_EQ(generated.error().path, generic.error().path)
        << what << ": " << generated.error().to_string() << " / " << generic.error().to_string();
  };
  for (const auto& element : every_type()) {
    const bytes good = generic_tagged(bsongen::value(element.value()));
    const std::size_t value_at =
        find_bytes(good, bytes(std::begin(field_name), std::end(field_name))) + sizeof field_name;
    // The value runs to the `name` element: its type byte (0x02) and key.
    const std::size_t value_end = find_bytes(good, {0x02, 'n', 'a', 'm', 'e', 0});
    const std::string type(element.key());
    for (std::size_t at = value_at; at < value_end; ++at) {
      for (const int flip : {0x01, 0x80, 0xFF}) {
        bytes corrupt = good;
        corrupt[at] = static_cast<std::uint8_t>(corrupt[at] ^ flip);
        same_verdict(corrupt, type + ", byte " + std::to_string(at) + " ^ " + std::to_string(flip));
      }
    }
    for (std::size_t cut = value_at; cut < value_end; ++cut) {
      bytes truncated(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(cut));
      truncated.push_back(0);
      const auto size = static_cast<std::int32_t>(truncated.size());
      std::memcpy(truncated.data(), &size, 4);
      same_verdict(truncated, type + ", cut at " + std::to_string(cut));
    }
  }
}

// --- Encode refuses what decode would reject (decision 5), as encode_document does. ---

bytes written(const bsongen::writer& w) { return {w.bytes().begin(), w.bytes().end()}; }

// Generated encode of `obj` and encode_document of `generic` (the same document) both refuse it
// with `code` at `path`; the generated entry points leave a writer (growing or over a caller
// buffer) exactly as they found it.
template <class T>
void expect_both_refuse(const T& obj, const bsongen::document& generic, bsongen::error_code code,
                        std::string_view path) {
  bsongen::writer grown;
  grown.put_u8(0xAB);
  grown.put_i32(0x01020304);
  const bytes grown_before = written(grown);
  const auto into_writer = bsongen::encode(obj, grown);
  ASSERT_FALSE(into_writer) << "generated encode accepted";
  EXPECT_EQ(bsongen::name(into_writer.error().code), bsongen::name(code))
      << into_writer.error().to_string();
  EXPECT_EQ(into_writer.error().path, path) << into_writer.error().to_string();
  EXPECT_EQ(written(grown), grown_before);
  EXPECT_FALSE(grown.overflowed());

  std::vector<std::uint8_t> storage(4096, 0x5A);
  bsongen::writer fixed(storage);
  fixed.put_u8(0x11);
  const auto into_caller_buffer = bsongen::encode(obj, fixed);
  ASSERT_FALSE(into_caller_buffer);
  EXPECT_EQ(into_caller_buffer.error().path, path);
  EXPECT_EQ(fixed.size(), 1u);
  EXPECT_EQ(storage[0], 0x11);
  EXPECT_EQ(storage[1], 0x5A);

  const auto buffer = bsongen::encode(obj);
  ASSERT_FALSE(buffer);
  EXPECT_EQ(buffer.error().code, code);
  EXPECT_EQ(buffer.error().path, path);
  const auto size = bsongen::encoded_size(obj);
  ASSERT_FALSE(size);
  EXPECT_EQ(size.error().path, path);

  bsongen::writer generic_out;
  const auto by_generic = bsongen::encode_document(generic, generic_out);
  ASSERT_FALSE(by_generic) << "encode_document accepted";
  EXPECT_EQ(bsongen::name(by_generic.error().code), bsongen::name(code))
      << by_generic.error().to_string();
  EXPECT_EQ(by_generic.error().path, path) << by_generic.error().to_string();
}

void expect_tagged_refused(const bsongen::value& metadata, std::string_view path) {
  expect_both_refuse(tagged_holding(metadata),
                     bsongen::document{{"_id", 7}, {"metadata", metadata}, {"name", "n"}},
                     bsongen::error_code::invalid_utf8, path);
}

TEST(any_codec_hostile, encode_refuses_string_that_is_not_utf8) {
  expect_tagged_refused(bsongen::value("ab\xFF"), "metadata");
  expect_tagged_refused(
      bsongen::document{{"a", bsongen::array{1, "ok\xC3", "also fine"}}, {"b", "\xC3\xA9"}},
      "metadata.a.1");
  // An overlong form, a surrogate and a truncated sequence: each rejected by the decoder.
  for (const char* bad : {"\xC0\xAF", "\xED\xA0\x80", "x\xE2\x82"}) {
    SCOPED_TRACE(bad);
    expect_tagged_refused(bsongen::document{{"s", bad}}, "metadata.s");
  }
}

TEST(any_codec_hostile, encode_refuses_nested_key_that_is_not_utf8) {
  expect_tagged_refused(bsongen::document{{"ok", bsongen::document{{"k\xFF", 1}}}},
                        "metadata.ok.k\xFF");
  // In a document inside an array: the array's own keys are written as indices.
  expect_tagged_refused(bsongen::array{bsongen::document{{"\x80", nullptr}}}, "metadata.0.\x80");
}

TEST(any_codec_hostile, key_with_nul_cannot_reach_encode) {
  // Building refuses a key with NUL (it would end the key early), so no value holds one; a map
  // of `any` refuses such a map key on encode, with the key as the last path segment.
  bsongen::document d;
  EXPECT_THROW(d.set(std::string_view("a\0b", 3), 1), bsongen::exception);
  any_test::containers c;
  c.attributes.emplace(std::string("a\0b", 3), bsongen::value(1));
  const bsongen::error e = bsongen::test::encode_error(c);
  EXPECT_EQ(e.code, bsongen::error_code::invalid_value);
  EXPECT_EQ(e.path, std::string("attributes.a\0b", 14));
}

TEST(any_codec_hostile, encode_refuses_regex_and_code_that_are_not_utf8) {
  expect_tagged_refused(bsongen::regex{"^a\xFF", "i"}, "metadata");
  expect_tagged_refused(bsongen::document{{"r", bsongen::regex{"a", "\xC3"}}}, "metadata.r");
  expect_tagged_refused(bsongen::document{{"js", bsongen::javascript{"f(\xFF)"}}}, "metadata.js");
  expect_tagged_refused(bsongen::array{bsongen::symbol{"\xFE"}}, "metadata.0");
  const std::uint8_t oid_bytes[12] = {};
  expect_tagged_refused(
      bsongen::document{
          {"p", bsongen::db_pointer{"db.\xFF", bsongen::object_id::from_bytes(oid_bytes)}}},
      "metadata.p");
  const bsongen::raw_document scope = bsongen::to_raw_document(bsongen::document{{"x", 1}});
  expect_tagged_refused(bsongen::javascript_with_scope{"x\xFF", scope}, "metadata");
}

TEST(any_codec_hostile, encode_refuses_inside_optional_vector_and_map_of_any) {
  {
    any_test::containers c;
    c.extra = bsongen::value(bsongen::document{{"s", "\xFF"}});
    expect_both_refuse(
        c,
        bsongen::document{
            {"values", bsongen::array{}}, {"attributes", bsongen::document{}}, {"extra", *c.extra}},
        bsongen::error_code::invalid_utf8, "extra.s");
  }
  {
    any_test::containers c;
    c.values = {bsongen::value(1),
                bsongen::value(bsongen::document{{"x", bsongen::array{"ok", "\xFE"}}})};
    expect_both_refuse(c,
                       bsongen::document{{"values", bsongen::array{c.values[0], c.values[1]}},
                                         {"attributes", bsongen::document{}}},
                       bsongen::error_code::invalid_utf8, "values.1.x.1");
  }
  {
    any_test::containers c;
    c.attributes.emplace("fine", bsongen::value("yes"));
    c.attributes.emplace("k", bsongen::value(bsongen::array{"\xFF"}));
    expect_both_refuse(
        c,
        bsongen::document{
            {"values", bsongen::array{}},
            {"attributes", bsongen::document{{"fine", "yes"}, {"k", c.attributes.at("k")}}}},
        bsongen::error_code::invalid_utf8, "attributes.k.0");
  }
}

// Decoding without validate_utf8 keeps text unchecked (node_flags say so): encode then checks it.
TEST(any_codec_hostile, encode_refuses_value_decoded_without_utf8_checks) {
  const bytes good = generic_tagged(bsongen::document{{"x", bsongen::array{1, 2, 3, "ab\x01"}}});
  bytes bad = good;
  const std::size_t string_value = find_bytes(bad, {4, 0, 0, 0, 'a', 'b', 1, 0});
  bad[string_value + 4] = 0xC3;
  bsongen::decode_options lenient;
  lenient.validate_utf8 = false;
  const auto decoded = bsongen::decode<any_test::tagged>(bad, lenient);
  ASSERT_TRUE(decoded) << decoded.error().to_string();
  const auto generic = bsongen::decode_document(bad, lenient);
  ASSERT_TRUE(generic) << generic.error().to_string();
  expect_both_refuse(*decoded, *generic, bsongen::error_code::invalid_utf8, "metadata.x.3");

  // The same decode of valid text encodes, and as the generic path writes it.
  const auto valid = bsongen::decode<any_test::tagged>(good, lenient);
  ASSERT_TRUE(valid) << valid.error().to_string();
  EXPECT_EQ(encode_ok(*valid), good);
}

TEST(any_codec, decoded_value_encodes_as_the_generic_path_does) {
  const bytes input = generic_tagged(every_type());
  const auto generated = bsongen::decode<any_test::tagged>(input);
  ASSERT_TRUE(generated) << generated.error().to_string();
  const auto generic = bsongen::decode_document(input);
  ASSERT_TRUE(generic) << generic.error().to_string();
  const bytes by_generated = encode_ok(*generated);
  EXPECT_EQ(by_generated, input);
  EXPECT_EQ(by_generated, generic_encoding(*generic));
  EXPECT_EQ(bsongen::encoded_size(*generated).value(), input.size());
}

}  // namespace
