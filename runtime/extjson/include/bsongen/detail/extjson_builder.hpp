#pragma once

// extjson_builder: turns JSON tokens into BSON bytes, applying the Extended JSON mapping.
//
// A JSON tokenizer drives it with one call per token, each with the character offset where the
// tokenizer stands (used only in error messages). Every object is first written as a plain BSON
// document; when one that holds a '$'-prefixed key closes, its bytes are inspected and, if they
// form a type wrapper ({"$numberInt": "1"}, {"$binary": {...}}, ...), replaced in place by the
// typed value. So the builder never buffers tokens or builds a tree, and the common case (objects
// without '$' keys) pays one flag test per key.
//
// The tokenizer is ours to choose (extjson_parse.cpp says which and why); the benchmark drives
// this same builder from each candidate, so the comparison measures tokenizers alone.
// Offsets are character offsets in the text; tokenizers that cannot tell pass 0.
//
// Every call returns false once the input is rejected; failure() then says why. Not thread-safe;
// one builder per parse (it may be reused after reset()).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "bsongen/error.hpp"
#include "bsongen/extjson.hpp"
#include "bsongen/writer.hpp"

namespace bsongen::detail {

class extjson_builder {
 public:
  extjson_builder(writer& out, const extjson_parse_options& options)
      : out_(out), options_(options) {}

  // Forgets everything but the capacity of its scratch space, for the next document.
  void reset() {
    frames_.clear();
    failure_ = {};
    finished_ = false;
    key_pending_ = false;
  }

  bool begin_object(std::size_t offset);
  bool end_object(std::size_t offset);
  bool begin_array(std::size_t offset);
  bool end_array(std::size_t offset);
  bool key(std::string_view k, std::size_t offset);
  bool string_value(std::string_view s, std::size_t offset);
  // The text of a JSON number as it appears in the input (already checked to be JSON syntax).
  bool number_text(std::string_view raw, std::size_t offset);
  // Already converted numbers, for tokenizers that parse them: a JSON integer that fits int64,
  // one that fits only uint64, and a number with a fraction or exponent (or beyond uint64).
  bool int64_value(std::int64_t v, std::size_t offset);
  bool uint64_value(std::uint64_t v, std::size_t offset);
  bool double_value(double v, std::size_t offset);
  bool bool_value(bool v, std::size_t offset);
  bool null_value(std::size_t offset);

  // Records an error found outside the builder (json_syntax from the tokenizer, or json_invalid
  // for a top-level value that is not an object) with the current path; the first error wins.
  void reject(error_code code, std::string message, std::size_t offset);

  // True once the top-level object has closed.
  [[nodiscard]] bool finished() const noexcept { return finished_; }
  [[nodiscard]] const error& failure() const noexcept { return failure_; }
  [[nodiscard]] error& failure() noexcept { return failure_; }

 private:
  struct frame {
    std::size_t element_start;  // type byte of the element holding this container; npos at top
    std::size_t body_start;     // the container's int32 length
    std::size_t json_offset;    // where its '{' or '[' is in the text
    std::uint32_t count;        // elements so far (the next array index)
    bool is_array;
    bool has_dollar_key;       // worth checking for a type wrapper when it closes
    bool date_is_bare_number;  // "$date": <number>, which Extended JSON v2 rejects
  };
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  // Writes the type byte and key of the next element of the innermost container and returns the
  // type byte's position, or npos (after failing) when no value is expected here.
  std::size_t begin_element(bson_type type, std::size_t offset);
  bool fail(error_code code, std::string message, std::size_t offset);
  bool close_container(std::size_t offset);
  bool overflow(std::size_t offset);
  // Replaces the just-closed object `f` by the typed value it wraps, if it is a type wrapper.
  bool convert_wrapper(const frame& f);
  [[nodiscard]] std::string current_path() const;

  writer& out_;
  const extjson_parse_options& options_;
  std::vector<frame> frames_;
  writer scratch_;
  error failure_;
  bool finished_ = false;
  bool key_pending_ = false;          // a key was written and awaits its value
  std::size_t pending_type_pos_ = 0;  // where that key's element type byte goes
};

}  // namespace bsongen::detail
