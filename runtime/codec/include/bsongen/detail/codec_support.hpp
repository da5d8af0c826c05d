#pragma once

// What generated codecs call that is not specific to one struct: containers, the fixed-shape
// matcher, array keys and field lookup. The per-type value codecs are in
// bsongen/detail/value_codecs.hpp; the wire rules both build on (framing, strings, the common
// error builders) in bsongen/detail/wire.hpp.
//
// Codec contract (every *_codec below and every bsongen::codec<T> the generator writes):
//   static constexpr std::uint8_t type;            the BSON type byte it writes; any_codec, whose
//                                                   value decides it, has type_of(v) instead
//   size(v, encode_state&) -> std::size_t           bytes write() will produce for v's value
//   write(v, std::uint8_t* out) -> std::uint8_t*    writes exactly size(v) bytes, returns the end
//   decode(decode_state&, type, p, end, v&) -> const std::uint8_t*
//       p: first byte of the value; end: the enclosing document's terminating NUL (the value must
//       end at or before it). Returns the byte after the value, or nullptr with st.err set. Never
//       reads outside [p, end].
// Fixed-width codecs also have
//   static constexpr std::size_t fixed_size;
//   store_fixed(v, out)  stores only the value's variable bytes into a region already holding the
//                        skeleton (constant bytes) of the value
//   load_fixed(p, v&) -> bool   reads them back from a region whose constant bytes were verified;
//                        false (with no error set) when the value is not acceptable, so the caller
//                        falls back to decode() which reports it.
// Emptiable codecs have empty(v) for omit_empty.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <ranges>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "bsongen/bson_type.hpp"
#include "bsongen/byte_buffer.hpp"
#include "bsongen/decode_options.hpp"
#include "bsongen/detail/endian.hpp"
#include "bsongen/detail/codec_errors.hpp"
#include "bsongen/detail/utf8.hpp"
#include "bsongen/detail/value_codecs.hpp"
#include "bsongen/detail/wire.hpp"
#include "bsongen/error.hpp"

