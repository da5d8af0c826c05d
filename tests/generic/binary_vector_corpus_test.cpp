// The specification's BSON Binary Vector test vectors ("BSON Binary Subtype 9 - Vector",
// tests/*.json, read from BSONGEN_VECTOR_CORPUS_DIR), one GoogleTest per case (suite
// binary_vector_corpus_<file>, test <index>_<valid|invalid>).
//
// A valid case must encode from `vector`, `dtype_hex` and `padding` to exactly `canonical_bson`,
// on both encode paths (the generic vector_from_array over a BSON array built from the JSON
// numbers, and the typed write_vector_value / write_packed_bit_vector_value), and decode back to
// the same dtype, padding and elements (value_ref::as_vector, view_element::as_vector and the
// owning decode_vector). An invalid case must be refused: on encode when it has a `vector` (a
// padding outside 0..255 is refused where it meets the API's std::uint8_t), on decode when it has
// a `canonical_bson` (a valid BSON document whose vector payload breaks the rules).
//
// The binary prints `binary vector corpus: N passed, M failed` last when run whole.

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "bsongen/binary_vector.hpp"
#include "bsongen/document.hpp"
#include "bsongen/document_view.hpp"
#include "bsongen/writer.hpp"
#include "corpus_summary.hpp"
#include "hex.hpp"

namespace bsongen::test {
namespace {

std::filesystem::path vector_corpus_dir() { return BSONGEN_VECTOR_CORPUS_DIR; }

// "binary vector corpus not found at <dir>" when the folder is absent; empty when present.
std::string vector_corpus_missing_message() {
  std::error_code ec;
  if (std::filesystem::is_directory(vector_corpus_dir(), ec)) return {};
  return "binary vector corpus not found at " + vector_corpus_dir().string() +
         " (set BSONGEN_VECTOR_CORPUS_DIR); skipping";
}

struct vector_case {
  std::string file;  // "float32" (file stem)
  std::size_t index = 0;
  std::string description;
  std::string test_key;
  nlohmann::json spec;
};

std::vector<vector_case> load_vector_corpus() {
  std::vector<vector_case> cases;
  if (!vector_corpus_missing_message().empty()) return cases;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(vector_corpus_dir())) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    std::ifstream in(path);
    const nlohmann::json file = nlohmann::json::parse(in);
    std::size_t index = 0;
    for (const auto& spec : file.at("tests")) {
      vector_case c;
      c.file = path.stem().string();
      c.index = index++;
      c.description = spec.value("description", "");
      c.test_key = file.at("test_key").get<std::string>();
      c.spec = spec;
      cases.push_back(std::move(c));
    }
  }
  return cases;
}

std::string hex(std::span<const std::uint8_t> b) { return to_hex(b.data(), b.size()); }

// A JSON number of the test vectors as a double: plain numbers, or {"$numberDouble": "..."} for
// the non-finite ones.
double json_double(const nlohmann::json& n) {
  if (n.is_object()) {
    const std::string text = n.at("$numberDouble").get<std::string>();
    if (text == "Infinity") return std::numeric_limits<double>::infinity();
    if (text == "-Infinity") return -std::numeric_limits<double>::infinity();
    if (text == "NaN") return std::numeric_limits<double>::quiet_NaN();
    return std::stod(text);
  }
  return n.get<double>();
}

// The JSON vector as a BSON array, numbers as a driver would hand them over: integers as int32
// (int64 beyond its range), others as double.
array json_array(const nlohmann::json& vector) {
  array out;
  for (const auto& n : vector) {
    if (n.is_number_integer()) {
      const auto i = n.get<std::int64_t>();
      if (i >= std::numeric_limits<std::int32_t>::min() &&
          i <= std::numeric_limits<std::int32_t>::max()) {
        out.push_back(static_cast<std::int32_t>(i));
      } else {
        out.push_back(i);
      }
    } else {
      out.push_back(json_double(n));
    }
  }
  return out;
}

vector_dtype dtype_of(const vector_case& c) {
  return static_cast<vector_dtype>(
      std::stoul(c.spec.at("dtype_hex").get<std::string>(), nullptr, 16));
}

// The case's padding as the API takes it; none when the JSON's cannot be a std::uint8_t.
std::optional<std::uint8_t> padding_of(const vector_case& c) {
  const std::int64_t padding = c.spec.value("padding", std::int64_t{0});
  if (padding < 0 || padding > 255) return std::nullopt;
  return static_cast<std::uint8_t>(padding);
}

// {test_key: <binary value>} around the value bytes a writer produced.
std::vector<std::uint8_t> document_around(const std::string& key,
                                          std::span<const std::uint8_t> value_bytes) {
  std::vector<std::uint8_t> doc(4, 0);
  doc.push_back(static_cast<std::uint8_t>(bson_type::binary));
  doc.insert(doc.end(), key.begin(), key.end());
  doc.push_back(0);
  doc.insert(doc.end(), value_bytes.begin(), value_bytes.end());
  doc.push_back(0);
  detail::store_i32_le(doc.data(), static_cast<std::int32_t>(doc.size()));
  return doc;
}

