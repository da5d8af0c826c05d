#pragma once

// The MongoDB driver benchmark documents (BSONGEN_BENCH_DATA_DIR/{flat,deep,full}_bson.json) as
// BSON bytes, for bench rows of any implementation.
//
// The files are canonical Extended JSON; their bytes come from libbson's bson_new_from_json, so
// the reference bytes every row is checked against do not depend on bsongen's own parser. A missing
// folder skips these cases with a message naming the path; a folder missing one of the files, or a
// file that does not parse, aborts the run.

#include <string>
#include <vector>

#include "bsongen/byte_buffer.hpp"

namespace bsongen::bench {

struct bench_document {
  std::string name;   // "flat_bson", "deep_bson", "full_bson": the <case> of the rows
  byte_buffer bytes;  // the document's BSON
};

// The three documents, loaded on first use (thread-safe) and registered with the case registry;
// the reference lives until the process exits.
[[nodiscard]] const std::vector<bench_document>& get_bench_documents();

}  // namespace bsongen::bench
