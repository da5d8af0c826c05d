// Projections: a few fields read out of a whole document (bench/README.md, "Projections").
//
// Cases, each the bytes of another case read as a projection:
//  * order_summary_1: order_1's document (orders_bench.cpp) into shop::order_summary
//    (schemas/orders.yaml: _id, status, customer.name, total: four of the order's fields, one
//    nested);
//  * flat_projection: flat_bson's document into bench::flat_projection (bench/schemas/
//    flat_bson.yaml: five of its 145 fields, spread over it).
// Rows, each producing the projection's values, checked against the source struct's before timing:
//  * generated/decode: bsongen::decode into a reused projection struct, every skipped element
//    validated (the default);
//  * generated_trusted/decode: the same with decode_options::validate_skipped = false: skipped
//    elements stepped over by their length prefixes (input validated elsewhere, as a server's);
//  * generated_full/decode: bsongen::decode of the whole document into a reused source struct;
//  * generic/decode: decode_document of the whole document, then its kept values read out;
//  * libbson/decode: bson_iter_init_find per kept key (bson_iter_find_descendant for a dotted
//    path) on the document, libbson's idiomatic way to read a few fields, values copied out;
//  * memcpy/copy: the ceiling.
// The cases are registered with the case registry, so bench/compare times js-bson (deserialize of
// the whole document, what its users do) and pymongo on the same bytes.

#include "projection_bench.hpp"

#include <benchmark/benchmark.h>
#include <bson/bson.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "bench_data.hpp"
#include "bsongen/codec.hpp"
#include "bsongen/document.hpp"
#include "case_registry.hpp"
#include "flat_bson.bsongen.hpp"
#include "orders.bsongen.hpp"
#include "seed_cases.hpp"