// The generic path: vector_from_array over the JSON numbers, then a document around it.
result<byte_buffer> encode_generic(const vector_case& c) {
  const std::optional<std::uint8_t> padding = padding_of(c);
  if (!padding) return error(error_code::invalid_value, "padding outside 0..255");
  result<value> v = vector_from_array(json_array(c.spec.at("vector")), dtype_of(c), *padding);
  if (!v) return std::move(v).error();
  document d;
  d.append(c.test_key, std::move(*v));
  return encode_document(d);
}

// The typed path generated code takes: write_vector_value over C++ elements. Elements a C++ type
// cannot hold (a fraction or an out-of-range integer for int8 and packed_bit) are refused where
// they would be converted, as a caller's own conversion would.
result<std::vector<std::uint8_t>> encode_typed(const vector_case& c) {
  const std::optional<std::uint8_t> padding = padding_of(c);
  if (!padding) return error(error_code::invalid_value, "padding outside 0..255");
  const nlohmann::json& vector = c.spec.at("vector");
  writer out;
  result<void> written;
  switch (dtype_of(c)) {
    case vector_dtype::float32: {
      if (*padding != 0) {  // the typed float32 writer has no padding to give
        return error(error_code::invalid_value, "float32 takes no padding");
      }
      std::vector<float> f;
      for (const auto& n : vector) f.push_back(static_cast<float>(json_double(n)));
      written = write_vector_value(out, std::span<const float>(f));
      break;
    }
    case vector_dtype::int8: {
      if (*padding != 0) return error(error_code::invalid_value, "int8 takes no padding");
      std::vector<std::int8_t> i;
      for (const auto& n : vector) {
        if (!n.is_number_integer() || n.get<std::int64_t>() < -128 || n.get<std::int64_t>() > 127) {
          return error(error_code::invalid_value, "not an int8: " + n.dump());
        }
        i.push_back(static_cast<std::int8_t>(n.get<std::int64_t>()));
      }
      written = write_vector_value(out, std::span<const std::int8_t>(i));
      break;
    }
    case vector_dtype::packed_bit: {
      std::vector<std::uint8_t> b;
      for (const auto& n : vector) {
        if (!n.is_number_integer() || n.get<std::int64_t>() < 0 || n.get<std::int64_t>() > 255) {
          return error(error_code::invalid_value, "not a byte: " + n.dump());
        }
        b.push_back(static_cast<std::uint8_t>(n.get<std::int64_t>()));
      }
      written = write_packed_bit_vector_value(out, b, *padding);
      break;
    }
    default:
      return error(error_code::invalid_value, "unknown dtype");
  }
  if (!written) return std::move(written).error();
  return document_around(c.test_key, out.bytes());
}

// Decoded elements against the JSON's: float32 as the float the JSON number rounds to (bit for
// bit), int8 as integers, packed_bit as the bytes.
void expect_elements(const vector_case& c, const vector_view& v) {
  const nlohmann::json& vector = c.spec.at("vector");
  ASSERT_EQ(v.dtype(), dtype_of(c));
  ASSERT_EQ(v.padding(), padding_of(c).value_or(255));
  switch (v.dtype()) {
    case vector_dtype::float32: {
      const float32_vector_view f = v.as_float32();
      ASSERT_EQ(f.size(), vector.size());
      for (std::size_t i = 0; i < f.size(); ++i) {
        EXPECT_EQ(std::bit_cast<std::uint32_t>(f[i]),
                  std::bit_cast<std::uint32_t>(static_cast<float>(json_double(vector[i]))))
            << "element " << i;
      }
      std::vector<float> owned;
      ASSERT_TRUE(decode_vector(v.payload(), owned));
      EXPECT_EQ(owned.size(), vector.size());
      break;
    }
    case vector_dtype::int8: {
      const int8_vector_view i = v.as_int8();
      ASSERT_EQ(i.size(), vector.size());
      for (std::size_t k = 0; k < i.size(); ++k) {
        EXPECT_EQ(i[k], vector[k].get<std::int64_t>()) << "element " << k;
      }
      std::vector<std::int8_t> owned;
      ASSERT_TRUE(decode_vector(v.payload(), owned));
      EXPECT_EQ(owned, std::vector<std::int8_t>(i.begin(), i.end()));
      break;
    }
    case vector_dtype::packed_bit: {
      const packed_bit_vector_view b = v.as_packed_bit();
      ASSERT_EQ(b.bytes().size(), vector.size());
      for (std::size_t k = 0; k < vector.size(); ++k) {
        EXPECT_EQ(b.bytes()[k], vector[k].get<std::int64_t>()) << "byte " << k;
      }
      packed_bits owned;
      ASSERT_TRUE(decode_vector(v.payload(), owned));
      EXPECT_EQ(owned, b.to_packed_bits());
      break;
    }
  }
  // And back to a BSON array of the same numbers.
  const array back = vector_to_array(v);
  EXPECT_EQ(back.size(), vector.size());
}

