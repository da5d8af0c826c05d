// bsongen-scan: annotated C++ headers in, the generator's intermediate model (JSON) out.
//
//   bsongen-scan HEADER... [-I DIR] [-isystem DIR] [-D NAME[=VALUE]] [--std c++20] -o MODEL.json
//                [--depfile FILE] [--output-name NAME] [--resource-dir DIR] [@ARGS_FILE]
//
// Exit status: 0 model written; 1 the headers did not parse or hold something bsongen cannot map
// (every problem printed as file:line:col: error: ...); 2 bad command line or unwritable output.

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "scan_headers.hpp"
#include "type_catalog.hpp"

namespace bsongen::scan {
namespace {

constexpr std::string_view usage =
    "usage: bsongen-scan HEADER... [options] -o MODEL.json\n"
    "\n"
    "Reads the BSONGEN_DOCUMENT structs of annotated C++ headers (bsongen/annotate.hpp) and "
    "writes\n"
    "the intermediate model for `bsongen generate --model MODEL.json`.\n"
    "\n"
    "  -o FILE             the model to write (required)\n"
    "  -I DIR, -IDIR       include directory (also -isystem DIR)\n"
    "  -D NAME[=VALUE]     preprocessor definition (also -DNAME)\n"
    "  --std STD           language standard, default c++20 (also -std=STD)\n"
    "  --depfile FILE      write a Makefile depfile listing every header the parse read\n"
    "  --output-name NAME  base name of the generated files (default: the first header's stem)\n"
    "  --resource-dir DIR  Clang's builtin headers (default: " BSONGEN_SCAN_RESOURCE_DIR
    ")\n"
    "  @FILE               read more arguments from FILE, one per line\n"
    "  --version, --help\n";

struct options {
  scan_request request;
  std::string model_path;
  std::string depfile_path;
  std::string output_name;
};

// Arguments from an @file: one per line, taken literally (no quoting), so paths with spaces need
// nothing special. Empty lines are skipped. This is what CMake's file(GENERATE) writes naturally.
bool read_args_file(const std::string& path, std::vector<std::string>& out) {
  std::ifstream in(path);
  if (!in) return false;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) out.push_back(line);
  }
  return true;
}

// Parses the command line; prints what is wrong and returns nullopt on a bad one.
std::optional<options> parse_command_line(int argc, char** argv, bool& exit_now) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.size() > 1 && arg[0] == '@') {
      if (!read_args_file(arg.substr(1), args)) {
        std::cerr << "bsongen-scan: error: cannot read arguments file '" << arg.substr(1) << "'\n";
        return std::nullopt;
      }
    } else {
      args.push_back(std::move(arg));
    }
  }

  options parsed;
  parsed.request.resource_dir = BSONGEN_SCAN_RESOURCE_DIR;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    // The value of "-X VALUE" or "-XVALUE" / "--long VALUE" or "--long=VALUE".
    auto value_of = [&](std::string_view flag, std::string& out) {
      if (arg == flag) {
        if (i + 1 >= args.size()) {
          std::cerr << "bsongen-scan: error: " << flag << " needs a value\n";
          return false;
        }
        out = args[++i];
        return true;
      }
      std::string_view rest = std::string_view(arg).substr(flag.size());
      if (flag.size() > 2 && !rest.empty() && rest[0] == '=') rest.remove_prefix(1);
      out = std::string(rest);
      return true;
    };
    // Short flags take their value attached ("-Idir") or next; long ones ("--std") only next or
    // after '=', so "--stdx" is an unknown option rather than --std with value "x".
    auto starts = [&](std::string_view flag) {
      const std::string_view a(arg);
      if (a.substr(0, flag.size()) != flag) return false;
      return flag.substr(0, 2) != "--" || a.size() == flag.size() || a[flag.size()] == '=';
    };
    std::string value;
    if (arg == "--help" || arg == "-h") {
      std::cout << usage;
      exit_now = true;
      return std::nullopt;
    } else if (arg == "--version") {
      std::cout << "bsongen-scan " BSONGEN_SCAN_VERSION " (intermediate model 1)\n";
      exit_now = true;
      return std::nullopt;
    } else if (arg == "-o") {
      if (!value_of("-o", parsed.model_path)) return std::nullopt;
    } else if (starts("-isystem")) {
      if (!value_of("-isystem", value)) return std::nullopt;
      parsed.request.system_include_dirs.push_back(value);
    } else if (starts("-I")) {
      if (!value_of("-I", value)) return std::nullopt;
      parsed.request.include_dirs.push_back(value);
    } else if (starts("-D")) {
      if (!value_of("-D", value)) return std::nullopt;
      // A name never starts with '-': a bare -D (an empty definition written into an arguments
      // file) would otherwise swallow the next option, and what follows that becomes a header.
      if (value.empty() || value[0] == '-' || value[0] == '=') {
        std::cerr << "bsongen-scan: error: -D needs NAME or NAME=VALUE, got "
                  << (value.empty() ? std::string("nothing") : "'" + value + "'")
                  << " (an empty definition?)\n";
        return std::nullopt;
      }
      parsed.request.definitions.push_back(value);
    } else if (starts("--std")) {
      if (!value_of("--std", parsed.request.language_standard)) return std::nullopt;
    } else if (starts("-std=")) {
      parsed.request.language_standard = arg.substr(5);
    } else if (starts("--depfile")) {
      if (!value_of("--depfile", parsed.depfile_path)) return std::nullopt;
    } else if (starts("--output-name")) {
      if (!value_of("--output-name", parsed.output_name)) return std::nullopt;
    } else if (starts("--resource-dir")) {
      if (!value_of("--resource-dir", parsed.request.resource_dir)) return std::nullopt;
    } else if (!arg.empty() && arg[0] == '-') {
      std::cerr << "bsongen-scan: error: unknown option '" << arg << "'\n";
      return std::nullopt;
    } else {
      parsed.request.headers.push_back(arg);
    }
  }

  if (parsed.request.headers.empty()) {
    std::cerr << "bsongen-scan: error: no header to scan\n";
    return std::nullopt;
  }
  if (parsed.model_path.empty()) {
    std::cerr << "bsongen-scan: error: -o MODEL.json is required\n";
    return std::nullopt;
  }
  for (const auto& header : parsed.request.headers) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(header, ec)) {
      std::cerr << "bsongen-scan: error: cannot read header '" << header << "'\n";
      return std::nullopt;
    }
    if (header.find_first_of("\"\n") != std::string::npos) {
      std::cerr << "bsongen-scan: error: header path '" << header
                << "' contains a quote or newline, which #include cannot spell\n";
      return std::nullopt;
    }
  }
  if (parsed.output_name.empty())
    parsed.output_name = std::filesystem::path(parsed.request.headers.front()).stem().string();
  return parsed;
}

