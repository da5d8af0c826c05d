#pragma once

// The js-bson "granular" array shapes: `{a: [1000 values]}` of one BSON type each, as
// bsongen_bench cases `<type>_array_1000` with memcpy and libbson rows (array_cases.cpp).
//
// Another bench/*.cpp file adds rows for them as for the seed cases (see seed_cases.hpp):
//
//   namespace bb = bsongen::bench;
//   const bool registered = [] {
//     bb::for_each_array_case(bb::get_array_cases(), [](const auto& c) {
//       bb::register_row(c.name, "generated", "decode", [&c](benchmark::State& state) {
//         auto out = my_decode(c.bytes);                            // once, before timing
//         bb::check_values(bb::row_name(c.name, "generated", "decode"), out.a, c);
//         for (auto _ : state) { ... }
//         bb::set_document_throughput(state, c.bytes.size());
//       });
//     });
//     return true;
//   }();

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bsongen/bson_type.hpp"
#include "bsongen/byte_buffer.hpp"
#include "bsongen/decimal128.hpp"
#include "bsongen/object_id.hpp"
#include "bsongen/types.hpp"

namespace bsongen::bench {

// `{key: [values[0], values[1], ...]}`; array element keys are "0", "1", ... as BSON requires.
template <class T>
struct array_case {
  std::string name;          // "double_array_1000"
  bson_type element_type{};  // the type byte every array element carries
  std::string key;           // "a"
  std::vector<T> values;     // what decoders must produce, in order
  byte_buffer bytes;         // the canonical encoding: what encoders must produce
};

struct array_cases {
  array_case<double> double_array;       // 120.384, 120.884, ... (step 0.5)
  array_case<std::int64_t> int64_array;  // values spanning far beyond 32 bits, both signs
  array_case<std::int32_t> int32_array;  // -1,000,000, -997,853, ... (step 2,147)
  array_case<std::string> string_array;  // "value 0000 of the string array", ... (30 bytes)
  array_case<object_id> oid_array;       // distinct ObjectIds of one process burst
  array_case<decimal128> dec128_array;   // 120.384, 120.385, ...
  array_case<datetime> datetime_array;   // 2023-11-14T22:13:20Z plus i days
  array_case<bool> bool_array;           // i % 3 != 0
};

// Built on first use with bsongen::writer, checked once against libbson's encoding of the same
// values (the process aborts with a message on any disagreement) and registered with the case
// registry. Thread-safe; the reference lives until the process exits, so rows may capture it.
[[nodiscard]] const array_cases& get_array_cases();

// Calls visit(c) for each array case in declaration order (a generic lambda accepts them all).
template <class Visitor>
void for_each_array_case(const array_cases& cases, Visitor&& visit) {
  visit(cases.double_array);
  visit(cases.int64_array);
  visit(cases.int32_array);
  visit(cases.string_array);
  visit(cases.oid_array);
  visit(cases.dec128_array);
  visit(cases.datetime_array);
  visit(cases.bool_array);
}

// Abort (via fail in seed_cases.hpp) unless the decoded values equal the case's, naming the first
// differing index. Doubles compare by bits, decimal128 by representation.
void check_values(std::string_view row, const std::vector<double>& got,
                  const array_case<double>& expected);
void check_values(std::string_view row, const std::vector<std::int64_t>& got,
                  const array_case<std::int64_t>& expected);
void check_values(std::string_view row, const std::vector<std::int32_t>& got,
                  const array_case<std::int32_t>& expected);
void check_values(std::string_view row, const std::vector<std::string>& got,
                  const array_case<std::string>& expected);
void check_values(std::string_view row, const std::vector<object_id>& got,
                  const array_case<object_id>& expected);
void check_values(std::string_view row, const std::vector<decimal128>& got,
                  const array_case<decimal128>& expected);
void check_values(std::string_view row, const std::vector<datetime>& got,
                  const array_case<datetime>& expected);
void check_values(std::string_view row, const std::vector<bool>& got,
                  const array_case<bool>& expected);

}  // namespace bsongen::bench
