#pragma once

// The boundary between the command line (main.cpp, no Clang headers) and the Clang front end
// (scan_headers.cpp). Everything here is plain standard C++ so that only one translation unit pays
// for Clang's headers. The types mirror docs/intermediate-model.md (version 1) one to one.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace bsongen::scan {

struct source_location {
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
};

// A model type reference. `kind` is the model's kind name ("int32", "vector", "struct", ...).
struct type_ref {
  std::string kind;
  // The member's C++ spelling when it differs from the kind's default ("std::uint16_t" for an
  // int32, "std::unordered_map<std::string, long>" for a map); empty otherwise.
  std::string cpp;
  std::string name;               // struct and enum: the declaration's name in the model namespace
  std::uint64_t size = 0;         // array; binary_vector's fixed dimension (0: none)
  std::vector<type_ref> element;  // vector, array, optional, map: exactly one entry
  std::string dtype;              // binary_vector: float32, int8 or packed_bit
};

struct field {
  std::string name;  // the C++ member
  std::string key;   // the BSON key
  // Where BSONGEN_KEY spells the key (what the generator's key errors point at); no file: the
  // member's name is the key.
  source_location key_location;
  type_ref type;
  bool required = false;
  bool omit_empty = false;
  // The struct sets the member's initial value itself (a default member initializer, or a
  // user-provided default constructor), so an absent field is reset to the member of a
  // value-initialized struct rather than to a value-initialized member.
  bool struct_default = false;
  std::string doc;
  source_location location;
};

struct structure {
  std::string name;
  std::string doc;
  source_location location;
  std::string unknown_fields = "skip";  // skip | reject | capture
  std::optional<std::string> capture_member;
  std::string duplicate_keys = "last_wins";  // last_wins | reject
  std::vector<field> fields;
};

struct enum_value {
  std::string name;
  std::int64_t value = 0;
  std::string bson_name;
  std::string doc;
  source_location location;
};

struct enumeration {
  std::string name;
  std::string storage = "int32";  // int32 | string
  std::string doc;
  source_location location;
  std::vector<enum_value> values;
};

struct scan_request {
  std::vector<std::string> headers;  // as given on the command line
  std::vector<std::string> include_dirs;
  std::vector<std::string> system_include_dirs;
  std::vector<std::string> definitions;  // "X" or "X=value", as for -D
  std::string language_standard = "c++20";
  std::string resource_dir;  // Clang's builtin headers
};

struct scan_result {
  // The one C++ namespace every struct and enum of the model lives in ("a::b", "" for global).
  std::string namespace_;
  std::vector<enumeration> enums;  // every enum a field uses
  // Every BSONGEN_DOCUMENT struct defined in the headers, then the ones they reach from other
  // headers; each after the structs it contains.
  std::vector<structure> structs;
  // Every file the parse read (the headers and everything they include), absolute, sorted.
  std::vector<std::string> dependencies;
  // Errors were printed to stderr as file:line:col: error: ...; the model is incomplete then.
  unsigned error_count = 0;
};

// Parses the headers as one translation unit and builds the model of the BSONGEN_DOCUMENT structs
// defined in them. Diagnostics (Clang's and the scanner's) go to stderr.
scan_result scan_headers(const scan_request& request);

}  // namespace bsongen::scan
