// The Extended JSON mapping: JSON tokens in, BSON bytes out (see detail/extjson_builder.hpp).

#include "bsongen/detail/extjson_builder.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include "bsongen/decimal128.hpp"
#include "bsongen/detail/error_messages.hpp"
#include "bsongen/document_view.hpp"
#include "bsongen/object_id.hpp"
#include "extjson_keys.hpp"

namespace bsongen::detail {
namespace {

// Regex options in the spec's alphabetical order, as encode_document writes them: only when all
// ASCII (the spec's options are letters), since sorting bytes would split multi-byte UTF-8.
void sort_ascii_options(std::string& options) {
  if (std::all_of(options.begin(), options.end(),
                  [](char ch) { return static_cast<unsigned char>(ch) < 0x80; })) {
    std::sort(options.begin(), options.end());
  }
}

static_assert(static_cast<unsigned>(special::count_) <= 32, "convert_wrapper keeps a 32-bit mask");

// Text from the input, quoted for a message; long text is cut (a message stays short whatever
// the input holds).
std::string quoted(std::string_view s) {
  constexpr std::size_t shown = 64;
  std::string out;
  out += '\'';
  out.append(s.substr(0, shown));
  out += '\'';
  if (s.size() > shown) out += "... (" + std::to_string(s.size()) + " bytes)";
  return out;
}

enum class number_status : std::uint8_t { ok, overflow, malformed };

// Whether a decimal number that from_chars found out of range is too large (rather than too
// small): the sign of its decimal exponent, from the digits and the exponent part.
bool beyond_double_max(std::string_view s) {
  std::size_t i = s[0] == '-' ? 1 : 0;
  std::int64_t scale = 0;  // the power of ten of the first nonzero digit, roughly
  bool nonzero = false;
  for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
    if (s[i] != '0') nonzero = true;
    if (nonzero) ++scale;
  }
  if (i < s.size() && s[i] == '.') {
    for (++i; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
      if (nonzero) continue;
      if (s[i] != '0')
        nonzero = true;
      else
        --scale;
    }
  }
  std::int64_t exponent = 0;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    const bool negative = i < s.size() && s[i] == '-';
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
      if (exponent < 1'000'000'000) exponent = exponent * 10 + (s[i] - '0');  // saturates
    }
    if (negative) exponent = -exponent;
  }
  return scale + exponent > 0;
}

