#include "seed_cases.hpp"

#include <bson/bson.h>

#include <bit>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "bsongen/detail/endian.hpp"
#include "bsongen/writer.hpp"

namespace bsongen::bench {
namespace {

constexpr double double_value = 120.384;
constexpr std::int64_t int64_value = -120;
constexpr std::string_view oid_string_text =
    "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.";

// Sizes the js-bson benchmarks list; asserted so a change of shape cannot pass unnoticed.
constexpr std::size_t double_1000_size = 12'895;
constexpr std::size_t int64_1000_size = 12'895;
constexpr std::size_t oid_1000_size = 16'895;
constexpr std::size_t dec128_1000_size = 20'895;

// ObjectIds with a fixed timestamp and process part and counter 0x0A0000 + index: distinct,
// reproducible, and shaped like ObjectIds one process generates in a burst.
object_id seed_object_id(std::uint32_t index) {
  std::uint8_t bytes[object_id::size];
  detail::store_u32_be(bytes, 0x65A0B000U);
  const std::uint8_t process_part[5] = {0x3F, 0x1C, 0x8A, 0x52, 0xE7};
  std::memcpy(bytes + 4, process_part, sizeof process_part);
  const std::uint32_t counter = 0x0A0000U + index;
  bytes[9] = static_cast<std::uint8_t>(counter >> 16);
  bytes[10] = static_cast<std::uint8_t>(counter >> 8);
  bytes[11] = static_cast<std::uint8_t>(counter);
  return object_id::from_bytes(bytes);
}

// 120.384, 120.385, ...: coefficient 120384 + index with exponent -3. The coefficient is far below
// 2^113 and the exponent in range, so every value is canonical (no combination-field form).
decimal128 seed_decimal128(std::uint32_t index) {
  constexpr std::uint64_t exponent_bias = 6176;
  constexpr std::uint64_t biased_exponent = exponent_bias - 3;
  return decimal128(biased_exponent << 49, 120'384U + index);
}

std::vector<std::string> keys_for(std::size_t count) {
  std::vector<std::string> keys;
  keys.reserve(count);
  if (count == 1) {
    keys.emplace_back("_id");
  } else {
    for (std::size_t i = 0; i < count; ++i) keys.push_back(std::to_string(i));
  }
  return keys;
}

void put_value(writer& w, double v) { w.put_f64(v); }
void put_value(writer& w, std::int64_t v) { w.put_i64(v); }
void put_value(writer& w, const object_id& v) { w.put_bytes(v.data(), object_id::size); }
void put_value(writer& w, const decimal128& v) {
  if (std::uint8_t* p = w.extend(16)) v.to_bytes(p);
}

// Our encoding: int32 length placeholder, elements, NUL, then the length patched in.
template <class T>
byte_buffer encode_with_writer(const std::vector<std::string>& keys, const std::vector<T>& values,
                               bson_type type) {
  writer w;
  w.put_i32(0);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    w.put_u8(static_cast<std::uint8_t>(type));
    w.put_cstring(keys[i]);
    put_value(w, values[i]);
  }
  w.put_u8(0);
  w.patch_i32(0, static_cast<std::int32_t>(w.size()));
  return w.take();
}

bool append_libbson(bson_t* b, const std::string& key, double v) {
  return bson_append_double(b, key.data(), static_cast<int>(key.size()), v);
}
bool append_libbson(bson_t* b, const std::string& key, std::int64_t v) {
  return bson_append_int64(b, key.data(), static_cast<int>(key.size()), v);
}
bool append_libbson(bson_t* b, const std::string& key, const object_id& v) {
  bson_oid_t oid;
  std::memcpy(oid.bytes, v.data(), object_id::size);
  return bson_append_oid(b, key.data(), static_cast<int>(key.size()), &oid);
}
bool append_libbson(bson_t* b, const std::string& key, const decimal128& v) {
  bson_decimal128_t dec;
  dec.high = v.high_bits();
  dec.low = v.low_bits();
  return bson_append_decimal128(b, key.data(), static_cast<int>(key.size()), &dec);
}

// Aborts unless libbson encodes the same values to `ours`. This ties the canonical bytes to an
// independent implementation once, so every row checked against them is checked against libbson.
template <class Append>
void check_against_libbson(const std::string& case_name, std::span<const std::uint8_t> ours,
                           Append&& append_all) {
  bson_t doc;
  bson_init(&doc);
  if (!append_all(&doc)) fail(case_name, "libbson refused to append a seed value");
  const std::span<const std::uint8_t> theirs(bson_get_data(&doc), doc.len);
  check_bytes(row_name(case_name, "seed", "libbson_cross_check"), ours, theirs);
  bson_destroy(&doc);
}

template <class T>
uniform_case<T> make_uniform_case(std::string name, bson_type type, std::vector<T> values,
                                  std::size_t expected_size) {
  uniform_case<T> c;
  c.name = std::move(name);
  c.element_type = type;
  c.keys = keys_for(values.size());
  c.values = std::move(values);
  c.bytes = encode_with_writer(c.keys, c.values, type);
  if (expected_size != 0 && c.bytes.size() != expected_size) {
    fail(c.name, "encodes to " + std::to_string(c.bytes.size()) + " bytes, expected " +
                     std::to_string(expected_size));
  }
  check_against_libbson(c.name, c.bytes.span(), [&c](bson_t* b) {
    for (std::size_t i = 0; i < c.keys.size(); ++i) {
      if (!append_libbson(b, c.keys[i], c.values[i])) return false;
    }
    return true;
  });
  return c;
}

template <class T, class Make>
std::vector<T> generate_values(std::size_t count, Make&& make) {
  std::vector<T> values;
  values.reserve(count);
  for (std::size_t i = 0; i < count; ++i) values.push_back(make(static_cast<std::uint32_t>(i)));
  return values;
}

oid_string_case make_oid_string_case() {
  oid_string_case c;
  c.name = "oid_string";
  c.keys = {"oid", "string"};
  c.value.oid = seed_object_id(0xFFFF);
  c.value.string = std::string(oid_string_text);

  writer w;
  w.put_i32(0);
  w.put_u8(static_cast<std::uint8_t>(bson_type::object_id));
  w.put_cstring(c.keys[0]);
  w.put_bytes(c.value.oid.data(), object_id::size);
  w.put_u8(static_cast<std::uint8_t>(bson_type::string));
  w.put_cstring(c.keys[1]);
  w.put_string(c.value.string);
  w.put_u8(0);
  w.patch_i32(0, static_cast<std::int32_t>(w.size()));
  c.bytes = w.take();

  check_against_libbson(c.name, c.bytes.span(), [&c](bson_t* b) {
    return append_libbson(b, c.keys[0], c.value.oid) &&
           bson_append_utf8(b, c.keys[1].data(), static_cast<int>(c.keys[1].size()),
                            c.value.string.data(), static_cast<int>(c.value.string.size()));
  });
  return c;
}

seed_cases build_seed_cases() {
  seed_cases s;
  const auto same_double = [](std::uint32_t) { return double_value; };
  const auto same_int64 = [](std::uint32_t) { return int64_value; };
  s.double_1 =
      make_uniform_case("double_1", bson_type::double_, generate_values<double>(1, same_double), 0);
  s.double_1000 = make_uniform_case("double_1000", bson_type::double_,
                                    generate_values<double>(1000, same_double), double_1000_size);
  s.int64_1 = make_uniform_case("int64_1", bson_type::int64,
                                generate_values<std::int64_t>(1, same_int64), 0);
  s.int64_1000 =
      make_uniform_case("int64_1000", bson_type::int64,
                        generate_values<std::int64_t>(1000, same_int64), int64_1000_size);
  s.oid_1 = make_uniform_case("oid_1", bson_type::object_id,
                              generate_values<object_id>(1, seed_object_id), 0);
  s.oid_1000 = make_uniform_case("oid_1000", bson_type::object_id,
                                 generate_values<object_id>(1000, seed_object_id), oid_1000_size);
  s.dec128_1 = make_uniform_case("dec128_1", bson_type::decimal128,
                                 generate_values<decimal128>(1, seed_decimal128), 0);
  s.dec128_1000 =
      make_uniform_case("dec128_1000", bson_type::decimal128,
                        generate_values<decimal128>(1000, seed_decimal128), dec128_1000_size);
  s.oid_string = make_oid_string_case();
  return s;
}

// Value printing for mismatch messages. Hex is formatted here rather than with object_id::to_hex
// so these messages need nothing beyond the inline parts of the runtime.
std::string hex(const std::uint8_t* bytes, std::size_t n) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back(digits[bytes[i] >> 4]);
    out.push_back(digits[bytes[i] & 0x0F]);
  }
  return out;
}

