#pragma once

// Structs written for std::pmr, as an application that decodes onto arenas writes them: every
// allocating member spelled with its std::pmr or bsongen::pmr type (strings, vectors, maps,
// unordered maps, sequences of pairs, binary, regex, raw documents, JavaScript code, a capture
// member), and the allocator_type, get_allocator() and allocator-extended constructor that make
// the struct allocator-aware. Beside them, the same documents with the default spellings.
// scan_headers_test checks the model; scanned_pmr_test decodes onto resources through the code
// generated from it.

#include <cstdint>
#include <map>
#include <memory_resource>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bsongen/annotate.hpp"
#include "bsongen/codec.hpp"
#include "bsongen/nullable.hpp"
#include "bsongen/pmr_types.hpp"
#include "bsongen/raw_document.hpp"
#include "bsongen/types.hpp"

namespace scan_fixture {

// An element of std::pmr containers: they build it on their own resource (uses-allocator
// construction), which needs the allocator-extended constructors.
struct BSONGEN_DOCUMENT pmr_sample {
  using allocator_type = std::pmr::polymorphic_allocator<>;

  pmr_sample() = default;
  explicit pmr_sample(const allocator_type& allocator) : label(allocator) {}
  pmr_sample(const pmr_sample& other, const allocator_type& allocator)
      : label(other.label, allocator), value(other.value) {}
  pmr_sample(pmr_sample&& other, const allocator_type& allocator)
      : label(std::move(other.label), allocator), value(other.value) {}
  pmr_sample(const pmr_sample&) = default;
  pmr_sample(pmr_sample&&) = default;
  pmr_sample& operator=(const pmr_sample&) = default;
  pmr_sample& operator=(pmr_sample&&) = default;
  ~pmr_sample() = default;

  [[nodiscard]] allocator_type get_allocator() const { return label.get_allocator(); }

  std::pmr::string label;
  double value = 0;

  friend bool operator==(const pmr_sample&, const pmr_sample&) = default;
};

struct BSONGEN_DOCUMENT pmr_reading {
  using allocator_type = std::pmr::polymorphic_allocator<>;

  pmr_reading() = default;
  explicit pmr_reading(const allocator_type& allocator)
      : name(allocator),
        tags(allocator),
        samples(allocator),
        labels(allocator),
        by_name(allocator),
        ordered(allocator),
        blob(allocator),
        filter(allocator),
        shape(allocator),
        script(allocator),
        matrix(allocator),
        maybe_samples(allocator),
        extra(allocator) {}

  [[nodiscard]] allocator_type get_allocator() const { return name.get_allocator(); }

  std::pmr::string name;
  std::pmr::vector<std::pmr::string> tags;
  std::pmr::vector<pmr_sample> samples;
  std::pmr::map<std::pmr::string, std::int64_t> labels;
  std::pmr::unordered_map<std::pmr::string, pmr_sample> by_name;
  std::pmr::vector<std::pair<std::pmr::string, std::pmr::string>> ordered;
  bsongen::pmr::binary blob;
  bsongen::pmr::regex filter;
  bsongen::pmr::raw_document shape;
  BSONGEN_AS(javascript) std::pmr::string script;
  std::optional<std::pmr::string> note;
  std::optional<pmr_sample> best;
  std::pmr::vector<std::pmr::vector<std::pmr::string>> matrix;
  std::pmr::vector<bsongen::nullable<pmr_sample>> maybe_samples;
  BSONGEN_CAPTURE_UNKNOWN bsongen::pmr::raw_document extra;

  friend bool operator==(const pmr_reading&, const pmr_reading&) = default;
};

// The same documents, spelled as the catalogue spells them by default.
struct BSONGEN_DOCUMENT std_sample {
  std::string label;
  double value = 0;

  friend bool operator==(const std_sample&, const std_sample&) = default;
};

struct BSONGEN_DOCUMENT std_reading {
  std::string name;
  std::vector<std::string> tags;
  std::vector<std_sample> samples;
  std::map<std::string, std::int64_t> labels;
  std::unordered_map<std::string, std_sample> by_name;
  std::vector<std::pair<std::string, std::string>> ordered;
  bsongen::binary blob;
  bsongen::regex filter;
  bsongen::raw_document shape;
  BSONGEN_AS(javascript) std::string script;
  std::optional<std::string> note;
  std::optional<std_sample> best;
  std::vector<std::vector<std::string>> matrix;
  std::vector<bsongen::nullable<std_sample>> maybe_samples;
  BSONGEN_CAPTURE_UNKNOWN bsongen::raw_document extra;

  friend bool operator==(const std_reading&, const std_reading&) = default;
};

}  // namespace scan_fixture
