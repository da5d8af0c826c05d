#pragma once

// Decoding into members, for generated struct codecs and the containers (array_codec.hpp,
// map_codec.hpp): calling a member's or element's codec (decode_member: document codecs take
// `fresh`, an allocation failure becomes an error), optional members, resetting members a
// document left out, and how many elements a new container reserves. Every generated source
// with a struct includes it (catalog.STRUCT_CODEC_HEADERS).

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <optional>
#include <type_traits>

#include "bsongen/bson_type.hpp"
#include "bsongen/detail/value_codecs.hpp"
#include "bsongen/detail/wire.hpp"

namespace bsongen::detail {

// Calls a member's codec: document codecs take `fresh`, the others do not need it.
template <class Codec>
inline constexpr bool is_document_codec = requires {
  Codec::is_document;
};

//
// An allocation that fails while a member decodes (std::bad_alloc from its resource) becomes an
// out_of_memory error at that member, which the enclosing element names as for any error: decode
// never throws. A struct's members catch their own (its codec is not wrapped again); a codec that
// allocates nothing inlines to code with no handler at all.
template <class Codec, class V>
[[gnu::always_inline]] inline const std::uint8_t* decode_member(decode_state& st, std::uint8_t t,
                                                                const std::uint8_t* p,
                                                                const std::uint8_t* end, V& member,
                                                                bool fresh) {
  if constexpr (is_document_codec<Codec>) {
    return Codec::decode(st, t, p, end, member, fresh);
  } else {
    static_cast<void>(fresh);
    try {
      return Codec::decode(st, t, p, end, member);
    } catch (const std::bad_alloc&) {
      return fail_out_of_memory(st, p);
    }
  }
}

// An optional member: a null leaves it empty unless the value type holds null itself
// (NullIsValue: `any`), else the value decodes into the one it holds (keeping its capacity) or a
// new one.
template <class Codec, bool NullIsValue, class V>
inline const std::uint8_t* decode_optional_value(decode_state& st, std::uint8_t t,
                                                 const std::uint8_t* p, const std::uint8_t* end,
                                                 std::optional<V>& member) {
  if (!NullIsValue && t == static_cast<std::uint8_t>(bson_type::null)) {
    member.reset();
    return p;
  }
  if (member.has_value()) return decode_member<Codec>(st, t, p, end, *member, false);
  const std::uint8_t* const next =
      decode_member<Codec>(st, t, p, end, emplace_value(st, member), true);
  // A failed decode leaves no half-made value behind (a value-initialized enum may name no
  // enumerator, and encode would refuse it).
  if (next == nullptr) member.reset();
  return next;
}

// An optional struct: reset() and emplace() bring the struct's destructor and constructor, which
// for nested structs (and their vectors and maps) are large. One copy per struct type, called
// from each use, instead of one inlined into every decoder that has such a field.
template <class Codec, bool NullIsValue, class V>
[[gnu::noinline]] const std::uint8_t* decode_optional_document(decode_state& st, std::uint8_t t,
                                                               const std::uint8_t* p,
                                                               const std::uint8_t* end,
                                                               std::optional<V>& member) {
  return decode_optional_value<Codec, NullIsValue>(st, t, p, end, member);
}

template <class Codec, bool NullIsValue, class V>
inline const std::uint8_t* decode_optional_member(decode_state& st, std::uint8_t t,
                                                  const std::uint8_t* p, const std::uint8_t* end,
                                                  std::optional<V>& member,
                                                  [[maybe_unused]] bool fresh) {
  if constexpr (is_document_codec<Codec>) {
    return decode_optional_document<Codec, NullIsValue>(st, t, p, end, member);
  } else {
    return decode_optional_value<Codec, NullIsValue>(st, t, p, end, member);
  }
}

// Sets a member back to its value-initialized state (generated reset_field). Members that own
// memory go through one out-of-line copy per type: for nested structs, their vectors and maps,
// building and destroying the temporary inlines the whole tree of destructors and constructors,
// which made reset_field a quarter of a wide schema's compile time.
// An allocator-aware member (std::pmr containers, structs of `allocator: pmr` schemas) starts
// again on its own allocator, so the reset neither touches the default resource nor copies
// between resources.
template <class T>
[[gnu::noinline]] void reset_owning(T& member) {
  if constexpr (requires { T(member.get_allocator()); }) {
    member = T(member.get_allocator());
  } else {
    member = T{};
  }
}
template <class T>
inline void reset_value(T& member) {
  if constexpr (std::is_trivially_destructible_v<T>) {
    member = T{};
  } else {
    reset_owning(member);
  }
}

// How many elements a new container of Elem values reserves: the elements from `body` on whose
// framing holds (a type byte, a key and its NUL, the value's length fields within the document)
// and, when Elem reads one BSON type, whose type byte is that one; the count stops at the first
// other element (decode then reports it, or grows the container past it). Every element counted
// is one the input really holds, at least its type's minimum wire size, so hostile input cannot
// make a container reserve beyond what its own bytes hold: never a guess from one element (an
// array of one empty string then a long one once reserved room for thousands of strings). The
// walk reads each element's header; decoding the element costs far more.
template <class Elem>
[[nodiscard]] std::size_t count_elements(const std::uint8_t* body,
                                         const std::uint8_t* doc_end) noexcept {
  std::size_t n = 0;
  while (doc_end - body >= 2) {
    const std::uint8_t t = *body;
    if constexpr (requires { Elem::type; }) {
      if (t != Elem::type) break;
    }
    const void* const key_end =
        std::memchr(body + 1, 0, static_cast<std::size_t>(doc_end - body - 1));
    if (key_end == nullptr) break;
    const auto* const value = static_cast<const std::uint8_t*>(key_end) + 1;
    const std::ptrdiff_t size =
        claimed_value_size(t, value, static_cast<std::size_t>(doc_end - value));
    if (size < 0) break;
    body = value + size;
    ++n;
  }
  return n;
}

}  // namespace bsongen::detail
