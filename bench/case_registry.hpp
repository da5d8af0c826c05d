#pragma once

// The case registry: every benchmark case's exact encoded bytes, by case name, so tools outside
// this process (bench/compare, which runs js-bson and pymongo on the same documents) can read
// them.
//
//   bsongen_bench --bsongen_write_cases=DIR
//
// writes DIR/<case>.bson (the exact bytes every row of that case encodes to or decodes from) and
// DIR/<case>.json (libbson's canonical Extended JSON of the same document) for every registered
// case, then exits without running a benchmark.
//
// A file that defines cases registers each one once, next to where it builds them:
//
//   const bool cases_registered = [] {
//     for (const auto& c : get_my_cases()) bb::register_case_bytes(c.name, c.bytes.span());
//     return true;
//   }();
//
// Registration may happen at static-initialization time in any translation unit (the registry is
// built on first use). A case without registered bytes still runs in bsongen_bench; bench/compare
// lists it as having no bytes and shows "-" for the implementations outside this process.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bsongen/byte_buffer.hpp"

namespace bsongen::bench {

struct registered_case {
  std::string name;   // the <case> part of the row names, e.g. "double_1000"
  byte_buffer bytes;  // a copy of the canonical encoding
};

// Records a copy of `bytes` as case `name`. The name becomes a file name, so it must be non-empty
// and hold only [A-Za-z0-9_.-]; registering a name again with the same bytes does nothing, with
// different bytes aborts the process with a message (two sources disagree about one case).
void register_case_bytes(std::string_view name, std::span<const std::uint8_t> bytes);

// Every registered case, sorted by name.
[[nodiscard]] std::vector<registered_case> registered_cases();

// When argv holds `--bsongen_write_cases=DIR`, removes it (shifting the rest down and updating
// argc, so benchmark::Initialize never sees it) and returns DIR; otherwise returns nullopt.
[[nodiscard]] std::optional<std::string> take_write_cases_flag(int& argc, char** argv);

// Creates `directory` if needed and writes <case>.bson and <case>.json for every registered case,
// printing one line per case to stdout. Returns the process exit code: 0, or 1 after printing to
// stderr why a case could not be written (unwritable folder, bytes libbson rejects).
[[nodiscard]] int write_registered_cases(const std::string& directory);

}  // namespace bsongen::bench