namespace bsongen::bench {
namespace {

// Every row of a projection case. `project` makes the projection's values from the source
// struct's (what every row must produce); `from_generic` and `from_libbson` read them from the
// whole document their way, returning false on a missing or mistyped field.
template <class Projection, class Source, class Project, class FromGeneric, class FromLibbson>
void register_projection_rows(const std::string& name, std::span<const std::uint8_t> bytes,
                              Project project, FromGeneric from_generic, FromLibbson from_libbson) {
  register_case_bytes(name, bytes);
  Source source{};
  if (auto r = decode(bytes, source); !r) fail(name, r.error().to_string());
  const Projection expected = project(source);
  auto decode_row = [name, bytes, expected](const char* impl, decode_options options) {
    register_row(name, impl, "decode", [=](benchmark::State& state) {
      Projection out{};
      if (auto r = decode(bytes, out, options); !r)
        fail(row_name(name, impl, "decode"), r.error().to_string());
      if (!(out == expected))
        fail(row_name(name, impl, "decode"), "differs from the source's fields");
      for (auto _ : state) {
        auto r = decode(bytes, out, options);
        benchmark::DoNotOptimize(r);
        benchmark::DoNotOptimize(&out);
        benchmark::ClobberMemory();
      }
      set_document_throughput(state, bytes.size());
    });
  };
  decode_row("generated", {});
  decode_row("generated_trusted", {.validate_skipped = false});
  register_row(name, "generated_full", "decode", [=](benchmark::State& state) {
    Source out{};
    if (auto r = decode(bytes, out); !r)
      fail(row_name(name, "generated_full", "decode"), r.error().to_string());
    if (!(project(out) == expected)) fail(row_name(name, "generated_full", "decode"), "differs");
    for (auto _ : state) {
      auto r = decode(bytes, out);
      benchmark::DoNotOptimize(r);
      benchmark::DoNotOptimize(&out);
      benchmark::ClobberMemory();
    }
    set_document_throughput(state, bytes.size());
  });
  register_row(name, "generic", "decode", [=](benchmark::State& state) {
    Projection out{};
    auto read = [&] {
      auto d = decode_document(bytes);
      return d && from_generic(*d, out);
    };
    if (!read() || !(out == expected)) fail(row_name(name, "generic", "decode"), "differs");
    for (auto _ : state) {
      bool ok = read();
      benchmark::DoNotOptimize(ok);
      benchmark::DoNotOptimize(&out);
      benchmark::ClobberMemory();
    }
    set_document_throughput(state, bytes.size());
  });
  register_row(name, "libbson", "decode", [=](benchmark::State& state) {
    Projection out{};
    if (!from_libbson(bytes, out) || !(out == expected)) {
      fail(row_name(name, "libbson", "decode"), "differs");
    }
    for (auto _ : state) {
      bool ok = from_libbson(bytes, out);
      benchmark::DoNotOptimize(ok);
      benchmark::DoNotOptimize(&out);
      benchmark::ClobberMemory();
    }
    set_document_throughput(state, bytes.size());
  });
  register_copy_row(name, bytes);
}

// --- libbson: one bson_iter_init_find (or find_descendant) per kept key. ---

bool find(const bson_t* doc, const char* path, bson_iter_t& it) {
  bson_iter_t top;
  if (std::strchr(path, '.') == nullptr) return bson_iter_init_find(&it, doc, path);
  return bson_iter_init(&top, doc) && bson_iter_find_descendant(&top, path, &it);
}

bool read(const bson_t* doc, const char* path, double& out) {
  bson_iter_t it;
  if (!find(doc, path, it) || !BSON_ITER_HOLDS_DOUBLE(&it)) return false;
  out = bson_iter_double(&it);
  return true;
}

bool read(const bson_t* doc, const char* path, bool& out) {
  bson_iter_t it;
  if (!find(doc, path, it) || !BSON_ITER_HOLDS_BOOL(&it)) return false;
  out = bson_iter_bool(&it);
  return true;
}

bool read(const bson_t* doc, const char* path, std::string& out) {
  bson_iter_t it;
  if (!find(doc, path, it) || !BSON_ITER_HOLDS_UTF8(&it)) return false;
  std::uint32_t length = 0;
  const char* text = bson_iter_utf8(&it, &length);
  out.assign(text, length);
  return true;
}

bool read(const bson_t* doc, const char* path, object_id& out) {
  bson_iter_t it;
  if (!find(doc, path, it) || !BSON_ITER_HOLDS_OID(&it)) return false;
  out = object_id::from_bytes(bson_iter_oid(&it)->bytes);
  return true;
}

bool read(const bson_t* doc, const char* path, decimal128& out) {
  bson_iter_t it;
  bson_decimal128_t value;
  if (!find(doc, path, it) || !BSON_ITER_HOLDS_DECIMAL128(&it) ||
      !bson_iter_decimal128(&it, &value)) {
    return false;
  }
  out = decimal128(value.high, value.low);
  return true;
}

bool read(const bson_t* doc, const char* path, shop::order_status& out) {
  std::string name;
  if (!read(doc, path, name)) return false;
  static constexpr std::pair<std::string_view, shop::order_status> names[] = {
      {"pending", shop::order_status::pending},
      {"paid", shop::order_status::paid},
      {"shipped", shop::order_status::shipped},
      {"delivered", shop::order_status::delivered},
      {"canceled", shop::order_status::cancelled}};
  for (const auto& [stored, status] : names) {
    if (name == stored) {
      out = status;
      return true;
    }
  }
  return false;
}

// The bytes as a bson_t without copying them (bson_init_static checks only the outer framing).
template <class Read>
bool with_bson(std::span<const std::uint8_t> bytes, Read read_fields) {
  bson_t doc;
  return bson_init_static(&doc, bytes.data(), bytes.size()) && read_fields(&doc);
}

// --- The generic path: the whole document, then the kept values. ---

template <class T, class Get>
bool get(value_ref v, bson_type type, T& out, Get value_of) {
  if (!v.is(type)) return false;
  out = value_of(v);
  return true;
}

const bool flat_registered = [] {
  for (const bench_document& d : get_bench_documents()) {
    if (d.name != "flat_bson") continue;
    register_projection_rows<::bench::flat_projection, ::bench::flat_bson>(
        "flat_projection", d.bytes.span(),
        [](const ::bench::flat_bson& s) {
          return ::bench::flat_projection{s.pfZSRHnn, s.VcCSqSmp, s.JzgaUWVG, s.yXSBbPeT, s._id};
        },
        [](document_ref doc, ::bench::flat_projection& out) {
          return get(doc["pfZSRHnn"], bson_type::double_, out.pfZSRHnn,
                     [](value_ref v) { return v.as_double(); }) &&
                 get(doc["VcCSqSmp"], bson_type::boolean, out.VcCSqSmp,
                     [](value_ref v) { return v.as_bool(); }) &&
                 get(doc["JzgaUWVG"], bson_type::double_, out.JzgaUWVG,
                     [](value_ref v) { return v.as_double(); }) &&
                 get(doc["yXSBbPeT"], bson_type::string, out.yXSBbPeT,
                     [](value_ref v) { return std::string(v.as_string()); }) &&
                 get(doc["_id"], bson_type::object_id, out._id,
                     [](value_ref v) { return v.as_object_id(); });
        },
        [](std::span<const std::uint8_t> bytes, ::bench::flat_projection& out) {
          return with_bson(bytes, [&](const bson_t* doc) {
            return read(doc, "pfZSRHnn", out.pfZSRHnn) && read(doc, "VcCSqSmp", out.VcCSqSmp) &&
                   read(doc, "JzgaUWVG", out.JzgaUWVG) && read(doc, "yXSBbPeT", out.yXSBbPeT) &&
                   read(doc, "_id", out._id);
          });
        });
  }
  return true;
}();

}  // namespace

void register_order_summary_rows(std::span<const std::uint8_t> order_bytes) {
  register_projection_rows<shop::order_summary, shop::order>(
      "order_summary_1", order_bytes,
      [](const shop::order& o) {
        return shop::order_summary{o.id, o.status, {o.customer.name}, o.total};
      },
      [](document_ref doc, shop::order_summary& out) {
        static constexpr std::pair<std::string_view, shop::order_status> names[] = {
            {"pending", shop::order_status::pending},
            {"paid", shop::order_status::paid},
            {"shipped", shop::order_status::shipped},
            {"delivered", shop::order_status::delivered},
            {"canceled", shop::order_status::cancelled}};
        const value_ref status = doc["status"];
        if (!status.is(bson_type::string)) return false;
        bool named = false;
        for (const auto& [stored, value] : names) {
          if (status.as_string() == stored) {
            out.status = value;
            named = true;
          }
        }
        const value_ref customer = doc["customer"];
        return named && customer.is(bson_type::document) &&
               get(doc["_id"], bson_type::object_id, out.id,
                   [](value_ref v) { return v.as_object_id(); }) &&
               get(customer.as_document()["name"], bson_type::string, out.customer.name,
                   [](value_ref v) { return std::string(v.as_string()); }) &&
               get(doc["total"], bson_type::decimal128, out.total,
                   [](value_ref v) { return v.as_decimal128(); });
      },
      [](std::span<const std::uint8_t> bytes, shop::order_summary& out) {
        return with_bson(bytes, [&](const bson_t* doc) {
          return read(doc, "_id", out.id) && read(doc, "status", out.status) &&
                 read(doc, "customer.name", out.customer.name) && read(doc, "total", out.total);
        });
      });
}

}  // namespace bsongen::bench
