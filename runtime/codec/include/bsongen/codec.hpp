#pragma once

// Encoding and decoding structs that bsongen generated code for.
//
//   #include "orders.bsongen.hpp"       // generated from schemas/orders.yaml
//
//   shop::order o{...};
//   bsongen::result<bsongen::byte_buffer> bytes = bsongen::encode(o);
//   bsongen::result<shop::order> back = bsongen::decode<shop::order>(bytes->span());
//   if (!back) std::cerr << back.error().to_string() << '\n';
//
// Reusing memory across many documents: encode into one bsongen::writer (clear() keeps its
// capacity) and decode into one object (strings, vectors and maps keep theirs):
//
//   bsongen::writer w;
//   for (const auto& o : orders) { w.clear(); bsongen::encode(o, w).value(); send(w.bytes()); }
//   shop::order o;
//   for (auto msg : messages) if (auto r = bsongen::decode(msg, o); !r) log(r.error());
//
// Nothing here throws (result::value() does, on request). Decoding treats every byte as hostile:
// no read outside `bytes`, and every error carries the element path and byte offset.
//
// The customization point is bsongen::codec<T>, which generated headers specialize for each
// struct and enum. This header is light on purpose: a generated header includes it and declares
// the codecs, whose definitions (and the codec headers of bsongen/detail/ they need) live in the
// generated source that bsongen_generate() compiles once.

#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <utility>

#include "bsongen/byte_buffer.hpp"
#include "bsongen/decode_options.hpp"
#include "bsongen/error.hpp"
#include "bsongen/writer.hpp"

namespace bsongen {

// Specialized by generated code only.
template <class T>
struct codec;

// A struct bsongen generated a document codec for.
template <class T>
concept generated_document = requires {
  codec<T>::is_document;
}
&&codec<T>::is_document;

namespace detail {

struct encode_state;  // bsongen/detail/wire.hpp
struct decode_state;

// What a write pass saw of the strings it copied without checking them (size() leaves them to
// write() when encode_state::text_checked_on_write): the OR of their bytes. When no byte had its
// high bit set every one was ASCII, hence UTF-8; otherwise encode checks the value again with
// size(), which names a string that is not UTF-8. So each string is read once per encode.
//
// It also carries the one thing the write pass takes from the size pass: where the tree maps'
// entries size() recorded are (encode_state::map_entries), read in the same order; null when the
// caller ran no size pass on them (write() then walks the maps itself).
struct text_bits {
  std::uint64_t ored = 0;
  const void* const* map_entries = nullptr;

