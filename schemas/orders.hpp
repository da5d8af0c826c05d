#pragma once

// The shop's orders (schemas/orders.yaml) written the other way: as the application's own C++
// structs, annotated for bsongen-scan. Both paths encode the same values to the same bytes
// (tests/scanner/orders_header_test.cpp).
//
// Build integration:
//   bsongen_generate(TARGET app HEADERS schemas/orders.hpp)   // app: #include "orders.bsongen.hpp"
// By hand:
//   bsongen-scan schemas/orders.hpp -I build/include -I schemas -o orders.model.json
//   generator/bsongen generate --model orders.model.json --out build/gen
//
// The namespace differs from the YAML's `shop` only so a program (the test) can hold both.

#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bsongen/annotate.hpp"
#include "bsongen/codec.hpp"
#include "bsongen/decimal128.hpp"
#include "bsongen/object_id.hpp"
#include "bsongen/raw_document.hpp"
#include "bsongen/types.hpp"

namespace shop_header {

using money = bsongen::decimal128;

/// Where an order is in its life; stored as its name.
enum class BSONGEN_ENUM_AS_STRING order_status : std::int32_t {
  pending,
  paid,
  shipped,
  delivered,
  /// Stored with the American spelling.
  cancelled BSONGEN_BSON_NAME("canceled"),
};

/// Stored as an int32 code.
enum class payment_method : std::int32_t { card = 1, bank_transfer = 2, voucher = 7 };

/// A postal address.
struct BSONGEN_DOCUMENT address {
  BSONGEN_REQUIRED std::string street;
  BSONGEN_REQUIRED std::string city;
  BSONGEN_KEY("postalCode") std::string postal_code;
  /// ISO 3166-1 alpha-2 code.
  std::string country = "DE";

  friend bool operator==(const address&, const address&) = default;
};

struct BSONGEN_DOCUMENT customer {
  BSONGEN_KEY("_id") BSONGEN_REQUIRED bsongen::object_id id;
  BSONGEN_REQUIRED std::string name;
  std::optional<std::string> email;
  address shipping;
  /// Absent when it equals the shipping address.
  std::optional<address> billing;

  friend bool operator==(const customer&, const customer&) = default;
};

struct BSONGEN_DOCUMENT BSONGEN_UNKNOWN_FIELDS(reject) line_item {
  BSONGEN_REQUIRED std::string sku;
  BSONGEN_KEY("qty") BSONGEN_REQUIRED std::int32_t quantity = 0;
  BSONGEN_KEY("unitPrice") BSONGEN_REQUIRED money unit_price;
  std::optional<money> discount;

  friend bool operator==(const line_item&, const line_item&) = default;
};

/// One order. Unknown keys are kept in `extra` so a round trip through an older
/// service does not lose them.
struct BSONGEN_DOCUMENT BSONGEN_DUPLICATE_KEYS(reject) order {
  BSONGEN_KEY("_id") BSONGEN_REQUIRED bsongen::object_id id;
  /// Human-facing order number.
  BSONGEN_REQUIRED std::int64_t number = 0;
  order_status status = order_status::pending;
  payment_method payment = payment_method::card;
  shop_header::customer customer;
  BSONGEN_OMIT_EMPTY std::vector<line_item> items;
  money total;
  BSONGEN_KEY("createdAt") BSONGEN_REQUIRED bsongen::datetime created_at;
  BSONGEN_KEY("shippedAt") std::optional<bsongen::datetime> shipped_at;
  /// Free-form labels.
  BSONGEN_OMIT_EMPTY std::map<std::string, std::string> tags;
  BSONGEN_OMIT_EMPTY std::string notes;
  bool gift = false;
  BSONGEN_KEY("_v") bsongen::timestamp version;
  std::optional<bsongen::binary> attachment;
  BSONGEN_AS(uuid) std::optional<std::array<std::uint8_t, 16>> tracking;
  /// Parcel size in centimetres.
  std::array<double, 3> dimensions{};
  /// Elements whose keys this struct does not know, in input order.
  BSONGEN_CAPTURE_UNKNOWN bsongen::raw_document extra;

  friend bool operator==(const order&, const order&) = default;
};

}  // namespace shop_header
