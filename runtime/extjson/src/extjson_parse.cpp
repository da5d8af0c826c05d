// Extended JSON text to BSON: simdjson On Demand tokenizes, detail::extjson_builder maps.
//
// Why simdjson On Demand, by measurement: bench/extjson_bench.cpp drives this same builder from
// each Debian candidate (rows <case>/extjson_<tokenizer>/decode), so only the tokenizer varies.
// MB/s of BSON produced, median of 5, CPU time, g++ 12 -O3 (Release), 2-core build machine
// shared with other builds (./bench/bsongen_bench --benchmark_filter=extjson
// --benchmark_min_time=0.5 --benchmark_repetitions=5 --benchmark_report_aggregates_only=true):
//
//                                flat_bson  deep_bson  full_bson
//   simdjson On Demand (shipped)    651        690        267   (includes the padded copy)
//   simdjson DOM                    671        733        268
//   RapidJSON SAX, raw numbers      315        405        176
//   nlohmann::json SAX              136        177         91
//   libbson bson_init_from_json     136        129         82   (baseline, not a candidate)
//
// simdjson is about twice RapidJSON's speed on the string-heavy documents and 1.5x on full_bson.
// On Demand rather than DOM: within 6% of it, and it walks the text in place, so
// current_location() gives the character offsets our errors report; the DOM keeps no positions.
//
// Limits that follow from simdjson: the text is copied into a padded, reused thread-local buffer
// (On Demand reads up to SIMDJSON_PADDING bytes past the end); nesting is capped at 1024 levels
// whatever extjson_parse_options::max_depth says, which also bounds this file's recursion.

#include <algorithm>
#include <cstring>
#include <string>

#include "bsongen/detail/extjson_builder.hpp"
#include "bsongen/detail/utf8.hpp"
#include "bsongen/extjson.hpp"

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#endif
#include <simdjson.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace bsongen {
namespace {

namespace od = simdjson::ondemand;

constexpr std::size_t simdjson_depth_cap = 1024;

// Per-thread parser and padded copy of the text, reused so a steady stream of parses allocates
// only when a document is bigger than every one before it.
struct parse_state {
  od::parser parser;
  std::string padded;
};

parse_state& thread_state() {
  thread_local parse_state state;
  return state;
}

std::size_t first_invalid_utf8(std::string_view text) {
  // Binary search over prefixes would miss a sequence split at the cut; walk sequence by sequence.
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    const std::size_t length = c < 0x80           ? 1
                               : (c >> 5) == 0x6  ? 2
                               : (c >> 4) == 0xE  ? 3
                               : (c >> 3) == 0x1E ? 4
                                                  : 0;
    if (length == 0 || i + length > text.size() ||
        !detail::is_valid_utf8(reinterpret_cast<const std::uint8_t*>(text.data() + i), length)) {
      return i;
    }
    i += length;
  }
  return text.size();
}

// Where simdjson's first stage stopped: it reports the kind of problem, not the place.
std::size_t locate_stage1_error(simdjson::error_code code, std::string_view text) {
  if (code == simdjson::UTF8_ERROR) return first_invalid_utf8(text);
  if (code == simdjson::UNESCAPED_CHARS) {
    for (std::size_t i = 0; i < text.size(); ++i) {
      const auto c = static_cast<unsigned char>(text[i]);
      if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return i;
    }
  }
  return text.size();
}

std::string describe(simdjson::error_code code) {
  switch (code) {
    case simdjson::UTF8_ERROR:
      return "the text is not valid UTF-8";
    case simdjson::UNESCAPED_CHARS:
      return "a string holds an unescaped control character";
    case simdjson::UNCLOSED_STRING:
      return "a string is not closed";
    case simdjson::DEPTH_ERROR:
      return "nesting exceeds 1024 levels";
    default:
      return simdjson::error_message(code);
  }
}

class walker {
 public:
  walker(od::document& doc, detail::extjson_builder& builder, const char* base)
      : doc_(doc), builder_(builder), base_(base) {}

