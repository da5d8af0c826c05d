#pragma once

// One wording per decode error, for every path that reads BSON: the generic decoder, generated
// decoders, the generic values inside generated structs (`any`) and the Extended JSON builder
// build their messages here, so the same malformed input reads the same whichever path refused
// it (tests/generated/error_wording_test.cpp holds the paths to that). The error_code each goes
// with is in its comment. Cold paths only: each call builds a new string.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace bsongen::detail::messages {

// too_deep: a document or array one level past decode_options::max_depth.
std::string too_deep(std::size_t limit);
// invalid_type: a type byte BSON does not define.
std::string unknown_type(std::uint8_t type);
// invalid_length: a NUL type byte (the document's end) before the declared length is used up.
inline constexpr std::string_view early_document_end =
    "document ends (NUL type byte) before its declared length";
// truncated: a value (`what`: the type's name) whose fixed part the document cannot hold.
std::string value_past_end(std::string_view what);
// invalid_length: `what` ("string", "binary", "embedded document", ...) declares a length below
// its minimum, or one its document cannot hold, or a negative one.
std::string length_below(std::string_view what, std::int64_t length, std::int64_t minimum);
std::string length_past_end(std::string_view what, std::int64_t length);
std::string negative_length(std::string_view what, std::int64_t length);
// invalid_length: binary subtype 2, whose payload repeats its length, repeats another one.
std::string old_binary_length_disagrees(std::int64_t length);
// invalid_length: a javascriptWithScope whose total disagrees with its code and scope.
std::string code_with_scope_length_disagrees(std::int64_t length);
// missing_terminator: `what` ("string", "embedded document", "scope document") lacks its NUL.
std::string missing_nul(std::string_view what);
// missing_terminator: a key, or a regex's pattern or options, runs to its document's end.
inline constexpr std::string_view key_without_nul = "key has no NUL before the end of its document";
inline constexpr std::string_view regex_without_nul =
    "regex pattern or options lack a NUL before the end of the document";
// invalid_utf8: `what` ("string", "key", "regex") is not valid UTF-8.
std::string not_utf8(std::string_view what);
// invalid_bool: a boolean byte other than 0 and 1.
std::string invalid_bool(std::uint8_t byte);
// duplicate_field: under duplicate_keys: reject (the error's path names the key).
inline constexpr std::string_view repeated_key =
    "key repeats an earlier element's key in its document";

// Binary subtype 9 (bsongen/binary_vector.hpp), decoders and encoders alike.
// invalid_length: a payload shorter than its dtype and padding bytes.
std::string vector_payload_too_short(std::size_t size);
// invalid_value: a dtype byte other than int8 (0x03), float32 (0x27) and packed_bit (0x10).
std::string vector_unknown_dtype(std::uint8_t dtype);
// invalid_value: nonzero padding on a dtype (`dtype`: its name) that has none.
std::string vector_padding_not_allowed(std::string_view dtype, std::uint8_t padding);
// invalid_value: packed_bit padding above 7.
std::string vector_padding_above_7(std::uint8_t padding);
// invalid_value: packed_bit padding 1..7 with no data byte to pad.
std::string vector_padding_without_data(std::uint8_t padding);
// invalid_value: a packed_bit vector's last byte with some of its `padding` ignored bits set.
std::string vector_ignored_bits_set(std::uint8_t last_byte, std::uint8_t padding);
// invalid_length: float32 data (after the header) that is not a whole number of 4-byte elements.
std::string vector_float32_length(std::size_t data_size);
// type_mismatch: a valid vector of one dtype where another is expected.
std::string vector_dtype_mismatch(std::string_view found, std::string_view expected);
// invalid_length: a fixed-dimension target (std::array) and a vector of another element count.
std::string vector_dimension_mismatch(std::string_view dtype, std::size_t stored,
                                      std::size_t expected);
// too_large: a payload beyond what a BSON document can hold.
std::string vector_too_large(std::size_t payload_size);
// buffer_too_small: a caller buffer without room for the binary value.
std::string vector_buffer_too_small(std::size_t value_size);
// type_mismatch: a vector asked of a value of another BSON type (`found`: its name) or of a binary
// of another subtype.
std::string vector_not_binary(std::string_view found);
std::string vector_wrong_subtype(std::uint8_t subtype);
// type_mismatch: an array element of a BSON type (`found`) the vector's dtype cannot take
// (`expected` says what it takes, e.g. "an int32 or int64").
std::string vector_element_type(std::string_view dtype, std::string_view found,
                                std::string_view expected);
// invalid_value: an integer array element outside the dtype's range [low, high].
std::string vector_element_out_of_range(std::string_view dtype, std::int64_t value,
                                        std::int64_t low, std::int64_t high);
// invalid_value: a finite number that float32 cannot hold (it would round to infinity).
std::string vector_element_beyond_float32(double value);

}  // namespace bsongen::detail::messages
