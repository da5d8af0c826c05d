#pragma once

// The seed benchmark cases (shapes from the js-bson benchmarks) and the small helpers every
// benchmark row shares.
//
// Naming contract: every row is `<case>/<impl>/<op>`, op `encode`, `decode` (or `copy` for the
// memcpy limit), e.g. `double_1000/libbson/decode`. Another bench/*.cpp file adds its rows like so:
//
//   namespace bb = bsongen::bench;
//   const bool registered = [] {
//     const bb::seed_cases& cases = bb::get_seed_cases();
//     bb::for_each_uniform_case(cases, [](const auto& c) {
//       bb::register_row(c.name, "generic", "decode", [&c](benchmark::State& state) {
//         std::vector<...> out = my_decode(c.bytes);               // once, before timing
//         bb::check_values(bb::row_name(c.name, "generic", "decode"), out, c);
//         for (auto _ : state) { ... }
//         bb::set_document_throughput(state, c.bytes.size());
//       });
//     });
//     return true;
//   }();
//
// Every row checks its own output against the case before timing (check_bytes / check_values) and
// aborts the whole run with a message naming the row on a mismatch: a fast wrong answer is not a
// benchmark result.

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bsongen/bson_type.hpp"
#include "bsongen/byte_buffer.hpp"
#include "bsongen/decimal128.hpp"
#include "bsongen/object_id.hpp"

namespace bsongen::bench {

// One document whose fields all have the same BSON type: `{keys[0]: values[0], ...}` in that
// order. The _1 cases have the single key "_id"; the _1000 cases the keys "0".."999".
template <class T>
struct uniform_case {
  std::string name;               // "double_1000"
  bson_type element_type{};       // the type byte every element carries
  std::vector<std::string> keys;  // in document order; decoders match keys against these
  std::vector<T> values;          // values[i] belongs to keys[i]; what decoders must produce
  byte_buffer bytes;              // the canonical encoding: what encoders must produce
};

// The decoded form of the oid_string case.
struct oid_string_document {
  object_id oid;
  std::string string;
  friend bool operator==(const oid_string_document&, const oid_string_document&) = default;
};

// `{oid: <ObjectId>, string: "<text>"}`.
struct oid_string_case {
  std::string name;               // "oid_string"
  std::vector<std::string> keys;  // {"oid", "string"}
  oid_string_document value;
  byte_buffer bytes;
};

struct seed_cases {
  uniform_case<double> double_1;          // {_id: 120.384}
  uniform_case<double> double_1000;       // "0".."999": 120.384 each; 12,895 bytes
  uniform_case<std::int64_t> int64_1;     // {_id: -120}
  uniform_case<std::int64_t> int64_1000;  // "0".."999": -120 each; 12,895 bytes
  uniform_case<object_id> oid_1;          // {_id: ObjectId}
  uniform_case<object_id> oid_1000;       // "0".."999": distinct ObjectIds; 16,895 bytes
  uniform_case<decimal128> dec128_1;      // {_id: Decimal128 120.384}
  uniform_case<decimal128> dec128_1000;   // "0".."999": 120.384, 120.385, ...; 20,895 bytes
  oid_string_case oid_string;             // {oid: ObjectId, string: text}
};

// The cases, built on first use with bsongen::writer and checked once against libbson's encoding
// of the same values (the process aborts with a message on any disagreement). Thread-safe; the
// returned reference lives until the process exits, so rows may capture it.
[[nodiscard]] const seed_cases& get_seed_cases();

// Calls visit(c) for each uniform case, in declaration order (visit must accept every
// uniform_case<T>; a generic lambda does).
template <class Visitor>
void for_each_uniform_case(const seed_cases& cases, Visitor&& visit) {
  visit(cases.double_1);
  visit(cases.double_1000);
  visit(cases.int64_1);
  visit(cases.int64_1000);
  visit(cases.oid_1);
  visit(cases.oid_1000);
  visit(cases.dec128_1);
  visit(cases.dec128_1000);
}

// "<case>/<impl>/<op>".
[[nodiscard]] std::string row_name(std::string_view case_name, std::string_view impl,
                                   std::string_view op);

// Registers the row `<case>/<impl>/<op>` with Google Benchmark. Call at static-initialization time
// or before benchmark::RunSpecifiedBenchmarks.
void register_row(std::string_view case_name, std::string_view impl, std::string_view op,
                  std::function<void(benchmark::State&)> body);

// Registers `<case>/memcpy/copy`: a copy of `bytes` (which must outlive the run), the limit a
// case's encode and decode rows are compared with (memcpy_bench.cpp).
void register_copy_row(const std::string& case_name, std::span<const std::uint8_t> bytes);

// Prints "bsongen_bench: <row>: <why>" to stderr and aborts the process.
[[noreturn]] void fail(std::string_view row, std::string_view why);

// Aborts (via fail) unless `got` equals `expected` byte for byte; the message names the first
// differing offset and the sizes.
void check_bytes(std::string_view row, std::span<const std::uint8_t> got,
                 std::span<const std::uint8_t> expected);

// Abort (via fail) unless the decoded values equal the case's, naming the first differing index.
// Doubles compare by bits, decimal128 by representation.
void check_values(std::string_view row, const std::vector<double>& got,
                  const uniform_case<double>& expected);
void check_values(std::string_view row, const std::vector<std::int64_t>& got,
                  const uniform_case<std::int64_t>& expected);
void check_values(std::string_view row, const std::vector<object_id>& got,
                  const uniform_case<object_id>& expected);
void check_values(std::string_view row, const std::vector<decimal128>& got,
                  const uniform_case<decimal128>& expected);
void check_values(std::string_view row, const oid_string_document& got,
                  const oid_string_case& expected);

// Reports one document of `document_bytes` per iteration: bytes/s and items/s (= documents/s).
// Call after the timing loop.
void set_document_throughput(benchmark::State& state, std::size_t document_bytes);

}  // namespace bsongen::bench