  // The top-level value: must be an object, and the text must end after it.
  bool run() {
    od::json_type type;
    if (auto e = doc_.type().get(type)) return syntax(e);
    const std::size_t at = here();
    if (type != od::json_type::object) {
      builder_.reject(
          error_code::json_invalid,
          "an Extended JSON document must be a JSON object, not " + std::string(type_text(type)),
          at);
      return false;
    }
    od::object object;
    if (auto e = doc_.get_object().get(object)) return syntax(e);
    if (!walk_object(object, at)) return false;
    const char* rest = nullptr;
    if (doc_.current_location().get(rest) == simdjson::SUCCESS) {
      builder_.reject(error_code::json_syntax, "text continues after the document",
                      offset_of(rest));
      return false;
    }
    return true;
  }

 private:
  static std::string_view type_text(od::json_type t) {
    switch (t) {
      case od::json_type::array:
        return "an array";
      case od::json_type::object:
        return "an object";
      case od::json_type::number:
        return "a number";
      case od::json_type::string:
        return "a string";
      case od::json_type::boolean:
        return "a boolean";
      case od::json_type::null:
        return "null";
    }
    return "a value";
  }

  [[nodiscard]] std::size_t offset_of(const char* p) const {
    return static_cast<std::size_t>(p - base_);
  }
  // The character offset of the token the iterator stands on (the end when it is past it).
  std::size_t here() {
    const char* p = nullptr;
    if (doc_.current_location().get(p) != simdjson::SUCCESS) return end_offset_;
    return offset_of(p);
  }
  bool syntax(simdjson::error_code e) {
    builder_.reject(error_code::json_syntax, describe(e), here());
    return false;
  }

  bool invalid_literal(std::string_view expected, std::size_t at) {
    builder_.reject(error_code::json_syntax, "invalid literal, expected " + std::string(expected),
                    at);
    return false;
  }

  bool walk_object(od::object object, std::size_t at) {
    if (!builder_.begin_object(at)) return false;
    for (auto field_result : object) {
      od::field field;
      if (auto e = std::move(field_result).get(field)) return syntax(e);
      const std::size_t key_at = here();
      std::string_view key;
      if (auto e = field.unescaped_key().get(key)) return syntax(e);
      if (!builder_.key(key, key_at)) return false;
      if (!walk_value(field.value())) return false;
    }
    return builder_.end_object(here());
  }

  bool walk_array(od::array array, std::size_t at) {
    if (!builder_.begin_array(at)) return false;
    for (auto item_result : array) {
      od::value item;
      if (auto e = std::move(item_result).get(item)) return syntax(e);
      if (!walk_value(item)) return false;
    }
    return builder_.end_array(here());
  }

  bool walk_value(od::value value) {
    od::json_type type;
    if (auto e = value.type().get(type)) return syntax(e);
    const std::size_t at = here();
    switch (type) {
      case od::json_type::object: {
        od::object object;
        if (auto e = value.get_object().get(object)) return syntax(e);
        return walk_object(object, at);
      }
      case od::json_type::array: {
        od::array array;
        if (auto e = value.get_array().get(array)) return syntax(e);
        return walk_array(array, at);
      }
      case od::json_type::string: {
        std::string_view s;
        if (auto e = value.get_string().get(s)) return syntax(e);
        return builder_.string_value(s, at);
      }
      case od::json_type::number: {
        od::number n;
        const simdjson::error_code e = value.get_number().get(n);
        if (e) {
          // simdjson rejects integers beyond 64 bits; JSON allows them, and the builder turns one
          // into the nearest double. Anything else it rejects is malformed.
          std::string_view raw = value.raw_json_token();
          while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\t' || raw.back() == '\n' ||
                                  raw.back() == '\r')) {
            raw.remove_suffix(1);
          }
          const std::string_view digits = !raw.empty() && raw[0] == '-' ? raw.substr(1) : raw;
          const bool big_integer = digits.size() > 19 && digits[0] != '0' &&
                                   digits.find_first_not_of("0123456789") == std::string_view::npos;
          if (big_integer) return builder_.number_text(raw, at);
        }
        if (e) return syntax(e);
        if (n.is_int64()) return builder_.int64_value(n.get_int64(), at);
        if (n.is_uint64()) return builder_.uint64_value(n.get_uint64(), at);
        return builder_.double_value(n.get_double(), at);
      }
      case od::json_type::boolean: {
        bool b = false;
        if (value.get_bool().get(b) != simdjson::SUCCESS)
          return invalid_literal("true or false", at);
        return builder_.bool_value(b, at);
      }
      case od::json_type::null: {
        bool is_null = false;
        if (value.is_null().get(is_null) != simdjson::SUCCESS || !is_null)
          return invalid_literal("null", at);
        return builder_.null_value(at);
      }
    }
    return syntax(simdjson::INCORRECT_TYPE);
  }

  od::document& doc_;
  detail::extjson_builder& builder_;
  const char* base_;
  std::size_t end_offset_ = 0;

 public:
  void set_end(std::size_t end) noexcept { end_offset_ = end; }
};

