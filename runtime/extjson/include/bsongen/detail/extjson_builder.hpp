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
// Depth is counted as BSON decoding counts it (decode_options::max_depth): the levels of the BSON
// being built, not of the JSON. A type wrapper is no level (nor are the objects inside it, such
// as $binary's {"base64": ..., "subType": ...}), a $scope document is one, as the decoders count
// it. So an object that opens one level too deep is allowed only as long as it can still turn out
// to be a type wrapper: it fails with too_deep at its first ordinary key, or when it closes as a
// document. JSON nesting itself stops at json_depth_cap.
//
// Size: the BSON being built is checked against max_size as it grows, at each key and array
// element and before a string over 4 KiB is copied, so text that converts to too much fails near
// max_size bytes rather than after building all of it. Type wrappers are first written in their
// larger document form, so that check allows wrapper_slack bytes beyond max_size; the exact limit
// is checked when a container closes.
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

// Most JSON objects and arrays on one path, whatever max_depth says (below simdjson's 1024, so
// this builder's error is the one reported). Bounds the tokenizer's recursion and the frames.
inline constexpr std::size_t json_depth_cap = 1000;

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
    size_end_ = 0;
  }

  // How far past max_size the growing document may go before failing (see the top comment):
  // the document form of the $code/$scope wrappers open on one path, 16 bytes each, at most
  // json_depth_cap / 2 of them.
  static constexpr std::size_t wrapper_slack = 16 * (json_depth_cap / 2) + 64;

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
  // reject() for a value the tokenizer cannot read: in an array its path ends with its index.
  void reject_value(error_code code, std::string message, std::size_t offset) {
    fail_value(code, std::move(message), offset);
  }

  // True once the top-level object has closed.
  [[nodiscard]] bool finished() const noexcept { return finished_; }
  [[nodiscard]] const error& failure() const noexcept { return failure_; }
  [[nodiscard]] error& failure() noexcept { return failure_; }

 private:
  struct frame {
    std::size_t element_start;  // type byte of the element holding this container; npos at top
    std::size_t body_start;     // the container's int32 length
    std::size_t json_offset;    // where its '{' or '[' is in the text
    // What an ordinary key or array element may take the output to: size_end_ (the growth
    // check); 0 when the container is over the depth limit (an ordinary key makes it too deep);
    // npos inside a type wrapper (its keys are not part of the BSON).
    std::size_t key_limit;
    std::uint32_t count;  // elements so far (the next array index)
    std::uint32_t level;  // its BSON depth if it stays a container (the outermost is 1)
    bool is_array;
    bool has_dollar_key;       // worth checking for a type wrapper when it closes
    bool date_is_bare_number;  // "$date": <number>, which Extended JSON v2 rejects
    // False once a key makes this object a type wrapper ($numberInt, $binary, $code, ...), and
    // for containers inside a wrapper's value: none of them is a BSON level.
    bool counts;
    bool over;              // level > max_depth: must turn out to be a type wrapper
    std::uint8_t last_key;  // what kind of special key its latest key is (0: an ordinary one)
  };
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  // Writes the type byte and key of the next element of the innermost container and returns the
  // type byte's position, or npos (after failing) when no value is expected here.
  std::size_t begin_element(bson_type type, std::size_t offset);
  bool fail(error_code code, std::string message, std::size_t offset);
  // fail() for the value about to be added: in an array its path ends with its index.
  bool fail_value(error_code code, std::string message, std::size_t offset);
  bool close_container(std::size_t offset);
  bool overflow(std::size_t offset);
  // Pushes the frame of a container opening at `offset` after checking the depth rules.
  bool open_frame(bool is_array, std::size_t element_start, std::size_t offset);
  bool too_deep(std::size_t offset);
  bool grown_too_large(std::size_t offset);
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
  std::size_t size_end_ = 0;          // the growth check's bound: start + max_size + slack
};

}  // namespace bsongen::detail
