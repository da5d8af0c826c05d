// Generated codecs against other BSON implementations: documents pymongo wrote decode to the
// values it was given; our encoding equals libbson's byte for byte.

#include <bson/bson.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <vector>

#include "all_types.bsongen.hpp"
#include "bsongen/codec.hpp"
#include "bsongen/document.hpp"
#include "codec_helpers.hpp"
#include "oid_string.bsongen.hpp"
#include "orders.bsongen.hpp"

namespace {

using bsongen::test::read_documents;

TEST(generated_interop, pymongo_orders_decode) {
  const auto docs = read_documents(BSONGEN_PYMONGO_DOCUMENTS);
  ASSERT_EQ(docs.size(), 4U) << "pymongo documents missing: " << BSONGEN_PYMONGO_DOCUMENTS;
  for (std::size_t n = 0; n < docs.size(); ++n) {
    SCOPED_TRACE(n);
    auto r = bsongen::decode<shop::order>(docs[n]);
    ASSERT_TRUE(r) << r.error().to_string();
    const shop::order& o = *r;
    EXPECT_EQ(o.id.to_hex(), "5f1d7c3e9a8b7c6d5e4f3a2b");
    EXPECT_EQ(o.number, 1000 + static_cast<std::int64_t>(n));
    EXPECT_EQ(o.status, n % 2 ? shop::order_status::shipped : shop::order_status::cancelled);
    EXPECT_EQ(o.payment, shop::payment_method::voucher);
    EXPECT_EQ(o.customer.name, "Zo\xc3\xab M\xc3\xbcller");
    EXPECT_EQ(o.customer.shipping.city, "K\xc3\xb6ln");
    EXPECT_EQ(o.customer.shipping.postal_code, "50667");
    EXPECT_FALSE(o.customer.billing.has_value());
    ASSERT_EQ(o.items.size(), n);
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_EQ(o.items[i].sku, "sku-" + std::to_string(i));
      EXPECT_EQ(o.items[i].quantity, static_cast<std::int32_t>(i + 1));
      EXPECT_EQ(o.items[i].unit_price.to_string(), std::to_string(i) + ".99");
    }
    EXPECT_EQ(o.total.to_string(), "123.45");
    EXPECT_EQ(o.created_at.time_since_epoch().count(), 1715949015123);
    EXPECT_FALSE(o.shipped_at.has_value());
    EXPECT_EQ(o.tags.at("prio"), "high");
    EXPECT_EQ(o.version.seconds, 1700000000U);
    EXPECT_EQ(o.version.increment, 5U);
    ASSERT_TRUE(o.tracking.has_value());
    EXPECT_EQ((*o.tracking)[0], 0x12);
    EXPECT_EQ((*o.tracking)[15], 0x78);
    EXPECT_EQ(o.dimensions[1], 20.0);
    EXPECT_EQ(o.extra.empty(), n % 2 == 0);
  }
}

// The captured unknown field survives a round trip through the struct.
TEST(generated_interop, pymongo_unknown_field_is_written_back) {
  const auto docs = read_documents(BSONGEN_PYMONGO_DOCUMENTS);
  ASSERT_EQ(docs.size(), 4U);
  auto r = bsongen::decode<shop::order>(docs[1]);
  ASSERT_TRUE(r) << r.error().to_string();
  auto bytes = bsongen::encode(*r);
  ASSERT_TRUE(bytes);
  bson_t b;
  ASSERT_TRUE(bson_init_static(&b, bytes->data(), bytes->size()));
  bson_iter_t it;
  ASSERT_TRUE(bson_iter_init_find(&it, &b, "legacyField"));
  EXPECT_EQ(bson_iter_type(&it), BSON_TYPE_DOCUMENT);
}

TEST(generated_interop, encode_matches_libbson) {
  seed::oid_string v;
  v.oid = bsongen::object_id::generate(1700000000);
  v.string = "hello, world";
  auto ours = bsongen::encode(v);
  ASSERT_TRUE(ours);

  bson_t* theirs = bson_new();
  bson_oid_t oid;
  bson_oid_init_from_data(&oid, v.oid.data());
  BSON_APPEND_OID(theirs, "oid", &oid);
  BSON_APPEND_UTF8(theirs, "string", v.string.c_str());
  ASSERT_EQ(ours->size(), theirs->len);
  EXPECT_EQ(0, std::memcmp(ours->data(), bson_get_data(theirs), theirs->len));
  bson_destroy(theirs);
}

