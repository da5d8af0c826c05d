#pragma once

// C++ as application headers write it, before anyone thought of BSON: members without
// initializers, a class with a constructor, aliases everywhere, unscoped enums with aliases and
// explicit underlying types, nested and inline namespaces, macros declaring members, deprecated
// members, keys that need escaping. scan_headers_test checks the model bsongen-scan builds;
// scanned_realworld_test round-trips the code generated from it.

#include <array>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "bsongen/annotate.hpp"
#include "realworld/geo.hpp"

// How application code declares members in bulk.
#define RW_FIELD(type, name) type name
#define RW_KEYED_FIELD(key, type, name) BSONGEN_KEY(key) type name

namespace corp::rw {
inline namespace v2 {

using tags_t = std::vector<std::string>;
typedef std::map<std::string, std::int64_t> counters_t;
using score_t = double;
using place_t = geo_point;
using micro_time = std::chrono::time_point<std::chrono::system_clock, std::chrono::microseconds>;

enum color { red, green = 5, blue };                       // unscoped, no initializer in uses
enum level { lowest = 0, first = 0, high = 3, last = high };  // aliases: one value, two names
enum class delta : std::int64_t { down = -2'000'000'000, flat = 0, up = 2'000'000'000 };
enum class octet : unsigned char { zero = 0, top = 255 };
enum class offset : short { min = -32768, none = 0, max = 32767 };
typedef enum { switch_off, switch_on } switch_mode;  // C style: the typedef names the enum
enum class BSONGEN_ENUM_AS_STRING region : std::int64_t { west = -5'000'000'000, east = 5'000'000'000 };

/// Members without initializers: a new one is value-initialized (zero), absent fields too.
struct BSONGEN_DOCUMENT reading {
  int n;
  double x;
  bool b;
  std::array<double, 3> a;
  long l;
  long long ll;
  unsigned u;
  std::int8_t i8;
  unsigned char uc;
  std::uint16_t u16;
  color c;
  delta d;
  octet o;
  offset off;
  std::chrono::system_clock::time_point at;
  micro_time at_us;
  std::chrono::time_point<std::chrono::system_clock, std::chrono::minutes> at_min;
  std::chrono::time_point<std::chrono::system_clock, std::chrono::duration<std::int32_t>> at_s32;
  place_t where;
};

/// Default member initializers: a new one, and every absent field, takes them.
struct BSONGEN_DOCUMENT settings {
  int retries = 3;
  score_t threshold = 0.25;
  bool enabled = true;
  std::string name = "default";
  tags_t tags{"a", "b"};
  counters_t limits{{"cpu", 4}};
  std::array<int, 2> window{10, 20};
  color shade = blue;
  level verbosity = high;
  std::optional<int> port = 8080;
  geo_point origin{1.5, -2.5, "home"};
  std::vector<int> plain;  // no initializer beside ones that have one
  static constexpr int version = 2;
  static int instances;  // static members are not fields
  int doubled() const { return retries * 2; }
};

/// A class with a user-provided constructor: it decides the initial values.
class BSONGEN_DOCUMENT account {
 public:
  account() : balance(100), owner("nobody") {}
  explicit account(std::int64_t opening) : balance(opening) {}

  std::int64_t balance;
  std::string owner;
  std::unordered_map<std::string, double> rates;
  BSONGEN_IGNORE mutable int lookups = 0;

  [[nodiscard]] std::int64_t doubled() const { return balance * 2; }

 private:
  BSONGEN_IGNORE int audit_ = 0;  // private and ignored: not a field

 public:
  [[nodiscard]] int audits() const { return audit_; }
};

/// Recursion through std::vector and std::map, aliases of the struct itself.
struct BSONGEN_DOCUMENT category {
  std::string name;
  std::vector<category> children;
  std::map<std::string, category> by_code;
};
using category_alias = category;

/// Members declared through macros, keys needing escapes, names that generated code also uses,
/// a virtual destructor.
struct BSONGEN_DOCUMENT odd {
  virtual ~odd() = default;
  RW_FIELD(int, from_macro) = 1;
  RW_KEYED_FIELD("a.b", std::string, dotted);
  BSONGEN_KEY("k\"ey\\ \xC3\xA9\t$") int escaped = 0;
  int end = 0;
  int out = 0;
  int p = 0;
  int v = 0;
  int st = 0;
  int value_type = 0;
  int size = 0;
  std::vector<category_alias> roots;
  std::optional<place_t> spot;
};

/// A deprecated member still holds data: the codecs read and write it without a warning. (Kept
/// trivial: g++ and clang warn in the user's own code when they synthesize a constructor or a copy
/// naming it, which bsongen cannot change.)
struct BSONGEN_DOCUMENT legacy_record {
  [[deprecated("use current")]] int legacy;
  int current;
};

/// std::vector<bool> (a proxy container), std::time_t, bytes as numbers, a string enum whose values
/// need 64 bits (only its names are written), an enum named by a typedef.
struct BSONGEN_DOCUMENT switches {
  std::vector<bool> bits;
  std::array<bool, 2> pair{};
  std::vector<std::uint8_t> bytes;  // an array of int32 elements; bsongen::binary is the blob type
  std::time_t stamp = 0;
  region area = region::east;
  switch_mode mode = switch_on;
};

/// C-style: a named struct and a typedef of the same name.
typedef struct BSONGEN_DOCUMENT c_style {
  int id;
  level lvl;
} c_style;

}  // namespace v2
}  // namespace corp::rw
