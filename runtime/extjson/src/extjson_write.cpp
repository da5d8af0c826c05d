// BSON to Extended JSON v2 text, canonical or relaxed.
//
// One walker serves both document sources (validated bytes through document_view, or the generic
// document's nodes through document_ref): their element types share the accessor names, so the
// walker is a template over the source. Nesting lives in an explicit stack, not the C++ stack, so
// a deeply built document cannot overflow it.
//
// A document holding a key that Extended JSON reads as a type wrapper's ({"$oid": "zz"} as a
// sub-document, or {"$regex": "x", "$options": ""}) is written as it is: its text reads back as
// that type, or fails. The specification has no escape for a leading '$' ("Restrictions and
// limitations"), so check_extjson_round_trip finds such documents for callers that must not
// write them (bsongen-dump --canonical); extjson_keys.hpp decides which keys, for it and the
// parser alike.

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "bsongen/extjson.hpp"
#include "extjson_keys.hpp"

namespace bsongen {

namespace detail {

char* format_double(double v, char* out) noexcept {
  // Shortest round-trip digits first, in scientific form: "d[.ddd]e±XX".
  char sci[max_double_chars];
  const auto [sci_end, ec] = std::to_chars(sci, sci + sizeof sci, v, std::chars_format::scientific);
  (void)ec;  // 32 chars always hold a double's shortest scientific form
  const char* p = sci;
  if (*p == '-') *out++ = *p++;
  char digits[20];
  std::size_t digit_count = 0;
  for (; p != sci_end && *p != 'e'; ++p) {
    if (*p != '.') digits[digit_count++] = *p;
  }
  int exponent = 0;
  std::from_chars(*(p + 1) == '+' ? p + 2 : p + 1, sci_end, exponent);

  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) {
      *out++ = '0';
      *out++ = '.';
      for (int i = -1; i > exponent; --i) *out++ = '0';
      std::memcpy(out, digits, digit_count);
      return out + digit_count;
    }
    const auto integer_digits = static_cast<std::size_t>(exponent) + 1;
    for (std::size_t i = 0; i < integer_digits; ++i) *out++ = i < digit_count ? digits[i] : '0';
    *out++ = '.';
    if (digit_count <= integer_digits) {
      *out++ = '0';
      return out;
    }
    std::memcpy(out, digits + integer_digits, digit_count - integer_digits);
    return out + (digit_count - integer_digits);
  }
  *out++ = digits[0];
  if (digit_count > 1) {
    *out++ = '.';
    std::memcpy(out, digits + 1, digit_count - 1);
    out += digit_count - 1;
  }
  *out++ = 'E';
  *out++ = exponent < 0 ? '-' : '+';
  return std::to_chars(out, out + 4, exponent < 0 ? -exponent : exponent).ptr;
}

}  // namespace detail

namespace {

// Bytes a JSON string cannot hold as they are: control characters, the quote and the backslash.
constexpr std::array<bool, 256> needs_escape_table = [] {
  std::array<bool, 256> table{};
  for (int c = 0; c < 0x20; ++c) table[static_cast<std::size_t>(c)] = true;
  table['"'] = true;
  table['\\'] = true;
  return table;
}();

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  std::size_t run_start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (!needs_escape_table[c]) [[likely]]
      continue;
    out.append(s.data() + run_start, i - run_start);
    run_start = i + 1;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default: {
        static constexpr char hex[] = "0123456789abcdef";
        const char escape[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xF]};
        out.append(escape, 6);
      }
    }
  }
  out.append(s.data() + run_start, s.size() - run_start);
  out += '"';
}

template <class Integer>
void append_integer(std::string& out, Integer v) {
  char buffer[24];
  out.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, v).ptr);
}

void append_quoted_integer(std::string& out, std::int64_t v) {
  out += '"';
  append_integer(out, v);
  out += '"';
}

void append_double(std::string& out, double v, extjson_mode mode) {
  if (!std::isfinite(v)) {
    out += std::isnan(v)
               ? R"({"$numberDouble":"NaN"})"
               : (v > 0 ? R"({"$numberDouble":"Infinity"})" : R"({"$numberDouble":"-Infinity"})");
    return;
  }
  char buffer[detail::max_double_chars];
  char* end = detail::format_double(v, buffer);
  if (mode == extjson_mode::relaxed) {
    out.append(buffer, end);
    return;
  }
  out += R"({"$numberDouble":")";
  out.append(buffer, end);
  out += "\"}";
}