std::string show(double v) {
  char text[64];
  std::snprintf(text, sizeof text, "%.17g (bits %016" PRIx64 ")", v,
                std::bit_cast<std::uint64_t>(v));
  return text;
}
std::string show(std::int64_t v) { return std::to_string(v); }
std::string show(const object_id& v) { return "ObjectId(" + hex(v.data(), object_id::size) + ")"; }
std::string show(const decimal128& v) {
  char text[64];
  std::snprintf(text, sizeof text, "Decimal128(high %016" PRIx64 ", low %016" PRIx64 ")",
                v.high_bits(), v.low_bits());
  return text;
}

bool same(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}
bool same(std::int64_t a, std::int64_t b) { return a == b; }
bool same(const object_id& a, const object_id& b) { return a == b; }
bool same(const decimal128& a, const decimal128& b) { return a == b; }

template <class T>
void check_uniform(std::string_view row, const std::vector<T>& got,
                   const uniform_case<T>& expected) {
  if (got.size() != expected.values.size()) {
    fail(row, "decoded " + std::to_string(got.size()) + " values, expected " +
                  std::to_string(expected.values.size()));
  }
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!same(got[i], expected.values[i])) {
      fail(row, "value " + std::to_string(i) + " (key \"" + expected.keys[i] + "\") is " +
                    show(got[i]) + ", expected " + show(expected.values[i]));
    }
  }
}

}  // namespace