TEST(generated_interop, order_encode_matches_libbson) {
  shop::order o;
  o.id = bsongen::object_id::generate(1);
  o.number = 42;
  o.status = shop::order_status::paid;
  o.customer.id = bsongen::object_id::generate(2);
  o.customer.name = "Ada";
  o.customer.shipping = {"Main St 1", "Springfield", "12345", "US"};
  o.items.push_back({"a", 2, bsongen::decimal128::from_int64(3), std::nullopt});
  o.total = bsongen::decimal128::from_int64(6);
  o.created_at = bsongen::datetime(std::chrono::milliseconds(1000));
  o.tags["k"] = "v";
  o.version = {7, 9};
  o.dimensions = {1.0, 2.0, 3.0};
  auto ours = bsongen::encode(o);
  ASSERT_TRUE(ours);

  auto dec = [](const bsongen::decimal128& d) {
    bson_decimal128_t out;
    out.high = d.high_bits();
    out.low = d.low_bits();
    return out;
  };
  bson_t* b = bson_new();
  bson_oid_t oid;
  bson_oid_init_from_data(&oid, o.id.data());
  BSON_APPEND_OID(b, "_id", &oid);
  BSON_APPEND_INT64(b, "number", 42);
  BSON_APPEND_UTF8(b, "status", "paid");
  BSON_APPEND_INT32(b, "payment", 1);
  bson_t customer, shipping, items, item, tags, dims;
  BSON_APPEND_DOCUMENT_BEGIN(b, "customer", &customer);
  bson_oid_init_from_data(&oid, o.customer.id.data());
  BSON_APPEND_OID(&customer, "_id", &oid);
  BSON_APPEND_UTF8(&customer, "name", "Ada");
  BSON_APPEND_DOCUMENT_BEGIN(&customer, "shipping", &shipping);
  BSON_APPEND_UTF8(&shipping, "street", "Main St 1");
  BSON_APPEND_UTF8(&shipping, "city", "Springfield");
  BSON_APPEND_UTF8(&shipping, "postalCode", "12345");
  BSON_APPEND_UTF8(&shipping, "country", "US");
  bson_append_document_end(&customer, &shipping);
  bson_append_document_end(b, &customer);
  BSON_APPEND_ARRAY_BEGIN(b, "items", &items);
  BSON_APPEND_DOCUMENT_BEGIN(&items, "0", &item);
  BSON_APPEND_UTF8(&item, "sku", "a");
  BSON_APPEND_INT32(&item, "qty", 2);
  bson_decimal128_t d3 = dec(bsongen::decimal128::from_int64(3));
  BSON_APPEND_DECIMAL128(&item, "unitPrice", &d3);
  bson_append_document_end(&items, &item);
  bson_append_array_end(b, &items);
  bson_decimal128_t d6 = dec(o.total);
  BSON_APPEND_DECIMAL128(b, "total", &d6);
  BSON_APPEND_DATE_TIME(b, "createdAt", 1000);
  BSON_APPEND_DOCUMENT_BEGIN(b, "tags", &tags);
  BSON_APPEND_UTF8(&tags, "k", "v");
  bson_append_document_end(b, &tags);
  BSON_APPEND_BOOL(b, "gift", false);
  BSON_APPEND_TIMESTAMP(b, "_v", 7, 9);
  BSON_APPEND_ARRAY_BEGIN(b, "dimensions", &dims);
  BSON_APPEND_DOUBLE(&dims, "0", 1.0);
  BSON_APPEND_DOUBLE(&dims, "1", 2.0);
  BSON_APPEND_DOUBLE(&dims, "2", 3.0);
  bson_append_array_end(b, &dims);

  ASSERT_EQ(ours->size(), b->len);
  EXPECT_EQ(0, std::memcmp(ours->data(), bson_get_data(b), b->len));
  bson_destroy(b);
}

// The generic path (bsongen::document) reads what generated code writes, and writes it back to
// the same bytes: both encoders agree on every type the generator supports.
template <class T>
void expect_generic_agrees(const T& value) {
  auto ours = bsongen::encode(value);
  ASSERT_TRUE(ours) << ours.error().to_string();
  auto generic = bsongen::decode_document(ours->span());
  ASSERT_TRUE(generic) << generic.error().to_string();
  const bsongen::byte_buffer again = bsongen::encode_document(*generic);
  EXPECT_TRUE(again == *ours);
}

TEST(generated_interop, generic_path_encodes_the_same_bytes) {
  gen_test::scalars s;
  s.d = 1.25;
  s.s = "text";
  s.bin = {{9, 8}, bsongen::binary_subtype::generic};
  s.re = {"a+", "i"};
  s.cws.code = "f()";
  s.ts = {5, 6};
  expect_generic_agrees(s);

  gen_test::containers c;
  c.ints = {1, 2};
  c.points.resize(2);
  c.by_name["k"] = 3;
  c.nested = {{1}, {}};
  expect_generic_agrees(c);

  shop::order o;
  o.items.resize(2);
  o.tags["a"] = "b";
  o.tracking = std::array<std::uint8_t, 16>{};
  expect_generic_agrees(o);
}

}  // namespace
