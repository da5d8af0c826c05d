// schemas/embeddings.yaml, the Binary Vector example: a chunk and a query round-trip and are
// written as binary subtype 9 of their dtypes, and an embedding of another dimension than the
// schema's is refused with its path and offset.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

#include "bsongen/binary_vector.hpp"
#include "bsongen/codec.hpp"
#include "bsongen/document.hpp"
#include "codec_helpers.hpp"
#include "embeddings.bsongen.hpp"

namespace {

using bsongen::test::bytes;
using bsongen::test::decode_error;
using bsongen::test::decode_generic;
using bsongen::test::encode_ok;
using bsongen::test::expect_round_trip;
using bsongen::test::generic_encoding;

search::chunk sample() {
  search::chunk c;
  c.id = *bsongen::object_id::from_hex("6571000000000000000000c1");
  c.document_id = *bsongen::object_id::from_hex("6571000000000000000000d0");
  c.position = 3;
  c.text = "Binary vectors store an embedding in a quarter of the space of a BSON array.";
  c.model = "minilm-l6-v2@2024-01";
  // A deterministic, embedding-like signal: values in (-1, 1) with both signs.
  for (std::size_t i = 0; i < c.embedding.size(); ++i) {
    c.embedding[i] = static_cast<float>(std::sin(0.37 * static_cast<double>(i + 1)));
    c.quantized[i] = static_cast<std::int8_t>(std::lround(127.0 * c.embedding[i]));
    c.signature.push_back(c.embedding[i] > 0);
  }
  return c;
}

TEST(embeddings_example, round_trips) {
  expect_round_trip(sample());
  search::query q;
  q.text = "how are vectors stored";
  q.vector = {0.25F, -0.5F, 0.125F};
  expect_round_trip(q);
}

TEST(embeddings_example, writes_binary_subtype_9_of_each_dtype) {
  const search::chunk c = sample();
  ASSERT_EQ(c.signature.size(), 384U);
  const bsongen::document written = decode_generic(encode_ok(c));
  const bytes expected_embedding = generic_encoding(
      bsongen::document{{"v", bsongen::value::from_vector(std::span<const float>(c.embedding))}});
  EXPECT_EQ(generic_encoding(bsongen::document{{"v", written["embedding"]}}), expected_embedding);
  const bytes expected_quantized = generic_encoding(bsongen::document{
      {"v", bsongen::value::from_vector(std::span<const std::int8_t>(c.quantized))}});
  EXPECT_EQ(generic_encoding(bsongen::document{{"v", written["quantized"]}}), expected_quantized);
  const bytes expected_signature =
      generic_encoding(bsongen::document{{"v", bsongen::value::from_vector(c.signature)}});
  EXPECT_EQ(generic_encoding(bsongen::document{{"v", written["signature"]}}), expected_signature);
  EXPECT_EQ(c.signature.bytes.size(), 48U);  // as the schema's comment says
}

TEST(embeddings_example, an_embedding_of_another_dimension_is_refused) {
  bsongen::document d = decode_generic(encode_ok(sample()));
  const std::vector<float> short_embedding(100, 0.5F);
  d.set("embedding", bsongen::value::from_vector(std::span<const float>(short_embedding)));
  const bytes b = generic_encoding(d);
  const bsongen::error e = decode_error<search::chunk>(b);
  EXPECT_EQ(e.code, bsongen::error_code::invalid_length);
  EXPECT_EQ(e.path, "embedding");
  EXPECT_EQ(e.message, "float32 vector has 100 elements, expected dimension 384");
  const std::vector<std::uint8_t> element = {0x05, 'e', 'm', 'b', 'e', 'd', 'd', 'i', 'n', 'g', 0};
  const auto at = std::search(b.begin(), b.end(), element.begin(), element.end());
  EXPECT_EQ(e.offset, static_cast<std::size_t>(at - b.begin()));
}

}  // namespace