// A decimal number (JSON number syntax, or a $numberDouble string) to the nearest double. A
// magnitude below the smallest subnormal becomes a zero of its sign, as JSON parsers do; one
// above the largest double is `overflow`: infinity is no approximation of it.
number_status to_double(std::string_view s, double& out) {
  if (s.empty()) return number_status::malformed;
  // Decimal notation only: from_chars alone would also take "inf", "nan" and hex-free words.
  for (const char c : s) {
    if (!((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'))
      return number_status::malformed;
  }
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  if (end != s.data() + s.size()) return number_status::malformed;
  if (ec == std::errc::result_out_of_range) {
    if (beyond_double_max(s)) return number_status::overflow;
    out = s[0] == '-' ? -0.0 : 0.0;
    return number_status::ok;
  }
  return ec == std::errc() ? number_status::ok : number_status::malformed;
}

std::string describe_type(const view_element& e) { return std::string(type_name(e.type())); }

template <class Int>
std::optional<Int> parse_decimal_integer(std::string_view s) {
  // Optional '-', then digits only: no '+', no spaces, no empty string.
  if (s.empty() || (s[0] == '-' && s.size() == 1)) return std::nullopt;
  for (std::size_t i = s[0] == '-' ? 1 : 0; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
  }
  Int v{};
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

number_status parse_number_double(std::string_view s, double& v) {
  if (s == "Infinity") {
    v = std::numeric_limits<double>::infinity();
  } else if (s == "-Infinity") {
    v = -std::numeric_limits<double>::infinity();
  } else if (s == "NaN") {
    v = std::numeric_limits<double>::quiet_NaN();
  } else {
    return to_double(s, v);
  }
  return number_status::ok;
}

int hex_digit(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::optional<std::uint8_t> parse_subtype(std::string_view s) {
  if (s.empty() || s.size() > 2) return std::nullopt;
  int v = 0;
  for (const char c : s) {
    const int d = hex_digit(c);
    if (d < 0) return std::nullopt;
    v = v * 16 + d;
  }
  return static_cast<std::uint8_t>(v);
}

constexpr std::array<std::int8_t, 256> base64_table = [] {
  std::array<std::int8_t, 256> t{};
  for (auto& v : t) v = -1;
  constexpr std::string_view alphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (std::size_t i = 0; i < alphabet.size(); ++i) {
    t[static_cast<unsigned char>(alphabet[i])] = static_cast<std::int8_t>(i);
  }
  return t;
}();

// Strict RFC 4648 base64 with padding. Appends the bytes to `out`; false on any bad character,
// bad length or misplaced padding.
bool decode_base64(std::string_view s, writer& out) {
  if (s.size() % 4 != 0) return false;
  std::size_t padding = 0;
  if (!s.empty() && s.back() == '=') padding = s[s.size() - 2] == '=' ? 2 : 1;
  const std::size_t size = s.size() / 4 * 3 - padding;
  std::uint8_t* o = out.extend(size);  // one bounds decision for the whole payload
  if (size == 0) return true;          // (extend(0) may return nullptr on an empty writer)
  if (o == nullptr) return false;
  const std::size_t full_quads = padding == 0 ? s.size() / 4 : s.size() / 4 - 1;
  const auto* in = reinterpret_cast<const unsigned char*>(s.data());
  for (std::size_t q = 0; q < full_quads; ++q, in += 4) {
    const int a = base64_table[in[0]], b = base64_table[in[1]], c = base64_table[in[2]],
              d = base64_table[in[3]];
    if ((a | b | c | d) < 0) return false;
    const auto word = static_cast<std::uint32_t>(a << 18 | b << 12 | c << 6 | d);
    *o++ = static_cast<std::uint8_t>(word >> 16);
    *o++ = static_cast<std::uint8_t>(word >> 8);
    *o++ = static_cast<std::uint8_t>(word);
  }
  if (padding != 0) {
    // The last quad: two or three symbols, then the padding.
    const int a = base64_table[in[0]], b = base64_table[in[1]];
    const int c = padding == 1 ? base64_table[in[2]] : 0;
    if ((a | b | c) < 0) return false;
    const auto word = static_cast<std::uint32_t>(a << 18 | b << 12 | c << 6);
    *o++ = static_cast<std::uint8_t>(word >> 16);
    if (padding == 1) *o = static_cast<std::uint8_t>(word >> 8);
  }
  return true;
}

// 8-4-4-4-12 hex digits, the form $uuid takes.
bool decode_uuid(std::string_view s, std::uint8_t (&bytes)[16]) {
  if (s.size() != 36) return false;
  std::size_t n = 0;
  for (std::size_t i = 0; i < 36;) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (s[i] != '-') return false;
      ++i;
      continue;
    }
    const int hi = hex_digit(s[i]);
    const int lo = i + 1 < 36 ? hex_digit(s[i + 1]) : -1;
    if (hi < 0 || lo < 0) return false;
    bytes[n++] = static_cast<std::uint8_t>(hi << 4 | lo);
    i += 2;
  }
  return n == 16;
}

// ISO-8601 as Extended JSON writes dates: YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|+HHMM|-...).
std::optional<std::int64_t> parse_iso_date(std::string_view s) {
  std::size_t i = 0;
  auto digits = [&](std::size_t count, int& value) {
    if (i + count > s.size()) return false;
    value = 0;
    for (std::size_t k = 0; k < count; ++k, ++i) {
      if (s[i] < '0' || s[i] > '9') return false;
      value = value * 10 + (s[i] - '0');
    }
    return true;
  };
  auto expect = [&](char c) {
    if (i >= s.size() || s[i] != c) return false;
    ++i;
    return true;
  };
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, sec = 0;
  if (!digits(4, y) || !expect('-') || !digits(2, mo) || !expect('-') || !digits(2, d) ||
      !expect('T') || !digits(2, h) || !expect(':') || !digits(2, mi) || !expect(':') ||
      !digits(2, sec)) {
    return std::nullopt;
  }
  std::int64_t millis = 0;
  if (i < s.size() && s[i] == '.') {
    ++i;
    const std::size_t first = i;
    int scale = 100;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
      millis += (s[i] - '0') * scale;  // digits past milliseconds are truncated
      scale /= 10;
    }
    if (i == first) return std::nullopt;
  }
  std::int64_t offset_minutes = 0;
  if (expect('Z')) {
  } else if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    const bool negative = s[i] == '-';
    ++i;
    int oh = 0, om = 0;
    if (!digits(2, oh)) return std::nullopt;
    if (i < s.size() && s[i] == ':') ++i;
    if (!digits(2, om) || oh > 23 || om > 59) return std::nullopt;
    offset_minutes = (negative ? -1 : 1) * (oh * 60 + om);
  } else {
    return std::nullopt;
  }
  if (i != s.size()) return std::nullopt;
  using namespace std::chrono;
  const year_month_day ymd{year{y}, month{static_cast<unsigned>(mo)},
                           day{static_cast<unsigned>(d)}};
  if (!ymd.ok() || h > 23 || mi > 59 || sec > 59) return std::nullopt;
  const std::int64_t days_since_epoch = sys_days{ymd}.time_since_epoch().count();
  return ((days_since_epoch * 24 + h) * 60 + mi - offset_minutes) * 60000 + sec * 1000 + millis;
}

// Timestamp fields: JSON integers in [0, 2^32).
std::optional<std::uint32_t> timestamp_field(const view_element& e) {
  if (e.is(bson_type::int32) && e.as_int32() >= 0) return static_cast<std::uint32_t>(e.as_int32());
  if (e.is(bson_type::int64) && e.as_int64() >= 0 && e.as_int64() <= 0xFFFFFFFF) {
    return static_cast<std::uint32_t>(e.as_int64());
  }
  return std::nullopt;
}

}  // namespace

