#include "bsongen/error.hpp"

namespace bsongen {

std::string_view describe(error_code code) noexcept {
  switch (code) {
    case error_code::ok: return "no error";
    case error_code::truncated: return "input ends before the declared length";
    case error_code::invalid_length: return "a length field is negative, too small or inconsistent";
    case error_code::missing_terminator: return "a document, string or key lacks its NUL byte";
    case error_code::invalid_type: return "an element type byte BSON does not define";
    case error_code::invalid_utf8: return "a string or key is not valid UTF-8";
    case error_code::invalid_bool: return "a boolean byte other than 0 or 1";
    case error_code::invalid_value: return "a value outside what its type allows";
    case error_code::inexact: return "the conversion would lose digits or range";
    case error_code::too_deep: return "nesting beyond the depth limit";
    case error_code::too_large: return "a document beyond the size limit";
    case error_code::trailing_bytes: return "bytes left after the outermost document";
    case error_code::type_mismatch: return "an element type the target cannot hold";
    case error_code::missing_field: return "a required field is absent";
    case error_code::unknown_field: return "a field the schema does not know";
    case error_code::duplicate_field: return "a key seen twice";
    case error_code::buffer_too_small: return "the output buffer cannot hold the encoding";
    case error_code::json_syntax: return "text that is not well-formed JSON";
    case error_code::json_invalid: return "JSON that is not valid Extended JSON";
    case error_code::io_error: return "reading or writing failed";
  }
  return "unknown error code";
}

std::string_view name(error_code code) noexcept {
  switch (code) {
    case error_code::ok: return "ok";
    case error_code::truncated: return "truncated";
    case error_code::invalid_length: return "invalid_length";
    case error_code::missing_terminator: return "missing_terminator";
    case error_code::invalid_type: return "invalid_type";
    case error_code::invalid_utf8: return "invalid_utf8";
    case error_code::invalid_bool: return "invalid_bool";
    case error_code::invalid_value: return "invalid_value";
    case error_code::inexact: return "inexact";
    case error_code::too_deep: return "too_deep";
    case error_code::too_large: return "too_large";
    case error_code::trailing_bytes: return "trailing_bytes";
    case error_code::type_mismatch: return "type_mismatch";
    case error_code::missing_field: return "missing_field";
    case error_code::unknown_field: return "unknown_field";
    case error_code::duplicate_field: return "duplicate_field";
    case error_code::buffer_too_small: return "buffer_too_small";
    case error_code::json_syntax: return "json_syntax";
    case error_code::json_invalid: return "json_invalid";
    case error_code::io_error: return "io_error";
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
    out += path;
  }
  out += " (byte ";
  out += std::to_string(offset);
  out += "): ";
  out += message.empty() ? std::string(describe(code)) : message;
  return out;
}

}  // namespace bsongen