namespace bsongen::detail {

// p[0..N) == literal[0..N), as a few word compares: libc's memcmp is an out-of-line call that
// costs more than the compare for these short keys. Loads from the literal fold into immediates.
template <std::size_t N>
[[nodiscard]] inline bool equal_bytes(const std::uint8_t* p, const char (&literal)[N]) noexcept {
  const auto* q = reinterpret_cast<const std::uint8_t*>(literal);
  if constexpr (N >= 8) {
    std::uint64_t diff = 0;
    for (std::size_t i = 0; i + 8 <= N; i += 8) diff |= load_u64_le(p + i) ^ load_u64_le(q + i);
    if constexpr (N % 8 != 0) diff |= load_u64_le(p + N - 8) ^ load_u64_le(q + N - 8);
    return diff == 0;
  } else if constexpr (N >= 4) {
    return ((load_u32_le(p) ^ load_u32_le(q)) | (load_u32_le(p + N - 4) ^ load_u32_le(q + N - 4))) == 0;
  } else {
    std::uint32_t diff = 0;
    for (std::size_t i = 0; i < N; ++i) diff |= static_cast<std::uint32_t>(p[i] ^ q[i]);
    return diff == 0;
  }
}

// True when `prefix` (type byte, key, NUL: the whole literal including its terminator) starts
// at p and fits before doc_end.
template <std::size_t N>
[[nodiscard]] inline bool has_prefix(const std::uint8_t* p, const std::uint8_t* doc_end,
                                     const char (&prefix)[N]) noexcept {
  return static_cast<std::size_t>(doc_end - p) >= N && equal_bytes(p, prefix);
}

template <std::size_t N>
inline std::uint8_t* put_prefix(std::uint8_t* out, const char (&prefix)[N]) noexcept {
  std::memcpy(out, prefix, N);
  return out + N;
}

// A key of a generated struct and its field index, sorted by key for binary search.
struct field_key {
  std::string_view key;
  std::uint32_t index;
};

// The index of `key`, or `none` when the struct has no such field.
[[nodiscard]] inline std::size_t find_field(std::span<const field_key> sorted, std::string_view key,
                                            std::size_t none) noexcept {
  const auto it = std::lower_bound(sorted.begin(), sorted.end(), key,
                                   [](const field_key& f, std::string_view k) { return f.key < k; });
  return it != sorted.end() && it->key == key ? it->index : none;
}

template <std::size_t Words>
[[nodiscard]] inline bool has_all(const std::uint64_t (&seen)[Words],
                                  const std::array<std::uint64_t, Words>& wanted) noexcept {
  std::uint64_t missing = 0;
  for (std::size_t i = 0; i < Words; ++i) missing |= wanted[i] & ~seen[i];
  return missing == 0;
}

// Array keys "0", "1", ...: writes the decimal digits of i and a NUL, returns the end.
[[nodiscard]] inline std::size_t index_key_size(std::size_t i) noexcept {
  std::size_t digits = 1;
  for (; i >= 10; i /= 10) ++digits;
  return digits + 1;
}
inline std::uint8_t* put_index_key(std::uint8_t* out, std::size_t i) noexcept {
  const std::size_t n = index_key_size(i) - 1;
  for (std::size_t d = n; d-- > 0; i /= 10) out[d] = static_cast<std::uint8_t>('0' + i % 10);
  out[n] = 0;
  return out + n + 1;
}
// Sum of index_key_size(i) for i in [0, n): the key bytes of an n-element array.
[[nodiscard]] constexpr std::size_t index_keys_size(std::size_t n) noexcept {
  std::size_t total = 0;
  std::size_t digits = 1;
  for (std::size_t start = 0, stop = 10; start < n; start = stop, stop *= 10, ++digits) {
    total += (std::min(n, stop) - start) * (digits + 1);
  }
  return total;
}

// --- The fixed-shape fast path. ---

struct byte_run {
  std::uint32_t offset;
  std::uint32_t length;
};

// A fixed-shape document's skeleton (every byte for zero values) and which bytes are constant
// (type bytes, keys, lengths) as 8-byte words, so one pass of xor/and/or verifies the shape.
template <std::size_t Size>
struct fixed_shape {
  static constexpr std::size_t words = Size / 8;
  static constexpr std::size_t tail = Size % 8;
  std::array<std::uint64_t, words> skeleton{};
  std::array<std::uint64_t, words> constant_mask{};
  std::array<std::uint8_t, tail + 1> tail_skeleton{};
  std::array<std::uint8_t, tail + 1> tail_constant{};
};

// `value_runs` lists the bytes that hold values (not compared).
template <std::size_t Size, std::size_t Runs>
consteval fixed_shape<Size> make_fixed_shape(const char (&skeleton)[Size + 1],
                                             const std::array<byte_run, Runs>& value_runs) {
  std::array<bool, Size + 1> is_value{};
  for (const byte_run& run : value_runs) {
    for (std::uint32_t i = 0; i < run.length; ++i) is_value[run.offset + i] = true;
  }
  fixed_shape<Size> shape;
  for (std::size_t i = 0; i < Size; ++i) {
    const auto byte = static_cast<std::uint8_t>(skeleton[i]);
    const std::uint8_t constant = is_value[i] ? 0 : 0xFF;
    if (i / 8 < shape.words) {
      const std::size_t shift = (i % 8) * 8;
      shape.skeleton[i / 8] |= static_cast<std::uint64_t>(byte) << shift;
      shape.constant_mask[i / 8] |= static_cast<std::uint64_t>(constant) << shift;
    } else {
      shape.tail_skeleton[i % 8] = byte;
      shape.tail_constant[i % 8] = constant;
    }
  }
  return shape;
}

// Precondition: p points at Size readable bytes.
template <std::size_t Size>
[[nodiscard]] inline bool matches_shape(const std::uint8_t* p,
                                        const fixed_shape<Size>& shape) noexcept {
  std::uint64_t diff = 0;
  for (std::size_t i = 0; i < shape.words; ++i) {
    diff |= (load_u64_le(p + 8 * i) ^ shape.skeleton[i]) & shape.constant_mask[i];
  }
  for (std::size_t i = 0; i < shape.tail; ++i) {
    diff |= static_cast<std::uint64_t>(
        (p[8 * shape.words + i] ^ shape.tail_skeleton[i]) & shape.tail_constant[i]);
  }
  return diff == 0;
}

// The type byte Elem writes for v: its constant `type`, or type_of(v) when the value decides.
template <class Elem, class V>
[[nodiscard]] constexpr std::uint8_t element_type(const V& v) noexcept {
  if constexpr (requires { Elem::type_of(v); }) {
    return Elem::type_of(v);
  } else {
    return Elem::type;
  }
}

// --- Containers. Elem is the element's codec; V the member's container type. ---

template <class Elem>
[[nodiscard]] constexpr bool is_fixed_codec() noexcept {
  return requires { Elem::fixed_size; };
}

template <class Elem, class Container>
const std::uint8_t* decode_array_elements(decode_state& st, const std::uint8_t* p,
                                          const std::uint8_t* end, Container& out,
                                          std::size_t& count, std::size_t max_count) {
  const std::uint8_t* body;
  const std::uint8_t* doc_end;
  if (!open_document(st, p, end, body, doc_end)) return nullptr;
  ++st.depth;
  count = 0;
  while (body < doc_end) {
    const std::uint8_t* const element = body;
    std::uint8_t t = *body;
    // Array keys are "0", "1", ...: confirm the expected one in place; scan only when it differs.
    if (count < 10 && doc_end - body >= 3 && body[1] == '0' + count && body[2] == 0) {
      body += 3;
    } else if (count >= 10 && count < 100 && doc_end - body >= 4 && body[1] == '0' + count / 10 &&
               body[2] == '0' + count % 10 && body[3] == 0) {
      body += 4;
    } else {
      std::string_view key;
      if (!read_element_header(st, body, doc_end, t, key)) return nullptr;
    }
    if (count == max_count) {
      return fail_array_length(st, element, max_count + 1, max_count);
    }
    if constexpr (requires { out.emplace_back(); }) {
      using value_type = typename Container::value_type;
      if constexpr (std::is_same_v<value_type, bool>) {
        bool value = false;
        body = Elem::decode(st, t, body, doc_end, value);
        if (count < out.size()) {
          out[count] = value;
        } else {
          out.push_back(value);
        }
      } else if (count < out.size()) {
        // A reused container (decode(bytes, obj)) keeps its elements and their heap storage:
        // decoding over them avoids a free and a malloc per string element.
        body = Elem::decode(st, t, body, doc_end, out[count]);
      } else {
        body = Elem::decode(st, t, body, doc_end, out.emplace_back());
      }
    } else {
      body = Elem::decode(st, t, body, doc_end, out[count]);
    }
    if (body == nullptr) {
      prepend_index(st, count);
      return nullptr;
    }
    ++count;
  }
  if constexpr (requires { out.emplace_back(); }) {
    if (count < out.size()) out.resize(count);  // elements left from a longer previous value
  }
  --st.depth;
  return doc_end + 1;
}

template <class Elem, class Container>
std::size_t array_size(const Container& v, encode_state& es) noexcept {
  std::size_t n = 5 + index_keys_size(std::size(v)) + std::size(v);
  if constexpr (is_fixed_codec<Elem>() &&
                !encode_checks<Elem, std::ranges::range_value_t<Container>>()) {
    n += std::size(v) * Elem::fixed_size;
  } else {
    for (const auto& e : v) n += Elem::size(e, es);
  }
  return n;
}

template <class Elem, class Container>
std::uint8_t* write_array(const Container& v, std::uint8_t* out) noexcept {
  std::uint8_t* const start = out;
  out += 4;
  std::size_t i = 0;
  for (const auto& e : v) {
    *out++ = element_type<Elem>(e);
    out = put_index_key(out, i++);
    out = Elem::write(e, out);
  }
  *out++ = 0;
  store_i32_le(start, static_cast<std::int32_t>(out - start));
  return out;
}

template <class Elem>
struct vector_codec {
  static constexpr std::uint8_t type = static_cast<std::uint8_t>(bson_type::array);
  template <class V>
  static std::size_t size(const V& v, encode_state& es) noexcept {
    return array_size<Elem>(v, es);
  }
  template <class V>
  static std::uint8_t* write(const V& v, std::uint8_t* out) noexcept {
    return write_array<Elem>(v, out);
  }
  template <class V>
  static bool empty(const V& v) noexcept {
    return v.empty();
  }
  template <class V>
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, V& out) {
    if (t != type) return fail_type(st, bson_type::array, t, p);
    std::size_t count = 0;
    return decode_array_elements<Elem>(st, p, end, out, count,
                                       std::numeric_limits<std::size_t>::max());
  }
};

