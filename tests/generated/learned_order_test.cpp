// The learned field order of generated decoders (detail::follow_learned_order and the learning in
// detail::decode_out_of_order): a document whose fields come in another order than the schema's
// sends the chain to the case earlier documents say comes next. The guess is only a guess: any
// order, any change of order between documents, and repeated keys met on a guessed path must
// decode exactly as in schema order, with the same errors.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "bsongen/codec.hpp"
#include "bsongen/detail/endian.hpp"
#include "codec_helpers.hpp"
#include "orders.bsongen.hpp"

namespace {

using bytes = std::vector<std::uint8_t>;
using bsongen::test::decode_error;
using bsongen::test::decode_ok;
using bsongen::test::document_of;
using bsongen::test::elements_of;
using bsongen::test::encode_ok;

std::vector<std::size_t> reversed_order(std::size_t n) {
  std::vector<std::size_t> order(n);
  std::iota(order.rbegin(), order.rend(), std::size_t{0});
  return order;
}

shop::address sample_address(int i) {
  shop::address a;
  a.street = "Street " + std::to_string(i);
  a.city = i % 2 == 0 ? "Berlin" : "Cologne";
  a.postal_code = std::to_string(10000 + i);
  a.country = i % 3 == 0 ? "DE" : "AT";
  return a;
}

shop::customer sample_customer(int i) {
  shop::customer c;
  c.id = bsongen::object_id::generate(static_cast<std::uint32_t>(i));
  c.name = "Customer " + std::to_string(i);
  c.email = "c" + std::to_string(i) + "@example.com";
  c.shipping = sample_address(i);
  c.billing = sample_address(i + 1);
  return c;
}

shop::order sample_order(int i) {
  shop::order o;
  o.id = bsongen::object_id::generate(static_cast<std::uint32_t>(1000 + i));
  o.number = 500 + i;
  o.status = shop::order_status::shipped;
  o.payment = shop::payment_method::voucher;
  o.customer = sample_customer(i);
  for (int k = 0; k < 1 + i % 3; ++k) {
    shop::line_item item;
    item.sku = "SKU-" + std::to_string(i * 10 + k);
    item.quantity = k + 1;
    item.unit_price = bsongen::decimal128::from_int64(100 + k);
    if (k % 2 == 0) item.discount = bsongen::decimal128::from_int64(5);
    o.items.push_back(item);
  }
  o.total = bsongen::decimal128::from_int64(300 + i);
  o.created_at = bsongen::datetime(std::chrono::milliseconds(1'700'000'000'000LL + i));
  o.shipped_at = bsongen::datetime(std::chrono::milliseconds(1'700'000'100'000LL + i));
  o.tags = {{"channel", "web"}, {"n", std::to_string(i)}};
  o.notes = "note " + std::to_string(i);
  o.gift = i % 2 == 0;
  o.version = {static_cast<std::uint32_t>(i), 1};
  o.dimensions = {1.0, 2.0, static_cast<double>(i)};
  return o;
}

// Decodes `doc` into a new struct and into `reused`; both must equal `expected`.
template <class T>
void expect_decodes_to(const bytes& doc, const T& expected, T& reused, const std::string& what) {
  EXPECT_TRUE(decode_ok<T>(doc) == expected) << what << ": new struct";
  const auto r = bsongen::decode(std::span<const std::uint8_t>(doc), reused);
  ASSERT_TRUE(r) << what << ": " << r.error().to_string();
  EXPECT_TRUE(reused == expected) << what << ": reused struct";
}

TEST(learned_order, every_order_of_a_struct_decodes_one_after_another) {
  // All 24 orders of an address's 4 fields, in sequence and then again: each document meets what
  // the ones before it taught.
  const shop::address a = sample_address(7);
  const auto elements = elements_of(encode_ok(a));
  ASSERT_EQ(elements.size(), 4u);
  std::vector<std::size_t> order = {0, 1, 2, 3};
  shop::address reused = sample_address(8);
  for (int round = 0; round < 2; ++round) {
    do {
      expect_decodes_to(document_of(elements, order), a, reused,
                        "order " + std::to_string(order[0]) + std::to_string(order[1]) +
                            std::to_string(order[2]) + std::to_string(order[3]));
    } while (std::next_permutation(order.begin(), order.end()));
  }
}

TEST(learned_order, streams_change_order_and_change_back) {
  // Orders (with nested customers and addresses in their own orders) in schema order, then a
  // stream in one shuffled order, another, reversed, and schema order again.
  std::vector<shop::order> orders;
  std::vector<std::vector<bytes>> elements;
  for (int i = 0; i < 12; ++i) {
    orders.push_back(sample_order(i));
    elements.push_back(elements_of(encode_ok(orders.back())));
  }
  const std::size_t n = elements[0].size();
  ASSERT_EQ(n, 14u);  // every field but attachment and tracking, and no captured keys
  std::vector<std::vector<std::size_t>> streams;
  std::vector<std::size_t> schema(n);
  std::iota(schema.begin(), schema.end(), std::size_t{0});
  streams.push_back(schema);
  std::mt19937 rng(20261202);
  for (int s = 0; s < 2; ++s) {
    auto shuffled = schema;
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    streams.push_back(shuffled);
  }
  streams.push_back(reversed_order(n));
  streams.push_back(schema);
  shop::order reused;
  for (std::size_t s = 0; s < streams.size(); ++s) {
    for (std::size_t i = 0; i < orders.size(); ++i) {
      expect_decodes_to(document_of(elements[i], streams[s]), orders[i], reused,
                        "stream " + std::to_string(s) + ", order " + std::to_string(i));
    }
  }
}

TEST(learned_order, a_repeated_key_met_on_a_guessed_path_is_still_refused) {
  // shop::order refuses repeated keys. Taught the reversed order, the chain goes from the last
  // field down: after each guessed jump it falls through into a case already decoded, where a
  // repeated key must not be taken as new.
  const shop::order o = sample_order(3);
  const auto elements = elements_of(encode_ok(o));
  const std::size_t n = elements.size();
  shop::order reused;
  for (int i = 0; i < 3; ++i) {
    expect_decodes_to(document_of(elements, reversed_order(n)), o, reused, "reversed");
  }
  // version (_v) and gift, the fields before it in schema order, then version again: the chain,
  // sent to gift's case by the learned order, falls through into version's.
  const std::size_t version = n - 2;  // dimensions, the last field, comes after it
  std::vector<std::size_t> order = {n - 1, version, version - 1, version};
  for (std::size_t k = version - 1; k-- > 0;) order.push_back(k);
  const auto e = decode_error<shop::order>(document_of(elements, order));
  EXPECT_EQ(e.code, bsongen::error_code::duplicate_field);
  EXPECT_EQ(e.path, "_v");
  const std::size_t repeated_at =
      4 + elements[n - 1].size() + elements[version].size() + elements[version - 1].size();
  EXPECT_EQ(e.offset, repeated_at);
}

TEST(learned_order, a_repeated_key_met_on_a_guessed_path_takes_the_last_value_whole) {
  // shop::customer keeps the last of repeated keys. Taught the reversed order, a document repeats
  // `shipping` right after `email`, where the chain falls through from email's case into
  // shipping's. The second shipping has only its required street and city: the last value wins
  // whole, so the first one's postal code and country must not survive (as they would if the
  // repeat were decoded as a new, value-initialized member).
  const shop::customer c = sample_customer(4);
  const auto elements = elements_of(encode_ok(c));
  ASSERT_EQ(elements.size(), 5u);  // _id, name, email, shipping, billing
  shop::customer reused;
  for (int i = 0; i < 3; ++i) {
    expect_decodes_to(document_of(elements, reversed_order(5)), c, reused, "reversed");
  }
  shop::address required_only;
  required_only.street = "Only Street 1";
  required_only.city = "Bonn";
  auto second = elements_of(encode_ok(required_only));
  second.resize(2);  // street and city
  bytes shipping_element = {static_cast<std::uint8_t>(bsongen::bson_type::document)};
  for (char ch : std::string_view("shipping")) {
    shipping_element.push_back(static_cast<std::uint8_t>(ch));
  }
  shipping_element.push_back(0);
  const bytes second_document = document_of(second, {0, 1});
  shipping_element.insert(shipping_element.end(), second_document.begin(), second_document.end());
  auto with_repeat = elements;
  with_repeat.push_back(shipping_element);  // index 5

  shop::customer expected = c;
  expected.shipping = required_only;  // postal code empty, country its default "DE"
  ASSERT_NE(c.shipping.postal_code, expected.shipping.postal_code);
  ASSERT_NE(c.shipping.country, expected.shipping.country);
  expect_decodes_to(document_of(with_repeat, {4, 3, 2, 5, 1, 0}), expected, reused,
                    "shipping repeated after email");
}

TEST(learned_order, every_truncation_of_a_reordered_document_fails_cleanly) {
  // With an order learned, the chain's guessed cases read near the end of cut documents.
  const shop::order o = sample_order(5);
  const auto elements = elements_of(encode_ok(o));
  const bytes doc = document_of(elements, reversed_order(elements.size()));
  shop::order reused;
  expect_decodes_to(doc, o, reused, "reversed");
  for (std::size_t cut = 0; cut < doc.size(); ++cut) {
    bytes shorter(doc.begin(), doc.begin() + static_cast<std::ptrdiff_t>(cut));
    if (shorter.size() >= 4) {
      bsongen::detail::store_u32_le(shorter.data(), static_cast<std::uint32_t>(shorter.size()));
    }
    shop::order out;
    EXPECT_FALSE(bsongen::decode(std::span<const std::uint8_t>(shorter), out)) << "cut at " << cut;
  }
}

}  // namespace
