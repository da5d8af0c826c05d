// Error builders of generated codecs: cold and out of line, so the decoders' success paths stay
// small.

#include "bsongen/detail/codec_errors.hpp"

#include <string>

namespace bsongen::detail {

namespace {

// False when the error became one about the element's type byte, which names no key (as in the
// generic decoder, which rejects such an element before reading its key).
bool locate(decode_state& st, const std::uint8_t* element) {
  if (st.error_located) return true;
  st.error_located = true;
  // A path already means the error is inside the value (skip_value's walk of a raw document or a
  // code-with-scope scope), at that inner element's type byte: leave it there.
  if (!st.err.path.empty()) return true;
  if (!is_bson_type(*element)) {
    // The value codec saw a type byte it does not take; the generic decoder rejects the element
    // for that byte alone, so say what it says.
    fail_element_type(st, element, {});
    return false;
  }
  st.err.offset = st.offset(element);
  return true;
}

}  // namespace

std::nullptr_t fail_in_element(decode_state& st, const std::uint8_t* element,
                               std::string_view key) {
  if (locate(st, element)) st.err.prepend_path(key);
  return nullptr;
}

std::nullptr_t fail_skipped(decode_state& st, const std::uint8_t* element, std::string_view key) {
  // An error inside the skipped value (it has a path) already points at its own element.
  if (!st.err.path.empty()) st.error_located = true;
  return fail_in_element(st, element, key);
}

std::nullptr_t fail_in_element(decode_state& st, const std::uint8_t* element, std::size_t index) {
  if (locate(st, element)) st.err.prepend_path(std::to_string(index));
  return nullptr;
}

std::nullptr_t fail_element_type(decode_state& st, const std::uint8_t* element,
                                 std::string_view key) {
  fail_not_a_type(st, *element, element);
  st.error_located = true;
  st.err.prepend_path(key);
  return nullptr;
}

std::nullptr_t fail_unknown_field(decode_state& st, const std::uint8_t* element,
                                  std::string_view key) {
  fail(st, error_code::unknown_field, element,
       "the schema has no field \"" + std::string(key) + "\"");
  st.error_located = true;
  st.err.prepend_path(key);
  return nullptr;
}

std::nullptr_t fail_duplicate_field(decode_state& st, const std::uint8_t* element,
                                    std::string_view key) {
  fail(st, error_code::duplicate_field, element, std::string(messages::repeated_key));
  st.error_located = true;
  st.err.prepend_path(key);
  return nullptr;
}

void fail_map_key(encode_state& es, std::string_view key) {
  if (key.find('\0') != std::string_view::npos) {
    fail_encode(es, error_code::invalid_value, "map key contains NUL");
  } else {
    fail_encode(es, error_code::invalid_utf8, "map key is not valid UTF-8");
  }
}

std::nullptr_t fail_missing_field(decode_state& st, const std::uint8_t* document,
                                  std::span<const std::string_view> keys,
                                  std::span<const std::uint64_t> seen,
                                  std::span<const std::uint64_t> required) {
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const std::uint64_t bit = std::uint64_t{1} << (i % 64);
    if ((required[i / 64] & bit) != 0 && (seen[i / 64] & bit) == 0) {
      fail(st, error_code::missing_field, document,
           "required field \"" + std::string(keys[i]) + "\" is absent");
      st.error_located = true;
      st.err.prepend_path(keys[i]);
      return nullptr;
    }
  }
  fail(st, error_code::missing_field, document, "a required field is absent");
  st.error_located = true;
  return nullptr;
}

std::nullptr_t fail_not_uuid(decode_state& st, const std::uint8_t* p) {
  return fail(st, error_code::invalid_value, p,
              "a UUID is binary subtype 4 of 16 bytes; found subtype " + std::to_string(p[4]) +
                  " of " + std::to_string(load_i32_le(p)) + " bytes");
}

std::nullptr_t fail_not_vector(decode_state& st, const std::uint8_t* p) {
  return fail(st, error_code::invalid_value, p,
              "a binary vector is binary subtype 9; found subtype " + std::to_string(p[4]) +
                  " of " + std::to_string(load_i32_le(p)) + " bytes");
}

std::nullptr_t fail_array_length(decode_state& st, const std::uint8_t* p, std::size_t count,
                                 std::size_t expected) {
  if (count > expected) {
    return fail(st, error_code::invalid_length, p,
                "array holds more than " + std::to_string(expected) + " elements");
  }
  return fail(
      st, error_code::invalid_length, p,
      "array holds " + std::to_string(count) + " elements, expected " + std::to_string(expected));
}

bsongen::error too_large_error(std::size_t size) {
  return {error_code::too_large, "document of " + std::to_string(size) + " bytes"};
}

bsongen::error buffer_too_small_error(std::size_t needed) {
  return {error_code::buffer_too_small, "the encoding needs " + std::to_string(needed) + " bytes"};
}

bsongen::error over_size_limit_error(std::size_t declared, std::size_t limit) {
  return {error_code::too_large, "document of " + std::to_string(declared) + " bytes exceeds the " +
                                     std::to_string(limit) + "-byte limit"};
}

bsongen::error trailing_bytes_error(std::size_t input_size, std::size_t declared) {
  return {error_code::trailing_bytes,
          std::to_string(input_size - declared) + " bytes follow the document", declared};
}

std::nullptr_t fail_enum_value(decode_state& st, const std::uint8_t* p, std::string_view text,
                               std::string_view enum_name) {
  std::string message = "\"";
  message += text;
  message += "\" is not a value of ";
  message += enum_name;
  return fail(st, error_code::invalid_value, p, std::move(message));
}

std::nullptr_t fail_enum_value(decode_state& st, const std::uint8_t* p, std::int64_t value,
                               std::string_view enum_name) {
  std::string message = std::to_string(value);
  message += " is not a value of ";
  message += enum_name;
  return fail(st, error_code::invalid_value, p, std::move(message));
}

void fail_encode_enum(encode_state& es, std::int64_t value, std::string_view enum_name) {
  std::string message = std::to_string(value);
  message += " is not a value of ";
  message += enum_name;
  fail_encode(es, error_code::invalid_value, std::move(message));
}

void fail_encode_utf8(encode_state& es, std::string_view what) {
  std::string message(what);
  message += " is not valid UTF-8";
  fail_encode(es, error_code::invalid_utf8, std::move(message));
}

void fail_encode_regex(encode_state& es, std::string_view pattern, std::string_view options) {
  const bool nul =
      pattern.find('\0') != std::string_view::npos || options.find('\0') != std::string_view::npos;
  if (nul) {
    fail_encode(es, error_code::invalid_value, "regex pattern or options contain NUL");
  } else {
    fail_encode(es, error_code::invalid_utf8, "regex pattern or options are not valid UTF-8");
  }
}

namespace {

void fail_encode_range_text(encode_state& es, std::string value, std::string_view target) {
  value += " does not fit BSON ";
  value += target;
  value += " exactly";
  fail_encode(es, error_code::inexact, std::move(value));
}

}  // namespace

void fail_encode_range(encode_state& es, std::int64_t value, std::string_view target) {
  fail_encode_range_text(es, std::to_string(value), target);
}

void fail_encode_range(encode_state& es, std::uint64_t value, std::string_view target) {
  fail_encode_range_text(es, std::to_string(value), target);
}

}  // namespace bsongen::detail