// std::array<T, N>: decode requires exactly N elements.
template <class Elem, std::size_t N>
struct array_codec {
  static constexpr std::uint8_t type = static_cast<std::uint8_t>(bson_type::array);
  template <class V>
  static std::size_t size(const V& v, encode_state& es) noexcept {
    return array_size<Elem>(v, es);
  }
  template <class V>
  static std::uint8_t* write(const V& v, std::uint8_t* out) noexcept {
    return write_array<Elem>(v, out);
  }
  template <class V>
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, V& out) {
    if (t != type) return fail_type(st, bson_type::array, t, p);
    std::size_t count = 0;
    const std::uint8_t* next = decode_array_elements<Elem>(st, p, end, out, count, N);
    if (next != nullptr && count != N) {
      return fail_array_length(st, p, count, N);
    }
    return next;
  }
};

// Fixed arrays of fixed-width elements have a fixed shape themselves.
template <class Elem, std::size_t N>
  requires(is_fixed_codec<Elem>())
struct array_codec<Elem, N> {
  static constexpr std::uint8_t type = static_cast<std::uint8_t>(bson_type::array);
  static constexpr std::size_t fixed_size = 5 + index_keys_size(N) + N * (1 + Elem::fixed_size);
  template <class V>
  static constexpr bool checks_on_encode = encode_checks<Elem, std::ranges::range_value_t<V>>();
  template <class V>
  static constexpr std::size_t size([[maybe_unused]] const V& v,
                                    [[maybe_unused]] encode_state& es) noexcept {
    if constexpr (checks_on_encode<V>) {
      for (const auto& e : v) static_cast<void>(Elem::size(e, es));
    }
    return fixed_size;
  }
  template <class V>
  static std::uint8_t* write(const V& v, std::uint8_t* out) noexcept {
    return write_array<Elem>(v, out);
  }
  template <class V>
  static void store_fixed(const V& v, std::uint8_t* out) noexcept {
    std::uint8_t* p = out + 4;
    for (std::size_t i = 0; i < N; ++i) {
      p += 1 + index_key_size(i);
      Elem::store_fixed(v[i], p);
      p += Elem::fixed_size;
    }
  }
  template <class V>
  static bool load_fixed(const std::uint8_t* in, V& out) noexcept {
    const std::uint8_t* p = in + 4;
    bool ok = true;
    for (std::size_t i = 0; i < N; ++i) {
      p += 1 + index_key_size(i);
      ok &= Elem::load_fixed(p, out[i]);
      p += Elem::fixed_size;
    }
    return ok;
  }
  template <class V>
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, V& out) {
    if (t != type) return fail_type(st, bson_type::array, t, p);
    std::size_t count = 0;
    const std::uint8_t* next = decode_array_elements<Elem>(st, p, end, out, count, N);
    if (next != nullptr && count != N) {
      return fail_array_length(st, p, count, N);
    }
    return next;
  }
};