void append_base64(std::string& out, std::span<const std::uint8_t> bytes) {
  static constexpr char alphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const std::size_t full = bytes.size() / 3 * 3;
  const std::size_t start = out.size();
  out.resize(start + (bytes.size() + 2) / 3 * 4);
  char* o = out.data() + start;
  for (std::size_t i = 0; i < full; i += 3) {
    const std::uint32_t v =
        std::uint32_t{bytes[i]} << 16 | std::uint32_t{bytes[i + 1]} << 8 | bytes[i + 2];
    *o++ = alphabet[v >> 18];
    *o++ = alphabet[(v >> 12) & 63];
    *o++ = alphabet[(v >> 6) & 63];
    *o++ = alphabet[v & 63];
  }
  if (const std::size_t rest = bytes.size() - full; rest != 0) {
    std::uint32_t v = std::uint32_t{bytes[full]} << 16;
    if (rest == 2) v |= std::uint32_t{bytes[full + 1]} << 8;
    *o++ = alphabet[v >> 18];
    *o++ = alphabet[(v >> 12) & 63];
    *o++ = rest == 2 ? alphabet[(v >> 6) & 63] : '=';
    *o++ = '=';
  }
}

void append_object_id(std::string& out, const object_id& id) {
  out += R"({"$oid":")";
  char hex[24];
  id.to_hex(hex);
  out.append(hex, 24);
  out += "\"}";
}

// "2012-12-24T12:15:30.501Z"; milliseconds only when not zero, as the corpus writes them.
void append_iso_date(std::string& out, std::int64_t ms) {
  using namespace std::chrono;
  const sys_time<milliseconds> t{milliseconds(ms)};
  const auto day = floor<days>(t);
  const year_month_day ymd{day};
  const hh_mm_ss<milliseconds> time{t - day};
  char buffer[32];
  auto two = [](char* p, unsigned v) {
    p[0] = static_cast<char>('0' + v / 10);
    p[1] = static_cast<char>('0' + v % 10);
  };
  const int y = static_cast<int>(ymd.year());
  buffer[0] = static_cast<char>('0' + y / 1000);
  buffer[1] = static_cast<char>('0' + y / 100 % 10);
  two(buffer + 2, static_cast<unsigned>(y % 100));
  buffer[4] = '-';
  two(buffer + 5, static_cast<unsigned>(ymd.month()));
  buffer[7] = '-';
  two(buffer + 8, static_cast<unsigned>(ymd.day()));
  buffer[10] = 'T';
  two(buffer + 11, static_cast<unsigned>(time.hours().count()));
  buffer[13] = ':';
  two(buffer + 14, static_cast<unsigned>(time.minutes().count()));
  buffer[16] = ':';
  two(buffer + 17, static_cast<unsigned>(time.seconds().count()));
  std::size_t n = 19;
  if (const auto millis = static_cast<unsigned>(time.subseconds().count()); millis != 0) {
    buffer[n++] = '.';
    buffer[n++] = static_cast<char>('0' + millis / 100);
    two(buffer + n, millis % 100);
    n += 2;
  }
  buffer[n++] = 'Z';
  out.append(buffer, n);
}

void append_datetime(std::string& out, std::int64_t ms, extjson_mode mode) {
  // The specification's relaxed form is an ISO-8601 string for years 1970 to 9999 only.
  constexpr std::int64_t year_10000_ms = 253402300800000;
  if (mode == extjson_mode::relaxed && ms >= 0 && ms < year_10000_ms) {
    out += R"({"$date":")";
    append_iso_date(out, ms);
    out += "\"}";
    return;
  }
  out += R"({"$date":{"$numberLong":)";
  append_quoted_integer(out, ms);
  out += "}}";
}

// Regex options sorted, as the specification and our encoder write them (when all ASCII: sorting
// the bytes of multi-byte UTF-8 would split it, so those are kept as read, as encode does).
void append_regex(std::string& out, std::string_view pattern, std::string_view options) {
  out += R"({"$regularExpression":{"pattern":)";
  append_json_string(out, pattern);
  out += R"(,"options":)";
  const bool ascii = std::all_of(options.begin(), options.end(),
                                 [](char ch) { return static_cast<unsigned char>(ch) < 0x80; });
  if (!ascii || std::is_sorted(options.begin(), options.end())) {
    append_json_string(out, options);
  } else {
    std::string sorted(options);
    std::sort(sorted.begin(), sorted.end());
    append_json_string(out, sorted);
  }
  out += "}}";
}

