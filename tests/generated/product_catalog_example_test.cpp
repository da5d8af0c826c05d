// schemas/product_catalog.yaml, the `allocator: pmr` example: a product round-trips, decodes
// whole onto one memory resource (the default resource is never asked), and a variant without
// its required sku is refused with the path to it.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <memory_resource>
#include <string>
#include <type_traits>

#include "bsongen/codec.hpp"
#include "bsongen/document.hpp"
#include "codec_helpers.hpp"
#include "default_resource_refuses.hpp"
#include "product_catalog.bsongen.hpp"

namespace {

using bsongen::test::bytes;
using bsongen::test::decode_error;
using bsongen::test::decode_ok;
using bsongen::test::encode_ok;
using bsongen::test::expect_round_trip;
using bsongen::test::generic_encoding;
using allocator = std::pmr::polymorphic_allocator<>;

static_assert(std::uses_allocator_v<catalog::product, allocator>);
static_assert(std::uses_allocator_v<catalog::variant, allocator>);
static_assert(
    std::is_same_v<decltype(catalog::product::thumbnail), std::optional<bsongen::pmr::binary>>);

catalog::variant variant_of(const char* sku, const char* size, const char* price, int stock) {
  catalog::variant v;
  v.sku = sku;
  // Longer than a string keeps inline, so it allocates.
  v.options = {{"size", size}, {"colour", "midnight navy with contrast stitching"}};
  v.price.amount = *bsongen::decimal128::from_string(price);
  v.stock = stock;
  v.availability = stock > 0 ? catalog::availability::in_stock : catalog::availability::backorder;
  return v;
}

catalog::product sample() {
  catalog::product p;
  p.id = *bsongen::object_id::from_hex("6570b0c1d2e3f40516273849");
  p.slug = "merino-crew-neck-jumper-navy";
  p.title = "Merino crew neck jumper";
  p.description = "Fine-knit extra-fine merino wool, ribbed cuffs and hem, regular fit.";
  p.brand = "Northfold Knitwear Company";
  p.categories = {"men", "knitwear", "jumpers and cardigans"};
  p.attributes = {{"material", "100% extra-fine merino wool"},
                  {"care", "hand wash cold, dry flat, do not tumble dry"}};
  p.variants.push_back(variant_of("NF-1042-NV-M", "M", "89.00", 12));
  p.variants.push_back(variant_of("NF-1042-NV-XL", "XL", "94.50", 0));
  p.thumbnail = bsongen::pmr::binary(bytes{0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10},
                                     bsongen::binary_subtype::generic);
  p.updated_at = bsongen::datetime(std::chrono::milliseconds(1'701'907'200'000));
  return p;
}

TEST(product_catalog_example, round_trips) { expect_round_trip(sample()); }

TEST(product_catalog_example, decodes_whole_onto_one_resource) {
  const catalog::product expected = sample();
  const bytes encoded = encode_ok(expected);
  std::pmr::monotonic_buffer_resource arena(std::pmr::new_delete_resource());
  {
    const bsongen::test::default_resource_refuses guard;  // any stray allocation fails the decode
    const auto p = decode_ok<catalog::product>(encoded, {.memory = &arena});
    EXPECT_TRUE(p == expected);
    EXPECT_EQ(p.get_allocator().resource(), &arena);
    EXPECT_EQ(p.categories.get_allocator().resource(), &arena);
    ASSERT_EQ(p.variants.size(), 2U);
    EXPECT_EQ(p.variants[1].options.get_allocator().resource(), &arena);
    EXPECT_EQ(p.variants[1].price.currency.get_allocator().resource(), &arena);
    ASSERT_TRUE(p.thumbnail.has_value());
    EXPECT_EQ(p.thumbnail->get_allocator().resource(), &arena);
  }
}

TEST(product_catalog_example, a_variant_without_its_sku_is_refused_with_its_path) {
  const bytes b = generic_encoding(bsongen::document{
      {"_id", sample().id},
      {"slug", "s"},
      {"title", "t"},
      {"variants",
       bsongen::array{bsongen::document{{"sku", "A-1"}}, bsongen::document{{"stock", 3}}}},
  });
  const bsongen::error e = decode_error<catalog::product>(b);
  EXPECT_EQ(e.code, bsongen::error_code::missing_field);
  EXPECT_EQ(e.path, "variants.1.sku");
}

}  // namespace