const seed_cases& get_seed_cases() {
  static const seed_cases cases = build_seed_cases();
  return cases;
}

std::string row_name(std::string_view case_name, std::string_view impl, std::string_view op) {
  std::string name;
  name.reserve(case_name.size() + impl.size() + op.size() + 2);
  name.append(case_name).append("/").append(impl).append("/").append(op);
  return name;
}

void register_row(std::string_view case_name, std::string_view impl, std::string_view op,
                  std::function<void(benchmark::State&)> body) {
  benchmark::RegisterBenchmark(row_name(case_name, impl, op).c_str(),
                               [body = std::move(body)](benchmark::State& state) { body(state); });
}

void fail(std::string_view row, std::string_view why) {
  std::fprintf(stderr, "bsongen_bench: %.*s: %.*s\n", static_cast<int>(row.size()), row.data(),
               static_cast<int>(why.size()), why.data());
  std::fflush(stderr);
  std::abort();
}

void check_bytes(std::string_view row, std::span<const std::uint8_t> got,
                 std::span<const std::uint8_t> expected) {
  const std::size_t common = got.size() < expected.size() ? got.size() : expected.size();
  std::size_t at = 0;
  while (at < common && got[at] == expected[at]) ++at;
  if (at == common && got.size() == expected.size()) return;
  std::string why =
      "encoded bytes differ from the expected encoding: " + std::to_string(got.size()) +
      " bytes, expected " + std::to_string(expected.size()) + "; first difference at byte " +
      std::to_string(at);
  if (at < common) {
    char detail_text[64];
    std::snprintf(detail_text, sizeof detail_text, " (0x%02x, expected 0x%02x)", got[at],
                  expected[at]);
    why += detail_text;
  }
  fail(row, why);
}

void check_values(std::string_view row, const std::vector<double>& got,
                  const uniform_case<double>& expected) {
  check_uniform(row, got, expected);
}
void check_values(std::string_view row, const std::vector<std::int64_t>& got,
                  const uniform_case<std::int64_t>& expected) {
  check_uniform(row, got, expected);
}
void check_values(std::string_view row, const std::vector<object_id>& got,
                  const uniform_case<object_id>& expected) {
  check_uniform(row, got, expected);
}
void check_values(std::string_view row, const std::vector<decimal128>& got,
                  const uniform_case<decimal128>& expected) {
  check_uniform(row, got, expected);
}
void check_values(std::string_view row, const oid_string_document& got,
                  const oid_string_case& expected) {
  if (got.oid != expected.value.oid) {
    fail(row, "oid is " + show(got.oid) + ", expected " + show(expected.value.oid));
  }
  if (got.string != expected.value.string) {
    fail(row, "string is \"" + got.string + "\", expected \"" + expected.value.string + "\"");
  }
}

void set_document_throughput(benchmark::State& state, std::size_t document_bytes) {
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(document_bytes));
  state.SetItemsProcessed(state.iterations());
}

}  // namespace bsongen::bench
