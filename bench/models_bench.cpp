// Models users write, beyond the shop order (orders_bench.cpp): cases `telemetry_1`, one device's
// batch of samples (bench/schemas/telemetry.yaml: strings, vector<double>, a labels map, a nested
// struct, a vector of structs with vectors of their own), `event_any_1`, an event record whose
// `payload` is schemaless (bench/schemas/event_any.yaml: one `any` field holding a nested
// document with strings, numbers, an array and a subdocument), `attributes_any_1`, a span's
// attributes whose fields are all `any` but the id (scalars, strings, a small document and an
// array, one value each), and `labels_1000` /
// `labels_pairs_1000`, one resource with 1000 string labels (bench/schemas/labels.yaml), the same
// bytes decoded into a std::map and into a sequence of pairs (its `cpp` spelling): a map's cost
// is mostly its nodes, which only a new struct pays.
//
// Rows, for each case:
//  * generated/encode: the struct, built before timing, into one reused bsongen::writer.
//  * generated/decode: bsongen::decode<T> into a new struct each time, destroyed before the next
//    (every string, vector, map node and `any` value allocated again), as the generic row does with
//    its documents: the figure the issue asks to beat.
//  * generated_reuse/decode: bsongen::decode into one reused struct (containers keep capacity).
//  * generated_arena/decode (telemetry_1, labels_1000): into a new struct of the same schema with
//    `allocator: pmr` (derived by bench/CMakeLists.txt), built on a
//    std::pmr::monotonic_buffer_resource over one buffer reused from decode to decode.
//  * generic/encode, generic/decode: bsongen::encode_document / decode_document of the same bytes.
//  * struct_copy/copy: the case's struct copied into a new one and destroyed, reading no byte: what
//    building a new struct's strings, vectors, map nodes and `any` values costs by itself, the
//    floor under generated/decode (which is about this plus generated_reuse/decode).
//  * memcpy/copy: the ceiling.
// Before timing, each row checks its output: decoded structs equal the case's struct, encoded
// bytes equal the case's bytes, and the generic path reproduces those bytes exactly.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory_resource>
#include <string>
#include <utility>
#include <vector>

#include "bsongen/byte_buffer.hpp"
#include "bsongen/codec.hpp"
#include "bsongen/detail/endian.hpp"
#include "bsongen/document.hpp"
#include "bsongen/writer.hpp"
#include "case_registry.hpp"
#include "event_any.bsongen.hpp"
#include "labels.bsongen.hpp"
#include "labels_arena.bsongen.hpp"
#include "seed_cases.hpp"
#include "telemetry.bsongen.hpp"
#include "telemetry_arena.bsongen.hpp"

