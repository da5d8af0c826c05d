// BSON binary vectors (subtype 9) against the same values as a BSON array of doubles: issue 32's
// cases (bench/schemas/embedding_1536.yaml).
//  * `embedding_1536`: {_id: ObjectId, text: a 200-byte passage, embedding: its 1536 float32
//    values as a binary vector} (6,395 bytes).
//  * `embedding_1536_array`: the same document with `embedding` a BSON array of the same 1536
//    values as doubles (20,643 bytes): what an application without vector support stores.
//
// Rows, for both cases unless said:
//  * generated/encode: the struct, built before timing, into one reused bsongen::writer.
//  * generated/decode: bsongen::decode<T> into a new struct each time, destroyed before the next
//    (the text and the elements allocated again), as the other application models' rows.
//  * generated_reuse/decode: bsongen::decode into one reused struct (the string and the vector
//    keep their capacity): for a float32 vector, a bounds check, the 2-byte header and a memcpy.
//  * generated_fixed/encode|decode (embedding_1536): the same bytes through the fixed-dimension
//    form, binary_vector<float32, 1536> (std::array<float, 1536>), decode into a new struct as
//    generated/decode does (the text is allocated, the elements live in the struct).
//  * generic/encode: a bsongen::document decoded before timing, into a reused writer;
//    generic/decode: decode_document into a new document each time (the vector is a
//    bsongen::binary of subtype 9 there: its payload is copied, not interpreted).
//  * libbson/encode: one bson_t, bson_reinit per document. The vector: libbson 1.23 (Debian 12)
//    has no vector API (bson_append_vector_* came with 1.29), so the payload (dtype 0x27,
//    padding 0, little-endian floats) is built in a reused buffer and appended with
//    bson_append_binary, as a user of that version writes it. The array: bson_append_array_begin,
//    bson_append_double per element with keys from bson_uint32_to_string, bson_append_array_end.
//  * libbson/decode: bson_iter over the elements, each key compared and type checked, values
//    stored into a reused struct. The vector: bson_iter_binary, then subtype, dtype, padding and
//    length checked by hand and one memcpy; the array: bson_iter_recurse over its elements.
//  * memcpy/copy (memcpy_bench.cpp's register_copy_row): the ceiling.
// Every row checks its output before timing: encoders write the case's bytes (built by libbson
// and cross-checked against the generated encoders), decoders produce the case's values.

#include <benchmark/benchmark.h>
#include <bson/bson.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>
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

constexpr std::string_view passage =
    "Vector search keeps each passage beside its embedding. A binary vector stores the floats as "
    "one run of little-endian bytes after a two-byte header; an array spends a type byte and a "
    "key on each value.";
static_assert(passage.size() == 200);

struct vector_cases {
  bench_vector::embedding_1536 vector;       // embedding_1536
  bench_vector::embedding_1536_fixed fixed;  // embedding_1536, fixed dimension
  bench_vector::embedding_1536_array array;  // embedding_1536_array
  byte_buffer vector_bytes;
  byte_buffer array_bytes;
};

byte_buffer copy_of(const bson_t* b) {
  byte_buffer out;
  out.assign(std::span<const std::uint8_t>(bson_get_data(b), b->len));
  return out;
}

bson_oid_t to_libbson(const object_id& id) {
  bson_oid_t oid;
  std::memcpy(oid.bytes, id.data(), object_id::size);
  return oid;
}

bool append_id_and_text(bson_t* b, const object_id& id, const std::string& text) {
  const bson_oid_t oid = to_libbson(id);
  return bson_append_oid(b, "_id", 3, &oid) &&
         bson_append_utf8(b, "text", 4, text.data(), static_cast<int>(text.size()));
}

// The vector's payload (dtype, padding, little-endian floats) into `payload`, reused.
void float32_payload(std::span<const float> values, std::vector<std::uint8_t>& payload) {
  payload.resize(2 + 4 * values.size());
  payload[0] = float32_dtype;
  payload[1] = 0;
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(payload.data() + 2, values.data(), 4 * values.size());
  } else {
    for (std::size_t i = 0; i < values.size(); ++i) {
      const auto u = std::bit_cast<std::uint32_t>(values[i]);
      for (std::size_t k = 0; k < 4; ++k) {
        payload[2 + 4 * i + k] = static_cast<std::uint8_t>(u >> (8 * k));
      }
    }
  }
}