// A document with dynamic keys: std::map<std::string, T>, std::unordered_map, ... Keys must be
// UTF-8 without NUL; a repeated key keeps the last value.
template <class Elem>
struct map_codec {
  static constexpr std::uint8_t type = static_cast<std::uint8_t>(bson_type::document);
  template <class V>
  static std::size_t size(const V& v, encode_state& es) noexcept {
    std::size_t n = 5;
    for (const auto& [key, value] : v) {
      const std::string_view k(key);
      if (k.find('\0') != std::string_view::npos) {
        fail_encode(es, error_code::invalid_value, "map key contains NUL");
      }
      n += 2 + k.size() + Elem::size(value, es);
    }
    return n;
  }
  template <class V>
  static std::uint8_t* write(const V& v, std::uint8_t* out) noexcept {
    std::uint8_t* const start = out;
    out += 4;
    for (const auto& [key, value] : v) {
      const std::string_view k(key);
      *out++ = element_type<Elem>(value);
      if (!k.empty()) std::memcpy(out, k.data(), k.size());
      out[k.size()] = 0;
      out = Elem::write(value, out + k.size() + 1);
    }
    *out++ = 0;
    store_i32_le(start, static_cast<std::int32_t>(out - start));
    return out;
  }
  template <class V>
  static bool empty(const V& v) noexcept {
    return v.empty();
  }
  template <class V>
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, V& out) {
    if (t != type) return fail_type(st, bson_type::document, t, p);
    out.clear();
    const std::uint8_t* body;
    const std::uint8_t* doc_end;
    if (!open_document(st, p, end, body, doc_end)) return nullptr;
    ++st.depth;
    while (body < doc_end) {
      const std::uint8_t* const element = body;
      std::uint8_t elem_type = 0;
      std::string_view key;
      if (!read_element_header(st, body, doc_end, elem_type, key)) return nullptr;
      if (st.validate_utf8 && !is_valid_utf8(key.data(), key.size())) {
        return fail(st, error_code::invalid_utf8, element, "key is not valid UTF-8");
      }
      auto& slot = out[typename V::key_type(key)];
      body = Elem::decode(st, elem_type, body, doc_end, slot);
      if (body == nullptr) {
        st.err.prepend_path(key);
        return nullptr;
      }
    }
    --st.depth;
    return doc_end + 1;
  }
};

}  // namespace bsongen::detail