bool extjson_builder::fail(error_code code, std::string message, std::size_t offset) {
  if (failure_.code == error_code::ok) {
    failure_ = error(code, std::move(message), offset);
    failure_.path = current_path();
  }
  return false;
}

bool extjson_builder::fail_value(error_code code, std::string message, std::size_t offset) {
  if (failure_.code == error_code::ok && !frames_.empty() && frames_.back().is_array &&
      !out_.overflowed()) {
    // Its element is not written yet: name its index as begin_element would.
    fail(code, std::move(message), offset);
    if (!failure_.path.empty()) failure_.path += '.';
    failure_.path += std::to_string(frames_.back().count);
    return false;
  }
  return fail(code, std::move(message), offset);
}

bool extjson_builder::overflow(std::size_t offset) {
  return fail(error_code::buffer_too_small, "the output buffer cannot hold the BSON", offset);
}

bool extjson_builder::too_deep(std::size_t offset) {
  return fail(error_code::too_deep, detail::messages::too_deep(options_.max_depth), offset);
}

bool extjson_builder::grown_too_large(std::size_t offset) {
  return fail(error_code::too_large,
              "document grows past the limit of " + std::to_string(options_.max_size) + " bytes",
              offset);
}

void extjson_builder::reject(error_code code, std::string message, std::size_t offset) {
  fail(code, std::move(message), offset);
}

std::string extjson_builder::current_path() const {
  std::string path;
  if (out_.overflowed()) return path;  // the keys may not all have been written
  auto add = [&](std::string_view segment) {
    if (!path.empty()) path += '.';
    path.append(segment);
  };
  for (const frame& f : frames_) {
    if (f.element_start == npos) continue;
    add(reinterpret_cast<const char*>(out_.data() + f.element_start + 1));
  }
  if (key_pending_) add(reinterpret_cast<const char*>(out_.data() + pending_type_pos_ + 1));
  return path;
}

std::size_t extjson_builder::begin_element(bson_type type, std::size_t offset) {
  if (frames_.empty()) {
    fail(error_code::json_invalid,
         finished_ ? "text continues after the document"
                   : "an Extended JSON document must be a JSON object",
         offset);
    return npos;
  }
  frame& f = frames_.back();
  ++f.count;
  if (f.is_array) {
    if (out_.size() + 1 + 11 > f.key_limit) [[unlikely]] {
      grown_too_large(offset);
      return npos;
    }
    const std::size_t pos = out_.size();
    char index[12];
    const auto end = std::to_chars(index, index + sizeof index, f.count - 1).ptr;
    out_.put_u8(static_cast<std::uint8_t>(type));
    out_.put_cstring(std::string_view(index, static_cast<std::size_t>(end - index)));
    return pos;
  }
  key_pending_ = false;
  out_.data()[pending_type_pos_] = static_cast<std::uint8_t>(type);
  return pending_type_pos_;
}

