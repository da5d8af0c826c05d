// The `<type>_array_1000` cases (`{a: [1000 values]}`, the js-bson granular shapes) and their
// memcpy and libbson rows.
//
// libbson rows are written the way a performance-aware libbson user would write them, as in
// libbson_bench.cpp: encode reuses one bson_t (bson_reinit keeps its grown buffer) and takes array
// keys from bson_uint32_to_string, which serves "0".."999" from a static table; decode walks the
// bytes in place (bson_init_static, bson_iter_recurse), checks each element's type, and stores
// into a std::vector whose elements (and strings' capacity) are reused across iterations.

#include "array_cases.hpp"

#include <benchmark/benchmark.h>
#include <bson/bson.h>

#include <bit>
#include <chrono>
#include <cinttypes>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>

#include "bsongen/detail/endian.hpp"
#include "bsongen/writer.hpp"
#include "case_registry.hpp"
#include "seed_cases.hpp"

namespace bsongen::bench {
namespace {

constexpr std::size_t array_length = 1000;
constexpr std::string_view array_key = "a";

// --- Values. Deterministic, and varied so no row can profit from all elements being equal. ---

double double_value(std::uint32_t i) { return 120.384 + 0.5 * static_cast<double>(i); }
std::int64_t int64_value(std::uint32_t i) {
  const std::int64_t magnitude = 4'294'967'311LL * static_cast<std::int64_t>(i) + 17;
  return (i % 2 == 0) ? magnitude : -magnitude;
}
std::int32_t int32_value(std::uint32_t i) {
  return -1'000'000 + 2'147 * static_cast<std::int32_t>(i);
}
std::string string_value(std::uint32_t i) {
  char text[40];
  std::snprintf(text, sizeof text, "value %04u of the string array", static_cast<unsigned>(i));
  return text;
}
object_id oid_value(std::uint32_t i) {
  std::uint8_t bytes[object_id::size];
  detail::store_u32_be(bytes, 0x65A0B000U);
  const std::uint8_t process_part[5] = {0x5D, 0x02, 0xC4, 0x91, 0x3B};
  std::memcpy(bytes + 4, process_part, sizeof process_part);
  const std::uint32_t counter = 0x1B0000U + i;
  bytes[9] = static_cast<std::uint8_t>(counter >> 16);
  bytes[10] = static_cast<std::uint8_t>(counter >> 8);
  bytes[11] = static_cast<std::uint8_t>(counter);
  return object_id::from_bytes(bytes);
}
// Coefficient 120384 + i with exponent -3: canonical (far below 2^113, exponent in range).
decimal128 dec128_value(std::uint32_t i) {
  constexpr std::uint64_t biased_exponent = 6176 - 3;
  return decimal128(biased_exponent << 49, 120'384U + i);
}
datetime datetime_value(std::uint32_t i) {
  return datetime(std::chrono::milliseconds(1'700'000'000'000LL + 86'400'000LL * i));
}
bool bool_value(std::uint32_t i) { return i % 3 != 0; }

// --- Encoding with bsongen::writer (the canonical bytes) and with libbson (the cross-check). ---

void put_value(writer& w, double v) { w.put_f64(v); }
void put_value(writer& w, std::int64_t v) { w.put_i64(v); }
void put_value(writer& w, std::int32_t v) { w.put_i32(v); }
void put_value(writer& w, const std::string& v) { w.put_string(v); }
void put_value(writer& w, const object_id& v) { w.put_bytes(v.data(), object_id::size); }
void put_value(writer& w, const decimal128& v) {
  if (std::uint8_t* p = w.extend(16)) v.to_bytes(p);
}
void put_value(writer& w, datetime v) { w.put_i64(v.time_since_epoch().count()); }
void put_value(writer& w, bool v) { w.put_u8(v ? 1 : 0); }

template <class T>
byte_buffer encode_with_writer(const array_case<T>& c) {
  writer w;
  w.put_i32(0);
  w.put_u8(static_cast<std::uint8_t>(bson_type::array));
  w.put_cstring(c.key);
  const std::size_t array_start = w.size();
  w.put_i32(0);
  for (std::size_t i = 0; i < c.values.size(); ++i) {
    w.put_u8(static_cast<std::uint8_t>(c.element_type));
    w.put_cstring(std::to_string(i));
    put_value(w, static_cast<const T&>(c.values[i]));
  }
  w.put_u8(0);
  w.patch_i32(array_start, static_cast<std::int32_t>(w.size() - array_start));
  w.put_u8(0);
  w.patch_i32(0, static_cast<std::int32_t>(w.size()));
  return w.take();
}

bool append(bson_t* b, const char* key, int key_length, double v) {
  return bson_append_double(b, key, key_length, v);
}
bool append(bson_t* b, const char* key, int key_length, std::int64_t v) {
  return bson_append_int64(b, key, key_length, v);
}
bool append(bson_t* b, const char* key, int key_length, std::int32_t v) {
  return bson_append_int32(b, key, key_length, v);
}
bool append(bson_t* b, const char* key, int key_length, const std::string& v) {
  return bson_append_utf8(b, key, key_length, v.data(), static_cast<int>(v.size()));
}
bool append(bson_t* b, const char* key, int key_length, const object_id& v) {
  bson_oid_t oid;
  std::memcpy(oid.bytes, v.data(), object_id::size);
  return bson_append_oid(b, key, key_length, &oid);
}
bool append(bson_t* b, const char* key, int key_length, const decimal128& v) {
  bson_decimal128_t dec;
  dec.high = v.high_bits();
  dec.low = v.low_bits();
  return bson_append_decimal128(b, key, key_length, &dec);
}
bool append(bson_t* b, const char* key, int key_length, datetime v) {
  return bson_append_date_time(b, key, key_length, v.time_since_epoch().count());
}
bool append(bson_t* b, const char* key, int key_length, bool v) {
  return bson_append_bool(b, key, key_length, v);
}

// Precondition: `b` was initialized (bson_init) and is owned by the caller.
template <class T>
bool encode_with_libbson(bson_t* b, const array_case<T>& c) {
  bson_reinit(b);
  bson_t array;
  if (!bson_append_array_begin(b, c.key.data(), static_cast<int>(c.key.size()), &array)) {
    return false;
  }
  char key_buffer[16];
  for (std::size_t i = 0; i < c.values.size(); ++i) {
    const char* key = nullptr;
    const std::size_t key_length =
        bson_uint32_to_string(static_cast<std::uint32_t>(i), &key, key_buffer, sizeof key_buffer);
    if (!append(&array, key, static_cast<int>(key_length), static_cast<const T&>(c.values[i]))) {
      return false;
    }
  }
  return bson_append_array_end(b, &array);
}

// --- Decoding with libbson. ---

bool read(const bson_iter_t* it, double& out) {
  if (!BSON_ITER_HOLDS_DOUBLE(it)) return false;
  out = bson_iter_double(it);
  return true;
}
bool read(const bson_iter_t* it, std::int64_t& out) {
  if (!BSON_ITER_HOLDS_INT64(it)) return false;
  out = bson_iter_int64(it);
  return true;
}
bool read(const bson_iter_t* it, std::int32_t& out) {
  if (!BSON_ITER_HOLDS_INT32(it)) return false;
  out = bson_iter_int32(it);
  return true;
}
bool read(const bson_iter_t* it, std::string& out) {
  if (!BSON_ITER_HOLDS_UTF8(it)) return false;
  std::uint32_t length = 0;
  const char* text = bson_iter_utf8(it, &length);
  out.assign(text, length);
  return true;
}
bool read(const bson_iter_t* it, object_id& out) {
  if (!BSON_ITER_HOLDS_OID(it)) return false;
  out = object_id::from_bytes(bson_iter_oid(it)->bytes);
  return true;
}
bool read(const bson_iter_t* it, decimal128& out) {
  bson_decimal128_t dec;
  if (!BSON_ITER_HOLDS_DECIMAL128(it) || !bson_iter_decimal128(it, &dec)) return false;
  out = decimal128(dec.high, dec.low);
  return true;
}
bool read(const bson_iter_t* it, datetime& out) {
  if (!BSON_ITER_HOLDS_DATE_TIME(it)) return false;
  out = datetime(std::chrono::milliseconds(bson_iter_date_time(it)));
  return true;
}
bool read(const bson_iter_t* it, std::vector<bool>::reference out) {
  if (!BSON_ITER_HOLDS_BOOL(it)) return false;
  out = bson_iter_bool(it);
  return true;
}

// False when the bytes are not `{key: [T, T, ...]}`. Elements are read by position, as libbson
// users (and most decoders) read arrays: the "0", "1", ... keys are not compared. Reuses out's
// elements: a std::string keeps its capacity, so after the first iteration decoding strings
// allocates nothing.
template <class T>
bool decode_with_libbson(std::span<const std::uint8_t> bytes, std::string_view key,
                         std::vector<T>& out) {
  bson_t doc;
  bson_iter_t it;
  bson_iter_t element;
  if (!bson_init_static(&doc, bytes.data(), bytes.size()) || !bson_iter_init(&it, &doc) ||
      !bson_iter_next(&it) || bson_iter_key_len(&it) != key.size() ||
      std::memcmp(bson_iter_key(&it), key.data(), key.size()) != 0 || !BSON_ITER_HOLDS_ARRAY(&it) ||
      !bson_iter_recurse(&it, &element)) {
    return false;
  }
  std::size_t count = 0;
  while (bson_iter_next(&element)) {
    if (count == out.size()) out.emplace_back();
    if (!read(&element, out[count])) return false;
    ++count;
  }
  out.resize(count);
  return !bson_iter_next(&it);  // the array is the document's only field
}

// --- Building, checking, registering. ---

template <class T, class Make>
array_case<T> make_array_case(std::string name, bson_type type, Make&& make) {
  array_case<T> c;
  c.name = std::move(name);
  c.element_type = type;
  c.key = std::string(array_key);
  c.values.reserve(array_length);
  for (std::uint32_t i = 0; i < array_length; ++i) c.values.push_back(make(i));
  c.bytes = encode_with_writer(c);

  // Ties the canonical bytes to an independent implementation once.
  bson_t b;
  bson_init(&b);
  if (!encode_with_libbson(&b, c)) fail(c.name, "libbson refused to append an array value");
  check_bytes(row_name(c.name, "seed", "libbson_cross_check"), c.bytes.span(),
              {bson_get_data(&b), b.len});
  bson_destroy(&b);
  return c;
}

array_cases build_array_cases() {
  array_cases s;
  s.double_array = make_array_case<double>("double_array_1000", bson_type::double_, double_value);
  s.int64_array = make_array_case<std::int64_t>("int64_array_1000", bson_type::int64, int64_value);
  s.int32_array = make_array_case<std::int32_t>("int32_array_1000", bson_type::int32, int32_value);
  s.string_array =
      make_array_case<std::string>("string_array_1000", bson_type::string, string_value);
  s.oid_array = make_array_case<object_id>("oid_array_1000", bson_type::object_id, oid_value);
  s.dec128_array =
      make_array_case<decimal128>("dec128_array_1000", bson_type::decimal128, dec128_value);
  s.datetime_array =
      make_array_case<datetime>("datetime_array_1000", bson_type::datetime, datetime_value);
  s.bool_array = make_array_case<bool>("bool_array_1000", bson_type::boolean, bool_value);
  return s;
}

// Value printing and comparison for mismatch messages.
std::string show(double v) {
  char text[64];
  std::snprintf(text, sizeof text, "%.17g (bits %016" PRIx64 ")", v,
                std::bit_cast<std::uint64_t>(v));
  return text;
}
std::string show(std::int64_t v) { return std::to_string(v); }
std::string show(std::int32_t v) { return std::to_string(v); }
std::string show(const std::string& v) { return "\"" + v + "\""; }
std::string show(const object_id& v) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string text = "ObjectId(";
  for (const std::uint8_t byte : v.bytes()) {
    text.push_back(digits[byte >> 4]);
    text.push_back(digits[byte & 0x0F]);
  }
  return text + ")";
}
std::string show(const decimal128& v) {
  char text[64];
  std::snprintf(text, sizeof text, "Decimal128(high %016" PRIx64 ", low %016" PRIx64 ")",
                v.high_bits(), v.low_bits());
  return text;
}
std::string show(datetime v) { return std::to_string(v.time_since_epoch().count()) + " ms"; }
std::string show(bool v) { return v ? "true" : "false"; }

template <class T>
bool same(const T& a, const T& b) {
  if constexpr (std::is_same_v<T, double>) {
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
  } else {
    return a == b;
  }
}

template <class T>
void check_array(std::string_view row, const std::vector<T>& got, const array_case<T>& expected) {
  if (got.size() != expected.values.size()) {
    fail(row, "decoded " + std::to_string(got.size()) + " values, expected " +
                  std::to_string(expected.values.size()));
  }
  for (std::size_t i = 0; i < got.size(); ++i) {
    const T value = got[i];
    const T want = expected.values[i];
    if (!same(value, want)) {
      fail(row, "element " + std::to_string(i) + " is " + show(value) + ", expected " + show(want));
    }
  }
}

template <class T>
void register_libbson_rows(const array_case<T>& c) {
  register_row(c.name, "libbson", "encode", [&c](benchmark::State& state) {
    const std::string row = row_name(c.name, "libbson", "encode");
    bson_t b;
    bson_init(&b);
    if (!encode_with_libbson(&b, c)) fail(row, "bson_append_* failed");
    check_bytes(row, {bson_get_data(&b), b.len}, c.bytes.span());
    for (auto _ : state) {
      const bool appended = encode_with_libbson(&b, c);
      benchmark::DoNotOptimize(appended);
      benchmark::DoNotOptimize(bson_get_data(&b));
      benchmark::ClobberMemory();
    }
    bson_destroy(&b);
    set_document_throughput(state, c.bytes.size());
  });

  register_row(c.name, "libbson", "decode", [&c](benchmark::State& state) {
    const std::string row = row_name(c.name, "libbson", "decode");
    std::vector<T> out;
    if (!decode_with_libbson(c.bytes.span(), c.key, out)) {
      fail(row, "bson_iter found an unexpected element");
    }
    check_values(row, out, c);
    for (auto _ : state) {
      const bool decoded = decode_with_libbson(c.bytes.span(), c.key, out);
      benchmark::DoNotOptimize(decoded);
      benchmark::DoNotOptimize(out);
      benchmark::ClobberMemory();
    }
    set_document_throughput(state, c.bytes.size());
  });
}

const bool registered = [] {
  for_each_array_case(get_array_cases(), [](const auto& c) {
    register_case_bytes(c.name, c.bytes.span());
    register_copy_row(c.name, c.bytes.span());
    register_libbson_rows(c);
  });
  return true;
}();

}  // namespace

const array_cases& get_array_cases() {
  static const array_cases cases = build_array_cases();
  return cases;
}

void check_values(std::string_view row, const std::vector<double>& got,
                  const array_case<double>& expected) {
  check_array(row, got, expected);
}
void check_values(std::string_view row, const std::vector<std::int64_t>& got,
                  const array_case<std::int64_t>& expected) {
  check_array(row, got, expected);
}
void check_values(std::string_view row, const std::vector<std::int32_t>& got,
                  const array_case<std::int32_t>& expected) {
  check_array(row, got, expected);
}
void check_values(std::string_view row, const std::vector<std::string>& got,
                  const array_case<std::string>& expected) {
  check_array(row, got, expected);
}
void check_values(std::string_view row, const std::vector<object_id>& got,
                  const array_case<object_id>& expected) {
  check_array(row, got, expected);
}
void check_values(std::string_view row, const std::vector<decimal128>& got,
                  const array_case<decimal128>& expected) {
  check_array(row, got, expected);
}
void check_values(std::string_view row, const std::vector<datetime>& got,
                  const array_case<datetime>& expected) {
  check_array(row, got, expected);
}
void check_values(std::string_view row, const std::vector<bool>& got,
                  const array_case<bool>& expected) {
  check_array(row, got, expected);
}

}  // namespace bsongen::bench
