// The README's generic-path and Extended JSON snippets, compiled and run so they cannot rot
// (simdjson's ondemand_readme_examples.cpp habit). Keep each block identical to the README's.
#include <gtest/gtest.h>

#include <iostream>
#include <sstream>
#include <vector>

#include "bsongen/document.hpp"
#include "bsongen/document_view.hpp"
#include "bsongen/extjson.hpp"

namespace {

int dynamic_documents_example() {
  bsongen::document d{
      {"name", "ada"}, {"tags", bsongen::array{1, 2.5}}, {"sub", bsongen::document{{"ok", true}}}};
  bsongen::byte_buffer bytes = bsongen::encode_document(d);
  auto r = bsongen::decode_document(bytes);
  if (!r) {
    std::cerr << r.error().to_string() << '\n';
    return 1;
  }
  double x = (*r)["tags"][1].as_double();
  return x == 2.5 && *r == d ? 0 : 1;
}

int vectors_example() {
  std::vector<float> embedding{0.25F, -1.5F, 3.0F};
  bsongen::document d{
      {"embedding", bsongen::value::from_vector(std::span<const float>(embedding))}};
  auto v = d["embedding"].as_vector();  // a view over the payload; an error when it is no vector
  if (!v) {
    std::cerr << v.error().to_string() << '\n';
    return 1;
  }
  float second = v->as_float32()[1];  // -1.5
  auto bits =
      bsongen::vector_from_array(bsongen::array{127, 8}, bsongen::vector_dtype::packed_bit, 3);
  return second == -1.5F && bits && bits->as_vector()->size() == 13 ? 0 : 1;
}

int extended_json_example(std::ostream& out) {
  auto bytes = bsongen::extjson_to_bson(R"({"_id": {"$oid": "56e1fc72e0c917e9c4714161"}, "n": 1})");
  if (!bytes) {
    std::cerr << bytes.error().to_string() << '\n';
    return 1;
  }
  auto view = bsongen::document_view::from_bytes(*bytes);
  if (!view) return 1;
  out << bsongen::to_extjson(*view) << '\n';  // relaxed
  out << bsongen::to_extjson(*view, bsongen::extjson_mode::canonical) << '\n';
  return 0;
}

TEST(ReadmeExamples, DynamicDocuments) { EXPECT_EQ(dynamic_documents_example(), 0); }

TEST(ReadmeExamples, Vectors) { EXPECT_EQ(vectors_example(), 0); }

TEST(ReadmeExamples, ExtendedJson) {
  std::ostringstream out;
  ASSERT_EQ(extended_json_example(out), 0);
  EXPECT_EQ(out.str(),
            "{\"_id\":{\"$oid\":\"56e1fc72e0c917e9c4714161\"},\"n\":1}\n"
            "{\"_id\":{\"$oid\":\"56e1fc72e0c917e9c4714161\"},\"n\":{\"$numberInt\":\"1\"}}\n");
}

}  // namespace