bool extjson_builder::key(std::string_view k, std::size_t offset) {
  if (k.find('\0') != std::string_view::npos) {
    return fail(error_code::json_invalid,
                "key " + quoted(k.substr(0, k.find('\0'))) +
                    "... holds a NUL character, which BSON keys cannot",
                offset);
  }
  frame& f = frames_.back();
  special kind = special::none;
  if (!k.empty() && k[0] == '$') [[unlikely]] {
    f.has_dollar_key = true;
    kind = classify(k);
    if (makes_wrapper(kind)) {
      f.counts = false;
      f.key_limit = npos;  // its keys vanish into the value
    }
  }
  f.last_key = static_cast<std::uint8_t>(kind);
  // An ordinary key: this object is a document (or an error), never a wrapper, so it is too deep
  // if it is over the depth limit, and its key counts towards the size.
  if (kind == special::none && out_.size() + k.size() + 2 > f.key_limit) [[unlikely]]
    return f.over ? too_deep(f.json_offset) : grown_too_large(offset);
  pending_type_pos_ = out_.size();
  key_pending_ = true;
  out_.put_u8(0);  // the type byte, set when the value arrives
  out_.put_cstring(k);
  if (out_.overflowed()) [[unlikely]]
    return overflow(offset);
  return true;
}

[[gnu::always_inline]] inline bool extjson_builder::open_frame(bool is_array,
                                                               std::size_t element_start,
                                                               std::size_t offset) {
  if (frames_.empty()) {
    // The outermost object: level 1; the growth check counts from here.
    const std::size_t start = out_.size();
    const std::size_t room = std::numeric_limits<std::size_t>::max() - start - wrapper_slack;
    size_end_ = start + wrapper_slack + std::min(options_.max_size, room);
    const bool over = options_.max_depth == 0;
    frames_.push_back({element_start, start, offset, over ? 0 : size_end_, 0, 1, is_array, false,
                       false, true, over, 0});
    out_.put_i32(0);
    if (out_.overflowed()) [[unlikely]]
      return overflow(offset);
    return over ? too_deep(offset) : true;
  }
  if (frames_.size() >= json_depth_cap) [[unlikely]] {
    return fail(error_code::too_deep,
                "JSON nesting exceeds " + std::to_string(json_depth_cap) + " levels", offset);
  }
  const frame& parent = frames_.back();
  // Inside a type wrapper the containers are no level, except $scope's value, a document at the
  // wrapper's level.
  const std::uint32_t level = parent.level + (parent.counts ? 1 : 0);
  const bool counts = parent.counts || parent.last_key == static_cast<std::uint8_t>(special::scope);
  const bool over = counts && level > options_.max_depth;
  const std::size_t key_limit = over ? 0 : counts ? size_end_ : npos;
  frames_.push_back({element_start, out_.size(), offset, key_limit, 0, level, is_array, false,
                     false, counts, over, 0});
  out_.put_i32(0);
  if (out_.overflowed()) [[unlikely]]
    return overflow(offset);
  // An object one level too deep may still be a type wrapper (key() and end_object() decide);
  // an array cannot.
  if (over && is_array) [[unlikely]]
    return too_deep(offset);
  return true;
}

bool extjson_builder::begin_object(std::size_t offset) {
  std::size_t element_start = npos;
  if (!frames_.empty() || finished_) {
    element_start = begin_element(bson_type::document, offset);
    if (element_start == npos) return false;
  }
  return open_frame(false, element_start, offset);
}

bool extjson_builder::begin_array(std::size_t offset) {
  if (frames_.empty()) {
    return fail(error_code::json_invalid,
                "an Extended JSON document must be a JSON object, not an array", offset);
  }
  const std::size_t element_start = begin_element(bson_type::array, offset);
  if (element_start == npos) return false;
  return open_frame(true, element_start, offset);
}

bool extjson_builder::close_container(std::size_t offset) {
  const frame& f = frames_.back();
  out_.put_u8(0);
  if (out_.overflowed()) [[unlikely]]
    return overflow(offset);
  const std::size_t length = out_.size() - f.body_start;
  if (length > options_.max_size ||
      length > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
    return grown_too_large(offset);
  }
  out_.patch_i32(f.body_start, static_cast<std::int32_t>(length));
  return true;
}

