#pragma once

// What generated codecs call that is not specific to one struct: per-type value codecs, containers,
// the fixed-shape matcher and array keys. The wire rules they build on (framing, strings, error
// builders) are in bsongen/detail/wire.hpp.
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
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "bsongen/bson_type.hpp"
#include "bsongen/byte_buffer.hpp"
#include "bsongen/decimal128.hpp"
#include "bsongen/decode_options.hpp"
#include "bsongen/detail/endian.hpp"
#include "bsongen/detail/utf8.hpp"
#include "bsongen/detail/value_wire.hpp"
#include "bsongen/detail/wire.hpp"
#include "bsongen/error.hpp"
#include "bsongen/object_id.hpp"
#include "bsongen/raw_document.hpp"
#include "bsongen/types.hpp"

namespace bsongen::detail {

// --- Error builders of generated codecs (cold, out of line; the common ones are in wire.hpp). ---

[[gnu::cold]] std::nullptr_t fail_unknown_field(decode_state& st, const std::uint8_t* element,
                                                std::string_view key);
[[gnu::cold]] std::nullptr_t fail_duplicate_field(decode_state& st, const std::uint8_t* element,
                                                  std::string_view key);
// The first required field whose bit is clear in `seen`.
[[gnu::cold]] std::nullptr_t fail_missing_field(decode_state& st, const std::uint8_t* document,
                                                std::span<const std::string_view> keys,
                                                std::span<const std::uint64_t> seen,
                                                std::span<const std::uint64_t> required);
[[gnu::cold]] std::nullptr_t fail_not_uuid(decode_state& st, const std::uint8_t* p);
// An array of `count` elements (or more, when count > expected) where exactly `expected` belong.
[[gnu::cold]] std::nullptr_t fail_array_length(decode_state& st, const std::uint8_t* p,
                                               std::size_t count, std::size_t expected);
// A value naming no enumerator: `text` is the value as found (a number or a quoted string).
[[gnu::cold]] std::nullptr_t fail_enum_value(decode_state& st, const std::uint8_t* p,
                                             std::string_view text, std::string_view enum_name);
[[gnu::cold]] std::nullptr_t fail_enum_value(decode_state& st, const std::uint8_t* p,
                                             std::int64_t value, std::string_view enum_name);
// Errors of the top-level entry points in bsongen/codec.hpp.
[[gnu::cold]] bsongen::error too_large_error(std::size_t size);
[[gnu::cold]] bsongen::error buffer_too_small_error(std::size_t needed);
[[gnu::cold]] bsongen::error over_size_limit_error(std::size_t declared, std::size_t limit);
[[gnu::cold]] bsongen::error trailing_bytes_error(std::size_t input_size, std::size_t declared);
[[gnu::cold]] void fail_encode_enum(encode_state& es, std::int64_t value,
                                    std::string_view enum_name);

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

// --- Value codecs. ---


template <bson_type Type, std::size_t Width>
struct fixed_width_codec_base {
  static constexpr std::uint8_t type = static_cast<std::uint8_t>(Type);
  static constexpr std::size_t fixed_size = Width;
  template <class V>
  static constexpr std::size_t size(const V&, encode_state&) noexcept {
    return Width;
  }
};

struct double_codec : fixed_width_codec_base<bson_type::double_, 8> {
  template <class V>
  static void store_fixed(const V& v, std::uint8_t* out) noexcept {
    store_f64_le(out, static_cast<double>(v));
  }
  template <class V>
  static std::uint8_t* write(const V& v, std::uint8_t* out) noexcept {
    store_fixed(v, out);
    return out + 8;
  }
  template <class V>
  static bool load_fixed(const std::uint8_t* p, V& out) noexcept {
    out = static_cast<V>(load_f64_le(p));
    return true;
  }
  template <class V>
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, V& out) {
    if (t == type) [[likely]] {
      if (end - p < 8) return fail_truncated(st, p, "double");
      out = static_cast<V>(load_f64_le(p));
      return p + 8;
    }
    if (t == static_cast<std::uint8_t>(bson_type::int32)) {  // widening is exact
      if (end - p < 4) return fail_truncated(st, p, "int32");
      out = static_cast<V>(load_i32_le(p));
      return p + 4;
    }
    return fail_type(st, bson_type::double_, t, p);
  }
};

