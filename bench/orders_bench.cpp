// The application model (schemas/orders.yaml, struct shop::order): cases `order_1`, one realistic
// order, `orders_1000`, a stream of 1000 distinct orders (1000 concatenated documents, as
// mongodump writes them), and `orders_reversed_1000`, the same stream with the elements of every
// document and subdocument in reverse order (arrays keep theirs), as a client that writes fields
// in another order than the schema's sends them: generated decoders then take the out-of-order
// path (key lookup, table dispatch) for nearly every element. It has the decode rows but
// generated_arena's, and memcpy: encoders write schema order, and the arena row checks its structs
// by encoding them.
//
// Rows, each for every case (but see orders_reversed_1000 above):
//  * generated/encode: the structs, built before timing, into one reused bsongen::writer (clear()
//    keeps the capacity); for orders_1000 all 1000 back to back.
//  * generated/decode: bsongen::decode<shop::order> of every document into a new struct, destroyed
//    before the next (what the generic row does with its documents): every string, vector and map
//    node is allocated again.
//  * generated_reuse/decode: bsongen::decode into reused structs (one per document), so strings,
//    vectors and maps keep their capacity as a careful user's would.
//  * generated_arena/decode: every document into a new shop_arena::order (the same schema with
//    `allocator: pmr`, derived by bench/CMakeLists.txt), built on a
//    std::pmr::monotonic_buffer_resource over one buffer reused from document to document, as the
//    generic row's documents take theirs from an arena: strings, vectors and map nodes cost a
//    bump of a pointer, and freeing them nothing (the binary member and captured unknown elements
//    too: bsongen::pmr::binary, bsongen::pmr::raw_document; these documents have no unknown ones).
//  * generic/encode: documents decoded before timing, encode_document into one reused writer.
//  * generic/decode: decode_document of every document into a new bsongen::document.
//  * libbson/encode: the same structs through libbson by hand (one bson_t, bson_reinit per
//    document, keys with their lengths, array keys from bson_uint32_to_string).
//  * libbson/decode: bson_iter over every element of every document (nested ones through
//    bson_iter_recurse), each key compared and type checked, every value stored into a reused
//    shop::order, as the array cases' libbson rows do. libbson's iterator checks lengths and
//    terminators but not UTF-8, which bsongen's decoders also check.
//  * struct_copy/copy: every order copied from the case's structs into a new one and destroyed
//    before the next, reading no byte: what building a new order's strings, vectors and map nodes
//    costs by itself, the floor under generated/decode (which is about this plus
//    generated_reuse/decode). Not for orders_reversed_1000: it has the same structs as orders_1000.
//  * memcpy/copy: the ceiling.
// The stream is read from memory rather than through document_stream_reader so the rows measure
// decoding, not std::istream.
//
// The bytes are built once by the generated encoder and cross-checked before any row runs: each
// document must decode back to the struct it came from, and decode_document + encode_document
// must reproduce it exactly. Every row checks its own output again before timing.
//
// Only order_1 is registered with the case registry: bench/compare's peers (bench/js/bench_case.js,
// bench/py/bench_case.py) decode a case's bytes as one document, so a multi-document stream such
// as orders_1000 would not fit them.

#include <benchmark/benchmark.h>
#include <bson/bson.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory_resource>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bsongen/byte_buffer.hpp"
#include "bsongen/codec.hpp"
#include "bsongen/detail/endian.hpp"
#include "bsongen/detail/wire.hpp"  // skip_value
#include "bsongen/document.hpp"
#include "bsongen/writer.hpp"
#include "case_registry.hpp"
#include "orders.bsongen.hpp"
#include "orders_arena.bsongen.hpp"
#include "projection_bench.hpp"
#include "seed_cases.hpp"

