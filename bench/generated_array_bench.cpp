// `<type>_array_1000/generated/encode|decode`: bsongen's schema-specific code on the array cases
// (`{a: [1000 values]}`, array_cases.hpp), from bench/schemas/<type>_array_1000.yaml (struct with
// one `a: vector<T>` member), generated at build time by bsongen_generate.
//
// Measured as generated_bench.cpp measures the seed cases: encode writes the struct, built before
// timing, into one reused bsongen::writer (clear() keeps the capacity); decode fills one reused
// struct, so the vector (and its strings) keep their capacity across iterations as the libbson
// rows' output vectors do. Kept apart from generated_bench.cpp so the two compile in parallel.
//
// Checks before timing: encode output equals the case's canonical bytes; decoded values equal the
// case's values (check_values: doubles by bits, decimal128 by representation).

#include <benchmark/benchmark.h>

#include <cstdint>
#include <span>
#include <string>

#include "array_cases.hpp"
#include "bool_array_1000.bsongen.hpp"
#include "bsongen/codec.hpp"
#include "datetime_array_1000.bsongen.hpp"
#include "dec128_array_1000.bsongen.hpp"
#include "double_array_1000.bsongen.hpp"
#include "int32_array_1000.bsongen.hpp"
#include "int64_array_1000.bsongen.hpp"
#include "oid_array_1000.bsongen.hpp"
#include "seed_cases.hpp"
#include "string_array_1000.bsongen.hpp"

namespace bsongen::bench {
namespace {

// Precondition: `c` lives until the process exits (get_array_cases() guarantees it).
template <class Struct, class T>
void register_array_case(const array_case<T>& c) {
  register_row(c.name, "generated", "encode", [&c](benchmark::State& state) {
    const std::string row = row_name(c.name, "generated", "encode");
    Struct value{};
    value.a = c.values;
    writer w;
    if (auto r = encode(value, w); !r) fail(row, r.error().to_string());
    check_bytes(row, w.bytes(), c.bytes.span());
    for (auto _ : state) {
      w.clear();
      auto r = encode(value, w);
      benchmark::DoNotOptimize(r);
      benchmark::DoNotOptimize(w.data());
      benchmark::ClobberMemory();
    }
    set_document_throughput(state, c.bytes.size());
  });
  register_row(c.name, "generated", "decode", [&c](benchmark::State& state) {
    const std::string row = row_name(c.name, "generated", "decode");
    const std::span<const std::uint8_t> bytes = c.bytes.span();
    Struct out{};
    if (auto r = decode(bytes, out); !r) fail(row, r.error().to_string());
    check_values(row, out.a, c);
    for (auto _ : state) {
      auto r = decode(bytes, out);
      benchmark::DoNotOptimize(r);
      benchmark::DoNotOptimize(out);
      benchmark::ClobberMemory();
    }
    set_document_throughput(state, bytes.size());
  });
}

const bool registered = [] {
  const array_cases& cases = get_array_cases();
  register_array_case<bench_array::double_array_1000>(cases.double_array);
  register_array_case<bench_array::int64_array_1000>(cases.int64_array);
  register_array_case<bench_array::int32_array_1000>(cases.int32_array);
  register_array_case<bench_array::string_array_1000>(cases.string_array);
  register_array_case<bench_array::oid_array_1000>(cases.oid_array);
  register_array_case<bench_array::dec128_array_1000>(cases.dec128_array);
  register_array_case<bench_array::datetime_array_1000>(cases.datetime_array);
  register_array_case<bench_array::bool_array_1000>(cases.bool_array);
  return true;
}();

}  // namespace
}  // namespace bsongen::bench
