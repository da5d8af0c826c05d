#pragma once

// Loading the official BSON corpus (BSONGEN_CORPUS_DIR) for the corpus and interop tests.

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "hex.hpp"

namespace bsongen::test {

inline std::filesystem::path corpus_dir() { return BSONGEN_CORPUS_DIR; }

// "BSON corpus not found at <dir>" when the folder is absent; empty when present.
inline std::string corpus_missing_message() {
  std::error_code ec;
  if (std::filesystem::is_directory(corpus_dir(), ec)) return {};
  return "BSON corpus not found at " + corpus_dir().string() +
         " (set BSONGEN_CORPUS_DIR); skipping";
}

struct corpus_case {
  std::string file;     // "array" (file stem)
  std::string section;  // "valid", "decodeErrors", "parseErrors"
  std::size_t index = 0;
  std::string description;
  nlohmann::json spec;   // the case object as the corpus gives it
  std::string test_key;  // the file's test_key, when it names one
};

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
