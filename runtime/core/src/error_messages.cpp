#include "bsongen/detail/error_messages.hpp"

#include <cstdio>

namespace bsongen::detail::messages {
namespace {

std::string hex_byte(std::uint8_t byte) {
  static constexpr char digits[] = "0123456789abcdef";
  return {digits[byte >> 4], digits[byte & 15]};
}

std::string with_length(std::string_view what, std::int64_t length, std::string_view verdict) {
  std::string out(what);
  out += " length ";
  out += std::to_string(length);
  out += verdict;
  return out;
}

}  // namespace

std::string too_deep(std::size_t limit) {
  return "nesting exceeds the depth limit of " + std::to_string(limit);
}

std::string unknown_type(std::uint8_t type) {
  return "unknown element type byte 0x" + hex_byte(type);
}

std::string value_past_end(std::string_view what) {
  return std::string(what) + " runs past the end of its document";
}

std::string length_below(std::string_view what, std::int64_t length, std::int64_t minimum) {
  return with_length(what, length, " is below the minimum of " + std::to_string(minimum));
}

std::string length_past_end(std::string_view what, std::int64_t length) {
  return with_length(what, length, " runs past the end of its document");
}

std::string negative_length(std::string_view what, std::int64_t length) {
  return with_length(what, length, " is negative");
}

std::string old_binary_length_disagrees(std::int64_t length) {
  return "binary subtype 0x02 inner length disagrees with its outer length " +
         std::to_string(length);
}

std::string code_with_scope_length_disagrees(std::int64_t length) {
  return with_length("javascriptWithScope", length, " disagrees with its code and scope lengths");
}

std::string missing_nul(std::string_view what) {
  return std::string(what) + " does not end with a NUL byte";
}

std::string not_utf8(std::string_view what) { return std::string(what) + " is not valid UTF-8"; }

std::string invalid_bool(std::uint8_t byte) {
  return "boolean byte is 0x" + hex_byte(byte) + ", not 0 or 1";
}

std::string vector_payload_too_short(std::size_t size) {
  return "binary vector payload of " + std::to_string(size) + (size == 1 ? " byte" : " bytes") +
         " lacks its 2-byte header (dtype, padding)";
}

std::string vector_unknown_dtype(std::uint8_t dtype) {
  return "binary vector dtype 0x" + hex_byte(dtype) +
         " is not int8 (0x03), float32 (0x27) or packed_bit (0x10)";
}

std::string vector_padding_not_allowed(std::string_view dtype, std::uint8_t padding) {
  return std::string(dtype) + " vector padding is " + std::to_string(padding) +
         "; it must be 0 for " + std::string(dtype);
}

std::string vector_padding_above_7(std::uint8_t padding) {
  return "packed_bit vector padding is " + std::to_string(padding) + ", above the maximum of 7";
}

std::string vector_padding_without_data(std::uint8_t padding) {
  return "packed_bit vector padding is " + std::to_string(padding) +
         " but it has no data bytes; an empty vector's padding must be 0";
}

std::string vector_ignored_bits_set(std::uint8_t last_byte, std::uint8_t padding) {
  return "packed_bit vector last byte 0x" + hex_byte(last_byte) +
         " has nonzero ignored bits (its " + std::to_string(padding) + " low " +
         (padding == 1 ? "bit" : "bits") + ", the padding, must be 0)";
}

std::string vector_float32_length(std::size_t data_size) {
  return "float32 vector data of " + std::to_string(data_size) +
         " bytes is not a multiple of 4 (the element size)";
}

std::string vector_dtype_mismatch(std::string_view found, std::string_view expected) {
  return "binary vector dtype is " + std::string(found) + ", expected " + std::string(expected);
}

std::string vector_dimension_mismatch(std::string_view dtype, std::size_t stored,
                                      std::size_t expected) {
  return std::string(dtype) + " vector has " + std::to_string(stored) +
         " elements, expected dimension " + std::to_string(expected);
}

std::string vector_too_large(std::size_t payload_size) {
  return "binary vector payload of " + std::to_string(payload_size) +
         " bytes exceeds the largest a BSON document can hold";
}

std::string vector_buffer_too_small(std::size_t value_size) {
  return "binary vector value needs " + std::to_string(value_size) + " bytes";
}

std::string vector_not_binary(std::string_view found) {
  return "expected binary subtype 0x09 (vector), found " + std::string(found);
}

std::string vector_wrong_subtype(std::uint8_t subtype) {
  return "expected binary subtype 0x09 (vector), found binary subtype 0x" + hex_byte(subtype);
}

std::string vector_element_type(std::string_view dtype, std::string_view found,
                                std::string_view expected) {
  return std::string(dtype) + " vector element is " + std::string(found) + "; " +
         std::string(dtype) + " takes " + std::string(expected);
}

std::string vector_element_out_of_range(std::string_view dtype, std::int64_t value,
                                        std::int64_t low, std::int64_t high) {
  return std::string(dtype) + " vector element " + std::to_string(value) + " is outside [" +
         std::to_string(low) + ", " + std::to_string(high) + "]";
}

std::string vector_element_beyond_float32(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", value);
  return std::string("float32 vector element ") + text + " is beyond float32's range";
}

}  // namespace bsongen::detail::messages