namespace bsongen::bench {
namespace {

constexpr std::size_t stream_length = 1000;

std::string formatted(const char* format, unsigned n) {
  char text[64];
  std::snprintf(text, sizeof text, format, n);
  return text;
}

object_id make_object_id(std::uint32_t tag, std::uint32_t counter) {
  std::uint8_t bytes[object_id::size] = {};
  detail::store_u32_be(bytes, 0x65A0B000U + tag);
  const std::uint8_t process_part[5] = {0x5D, 0x02, 0xC4, 0x91, 0x3B};
  std::memcpy(bytes + 4, process_part, sizeof process_part);
  bytes[9] = static_cast<std::uint8_t>(counter >> 16);
  bytes[10] = static_cast<std::uint8_t>(counter >> 8);
  bytes[11] = static_cast<std::uint8_t>(counter);
  return object_id::from_bytes(bytes);
}

// Money in cents: coefficient `cents`, exponent -2 (canonical: far below 2^113).
decimal128 money(std::uint64_t cents) {
  constexpr std::uint64_t biased_exponent = 6176 - 2;
  return decimal128(biased_exponent << 49, cents);
}

// Order i of the stream: deterministic, distinct, with every optional field set so decoding walks
// the whole model (nested customer and addresses, 2..5 line items, tags map, binary, UUID).
shop::order make_order(std::uint32_t i) {
  static constexpr std::array<shop::order_status, 5> statuses = {
      shop::order_status::pending, shop::order_status::paid, shop::order_status::shipped,
      shop::order_status::delivered, shop::order_status::cancelled};
  static constexpr std::array<shop::payment_method, 3> payments = {
      shop::payment_method::card, shop::payment_method::bank_transfer,
      shop::payment_method::voucher};
  static constexpr std::array<const char*, 4> cities = {"Berlin", "Hamburg", "Munich", "Cologne"};

  shop::order o;
  o.id = make_object_id(0, i);
  o.number = 1'000'000 + i;
  o.status = statuses[i % statuses.size()];
  o.payment = payments[i % payments.size()];

  o.customer.id = make_object_id(1, i % 97);
  o.customer.name = formatted("Customer %04u", i % 97);
  o.customer.email = formatted("customer%04u@example.com", i % 97);
  o.customer.shipping.street = formatted("Hauptstrasse %u", 1 + i % 120);
  o.customer.shipping.city = cities[i % cities.size()];
  o.customer.shipping.postal_code = formatted("%05u", 10115 + i % 800);
  o.customer.shipping.country = "DE";
  shop::address billing;
  billing.street = formatted("Rechnungsweg %u", 2 + i % 40);
  billing.city = cities[(i + 1) % cities.size()];
  billing.postal_code = formatted("%05u", 20095 + i % 300);
  billing.country = "AT";
  o.customer.billing = billing;

  std::uint64_t total_cents = 0;
  const std::uint32_t item_count = 2 + i % 4;
  for (std::uint32_t k = 0; k < item_count; ++k) {
    shop::line_item item;
    item.sku = formatted("SKU-%06u", (i * 7 + k * 13) % 1'000'000);
    item.quantity = static_cast<std::int32_t>(1 + (i + k) % 5);
    const std::uint64_t unit_cents = 499 + 100 * ((i + 3 * k) % 50);
    item.unit_price = money(unit_cents);
    std::uint64_t discount_cents = 0;
    if ((i + k) % 2 == 0) {
      discount_cents = 50 + k * 10;
      item.discount = money(discount_cents);
    }
    total_cents += static_cast<std::uint64_t>(item.quantity) * unit_cents - discount_cents;
    o.items.push_back(std::move(item));
  }
  o.total = money(total_cents);

  const std::int64_t created_ms = 1'700'000'000'000LL + 3'600'000LL * i;
  o.created_at = datetime(std::chrono::milliseconds(created_ms));
  o.shipped_at = datetime(std::chrono::milliseconds(created_ms + 86'400'000LL));
  o.tags = {{"channel", i % 2 == 0 ? "web" : "app"},
            {"region", "eu-central"},
            {"campaign", formatted("spring-%02u", i % 12)}};
  o.notes = "Leave the parcel with the neighbour if nobody answers.";
  o.gift = i % 5 == 0;
  o.version = timestamp{1'700'000'000U + i, i + 1};
  binary attachment;
  attachment.bytes = {0x25, 0x50, 0x44, 0x46, static_cast<std::uint8_t>(i), 0x0A};
  o.attachment = attachment;
  std::array<std::uint8_t, 16> tracking{};
  for (std::size_t b = 0; b < tracking.size(); ++b) {
    tracking[b] = static_cast<std::uint8_t>(i * 31 + b);
  }
  tracking[6] = static_cast<std::uint8_t>((tracking[6] & 0x0F) | 0x40);  // version 4
  tracking[8] = static_cast<std::uint8_t>((tracking[8] & 0x3F) | 0x80);  // RFC 4122 variant
  o.tracking = tracking;
  o.dimensions = {30.5, 20.0 + static_cast<double>(i % 7), 10.25};
  return o;
}

struct orders_case {
  std::string name;
  std::vector<shop::order> orders;                       // what decoders must produce, in order
  byte_buffer bytes;                                     // the documents, concatenated
  std::vector<std::span<const std::uint8_t>> documents;  // each document's bytes within `bytes`
};

// Splits a stream by the documents' length prefixes; aborts on framing the case cannot have.
std::vector<std::span<const std::uint8_t>> split_stream(const std::string& name,
                                                        std::span<const std::uint8_t> bytes) {
  std::vector<std::span<const std::uint8_t>> out;
  std::size_t at = 0;
  while (at < bytes.size()) {
    if (bytes.size() - at < 5) fail(name, "stream ends inside a document's length prefix");
    const std::size_t length = detail::load_u32_le(bytes.data() + at);
    if (length < 5 || length > bytes.size() - at) fail(name, "document length out of range");
    out.push_back(bytes.subspan(at, length));
    at += length;
  }
  return out;
}

orders_case build_case(std::string name, std::uint32_t count) {
  orders_case c;
  c.name = std::move(name);
  writer w;
  for (std::uint32_t i = 0; i < count; ++i) {
    c.orders.push_back(make_order(i));
    if (auto r = encode(c.orders.back(), w); !r) fail(c.name, r.error().to_string());
  }
  c.bytes = w.take();
  c.documents = split_stream(c.name, c.bytes.span());
  if (c.documents.size() != count) fail(c.name, "stream holds a different number of documents");
  for (std::size_t k = 0; k < count; ++k) {
    shop::order back;
    if (auto r = decode(c.documents[k], back); !r) fail(c.name, r.error().to_string());
    if (!(back == c.orders[k])) fail(c.name, "generated decode differs from the encoded order");
    auto generic = decode_document(c.documents[k]);
    if (!generic) fail(c.name, generic.error().to_string());
    check_bytes(c.name + " (generic re-encode)", encode_document(*generic).span(), c.documents[k]);
  }
  return c;
}

// `doc` (a whole document, validated) with its elements, and those of every document inside it,
// in reverse order; arrays keep their order (their keys are indices), their documents are
// reversed too. Appended to `out`.
void append_reversed(std::span<const std::uint8_t> doc, bool is_array,
                     std::vector<std::uint8_t>& out) {
  std::vector<std::span<const std::uint8_t>> elements;  // each from its type byte to its end
  const std::uint8_t* p = doc.data() + 4;
  const std::uint8_t* const end = doc.data() + doc.size() - 1;
  while (p < end) {
    const std::uint8_t* const element = p;
    const std::uint8_t* const value = p + 1 + std::strlen(reinterpret_cast<const char*>(p + 1)) + 1;
    detail::decode_state st;
    p = detail::skip_value(st, *element, value, end);
    if (p == nullptr) fail("orders_reversed", "a document the reversal cannot walk");
    elements.emplace_back(element, p);
  }
  if (!is_array) std::reverse(elements.begin(), elements.end());
  const std::size_t start = out.size();
  out.resize(start + 4);
  for (const auto& e : elements) {
    const std::uint8_t type = e[0];
    if (type != static_cast<std::uint8_t>(bson_type::document) &&
        type != static_cast<std::uint8_t>(bson_type::array)) {
      out.insert(out.end(), e.begin(), e.end());
      continue;
    }
    const std::size_t header = 1 + std::strlen(reinterpret_cast<const char*>(e.data() + 1)) + 1;
    out.insert(out.end(), e.begin(), e.begin() + static_cast<std::ptrdiff_t>(header));
    append_reversed(e.subspan(header), type == static_cast<std::uint8_t>(bson_type::array), out);
  }
  out.push_back(0);
  detail::store_u32_le(out.data() + start, static_cast<std::uint32_t>(out.size() - start));
}

// `in` with every document reversed (append_reversed): the same orders from other bytes.
orders_case build_reversed_case(std::string name, const orders_case& in) {
  orders_case c;
  c.name = std::move(name);
  c.orders = in.orders;
  std::vector<std::uint8_t> all;
  for (const auto& doc : in.documents) append_reversed(doc, false, all);
  c.bytes = byte_buffer(all);
  c.documents = split_stream(c.name, c.bytes.span());
  for (std::size_t k = 0; k < c.documents.size(); ++k) {
    shop::order back;
    if (auto r = decode(c.documents[k], back); !r) fail(c.name, r.error().to_string());
    if (!(back == c.orders[k])) fail(c.name, "generated decode differs from the encoded order");
    if (std::equal(c.documents[k].begin(), c.documents[k].end(), in.documents[k].begin(),
                   in.documents[k].end())) {
      fail(c.name, "a reversed document has the bytes of the original");
    }
  }
  return c;
}

void check_orders(const std::string& row, const std::vector<shop::order>& got,
                  const orders_case& expected) {
  if (got.size() != expected.orders.size()) fail(row, "decoded a different number of orders");
  for (std::size_t k = 0; k < got.size(); ++k) {
    if (!(got[k] == expected.orders[k])) fail(row, "order " + std::to_string(k) + " differs");
  }
}

// --- libbson by hand. ---

std::string_view status_name(shop::order_status s) {
  switch (s) {
    case shop::order_status::pending:
      return "pending";
    case shop::order_status::paid:
      return "paid";
    case shop::order_status::shipped:
      return "shipped";
    case shop::order_status::delivered:
      return "delivered";
    case shop::order_status::cancelled:
      return "canceled";
  }
  return {};
}

bool status_from(std::string_view name, shop::order_status& out) {
  for (auto s : {shop::order_status::pending, shop::order_status::paid, shop::order_status::shipped,
                 shop::order_status::delivered, shop::order_status::cancelled}) {
    if (status_name(s) == name) {
      out = s;
      return true;
    }
  }
  return false;
}

bool put(bson_t* b, std::string_view key, std::string_view text) {
  return bson_append_utf8(b, key.data(), static_cast<int>(key.size()), text.data(),
                          static_cast<int>(text.size()));
}
bool put(bson_t* b, std::string_view key, const object_id& id) {
  bson_oid_t oid;
  std::memcpy(oid.bytes, id.data(), object_id::size);
  return bson_append_oid(b, key.data(), static_cast<int>(key.size()), &oid);
}
bool put(bson_t* b, std::string_view key, const decimal128& d) {
  bson_decimal128_t dec;
  dec.high = d.high_bits();
  dec.low = d.low_bits();
  return bson_append_decimal128(b, key.data(), static_cast<int>(key.size()), &dec);
}
bool put(bson_t* b, std::string_view key, datetime t) {
  return bson_append_date_time(b, key.data(), static_cast<int>(key.size()),
                               t.time_since_epoch().count());
}

bool put_address(bson_t* b, std::string_view key, const shop::address& a) {
  bson_t child;
  return bson_append_document_begin(b, key.data(), static_cast<int>(key.size()), &child) &&
         put(&child, "street", a.street) && put(&child, "city", a.city) &&
         put(&child, "postalCode", a.postal_code) && put(&child, "country", a.country) &&
         bson_append_document_end(b, &child);
}

// Precondition: `b` was initialized (bson_init) and is owned by the caller.
bool libbson_encode(bson_t* b, const shop::order& o) {
  bson_reinit(b);
  bool ok = put(b, "_id", o.id) && bson_append_int64(b, "number", 6, o.number) &&
            put(b, "status", status_name(o.status)) &&
            bson_append_int32(b, "payment", 7, static_cast<std::int32_t>(o.payment));
  bson_t customer;
  ok = ok && bson_append_document_begin(b, "customer", 8, &customer) &&
       put(&customer, "_id", o.customer.id) && put(&customer, "name", o.customer.name) &&
       (!o.customer.email || put(&customer, "email", *o.customer.email)) &&
       put_address(&customer, "shipping", o.customer.shipping) &&
       (!o.customer.billing || put_address(&customer, "billing", *o.customer.billing)) &&
       bson_append_document_end(b, &customer);
  if (ok && !o.items.empty()) {
    bson_t items;
    ok = bson_append_array_begin(b, "items", 5, &items);
    char key_buffer[16];
    for (std::size_t i = 0; ok && i < o.items.size(); ++i) {
      const char* key = nullptr;
      const std::size_t key_length =
          bson_uint32_to_string(static_cast<std::uint32_t>(i), &key, key_buffer, sizeof key_buffer);
      const shop::line_item& item = o.items[i];
      bson_t child;
      ok = bson_append_document_begin(&items, key, static_cast<int>(key_length), &child) &&
           put(&child, "sku", item.sku) && bson_append_int32(&child, "qty", 3, item.quantity) &&
           put(&child, "unitPrice", item.unit_price) &&
           (!item.discount || put(&child, "discount", *item.discount)) &&
           bson_append_document_end(&items, &child);
    }
    ok = ok && bson_append_array_end(b, &items);
  }
  ok = ok && put(b, "total", o.total) && put(b, "createdAt", o.created_at) &&
       (!o.shipped_at || put(b, "shippedAt", *o.shipped_at));
  if (ok && !o.tags.empty()) {
    bson_t tags;
    ok = bson_append_document_begin(b, "tags", 4, &tags);
    for (const auto& [key, text] : o.tags) ok = ok && put(&tags, key, text);
    ok = ok && bson_append_document_end(b, &tags);
  }
  ok = ok && (o.notes.empty() || put(b, "notes", o.notes)) &&
       bson_append_bool(b, "gift", 4, o.gift) &&
       bson_append_timestamp(b, "_v", 2, o.version.seconds, o.version.increment);
  if (ok && o.attachment) {
    ok = bson_append_binary(b, "attachment", 10, static_cast<bson_subtype_t>(o.attachment->subtype),
                            o.attachment->bytes.data(),
                            static_cast<std::uint32_t>(o.attachment->bytes.size()));
  }
  if (ok && o.tracking) {
    ok = bson_append_binary(b, "tracking", 8, BSON_SUBTYPE_UUID, o.tracking->data(), 16);
  }
  bson_t dimensions;
  ok = ok && bson_append_array_begin(b, "dimensions", 10, &dimensions) &&
       bson_append_double(&dimensions, "0", 1, o.dimensions[0]) &&
       bson_append_double(&dimensions, "1", 1, o.dimensions[1]) &&
       bson_append_double(&dimensions, "2", 1, o.dimensions[2]) &&
       bson_append_array_end(b, &dimensions);
  return ok;
}

std::string_view key_of(const bson_iter_t* it) {
  return {bson_iter_key(it), bson_iter_key_len(it)};
}

bool get(const bson_iter_t* it, std::string& out) {
  if (!BSON_ITER_HOLDS_UTF8(it)) return false;
  std::uint32_t length = 0;
  const char* text = bson_iter_utf8(it, &length);
  out.assign(text, length);
  return true;
}
bool get(const bson_iter_t* it, object_id& out) {
  if (!BSON_ITER_HOLDS_OID(it)) return false;
  out = object_id::from_bytes(bson_iter_oid(it)->bytes);
  return true;
}
bool get(const bson_iter_t* it, decimal128& out) {
  bson_decimal128_t dec;
  if (!BSON_ITER_HOLDS_DECIMAL128(it) || !bson_iter_decimal128(it, &dec)) return false;
  out = decimal128(dec.high, dec.low);
  return true;
}
bool get(const bson_iter_t* it, datetime& out) {
  if (!BSON_ITER_HOLDS_DATE_TIME(it)) return false;
  out = datetime(std::chrono::milliseconds(bson_iter_date_time(it)));
  return true;
}

bool get_address(const bson_iter_t* it, shop::address& a) {
  bson_iter_t child;
  if (!BSON_ITER_HOLDS_DOCUMENT(it) || !bson_iter_recurse(it, &child)) return false;
  while (bson_iter_next(&child)) {
    const std::string_view k = key_of(&child);
    bool ok = false;
    if (k == "street")
      ok = get(&child, a.street);
    else if (k == "city")
      ok = get(&child, a.city);
    else if (k == "postalCode")
      ok = get(&child, a.postal_code);
    else if (k == "country")
      ok = get(&child, a.country);
    if (!ok) return false;
  }
  return true;
}

bool get_customer(const bson_iter_t* it, shop::customer& c) {
  bson_iter_t child;
  if (!BSON_ITER_HOLDS_DOCUMENT(it) || !bson_iter_recurse(it, &child)) return false;
  c.email.reset();
  c.billing.reset();
  while (bson_iter_next(&child)) {
    const std::string_view k = key_of(&child);
    bool ok = false;
    if (k == "_id")
      ok = get(&child, c.id);
    else if (k == "name")
      ok = get(&child, c.name);
    else if (k == "email")
      ok = get(&child, c.email.emplace());
    else if (k == "shipping")
      ok = get_address(&child, c.shipping);
    else if (k == "billing")
      ok = get_address(&child, c.billing.emplace());
    if (!ok) return false;
  }
  return true;
}

bool get_item(const bson_iter_t* it, shop::line_item& item) {
  bson_iter_t child;
  if (!BSON_ITER_HOLDS_DOCUMENT(it) || !bson_iter_recurse(it, &child)) return false;
  item.discount.reset();
  while (bson_iter_next(&child)) {
    const std::string_view k = key_of(&child);
    bool ok = false;
    if (k == "sku") {
      ok = get(&child, item.sku);
    } else if (k == "qty") {
      ok = BSON_ITER_HOLDS_INT32(&child);
      item.quantity = bson_iter_int32(&child);
    } else if (k == "unitPrice") {
      ok = get(&child, item.unit_price);
    } else if (k == "discount") {
      ok = get(&child, item.discount.emplace());
    }
    if (!ok) return false;
  }
  return true;
}

// Every element of the document into `o` (reused: strings and vectors keep their capacity).
bool libbson_decode(std::span<const std::uint8_t> bytes, shop::order& o) {
  bson_t doc;
  bson_iter_t it;
  if (!bson_init_static(&doc, bytes.data(), bytes.size()) || !bson_iter_init(&it, &doc)) {
    return false;
  }
  o.shipped_at.reset();
  o.attachment.reset();
  o.tracking.reset();
  o.tags.clear();
  o.notes.clear();
  std::size_t items = 0;
  while (bson_iter_next(&it)) {
    const std::string_view k = key_of(&it);
    bool ok = false;
    if (k == "_id") {
      ok = get(&it, o.id);
    } else if (k == "number") {
      ok = BSON_ITER_HOLDS_INT64(&it);
      o.number = bson_iter_int64(&it);
    } else if (k == "status") {
      std::uint32_t length = 0;
      const char* text = bson_iter_utf8(&it, &length);
      ok = BSON_ITER_HOLDS_UTF8(&it) && status_from({text, length}, o.status);
    } else if (k == "payment") {
      ok = BSON_ITER_HOLDS_INT32(&it);
      o.payment = static_cast<shop::payment_method>(bson_iter_int32(&it));
    } else if (k == "customer") {
      ok = get_customer(&it, o.customer);
    } else if (k == "items") {
      bson_iter_t child;
      ok = BSON_ITER_HOLDS_ARRAY(&it) && bson_iter_recurse(&it, &child);
      while (ok && bson_iter_next(&child)) {
        if (items == o.items.size()) o.items.emplace_back();
        ok = get_item(&child, o.items[items++]);
      }
    } else if (k == "total") {
      ok = get(&it, o.total);
    } else if (k == "createdAt") {
      ok = get(&it, o.created_at);
    } else if (k == "shippedAt") {
      ok = get(&it, o.shipped_at.emplace());
    } else if (k == "tags") {
      bson_iter_t child;
      ok = BSON_ITER_HOLDS_DOCUMENT(&it) && bson_iter_recurse(&it, &child);
      while (ok && bson_iter_next(&child)) ok = get(&child, o.tags[std::string(key_of(&child))]);
    } else if (k == "notes") {
      ok = get(&it, o.notes);
    } else if (k == "gift") {
      ok = BSON_ITER_HOLDS_BOOL(&it);
      o.gift = bson_iter_bool(&it);
    } else if (k == "_v") {
      ok = BSON_ITER_HOLDS_TIMESTAMP(&it);
      bson_iter_timestamp(&it, &o.version.seconds, &o.version.increment);
    } else if (k == "attachment" || k == "tracking") {
      bson_subtype_t subtype;
      std::uint32_t length = 0;
      const std::uint8_t* data = nullptr;
      ok = BSON_ITER_HOLDS_BINARY(&it);
      bson_iter_binary(&it, &subtype, &length, &data);
      if (k == "attachment") {
        auto& a = o.attachment.emplace();
        a.subtype = static_cast<binary_subtype>(subtype);
        a.bytes.assign(data, data + length);
      } else {
        ok = ok && subtype == BSON_SUBTYPE_UUID && length == 16;
        if (ok) std::memcpy(o.tracking.emplace().data(), data, 16);
      }
    } else if (k == "dimensions") {
      bson_iter_t child;
      ok = BSON_ITER_HOLDS_ARRAY(&it) && bson_iter_recurse(&it, &child);
      for (std::size_t i = 0; ok && i < o.dimensions.size(); ++i) {
        ok = bson_iter_next(&child) && BSON_ITER_HOLDS_DOUBLE(&child);
        o.dimensions[i] = bson_iter_double(&child);
      }
      ok = ok && !bson_iter_next(&child);
    }
    if (!ok) return false;
  }
  o.items.resize(items);
  return true;
}

void set_stream_throughput(benchmark::State& state, const orders_case& c) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(c.bytes.size()));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(c.documents.size()));
}

