#include "bench_data.hpp"

#include <bson/bson.h>

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
