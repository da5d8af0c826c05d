// BSON binary vectors (subtype 9) against the same values as a BSON array of doubles.
//
// Cases (bench/schemas/embedding_1536.yaml):
//  * `embedding_1536`: {_id: int64, model: int32, norm: double, created: datetime,
//    embedding: float32 binary vector of 1536 elements} (6,207 bytes).
//  * `embedding_1536_doubles`: the same document with `embedding` a BSON array of the same 1536
//    values as doubles (20,653 bytes), as data stored before subtype 9 looks.
//
// Rows, each for both cases unless said:
//  * generated/encode: the struct, built before timing, into one reused bsongen::writer. For
//    embedding_1536 a fixed-shape struct (std::array<float, 1536>: skeleton copy and one memcpy
//    of the elements).
//  * generated/decode: bsongen::decode into one reused struct (the vector keeps its capacity).
//  * generated_dynamic/encode|decode (embedding_1536): the same bytes through a
//    binary_vector<float32> member (std::vector<float>): the general path.
//  * generic/encode: a bsongen::document decoded before timing, into a reused writer;
//    generic/decode: decode_document into a new document each iteration (the vector is a
//    bsongen::binary of subtype 9 there: its payload is copied, not interpreted).
//  * libbson/encode: one bson_t, bson_reinit per document. The vector: libbson 1.23 (Debian 12)
//    has no vector API (bson_append_vector_* came with 1.29), so the payload (dtype 0x27,
//    padding 0, little-endian floats) is built in a reused buffer and appended with
//    bson_append_binary, as a user of that version writes it. The array: bson_append_array_begin,
//    bson_append_double per element with keys from bson_uint32_to_string, bson_append_array_end.
//  * libbson/decode: bson_iter over the elements, each key compared and type checked, values
//    stored into a reused struct. The vector: bson_iter_binary, subtype, dtype, padding and
//    length checked by hand, then one memcpy; the array: bson_iter_recurse over its elements.
//  * memcpy/copy: the ceiling.
// Every row checks its output before timing: encoders write the case's bytes (built by libbson
// and cross-checked against the generated encoder), decoders produce the case's values.

#include <benchmark/benchmark.h>
#include <bson/bson.h>

#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "bsongen/codec.hpp"
#include "bsongen/document.hpp"
#include "bsongen/writer.hpp"
#include "case_registry.hpp"
#include "embedding_1536.bsongen.hpp"
#include "seed_cases.hpp"

