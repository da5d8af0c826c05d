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
// Limits that follow from simdjson: the text is copied into a padded thread-local buffer (On
// Demand reads up to SIMDJSON_PADDING bytes past the end); the parser's index takes about 5.7
// bytes per byte of text, the copy one more. Both are kept per thread for the next parse while
// they serve text up to retained_text_size, and released after a larger one. JSON nesting is
// capped at detail::json_depth_cap (below simdjson's 1024), which bounds this file's recursion.
//
// Error positions: simdjson's first stage (run by iterate()) reports the kind of problem, not
// where. stage1_error() finds the place: the first byte of bad UTF-8, the opening quote of an
// unclosed string, the first byte after the document; and for a structure that breaks (text that
// ends inside the document, a ']' closing a '{') it parses the text up to the break with the
// missing closers added, so an earlier error in the text is the one reported.

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

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

constexpr std::size_t npos = std::string_view::npos;

// Text up to this size leaves its parser state (about 7 MiB at this size) to the thread for the
// next parse; larger text releases it afterwards.
constexpr std::size_t retained_text_size = 1024 * 1024;

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

void release_if_large(parse_state& state) {
  if (state.parser.capacity() > retained_text_size ||
      state.padded.capacity() > retained_text_size + simdjson::SIMDJSON_PADDING) {
    state.parser = od::parser{};
    std::string().swap(state.padded);  // (assigning an empty string would keep the capacity)
  }
}