bool extjson_builder::end_object(std::size_t offset) {
  if (!close_container(offset)) return false;
  const frame& f = frames_.back();  // convert_wrapper and fail leave frames_ as it is
  if (f.has_dollar_key && !convert_wrapper(f)) return false;
  if (f.over && out_.data()[f.element_start] == static_cast<std::uint8_t>(bson_type::document))
      [[unlikely]] {
    return too_deep(f.json_offset);  // it stayed a document
  }
  frames_.pop_back();
  if (frames_.empty()) finished_ = true;
  return true;
}

bool extjson_builder::end_array(std::size_t offset) {
  if (!close_container(offset)) return false;
  frames_.pop_back();
  return true;
}

bool extjson_builder::string_value(std::string_view s, std::size_t offset) {
  // A long string is checked before it is written (a short one's overshoot is caught at the next
  // key, element or close). Strings inside type wrappers shrink ("$numberLong": "0000...1"
  // becomes 8 bytes): those are checked when the wrapper has become its value.
  if (s.size() > 4096 && !frames_.empty() && frames_.back().counts &&
      frames_.back().last_key == 0 && out_.size() + s.size() + 5 > size_end_) [[unlikely]] {
    return fail_value(
        error_code::too_large,
        "document grows past the limit of " + std::to_string(options_.max_size) + " bytes", offset);
  }
  if (begin_element(bson_type::string, offset) == npos) return false;
  out_.put_i32(static_cast<std::int32_t>(s.size() + 1));
  out_.put_bytes(s.data(), s.size());
  out_.put_u8(0);
  return true;
}

bool extjson_builder::int64_value(std::int64_t v, std::size_t offset) {
  const bool fits_int32 = v >= std::numeric_limits<std::int32_t>::min() &&
                          v <= std::numeric_limits<std::int32_t>::max();
  const std::size_t pos = begin_element(fits_int32 ? bson_type::int32 : bson_type::int64, offset);
  if (pos == npos) return false;
  frame& f = frames_.back();
  if (f.last_key == static_cast<std::uint8_t>(special::date)) f.date_is_bare_number = true;
  if (fits_int32) {
    out_.put_i32(static_cast<std::int32_t>(v));
  } else {
    out_.put_i64(v);
  }
  return true;
}

bool extjson_builder::uint64_value(std::uint64_t v, std::size_t offset) {
  if (v <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    return int64_value(static_cast<std::int64_t>(v), offset);
  }
  return double_value(static_cast<double>(v), offset);
}

bool extjson_builder::double_value(double v, std::size_t offset) {
  const std::size_t pos = begin_element(bson_type::double_, offset);
  if (pos == npos) return false;
  frame& f = frames_.back();
  if (f.last_key == static_cast<std::uint8_t>(special::date)) f.date_is_bare_number = true;
  out_.put_f64(v);
  return true;
}

bool extjson_builder::number_text(std::string_view raw, std::size_t offset) {
  if (raw.find_first_of(".eE") == std::string_view::npos) {
    std::int64_t i = 0;
    const auto [end, ec] = std::from_chars(raw.data(), raw.data() + raw.size(), i);
    if (ec == std::errc() && end == raw.data() + raw.size()) return int64_value(i, offset);
    // The Extended JSON spec: an integer no BSON integer type holds exactly is read as a double,
    // even if that loses precision.
  }
  double d = 0;
  switch (to_double(raw, d)) {
    case number_status::ok:
      return double_value(d, offset);
    case number_status::overflow:
      return fail_value(
          error_code::inexact,
          "number " + quoted(raw) + " is beyond the range of a double (1.7976931348623157E+308)",
          offset);
    case number_status::malformed:
      break;
  }
  return fail_value(error_code::json_syntax, "malformed number " + quoted(raw), offset);
}

bool extjson_builder::bool_value(bool v, std::size_t offset) {
  if (begin_element(bson_type::boolean, offset) == npos) return false;
  out_.put_u8(v ? 1 : 0);
  return true;
}

bool extjson_builder::null_value(std::size_t offset) {
  return begin_element(bson_type::null, offset) != npos;
}