// Precondition: `c` lives until the process exits (the cases are function-local statics).
// `schema_order`: c's bytes are in schema order, as the encoders write them. The encode rows, and
// the arena row (it checks its structs by encoding them), need that.
void register_rows(const orders_case& c, bool schema_order) {
  if (schema_order)
    register_row(c.name, "generated", "encode", [&c](benchmark::State& state) {
      const std::string row = row_name(c.name, "generated", "encode");
      writer w;
      for (const auto& o : c.orders) {
        if (auto r = encode(o, w); !r) fail(row, r.error().to_string());
      }
      check_bytes(row, w.bytes(), c.bytes.span());
      for (auto _ : state) {
        w.clear();
        for (const auto& o : c.orders) {
          auto r = encode(o, w);
          benchmark::DoNotOptimize(r);
        }
        benchmark::DoNotOptimize(w.data());
        benchmark::ClobberMemory();
      }
      set_stream_throughput(state, c);
    });
  register_row(c.name, "generated", "decode", [&c](benchmark::State& state) {
    const std::string row = row_name(c.name, "generated", "decode");
    std::vector<shop::order> out;
    for (const auto& bytes : c.documents) {
      auto r = decode<shop::order>(bytes);
      if (!r) fail(row, r.error().to_string());
      out.push_back(std::move(*r));
    }
    check_orders(row, out, c);
    for (auto _ : state) {
      for (const auto& bytes : c.documents) {
        auto r = decode<shop::order>(bytes);
        benchmark::DoNotOptimize(r);
      }
      benchmark::ClobberMemory();
    }
    set_stream_throughput(state, c);
  });
  register_row(c.name, "generated_reuse", "decode", [&c](benchmark::State& state) {
    const std::string row = row_name(c.name, "generated_reuse", "decode");
    std::vector<shop::order> out(c.documents.size());
    auto decode_all = [&c, &out]() -> bool {
      bool ok = true;
      for (std::size_t k = 0; k < c.documents.size(); ++k) {
        ok &= static_cast<bool>(decode(c.documents[k], out[k]));
      }
      return ok;
    };
    if (!decode_all()) fail(row, "a document failed to decode");
    check_orders(row, out, c);
    for (auto _ : state) {
      bool ok = decode_all();
      benchmark::DoNotOptimize(ok);
      benchmark::DoNotOptimize(out.data());
      benchmark::ClobberMemory();
    }
    set_stream_throughput(state, c);
  });
  if (schema_order)
    register_row(c.name, "generated_arena", "decode", [&c](benchmark::State& state) {
      const std::string row = row_name(c.name, "generated_arena", "decode");
      // Room for any one order's strings, vectors and map nodes (an order_1 takes about 1 KiB):
      // the arena never reaches for its upstream, the heap.
      std::vector<std::byte> buffer(64 * 1024);
      writer w;
      for (const auto& bytes : c.documents) {
        std::pmr::monotonic_buffer_resource arena(buffer.data(), buffer.size(),
                                                  std::pmr::null_memory_resource());
        auto r = decode<shop_arena::order>(bytes, {.memory = &arena});
        if (!r) fail(row, r.error().to_string());
        if (auto e = encode(*r, w); !e) fail(row, e.error().to_string());
      }
      check_bytes(row, w.bytes(), c.bytes.span());
      for (auto _ : state) {
        for (const auto& bytes : c.documents) {
          std::pmr::monotonic_buffer_resource arena(buffer.data(), buffer.size());
          auto r = decode<shop_arena::order>(bytes, {.memory = &arena});
          benchmark::DoNotOptimize(r);
        }
        benchmark::ClobberMemory();
      }
      set_stream_throughput(state, c);
    });
  if (schema_order)
    register_row(c.name, "generic", "encode", [&c](benchmark::State& state) {
      const std::string row = row_name(c.name, "generic", "encode");
      std::vector<document> docs;
      for (const auto& bytes : c.documents) {
        auto d = decode_document(bytes);
        if (!d) fail(row, d.error().to_string());
        docs.push_back(std::move(*d));
      }
      writer w;
      for (const auto& d : docs) {
        if (auto r = encode_document(d, w); !r) fail(row, r.error().to_string());
      }
      check_bytes(row, w.bytes(), c.bytes.span());
      for (auto _ : state) {
        w.clear();
        for (const auto& d : docs) {
          auto r = encode_document(d, w);
          benchmark::DoNotOptimize(r);
        }
        benchmark::DoNotOptimize(w.data());
        benchmark::ClobberMemory();
      }
      set_stream_throughput(state, c);
    });
  register_row(c.name, "generic", "decode", [&c](benchmark::State& state) {
    const std::string row = row_name(c.name, "generic", "decode");
    writer w;
    for (const auto& bytes : c.documents) {
      auto d = decode_document(bytes);
      if (!d) fail(row, d.error().to_string());
      if (auto r = encode_document(*d, w); !r) fail(row, r.error().to_string());
    }
    check_bytes(row, w.bytes(), c.bytes.span());
    for (auto _ : state) {
      for (const auto& bytes : c.documents) {
        auto d = decode_document(bytes);
        benchmark::DoNotOptimize(d);
      }
      benchmark::ClobberMemory();
    }
    set_stream_throughput(state, c);
  });
  if (schema_order)
    register_row(c.name, "libbson", "encode", [&c](benchmark::State& state) {
      const std::string row = row_name(c.name, "libbson", "encode");
      bson_t b;
      bson_init(&b);
      std::vector<std::uint8_t> all;
      for (const auto& o : c.orders) {
        if (!libbson_encode(&b, o)) fail(row, "bson_append failed");
        all.insert(all.end(), bson_get_data(&b), bson_get_data(&b) + b.len);
      }
      check_bytes(row, all, c.bytes.span());
      for (auto _ : state) {
        for (const auto& o : c.orders) {
          bool ok = libbson_encode(&b, o);
          benchmark::DoNotOptimize(ok);
          benchmark::DoNotOptimize(bson_get_data(&b));
        }
        benchmark::ClobberMemory();
      }
      bson_destroy(&b);
      set_stream_throughput(state, c);
    });
  register_row(c.name, "libbson", "decode", [&c](benchmark::State& state) {
    const std::string row = row_name(c.name, "libbson", "decode");
    std::vector<shop::order> out(c.documents.size());
    auto decode_all = [&c, &out]() -> bool {
      bool ok = true;
      for (std::size_t k = 0; k < c.documents.size(); ++k) {
        ok &= libbson_decode(c.documents[k], out[k]);
      }
      return ok;
    };
    if (!decode_all()) fail(row, "bson_iter found an unexpected element");
    check_orders(row, out, c);
    for (auto _ : state) {
      bool ok = decode_all();
      benchmark::DoNotOptimize(ok);
      benchmark::DoNotOptimize(out.data());
      benchmark::ClobberMemory();
    }
    set_stream_throughput(state, c);
  });
  if (schema_order)
    register_row(c.name, "struct_copy", "copy", [&c](benchmark::State& state) {
      const std::string row = row_name(c.name, "struct_copy", "copy");
      std::vector<shop::order> out;
      for (const auto& o : c.orders) out.push_back(o);
      check_orders(row, out, c);
      for (auto _ : state) {
        for (const auto& o : c.orders) {
          shop::order copy = o;
          benchmark::DoNotOptimize(copy);
        }
        benchmark::ClobberMemory();
      }
      set_stream_throughput(state, c);
    });
  register_row(c.name, "memcpy", "copy", [&c](benchmark::State& state) {
    const std::string row = row_name(c.name, "memcpy", "copy");
    std::vector<std::uint8_t> out(c.bytes.size());
    std::memcpy(out.data(), c.bytes.data(), c.bytes.size());
    check_bytes(row, out, c.bytes.span());
    for (auto _ : state) {
      std::memcpy(out.data(), c.bytes.data(), c.bytes.size());
      benchmark::DoNotOptimize(out.data());
      benchmark::ClobberMemory();
    }
    set_stream_throughput(state, c);
  });
}

const bool registered = [] {
  static const orders_case order_1 = build_case("order_1", 1);
  static const orders_case orders_1000 = build_case("orders_1000", stream_length);
  register_case_bytes(order_1.name, order_1.bytes.span());
  static const orders_case orders_reversed_1000 =
      build_reversed_case("orders_reversed_1000", orders_1000);
  register_rows(order_1, true);
  register_order_summary_rows(order_1.bytes.span());  // order_1 read as a projection
  register_rows(orders_1000, true);
  register_rows(orders_reversed_1000, false);
  return true;
}();

}  // namespace
}  // namespace bsongen::bench