void check_valid(const vector_case& c) {
  const std::vector<std::uint8_t> canonical =
      from_hex(c.spec.at("canonical_bson").get<std::string>());

  result<byte_buffer> generic = encode_generic(c);
  ASSERT_TRUE(generic) << generic.error().to_string();
  EXPECT_EQ(hex(*generic), hex(canonical)) << "vector_from_array must encode canonical_bson";
  result<std::vector<std::uint8_t>> typed = encode_typed(c);
  ASSERT_TRUE(typed) << typed.error().to_string();
  EXPECT_EQ(hex(*typed), hex(canonical)) << "write_vector_value must encode canonical_bson";

  result<document> decoded = decode_document(canonical);
  ASSERT_TRUE(decoded) << decoded.error().to_string();
  result<vector_view> v = (*decoded)[c.test_key].as_vector();
  ASSERT_TRUE(v) << v.error().to_string();
  expect_elements(c, *v);

  result<document_view> view = document_view::from_bytes(canonical);
  ASSERT_TRUE(view) << view.error().to_string();
  result<vector_view> in_place = (*view)[c.test_key].as_vector();
  ASSERT_TRUE(in_place) << in_place.error().to_string();
  expect_elements(c, *in_place);
}

void check_invalid(const vector_case& c) {
  bool checked = false;
  if (c.spec.contains("vector")) {
    checked = true;
    result<byte_buffer> generic = encode_generic(c);
    EXPECT_FALSE(generic) << "vector_from_array encoded " << hex(*generic);
    result<std::vector<std::uint8_t>> typed = encode_typed(c);
    EXPECT_FALSE(typed) << "write_vector_value encoded " << hex(*typed);
  }
  if (c.spec.contains("canonical_bson")) {
    checked = true;
    const std::vector<std::uint8_t> bytes =
        from_hex(c.spec.at("canonical_bson").get<std::string>());
    // Valid BSON around a malformed vector: the document decodes, its vector does not.
    result<document> decoded = decode_document(bytes);
    ASSERT_TRUE(decoded) << decoded.error().to_string();
    const result<vector_view> v = (*decoded)[c.test_key].as_vector();
    ASSERT_FALSE(v) << "as_vector accepted a malformed payload";
    EXPECT_TRUE(v.error().code == error_code::invalid_value ||
                v.error().code == error_code::invalid_length)
        << v.error().to_string();
    EXPECT_FALSE(v.error().message.empty());

    result<document_view> view = document_view::from_bytes(bytes);
    ASSERT_TRUE(view) << view.error().to_string();
    const result<vector_view> in_place = (*view)[c.test_key].as_vector();
    ASSERT_FALSE(in_place) << "view_element::as_vector accepted a malformed payload";
    EXPECT_EQ(in_place.error().message, v.error().message);

    const binary_view payload = (*decoded)[c.test_key].as_binary();
    std::vector<float> f;
    std::vector<std::int8_t> i;
    packed_bits b;
    EXPECT_FALSE(decode_vector(payload.bytes, f));
    EXPECT_FALSE(decode_vector(payload.bytes, i));
    EXPECT_FALSE(decode_vector(payload.bytes, b));
  }
  EXPECT_TRUE(checked) << "an invalid case with neither vector nor canonical_bson";
}

void check_case(const vector_case& c) {
  if (c.spec.at("valid").get<bool>()) {
    check_valid(c);
  } else {
    check_invalid(c);
  }
}

void register_corpus_tests() {
  static const std::vector<vector_case> cases = load_vector_corpus();
  for (const vector_case& c : cases) {
    const std::string name =
        std::to_string(c.index) + "_" + (c.spec.at("valid").get<bool>() ? "valid" : "invalid");
    testing::RegisterTest(("binary_vector_corpus_" + c.file).c_str(), name.c_str(), nullptr,
                          c.description.c_str(), __FILE__, __LINE__, [&c]() -> testing::Test* {
                            struct corpus_test : testing::Test {
                              explicit corpus_test(const vector_case& vc) : case_(vc) {}
                              void TestBody() override { check_case(case_); }
                              const vector_case& case_;
                            };
                            return new corpus_test(c);
                          });
  }
}

TEST(binary_vector_corpus, present) {
  const std::string missing = vector_corpus_missing_message();
  if (!missing.empty()) GTEST_SKIP() << missing;
  std::size_t float32 = 0;
  std::size_t int8 = 0;
  std::size_t packed_bit = 0;
  for (const vector_case& c : load_vector_corpus()) {
    (c.file == "float32" ? float32 : c.file == "int8" ? int8 : packed_bit) += 1;
  }
  EXPECT_EQ(float32, 7U);
  EXPECT_EQ(int8, 6U);
  EXPECT_EQ(packed_bit, 10U);
}

}  // namespace
}  // namespace bsongen::test

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  bsongen::test::register_corpus_tests();
  testing::UnitTest::GetInstance()->listeners().Append(
      new bsongen::test::corpus_summary("binary_vector_corpus_", "binary vector corpus",
                                        bsongen::test::vector_corpus_missing_message));
  return RUN_ALL_TESTS();
}