// Integers: V is the member's type; values that do not fit it are `inexact` errors on decode.
template <bson_type Type, class Wire>
struct integer_codec : fixed_width_codec_base<Type, sizeof(Wire)> {
  static constexpr std::uint8_t type = static_cast<std::uint8_t>(Type);
  template <class V>
  static void store_fixed(const V& v, std::uint8_t* out) noexcept {
    if constexpr (sizeof(Wire) == 4) {
      store_i32_le(out, static_cast<std::int32_t>(v));
    } else {
      store_i64_le(out, static_cast<std::int64_t>(v));
    }
  }
  template <class V>
  static std::uint8_t* write(const V& v, std::uint8_t* out) noexcept {
    store_fixed(v, out);
    return out + sizeof(Wire);
  }
  template <class V, class W>
  static bool assign(W w, V& out) noexcept {
    if constexpr (std::is_same_v<V, W>) {
      out = w;
      return true;
    } else {
      if (!std::in_range<V>(w)) return false;
      out = static_cast<V>(w);
      return true;
    }
  }
  template <class V>
  static bool load_fixed(const std::uint8_t* p, V& out) noexcept {
    if constexpr (sizeof(Wire) == 4) {
      return assign(load_i32_le(p), out);
    } else {
      return assign(load_i64_le(p), out);
    }
  }
  template <class V>
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, V& out) {
    bool fits = false;
    const std::uint8_t* next = nullptr;
    if (t == type) [[likely]] {
      if (end - p < static_cast<std::ptrdiff_t>(sizeof(Wire))) return fail_truncated(st, p, type_name(Type));
      fits = load_fixed(p, out);
      next = p + sizeof(Wire);
    } else if (sizeof(Wire) == 8 && t == static_cast<std::uint8_t>(bson_type::int32)) {
      if (end - p < 4) return fail_truncated(st, p, "int32");
      fits = assign(load_i32_le(p), out);
      next = p + 4;
    } else {
      return fail_type(st, Type, t, p);
    }
    if (!fits) return fail(st, error_code::inexact, p, "integer does not fit the member's type");
    return next;
  }
};
using int32_codec = integer_codec<bson_type::int32, std::int32_t>;
using int64_codec = integer_codec<bson_type::int64, std::int64_t>;

struct bool_codec : fixed_width_codec_base<bson_type::boolean, 1> {
  static void store_fixed(bool v, std::uint8_t* out) noexcept { *out = v ? 1 : 0; }
  static std::uint8_t* write(bool v, std::uint8_t* out) noexcept {
    *out = v ? 1 : 0;
    return out + 1;
  }
  static bool load_fixed(const std::uint8_t* p, bool& out) noexcept {
    out = *p == 1;
    return *p <= 1;
  }
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, bool& out) {
    if (t != type) return fail_type(st, bson_type::boolean, t, p);
    if (end - p < 1) return fail_truncated(st, p, "bool");
    if (!load_fixed(p, out)) {
      return fail_invalid_bool(st, p);
    }
    return p + 1;
  }
};

// Any system_clock time point; encode rounds toward negative infinity to milliseconds.
struct datetime_codec : fixed_width_codec_base<bson_type::datetime, 8> {
  template <class V>
  static void store_fixed(const V& v, std::uint8_t* out) noexcept {
    store_i64_le(out, std::chrono::floor<std::chrono::milliseconds>(v.time_since_epoch()).count());
  }
  template <class V>
  static std::uint8_t* write(const V& v, std::uint8_t* out) noexcept {
    store_fixed(v, out);
    return out + 8;
  }
  template <class V>
  static bool load_fixed(const std::uint8_t* p, V& out) noexcept {
    using duration = typename V::duration;
    const std::int64_t ms = load_i64_le(p);
    if constexpr (std::ratio_less_v<typename duration::period, std::milli>) {
      // Finer clocks (nanoseconds) cannot hold every millisecond count.
      constexpr auto per_ms = std::chrono::duration_cast<duration>(std::chrono::milliseconds(1)).count();
      constexpr auto limit = std::numeric_limits<typename duration::rep>::max() / per_ms;
      if (ms > limit || ms < -limit) return false;
    }
    out = V(std::chrono::duration_cast<duration>(std::chrono::milliseconds(ms)));
    return true;
  }
  template <class V>
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, V& out) {
    if (t != type) return fail_type(st, bson_type::datetime, t, p);
    if (end - p < 8) return fail_truncated(st, p, "datetime");
    if (!load_fixed(p, out)) {
      return fail(st, error_code::inexact, p, "datetime out of the member's range");
    }
    return p + 8;
  }
};