  [[nodiscard]] bool all_ascii() const noexcept { return (ored & 0x8080808080808080ULL) == 0; }
};

// A generated document codec's entry points with the object's type erased, so the work around
// them (sizes, buffers, the outermost framing, errors) is compiled once in the codec library.
struct document_functions {
  std::size_t (*size)(const void* obj, encode_state& es) noexcept;
  std::uint8_t* (*write)(const void* obj, std::uint8_t* out, text_bits& text) noexcept;
  // `fresh`: *obj is value-initialized, so absent fields need no reset.
  const std::uint8_t* (*decode)(decode_state& st, const std::uint8_t* p, const std::uint8_t* end,
                                void* obj, bool fresh);
};

template <class T>
inline constexpr document_functions functions_of = {
    [](const void* obj, encode_state& es) noexcept {
      return codec<T>::size(*static_cast<const T*>(obj), es);
    },
    [](const void* obj, std::uint8_t* out, text_bits& text) noexcept {
      return codec<T>::write(*static_cast<const T*>(obj), out, text);
    },
    [](decode_state& st, const std::uint8_t* p, const std::uint8_t* end, void* obj, bool fresh) {
      return codec<T>::decode_document(st, p, end, *static_cast<T*>(obj), fresh);
    },
};

// A document codec whose values all encode to codec<T>::fixed_size bytes and cannot fail: encode
// skips the size pass and the type-erased entry point (for small documents those cost more than
// the stores). The generator says so only when no member is checked on encode (enums, narrowed
// `cpp:` members).
template <class T>
concept always_fixed_size = requires {
  codec<T>::fixed_size;
  requires codec<T>::encode_always_succeeds;
};

// A document codec whose values all encode to codec<T>::fixed_size bytes in one shape: decode
// tries codec<T>::decode_fixed (one call, no decode state) before the general decoder.
template <class T>
concept fixed_shape_document = requires(const std::uint8_t* p, T& out) {
  codec<T>::fixed_size;
  codec<T>::fixed_depth;
  codec<T>::decode_fixed(p, out);
};

// True when `bytes` holds one fixed-shape T that `options` allow, read into out; false leaves out
// unspecified (decode it the general way, not as a fresh object).
template <fixed_shape_document T>
[[nodiscard]] inline bool decode_fixed(std::span<const std::uint8_t> bytes, T& out,
                                       const decode_options& options) noexcept {
  constexpr std::size_t depth = codec<T>::fixed_depth;
  return bytes.size() == codec<T>::fixed_size && codec<T>::fixed_size <= options.max_size &&
         depth <= options.max_depth && depth <= max_depth_limit &&
         codec<T>::decode_fixed(bytes.data(), out);
}

// A struct of an `allocator: pmr` schema: its strings, vectors and maps allocate from the
// resource it was built on.
template <class T>
concept allocator_aware_document = requires(const T& v) {
  typename T::allocator_type;
  v.get_allocator().resource();
};

// The options to decode into `out` with: an allocator-aware struct's resource replaces
// options.memory, so that the values decode creates outside its containers (an optional's)
// allocate where its members do.
template <class T>
[[nodiscard]] decode_options options_for(const T& out, const decode_options& options) noexcept {
  decode_options own = options;
  own.memory = out.get_allocator().resource();
  return own;
}

// out_of_memory, built without allocating (bsongen/detail/wire.hpp).
[[gnu::cold]] bsongen::error out_of_memory_error() noexcept;

// A new T for decode<T>: an allocator-aware one on options.memory when that is set; out_of_memory
// when building it fails to allocate (a default too long to be inline, on a resource that refuses).
template <class T>
[[nodiscard]] result<T> new_document(const decode_options& options) noexcept {
  try {
    if constexpr (allocator_aware_document<T>) {
      if (options.memory != nullptr) {
        return result<T>(std::in_place, typename T::allocator_type(options.memory));
      }
    }
    return result<T>(std::in_place);
  } catch (const std::bad_alloc&) {
    return out_of_memory_error();
  }
}

[[gnu::cold]] bsongen::error buffer_too_small_error(std::size_t needed);

[[nodiscard]] result<std::size_t> encoded_size(const void* obj, const document_functions& f);
[[nodiscard]] result<void> encode(const void* obj, writer& out, const document_functions& f);
[[nodiscard]] result<byte_buffer> encode(const void* obj, const document_functions& f);
[[nodiscard]] result<void> decode(std::span<const std::uint8_t> bytes, void* out, bool fresh,
                                  const decode_options& options, const document_functions& f);

}  // namespace detail

// The exact number of bytes encode(obj) produces, or an error when obj cannot be encoded (a map
// key or regex holding NUL, an enum value with no enumerator, a document over 2 GiB); errors name
// the member's path ("items.3.status").
template <generated_document T>
[[nodiscard]] result<std::size_t> encoded_size(const T& obj) {
  if constexpr (detail::always_fixed_size<T>) {
    return codec<T>::fixed_size;
  } else {
    return detail::encoded_size(&obj, detail::functions_of<T>);
  }
}

// Appends obj's encoding to `out`: one size computation, one writer::extend, then raw stores.
// On any error (buffer_too_small when a caller buffer lacks the room) the writer is left as it
// was before the call: same size, same bytes, same overflowed() (see writer.hpp).
template <generated_document T>
[[nodiscard]] result<void> encode(const T& obj, writer& out) {
  if constexpr (detail::always_fixed_size<T>) {
    std::uint8_t* p = nullptr;
    try {
      p = out.extend(codec<T>::fixed_size);
    } catch (const std::bad_alloc&) {  // growing failed; the writer is as it was
      return detail::out_of_memory_error();
    }
    if (p == nullptr) [[unlikely]]
      return detail::buffer_too_small_error(codec<T>::fixed_size);
    detail::text_bits no_text;  // a fixed shape holds no string
    codec<T>::write(obj, p, no_text);
    return {};
  } else {
    return detail::encode(&obj, out, detail::functions_of<T>);
  }
}

// obj's encoding in a new buffer of exactly the right size.
template <generated_document T>
[[nodiscard]] result<byte_buffer> encode(const T& obj) {
  if constexpr (detail::always_fixed_size<T>) {
    result<byte_buffer> out(std::in_place);
    try {
      out->resize_uninitialized(codec<T>::fixed_size);
    } catch (const std::bad_alloc&) {
      return detail::out_of_memory_error();
    }
    detail::text_bits no_text;
    codec<T>::write(obj, out->data(), no_text);
    return out;
  } else {
    return detail::encode(&obj, detail::functions_of<T>);
  }
}

// Decodes one document that fills `bytes` exactly into `out`. Fields present in the input are
// overwritten; absent ones are reset to their defaults, so decoding into a reused object gives
// the same result as decoding into a new one while keeping allocated capacity.
// `out` is unspecified after an error.
template <generated_document T>
[[nodiscard]] result<void> decode(std::span<const std::uint8_t> bytes, T& out,
                                  const decode_options& options = {}) {
  if constexpr (detail::fixed_shape_document<T>) {
    if (detail::decode_fixed(bytes, out, options)) return {};
  }
  if constexpr (detail::allocator_aware_document<T>) {
    return detail::decode(bytes, &out, false, detail::options_for(out, options),
                          detail::functions_of<T>);
  } else {
    return detail::decode(bytes, &out, false, options, detail::functions_of<T>);
  }
}

// Decodes one document that fills `bytes` exactly into a new T (absent fields keep T{}'s
// defaults, with nothing to reset). A struct of an `allocator: pmr` schema is built on
// options.memory when it is set (else the default resource), which must outlive it:
//
//   auto r = bsongen::decode<shop::order>(bytes);   // result<shop::order>
//   std::pmr::monotonic_buffer_resource arena;       // allocator: pmr
//   auto r = bsongen::decode<shop::order>(bytes, {.memory = &arena});
template <generated_document T>
[[nodiscard]] result<T> decode(std::span<const std::uint8_t> bytes,
                               const decode_options& options = {}) {
  // One named result, returned from every path, so that it is built in the caller's storage.
  result<T> out = detail::new_document<T>(options);
  if (!out) [[unlikely]]
    return out;
  bool fresh = true;
  if constexpr (detail::fixed_shape_document<T>) {
    if (detail::decode_fixed(bytes, *out, options)) return out;
    fresh = false;  // the fast path may have assigned members
  }
  decode_options own;
  const decode_options* used = &options;
  if constexpr (detail::allocator_aware_document<T>) {
    own = detail::options_for(*out, options);
    used = &own;
  }
  if (result<void> r = detail::decode(bytes, &*out, fresh, *used, detail::functions_of<T>); !r) {
    out = std::move(r).error();
  }
  return out;
}

template <generated_document T>
[[nodiscard]] result<T> decode(const byte_buffer& bytes, const decode_options& options = {}) {
  return bsongen::decode<T>(bytes.span(), options);
}

}  // namespace bsongen
