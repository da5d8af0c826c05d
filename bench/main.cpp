// bsongen_bench's entry point: Google Benchmark's, plus --bsongen_write_cases=DIR (see
// case_registry.hpp), which writes every case's bytes for bench/compare and exits. The flag is
// taken out of argv before benchmark::Initialize, which rejects flags it does not know.

#include <benchmark/benchmark.h>

#include "case_registry.hpp"

int main(int argc, char** argv) {
  if (const auto directory = bsongen::bench::take_write_cases_flag(argc, argv)) {
    return bsongen::bench::write_registered_cases(*directory);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