template <bson_type Type, std::size_t Width, class Value>
struct bytes_codec : fixed_width_codec_base<Type, Width> {
  static void store_fixed(const Value& v, std::uint8_t* out) noexcept {
    if constexpr (std::is_same_v<Value, object_id>) {
      std::memcpy(out, v.data(), Width);
    } else if constexpr (std::is_same_v<Value, decimal128>) {
      v.to_bytes(out);
    } else {
      store_u32_le(out, v.increment);
      store_u32_le(out + 4, v.seconds);
    }
  }
  static std::uint8_t* write(const Value& v, std::uint8_t* out) noexcept {
    store_fixed(v, out);
    return out + Width;
  }
  static bool load_fixed(const std::uint8_t* p, Value& out) noexcept {
    if constexpr (std::is_same_v<Value, object_id>) {
      out = object_id::from_bytes(p);
    } else if constexpr (std::is_same_v<Value, decimal128>) {
      out = decimal128::from_bytes(p);
    } else {
      out.increment = load_u32_le(p);
      out.seconds = load_u32_le(p + 4);
    }
    return true;
  }
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, Value& out) {
    if (t != static_cast<std::uint8_t>(Type)) return fail_type(st, Type, t, p);
    if (end - p < static_cast<std::ptrdiff_t>(Width)) return fail_truncated(st, p, type_name(Type));
    load_fixed(p, out);
    return p + Width;
  }
};
using object_id_codec = bytes_codec<bson_type::object_id, 12, object_id>;
using decimal128_codec = bytes_codec<bson_type::decimal128, 16, decimal128>;
using timestamp_codec = bytes_codec<bson_type::timestamp, 8, timestamp>;

// Binary subtype 4 with 16 bytes, held as std::array<std::uint8_t, 16>. The length and subtype are
// the constant bytes of its fixed shape.
struct uuid_codec : fixed_width_codec_base<bson_type::binary, 21> {
  static void store_fixed(const std::array<std::uint8_t, 16>& v, std::uint8_t* out) noexcept {
    std::memcpy(out + 5, v.data(), 16);
  }
  static std::uint8_t* write(const std::array<std::uint8_t, 16>& v, std::uint8_t* out) noexcept {
    store_i32_le(out, 16);
    out[4] = static_cast<std::uint8_t>(binary_subtype::uuid);
    store_fixed(v, out);
    return out + 21;
  }
  static bool load_fixed(const std::uint8_t* p, std::array<std::uint8_t, 16>& out) noexcept {
    std::memcpy(out.data(), p + 5, 16);
    return true;
  }
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, std::array<std::uint8_t, 16>& out) {
    if (t != type) return fail_type(st, bson_type::binary, t, p);
    if (end - p < 5) return fail_truncated(st, p, "binary");
    const std::int32_t length = load_i32_le(p);
    if (length != 16 || p[4] != static_cast<std::uint8_t>(binary_subtype::uuid)) {
      return fail_not_uuid(st, p);
    }
    if (end - p < 21) return fail_truncated(st, p, "binary");
    load_fixed(p, out);
    return p + 21;
  }
};

template <bson_type Type>
struct unit_codec : fixed_width_codec_base<Type, 0> {
  template <class V>
  static void store_fixed(const V&, std::uint8_t*) noexcept {}
  template <class V>
  static std::uint8_t* write(const V&, std::uint8_t* out) noexcept {
    return out;
  }
  template <class V>
  static bool load_fixed(const std::uint8_t*, V&) noexcept {
    return true;
  }
  template <class V>
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t*, V&) {
    if (t != static_cast<std::uint8_t>(Type)) return fail_type(st, Type, t, p);
    return p;
  }
};
using null_codec = unit_codec<bson_type::null>;
using min_key_codec = unit_codec<bson_type::min_key>;
using max_key_codec = unit_codec<bson_type::max_key>;

