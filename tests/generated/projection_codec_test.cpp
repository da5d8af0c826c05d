// Projections (tests/generated/schemas/projections.yaml, schemas/orders.yaml's order_summary):
// a projection decodes its source's documents into the fields it keeps, whatever the order of
// the elements and under both ways of stepping over the rest (decode_options::validate_skipped);
// errors, required fields and unknown_fields behave as for any struct; its field paths and
// projection document are what the schema says.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <numeric>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bson_builder.hpp"
#include "bsongen/codec.hpp"
#include "bsongen/document.hpp"
#include "bsongen/query.hpp"
#include "codec_helpers.hpp"
#include "orders.bsongen.hpp"
#include "projections.bsongen.hpp"

namespace {

using bsongen::decode_options;
using bsongen::error_code;
using namespace bsongen::test;

const decode_options trusted{.validate_skipped = false};

proj::source full_source() {
  proj::source s;
  std::uint8_t id[12] = {0x65, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  s.id = bsongen::object_id::from_bytes(id);
  s.title = "Ein Titel, lang genug für den Heap des std::string";
  s.count = -5'000'000'000LL;
  s.level = proj::level::low;
  s.at = {1.5, -2.25};
  s.tags = {{"red", 3}, {"blue", 4}};
  s.maybe = proj::tag{"maybe", 9};
  s.anything = bsongen::value(bsongen::document{{"k", "v"}, {"n", 3}});
  s.blob.bytes = {1, 2, 3};
  s.flags = {{"a", 1}, {"b", 2}};
  s.amount = bsongen::number<std::int64_t>(7);
  s.note = bsongen::nullable<std::string>(nullptr);
  s.pattern = bsongen::regex{"^a.*z$", "i"};
  s.code = bsongen::javascript_with_scope{"x + 1",
                                          bsongen::to_raw_document(bsongen::document{{"x", 1}})};
  s.raw = bsongen::to_raw_document(bsongen::document{{"inner", true}});
  s.last = 42;
  return s;
}

proj::summary summary_of(const proj::source& s) {
  proj::summary out;
  out.title = s.title;
  for (const auto& t : s.tags) out.tags.push_back({t.name});
  if (s.maybe) out.maybe = proj::summary_maybe{s.maybe->weight};
  out.last = s.last;
  return out;
}

// `doc`'s elements in reverse order: every field out of the source's order.
bytes reversed(const bytes& doc) {
  std::vector<bytes> elements = elements_of(doc);
  std::vector<std::size_t> order(elements.size());
  std::iota(order.rbegin(), order.rend(), std::size_t{0});
  return document_of(elements, order);
}

// `doc` with an element of a key the source does not know after each of its elements.
bytes with_unknown_keys(const bytes& doc) {
  std::vector<bytes> elements = elements_of(doc);
  const std::size_t known = elements.size();
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < known; ++i) {
    elements.push_back(
        bson_builder().u8(0x02).cstr("unknown" + std::to_string(i)).str("x").bytes());
    order.push_back(i);
    order.push_back(known + i);
  }
  return document_of(elements, order);
}

TEST(projection_codec, decodes_the_kept_fields_of_the_sources_documents) {
  const proj::source s = full_source();
  const bytes doc = encode_ok(s);
  const proj::summary expected = summary_of(s);
  for (const bytes& variant : {doc, reversed(doc), with_unknown_keys(doc)}) {
    for (const decode_options& options : {decode_options{}, trusted}) {
      EXPECT_TRUE(decode_ok<proj::summary>(variant, options) == expected);
      const proj::fixed_view fixed = decode_ok<proj::fixed_view>(variant, options);
      EXPECT_EQ(fixed.id, s.id);
      EXPECT_EQ(fixed.count, s.count);
      EXPECT_EQ(fixed.at.x, s.at.x);
      EXPECT_EQ(fixed.last, s.last);
      const proj::any_only any = decode_ok<proj::any_only>(variant, options);
      EXPECT_TRUE(any.anything == s.anything);
      EXPECT_EQ(any.amount, s.amount);
      EXPECT_EQ(decode_ok<proj::picky>(variant, options).title, s.title);
    }
  }
}

TEST(projection_codec, reused_structs_reset_what_the_document_leaves_out) {
  proj::source s = full_source();
  proj::summary out;
  ASSERT_TRUE(bsongen::decode(encode_ok(s), out));
  s.maybe.reset();
  s.tags.clear();
  ASSERT_TRUE(bsongen::decode(encode_ok(s), out, trusted));
  EXPECT_TRUE(out == summary_of(s));
  EXPECT_FALSE(out.maybe.has_value());
}

TEST(projection_codec, a_fixed_shape_projection_still_reads_its_own_documents_fast) {
  static_assert(bsongen::codec<proj::fixed_view>::fixed_size > 0);
  proj::fixed_view v;
  v.count = 3;
  v.at.x = 0.5;
  v.last = -1;
  expect_round_trip(v);
}

TEST(projection_codec, orders_decode_into_the_order_summary) {
  shop::order o;
  std::uint8_t id[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  o.id = bsongen::object_id::from_bytes(id);
  o.number = 77;
  o.status = shop::order_status::cancelled;
  o.customer.id = o.id;
  o.customer.name = "Ada";
  o.customer.email = "ada@example.com";
  o.customer.shipping = {"Main St 1", "Berlin", "10115", "DE"};
  o.items = {{"SKU-1", 2, {}, {}}};
  o.created_at = bsongen::datetime(std::chrono::milliseconds(1'700'000'000'000LL));
  o.tags = {{"channel", "web"}};
  const bytes doc = encode_ok(o);
  for (const bytes& variant : {doc, reversed(doc), with_unknown_keys(doc)}) {
    for (const decode_options& options : {decode_options{}, trusted}) {
      const auto summary = decode_ok<shop::order_summary>(variant, options);
      EXPECT_EQ(summary.id, o.id);
      EXPECT_EQ(summary.status, o.status);
      EXPECT_EQ(summary.customer.name, o.customer.name);
      EXPECT_EQ(summary.total, o.total);
    }
  }
}

// --- Errors, required fields and unknown_fields, as for any struct. ---

// `doc` with its element under `key` replaced by `replacement` (a whole element).
bytes replaced(const bytes& doc, std::string_view key, const bson_builder& replacement) {
  std::vector<bytes> elements = elements_of(doc);
  std::vector<std::size_t> order(elements.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  for (bytes& e : elements) {
    if (std::string_view(reinterpret_cast<const char*>(e.data() + 1)) == key)
      e = replacement.bytes();
  }
  return document_of(elements, order);
}

TEST(projection_codec, a_kept_required_field_missing_fails_as_for_the_source) {
  // tags.1 without its required name.
  bson_builder tags;
  tags.u8(0x04).cstr("tags").doc(
      bson_builder()
          .u8(0x03)
          .cstr("0")
          .doc(bson_builder().u8(0x02).cstr("name").str("red").u8(0x10).cstr("weight").i32(3))
          .u8(0x03)
          .cstr("1")
          .doc(bson_builder().u8(0x10).cstr("weight").i32(4)));
  const bytes doc = replaced(encode_ok(full_source()), "tags", tags);
  const bsongen::error from_source = decode_error<proj::source>(doc);
  EXPECT_EQ(from_source.code, error_code::missing_field);
  for (const decode_options& options : {decode_options{}, trusted}) {
    const bsongen::error e = decode_error<proj::summary>(doc, options);
    EXPECT_EQ(e.code, error_code::missing_field);
    EXPECT_EQ(e.path, from_source.path);
    EXPECT_EQ(e.offset, from_source.offset);
  }
}

TEST(projection_codec, an_error_in_a_skipped_field_is_the_sources_error_when_validated) {
  // The string `title` (which summary keeps) and `note` (which it skips) with a bad UTF-8 byte
  // each: the validated projection reports either where the source does.
  for (const char* key : {"title", "note"}) {
    const bytes doc = replaced(encode_ok(full_source()), key,
                               bson_builder().u8(0x02).cstr(key).i32(3).u8s({'a', 0xFF, 0}));
    const bsongen::error from_source = decode_error<proj::source>(doc);
    const bsongen::error e = decode_error<proj::summary>(doc);
    EXPECT_EQ(e.code, error_code::invalid_utf8) << key;
    EXPECT_EQ(e.code, from_source.code) << key;
    EXPECT_EQ(e.path, from_source.path) << key;
    EXPECT_EQ(e.offset, from_source.offset) << key;
    EXPECT_EQ(e.path, key);
    if (std::string_view(key) == "note") {
      // Trusted: a skipped value is stepped over by its length, not looked into.
      EXPECT_TRUE(bsongen::decode<proj::summary>(doc, trusted));
    } else {
      EXPECT_EQ(decode_error<proj::summary>(doc, trusted).code, error_code::invalid_utf8);
    }
  }
}

TEST(projection_codec, reject_refuses_what_it_does_not_keep_and_accepts_its_projection) {
  const proj::source s = full_source();
  const bsongen::error e = decode_error<proj::strict>(encode_ok(s));
  EXPECT_EQ(e.code, error_code::unknown_field);
  EXPECT_EQ(e.path, "count");
  // What the server returns for the projection document: only the kept keys.
  proj::strict answer{s.id, s.title};
  EXPECT_TRUE(decode_ok<proj::strict>(encode_ok(answer)) == answer);
}

TEST(projection_codec, capture_keeps_every_element_it_does_not_keep) {
  const proj::source s = full_source();
  const bytes doc = encode_ok(s);
  const proj::keeper k = decode_ok<proj::keeper>(doc);
  EXPECT_EQ(k.title, s.title);
  EXPECT_EQ(elements_of(k.rest.bytes()).size(), elements_of(doc).size() - 1);
  // Written back, the captured elements follow the title: the source's document, reordered.
  EXPECT_TRUE(decode_ok<proj::source>(encode_ok(k)) == s);
}

TEST(projection_codec, repeated_skipped_keys_follow_duplicate_keys) {
  const bytes doc = encode_ok(full_source());
  std::vector<bytes> elements = elements_of(doc);
  std::vector<std::size_t> order(elements.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  order.push_back(2);  // `count` again: a field summary and picky skip
  const bytes repeated = document_of(elements, order);
  EXPECT_TRUE(bsongen::decode<proj::summary>(repeated));
  const bsongen::error e = decode_error<proj::picky>(repeated);
  EXPECT_EQ(e.code, error_code::duplicate_field);
  EXPECT_EQ(e.path, "count");
  EXPECT_EQ(decode_error<proj::summary>(repeated,
                                        {.duplicate_keys = bsongen::duplicate_key_policy::reject})
                .code,
            error_code::duplicate_field);
}

// --- Field paths and projection documents. ---

constexpr std::string_view path(std::string_view p) { return p; }

static_assert(path(proj::source_paths::id) == "_id");
static_assert(path(proj::source_paths::last) == "lastKey");
static_assert(path(proj::source_paths::at) == "at");
static_assert(path(proj::source_paths::at.x) == "at.x");
static_assert(path(proj::source_paths::tags.name) == "tags.name");
static_assert(path(proj::source_paths::maybe.weight) == "maybe.weight");
static_assert(path(proj::summary_paths::maybe.weight) == "maybe.weight");
static_assert(path(bsongen::paths<proj::source>::flags) == "flags");
static_assert(path(shop::order_paths::customer.shipping.postal_code) ==
              "customer.shipping.postalCode");
static_assert(path(shop::order_paths::created_at) == "createdAt");
// A recursive struct's field has a path without members.
template <class Paths>
concept has_value_path = requires {
  std::remove_cvref_t<Paths>::value;
};
static_assert(path(proj::node_paths::children) == "children");
static_assert(has_value_path<proj::node_paths>);
static_assert(!has_value_path<decltype(proj::node_paths::children)>);

TEST(projection_codec, paths_are_nul_terminated_for_c_apis) {
  const std::string_view p = shop::order_paths::customer.name;
  EXPECT_EQ(p.data()[p.size()], '\0');
  bsongen::document filter{{shop::order_paths::status, "paid"}};
  EXPECT_EQ((*filter.begin()).key(), "status");
}

TEST(projection_codec, projection_documents_ask_for_what_decode_reads) {
  static_assert(bsongen::projection<shop::order_summary>().size() ==
                std::size(bsongen::codec<shop::order_summary>::projection_document));
  const auto expect = [](std::span<const std::uint8_t> got,
                         std::vector<std::pair<std::string, std::int32_t>> want) {
    const bsongen::document d = decode_generic(got);
    std::vector<std::pair<std::string, std::int32_t>> seen;
    for (const auto& e : d) seen.emplace_back(std::string(e.key()), e.value().as_int32());
    EXPECT_EQ(seen, want);
  };
  expect(bsongen::projection<shop::order_summary>(),
         {{"_id", 1}, {"status", 1}, {"customer.name", 1}, {"total", 1}});
  expect(bsongen::projection<shop::order>(), {});  // it captures unknown fields: everything
  expect(bsongen::projection<proj::summary>(),
         {{"_id", 0}, {"title", 1}, {"tags.name", 1}, {"maybe.weight", 1}, {"lastKey", 1}});
  expect(bsongen::projection<proj::node>(), {{"_id", 0}, {"value", 1}, {"children", 1}});
}

}  // namespace
