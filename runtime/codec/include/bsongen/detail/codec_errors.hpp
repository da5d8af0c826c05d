#pragma once

// The error builders of generated codecs: cold and out of line (codec/src/codec_errors.cpp), so
// a decoder's success path stays small. The ones every decoder shares are in
// bsongen/detail/wire.hpp. Decode builders return nullptr so a decoder can `return fail_...(...)`.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "bsongen/codec.hpp"
#include "bsongen/detail/wire.hpp"
#include "bsongen/error.hpp"

namespace bsongen::detail {

// The value of the element at `element` (its type byte) failed to decode: unless a level below
// already placed the error (st.error_located), it now points at that type byte (library decision
// 1: the generic decoder's offsets); then the key or index joins the path.
[[gnu::cold, gnu::noinline]] std::nullptr_t fail_in_element(decode_state& st,
                                                            const std::uint8_t* element,
                                                            std::string_view key);
[[gnu::cold, gnu::noinline]] std::nullptr_t fail_in_element(decode_state& st,
                                                            const std::uint8_t* element,
                                                            std::size_t index);
// The value of an element decode steps over (detail::step_over: an unknown key's, or a source
// field a projection leaves out) is not acceptable: the error, st.err, names the element.
[[gnu::cold, gnu::noinline]] std::nullptr_t fail_skipped(decode_state& st,
                                                         const std::uint8_t* element,
                                                         std::string_view key);
// An element whose type byte BSON does not define, in the generic decoder's words (a NUL type
// byte means the document ended before its declared length).
[[gnu::cold]] std::nullptr_t fail_element_type(decode_state& st, const std::uint8_t* element,
                                               std::string_view key);
[[gnu::cold]] std::nullptr_t fail_unknown_field(decode_state& st, const std::uint8_t* element,
                                                std::string_view key);
[[gnu::cold]] std::nullptr_t fail_duplicate_field(decode_state& st, const std::uint8_t* element,
                                                  std::string_view key);
// The first required field whose bit is clear in `seen`, at the document lacking it.
[[gnu::cold]] std::nullptr_t fail_missing_field(decode_state& st, const std::uint8_t* document,
                                                std::span<const std::string_view> keys,
                                                std::span<const std::uint64_t> seen,
                                                std::span<const std::uint64_t> required);
// A map key that its decoder would reject (NUL, invalid UTF-8).
[[gnu::cold]] void fail_map_key(encode_state& es, std::string_view key);
[[gnu::cold]] std::nullptr_t fail_not_uuid(decode_state& st, const std::uint8_t* p);
// A binary of another subtype where a binary vector (subtype 9) belongs.
[[gnu::cold]] std::nullptr_t fail_not_vector(decode_state& st, const std::uint8_t* p);
// An array of `count` elements (or more, when count > expected) where exactly `expected` belong.
[[gnu::cold]] std::nullptr_t fail_array_length(decode_state& st, const std::uint8_t* p,
                                               std::size_t count, std::size_t expected);
// A value naming no enumerator: `text` is the value as found (a number or a quoted string).
[[gnu::cold]] std::nullptr_t fail_enum_value(decode_state& st, const std::uint8_t* p,
                                             std::string_view text, std::string_view enum_name);
[[gnu::cold]] std::nullptr_t fail_enum_value(decode_state& st, const std::uint8_t* p,
                                             std::int64_t value, std::string_view enum_name);
// Errors of the top-level entry points in bsongen/codec.hpp (which declares
// buffer_too_small_error: its inline fixed-size encode needs it).
[[gnu::cold]] bsongen::error too_large_error(std::size_t size);
[[gnu::cold]] bsongen::error over_size_limit_error(std::size_t declared, std::size_t limit);
[[gnu::cold]] bsongen::error trailing_bytes_error(std::size_t input_size, std::size_t declared);
[[gnu::cold]] void fail_encode_enum(encode_state& es, std::int64_t value,
                                    std::string_view enum_name);
// Encode errors of the leaf codecs (the caller adds the field path): `what` names the value's
// BSON type or part, e.g. "string" or "javascriptWithScope code".
[[gnu::cold]] void fail_encode_utf8(encode_state& es, std::string_view what);
// A regex whose pattern or options hold a NUL or are not UTF-8.
[[gnu::cold]] void fail_encode_regex(encode_state& es, std::string_view pattern,
                                     std::string_view options);
// A member value its BSON type cannot hold exactly (a narrowed `cpp:` member); `target` names
// the BSON type.
[[gnu::cold]] void fail_encode_range(encode_state& es, std::int64_t value, std::string_view target);
[[gnu::cold]] void fail_encode_range(encode_state& es, std::uint64_t value,
                                     std::string_view target);

}  // namespace bsongen::detail