// Converts `json`, which must hold exactly one document, appending to `out`.
result<void> convert(std::string_view json, writer& out, const extjson_parse_options& options) {
  const std::size_t start_size = out.size();
  extjson_parse_options limited = options;
  limited.max_depth = std::min(options.max_depth, simdjson_depth_cap);
  detail::extjson_builder builder(out, limited);

  parse_state& state = thread_state();
  state.padded.assign(json);
  state.padded.append(simdjson::SIMDJSON_PADDING, '\0');
  const simdjson::padded_string_view padded(state.padded.data(), json.size(), state.padded.size());

  od::document doc;
  bool ok = false;
  if (auto e = state.parser.iterate(padded).get(doc)) {
    builder.reject(error_code::json_syntax, describe(e), locate_stage1_error(e, json));
  } else {
    walker w(doc, builder, state.padded.data());
    w.set_end(json.size());
    ok = w.run() && builder.finished();
  }
  if (!ok) {
    out.truncate(start_size);
    if (builder.failure().code == error_code::ok) {
      builder.reject(error_code::json_syntax, "no JSON document in the text", 0);
    }
    return builder.failure();
  }
  return {};
}

// Where the first top-level JSON value of `json` ends (one past its closing brace), found by
// matching braces outside strings; npos when the text ends first. Only the boundary is decided
// here: convert() then parses the slice fully.
std::size_t first_value_end(std::string_view json, std::size_t start) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = start; i < json.size(); ++i) {
    const char c = json[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (depth == 0) return i + 1;  // unbalanced: let the parser describe it
      if (--depth == 0) return i + 1;
    } else if (depth == 0 && c != ' ' && c != '\t' && c != '\n' && c != '\r') {
      // A top-level scalar: it ends at the next white space.
      std::size_t j = i;
      while (j < json.size() && json[j] != ' ' && json[j] != '\t' && json[j] != '\n' &&
             json[j] != '\r')
        ++j;
      return j;
    }
  }
  return std::string_view::npos;
}

}  // namespace

result<void> extjson_to_bson(std::string_view json, writer& out,
                             const extjson_parse_options& options) {
  return convert(json, out, options);
}

result<byte_buffer> extjson_to_bson(std::string_view json, const extjson_parse_options& options) {
  writer out;
  out.reserve(json.size());
  if (auto r = convert(json, out, options); !r) return std::move(r).error();
  return out.take();
}

result<std::size_t> extjson_to_bson_prefix(std::string_view json, writer& out,
                                           const extjson_parse_options& options) {
  std::size_t start = 0;
  while (start < json.size() && (json[start] == ' ' || json[start] == '\t' || json[start] == '\n' ||
                                 json[start] == '\r')) {
    ++start;
  }
  const std::size_t end = first_value_end(json, start);
  // An unterminated value: parse all that is left, so the error names what is wrong and where.
  const std::size_t length = end == std::string_view::npos ? json.size() : end;
  if (auto r = convert(json.substr(0, length), out, options); !r) return std::move(r).error();
  return length;
}

result<document> parse_extjson(std::string_view json, const extjson_parse_options& options) {
  thread_local writer bytes;
  bytes.clear();
  if (auto r = convert(json, bytes, options); !r) return std::move(r).error();
  decode_options decode;
  decode.max_size = options.max_size;
  decode.max_depth = options.max_depth;  // JSON nesting bounds the BSON nesting it produced
  return decode_document(bytes.bytes(), decode);
}

}  // namespace bsongen
