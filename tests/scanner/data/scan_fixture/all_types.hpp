#pragma once

// Every member type bsongen-scan maps, each through the spellings users write (typedefs, aliases,
// fixed-width and plain integers). scan_headers_test checks the model; scanned_codec_test encodes
// and decodes these structs through the code generated from them.

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory_resource>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bsongen/annotate.hpp"
#include "bsongen/binary_vector.hpp"
#include "bsongen/codec.hpp"
#include "bsongen/decimal128.hpp"
#include "bsongen/nullable.hpp"
#include "bsongen/number.hpp"
#include "bsongen/object_id.hpp"
#include "bsongen/pmr_types.hpp"
#include "bsongen/raw_document.hpp"
#include "bsongen/types.hpp"
#include "scan_fixture/address.hpp"

namespace scan_fixture {

using clock_time = std::chrono::system_clock::time_point;
typedef std::int64_t counter;
using tags = std::vector<std::string>;

/// Stored as its value.
enum class priority : std::uint8_t { low = 1, normal = 5, high = 9 };

enum legacy_color { red = -1, green = 0, blue = 70000 };

/// Stored as its name.
enum class BSONGEN_ENUM_AS_STRING state { pending, shipped BSONGEN_BSON_NAME("SHIPPED"), lost };

/// One of each scalar.
struct BSONGEN_DOCUMENT scalars {
  int plain_int = 0;
  std::int8_t tiny = 0;
  short small = 0;
  std::uint8_t byte = 0;
  std::uint16_t word = 0;
  std::uint32_t dword = 0;
  std::int64_t wide = 0;
  long long wide_ll = 0;
  counter aliased = 0;
  double ratio = 0;
  bool flag = false;
  std::string text;
  bsongen::object_id id;
  bsongen::decimal128 amount;
  bsongen::binary blob;
  bsongen::timestamp stamp;
  bsongen::regex pattern;
  bsongen::datetime when_ms;
  clock_time when_ns{};
  std::chrono::time_point<std::chrono::system_clock, std::chrono::seconds> when_s{};
  bsongen::min_key lowest;
  bsongen::max_key highest;
  std::nullptr_t nothing = nullptr;
  BSONGEN_AS(javascript) std::string code;
  BSONGEN_AS(uuid) std::array<std::uint8_t, 16> uuid{};
  bsongen::raw_document extra;
  bsongen::javascript_with_scope scoped;
};

struct BSONGEN_DOCUMENT BSONGEN_UNKNOWN_FIELDS(reject) BSONGEN_DUPLICATE_KEYS(reject) containers {
  std::vector<std::int32_t> numbers;
  tags labels;
  std::array<double, 3> point{};
  std::optional<std::string> nickname;
  std::optional<address> shipping;
  std::vector<address> history;
  std::map<std::string, std::int64_t> counts;
  std::unordered_map<std::string, std::vector<std::string>> groups;
  std::map<std::string, address, std::less<>> by_name;
  std::vector<std::vector<std::uint16_t>> matrix;
  BSONGEN_OMIT_EMPTY std::optional<std::string> motto;  // left out when absent or empty
  bsongen::nullable<std::string> alias;               // null or a string
  std::optional<bsongen::nullable<std::int32_t>> rank;  // absent, null or an int32
  std::vector<bsongen::nullable<double>> readings;
  bsongen::number<double> price;                      // int32, int64 or double, written back as read
  bsongen::number<counter> total;
  std::vector<std::pair<std::string, std::int64_t>> ordered;  // a map in document order
};

/// Keys, options and enums.
struct BSONGEN_DOCUMENT options {
  /// The primary key.
  BSONGEN_KEY("_id") bsongen::object_id id;
  BSONGEN_REQUIRED std::string name;
  BSONGEN_OMIT_EMPTY std::vector<std::string> notes;
  BSONGEN_OMIT_EMPTY BSONGEN_KEY("n") std::string short_key;
  priority level = priority::normal;
  legacy_color color = green;
  state status = state::pending;
  std::vector<state> history;
  BSONGEN_IGNORE int cache = 0;
  static constexpr int version = 3;  // static members are not fields
};

struct BSONGEN_DOCUMENT open_document {
  std::string kind;
  BSONGEN_CAPTURE_UNKNOWN bsongen::raw_document rest;
};

/// Contains itself through a vector: a tree.
struct BSONGEN_DOCUMENT tree {
  std::string label;
  std::vector<tree> children;
};

// Binary vectors (BSON binary subtype 9): BSONGEN_AS(binary_vector) tells a std::vector<float> or
// std::array<std::int8_t, N> from a BSON array (which a std::vector<float> cannot be: float is
// refused for a BSON double); bsongen::packed_bits needs no marker.
struct BSONGEN_DOCUMENT vectors {
  BSONGEN_AS(binary_vector) std::vector<float> embedding;
  BSONGEN_AS(binary_vector) std::vector<std::int8_t> quantized;
  BSONGEN_AS(binary_vector) std::array<float, 3> fixed;
  BSONGEN_AS(binary_vector) std::optional<std::array<std::int8_t, 2>> maybe_fixed;
  BSONGEN_AS(binary_vector) BSONGEN_OMIT_EMPTY std::pmr::vector<float> on_resource;
  bsongen::packed_bits bits;
  bsongen::pmr::packed_bits pmr_bits;
  std::optional<bsongen::packed_bits> maybe_bits;
  std::vector<bsongen::packed_bits> many_bits;
  std::vector<std::int8_t> small_numbers;  // no marker: a BSON array of int32
};

}  // namespace scan_fixture
