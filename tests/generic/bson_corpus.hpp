#pragma once

// Loading the official BSON corpus (BSONGEN_CORPUS_DIR) for the corpus and interop tests.

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace bsongen::test {

inline std::filesystem::path corpus_dir() { return BSONGEN_CORPUS_DIR; }

// "BSON corpus not found at <dir>" when the folder is absent; empty when present.
inline std::string corpus_missing_message() {
  std::error_code ec;
  if (std::filesystem::is_directory(corpus_dir(), ec)) return {};
  return "BSON corpus not found at " + corpus_dir().string() + " (set BSONGEN_CORPUS_DIR); skipping";
}

struct corpus_case {
  std::string file;     // "array" (file stem)
  std::string section;  // "valid", "decodeErrors", "parseErrors"
  std::size_t index = 0;
  std::string description;
  nlohmann::json spec;  // the case object as the corpus gives it
  std::string test_key; // the file's test_key, when it names one
};

inline std::vector<std::uint8_t> from_hex(const std::string& hex) {
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::vector<std::uint8_t> out;
  out.reserve(hex.size() / 2);
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<std::uint8_t>(nibble(hex[i]) * 16 + nibble(hex[i + 1])));
  }
  return out;
}

inline std::string to_hex(const std::uint8_t* p, std::size_t n) {
  static constexpr char digits[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(n * 2);
  for (std::size_t i = 0; i < n; ++i) {
    out += digits[p[i] >> 4];
    out += digits[p[i] & 15];
  }
  return out;
}

// Every case of the given sections in every corpus file, in file-name order. Empty when the
// corpus is absent.
inline std::vector<corpus_case> load_corpus(const std::vector<std::string>& sections) {
  std::vector<corpus_case> cases;
  if (!corpus_missing_message().empty()) return cases;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(corpus_dir())) {
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& path : files) {
    std::ifstream in(path);
    const nlohmann::json file = nlohmann::json::parse(in);
    for (const std::string& section : sections) {
      if (!file.contains(section)) continue;
      std::size_t index = 0;
      for (const auto& spec : file[section]) {
        corpus_case c;
        c.file = path.stem().string();
        c.section = section;
        c.index = index++;
        c.description = spec.value("description", "");
        c.spec = spec;
        c.test_key = file.value("test_key", "");
        cases.push_back(std::move(c));
      }
    }
  }
  return cases;
}

}  // namespace bsongen::test