namespace bsongen::bench {
namespace {

constexpr std::size_t dimension = 1536;
constexpr std::uint8_t vector_subtype = 0x09;
constexpr std::uint8_t float32_dtype = 0x27;

struct vector_cases {
  bench_vector::embedding_1536 fixed;
  bench_vector::embedding_1536_dynamic dynamic;
  bench_vector::embedding_1536_doubles doubles;
  byte_buffer vector_bytes;  // embedding_1536
  byte_buffer array_bytes;   // embedding_1536_doubles
};

std::vector<std::uint8_t> float32_payload(std::span<const float> values) {
  std::vector<std::uint8_t> out(2 + 4 * values.size());
  out[0] = float32_dtype;
  out[1] = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const auto u = std::bit_cast<std::uint32_t>(values[i]);
    for (int b = 0; b < 4; ++b) out[2 + 4 * i + b] = static_cast<std::uint8_t>(u >> (8 * b));
  }
  return out;
}

byte_buffer copy_of(const bson_t* b) {
  const std::uint8_t* p = bson_get_data(b);
  byte_buffer out;
  out.assign(std::span<const std::uint8_t>(p, b->len));
  return out;
}

void append_scalars(bson_t* b, std::int64_t id, std::int32_t model, double norm,
                    std::int64_t created_ms) {
  bson_append_int64(b, "_id", 3, id);
  bson_append_int32(b, "model", 5, model);
  bson_append_double(b, "norm", 4, norm);
  bson_append_date_time(b, "created", 7, created_ms);
}

// Built once; the bytes come from libbson (an encoder independent of bsongen) and must equal the
// generated encoder's.
const vector_cases& get_vector_cases() {
  static const vector_cases cases = [] {
    vector_cases c;
    std::vector<float> values(dimension);
    double sum = 0;
    for (std::size_t i = 0; i < dimension; ++i) {
      values[i] = static_cast<float>(std::sin(0.37 * static_cast<double>(i)) * 0.05);
      sum += static_cast<double>(values[i]) * static_cast<double>(values[i]);
    }
    const datetime created{std::chrono::milliseconds(1'700'000'000'000)};
    c.fixed.id = c.dynamic.id = c.doubles.id = 42;
    c.fixed.model = c.dynamic.model = c.doubles.model = 3;
    c.fixed.norm = c.dynamic.norm = c.doubles.norm = std::sqrt(sum);
    c.fixed.created = c.dynamic.created = c.doubles.created = created;
    std::copy(values.begin(), values.end(), c.fixed.embedding.begin());
    c.dynamic.embedding = values;
    c.doubles.embedding.assign(values.begin(), values.end());

    const std::int64_t ms = created.time_since_epoch().count();
    bson_t b = BSON_INITIALIZER;
    append_scalars(&b, 42, 3, c.fixed.norm, ms);
    const std::vector<std::uint8_t> payload = float32_payload(values);
    bson_append_binary(&b, "embedding", 9, static_cast<bson_subtype_t>(vector_subtype),
                       payload.data(), static_cast<std::uint32_t>(payload.size()));
    c.vector_bytes = copy_of(&b);
    bson_reinit(&b);
    append_scalars(&b, 42, 3, c.fixed.norm, ms);
    bson_t array;
    bson_append_array_begin(&b, "embedding", 9, &array);
    for (std::uint32_t i = 0; i < dimension; ++i) {
      char text[16];
      const char* key = nullptr;
      const auto n = bson_uint32_to_string(i, &key, text, sizeof text);
      bson_append_double(&array, key, static_cast<int>(n), static_cast<double>(values[i]));
    }
    bson_append_array_end(&b, &array);
    c.array_bytes = copy_of(&b);
    bson_destroy(&b);

    auto generated = [](const auto& v) {
      auto r = encode(v);
      if (!r) fail("embedding_1536", r.error().to_string());
      return std::move(*r);
    };
    check_bytes("embedding_1536 (generated vs libbson)", generated(c.fixed).span(),
                c.vector_bytes.span());
    check_bytes("embedding_1536 (generated_dynamic vs libbson)", generated(c.dynamic).span(),
                c.vector_bytes.span());
    check_bytes("embedding_1536_doubles (generated vs libbson)", generated(c.doubles).span(),
                c.array_bytes.span());
    return c;
  }();
  return cases;
}

template <class Struct>
void check_struct(const std::string& row, const Struct& got, const Struct& expected) {
  if (!(got == expected)) fail(row, "decoded values differ from the case's");
}

template <class Struct>
void register_generated(const std::string& case_name, const std::string& impl, const Struct& value,
                        std::span<const std::uint8_t> bytes) {
  register_row(case_name, impl, "encode",
               [case_name, impl, &value, bytes](benchmark::State& state) {
                 const std::string row = row_name(case_name, impl, "encode");
                 writer w;
                 if (auto r = encode(value, w); !r) fail(row, r.error().to_string());
                 check_bytes(row, w.bytes(), bytes);
                 for (auto _ : state) {
                   w.clear();
                   auto r = encode(value, w);
                   benchmark::DoNotOptimize(r);
                   benchmark::DoNotOptimize(w.data());
                   benchmark::ClobberMemory();
                 }
                 set_document_throughput(state, bytes.size());
               });
  register_row(case_name, impl, "decode",
               [case_name, impl, &value, bytes](benchmark::State& state) {
                 const std::string row = row_name(case_name, impl, "decode");
                 Struct out{};
                 if (auto r = decode(bytes, out); !r) fail(row, r.error().to_string());
                 check_struct(row, out, value);
                 for (auto _ : state) {
                   auto r = decode(bytes, out);
                   benchmark::DoNotOptimize(r);
                   benchmark::DoNotOptimize(out);
                   benchmark::ClobberMemory();
                 }
                 set_document_throughput(state, bytes.size());
               });
}

void register_generic(const std::string& case_name, std::span<const std::uint8_t> bytes) {
  static std::vector<std::unique_ptr<document>> built;
  result<document> parsed = decode_document(bytes);
  if (!parsed) fail(row_name(case_name, "generic", "decode"), parsed.error().to_string());
  built.push_back(std::make_unique<document>(std::move(*parsed)));
  const document& doc = *built.back();
  register_row(case_name, "generic", "encode", [case_name, &doc, bytes](benchmark::State& state) {
    const std::string row = row_name(case_name, "generic", "encode");
    writer w;
    if (!encode_document(doc, w)) fail(row, "encode failed");
    check_bytes(row, w.bytes(), bytes);
    for (auto _ : state) {
      w.clear();
      const result<void> r = encode_document(doc, w);
      benchmark::DoNotOptimize(r);
      benchmark::DoNotOptimize(w.data());
      benchmark::ClobberMemory();
    }
    set_document_throughput(state, bytes.size());
  });
  register_row(case_name, "generic", "decode", [case_name, bytes](benchmark::State& state) {
    const std::string row = row_name(case_name, "generic", "decode");
    result<document> once = decode_document(bytes);
    if (!once) fail(row, once.error().to_string());
    check_bytes(row, encode_document(*once).span(), bytes);  // decoded the case's document
    for (auto _ : state) {
      result<document> r = decode_document(bytes);
      benchmark::DoNotOptimize(r);
      benchmark::ClobberMemory();
    }
    set_document_throughput(state, bytes.size());
  });
}

// ---- libbson ----

bool libbson_encode(bson_t* b, const bench_vector::embedding_1536& v,
                    std::vector<std::uint8_t>& payload) {
  bson_reinit(b);
  append_scalars(b, v.id, v.model, v.norm, v.created.time_since_epoch().count());
  payload.resize(2 + 4 * v.embedding.size());
  payload[0] = float32_dtype;
  payload[1] = 0;
  std::memcpy(payload.data() + 2, v.embedding.data(), 4 * v.embedding.size());  // little-endian
  return bson_append_binary(b, "embedding", 9, static_cast<bson_subtype_t>(vector_subtype),
                            payload.data(), static_cast<std::uint32_t>(payload.size()));
}

bool libbson_encode(bson_t* b, const bench_vector::embedding_1536_doubles& v) {
  bson_reinit(b);
  append_scalars(b, v.id, v.model, v.norm, v.created.time_since_epoch().count());
  bson_t array;
  if (!bson_append_array_begin(b, "embedding", 9, &array)) return false;
  for (std::uint32_t i = 0; i < v.embedding.size(); ++i) {
    char text[16];
    const char* key = nullptr;
    const auto n = bson_uint32_to_string(i, &key, text, sizeof text);
    if (!bson_append_double(&array, key, static_cast<int>(n), v.embedding[i])) return false;
  }
  return bson_append_array_end(b, &array);
}

// The four scalars, in order; false on any other key or type.
bool libbson_scalars(bson_iter_t& it, std::int64_t& id, std::int32_t& model, double& norm,
                     datetime& created) {
  if (!bson_iter_next(&it) || std::strcmp(bson_iter_key(&it), "_id") != 0 ||
      !BSON_ITER_HOLDS_INT64(&it))
    return false;
  id = bson_iter_int64(&it);
  if (!bson_iter_next(&it) || std::strcmp(bson_iter_key(&it), "model") != 0 ||
      !BSON_ITER_HOLDS_INT32(&it))
    return false;
  model = bson_iter_int32(&it);
  if (!bson_iter_next(&it) || std::strcmp(bson_iter_key(&it), "norm") != 0 ||
      !BSON_ITER_HOLDS_DOUBLE(&it))
    return false;
  norm = bson_iter_double(&it);
  if (!bson_iter_next(&it) || std::strcmp(bson_iter_key(&it), "created") != 0 ||
      !BSON_ITER_HOLDS_DATE_TIME(&it))
    return false;
  created = datetime(std::chrono::milliseconds(bson_iter_date_time(&it)));
  return bson_iter_next(&it) && std::strcmp(bson_iter_key(&it), "embedding") == 0;
}

bool libbson_decode(std::span<const std::uint8_t> bytes, bench_vector::embedding_1536& out) {
  bson_t b;
  bson_iter_t it;
  if (!bson_init_static(&b, bytes.data(), bytes.size()) || !bson_iter_init(&it, &b)) return false;
  if (!libbson_scalars(it, out.id, out.model, out.norm, out.created) ||
      !BSON_ITER_HOLDS_BINARY(&it))
    return false;
  bson_subtype_t subtype{};
  std::uint32_t length = 0;
  const std::uint8_t* data = nullptr;
  bson_iter_binary(&it, &subtype, &length, &data);
  if (static_cast<unsigned>(subtype) != vector_subtype || length != 2 + 4 * dimension ||
      data[0] != float32_dtype || data[1] != 0)
    return false;
  std::memcpy(out.embedding.data(), data + 2, 4 * dimension);  // little-endian host
  return !bson_iter_next(&it);
}

bool libbson_decode(std::span<const std::uint8_t> bytes,
                    bench_vector::embedding_1536_doubles& out) {
  bson_t b;
  bson_iter_t it;
  if (!bson_init_static(&b, bytes.data(), bytes.size()) || !bson_iter_init(&it, &b)) return false;
  if (!libbson_scalars(it, out.id, out.model, out.norm, out.created) || !BSON_ITER_HOLDS_ARRAY(&it))
    return false;
  bson_iter_t element;
  if (!bson_iter_recurse(&it, &element)) return false;
  out.embedding.clear();
  while (bson_iter_next(&element)) {
    if (!BSON_ITER_HOLDS_DOUBLE(&element)) return false;
    out.embedding.push_back(bson_iter_double(&element));
  }
  return !bson_iter_next(&it);
}

template <class Struct, class Encode>
void register_libbson(const std::string& case_name, const Struct& value,
                      std::span<const std::uint8_t> bytes, Encode encode_one) {
  register_row(case_name, "libbson", "encode",
               [case_name, &value, bytes, encode_one](benchmark::State& state) {
                 const std::string row = row_name(case_name, "libbson", "encode");
                 bson_t b = BSON_INITIALIZER;
                 if (!encode_one(&b, value)) fail(row, "encode failed");
                 check_bytes(row, {bson_get_data(&b), b.len}, bytes);
                 for (auto _ : state) {
                   const bool ok = encode_one(&b, value);
                   benchmark::DoNotOptimize(ok);
                   benchmark::DoNotOptimize(bson_get_data(&b));
                   benchmark::ClobberMemory();
                 }
                 bson_destroy(&b);
                 set_document_throughput(state, bytes.size());
               });
  register_row(case_name, "libbson", "decode", [case_name, &value, bytes](benchmark::State& state) {
    const std::string row = row_name(case_name, "libbson", "decode");
    Struct out{};
    if (!libbson_decode(bytes, out)) fail(row, "decode failed");
    check_struct(row, out, value);
    for (auto _ : state) {
      const bool ok = libbson_decode(bytes, out);
      benchmark::DoNotOptimize(ok);
      benchmark::DoNotOptimize(out);
      benchmark::ClobberMemory();
    }
    set_document_throughput(state, bytes.size());
  });
}

const bool registered = [] {
  const vector_cases& c = get_vector_cases();
  const std::string vector_case = "embedding_1536";
  const std::string array_case = "embedding_1536_doubles";
  register_case_bytes(vector_case, c.vector_bytes.span());
  register_case_bytes(array_case, c.array_bytes.span());

  register_generated(vector_case, "generated", c.fixed, c.vector_bytes.span());
  register_generated(vector_case, "generated_dynamic", c.dynamic, c.vector_bytes.span());
  register_generic(vector_case, c.vector_bytes.span());
  register_libbson(vector_case, c.fixed, c.vector_bytes.span(),
                   [](bson_t* b, const bench_vector::embedding_1536& v) {
                     thread_local std::vector<std::uint8_t> payload;
                     return libbson_encode(b, v, payload);
                   });
  register_copy_row(vector_case, c.vector_bytes.span());

  register_generated(array_case, "generated", c.doubles, c.array_bytes.span());
  register_generic(array_case, c.array_bytes.span());
  register_libbson(array_case, c.doubles, c.array_bytes.span(),
                   [](bson_t* b, const bench_vector::embedding_1536_doubles& v) {
                     return libbson_encode(b, v);
                   });
  register_copy_row(array_case, c.array_bytes.span());
  return true;
}();

}  // namespace
}  // namespace bsongen::bench