bool is_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::size_t skip_space(std::string_view text, std::size_t i) noexcept {
  while (i < text.size() && is_space(text[i])) ++i;
  return i;
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

// Whether `raw` is a number in JSON's grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
bool is_json_number(std::string_view raw) {
  std::size_t i = 0;
  auto digits = [&] {
    const std::size_t first = i;
    while (i < raw.size() && raw[i] >= '0' && raw[i] <= '9') ++i;
    return i > first;
  };
  if (i < raw.size() && raw[i] == '-') ++i;
  if (i < raw.size() && raw[i] == '0') {
    ++i;
  } else if (!digits()) {
    return false;
  }
  if (i < raw.size() && raw[i] == '.') {
    ++i;
    if (!digits()) return false;
  }
  if (i < raw.size() && (raw[i] == 'e' || raw[i] == 'E')) {
    ++i;
    if (i < raw.size() && (raw[i] == '+' || raw[i] == '-')) ++i;
    if (!digits()) return false;
  }
  return i == raw.size();
}

// Where the structure of the text first breaks, found by matching brackets outside strings (the
// only thing this scan decides; the parser judges everything else).
struct structure_scan {
  enum class outcome : std::uint8_t {
    complete,    // one value, then only white space
    trailing,    // one value ends at `end`, more text starts at `at`
    unclosed,    // the text ends inside a container (`at` is the end of the text)
    mismatched,  // the closer at `at` does not match the container that is open there
    empty,       // nothing but white space
  };
  outcome result = outcome::complete;
  std::size_t end = 0;
  std::size_t at = 0;
  std::vector<std::size_t> open;  // offsets of the containers open at `at`, outermost first
  bool in_string = false;         // `at` is inside a string (its opening quote is string_start)
  std::size_t string_start = 0;
};

// Scans for the end of the first value, or for where the structure breaks: at `stop` (a byte the
// caller knows is bad) when it comes first.
structure_scan scan_structure(std::string_view text, std::size_t stop = npos) {
  using outcome = structure_scan::outcome;
  structure_scan scan;
  std::size_t i = skip_space(text, 0);
  if (i == text.size()) {
    scan.result = outcome::empty;
    scan.at = text.size();
    return scan;
  }
  for (; i < text.size() && i < stop; ++i) {
    const char c = text[i];
    if (scan.in_string) {
      if (c == '\\') {
        if (i + 1 >= stop || i + 1 >= text.size()) break;  // cut before a lone backslash
        ++i;
        continue;
      }
      if (c != '"') continue;
      scan.in_string = false;
    } else if (c == '"') {
      scan.in_string = true;
      scan.string_start = i;
    } else if (c == '{' || c == '[') {
      scan.open.push_back(i);
    } else if (c == '}' || c == ']') {
      if (scan.open.empty() || text[scan.open.back()] != (c == '}' ? '{' : '[')) {
        scan.result = outcome::mismatched;
        scan.at = i;
        return scan;
      }
      scan.open.pop_back();
    } else if (scan.open.empty() && !is_space(c)) {
      // A top-level scalar: it runs to the next white space or bracket.
      while (i + 1 < text.size() && i + 1 < stop && !is_space(text[i + 1]) && text[i + 1] != '{' &&
             text[i + 1] != '[' && text[i + 1] != '"') {
        ++i;
      }
    }
    if (scan.open.empty() && !scan.in_string) {
      scan.end = i + 1;
      scan.at = skip_space(text, scan.end);
      scan.result = scan.at == text.size() ? outcome::complete : outcome::trailing;
      return scan;
    }
  }
  scan.result = outcome::unclosed;
  scan.at = std::min(i, text.size());
  return scan;
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

// Text from `offset` on is not the caller's (closers that stage1_error added): reaching it fails
// with `message` at `offset`, instead of closing a container there.
struct cut_point {
  std::size_t offset = npos;
  std::string message;
};

// Walks the document, calling the builder per token. `Cut`: the text has a cut_point (a parse of
// repaired text; the common walk pays nothing for it).
template <bool Cut>
class walker {
 public:
  walker(od::document& doc, detail::extjson_builder& builder, const char* base,
         std::size_t text_size, const cut_point& cut)
      : doc_(doc), builder_(builder), base_(base), end_offset_(text_size), cut_(cut) {}
  // A structural error simdjson gives without a position (see syntax()), or SUCCESS.
  [[nodiscard]] simdjson::error_code structural_error() const noexcept { return structural_; }

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
  // A syntax error where the iterator stands, or for a value, at `value_at` (where it starts).
  bool syntax(simdjson::error_code e, std::size_t value_at = npos) {
    const std::size_t at = value_at != npos ? value_at : here();
    if (Cut && at >= cut_.offset) return past_cut();
    if (e == simdjson::INCOMPLETE_ARRAY_OR_OBJECT) {
      // Found before the walk starts (the text's last bracket does not match its first), with no
      // position: stage1_error() finds where the structure breaks.
      structural_ = e;
      return false;
    }
    if (value_at != npos) {
      builder_.reject_value(error_code::json_syntax, describe(e), at);
    } else {
      builder_.reject(error_code::json_syntax, describe(e), at);
    }
    return false;
  }
  bool past_cut() {
    builder_.reject(error_code::json_syntax, cut_.message, cut_.offset);
    return false;
  }

  bool invalid_literal(std::string_view expected, std::size_t at) {
    builder_.reject_value(error_code::json_syntax,
                          "invalid literal, expected " + std::string(expected), at);
    return false;
  }

  [[gnu::noinline]] bool walk_object(od::object object, std::size_t at) {
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
    const std::size_t end_at = here();
    if constexpr (Cut) {
      if (end_at >= cut_.offset) return past_cut();
    }
    return builder_.end_object(end_at);
  }

  [[gnu::noinline]] bool walk_array(od::array array, std::size_t at) {
    if (!builder_.begin_array(at)) return false;
    for (auto item_result : array) {
      od::value item;
      if (auto e = std::move(item_result).get(item)) return syntax(e);
      if (!walk_value(item)) return false;
    }
    const std::size_t end_at = here();
    if constexpr (Cut) {
      if (end_at >= cut_.offset) return past_cut();
    }
    return builder_.end_array(end_at);
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
      default:
        return walk_scalar(value, type, at);
    }
  }

  // Kept out of walk_value, which recurses once per JSON level: the scalar cases' locals would
  // otherwise sit in every level's frame (about 5.8 KiB of the 8.5 a level took under ASan, enough
  // for json_depth_cap levels to overflow an 8 MiB stack).
  [[gnu::noinline]] bool walk_scalar(od::value value, od::json_type type, std::size_t at) {
    switch (type) {
      case od::json_type::object:
      case od::json_type::array:
        break;
      case od::json_type::string: {
        std::string_view s;
        if (auto e = value.get_string().get(s)) return syntax(e, at);
        return builder_.string_value(s, at);
      }
      case od::json_type::number: {
        od::number n;
        if (value.get_number().get(n) == simdjson::SUCCESS) [[likely]] {
          if (n.is_int64()) return builder_.int64_value(n.get_int64(), at);
          if (n.is_uint64()) return builder_.uint64_value(n.get_uint64(), at);
          return builder_.double_value(n.get_double(), at);
        }
        // simdjson rejects integers beyond 64 bits and numbers beyond a double's range; JSON
        // allows both. The builder reads such a number from its text: the nearest double, or
        // a range error.
        std::string_view raw = value.raw_json_token();
        while (!raw.empty() && is_space(raw.back())) raw.remove_suffix(1);
        if (Cut && at >= cut_.offset) return past_cut();
        if (is_json_number(raw)) return builder_.number_text(raw, at);
        builder_.reject_value(error_code::json_syntax, "malformed number", at);
        return false;
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
    return syntax(simdjson::INCORRECT_TYPE, at);
  }

  od::document& doc_;
  detail::extjson_builder& builder_;
  const char* base_;
  std::size_t end_offset_;
  const cut_point& cut_;
  simdjson::error_code structural_ = simdjson::SUCCESS;
};

// Lower bound on the BSON any accepted text makes: one byte per two ':' or ',' outside strings.
// Each object member and array element is at least 2 bytes of BSON (type byte and key NUL) and
// brings at most one ':' and one ','; a type wrapper brings at most 2 + 2 * (bytes of its value)
// of them ({"$minKey": {"$numberInt": "1"}}: 2 for 0 bytes; $regularExpression: 4 for 2;
// $dbPointer: 5 for 17; $code with $scope: 3 plus its scope's for 9 plus its scope's), and the
// outermost document's 5 bytes absorb the rest. So text with more than 2 * max_size + 2 of them
// cannot fit, and saying so costs one pass and no memory. Returns the offset where the count
// passes `limit`, or npos.
std::size_t separators_beyond(std::string_view text, std::size_t limit) {
  std::size_t count = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if ((c == ':' || c == ',') && ++count > limit) {
      return i;
    }
  }
  return npos;
}

result<void> convert_text(std::string_view json, std::size_t base, writer& out,
                          const extjson_parse_options& options, const cut_point& cut, int retry);

// "array that opens at byte 6": the container open where the scan stopped, counted from `base`
// bytes before `json` (where it starts in the caller's text; see extjson_to_bson_prefix).
std::string innermost(std::string_view json, std::size_t base, const structure_scan& scan) {
  if (scan.open.empty()) return "document";
  const std::size_t at = scan.open.back();
  return std::string(json[at] == '[' ? "array" : "object") + " that opens at byte " +
         std::to_string(base + at);
}

// Describes a failure of simdjson's first stage (see the comment at the top). `retry` counts the
// nested parses this takes, which stop at a few.
error stage1_error(simdjson::error_code code, std::string_view json, std::size_t base,
                   const extjson_parse_options& options, int retry) {
  using outcome = structure_scan::outcome;
  if (code == simdjson::CAPACITY) {
    return error(error_code::too_large, "the text is longer than the parser's 4 GiB limit", 0);
  }
  if (code == simdjson::MEMALLOC) {
    return error(
        error_code::too_large,
        "no memory for the parser's index of " + std::to_string(json.size()) + " bytes of text", 0);
  }
  // The byte at fault, when the kind of error names one.
  std::size_t bad = npos;
  std::string message = describe(code);
  if (code == simdjson::UTF8_ERROR) {
    bad = first_invalid_utf8(json);
  } else if (code == simdjson::UNESCAPED_CHARS) {
    bool in_string = false;
    for (std::size_t i = 0; i < json.size() && bad == npos; ++i) {
      const auto c = static_cast<unsigned char>(json[i]);
      if (in_string && c < 0x20) {
        bad = i;
      } else if (in_string && c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = !in_string;
      }
    }
  }
  structure_scan scan = scan_structure(json, bad);
  if (code == simdjson::UNCLOSED_STRING && scan.result == outcome::unclosed && scan.in_string) {
    bad = scan.string_start;
    scan = scan_structure(json, bad);
  }
  switch (scan.result) {
    case outcome::empty:
      return error(error_code::json_syntax, "the text holds no JSON value", json.size());
    case outcome::complete:
      return error(error_code::json_syntax, message, bad == npos ? json.size() : bad);
    case outcome::trailing: {
      // The document itself may hold an earlier error: parse it alone first.
      if (retry < 3) {
        writer scratch;
        if (auto r = convert_text(json.substr(0, scan.end), base, scratch, options, {}, retry + 1);
            !r) {
          return std::move(r).error();
        }
      }
      return error(error_code::json_syntax, "text continues after the document", scan.at);
    }
    case outcome::mismatched:
      message =
          std::string("'") + json[scan.at] + "' does not close the " + innermost(json, base, scan);
      bad = scan.at;
      break;
    case outcome::unclosed:
      if (bad == npos) {
        bad = json.size();
        message = "the text ends inside the " + innermost(json, base, scan);
      }
      break;
  }
  if (retry >= 3) return error(error_code::json_syntax, message, bad);
  // Parse the text up to the break, closed there, so that an error before the break is the one
  // reported; an error at the break or in what was added is the break's.
  std::string repaired(json.substr(0, scan.at));
  if (scan.in_string) repaired += '"';
  for (auto it = scan.open.rbegin(); it != scan.open.rend(); ++it) {
    repaired += json[*it] == '[' ? ']' : '}';
  }
  writer scratch;
  result<void> r = convert_text(repaired, base, scratch, options, {bad, message}, retry + 1);
  if (!r && r.error().offset < bad) return std::move(r).error();
  return error(error_code::json_syntax, message, bad);
}

// Converts `json`, which must hold exactly one document, appending to `out`; on error `out` may
// hold part of it (convert() undoes that). Error offsets are relative to `json`; `base` only
// shifts the positions that messages name (convert() shifts the offsets once, at the end).
result<void> convert_text(std::string_view json, std::size_t base, writer& out,
                          const extjson_parse_options& options, const cut_point& cut, int retry) {
  const std::size_t max = std::numeric_limits<std::size_t>::max();
  const std::size_t separator_limit =
      options.max_size > (max - 2) / 2 ? max : 2 * options.max_size + 2;
  if (json.size() > separator_limit) {
    if (const std::size_t at = separators_beyond(json, separator_limit); at != npos) {
      return error(error_code::too_large,
                   "the text has more than " + std::to_string(separator_limit) +
                       " ':' and ',' outside strings, so its BSON would exceed the limit of " +
                       std::to_string(options.max_size) + " bytes",
                   at);
    }
  }

  detail::extjson_builder builder(out, options);
  parse_state& state = thread_state();
  state.padded.reserve(json.size() + simdjson::SIMDJSON_PADDING);  // one allocation, not two
  state.padded.assign(json);
  state.padded.append(simdjson::SIMDJSON_PADDING, '\0');
  const simdjson::padded_string_view padded(state.padded.data(), json.size(), state.padded.size());

  od::document doc;
  bool ok = false;
  simdjson::error_code first_stage = state.parser.iterate(padded).get(doc);
  if (first_stage == simdjson::SUCCESS) {
    if (cut.offset == npos) [[likely]] {
      walker<false> w(doc, builder, state.padded.data(), json.size(), cut);
      ok = w.run() && builder.finished();
      first_stage = w.structural_error();
    } else {
      walker<true> w(doc, builder, state.padded.data(), json.size(), cut);
      ok = w.run() && builder.finished();
      first_stage = w.structural_error();
    }
  }
  release_if_large(state);
  if (first_stage != simdjson::SUCCESS)
    return stage1_error(first_stage, json, base, options, retry);
  if (!ok) {
    if (builder.failure().code == error_code::ok) {
      builder.reject(error_code::json_syntax, "no JSON document in the text", 0);
    }
    return builder.failure();
  }
  return {};
}

// convert_text, leaving `out` as it was on error, with offsets counted from `base` bytes before
// `json`. Into a caller buffer, a type wrapper is briefly written in its longer document form, so
// text whose BSON would fit can overflow the buffer: then it is converted again into memory of our
// own and copied if it fits.
result<void> convert(std::string_view json, std::size_t base, writer& out,
                     const extjson_parse_options& options) {
  const writer::mark start = out.position();
  const auto shifted = [base](result<void> r) {
    if (!r) r.error().offset += base;
    return r;
  };
  result<void> r = convert_text(json, base, out, options, {}, 0);
  if (r) return r;
  out.rewind(start);
  if (r.error().code != error_code::buffer_too_small || !out.uses_caller_buffer()) {
    return shifted(std::move(r));
  }
  writer own;
  if (auto again = convert_text(json, base, own, options, {}, 0); !again) {
    return shifted(std::move(again));
  }
  std::uint8_t* p = out.extend(own.size());
  if (p == nullptr) {
    return error(error_code::buffer_too_small,
                 "the BSON takes " + std::to_string(own.size()) + " bytes, the buffer has " +
                     std::to_string(out.capacity() - out.size()) + " left",
                 base);
  }
  std::memcpy(p, own.data(), own.size());
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
    } else if (depth == 0 && !is_space(c)) {
      // A top-level scalar: it ends at the next white space.
      std::size_t j = i;
      while (j < json.size() && !is_space(json[j])) ++j;
      return j;
    }
  }
  return npos;
}

}  // namespace

