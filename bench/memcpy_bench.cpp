// `<case>/memcpy/copy`: copying a case's encoded bytes into a preallocated buffer. No encoder or
// decoder can move the document's bytes faster, so this row is the ceiling the others are read
// against.

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>

#include "seed_cases.hpp"

namespace bsongen::bench {

void register_copy_row(const std::string& case_name, std::span<const std::uint8_t> bytes) {
  register_row(case_name, "memcpy", "copy", [case_name, bytes](benchmark::State& state) {
    const std::size_t n = bytes.size();
    auto destination = std::make_unique_for_overwrite<std::uint8_t[]>(n);
    std::memcpy(destination.get(), bytes.data(), n);
    check_bytes(row_name(case_name, "memcpy", "copy"), {destination.get(), n}, bytes);
    for (auto _ : state) {
      benchmark::DoNotOptimize(bytes.data());
      std::memcpy(destination.get(), bytes.data(), n);
      // The copy must reach memory each iteration, not be folded into the last one.
      benchmark::DoNotOptimize(destination.get());
      benchmark::ClobberMemory();
    }
    set_document_throughput(state, n);
  });
}

namespace {

const bool registered = [] {
  const seed_cases& cases = get_seed_cases();
  for_each_uniform_case(cases, [](const auto& c) { register_copy_row(c.name, c.bytes.span()); });
  register_copy_row(cases.oid_string.name, cases.oid_string.bytes.span());
  return true;
}();

}  // namespace
}  // namespace bsongen::bench
