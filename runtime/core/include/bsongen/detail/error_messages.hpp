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

}  // namespace bsongen::detail::messages