result<void> extjson_to_bson(std::string_view json, writer& out,
                             const extjson_parse_options& options) {
  return convert(json, 0, out, options);
}

result<byte_buffer> extjson_to_bson(std::string_view json, const extjson_parse_options& options) {
  writer out;
  out.reserve(std::min(json.size(), options.max_size));
  if (auto r = convert(json, 0, out, options); !r) return std::move(r).error();
  return out.take();
}

result<std::size_t> extjson_to_bson_prefix(std::string_view json, writer& out,
                                           const extjson_parse_options& options) {
  return extjson_to_bson_prefix(json, 0, out, options);
}

result<std::size_t> extjson_to_bson_prefix(std::string_view json, std::size_t from, writer& out,
                                           const extjson_parse_options& options) {
  from = std::min(from, json.size());
  const std::size_t start = skip_space(json, from);
  const std::size_t end = first_value_end(json, start);
  // An unterminated value: parse all that is left, so the error names what is wrong and where.
  const std::size_t stop = end == npos ? json.size() : end;
  if (auto r = convert(json.substr(from, stop - from), from, out, options); !r) {
    return std::move(r).error();
  }
  return stop;
}

result<document> parse_extjson(std::string_view json, const extjson_parse_options& options) {
  thread_local writer bytes;
  bytes.clear();
  result<void> r = convert(json, 0, bytes, options);
  decode_options decode;
  decode.max_size = options.max_size;
  decode.max_depth = options.max_depth;  // counted alike, so what converted decodes
  result<document> doc = r ? decode_document(bytes.bytes(), decode) : result<document>(r.error());
  if (bytes.capacity() > retained_text_size) bytes = writer{};
  return doc;
}

}  // namespace bsongen