bool libbson_encode(bson_t* b, const bench_vector::embedding_1536& v,
                    std::vector<std::uint8_t>& payload) {
  bson_reinit(b);
  float32_payload(v.embedding, payload);
  return append_id_and_text(b, v.id, v.text) &&
         bson_append_binary(b, "embedding", 9, static_cast<bson_subtype_t>(vector_subtype),
                            payload.data(), static_cast<std::uint32_t>(payload.size()));
}

bool libbson_encode(bson_t* b, const bench_vector::embedding_1536_array& v) {
  bson_reinit(b);
  if (!append_id_and_text(b, v.id, v.text)) return false;
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

// Built once. The bytes come from libbson (an encoder independent of bsongen) and must equal the
// generated encoders'.
const vector_cases& get_vector_cases() {
  static const vector_cases cases = [] {
    vector_cases c;
    std::vector<float> values(dimension);
    for (std::size_t i = 0; i < dimension; ++i) {
      // Within (-0.05, 0.05) and never 0, so no value is an integer (js-bson writes a plain
      // number that is one as an int32: bench/js/bench_case.js holds arrays of doubles as plain
      // numbers).
      values[i] = static_cast<float>(std::sin(0.37 * static_cast<double>(i) + 0.1) * 0.05);
    }
    const std::uint8_t id_bytes[object_id::size] = {0x65, 0x5F, 0x3A, 0x00, 0x6E, 0x1F,
                                                    0x0B, 0x3A, 0x77, 0x0A, 0x00, 0x2A};
    c.vector.id = c.fixed.id = c.array.id = object_id::from_bytes(id_bytes);
    c.vector.text = c.fixed.text = c.array.text = std::string(passage);
    c.vector.embedding = values;
    std::copy(values.begin(), values.end(), c.fixed.embedding.begin());
    c.array.embedding.assign(values.begin(), values.end());

    bson_t b = BSON_INITIALIZER;
    std::vector<std::uint8_t> payload;
    if (!libbson_encode(&b, c.vector, payload)) fail("embedding_1536", "libbson encode failed");
    c.vector_bytes = copy_of(&b);
    if (!libbson_encode(&b, c.array)) fail("embedding_1536_array", "libbson encode failed");
    c.array_bytes = copy_of(&b);
    bson_destroy(&b);
    if (c.vector_bytes.size() != 6395 || c.array_bytes.size() != 20643) {
      fail("embedding_1536", "the cases are not the documented sizes (6,395 and 20,643 bytes)");
    }

    auto generated = [](const auto& v) {
      auto r = encode(v);
      if (!r) fail("embedding_1536", r.error().to_string());
      return std::move(*r);
    };
    check_bytes("embedding_1536 (generated vs libbson)", generated(c.vector).span(),
                c.vector_bytes.span());
    check_bytes("embedding_1536 (generated_fixed vs libbson)", generated(c.fixed).span(),
                c.vector_bytes.span());
    check_bytes("embedding_1536_array (generated vs libbson)", generated(c.array).span(),
                c.array_bytes.span());
    return c;
  }();
  return cases;
}

template <class Struct>
void check_struct(const std::string& row, const Struct& got, const Struct& expected) {
  if (!(got == expected)) fail(row, "decoded values differ from the case's");
}

// generated/encode and generated/decode (a new struct each time) under `impl`; with
// `reuse_row`, generated_reuse/decode too.
template <class Struct>
void register_generated(const std::string& case_name, const std::string& impl, const Struct& value,
                        std::span<const std::uint8_t> bytes, bool reuse_row) {
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
                 auto first = decode<Struct>(bytes);
                 if (!first) fail(row, first.error().to_string());
                 check_struct(row, *first, value);
                 for (auto _ : state) {
                   auto r = decode<Struct>(bytes);
                   benchmark::DoNotOptimize(r);
                   benchmark::ClobberMemory();
                 }
                 set_document_throughput(state, bytes.size());
               });
  if (!reuse_row) return;
  register_row(case_name, "generated_reuse", "decode",
               [case_name, &value, bytes](benchmark::State& state) {
                 const std::string row = row_name(case_name, "generated_reuse", "decode");
                 Struct out{};
                 if (auto r = decode(bytes, out); !r) fail(row, r.error().to_string());
                 check_struct(row, out, value);
                 for (auto _ : state) {
                   auto r = decode(bytes, out);
                   benchmark::DoNotOptimize(r);
                   benchmark::DoNotOptimize(&out);
                   benchmark::ClobberMemory();
                 }
                 set_document_throughput(state, bytes.size());
               });
}