// What the walker needs from a document source, for validated bytes and for nodes.
struct view_source {
  using doc = document_view;
  using iterator = view_iterator;
  static doc array_as_doc(const view_element& e) { return e.as_array().as_document_view(); }
  // Where `sub` starts in the bytes of `root`, for error offsets.
  static std::size_t offset_in(doc root, doc sub) {
    return static_cast<std::size_t>(sub.bytes().data() - root.bytes().data());
  }
};
struct node_source {
  using doc = document_ref;
  using iterator = document_ref::iterator;
  // An array's nodes keep keys, so a document_ref over the same container walks it in order.
  static doc array_as_doc(const element& e) { return document_ref(&e.as_array().root()); }
  static std::size_t offset_in(doc, doc) { return 0; }  // nodes have no bytes
};

enum class frame_kind : std::uint8_t { document, array, scope };

template <class Source>
struct walk_frame {
  typename Source::iterator next;
  typename Source::iterator end;
  frame_kind kind;
  bool first;
};

template <class Source>
void write_document(typename Source::doc root, std::string& out, extjson_mode mode) {
  const bool relaxed = mode == extjson_mode::relaxed;
  std::vector<walk_frame<Source>> stack;
  stack.push_back({root.begin(), root.end(), frame_kind::document, true});
  out += '{';
  while (!stack.empty()) {
    walk_frame<Source>& top = stack.back();
    if (top.next == top.end) {
      out += top.kind == frame_kind::array ? "]" : (top.kind == frame_kind::scope ? "}}" : "}");
      stack.pop_back();
      continue;
    }
    const auto e = *top.next;
    ++top.next;
    if (!top.first) out += ',';
    top.first = false;
    if (top.kind != frame_kind::array) {
      append_json_string(out, e.key());
      out += ':';
    }
    switch (e.type()) {
      case bson_type::double_:
        append_double(out, e.as_double(), mode);
        break;
      case bson_type::string:
        append_json_string(out, e.as_string());
        break;
      case bson_type::document: {
        const auto sub = e.as_document();
        out += '{';
        stack.push_back({sub.begin(), sub.end(), frame_kind::document, true});
        break;
      }
      case bson_type::array: {
        const auto sub = Source::array_as_doc(e);
        out += '[';
        stack.push_back({sub.begin(), sub.end(), frame_kind::array, true});
        break;
      }
      case bson_type::binary: {
        const binary_view b = e.as_binary();
        out += R"({"$binary":{"base64":")";
        append_base64(out, b.bytes);
        static constexpr char hex[] = "0123456789abcdef";
        const auto subtype = static_cast<unsigned>(b.subtype);
        const char sub_hex[2] = {hex[subtype >> 4], hex[subtype & 0xF]};
        out += R"(","subType":")";
        out.append(sub_hex, 2);
        out += "\"}}";
        break;
      }
      case bson_type::undefined:
        out += R"({"$undefined":true})";
        break;
      case bson_type::object_id:
        append_object_id(out, e.as_object_id());
        break;
      case bson_type::boolean:
        out += e.as_bool() ? "true" : "false";
        break;
      case bson_type::datetime:
        append_datetime(out, e.as_datetime().time_since_epoch().count(), mode);
        break;
      case bson_type::null:
        out += "null";
        break;
      case bson_type::regex: {
        const regex_view r = e.as_regex();
        append_regex(out, r.pattern, r.options);
        break;
      }
      case bson_type::db_pointer: {
        const db_pointer_view p = e.as_db_pointer();
        out += R"({"$dbPointer":{"$ref":)";
        append_json_string(out, p.ns);
        out += R"(,"$id":)";
        append_object_id(out, p.id);
        out += "}}";
        break;
      }
      case bson_type::javascript:
        out += R"({"$code":)";
        append_json_string(out, e.as_javascript());
        out += '}';
        break;
      case bson_type::symbol:
        out += R"({"$symbol":)";
        append_json_string(out, e.as_symbol());
        out += '}';
        break;
      case bson_type::javascript_with_scope: {
        out += R"({"$code":)";
        append_json_string(out, e.as_javascript_with_scope_code());
        out += R"(,"$scope":{)";
        const auto scope = e.as_javascript_with_scope_scope();
        stack.push_back({scope.begin(), scope.end(), frame_kind::scope, true});
        break;
      }
      case bson_type::int32:
        if (relaxed) {
          append_integer(out, e.as_int32());
        } else {
          out += R"({"$numberInt":)";
          append_quoted_integer(out, e.as_int32());
          out += '}';
        }
        break;
      case bson_type::timestamp: {
        const timestamp ts = e.as_timestamp();
        out += R"({"$timestamp":{"t":)";
        append_integer(out, ts.seconds);
        out += R"(,"i":)";
        append_integer(out, ts.increment);
        out += "}}";
        break;
      }
      case bson_type::int64:
        if (relaxed) {
          append_integer(out, e.as_int64());
        } else {
          out += R"({"$numberLong":)";
          append_quoted_integer(out, e.as_int64());
          out += '}';
        }
        break;
      case bson_type::decimal128: {
        char buffer[decimal128::max_string_length];
        char* end = e.as_decimal128().to_chars(buffer);
        out += R"({"$numberDecimal":")";
        out.append(buffer, end);
        out += "\"}";
        break;
      }
      case bson_type::min_key:
        out += R"({"$minKey":1})";
        break;
      case bson_type::max_key:
        out += R"({"$maxKey":1})";
        break;
    }
  }
}

