#include "bench_data.hpp"

#include <bson/bson.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "case_registry.hpp"
#include "seed_cases.hpp"

namespace bsongen::bench {
namespace {

bench_document load(const std::string& name) {
  const std::string path = std::string(BSONGEN_BENCH_DATA_DIR) + "/" + name + ".json";
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(name, "cannot read " + path + " (set BSONGEN_BENCH_DATA_DIR)");
  std::stringstream text;
  text << in.rdbuf();
  const std::string json = text.str();
  bson_error_t err;
  bson_t* doc = bson_new_from_json(reinterpret_cast<const std::uint8_t*>(json.data()),
                                   static_cast<ssize_t>(json.size()), &err);
  if (doc == nullptr) fail(name, std::string("libbson cannot parse ") + path + ": " + err.message);
  bench_document out{name, byte_buffer({bson_get_data(doc), doc->len})};
  bson_destroy(doc);
  return out;
}

std::vector<bench_document> load_all() {
  std::vector<bench_document> docs;
  const std::filesystem::path dir(BSONGEN_BENCH_DATA_DIR);
  if (!std::filesystem::is_directory(dir)) {
    std::fprintf(stderr,
                 "bsongen_bench: driver benchmark documents not found at %s (configure with "
                 "-DBSONGEN_BENCH_DATA_DIR=...); skipping flat_bson, deep_bson and full_bson\n",
                 dir.c_str());
    return docs;
  }
  for (const char* name : {"flat_bson", "deep_bson", "full_bson"}) {
    docs.push_back(load(name));
    register_case_bytes(docs.back().name, docs.back().bytes.span());
  }
  return docs;
}

}  // namespace

const std::vector<bench_document>& get_bench_documents() {
  static const std::vector<bench_document> docs = load_all();
  return docs;
}

}  // namespace bsongen::bench
