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
// capacity) and decode into one object (strings and vectors keep theirs):
//
//   bsongen::writer w;
//   for (const auto& o : orders) { w.clear(); bsongen::encode(o, w).value(); send(w.bytes()); }
//   shop::order o;
//   for (auto msg : messages) if (auto r = bsongen::decode(msg, o); !r) log(r.error());
//
// Nothing here throws (result::value() does, on request). Decoding treats every byte as hostile:
// no read outside `bytes`, and every error carries the element path and byte offset.
//
// The customization point is bsongen::codec<T>, which the generated header specializes for each
// struct and enum; see detail/generated_support.hpp for the contract.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <utility>

#include "bsongen/byte_buffer.hpp"
#include "bsongen/decode_options.hpp"
#include "bsongen/detail/codec_support.hpp"
#include "bsongen/error.hpp"
#include "bsongen/writer.hpp"

namespace bsongen {

// Specialized by generated code only.
template <class T>
struct codec;

// A struct bsongen generated a document codec for.
template <class T>
concept generated_document = requires { codec<T>::is_document; } && codec<T>::is_document;

// The exact number of bytes encode(obj) produces, or an error when obj cannot be encoded (a map
// key or regex holding NUL, an enum value with no enumerator, a document over 2 GiB).
template <generated_document T>
[[nodiscard]] result<std::size_t> encoded_size(const T& obj) {
  detail::encode_state es;
  const std::size_t n = codec<T>::size(obj, es);
  if (es.failed) return std::move(es.err);
  if (n > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
    return detail::too_large_error(n);
  }
  return n;
}

// Appends obj's encoding to `out`: one size computation, one writer::extend, then raw stores.
// On any error (buffer_too_small when a caller buffer lacks the room) the writer is left as it
// was before the call: same size, same bytes, same overflowed() (see writer.hpp).
template <generated_document T>
[[nodiscard]] result<void> encode(const T& obj, writer& out) {
  result<std::size_t> n = encoded_size(obj);
  if (!n) return std::move(n).error();
  std::uint8_t* p = out.extend(*n);
  if (p == nullptr) {
    return detail::buffer_too_small_error(*n);
  }
  codec<T>::write(obj, p);
  return {};
}

// obj's encoding in a new buffer of exactly the right size.
template <generated_document T>
[[nodiscard]] result<byte_buffer> encode(const T& obj) {
  result<std::size_t> n = encoded_size(obj);
  if (!n) return std::move(n).error();
  byte_buffer out;
  out.resize_uninitialized(*n);
  std::uint8_t* p = out.data();
  // Never taken (*n >= 5 and allocation failure throws), but it shows g++'s -Warray-bounds that
  // p is not the empty buffer's null pointer.
  if (p == nullptr) return detail::buffer_too_small_error(*n);
  codec<T>::write(obj, p);
  return out;
}

// Decodes one document that fills `bytes` exactly into `out`. Fields present in the input are
// overwritten; absent ones are reset to their defaults, so decoding into a reused object gives
// the same result as decoding into a new one while keeping allocated capacity.
// `out` is unspecified after an error.
template <generated_document T>
[[nodiscard]] result<void> decode(std::span<const std::uint8_t> bytes, T& out,
                                  const decode_options& options = {}) {
  detail::decode_state st;
  st.origin = bytes.data();
  st.max_depth = options.max_depth;
  st.validate_utf8 = options.validate_utf8;
  if (bytes.size() < 5) [[unlikely]] {
    return error(error_code::truncated, "input has " + std::to_string(bytes.size()) +
                                            " bytes, a document needs at least 5");
  }
  if (bytes.size() >= 4) {
    const std::int32_t declared = detail::load_i32_le(bytes.data());
    if (declared >= 5 && static_cast<std::size_t>(declared) > options.max_size) {
      return detail::over_size_limit_error(static_cast<std::size_t>(declared), options.max_size);
    }
    if (declared >= 5 && static_cast<std::size_t>(declared) < bytes.size()) {
      return detail::trailing_bytes_error(bytes.size(), static_cast<std::size_t>(declared));
    }
  }
  const std::uint8_t* end =
      codec<T>::decode_document(st, bytes.data(), bytes.data() + bytes.size(), out);
  if (end == nullptr) return std::move(st.err);
  return {};
}

// Decodes one document that fills `bytes` exactly.
//
//   auto r = bsongen::decode<shop::order>(bytes);   // result<shop::order>
template <generated_document T>
[[nodiscard]] result<T> decode(std::span<const std::uint8_t> bytes,
                               const decode_options& options = {}) {
  T out{};
  result<void> r = decode(bytes, out, options);
  if (!r) return std::move(r).error();
  return out;
}

template <generated_document T>
[[nodiscard]] result<T> decode(const byte_buffer& bytes, const decode_options& options = {}) {
  return decode<T>(bytes.span(), options);
}

}  // namespace bsongen
