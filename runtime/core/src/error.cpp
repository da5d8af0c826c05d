#include "bsongen/error.hpp"

#include <cstdint>

namespace bsongen {
namespace {

constexpr char hex_digits[] = "0123456789abcdef";

void append_hex(std::string& out, std::uint32_t v, int digits) {
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) out += hex_digits[(v >> shift) & 0xF];
}

// Code points that are valid but change how a terminal or editor shows the text around them:
// C1 controls (U+009B is a CSI), soft hyphen, invisible and bidirectional formatting marks
// ("Trojan Source"), line and paragraph separators, the BOM, interlinear annotations, tags.
bool hidden_code_point(std::uint32_t cp) noexcept {
  return (cp >= 0x80 && cp <= 0x9F) || cp == 0xAD || cp == 0x061C || cp == 0x180E ||
         (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x2028 && cp <= 0x202E) ||
         (cp >= 0x2060 && cp <= 0x206F) || cp == 0xFEFF || (cp >= 0xFFF9 && cp <= 0xFFFB) ||
         (cp >= 0xE0000 && cp <= 0xE007F);
}

// The length of the valid UTF-8 sequence at s[i] (2..4 bytes, RFC 3629) and its code point, or 0.
std::size_t utf8_sequence(std::string_view s, std::size_t i, std::uint32_t& cp) noexcept {
  const auto b0 = static_cast<unsigned char>(s[i]);
  std::size_t n = 0;
  std::uint32_t min = 0;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2, cp = b0 & 0x1Fu, min = 0x80;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3, cp = b0 & 0x0Fu, min = 0x800;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4, cp = b0 & 0x07u, min = 0x10000;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) return 0;
    cp = cp << 6 | (b & 0x3Fu);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

}  // namespace

void append_printable(std::string& out, std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    // Runs of printable ASCII, the usual whole string, are copied at once.
    std::size_t run = i;
    while (run < text.size() && text[run] >= 0x20 && text[run] < 0x7F && text[run] != '\\') ++run;
    out.append(text, i, run - i);
    i = run;
    if (i == text.size()) break;
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\\') {
      out += "\\\\";
      ++i;
    } else if (c == '\n') {
      out += "\\n";
      ++i;
    } else if (c == '\t') {
      out += "\\t";
      ++i;
    } else if (c == '\r') {
      out += "\\r";
      ++i;
    } else if (c < 0x80) {  // the other C0 controls and DEL
      out += "\\x";
      append_hex(out, c, 2);
      ++i;
    } else if (std::uint32_t cp = 0; std::size_t n = utf8_sequence(text, i, cp)) {
      if (hidden_code_point(cp)) {
        out += cp > 0xFFFF ? "\\U" : "\\u";
        append_hex(out, cp, cp > 0xFFFF ? 8 : 4);
      } else {
        out.append(text, i, n);
      }
      i += n;
    } else {  // a byte that starts no valid UTF-8 sequence
      out += "\\x";
      append_hex(out, c, 2);
      ++i;
    }
  }
}

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  append_printable(out, text);
  return out;
}

std::string_view describe(error_code code) noexcept {
  switch (code) {
    case error_code::ok:
      return "no error";
    case error_code::truncated:
      return "input ends before the declared length";
    case error_code::invalid_length:
      return "a length field is negative, too small or inconsistent";
    case error_code::missing_terminator:
      return "a document, string or key lacks its NUL byte";
    case error_code::invalid_type:
      return "an element type byte BSON does not define";
    case error_code::invalid_utf8:
      return "a string or key is not valid UTF-8";
    case error_code::invalid_bool:
      return "a boolean byte other than 0 or 1";
    case error_code::invalid_value:
      return "a value outside what its type allows";
    case error_code::inexact:
      return "the conversion would lose digits or range";
    case error_code::too_deep:
      return "nesting beyond the depth limit";
    case error_code::too_large:
      return "a document beyond the size limit";
    case error_code::trailing_bytes:
      return "bytes left after the outermost document";
    case error_code::type_mismatch:
      return "an element type the target cannot hold";
    case error_code::missing_field:
      return "a required field is absent";
    case error_code::unknown_field:
      return "a field the schema does not know";
    case error_code::duplicate_field:
      return "a key seen twice";
    case error_code::buffer_too_small:
      return "the output buffer cannot hold the encoding";
    case error_code::json_syntax:
      return "text that is not well-formed JSON";
    case error_code::json_invalid:
      return "JSON that is not valid Extended JSON";
    case error_code::io_error:
      return "reading or writing failed";
    case error_code::out_of_memory:
      return "an allocation failed (the memory resource or the heap refused it)";
  }
  return "unknown error code";
}

std::string_view name(error_code code) noexcept {
  switch (code) {
    case error_code::ok:
      return "ok";
    case error_code::truncated:
      return "truncated";
    case error_code::invalid_length:
      return "invalid_length";
    case error_code::missing_terminator:
      return "missing_terminator";
    case error_code::invalid_type:
      return "invalid_type";
    case error_code::invalid_utf8:
      return "invalid_utf8";
    case error_code::invalid_bool:
      return "invalid_bool";
    case error_code::invalid_value:
      return "invalid_value";
    case error_code::inexact:
      return "inexact";
    case error_code::too_deep:
      return "too_deep";
    case error_code::too_large:
      return "too_large";
    case error_code::trailing_bytes:
      return "trailing_bytes";
    case error_code::type_mismatch:
      return "type_mismatch";
    case error_code::missing_field:
      return "missing_field";
    case error_code::unknown_field:
      return "unknown_field";
    case error_code::duplicate_field:
      return "duplicate_field";
    case error_code::buffer_too_small:
      return "buffer_too_small";
    case error_code::json_syntax:
      return "json_syntax";
    case error_code::json_invalid:
      return "json_invalid";
    case error_code::io_error:
      return "io_error";
    case error_code::out_of_memory:
      return "out_of_memory";
  }
  return "unknown";
}

void error::prepend_path(std::string_view segment) {
  if (path.empty()) {
    path.assign(segment);
  } else {
    path.insert(0, 1, '.');
    path.insert(0, segment);
  }
}

std::string error::to_string() const {
  std::string out(name(code));
  if (!path.empty()) {
    out += " at ";
    append_printable(out, path);
  }
  out += " (byte ";
  out += std::to_string(offset);
  out += "): ";
  append_printable(out, message.empty() ? describe(code) : std::string_view(message));
  return out;
}

}  // namespace bsongen
