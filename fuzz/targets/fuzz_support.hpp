#pragma once

// Shared checks of the fuzz targets. A broken property aborts with a message naming it, which
// libFuzzer reports as a crash and saves the input (crash-<sha1>) for reproduction.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string_view>

#include "bsongen/document.hpp"
#include "bsongen/document_view.hpp"

// Aborts with the failed condition and `why` when `condition` is false.
#define BSONGEN_FUZZ_REQUIRE(condition, why)                                                 \
  do {                                                                                       \
    if (!(condition)) ::bsongen::fuzz::property_failed(#condition, why, __FILE__, __LINE__); \
  } while (false)

namespace bsongen::fuzz {

[[noreturn]] inline void property_failed(const char* condition, const char* why, const char* file,
                                         int line) {
  std::fprintf(stderr, "\nproperty violated at %s:%d: %s\n  (%s)\n", file, line, why, condition);
  std::fflush(stderr);
  std::abort();
}

inline bool same_bytes(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size()) == 0);
}

inline bool same_error(const error& a, const error& b) {
  return a.code == b.code && a.offset == b.offset && a.path == b.path;
}

// Every error a decoder returns for `input` must point inside it (or at its end) and say what.
inline void require_sane_error(const error& e, std::size_t input_size) {
  BSONGEN_FUZZ_REQUIRE(e.code != error_code::ok, "a failed decode carries error_code::ok");
  BSONGEN_FUZZ_REQUIRE(e.offset <= input_size, "error offset beyond the input");
  BSONGEN_FUZZ_REQUIRE(!e.message.empty(), "error without a message");
}

// True when encode_document would reproduce `doc` byte for byte: every array's keys are "0",
// "1", ... and every regex's options are sorted. (Every other part of BSON has one encoding.)
// Recursion is bounded by the depth limit `doc` was validated with.
inline bool is_canonical(document_view doc, bool is_array) {
  std::size_t index = 0;
  char expected_key[24];
  for (view_element e : doc) {
    if (is_array) {
      const int n = std::snprintf(expected_key, sizeof expected_key, "%zu", index++);
      if (e.key() != std::string_view(expected_key, static_cast<std::size_t>(n))) return false;
    }
    switch (e.type()) {
      case bson_type::document:
        if (!is_canonical(e.as_document(), false)) return false;
        break;
      case bson_type::array:
        if (!is_canonical(e.as_array().as_document_view(), true)) return false;
        break;
      case bson_type::javascript_with_scope:
        if (!is_canonical(e.as_javascript_with_scope_scope(), false)) return false;
        break;
      case bson_type::regex: {
        const std::string_view options = e.as_regex().options;
        for (std::size_t i = 1; i < options.size(); ++i) {
          if (options[i - 1] > options[i]) return false;
        }
        break;
      }
      default:
        break;
    }
  }
  return true;
}

// The view and the generic document decoded from the same bytes hold the same elements.
// Every span the view hands out lies inside `input`.
inline void require_view_matches(document_view view, document_ref doc, bool is_array,
                                 std::span<const std::uint8_t> input);

inline bool inside(std::span<const std::uint8_t> part, std::span<const std::uint8_t> whole) {
  return part.data() >= whole.data() && part.data() + part.size() <= whole.data() + whole.size();
}
inline bool inside(std::string_view part, std::span<const std::uint8_t> whole) {
  return inside(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(part.data()),
                                              part.size()),
                whole);
}

