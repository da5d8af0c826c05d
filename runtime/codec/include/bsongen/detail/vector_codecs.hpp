#pragma once

// The value codecs of `binary_vector<dtype>` and `binary_vector<dtype, N>` schema fields (BSON
// binary subtype 9; the codec contract is in bsongen/detail/value_codecs.hpp). The payload rules,
// sizes and stores are bsongen/binary_vector.hpp's; these codecs add the binary framing (length,
// subtype) and turn its errors into the decoder's and encoder's, so a hostile payload is refused
// with the field's path, and a value the specification refuses is not written.
//
//   binary_vector_codec<vector_dtype::float32>         std::vector<float> (any allocator)
//   binary_vector_codec<vector_dtype::int8>            std::vector<std::int8_t>
//   binary_vector_codec<vector_dtype::packed_bit>      bsongen::basic_packed_bits<A>
//   fixed_binary_vector_codec<vector_dtype::float32, N> std::array<float, N> (fixed width)
//   fixed_binary_vector_codec<vector_dtype::int8, N>    std::array<std::int8_t, N>
//
// Included only by generated sources that use them (catalog.VECTOR_CODEC_HEADER), so schemas
// without vectors do not compile them.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>

#include "bsongen/binary_vector.hpp"
#include "bsongen/bson_type.hpp"
#include "bsongen/codec.hpp"
#include "bsongen/detail/codec_errors.hpp"
#include "bsongen/detail/endian.hpp"
#include "bsongen/detail/wire.hpp"
#include "bsongen/error.hpp"

namespace bsongen::detail {

// The element type of dtype D's std::vector / std::array members (packed_bit has none).
template <vector_dtype D>
using vector_element_t = std::conditional_t<D == vector_dtype::float32, float, std::int8_t>;

// The payload of the binary value at p (its int32 length, subtype 9, payload), checked against
// the framing: within [p, end], not negative, subtype 9. nullptr with st.err set otherwise.
inline const std::uint8_t* vector_payload_end(decode_state& st, std::uint8_t t,
                                              const std::uint8_t* p, const std::uint8_t* end) {
  if (t != static_cast<std::uint8_t>(bson_type::binary)) {
    return fail_type(st, bson_type::binary, t, p);
  }
  if (end - p < 5) return fail_truncated(st, p, "binary");
  const std::int32_t length = load_i32_le(p);
  if (length < 0) {
    return fail(st, error_code::invalid_length, p, messages::negative_length("binary", length));
  }
  if (length > end - p - 5) return fail_length_past_end(st, p, "binary", length);
  if (p[4] != static_cast<std::uint8_t>(binary_subtype::vector)) return fail_not_vector(st, p);
  return p + 5 + length;
}

// A payload error of bsongen/binary_vector.hpp (decode_vector) as the decoder's: its code and
// message, at the value's first byte (the element moves it to its type byte, as for every value).
[[gnu::cold]] inline std::nullptr_t fail_vector(decode_state& st, const std::uint8_t* p,
                                                bsongen::error e) {
  return fail(st, e.code, p, std::move(e.message));
}

// The binary value at p, a vector, into out (any member decode_vector fills); both codecs' decode.
template <class V>
const std::uint8_t* decode_vector_value(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                        const std::uint8_t* end, V& out) {
  const std::uint8_t* stop = vector_payload_end(st, t, p, end);
  if (stop == nullptr) [[unlikely]]
    return nullptr;
  const std::span<const std::uint8_t> payload(p + 5, stop);
  if (result<void> r = decode_vector(payload, out, st.offset(p + 5)); !r) [[unlikely]] {
    return fail_vector(st, p, std::move(r).error());
  }
  return stop;
}

template <vector_dtype D>
struct binary_vector_codec {
  static constexpr std::uint8_t type = static_cast<std::uint8_t>(bson_type::binary);

  // packed_bits may break the specification's rules (padding, ignored bits); any vector may be
  // too large for a document.
  template <class V>
  static constexpr bool checks_on_encode = true;

  template <class V>
  static std::size_t size(const V& v, encode_state& es) noexcept {
    std::size_t payload = 0;
    if constexpr (D == vector_dtype::packed_bit) {
      if (result<void> checked = check_packed_bits(v); !checked) [[unlikely]] {
        fail_encode(es, checked.error().code, std::move(checked.error().message));
        return 0;
      }
      payload = vector_header_size + v.bytes.size();
    } else {
      payload = vector_payload_size(D, v.size());
    }
    if (payload > max_vector_payload_size) [[unlikely]] {
      fail_encode(es, error_code::too_large, messages::vector_too_large(payload));
      return 0;
    }
    return payload + 5;
  }
  template <class V>
  static bool empty(const V& v) noexcept {
    if constexpr (D == vector_dtype::packed_bit) {
      return v.bytes.empty();
    } else {
      return v.empty();
    }
  }
  template <class V>
  static std::uint8_t* write(const V& v, std::uint8_t* out,
                             [[maybe_unused]] text_bits& text) noexcept {
    if constexpr (D == vector_dtype::packed_bit) {
      return store_packed_bit_vector_value(out, v.bytes, v.padding);
    } else {
      return store_vector_value(out, std::span<const vector_element_t<D>>(v.data(), v.size()));
    }
  }
  template <class V>
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, V& out) {
    return decode_vector_value(st, t, p, end, out);
  }
};

// A fixed dimension: every value is the same size, so structs of such fields (and other
// fixed-width ones) take the fixed-shape path, which compares the constant bytes (length,
// subtype, dtype, padding: catalog.vector_scalar) and then copies the elements.
template <vector_dtype D, std::size_t N>
struct fixed_binary_vector_codec {
  static_assert(D != vector_dtype::packed_bit, "packed_bit vectors have no fixed dimension");
  using element = vector_element_t<D>;
  static constexpr std::uint8_t type = static_cast<std::uint8_t>(bson_type::binary);
  static constexpr std::size_t fixed_size = vector_value_size(D, N);
  static_assert(vector_payload_size(D, N) <= max_vector_payload_size);

  template <class V>
  static constexpr std::size_t size(const V&, encode_state&) noexcept {
    return fixed_size;
  }
  static void store_fixed(const std::array<element, N>& v, std::uint8_t* out) noexcept {
    store_vector_payload(out + 5, std::span<const element>(v));
  }
  static std::uint8_t* write(const std::array<element, N>& v, std::uint8_t* out,
                             [[maybe_unused]] text_bits& text) noexcept {
    return store_vector_value(out, std::span<const element>(v));
  }
  static bool load_fixed(const std::uint8_t* p, std::array<element, N>& out) noexcept {
    const std::span<const std::uint8_t> data(p + 5 + vector_header_size, fixed_size - 7);
    if constexpr (D == vector_dtype::float32) {
      float32_vector_view(data).copy_to(out);
    } else {
      int8_vector_view(data).copy_to(out);
    }
    return true;
  }
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, std::array<element, N>& out) {
    return decode_vector_value(st, t, p, end, out);
  }
};

}  // namespace bsongen::detail