template <class Source>
struct check_frame {
  typename Source::doc doc;
  typename Source::iterator next;
  typename Source::iterator end;
  std::string segment;  // this container's path segment: its key, or its index in an array
  bool is_array;
  std::size_t index = 0;  // arrays: of the next element
};

// The first document, at any depth (array elements and $scope documents included), that holds a
// key the parser would read as a type wrapper's. An explicit stack, as the writer keeps.
template <class Source>
result<void> check_document(typename Source::doc root) {
  std::vector<check_frame<Source>> stack;
  stack.push_back({root, root.begin(), root.end(), {}, false});
  while (!stack.empty()) {
    check_frame<Source>& top = stack.back();
    if (top.next == top.end) {
      stack.pop_back();
      continue;
    }
    const auto& e = *top.next;
    ++top.next;
    // Array elements are named by index (a document's array nodes have no keys of their own).
    const std::string_view key = e.key();
    const bool in_array = top.is_array;
    const std::size_t index = in_array ? top.index++ : 0;
    auto segment = [&] { return in_array ? std::to_string(index) : std::string(key); };
    if (!in_array && !key.empty() && key[0] == '$' && detail::reads_back_as_other(key, e.type()))
        [[unlikely]] {
      error err(error_code::invalid_value,
                "a '" + std::string(key) +
                    "' key makes its document read back from Extended JSON as another type or "
                    "as an error (Extended JSON has no escape for a leading '$')",
                Source::offset_in(root, top.doc));
      err.prepend_path(key);
      for (std::size_t i = stack.size(); i-- > 1;) err.prepend_path(stack[i].segment);
      return err;
    }
    switch (e.type()) {
      case bson_type::document: {
        const auto sub = e.as_document();
        stack.push_back({sub, sub.begin(), sub.end(), segment(), false});
        break;
      }
      case bson_type::array: {
        const auto sub = Source::array_as_doc(e);
        stack.push_back({sub, sub.begin(), sub.end(), segment(), true});
        break;
      }
      case bson_type::javascript_with_scope: {
        const auto scope = e.as_javascript_with_scope_scope();
        stack.push_back({scope, scope.begin(), scope.end(), segment(), false});
        break;
      }
      default:
        break;
    }
  }
  return {};
}

}  // namespace

result<void> check_extjson_round_trip(document_view doc) {
  return check_document<view_source>(doc);
}

result<void> check_extjson_round_trip(document_ref doc) { return check_document<node_source>(doc); }

void append_extjson(document_view doc, std::string& out, extjson_mode mode) {
  out.reserve(out.size() + doc.bytes().size() * 2);
  write_document<view_source>(doc, out, mode);
}

void append_extjson(document_ref doc, std::string& out, extjson_mode mode) {
  write_document<node_source>(doc, out, mode);
}

std::string to_extjson(document_view doc, extjson_mode mode) {
  std::string out;
  append_extjson(doc, out, mode);
  return out;
}

std::string to_extjson(document_ref doc, extjson_mode mode) {
  std::string out;
  append_extjson(doc, out, mode);
  return out;
}

}  // namespace bsongen