// How the generated header includes a scanned one: relative to the include directory that gives
// the shortest spelling ("app/order.hpp" for -I src and src/app/order.hpp); the absolute path when
// no include directory contains it.
std::string include_spelling(const std::string& header, const scan_request& request) {
  namespace fs = std::filesystem;
  const fs::path absolute = fs::weakly_canonical(fs::absolute(header));
  std::string best;
  auto consider = [&](const std::string& dir) {
    const fs::path base = fs::weakly_canonical(fs::absolute(dir));
    const fs::path relative = absolute.lexically_relative(base);
    if (relative.empty() || *relative.begin() == "..") return;
    if (best.empty() || relative.string().size() < best.size()) best = relative.generic_string();
  };
  for (const auto& dir : request.include_dirs) consider(dir);
  for (const auto& dir : request.system_include_dirs) consider(dir);
  return best.empty() ? absolute.generic_string() : best;
}

nlohmann::ordered_json to_json(const source_location& location) {
  return {{"file", location.file}, {"line", location.line}, {"column", location.column}};
}

nlohmann::ordered_json to_json(const type_ref& type) {
  nlohmann::ordered_json out;
  out["kind"] = type.kind;
  if (!type.cpp.empty()) out["cpp"] = type.cpp;
  const type_catalog& catalog = type_catalog::built_in();
  const auto& definitions = catalog.definition_kinds();
  if (std::find(definitions.begin(), definitions.end(), type.kind) != definitions.end())
    out["name"] = type.name;
  if (const container_kind* container = catalog.container(type.kind);
      container != nullptr && container->has_size)
    out["size"] = type.size;
  if (type.kind == catalog.vector_kind()) {
    out["dtype"] = type.dtype;
    if (type.size != 0) out["size"] = type.size;
  }
  if (!type.element.empty()) out["element"] = to_json(type.element.front());
  return out;
}

