#pragma once

// The generic path's entry points for one element value, used by generated codecs for `any`
// fields (bsongen::value). Declared apart from bsongen/value.hpp so a generated header pays for
// them only when it has such fields; defined in the generic library.

#include <cstddef>
#include <cstdint>
#include <memory_resource>

#include "bsongen/detail/wire.hpp"

namespace bsongen {

class value;  // bsongen/value.hpp, which the generated headers with `any` fields include

namespace detail {

struct node;  // bsongen/detail/node.hpp
class arena;  // bsongen/detail/arena.hpp

// The generic decoder started at one element value: the type-`type` value at p, inside a document
// whose terminating NUL is at `end`, read as decode_document reads an element (lengths,
// terminators, UTF-8 when st.validate_utf8, nesting within st.max_depth counting the st.depth
// levels open around it). Builds its node into `out` (no key) with every part in `a`, which must
// outlive it; returns the byte after the value. On failure returns nullptr with st.err set: errors
// about the value itself point at `element` (its element's type byte), errors inside it at their
// own element's type byte, offsets counted from st.origin; the path is below the value ("x.3"),
// the caller prepends the value's own key. `a` may then hold unused bytes.
[[nodiscard]] const std::uint8_t* decode_value(decode_state& st, const std::uint8_t* element,
                                               std::uint8_t type, const std::uint8_t* p,
                                               const std::uint8_t* end, arena& a, node& out);

// Decodes the value of type `type` at p (its element's value, before `end`) into `out`, as
// decode_document would decode it as an element: lengths, terminators, UTF-8 (st.validate_utf8),
// nesting within st.max_depth counting the st.depth levels already open.
//
// Scalars become the value directly; strings, binaries, documents and arrays take their bytes
// from an arena of the value's own whose first block is sized to them, allocated from `upstream`
// (the runtime's block resource when nullptr), which must outlive the value. So a value keeps
// alive only what it holds, and a document of many small `any` values costs a small multiple of
// its input. Throws std::bad_alloc, `out` unchanged, when `upstream` does.
//
// Errors about the value itself point at p (the element around it moves them to its type byte);
// errors inside it point at their own element's type byte with st.error_located set, their path
// below the value ("x.3"); the caller prepends the value's own key. `out` is left unchanged on
// failure.
[[nodiscard]] const std::uint8_t* decode_any_value(decode_state& st, std::uint8_t type,
                                                   const std::uint8_t* p, const std::uint8_t* end,
                                                   std::pmr::memory_resource* upstream, value& out);
// Bytes of v's encoded value, without its type byte and key. When v holds something
// encode_document would refuse (text or a nested key that is not UTF-8), sets es's error as
// encode_document words it, its path below v ("a.1"; the caller prepends v's own key). Texts that
// node_flags vouch for (decoded with validate_utf8, built from UTF-8) are not read again.
[[nodiscard]] std::size_t encoded_value_size(const value& v, encode_state& es) noexcept;
// Writes v's value (exactly encoded_value_size(v) bytes: no type byte, no key) at out and returns
// the end. Canonical like encode_document (regex options sorted).
std::uint8_t* write_value(const value& v, std::uint8_t* out) noexcept;
// v's BSON type byte.
[[nodiscard]] std::uint8_t type_byte_of(const value& v) noexcept;

}  // namespace detail
}  // namespace bsongen