bool extjson_builder::convert_wrapper(const frame& f) {
  const auto doc =
      document_view::from_trusted_bytes({out_.data() + f.body_start, out_.size() - f.body_start});
  // Where each special key first occurs; an entry is meaningful only when its bit in `seen` is
  // set, so the array needs no clearing (this runs once per wrapper object, a hot path).
  const std::uint8_t* found[static_cast<std::size_t>(special::count_)];
  std::uint32_t seen = 0;
  std::size_t count = 0;
  for (const std::uint8_t* p = doc.bytes().data() + 4; *p != 0;) {
    const view_element e(p);
    ++count;
    const auto kind = static_cast<std::size_t>(classify(e.key()));
    if (kind != 0 && (seen & (1u << kind)) == 0) {
      seen |= 1u << kind;
      found[kind] = p;
    }
    p = e.next();
  }
  auto get = [&](special s) {
    const auto kind = static_cast<std::size_t>(s);
    return (seen & (1u << kind)) != 0 ? view_element(found[kind]) : view_element();
  };
  const std::size_t at = f.json_offset;
  auto invalid = [&](std::string message) {
    return fail(error_code::json_invalid, std::move(message), at);
  };
  // Names a key that is not one of `allowed`, for "extra key" messages.
  auto extra_key = [&](std::initializer_list<std::string_view> allowed) {
    for (view_element e : doc) {
      if (std::find(allowed.begin(), allowed.end(), e.key()) == allowed.end())
        return quoted(e.key());
    }
    return std::string("a repeated key");
  };
  // Exactly the keys of an inner wrapper document ({"base64", "subType"}, {"t", "i"}, ...).
  auto has_exactly = [](document_view inner, std::string_view a, std::string_view b) {
    std::size_t n = 0;
    bool seen_a = false, seen_b = false;
    for (view_element e : inner) {
      ++n;
      seen_a |= e.key() == a;
      seen_b |= e.key() == b;
    }
    return n == 2 && seen_a && seen_b;
  };

  scratch_.clear();
  bson_type result_type = bson_type::document;
  special wrapper = special::none;
  for (const special s : single_key_wrappers) {
    if (get(s)) {
      wrapper = s;
      break;
    }
  }

  if (wrapper != special::none) {
    const view_element v = get(wrapper);
    const std::string name(v.key());
    if (count != 1) {
      return invalid(name + " must be the only key of its object, but " + extra_key({v.key()}) +
                     " is beside it");
    }
    auto need_string = [&]() {
      if (!v.is(bson_type::string))
        return invalid(name + " takes a string, found " + describe_type(v));
      return true;
    };
    switch (wrapper) {
      case special::oid: {
        if (!need_string()) return false;
        auto id = object_id::from_hex(v.as_string());
        if (!id) return invalid("$oid " + quoted(v.as_string()) + " is not 24 hex digits");
        scratch_.put_bytes(id->data(), object_id::size);
        result_type = bson_type::object_id;
        break;
      }
      case special::symbol:
        if (!need_string()) return false;
        scratch_.put_string(v.as_string());
        result_type = bson_type::symbol;
        break;
      case special::number_int: {
        if (!need_string()) return false;
        const auto n = parse_decimal_integer<std::int32_t>(v.as_string());
        if (!n) return invalid("$numberInt " + quoted(v.as_string()) + " is not a decimal int32");
        scratch_.put_i32(*n);
        result_type = bson_type::int32;
        break;
      }
      case special::number_long: {
        if (!need_string()) return false;
        const auto n = parse_decimal_integer<std::int64_t>(v.as_string());
        if (!n) return invalid("$numberLong " + quoted(v.as_string()) + " is not a decimal int64");
        scratch_.put_i64(*n);
        result_type = bson_type::int64;
        break;
      }
      case special::number_double: {
        if (!need_string()) return false;
        double d = 0;
        const number_status status = parse_number_double(v.as_string(), d);
        if (status == number_status::overflow) {
          return fail(error_code::inexact,
                      "$numberDouble " + quoted(v.as_string()) +
                          " is beyond the range of a double (1.7976931348623157E+308)",
                      at);
        }
        if (status != number_status::ok)
          return invalid("$numberDouble " + quoted(v.as_string()) + " is not a double");
        scratch_.put_f64(d);
        result_type = bson_type::double_;
        break;
      }
      case special::number_decimal: {
        if (!need_string()) return false;
        const auto d = decimal128::from_string(v.as_string());
        if (!d)
          return invalid("$numberDecimal " + quoted(v.as_string()) + ": " + d.error().message);
        std::uint8_t bytes[16];
        d->to_bytes(bytes);
        scratch_.put_bytes(bytes, 16);
        result_type = bson_type::decimal128;
        break;
      }
      case special::uuid: {
        if (!need_string()) return false;
        std::uint8_t bytes[16];
        if (!decode_uuid(v.as_string(), bytes)) {
          return invalid("$uuid " + quoted(v.as_string()) + " is not 8-4-4-4-12 hex digits");
        }
        scratch_.put_i32(16);
        scratch_.put_u8(static_cast<std::uint8_t>(binary_subtype::uuid));
        scratch_.put_bytes(bytes, 16);
        result_type = bson_type::binary;
        break;
      }
      case special::timestamp: {
        if (!v.is(bson_type::document) || !has_exactly(v.as_document(), "t", "i")) {
          return invalid(R"($timestamp takes {"t": <uint32>, "i": <uint32>})");
        }
        const auto t = timestamp_field(v.as_document()["t"]);
        const auto i = timestamp_field(v.as_document()["i"]);
        if (!t || !i) return invalid("$timestamp t and i must be integers from 0 to 4294967295");
        scratch_.put_u32(*i);
        scratch_.put_u32(*t);
        result_type = bson_type::timestamp;
        break;
      }
      case special::regular_expression: {
        if (!v.is(bson_type::document) || !has_exactly(v.as_document(), "pattern", "options") ||
            !v.as_document()["pattern"].is(bson_type::string) ||
            !v.as_document()["options"].is(bson_type::string)) {
          return invalid(R"($regularExpression takes {"pattern": <string>, "options": <string>})");
        }
        const std::string_view pattern = v.as_document()["pattern"].as_string();
        std::string options(v.as_document()["options"].as_string());
        if (pattern.find('\0') != std::string_view::npos ||
            options.find('\0') != std::string::npos) {
          return invalid("$regularExpression pattern and options cannot hold a NUL character");
        }
        sort_ascii_options(options);
        scratch_.put_cstring(pattern);
        scratch_.put_cstring(options);
        result_type = bson_type::regex;
        break;
      }
      case special::db_pointer: {
        if (!v.is(bson_type::document) || !has_exactly(v.as_document(), "$ref", "$id") ||
            !v.as_document()["$ref"].is(bson_type::string) ||
            !v.as_document()["$id"].is(bson_type::object_id)) {
          return invalid(R"($dbPointer takes {"$ref": <string>, "$id": {"$oid": <hex>}})");
        }
        scratch_.put_string(v.as_document()["$ref"].as_string());
        scratch_.put_bytes(v.as_document()["$id"].as_object_id().data(), object_id::size);
        result_type = bson_type::db_pointer;
        break;
      }
      case special::date: {
        std::int64_t ms = 0;
        if (v.is(bson_type::int64) && !f.date_is_bare_number) {
          ms = v.as_int64();
        } else if (v.is(bson_type::string)) {
          const auto parsed = parse_iso_date(v.as_string());
          if (!parsed)
            return invalid("$date " + quoted(v.as_string()) + " is not an ISO-8601 date-time");
          ms = *parsed;
        } else {
          return invalid(R"($date takes {"$numberLong": "<milliseconds>"} or an ISO-8601 string)");
        }
        scratch_.put_i64(ms);
        result_type = bson_type::datetime;
        break;
      }
      case special::min_key:
      case special::max_key:
        if (!v.is(bson_type::int32) || v.as_int32() != 1)
          return invalid(name + " takes the number 1");
        result_type = wrapper == special::min_key ? bson_type::min_key : bson_type::max_key;
        break;
      case special::undefined:
        if (!v.is(bson_type::boolean) || !v.as_bool()) return invalid("$undefined takes true");
        result_type = bson_type::undefined;
        break;
      default:
        break;
    }
  } else if (const view_element b = get(special::binary); b) {
    std::uint8_t subtype = 0;
    std::string_view base64;
    if (b.is(bson_type::document)) {
      const document_view inner = b.as_document();
      if (count != 1)
        return invalid("$binary must be the only key of its object, but " + extra_key({"$binary"}) +
                       " is beside it");
      if (!has_exactly(inner, "base64", "subType") || !inner["base64"].is(bson_type::string) ||
          !inner["subType"].is(bson_type::string)) {
        return invalid(R"($binary takes {"base64": <string>, "subType": <hex string>})");
      }
      base64 = inner["base64"].as_string();
      const auto parsed = parse_subtype(inner["subType"].as_string());
      if (!parsed)
        return invalid("$binary subType " + quoted(inner["subType"].as_string()) +
                       " is not 1 or 2 hex digits");
      subtype = *parsed;
    } else if (b.is(bson_type::string)) {
      // The legacy form {"$binary": <base64>, "$type": <hex>}.
      const view_element t = get(special::type);
      if (!t || !t.is(bson_type::string) || count != 2) {
        return invalid(
            R"(legacy $binary takes exactly {"$binary": <base64>, "$type": <hex string>})");
      }
      base64 = b.as_string();
      const auto parsed = parse_subtype(t.as_string());
      if (!parsed) return invalid("$type " + quoted(t.as_string()) + " is not 1 or 2 hex digits");
      subtype = *parsed;
    } else {
      return invalid("$binary takes a document, found " + describe_type(b));
    }
    scratch_.put_i32(0);
    scratch_.put_u8(subtype);
    if (subtype == static_cast<std::uint8_t>(binary_subtype::binary_old)) scratch_.put_i32(0);
    if (!decode_base64(base64, scratch_))
      return invalid("$binary base64 " + quoted(base64) + " is not valid base64");
    const std::size_t payload = scratch_.size() - 5;
    scratch_.patch_i32(0, static_cast<std::int32_t>(payload));
    if (subtype == static_cast<std::uint8_t>(binary_subtype::binary_old)) {
      scratch_.patch_i32(5, static_cast<std::int32_t>(payload - 4));
    }
    result_type = bson_type::binary;
  } else if (const view_element c = get(special::code); c) {
    const view_element scope = get(special::scope);
    if (count != (scope ? 2u : 1u)) {
      return invalid("$code takes only $scope beside it, but " + extra_key({"$code", "$scope"}) +
                     " is there");
    }
    if (!c.is(bson_type::string)) return invalid("$code takes a string, found " + describe_type(c));
    if (scope) {
      if (!scope.is(bson_type::document))
        return invalid("$scope takes a document, found " + describe_type(scope));
      const auto scope_bytes = scope.as_document().bytes();
      const std::string_view code = c.as_string();
      scratch_.put_i32(static_cast<std::int32_t>(4 + 4 + code.size() + 1 + scope_bytes.size()));
      scratch_.put_string(code);
      scratch_.put_bytes(scope_bytes);
      result_type = bson_type::javascript_with_scope;
    } else {
      scratch_.put_string(c.as_string());
      result_type = bson_type::javascript;
    }
  } else if (get(special::scope)) {
    return invalid("$scope needs a $code beside it");
  } else if (const view_element r = get(special::regex); r && r.is(bson_type::string)) {
    // The legacy form {"$regex": <pattern>, "$options": <flags>}; a $regex holding anything else
    // is the query operator and the object stays a document.
    const view_element o = get(special::options);
    if (count != (o ? 2u : 1u)) {
      return invalid("legacy $regex takes only $options beside it, but " +
                     extra_key({"$regex", "$options"}) + " is there");
    }
    if (o && !o.is(bson_type::string))
      return invalid("$options takes a string, found " + describe_type(o));
    std::string options(o ? o.as_string() : std::string_view());
    if (r.as_string().find('\0') != std::string_view::npos ||
        options.find('\0') != std::string::npos) {
      return invalid("$regex pattern and options cannot hold a NUL character");
    }
    sort_ascii_options(options);
    scratch_.put_cstring(r.as_string());
    scratch_.put_cstring(options);
    result_type = bson_type::regex;
  } else {
    return true;  // a plain document: $ref/$id (DBRef), query operators such as $type, other $ keys
  }

  if (f.element_start == npos) {
    return invalid("the top-level object is an Extended JSON " +
                   std::string(type_name(result_type)) + " value, not a document");
  }
  out_.truncate(f.body_start);
  out_.put_bytes(scratch_.bytes());
  out_.data()[f.element_start] = static_cast<std::uint8_t>(result_type);
  return true;
}

}  // namespace bsongen::detail
