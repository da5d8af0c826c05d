// pymongo (Debian python3-bson) writes the driver benchmark documents with bson.encode; our
// decode -> encode reproduces its bytes exactly.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "bsongen/document.hpp"

namespace bsongen {
namespace {

std::vector<std::uint8_t> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Runs the script once per process; returns the folder holding its .bson files, or "" with
// `why` set (`skip` when python3-bson is missing rather than broken).
std::filesystem::path pymongo_output(std::string& why, bool& skip) {
  static std::string reason;
  static bool missing_package = false;
  static const std::filesystem::path dir = [] {
    const std::filesystem::path out =
        std::filesystem::temp_directory_path() / ("bsongen_pymongo_" + std::to_string(::getpid()));
    const std::string command = std::string("/usr/bin/python3 ") + BSONGEN_PYMONGO_SCRIPT + " " +
                                BSONGEN_BENCH_DATA_DIR + " " + out.string() + " > /dev/null";
    const int status = std::system(command.c_str());
    if (status != 0) {
      missing_package = WIFEXITED(status) && WEXITSTATUS(status) == 77;
      reason = "'" + command + "' failed (status " + std::to_string(status) +
               "; exit 77 means python3-bson is missing)";
      return std::filesystem::path();
    }
    return out;
  }();
  why = reason;
  skip = missing_package;
  return dir;
}

class pymongo_document : public testing::TestWithParam<const char*> {};

TEST_P(pymongo_document, decode_encode_reproduces_pymongo_bytes) {
  if (!std::filesystem::exists(std::string(BSONGEN_BENCH_DATA_DIR) + "/" + GetParam() + ".json")) {
    GTEST_SKIP() << "bench data not found in " << BSONGEN_BENCH_DATA_DIR;
  }
  std::string why;
  bool skip = false;
  const std::filesystem::path dir = pymongo_output(why, skip);
  if (skip) GTEST_SKIP() << why;
  ASSERT_FALSE(dir.empty()) << why;
  const std::vector<std::uint8_t> bytes = read_file(dir / (std::string(GetParam()) + ".bson"));
  ASSERT_FALSE(bytes.empty());
  result<document> d = decode_document(bytes);
  ASSERT_TRUE(d) << d.error().to_string();
  EXPECT_EQ(encode_document(*d).to_vector(), bytes);
  EXPECT_GT(d->size(), 0u);
}

INSTANTIATE_TEST_SUITE_P(driver_documents, pymongo_document,
                         testing::Values("flat_bson", "deep_bson", "full_bson"));

}  // namespace
}  // namespace bsongen