nlohmann::ordered_json to_json(const scan_result& scanned, const options& parsed) {
  std::string origin;
  for (const auto& header : parsed.request.headers) {
    if (!origin.empty()) origin += ", ";
    origin += header;
  }
  nlohmann::ordered_json includes = nlohmann::ordered_json::array();
  for (const auto& header : parsed.request.headers)
    includes.push_back(include_spelling(header, parsed.request));

  nlohmann::ordered_json enums = nlohmann::ordered_json::array();
  for (const auto& e : scanned.enums) {
    nlohmann::ordered_json values = nlohmann::ordered_json::array();
    for (const auto& v : e.values) {
      values.push_back({{"name", v.name},
                        {"value", v.value},
                        {"bson_name", v.bson_name},
                        {"doc", v.doc},
                        {"location", to_json(v.location)}});
    }
    enums.push_back({{"name", e.name},
                     {"storage", e.storage},
                     {"doc", e.doc},
                     {"location", to_json(e.location)},
                     {"values", std::move(values)}});
  }

  nlohmann::ordered_json structs = nlohmann::ordered_json::array();
  for (const auto& s : scanned.structs) {
    nlohmann::ordered_json fields = nlohmann::ordered_json::array();
    for (const auto& f : s.fields) {
      nlohmann::ordered_json built = {{"name", f.name},
                                      {"key", f.key},
                                      {"type", to_json(f.type)},
                                      {"required", f.required},
                                      {"omit_empty", f.omit_empty},
                                      {"struct_default", f.struct_default},
                                      {"doc", f.doc},
                                      {"location", to_json(f.location)}};
      if (!f.key_location.file.empty()) built["key_location"] = to_json(f.key_location);
      fields.push_back(std::move(built));
    }
    nlohmann::ordered_json capture = nullptr;
    if (s.capture_member) capture = *s.capture_member;
    structs.push_back({{"name", s.name},
                       {"doc", s.doc},
                       {"location", to_json(s.location)},
                       {"unknown_fields", s.unknown_fields},
                       {"capture_member", capture},
                       {"duplicate_keys", s.duplicate_keys},
                       {"fields", std::move(fields)}});
  }

  return {{"bsongen_model", 1},
          {"origin", {{"kind", "header"}, {"path", origin}}},
          {"output_name", parsed.output_name},
          {"namespace", scanned.namespace_},
          {"defines_types", false},
          {"includes", std::move(includes)},
          {"enums", std::move(enums)},
          {"structs", std::move(structs)}};
}

// Make-style escaping for a depfile path: spaces, '#' and '$' (ninja and make both read this).
std::string depfile_escape(const std::string& path) {
  std::string out;
  for (char c : path) {
    if (c == ' ' || c == '#') out += '\\';
    if (c == '$') out += '$';
    out += c;
  }
  return out;
}

// Writes through a temporary file and a rename, so a build never sees half a model.
bool write_file(const std::string& path, const std::string& contents) {
  const std::string temporary = path + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) return false;
    out << contents;
    if (!out.flush()) return false;
  }
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  return !ec;
}

int run(int argc, char** argv) {
  bool exit_now = false;
  std::optional<options> parsed = parse_command_line(argc, argv, exit_now);
  if (!parsed) {
    if (exit_now) return 0;
    std::cerr << "(bsongen-scan --help lists the options)\n";
    return 2;
  }

  scan_result scanned = scan_headers(parsed->request);
  if (scanned.error_count != 0) {
    std::cerr << "bsongen-scan: " << scanned.error_count
              << (scanned.error_count == 1 ? " error" : " errors") << "; no model written\n";
    return 1;
  }
  if (scanned.structs.empty()) {
    std::cerr << "bsongen-scan: error: no BSONGEN_DOCUMENT struct in the given headers\n";
    return 1;
  }

  // Keys and stored enumerator names were checked to be UTF-8 (the model cannot carry other
  // bytes); doc comments and paths are the header's bytes, Latin-1 in some old headers: invalid
  // sequences become U+FFFD rather than an abort.
  const std::string model_text =
      to_json(scanned, *parsed).dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  if (!write_file(parsed->model_path, model_text + "\n")) {
    std::cerr << "bsongen-scan: error: cannot write '" << parsed->model_path << "'\n";
    return 2;
  }
  if (!parsed->depfile_path.empty()) {
    std::ostringstream depfile;
    depfile << depfile_escape(parsed->model_path) << ":";
    for (const auto& dependency : scanned.dependencies)
      depfile << " \\\n  " << depfile_escape(dependency);
    depfile << "\n";
    if (!write_file(parsed->depfile_path, depfile.str())) {
      std::cerr << "bsongen-scan: error: cannot write '" << parsed->depfile_path << "'\n";
      return 2;
    }
  }
  return 0;
}

}  // namespace
}  // namespace bsongen::scan

int main(int argc, char** argv) { return bsongen::scan::run(argc, argv); }
