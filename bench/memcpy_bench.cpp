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

// The destination starts at the same offset within a 64-byte line as the source: a copy between
// buffers whose offsets differ loads across cache lines, which on this project's machine took
// 44 ns for 6 KiB against 29 (bench/README.md, "Binary vectors"), and where the heap put the
// buffer used to decide which of the two the row measured. The ceiling is the better one.
void register_copy_row(const std::string& case_name, std::span<const std::uint8_t> bytes) {
  register_row(case_name, "memcpy", "copy", [case_name, bytes](benchmark::State& state) {
    constexpr std::size_t line = 64;
    const std::size_t n = bytes.size();
    auto buffer = std::make_unique_for_overwrite<std::uint8_t[]>(n + 2 * line);
    const auto line_offset = [](const void* p) {
      return static_cast<std::size_t>(reinterpret_cast<std::uintptr_t>(p) % line);
    };
    std::uint8_t* const destination =
        buffer.get() + (line + line_offset(bytes.data()) - line_offset(buffer.get()));
    std::memcpy(destination, bytes.data(), n);
    check_bytes(row_name(case_name, "memcpy", "copy"), {destination, n}, bytes);
    for (auto _ : state) {
      benchmark::DoNotOptimize(bytes.data());
      std::memcpy(destination, bytes.data(), n);
      // The copy must reach memory each iteration, not be folded into the last one.
      benchmark::DoNotOptimize(destination);
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