namespace bsongen::bench {
namespace {

object_id make_object_id(std::uint32_t seconds, std::uint32_t counter) {
  std::uint8_t bytes[object_id::size] = {0, 0, 0, 0, 0x6E, 0x1F, 0x0B, 0x3A, 0x77, 0, 0, 0};
  detail::store_u32_be(bytes, seconds);
  bytes[9] = static_cast<std::uint8_t>(counter >> 16);
  bytes[10] = static_cast<std::uint8_t>(counter >> 8);
  bytes[11] = static_cast<std::uint8_t>(counter);
  return object_id::from_bytes(bytes);
}

// A gateway's upload: six sensors of 32 samples each, labels, a warning list; strings of the
// lengths such records have (some within std::string's inline buffer, some not).
telemetry::batch make_batch() {
  telemetry::batch b;
  b.id = make_object_id(1'764'547'200U, 4242);
  b.device = "gw-0042.hamburg-harbour.eu-west-1";
  b.firmware = "4.18.2-rc3";
  b.site = "Hamburg harbour, pier 7";
  b.started_at = datetime(std::chrono::milliseconds(1'764'547'200'000LL));
  b.period_ms = 250;
  b.position = {53.5461, 9.9661, 12.5};
  b.labels = {{"fleet", "harbour-cranes"},
              {"owner", "ops-team-north"},
              {"tier", "gold"},
              {"region", "eu-west-1"}};
  static const char* const sensors[][2] = {{"temperature.motor", "degC"},
                                           {"temperature.cab", "degC"},
                                           {"vibration.x", "mm/s"},
                                           {"vibration.y", "mm/s"},
                                           {"load", "t"},
                                           {"wind.speed", "m/s"}};
  int k = 0;
  for (const auto& [sensor, unit] : sensors) {
    telemetry::series s;
    s.sensor = sensor;
    s.unit = unit;
    for (int i = 0; i < 32; ++i)
      s.samples.push_back(20.0 + 0.37 * k + 0.013 * i * i - 0.5 * (i % 3));
    s.flags = {0, 0, 1, 0};
    s.min = s.samples.front();
    s.max = s.samples.back();
    b.series.push_back(std::move(s));
    ++k;
  }
  b.warnings = {"vibration.y above the service threshold for 3 samples", "gps: 4 satellites"};
  b.battery = 0.87;
  b.sequence = 1'234'567'890'123LL;
  return b;
}

// A web shop's click event with its schemaless payload.
events::event make_event() {
  events::event e;
  e.id = make_object_id(1'764'547'200U, 77);
  e.kind = "checkout.payment_submitted";
  e.at = datetime(std::chrono::milliseconds(1'764'547'201'234LL));
  e.source = "web-frontend";
  e.user_id = 9'007'199'254LL;
  array experiments;
  experiments.push_back("new-checkout").push_back("free-shipping-banner").push_back("eu-vat-v2");
  e.payload = value(document{
      {"page", "/checkout/payment"},
      {"referrer", "https://www.example.com/search?q=running+shoes&page=2"},
      {"cart", document{{"items", 3}, {"total", 129.97}, {"currency", "EUR"}, {"coupon", nullptr}}},
      {"experiments", std::move(experiments)},
      {"durationMs", std::int64_t{1834}},
      {"ok", true}});
  e.acknowledged = false;
  return e;
}

// A span's attributes, every one schemaless: numbers, strings (one past std::string's inline
// buffer), a bool, a null, an ObjectId, a small document and an array.
events::attributes make_attributes() {
  events::attributes a;
  a.span_id = 7'340'032'123LL;
  a.status = value(std::int32_t{0});
  a.http_method = value("POST");
  a.http_route = value("/api/v2/orders/{orderId}/payments");
  a.http_status = value(std::int32_t{201});
  a.duration = value(12.625);
  a.sampled = value(true);
  a.parent = value(make_object_id(1'764'547'200U, 99));
  a.db = value(document{{"system", "postgresql"}, {"rows", std::int64_t{3}}});
  array retries;
  retries.push_back(std::int32_t{120}).push_back(std::int32_t{480});
  a.retries = value(std::move(retries));
  a.peer = value("10.0.4.17");
  a.error = value(nullptr);
  return a;
}

// Labels as resource tags and attribute maps hold them: dotted, prefixed keys of 20-40
// characters, values from short words to paths past std::string's inline buffer. Sorted, so the
// std::map and the sequence of pairs encode to the same bytes.
std::vector<std::pair<std::string, std::string>> make_labels(std::size_t count) {
  static constexpr const char* prefixes[] = {"app.kubernetes.io/", "topology.example.com/",
                                             "billing.team/", "release/"};
  static constexpr const char* words[] = {"blue", "frontend", "eu-central-1a",
                                          "s3://assets-prod/cache/v2/manifest.json", "true"};
  std::vector<std::pair<std::string, std::string>> labels;
  for (std::size_t i = 0; i < count; ++i) {
    char key[64];
    std::snprintf(key, sizeof key, "%slabel-%04zu", prefixes[i % 4], i);
    labels.emplace_back(key, words[(i * 7) % 5]);
  }
  std::sort(labels.begin(), labels.end());
  return labels;
}

labels::resource make_resource() {
  labels::resource r;
  r.name = "checkout-service-7d9f";
  for (auto& [key, value] : make_labels(1000)) r.labels.emplace(std::move(key), std::move(value));
  return r;
}

labels::resource_in_order make_resource_in_order() {
  labels::resource_in_order r;
  r.name = "checkout-service-7d9f";
  r.labels = make_labels(1000);
  return r;
}

template <class T>
struct model_case {
  std::string name;
  T model;
  byte_buffer bytes;
};

template <class T>
model_case<T> build_case(std::string name, T model) {
  model_case<T> c{std::move(name), std::move(model), {}};
  writer w;
  if (auto r = encode(c.model, w); !r) fail(c.name, r.error().to_string());
  c.bytes = w.take();
  auto back = decode<T>(c.bytes.span());
  if (!back) fail(c.name, back.error().to_string());
  if (!(*back == c.model)) fail(c.name, "generated decode differs from the encoded model");
  auto generic = decode_document(c.bytes.span());
  if (!generic) fail(c.name, generic.error().to_string());
  check_bytes(c.name + " (generic re-encode)", encode_document(*generic).span(), c.bytes.span());
  return c;
}

template <class T>
void set_throughput(benchmark::State& state, const model_case<T>& c) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(c.bytes.size()));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

// Precondition: `c` lives until the process exits (the cases are function-local statics).
template <class T>
void register_rows(const model_case<T>& c) {
  register_row(c.name, "generated", "encode", [&c](benchmark::State& state) {
    writer w;
    if (auto r = encode(c.model, w); !r) fail(c.name, r.error().to_string());
    check_bytes(row_name(c.name, "generated", "encode"), w.bytes(), c.bytes.span());
    for (auto _ : state) {
      w.clear();
      auto r = encode(c.model, w);
      benchmark::DoNotOptimize(r);
      benchmark::DoNotOptimize(w.data());
      benchmark::ClobberMemory();
    }
    set_throughput(state, c);
  });
  register_row(c.name, "generated", "decode", [&c](benchmark::State& state) {
    auto first = decode<T>(c.bytes.span());
    if (!first || !(*first == c.model)) fail(row_name(c.name, "generated", "decode"), "differs");
    for (auto _ : state) {
      auto r = decode<T>(c.bytes.span());
      benchmark::DoNotOptimize(r);
      benchmark::ClobberMemory();
    }
    set_throughput(state, c);
  });
  register_row(c.name, "generated_reuse", "decode", [&c](benchmark::State& state) {
    T out{};
    if (!decode(c.bytes.span(), out) || !(out == c.model)) {
      fail(row_name(c.name, "generated_reuse", "decode"), "differs");
    }
    for (auto _ : state) {
      auto r = decode(c.bytes.span(), out);
      benchmark::DoNotOptimize(r);
      benchmark::DoNotOptimize(&out);
      benchmark::ClobberMemory();
    }
    set_throughput(state, c);
  });
  register_row(c.name, "generic", "encode", [&c](benchmark::State& state) {
    auto d = decode_document(c.bytes.span());
    if (!d) fail(c.name, d.error().to_string());
    writer w;
    if (auto r = encode_document(*d, w); !r) fail(c.name, r.error().to_string());
    check_bytes(row_name(c.name, "generic", "encode"), w.bytes(), c.bytes.span());
    for (auto _ : state) {
      w.clear();
      auto r = encode_document(*d, w);
      benchmark::DoNotOptimize(r);
      benchmark::DoNotOptimize(w.data());
      benchmark::ClobberMemory();
    }
    set_throughput(state, c);
  });
  register_row(c.name, "generic", "decode", [&c](benchmark::State& state) {
    for (auto _ : state) {
      auto d = decode_document(c.bytes.span());
      benchmark::DoNotOptimize(d);
      benchmark::ClobberMemory();
    }
    set_throughput(state, c);
  });
  // The floor of generated/decode: the same struct built by copying the case's model and destroyed
  // (every string, vector, map node and `any` value allocated and freed as a new struct's are),
  // with no byte read. Decoding into a new struct costs about this plus generated_reuse/decode.
  register_row(c.name, "struct_copy", "copy", [&c](benchmark::State& state) {
    if (T copy = c.model; !(copy == c.model))
      fail(row_name(c.name, "struct_copy", "copy"), "differs");
    for (auto _ : state) {
      T copy = c.model;
      benchmark::DoNotOptimize(copy);
      benchmark::ClobberMemory();
    }
    set_throughput(state, c);
  });
  register_row(c.name, "memcpy", "copy", [&c](benchmark::State& state) {
    std::vector<std::uint8_t> out(c.bytes.size());
    for (auto _ : state) {
      std::memcpy(out.data(), c.bytes.data(), c.bytes.size());
      benchmark::DoNotOptimize(out.data());
      benchmark::ClobberMemory();
    }
    set_throughput(state, c);
  });
}

// The generated_arena row of case `c`: its bytes into a new Arena (T's schema with `allocator:
// pmr`) on a monotonic resource over a buffer that holds everything one decode allocates.
// Precondition: `c` lives until the process exits.
template <class Arena, class T>
void register_arena_row(const model_case<T>& c) {
  register_row(c.name, "generated_arena", "decode", [&c](benchmark::State& state) {
    const std::string row = row_name(c.name, "generated_arena", "decode");
    std::vector<std::byte> buffer(1024 * 1024);
    {
      std::pmr::monotonic_buffer_resource arena(buffer.data(), buffer.size(),
                                                std::pmr::null_memory_resource());
      auto first = decode<Arena>(c.bytes.span(), {.memory = &arena});
      if (!first) fail(row, first.error().to_string());
      auto bytes = encode(*first);
      if (!bytes) fail(row, bytes.error().to_string());
      check_bytes(row, bytes->span(), c.bytes.span());
    }
    for (auto _ : state) {
      std::pmr::monotonic_buffer_resource arena(buffer.data(), buffer.size());
      auto r = decode<Arena>(c.bytes.span(), {.memory = &arena});
      benchmark::DoNotOptimize(r);
      benchmark::ClobberMemory();
    }
    set_throughput(state, c);
  });
}

const bool registered = [] {
  static const model_case<telemetry::batch> telemetry_1 = build_case("telemetry_1", make_batch());
  static const model_case<events::event> event_any_1 = build_case("event_any_1", make_event());
  static const model_case<events::attributes> attributes_any_1 =
      build_case("attributes_any_1", make_attributes());
  static const model_case<labels::resource> labels_1000 =
      build_case("labels_1000", make_resource());
  static const model_case<labels::resource_in_order> labels_pairs_1000 =
      build_case("labels_pairs_1000", make_resource_in_order());
  check_bytes("labels_pairs_1000 (same bytes as labels_1000)", labels_pairs_1000.bytes.span(),
              labels_1000.bytes.span());
  register_case_bytes(telemetry_1.name, telemetry_1.bytes.span());
  register_case_bytes(event_any_1.name, event_any_1.bytes.span());
  register_case_bytes(attributes_any_1.name, attributes_any_1.bytes.span());
  register_case_bytes(labels_1000.name, labels_1000.bytes.span());
  register_rows(telemetry_1);
  register_rows(event_any_1);
  register_rows(attributes_any_1);
  register_rows(labels_1000);
  register_rows(labels_pairs_1000);
  register_arena_row<telemetry_arena::batch>(telemetry_1);
  register_arena_row<labels_arena::resource>(labels_1000);
  return true;
}();

}  // namespace
}  // namespace bsongen::bench
