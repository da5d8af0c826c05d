// BSON Binary Vector (subtype 9) against js-bson, the npm `bson` package (pinned as bench/js pins
// it; the jsbson_install test runs `npm ci` into the build tree first). jsbson_vectors.js writes
// vectors with Binary.fromFloat32Array / fromInt8Array / fromPackedBits: our runtime decodes them
// to the same dtype, padding and elements, and encodes the same elements to the same bytes; the
// vectors we write decode with js-bson's toFloat32Array / toInt8Array / toPackedBits to the same
// elements. One difference is checked as such: js-bson writes nonzero ignored bits (the
// specification's MAY), which bsongen refuses (invalid_value).

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "bsongen/binary_vector.hpp"
#include "bsongen/document.hpp"
#include "bsongen/document_view.hpp"
#include "bsongen/writer.hpp"
#include "hex.hpp"

namespace bsongen {
namespace {

using bsongen::test::to_hex;

std::vector<std::uint8_t> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string hex(std::span<const std::uint8_t> b) { return to_hex(b.data(), b.size()); }

std::string node_command(const std::string& mode, const std::filesystem::path& dir) {
  return std::string("NODE_PATH='") + BSONGEN_JSBSON_NODE_PATH + "' node '" +
         BSONGEN_JSBSON_SCRIPT + "' " + mode + " '" + dir.string() + "'";
}

// What `jsbson_vectors.js write` produced, once per process: the folder and its cases.json, or
// why not (`skip` when js-bson is not installed rather than broken).
struct js_written {
  std::filesystem::path dir;
  nlohmann::json cases;
  std::string why;
  bool skip = false;
};

const js_written& jsbson_written() {
  static const js_written written = [] {
    js_written w;
    if (!std::filesystem::exists(std::filesystem::path(BSONGEN_JSBSON_NODE_PATH) / "bson")) {
      w.skip = true;
      w.why = std::string("js-bson not installed in ") + BSONGEN_JSBSON_NODE_PATH +
              " (the jsbson_install test runs npm ci there); skipping";
      return w;
    }
    const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                      ("bsongen_jsbson_vectors_" + std::to_string(::getpid()));
    const std::string command = node_command("write", dir) + " > /dev/null";
    const int status = std::system(command.c_str());
    if (status != 0) {
      w.skip = WIFEXITED(status) && WEXITSTATUS(status) == 77;
      w.why = "'" + command + "' failed (status " + std::to_string(status) +
              "; exit 77 means the bson package is missing)";
      return w;
    }
    std::ifstream in(dir / "cases.json");
    w.cases = nlohmann::json::parse(in);
    w.dir = dir;
    return w;
  }();
  return written;
}

#define BSONGEN_NEED_JSBSON(w)              \
  const js_written& w = jsbson_written();   \
  if ((w).skip) GTEST_SKIP() << (w).why;    \
  ASSERT_FALSE((w).dir.empty()) << (w).why; \
  ASSERT_FALSE((w).cases.empty())

vector_dtype dtype_of(const nlohmann::json& c) {
  return static_cast<vector_dtype>(c.at("dtype").get<int>());
}

// The case's elements as our runtime reads them: float32 bit patterns, int8 values, packed bytes.
std::vector<std::int64_t> elements_of(const vector_view& v) {
  std::vector<std::int64_t> out;
  switch (v.dtype()) {
    case vector_dtype::float32:
      for (const float f : v.as_float32()) out.push_back(std::bit_cast<std::uint32_t>(f));
      break;
    case vector_dtype::int8:
      for (const std::int8_t i : v.as_int8()) out.push_back(i);
      break;
    case vector_dtype::packed_bit:
      for (const std::uint8_t b : v.data()) out.push_back(b);
      break;
  }
  return out;
}

std::vector<std::int64_t> expected_elements(const nlohmann::json& c) {
  return c.at("elements").get<std::vector<std::int64_t>>();
}

// Our encoding of a case, through the typed writer, as the document {v: Binary} js-bson wrote.
std::vector<std::uint8_t> encode_case(const nlohmann::json& c) {
  writer value_bytes;
  const std::vector<std::int64_t> elements = expected_elements(c);
  result<void> r;
  switch (dtype_of(c)) {
    case vector_dtype::float32: {
      std::vector<float> f;
      for (const std::int64_t bits : elements) {
        f.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(bits)));
      }
      r = write_vector_value(value_bytes, std::span<const float>(f));
      break;
    }
    case vector_dtype::int8: {
      std::vector<std::int8_t> i;
      for (const std::int64_t e : elements) i.push_back(static_cast<std::int8_t>(e));
      r = write_vector_value(value_bytes, std::span<const std::int8_t>(i));
      break;
    }
    case vector_dtype::packed_bit: {
      std::vector<std::uint8_t> b;
      for (const std::int64_t e : elements) b.push_back(static_cast<std::uint8_t>(e));
      r = write_packed_bit_vector_value(value_bytes, b, c.at("padding").get<std::uint8_t>());
      break;
    }
  }
  EXPECT_TRUE(r) << c.at("name") << ": " << r.error().to_string();
  // Document length, type byte, key "v" and its NUL, the value, the document's NUL.
  const std::span<const std::uint8_t> body = value_bytes.bytes();
  std::vector<std::uint8_t> doc(7 + body.size() + 1, 0);
  doc[4] = static_cast<std::uint8_t>(bson_type::binary);
  doc[5] = 'v';
  std::copy(body.begin(), body.end(), doc.begin() + 7);
  detail::store_i32_le(doc.data(), static_cast<std::int32_t>(doc.size()));
  return doc;
}