// UTF-8 strings: std::string (owning, keeps its capacity when decoded into again) or
// std::string_view (points into the input, which must outlive it).
template <bson_type Type>
struct basic_string_codec {
  static constexpr std::uint8_t type = static_cast<std::uint8_t>(Type);
  template <class V>
  static std::size_t size(const V& v, encode_state&) noexcept {
    return std::string_view(v).size() + 5;
  }
  template <class V>
  static std::uint8_t* write(const V& v, std::uint8_t* out) noexcept {
    return write_string(std::string_view(v), out);
  }
  template <class V>
  static bool empty(const V& v) noexcept {
    return std::string_view(v).empty();
  }
  template <class V>
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, V& out) {
    if (t != type) return fail_type(st, Type, t, p);
    std::string_view s;
    p = read_string(st, p, end, s);
    if (p != nullptr) {
      if constexpr (std::is_same_v<V, std::string_view>) {
        out = s;
      } else {
        out.assign(s.data(), s.size());
      }
    }
    return p;
  }
};
using string_codec = basic_string_codec<bson_type::string>;
using javascript_codec = basic_string_codec<bson_type::javascript>;

struct binary_codec {
  static constexpr std::uint8_t type = static_cast<std::uint8_t>(bson_type::binary);
  static std::size_t size(const binary& v, encode_state&) noexcept { return v.bytes.size() + 5; }
  static bool empty(const binary& v) noexcept { return v.bytes.empty(); }
  static std::uint8_t* write(const binary& v, std::uint8_t* out) noexcept {
    store_i32_le(out, static_cast<std::int32_t>(v.bytes.size()));
    out[4] = static_cast<std::uint8_t>(v.subtype);
    if (!v.bytes.empty()) std::memcpy(out + 5, v.bytes.data(), v.bytes.size());
    return out + 5 + v.bytes.size();
  }
  // Subtype 2 (old binary) keeps its inner length inside `bytes`, as it is on the wire.
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, binary& out) {
    if (t != type) return fail_type(st, bson_type::binary, t, p);
    if (end - p < 5) return fail_truncated(st, p, "binary");
    const std::int32_t length = load_i32_le(p);
    if (length < 0) return fail(st, error_code::invalid_length, p, "negative binary length");
    if (length > end - p - 5) return fail_truncated(st, p, "binary");
    const std::uint8_t subtype = p[4];
    if (subtype == static_cast<std::uint8_t>(binary_subtype::binary_old) &&
        (length < 4 || load_i32_le(p + 5) != length - 4)) {
      return fail(st, error_code::invalid_length, p, "binary subtype 2 inner length disagrees");
    }
    out.subtype = static_cast<binary_subtype>(subtype);
    out.bytes.assign(p + 5, p + 5 + length);
    return p + 5 + length;
  }
};

struct regex_codec {
  static constexpr std::uint8_t type = static_cast<std::uint8_t>(bson_type::regex);
  static std::size_t size(const regex& v, encode_state& es) noexcept {
    if (v.pattern.find('\0') != std::string::npos || v.options.find('\0') != std::string::npos) {
      fail_encode(es, error_code::invalid_value, "regex pattern or options contain NUL");
    }
    return v.pattern.size() + v.options.size() + 2;
  }
  static std::uint8_t* write(const regex& v, std::uint8_t* out) noexcept {
    std::memcpy(out, v.pattern.c_str(), v.pattern.size() + 1);
    out += v.pattern.size() + 1;
    std::memcpy(out, v.options.c_str(), v.options.size() + 1);
    return out + v.options.size() + 1;
  }
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, regex& out) {
    if (t != type) return fail_type(st, bson_type::regex, t, p);
    std::string_view pattern;
    std::string_view options;
    p = read_cstring(st, p, end, pattern);
    if (p == nullptr) return nullptr;
    p = read_cstring(st, p, end, options);
    if (p == nullptr) return nullptr;
    out.pattern.assign(pattern);
    out.options.assign(options);
    return p;
  }
};

struct raw_document_codec {
  static constexpr std::uint8_t type = static_cast<std::uint8_t>(bson_type::document);
  static std::size_t size(const raw_document& v, encode_state&) noexcept { return v.size(); }
  static bool empty(const raw_document& v) noexcept { return v.empty(); }
  static std::uint8_t* write(const raw_document& v, std::uint8_t* out) noexcept {
    std::memcpy(out, v.bytes().data(), v.size());
    return out + v.size();
  }
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, raw_document& out) {
    if (t != type) return fail_type(st, bson_type::document, t, p);
    const std::uint8_t* next = skip_value(st, t, p, end);
    if (next != nullptr) out.assign(std::span<const std::uint8_t>(p, next));
    return next;
  }
};

