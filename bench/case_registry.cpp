#include "case_registry.hpp"

#include <bson/bson.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <system_error>

#include "seed_cases.hpp"

namespace bsongen::bench {
namespace {

struct registry {
  std::mutex mutex;
  std::map<std::string, byte_buffer, std::less<>> cases;
};

// Built on first use, so registrations from any translation unit's static initializers are safe.
registry& the_registry() {
  static registry r;
  return r;
}

bool valid_case_name(std::string_view name) {
  if (name.empty() || name == "." || name == "..") return false;
  return std::all_of(name.begin(), name.end(), [](char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
           ch == '_' || ch == '.' || ch == '-';
  });
}

constexpr std::string_view write_cases_flag = "--bsongen_write_cases=";

bool write_file(const std::filesystem::path& path, const void* data, std::size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  out.close();
  return static_cast<bool>(out);
}

// The seed cases predate this registry; they register here so seed_cases.cpp needs no change.
const bool seed_cases_registered = [] {
  const seed_cases& cases = get_seed_cases();
  for_each_uniform_case(cases, [](const auto& c) { register_case_bytes(c.name, c.bytes.span()); });
  register_case_bytes(cases.oid_string.name, cases.oid_string.bytes.span());
  return true;
}();

}  // namespace

void register_case_bytes(std::string_view name, std::span<const std::uint8_t> bytes) {
  if (!valid_case_name(name)) {
    fail(name, "case names become file names: use only [A-Za-z0-9_.-]");
  }
  registry& r = the_registry();
  const std::lock_guard lock(r.mutex);
  const auto found = r.cases.find(name);
  if (found == r.cases.end()) {
    r.cases.emplace(std::string(name), byte_buffer(bytes));
    return;
  }
  const std::span<const std::uint8_t> known = found->second.span();
  if (!std::equal(known.begin(), known.end(), bytes.begin(), bytes.end())) {
    fail(name, "registered twice with different bytes (" + std::to_string(known.size()) + " and " +
                   std::to_string(bytes.size()) + " bytes)");
  }
}

std::vector<registered_case> registered_cases() {
  registry& r = the_registry();
  const std::lock_guard lock(r.mutex);
  std::vector<registered_case> out;
  out.reserve(r.cases.size());
  for (const auto& [name, bytes] : r.cases) out.push_back({name, bytes});
  return out;
}

std::optional<std::string> take_write_cases_flag(int& argc, char** argv) {
  std::optional<std::string> directory;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg(argv[i]);
    if (arg.starts_with(write_cases_flag)) {
      directory = std::string(arg.substr(write_cases_flag.size()));
    } else {
      argv[kept++] = argv[i];
    }
  }
  if (kept < argc) argv[kept] = nullptr;
  argc = kept;
  return directory;
}

int write_registered_cases(const std::string& directory) {
  if (directory.empty()) {
    std::fprintf(stderr,
                 "bsongen_bench: --bsongen_write_cases needs a folder: "
                 "--bsongen_write_cases=DIR\n");
    return 1;
  }
  const std::filesystem::path folder(directory);
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec) {
    std::fprintf(stderr, "bsongen_bench: cannot create %s: %s\n", directory.c_str(),
                 ec.message().c_str());
    return 1;
  }
  const std::vector<registered_case> cases = registered_cases();
  for (const registered_case& c : cases) {
    bson_t doc;
    if (!bson_init_static(&doc, c.bytes.data(), c.bytes.size())) {
      std::fprintf(stderr, "bsongen_bench: case %s: libbson rejects its %zu bytes as a document\n",
                   c.name.c_str(), c.bytes.size());
      return 1;
    }
    std::size_t json_length = 0;
    // NULL when an element is malformed (bson_init_static checks only the outer framing).
    const std::unique_ptr<char, decltype(&bson_free)> json(
        bson_as_canonical_extended_json(&doc, &json_length), &bson_free);
    if (!json) {
      std::fprintf(stderr,
                   "bsongen_bench: case %s: libbson cannot render its bytes as "
                   "Extended JSON (a malformed element)\n",
                   c.name.c_str());
      return 1;
    }
    const std::filesystem::path bson_path = folder / (c.name + ".bson");
    const std::filesystem::path json_path = folder / (c.name + ".json");
    if (!write_file(bson_path, c.bytes.data(), c.bytes.size()) ||
        !write_file(json_path, json.get(), json_length)) {
      std::fprintf(stderr, "bsongen_bench: cannot write %s or %s\n", bson_path.c_str(),
                   json_path.c_str());
      return 1;
    }
    std::printf("wrote %s (%zu bytes) and %s.json\n", bson_path.c_str(), c.bytes.size(),
                c.name.c_str());
  }
  std::printf("bsongen_bench: wrote %zu cases to %s\n", cases.size(), directory.c_str());
  return 0;
}

}  // namespace bsongen::bench