TEST(jsbson_vector_interop, jsbson_vectors_decode_with_bsongen) {
  BSONGEN_NEED_JSBSON(w);
  for (const auto& c : w.cases) {
    const std::string name = c.at("name").get<std::string>();
    const std::vector<std::uint8_t> bytes = read_file(w.dir / (name + ".bson"));
    result<document> d = decode_document(bytes);
    ASSERT_TRUE(d) << name << ": " << d.error().to_string();
    const result<vector_view> v = (*d)["v"].as_vector();
    const result<document_view> view = document_view::from_bytes(bytes);
    ASSERT_TRUE(view) << name;
    const result<vector_view> in_place = (*view)["v"].as_vector();
    if (c.at("refused").get<bool>()) {
      ASSERT_FALSE(v) << name << ": nonzero ignored bits accepted";
      EXPECT_EQ(v.error().code, error_code::invalid_value) << name;
      EXPECT_FALSE(in_place) << name;
      continue;
    }
    ASSERT_TRUE(v) << name << ": " << v.error().to_string();
    ASSERT_TRUE(in_place) << name << ": " << in_place.error().to_string();
    EXPECT_EQ(v->dtype(), dtype_of(c)) << name;
    EXPECT_EQ(v->padding(), c.at("padding").get<int>()) << name;
    EXPECT_EQ(elements_of(*v), expected_elements(c)) << name;
    EXPECT_EQ(elements_of(*in_place), expected_elements(c)) << name;
  }
}

TEST(jsbson_vector_interop, bsongen_encodes_the_bytes_jsbson_writes) {
  BSONGEN_NEED_JSBSON(w);
  for (const auto& c : w.cases) {
    if (c.at("refused").get<bool>()) continue;
    const std::string name = c.at("name").get<std::string>();
    const std::vector<std::uint8_t> theirs = read_file(w.dir / (name + ".bson"));
    EXPECT_EQ(hex(encode_case(c)), hex(theirs)) << name;
    // The generic path, decoded and encoded again, keeps them too.
    result<document> d = decode_document(theirs);
    ASSERT_TRUE(d) << name;
    EXPECT_EQ(hex(encode_document(*d)), hex(theirs)) << name;
  }
}

TEST(jsbson_vector_interop, bsongen_vectors_decode_with_jsbson) {
  BSONGEN_NEED_JSBSON(w);
  const std::filesystem::path ours = w.dir / "ours";
  std::filesystem::create_directories(ours);
  std::map<std::string, nlohmann::json> by_name;
  for (const auto& c : w.cases) {
    if (c.at("refused").get<bool>()) continue;
    const std::string name = c.at("name").get<std::string>();
    const std::vector<std::uint8_t> doc = encode_case(c);
    std::ofstream(ours / (name + ".bson"), std::ios::binary)
        .write(reinterpret_cast<const char*>(doc.data()), static_cast<std::streamsize>(doc.size()));
    by_name[name] = c;
  }
  const std::string command = node_command("read", ours);
  FILE* pipe = ::popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr) << command;
  std::string output;
  char chunk[4096];
  for (std::size_t n; (n = std::fread(chunk, 1, sizeof chunk, pipe)) > 0;) output.append(chunk, n);
  ASSERT_EQ(::pclose(pipe), 0) << command;

  std::size_t seen = 0;
  std::size_t start = 0;
  for (std::size_t end; (end = output.find('\n', start)) != std::string::npos; start = end + 1) {
    const nlohmann::json line = nlohmann::json::parse(output.substr(start, end - start));
    const std::string name = line.at("name").get<std::string>();
    ASSERT_TRUE(by_name.contains(name)) << name;
    ASSERT_FALSE(line.contains("error")) << name << ": js-bson refused ours: " << line["error"];
    const nlohmann::json& c = by_name[name];
    EXPECT_EQ(line.at("dtype"), c.at("dtype")) << name;
    EXPECT_EQ(line.at("padding"), c.at("padding")) << name;
    EXPECT_EQ(line.at("elements").get<std::vector<std::int64_t>>(), expected_elements(c)) << name;
    ++seen;
  }
  EXPECT_EQ(seen, by_name.size());
}

}  // namespace
}  // namespace bsongen