void register_generic(const std::string& case_name, std::span<const std::uint8_t> bytes) {
  register_row(case_name, "generic", "encode", [case_name, bytes](benchmark::State& state) {
    const std::string row = row_name(case_name, "generic", "encode");
    result<document> doc = decode_document(bytes);
    if (!doc) fail(row, doc.error().to_string());
    writer w;
    if (!encode_document(*doc, w)) fail(row, "encode failed");
    check_bytes(row, w.bytes(), bytes);
    for (auto _ : state) {
      w.clear();
      const result<void> r = encode_document(*doc, w);
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

// ---- libbson decode ----

// _id and text, in order; then positions `it` on the next element, which must be `embedding`.
bool libbson_id_and_text(bson_iter_t& it, object_id& id, std::string& text) {
  if (!bson_iter_next(&it) || std::strcmp(bson_iter_key(&it), "_id") != 0 ||
      !BSON_ITER_HOLDS_OID(&it))
    return false;
  id = object_id::from_bytes(bson_iter_oid(&it)->bytes);
  if (!bson_iter_next(&it) || std::strcmp(bson_iter_key(&it), "text") != 0 ||
      !BSON_ITER_HOLDS_UTF8(&it))
    return false;
  std::uint32_t length = 0;
  const char* utf8 = bson_iter_utf8(&it, &length);
  text.assign(utf8, length);
  return bson_iter_next(&it) && std::strcmp(bson_iter_key(&it), "embedding") == 0;
}

bool libbson_decode(std::span<const std::uint8_t> bytes, bench_vector::embedding_1536& out) {
  bson_t b;
  bson_iter_t it;
  if (!bson_init_static(&b, bytes.data(), bytes.size()) || !bson_iter_init(&it, &b)) return false;
  if (!libbson_id_and_text(it, out.id, out.text) || !BSON_ITER_HOLDS_BINARY(&it)) return false;
  bson_subtype_t subtype{};
  std::uint32_t length = 0;
  const std::uint8_t* data = nullptr;
  bson_iter_binary(&it, &subtype, &length, &data);
  if (static_cast<unsigned>(subtype) != vector_subtype || length < 2 || (length - 2) % 4 != 0 ||
      data[0] != float32_dtype || data[1] != 0)
    return false;
  out.embedding.resize((length - 2) / 4);
  if constexpr (std::endian::native == std::endian::little) {
    std::memcpy(out.embedding.data(), data + 2, length - 2);
  } else {
    for (std::size_t i = 0; i < out.embedding.size(); ++i) {
      std::uint32_t u = 0;
      for (std::size_t k = 0; k < 4; ++k) u |= std::uint32_t{data[2 + 4 * i + k]} << (8 * k);
      out.embedding[i] = std::bit_cast<float>(u);
    }
  }
  return !bson_iter_next(&it);
}

bool libbson_decode(std::span<const std::uint8_t> bytes, bench_vector::embedding_1536_array& out) {
  bson_t b;
  bson_iter_t it;
  if (!bson_init_static(&b, bytes.data(), bytes.size()) || !bson_iter_init(&it, &b)) return false;
  if (!libbson_id_and_text(it, out.id, out.text) || !BSON_ITER_HOLDS_ARRAY(&it)) return false;
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
      benchmark::DoNotOptimize(&out);
      benchmark::ClobberMemory();
    }
    set_document_throughput(state, bytes.size());
  });
}

const bool registered = [] {
  const vector_cases& c = get_vector_cases();
  const std::string vector_case = "embedding_1536";
  const std::string array_case = "embedding_1536_array";
  register_case_bytes(vector_case, c.vector_bytes.span());
  register_case_bytes(array_case, c.array_bytes.span());

  register_generated(vector_case, "generated", c.vector, c.vector_bytes.span(), true);
  register_generated(vector_case, "generated_fixed", c.fixed, c.vector_bytes.span(), false);
  register_generic(vector_case, c.vector_bytes.span());
  register_libbson(vector_case, c.vector, c.vector_bytes.span(),
                   [](bson_t* b, const bench_vector::embedding_1536& v) {
                     thread_local std::vector<std::uint8_t> payload;
                     return libbson_encode(b, v, payload);
                   });
  register_copy_row(vector_case, c.vector_bytes.span());

  register_generated(array_case, "generated", c.array, c.array_bytes.span(), true);
  register_generic(array_case, c.array_bytes.span());
  register_libbson(
      array_case, c.array, c.array_bytes.span(),
      [](bson_t* b, const bench_vector::embedding_1536_array& v) { return libbson_encode(b, v); });
  register_copy_row(array_case, c.array_bytes.span());
  return true;
}();

}  // namespace
}  // namespace bsongen::bench