struct code_with_scope_codec {
  static constexpr std::uint8_t type = static_cast<std::uint8_t>(bson_type::javascript_with_scope);
  static std::size_t size(const ::bsongen::code_with_scope& v, encode_state&) noexcept {
    return 4 + 5 + v.code.size() + v.scope.size();
  }
  static std::uint8_t* write(const ::bsongen::code_with_scope& v, std::uint8_t* out) noexcept {
    store_i32_le(out, static_cast<std::int32_t>(4 + 5 + v.code.size() + v.scope.size()));
    out = write_string(v.code, out + 4);
    std::memcpy(out, v.scope.bytes().data(), v.scope.size());
    return out + v.scope.size();
  }
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, ::bsongen::code_with_scope& out) {
    if (t != type) return fail_type(st, bson_type::javascript_with_scope, t, p);
    std::string_view code;
    const std::uint8_t* scope = nullptr;
    const std::uint8_t* next = read_code_with_scope(st, p, end, code, scope);
    if (next == nullptr) return nullptr;
    out.code.assign(code);
    out.scope.assign(std::span<const std::uint8_t>(scope, next));
    return next;
  }
};

// --- any: one value of any BSON type (bsongen::value), through the generic path's decoder and
// encoder (bsongen/detail/value_wire.hpp). ---

// The one codec whose type byte depends on the value: callers write type_of(v) where other codecs
// have the constant `type` (see element_type below).
struct any_codec {
  static std::uint8_t type_of(const value& v) noexcept { return type_byte_of(v); }
  static std::size_t size(const value& v, encode_state&) noexcept { return encoded_value_size(v); }
  static std::uint8_t* write(const value& v, std::uint8_t* out) noexcept {
    return write_value(v, out);
  }
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, value& out) {
    return decode_any_value(st, t, p, end, out);
  }
};

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
  if constexpr (is_fixed_codec<Elem>()) {
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
  static constexpr std::size_t size(const V&, encode_state&) noexcept {
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

// Enums stored as int32: E's codec supplies is_valid(std::int32_t).
template <class E, class Traits>
struct enum_int32_codec : fixed_width_codec_base<bson_type::int32, 4> {
  static std::size_t size(E v, encode_state& es) noexcept {
    if (!Traits::is_known(v)) fail_encode_enum(es, static_cast<std::int64_t>(v), Traits::enum_name);
    return 4;
  }
  static void store_fixed(E v, std::uint8_t* out) noexcept {
    store_i32_le(out, static_cast<std::int32_t>(v));
  }
  static std::uint8_t* write(E v, std::uint8_t* out) noexcept {
    store_fixed(v, out);
    return out + 4;
  }
  static bool load_fixed(const std::uint8_t* p, E& out) noexcept {
    const std::int32_t raw = load_i32_le(p);
    out = static_cast<E>(raw);
    return Traits::is_valid(raw);
  }
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, E& out) {
    if (t != type) return fail_type(st, bson_type::int32, t, p);
    if (end - p < 4) return fail_truncated(st, p, "int32");
    if (!load_fixed(p, out)) {
      return fail_enum_value(st, p, std::int64_t{load_i32_le(p)}, Traits::enum_name);
    }
    return p + 4;
  }
};

// Enums stored as their names: Traits supplies name_of(E) and a sorted `names` table.
template <class E, class Traits>
struct enum_string_codec {
  static constexpr std::uint8_t type = static_cast<std::uint8_t>(bson_type::string);
  static std::size_t size(E v, encode_state& es) noexcept {
    if (!Traits::is_known(v)) fail_encode_enum(es, static_cast<std::int64_t>(v), Traits::enum_name);
    return Traits::name_of(v).size() + 5;
  }
  static std::uint8_t* write(E v, std::uint8_t* out) noexcept {
    return write_string(Traits::name_of(v), out);
  }
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, E& out) {
    if (t != type) return fail_type(st, bson_type::string, t, p);
    std::string_view s;
    const std::uint8_t* next = read_string(st, p, end, s);
    if (next == nullptr) return nullptr;
    const auto& names = Traits::names;
    const auto it = std::lower_bound(names.begin(), names.end(), s,
                                     [](const auto& entry, std::string_view k) {
                                       return entry.first < k;
                                     });
    if (it == names.end() || it->first != s) {
      return fail_enum_value(st, p, s, Traits::enum_name);
    }
    out = it->second;
    return next;
  }
};

}  // namespace bsongen::detail
