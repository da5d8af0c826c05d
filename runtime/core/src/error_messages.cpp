#include "bsongen/detail/error_messages.hpp"

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

}  // namespace bsongen::detail::messages
