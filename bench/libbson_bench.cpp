// `<case>/libbson/encode|decode`: the seed cases through libbson, written the way a
// performance-aware libbson user would write them by hand.
//
// Encode: one bson_t per row, initialized once and emptied with bson_reinit before each document.
// bson_reinit keeps the heap buffer a bson_t has grown into, so after the first document an encode
// allocates nothing; bson_new/bson_destroy per document would add a malloc/free (and, for the
// _1000 cases, regrowth from a small initial buffer) that a careful user avoids. Keys come from the
// case's precomputed key strings with their lengths, so libbson never calls strlen.
//
// Decode: bson_init_static over the bytes (no copy), then bson_iter_init + bson_iter_next, checking
// each element's key and type before storing the typed value into a std::vector (or a struct for
// oid_string). The output container is reused across iterations, keeping its capacity, as a
// careful user would.

#include <benchmark/benchmark.h>
#include <bson/bson.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "seed_cases.hpp"

namespace bsongen::bench {
namespace {

int key_length(const std::string& key) { return static_cast<int>(key.size()); }

bool append(bson_t* b, const std::string& key, double v) {
  return bson_append_double(b, key.data(), key_length(key), v);
}
bool append(bson_t* b, const std::string& key, std::int64_t v) {
  return bson_append_int64(b, key.data(), key_length(key), v);
}
bool append(bson_t* b, const std::string& key, const object_id& v) {
  bson_oid_t oid;
  std::memcpy(oid.bytes, v.data(), object_id::size);
  return bson_append_oid(b, key.data(), key_length(key), &oid);
}
bool append(bson_t* b, const std::string& key, const decimal128& v) {
  bson_decimal128_t dec;
  dec.high = v.high_bits();
  dec.low = v.low_bits();
  return bson_append_decimal128(b, key.data(), key_length(key), &dec);
}

// Precondition: `b` was initialized (bson_init) and is owned by the caller.
template <class T>
bool encode(bson_t* b, const std::vector<std::string>& keys, const std::vector<T>& values) {
  bson_reinit(b);
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (!append(b, keys[i], values[i])) return false;
  }
  return true;
}

bool encode(bson_t* b, const std::vector<std::string>& keys, const oid_string_document& doc) {
  bson_reinit(b);
  return append(b, keys[0], doc.oid) &&
         bson_append_utf8(b, keys[1].data(), key_length(keys[1]), doc.string.data(),
                          static_cast<int>(doc.string.size()));
}

bool key_is(const bson_iter_t* it, const std::string& key) {
  return bson_iter_key_len(it) == key.size() &&
         std::memcmp(bson_iter_key(it), key.data(), key.size()) == 0;
}

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
bool read(const bson_iter_t* it, std::string& out) {
  if (!BSON_ITER_HOLDS_UTF8(it)) return false;
  std::uint32_t length = 0;
  const char* text = bson_iter_utf8(it, &length);
  out.assign(text, length);
  return true;
}

// False when the bytes are not a document of exactly `keys`, in order, holding T values.
template <class T>
bool decode(std::span<const std::uint8_t> bytes, const std::vector<std::string>& keys,
            std::vector<T>& out) {
  out.clear();
  bson_t doc;
  bson_iter_t it;
  if (!bson_init_static(&doc, bytes.data(), bytes.size()) || !bson_iter_init(&it, &doc)) {
    return false;
  }
  while (bson_iter_next(&it)) {
    const std::size_t i = out.size();
    T value{};
    if (i == keys.size() || !key_is(&it, keys[i]) || !read(&it, value)) return false;
    out.push_back(value);
  }
  return out.size() == keys.size();
}

// Fields may come in any order, as a struct decoder must allow; each must appear.
bool decode(std::span<const std::uint8_t> bytes, const std::vector<std::string>& keys,
            oid_string_document& out) {
  bson_t doc;
  bson_iter_t it;
  if (!bson_init_static(&doc, bytes.data(), bytes.size()) || !bson_iter_init(&it, &doc)) {
    return false;
  }
  bool have_oid = false;
  bool have_string = false;
  while (bson_iter_next(&it)) {
    if (key_is(&it, keys[0])) {
      if (!read(&it, out.oid)) return false;
      have_oid = true;
    } else if (key_is(&it, keys[1])) {
      if (!read(&it, out.string)) return false;
      have_string = true;
    } else {
      return false;
    }
  }
  return have_oid && have_string;
}

template <class Case, class Value>
void register_rows(const Case& c, const Value& values) {
  register_row(c.name, "libbson", "encode", [&c, &values](benchmark::State& state) {
    const std::string row = row_name(c.name, "libbson", "encode");
    bson_t b;
    bson_init(&b);
    if (!encode(&b, c.keys, values)) fail(row, "bson_append_* failed");
    check_bytes(row, {bson_get_data(&b), b.len}, c.bytes.span());
    for (auto _ : state) {
      const bool appended = encode(&b, c.keys, values);
      benchmark::DoNotOptimize(appended);
      benchmark::DoNotOptimize(bson_get_data(&b));
      benchmark::ClobberMemory();
    }
    bson_destroy(&b);
    set_document_throughput(state, c.bytes.size());
  });

  register_row(c.name, "libbson", "decode", [&c](benchmark::State& state) {
    const std::string row = row_name(c.name, "libbson", "decode");
    Value out{};
    if (!decode(c.bytes.span(), c.keys, out)) fail(row, "bson_iter found an unexpected element");
    check_values(row, out, c);
    for (auto _ : state) {
      const bool decoded = decode(c.bytes.span(), c.keys, out);
      benchmark::DoNotOptimize(decoded);
      benchmark::DoNotOptimize(out);
      benchmark::ClobberMemory();
    }
    set_document_throughput(state, c.bytes.size());
  });
}

const bool registered = [] {
  const seed_cases& cases = get_seed_cases();
  for_each_uniform_case(cases, [](const auto& c) { register_rows(c, c.values); });
  register_rows(cases.oid_string, cases.oid_string.value);
  return true;
}();

}  // namespace
}  // namespace bsongen::bench
