// `<case>/generated/encode|decode`: bsongen's schema-specific code (bench/schemas/*.yaml, generated
// at build time by bsongen_generate) on the seed cases and the driver benchmark documents, and
// `<case>/generated_view/decode` for the driver documents decoded into structs whose strings are
// std::string_view into the input (bench/schemas/*_view.yaml).
//
// Encode: the struct, built before timing, into one reused bsongen::writer (clear() keeps the
// capacity, so after the first document nothing allocates): exact size, one extend, raw stores.
// Decode: bsongen::decode(bytes, obj) into one reused struct, so owning strings and vectors keep
// their capacity across iterations as a careful user's would (the libbson rows reuse their output
// containers the same way). Decoding validates everything the generic path does, UTF-8 included.
//
// Checks before timing: encode output equals the case's canonical bytes; decoded values equal the
// case's values (seed cases) or re-encode to the document's exact bytes (driver documents).

#include <benchmark/benchmark.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "bench_data.hpp"
#include "bsongen/codec.hpp"
#include "dec128_1.bsongen.hpp"
#include "dec128_1000.bsongen.hpp"
#include "deep_bson.bsongen.hpp"
#include "deep_bson_view.bsongen.hpp"
#include "double_1.bsongen.hpp"
#include "double_1000.bsongen.hpp"
#include "flat_bson.bsongen.hpp"
#include "flat_bson_view.bsongen.hpp"
#include "full_bson.bsongen.hpp"
#include "full_bson_view.bsongen.hpp"
#include "int64_1.bsongen.hpp"
#include "int64_1000.bsongen.hpp"
#include "oid_1.bsongen.hpp"
#include "oid_1000.bsongen.hpp"
#include "oid_string.bsongen.hpp"
#include "seed_cases.hpp"

namespace bsongen::bench {
namespace {

// The struct holding a uniform case's values, member i = values[i] (schema order = key order).
template <class Struct, class T>
Struct from_values(const uniform_case<T>& c) {
  Struct s{};
  std::size_t i = 0;
  codec<Struct>::visit(s, [&](std::string_view key, auto& member) {
    if (i >= c.keys.size() || key != c.keys[i]) fail(c.name, "schema keys differ from the case's");
    if constexpr (std::is_assignable_v<decltype(member), const T&>) member = c.values[i];
    ++i;
  });
  if (i != c.values.size()) fail(c.name, "schema has a different number of fields than the case");
  return s;
}

template <class T, class Struct>
std::vector<T> to_values(const Struct& s) {
  std::vector<T> out;
  codec<Struct>::visit(s, [&](std::string_view, const auto& member) {
    if constexpr (std::is_convertible_v<decltype(member), const T&>) out.push_back(member);
  });
  return out;
}

template <class Struct>
void register_encode(const std::string& name, const Struct& value,
                     std::span<const std::uint8_t> expected) {
  register_row(name, "generated", "encode", [name, value, expected](benchmark::State& state) {
    writer w;
    if (auto r = encode(value, w); !r)
      fail(row_name(name, "generated", "encode"), r.error().to_string());
    check_bytes(row_name(name, "generated", "encode"), w.bytes(), expected);
    for (auto _ : state) {
      w.clear();
      auto r = encode(value, w);
      benchmark::DoNotOptimize(r);
      benchmark::DoNotOptimize(w.data());
      benchmark::ClobberMemory();
    }
    set_document_throughput(state, expected.size());
  });
}

template <class Struct, class Check>
void register_decode(const std::string& name, const char* impl, std::span<const std::uint8_t> bytes,
                     Check check) {
  register_row(name, impl, "decode", [name, impl, bytes, check](benchmark::State& state) {
    Struct out{};
    if (auto r = decode(bytes, out); !r)
      fail(row_name(name, impl, "decode"), r.error().to_string());
    check(row_name(name, impl, "decode"), out);
    for (auto _ : state) {
      auto r = decode(bytes, out);
      benchmark::DoNotOptimize(r);
      benchmark::DoNotOptimize(out);
      benchmark::ClobberMemory();
    }
    set_document_throughput(state, bytes.size());
  });
}

template <class Struct, class T>
void register_uniform(const uniform_case<T>& c) {
  register_encode(c.name, from_values<Struct>(c), c.bytes.span());
  register_decode<Struct>(
      c.name, "generated", c.bytes.span(),
      [&c](const std::string& row, const Struct& s) { check_values(row, to_values<T>(s), c); });
}

// Driver documents: a struct decoded from the document must re-encode to its exact bytes.
template <class Struct>
void register_document(const bench_document& d, const char* impl, bool with_encode) {
  auto round_trips = [&d](const std::string& row, const Struct& s) {
    writer w;
    if (auto r = encode(s, w); !r) fail(row, r.error().to_string());
    check_bytes(row, w.bytes(), d.bytes.span());
  };
  register_decode<Struct>(d.name, impl, d.bytes.span(), round_trips);
  if (with_encode) {
    auto decoded = decode<Struct>(d.bytes.span());
    if (!decoded) fail(row_name(d.name, impl, "encode"), decoded.error().to_string());
    register_encode(d.name, *decoded, d.bytes.span());
  }
}

const bool registered = [] {
  const seed_cases& cases = get_seed_cases();
  register_uniform<seed::double_1>(cases.double_1);
  register_uniform<seed::double_1000>(cases.double_1000);
  register_uniform<seed::int64_1>(cases.int64_1);
  register_uniform<seed::int64_1000>(cases.int64_1000);
  register_uniform<seed::oid_1>(cases.oid_1);
  register_uniform<seed::oid_1000>(cases.oid_1000);
  register_uniform<seed::dec128_1>(cases.dec128_1);
  register_uniform<seed::dec128_1000>(cases.dec128_1000);

  const oid_string_case& os = cases.oid_string;
  register_encode(os.name, seed::oid_string{os.value.oid, os.value.string}, os.bytes.span());
  register_decode<seed::oid_string>(os.name, "generated", os.bytes.span(),
                                    [&os](const std::string& row, const seed::oid_string& s) {
                                      check_values(row, oid_string_document{s.oid, s.string}, os);
                                    });

  for (const bench_document& d : get_bench_documents()) {
    if (d.name == "flat_bson") {
      register_document<::bench::flat_bson>(d, "generated", true);
      register_document<::bench_view::flat_bson>(d, "generated_view", false);
    } else if (d.name == "deep_bson") {
      register_document<::bench::deep_bson>(d, "generated", true);
      register_document<::bench_view::deep_bson>(d, "generated_view", false);
    } else if (d.name == "full_bson") {
      register_document<::bench::full_bson>(d, "generated", true);
      register_document<::bench_view::full_bson>(d, "generated_view", false);
    }
  }
  return true;
}();

}  // namespace
}  // namespace bsongen::bench