inline void require_element_matches(view_element v, value_ref g,
                                    std::span<const std::uint8_t> input) {
  BSONGEN_FUZZ_REQUIRE(v.type() == g.type(), "view and document disagree on a type");
  BSONGEN_FUZZ_REQUIRE(inside(v.value_bytes(), input), "view value bytes outside the input");
  switch (v.type()) {
    case bson_type::double_: {
      const double a = v.as_double();
      const double b = g.as_double();
      BSONGEN_FUZZ_REQUIRE(std::memcmp(&a, &b, sizeof a) == 0, "double differs");
      break;
    }
    case bson_type::int32:
      BSONGEN_FUZZ_REQUIRE(v.as_int32() == g.as_int32(), "int32 differs");
      break;
    case bson_type::int64:
      BSONGEN_FUZZ_REQUIRE(v.as_int64() == g.as_int64(), "int64 differs");
      break;
    case bson_type::boolean:
      BSONGEN_FUZZ_REQUIRE(v.as_bool() == g.as_bool(), "bool differs");
      break;
    case bson_type::datetime:
      BSONGEN_FUZZ_REQUIRE(v.as_datetime() == g.as_datetime(), "datetime differs");
      break;
    case bson_type::timestamp:
      BSONGEN_FUZZ_REQUIRE(v.as_timestamp() == g.as_timestamp(), "timestamp differs");
      break;
    case bson_type::object_id:
      BSONGEN_FUZZ_REQUIRE(v.as_object_id() == g.as_object_id(), "objectId differs");
      break;
    case bson_type::decimal128:
      BSONGEN_FUZZ_REQUIRE(v.as_decimal128() == g.as_decimal128(), "decimal128 differs");
      break;
    case bson_type::string:
      BSONGEN_FUZZ_REQUIRE(inside(v.as_string(), input), "view string outside the input");
      BSONGEN_FUZZ_REQUIRE(v.as_string() == g.as_string(), "string differs");
      break;
    case bson_type::javascript:
      BSONGEN_FUZZ_REQUIRE(v.as_javascript() == g.as_javascript(), "code differs");
      break;
    case bson_type::symbol:
      BSONGEN_FUZZ_REQUIRE(v.as_symbol() == g.as_symbol(), "symbol differs");
      break;
    case bson_type::binary: {
      const binary_view a = v.as_binary();
      const binary_view b = g.as_binary();
      BSONGEN_FUZZ_REQUIRE(inside(a.bytes, input), "view binary outside the input");
      BSONGEN_FUZZ_REQUIRE(a.subtype == b.subtype && same_bytes(a.bytes, b.bytes),
                           "binary differs");
      break;
    }
    case bson_type::regex: {
      const regex_view a = v.as_regex();
      const regex_view b = g.as_regex();
      BSONGEN_FUZZ_REQUIRE(inside(a.pattern, input) && inside(a.options, input),
                           "view regex outside the input");
      BSONGEN_FUZZ_REQUIRE(a.pattern == b.pattern && a.options == b.options, "regex differs");
      break;
    }
    case bson_type::db_pointer: {
      const db_pointer_view a = v.as_db_pointer();
      const db_pointer_view b = g.as_db_pointer();
      BSONGEN_FUZZ_REQUIRE(a.ns == b.ns && a.id == b.id, "dbPointer differs");
      break;
    }
    case bson_type::javascript_with_scope:
      BSONGEN_FUZZ_REQUIRE(v.as_javascript_with_scope_code() == g.as_javascript_with_scope_code(),
                           "code with scope code differs");
      require_view_matches(v.as_javascript_with_scope_scope(), g.as_javascript_with_scope_scope(),
                           false, input);
      break;
    case bson_type::document:
      require_view_matches(v.as_document(), g.as_document(), false, input);
      break;
    case bson_type::array: {
      const array_ref a = g.as_array();
      // An array_ref's container is a document's, keys included: compare through document_ref.
      require_view_matches(v.as_array().as_document_view(), document_ref(&a.root()), true, input);
      break;
    }
    case bson_type::null:
    case bson_type::undefined:
    case bson_type::min_key:
    case bson_type::max_key:
      break;
  }
}

inline void require_view_matches(document_view view, document_ref doc, bool is_array,
                                 std::span<const std::uint8_t> input) {
  BSONGEN_FUZZ_REQUIRE(inside(view.bytes(), input), "view document outside the input");
  BSONGEN_FUZZ_REQUIRE(view.count() == doc.size(), "view and document count different elements");
  std::size_t i = 0;
  for (view_element v : view) {
    const element g = doc.at(i++);
    BSONGEN_FUZZ_REQUIRE(inside(v.key(), input), "view key outside the input");
    BSONGEN_FUZZ_REQUIRE(is_array || v.key() == g.key(), "view and document disagree on a key");
    require_element_matches(v, g, input);
  }
  if (!is_array && doc.size() != 0) {
    // Lookup returns the first element with a key, in both.
    const std::string_view key = doc.at(doc.size() - 1).key();
    BSONGEN_FUZZ_REQUIRE(view.find(key).exists(), "view lookup misses a key");
    BSONGEN_FUZZ_REQUIRE(view.find(key).type() == doc.find(key).type(),
                         "view and document find different firsts");
  }
}

}  // namespace bsongen::fuzz
