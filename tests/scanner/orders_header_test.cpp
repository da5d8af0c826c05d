// The two front ends agree: schemas/orders.hpp (scanned C++ header) and schemas/orders.yaml
// (schema file) generate code that encodes the same values to byte-identical BSON, and each
// decodes what the other wrote; both refuse a malformed order alike.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <vector>

#include "bsongen/document.hpp"
#include "orders.bsongen.hpp"              // from schemas/orders.yaml: namespace shop
#include "orders_from_header.bsongen.hpp"  // from schemas/orders.hpp: namespace shop_header

namespace {

using bytes = std::vector<std::uint8_t>;

template <class T>
bytes encode_ok(const T& v) {
  auto r = bsongen::encode(v);
  EXPECT_TRUE(r) << r.error().to_string();
  if (!r) return {};
  return {r->data(), r->data() + r->size()};
}

template <class T>
T decode_ok(const bytes& b) {
  auto r = bsongen::decode<T>(b);
  EXPECT_TRUE(r) << r.error().to_string();
  return r ? *r : T{};
}

// Fills either namespace's order with the same values: every field set, optionals engaged.
// Fixed ids: object_id::generate() differs on every call.
template <class Order, class Status, class Payment>
Order sample_order(Status status, Payment payment) {
  Order o;
  o.id = *bsongen::object_id::from_hex("65535f00a1b2c3d4e5f60718");
  o.number = 1'000'042;
  o.status = status;
  o.payment = payment;
  o.customer.id = *bsongen::object_id::from_hex("5f5e1000ffeeddccbbaa9988");
  o.customer.name = "Ann Example";
  o.customer.email = "ann@example.org";
  o.customer.shipping.street =
      "Hauptstra\xc3\x9f"
      "e 1";
  o.customer.shipping.city = "Berlin";
  o.customer.shipping.postal_code = "10115";
  o.customer.billing.emplace();
  o.customer.billing->street = "Postfach 7";
  o.customer.billing->city = "Hamburg";
  o.customer.billing->country = "DE";
  o.items.resize(2);
  o.items[0].sku = "A-1";
  o.items[0].quantity = 3;
  o.items[0].unit_price = *bsongen::decimal128::from_string("19.99");
  o.items[1].sku = "B-2";
  o.items[1].quantity = 1;
  o.items[1].unit_price = *bsongen::decimal128::from_string("5.00");
  o.items[1].discount = *bsongen::decimal128::from_string("0.50");
  o.total = *bsongen::decimal128::from_string("64.47");
  o.created_at = bsongen::datetime(std::chrono::milliseconds(1'700'000'000'123));
  o.shipped_at = bsongen::datetime(std::chrono::milliseconds(1'700'086'400'000));
  o.tags = {{"channel", "web"}, {"campaign", "winter"}};
  o.notes = "leave at the door";
  o.gift = true;
  o.version = {1'700'000'000U, 7U};
  o.attachment = bsongen::binary{{0xDE, 0xAD}, bsongen::binary_subtype::generic};
  o.tracking = std::array<std::uint8_t, 16>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  o.dimensions = {30.0, 20.5, 10.25};
  return o;
}

shop::order yaml_sample() {
  return sample_order<shop::order>(shop::order_status::cancelled, shop::payment_method::voucher);
}
shop_header::order header_sample() {
  return sample_order<shop_header::order>(shop_header::order_status::cancelled,
                                          shop_header::payment_method::voucher);
}

TEST(orders_header, encodes_the_same_bytes_as_the_yaml_schema) {
  const bytes from_yaml = encode_ok(yaml_sample());
  ASSERT_FALSE(from_yaml.empty());
  EXPECT_EQ(encode_ok(header_sample()), from_yaml);
}

TEST(orders_header, default_values_encode_the_same_bytes) {
  // Member initializers in the header mirror the schema's defaults (country "DE", pending, card).
  EXPECT_EQ(encode_ok(shop_header::order{}), encode_ok(shop::order{}));
}

TEST(orders_header, each_side_decodes_what_the_other_wrote) {
  const shop_header::order from_yaml_bytes =
      decode_ok<shop_header::order>(encode_ok(yaml_sample()));
  EXPECT_TRUE(from_yaml_bytes == header_sample());
  const shop::order from_header_bytes = decode_ok<shop::order>(encode_ok(header_sample()));
  EXPECT_TRUE(from_header_bytes == yaml_sample());
}

TEST(orders_header, unknown_keys_survive_a_round_trip_through_the_header_structs) {
  shop::order with_extra = yaml_sample();
  // An element a newer service added: the header side captures it into `extra`.
  bytes encoded = encode_ok(with_extra);
  const bytes unknown_element = {0x10, 'r', 'e', 'v', 0, 2, 0, 0, 0};  // int32 "rev": 2
  encoded.insert(encoded.end() - 1, unknown_element.begin(), unknown_element.end());
  const auto size = static_cast<std::uint32_t>(encoded.size());
  for (int i = 0; i < 4; ++i)
    encoded[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(size >> (8 * i));
  const shop_header::order back = decode_ok<shop_header::order>(encoded);
  EXPECT_FALSE(back.extra.empty());
  EXPECT_EQ(encode_ok(back), encoded);
}

TEST(orders_header, both_sides_refuse_an_unknown_key_in_a_line_item_alike) {
  // line_item rejects unknown fields (BSONGEN_UNKNOWN_FIELDS(reject), `unknown_fields: reject`).
  const bsongen::byte_buffer encoded = bsongen::encode_document(bsongen::document{
      {"_id", *bsongen::object_id::from_hex("65535f00a1b2c3d4e5f60718")},
      {"number", std::int64_t{7}},
      {"items",
       bsongen::array{bsongen::document{{"sku", "A-1"},
                                        {"qty", 1},
                                        {"unitPrice", *bsongen::decimal128::from_string("2.50")},
                                        {"colour", "red"}}}},
      {"createdAt", bsongen::datetime(std::chrono::milliseconds(1'700'000'000'000))},
  });
  const bytes b(encoded.data(), encoded.data() + encoded.size());
  const auto from_header = bsongen::decode<shop_header::order>(b);
  ASSERT_FALSE(from_header);
  EXPECT_EQ(from_header.error().code, bsongen::error_code::unknown_field);
  EXPECT_EQ(from_header.error().path, "items.0.colour");
  const auto from_yaml = bsongen::decode<shop::order>(b);
  ASSERT_FALSE(from_yaml);
  EXPECT_EQ(from_header.error().to_string(), from_yaml.error().to_string());
}

}  // namespace
