#pragma once

// The value codecs of generated code, one per BSON type a schema names: numbers, booleans,
// datetimes, ObjectIds, Decimal128, timestamps, UUIDs, strings, binary, regexes, raw documents,
// JavaScript with scope, `any`, enums, and the value wrappers nullable<T> and number<T>. Generated
// sources include it (catalog.VALUE_CODEC_HEADER). The other codecs build on it: the
// containers (array_codec.hpp, map_codec.hpp), binary vectors (vector_codecs.hpp) and generated
// structs (element_prefix.hpp, struct_table.hpp, member_decode.hpp, fixed_shape.hpp); the wire
// rules all of them use (framing, strings, the common error builders) are in
// bsongen/detail/wire.hpp.
//
// Codec contract (every *_codec of these headers and every bsongen::codec<T> the generator writes):
//   static constexpr std::uint8_t type;            the BSON type byte it writes; any_codec, whose
//                                                   value decides it, has type_of(v) instead
//   size(v, encode_state&) -> std::size_t           bytes write() will produce for v's value; a
//                                                   value that cannot be encoded calls fail_encode
//   write(v, std::uint8_t* out, text_bits&) -> std::uint8_t*
//                                                   writes exactly size(v) bytes, returns the end;
//                                                   text it copies unchecked goes through copy_text
//   decode(decode_state&, type, p, end, v&) -> const std::uint8_t*
//       p: first byte of the value; end: the enclosing document's terminating NUL (the value must
//       end at or before it). Returns the byte after the value, or nullptr with st.err set. Never
//       reads outside [p, end]. A value codec's errors point at p; the element around it moves
//       them to its type byte (fail_in_element).
// Document codecs (generated structs: is_document) take a sixth argument, `fresh`: v is as
// value-initialized, so fields the input lacks need no reset.
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
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <ratio>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "bsongen/bson_type.hpp"
#include "bsongen/decimal128.hpp"
#include "bsongen/detail/codec_errors.hpp"
#include "bsongen/detail/endian.hpp"
#include "bsongen/detail/regex_options.hpp"
#include "bsongen/detail/utf8.hpp"
#include "bsongen/detail/value_wire.hpp"
#include "bsongen/detail/wire.hpp"
#include "bsongen/error.hpp"
#include "bsongen/nullable.hpp"
#include "bsongen/number.hpp"
#include "bsongen/object_id.hpp"
#include "bsongen/raw_document.hpp"
#include "bsongen/types.hpp"

namespace bsongen::detail {

// Encode refuses what decode would reject (the library's rule): these are the text checks.
// Text is mostly ASCII and mostly short (names, codes, labels): up to 16 bytes, is_ascii answers
// inline (n <= 16 prunes its longer cases, leaving two overlapping loads); longer text, and any
// with a high bit set, goes out of line. Kept this small on purpose: more inline code per string
// member bloats a struct's size() (2-4x in bench/schemas' deep_bson) and costs more than it saves.
[[nodiscard]] inline bool is_utf8_text(std::string_view s) noexcept {
  const auto* p = reinterpret_cast<const std::uint8_t*>(s.data());
  const std::size_t n = s.size();
  if (n <= 16 && is_ascii(p, n)) [[likely]]
    return true;
  return is_valid_utf8_call(p, n);
}
// A C string's text (regex pattern and options): UTF-8 without NUL.
[[nodiscard]] inline bool is_utf8_cstring(std::string_view s) noexcept {
  return is_ascii_without_nul(reinterpret_cast<const std::uint8_t*>(s.data()), s.size()) ||
         (s.find('\0') == std::string_view::npos && is_utf8_text(s));
}

// The value bytes value_rules (bson_type.hpp, the one table) gives a fixed-width type. Every use
// is a constant expression, where another type does not compile (the throw).
[[nodiscard]] constexpr std::size_t width_of(bson_type t) {
  if (rule_of(t).layout != value_layout::fixed) throw "width_of: not a fixed-width type";
  return rule_of(t).width;
}

// Every integer of magnitude up to 2^53 (a double's significand) is exact in a double:
// number<double> reads int64 values within it. (catalog.DOUBLE_EXACT_LIMIT; catalog_facts_test.)
inline constexpr std::int64_t double_exact_limit = std::int64_t{1}
                                                   << std::numeric_limits<double>::digits;

// Specialized by the generated source for each struct (its prefixes, tables and dispatch) and
// enum (the traits its enum codec takes).
template <class T>
struct codec_impl;

// The type byte Elem writes for v: its constant `type`, or type_of(v) when the value decides.
template <class Elem, class V>
[[nodiscard]] constexpr std::uint8_t element_type(const V& v) noexcept {
  if constexpr (requires { Elem::type_of(v); }) {
    return Elem::type_of(v);
  } else {
    return Elem::type;
  }
}

// What a fixed-width codec shares: its type byte, its width, a size() that is the width (codecs
// that check a value on encode have their own) and the bounds test for reading it. Each codec
// writes its own write() (store_fixed, then out + fixed_size): a write() here, reaching
// store_fixed through a CRTP parameter, cost clang 14 6% more CPU on bench/compile_cost's
// `all codecs` unit (19.8 s against 18.6 s, best of 3) and saved four lines a codec.
template <bson_type Type, std::size_t Width = width_of(Type)>
struct fixed_width_codec_base {
  static constexpr std::uint8_t type = static_cast<std::uint8_t>(Type);
  static constexpr std::size_t fixed_size = Width;
  template <class V>
  static constexpr std::size_t size(const V&, encode_state&) noexcept {
    return Width;
  }
  // The value's Width bytes lie before `end`.
  [[nodiscard]] static bool fits(const std::uint8_t* p, const std::uint8_t* end) noexcept {
    return end - p >= static_cast<std::ptrdiff_t>(Width);
  }
};

// True when Elem::size(v, es) can reject a value of member type V (a narrowed `cpp:` member, an
// enum value): size() of fixed-width codecs is otherwise a constant that containers and
// fixed-shape structs need not call. Codecs that check declare `checks_on_encode<V>`.
template <class Elem, class V>
[[nodiscard]] consteval bool encode_checks() {
  if constexpr (requires { Elem::template checks_on_encode<V>; }) {
    return Elem::template checks_on_encode<V>;
  } else {
    return false;
  }
}

// A new value in an optional (or nullable) that decode is about to fill. An allocator-aware value
// (a std::pmr string, vector or map, or a struct of an `allocator: pmr` schema) takes the resource
// of the struct being decoded, as that struct's own members have it; others are value-initialized.
template <class Holder>
auto& emplace_value(const decode_state& st, Holder& holder) {
  using V = std::remove_cvref_t<decltype(*holder)>;
  if constexpr (requires { typename V::allocator_type; }) {
    if constexpr (std::is_constructible_v<typename V::allocator_type, std::pmr::memory_resource*>) {
      if (st.memory != nullptr) return holder.emplace(typename V::allocator_type(st.memory));
    }
  }
  return holder.emplace();
}

// An element of a std::array, which cannot hand an allocator down to its elements: when it was
// built on another resource than the one decode works on (st.memory: the new struct's, or the
// one of the struct decoded into), it is first rebuilt empty on st.memory, so that what decode
// puts in it allocates there. The new value is built before the old one is destroyed, and moved
// into place without throwing, so the array always holds a live element.
template <class V>
void adopt_memory(const decode_state& st, V& value) {
  if constexpr (requires { typename V::allocator_type; }) {
    if constexpr (std::is_constructible_v<typename V::allocator_type, std::pmr::memory_resource*> &&
                  std::is_nothrow_move_constructible_v<V>) {
      if (st.memory != nullptr && value.get_allocator().resource() != st.memory) [[unlikely]] {
        V rebuilt = std::make_obj_using_allocator<V>(typename V::allocator_type(st.memory));
        std::destroy_at(&value);
        std::construct_at(&value, std::move(rebuilt));
      }
    }
  }
}

// --- Numbers in members of another C++ type than their BSON type's (schema `cpp:` spellings such
// as std::uint32_t for an int32, float or int for a double, a seconds clock for a datetime).
// Every conversion is checked both ways: decode fails with `inexact` when the member cannot hold
// the value exactly, encode when the BSON type cannot. (Float members are the one exception:
// they round to the nearest float, and only values beyond float's range are refused.) ---

// The integer v has the same value as a To. To and From are integral.
template <class To, class From>
[[nodiscard]] constexpr bool integer_fits(From v) noexcept {
  if constexpr (std::is_signed_v<From>) {
    if (v < 0) {
      if constexpr (std::is_signed_v<To>) {
        return static_cast<std::intmax_t>(v) >=
               static_cast<std::intmax_t>(std::numeric_limits<To>::min());
      } else {
        return false;
      }
    }
  }
  return static_cast<std::uintmax_t>(v) <=
         static_cast<std::uintmax_t>(std::numeric_limits<To>::max());
}

// Every value of From is a value of To.
template <class To, class From>
inline constexpr bool integer_widens = integer_fits<To>(std::numeric_limits<From>::min()) &&
                                       integer_fits<To>(std::numeric_limits<From>::max());

// 2^digits of integral V: the first magnitude V cannot hold, exact as a double.
template <class V>
inline constexpr double integer_limit =
    static_cast<double>(std::uintmax_t{1} << (std::numeric_limits<V>::digits - 1)) * 2.0;

// The double d is a value of integral V (NaN, infinities, fractions and -0.0 are not: held as 0,
// -0.0 would encode as +0.0).
template <class V>
[[nodiscard]] inline bool double_fits_integer(double d) noexcept {
  constexpr double low = std::is_signed_v<V> ? -integer_limit<V> : 0.0;
  if (!(d >= low && d < integer_limit<V>)) return false;
  if (std::signbit(d) && d == 0.0) return false;
  return static_cast<double>(static_cast<V>(d)) == d;  // in range, so the cast is defined
}

// The integer v is a value of double.
template <class V>
[[nodiscard]] inline bool integer_fits_double(V v) noexcept {
  if constexpr (std::numeric_limits<V>::digits <= std::numeric_limits<double>::digits) {
    return true;
  } else {
    const double d = static_cast<double>(v);
    if (!(d >= -integer_limit<V> && d < integer_limit<V>)) return false;
    return static_cast<V>(d) == v;
  }
}

template <class V>
[[gnu::cold]] inline void fail_encode_integer(encode_state& es, V v, std::string_view target) {
  if constexpr (std::is_signed_v<V>) {
    fail_encode_range(es, static_cast<std::int64_t>(v), target);
  } else {
    fail_encode_range(es, static_cast<std::uint64_t>(v), target);
  }
}

// An int32 value's bytes, which the double and int64 codecs also read (widening).
using int32_wire = fixed_width_codec_base<bson_type::int32>;

// Doubles, held as double (or float, an integral type: see the conversions above).
struct double_codec : fixed_width_codec_base<bson_type::double_> {
  template <class V>
  static constexpr bool checks_on_encode =
      std::is_integral_v<V> && !std::is_same_v<V, bool> &&
      std::numeric_limits<V>::digits > std::numeric_limits<double>::digits;
  template <class V>
  static std::size_t size([[maybe_unused]] const V& v, [[maybe_unused]] encode_state& es) noexcept {
    if constexpr (checks_on_encode<V>) {
      if (!integer_fits_double(v)) [[unlikely]]
        fail_encode_integer(es, v, "double");
    }
    return fixed_size;
  }
  template <class V>
  static void store_fixed(const V& v, std::uint8_t* out) noexcept {
    store_f64_le(out, static_cast<double>(v));
  }
  template <class V>
  static std::uint8_t* write(const V& v, std::uint8_t* out,
                             [[maybe_unused]] text_bits& text) noexcept {
    store_fixed(v, out);
    return out + fixed_size;
  }
  template <class V>
  static bool assign(double d, V& out) noexcept {
    if constexpr (std::is_integral_v<V>) {
      if (!double_fits_integer<V>(d)) return false;
    } else if constexpr (std::is_same_v<V, float>) {
      if (std::isfinite(d) &&
          std::fabs(d) > static_cast<double>(std::numeric_limits<float>::max())) {
        return false;  // would overflow to infinity (undefined behaviour, in fact)
      }
    }
    out = static_cast<V>(d);
    return true;
  }
  template <class V>
  static bool load_fixed(const std::uint8_t* p, V& out) noexcept {
    return assign(load_f64_le(p), out);
  }
  template <class V>
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, V& out) {
    if (t == type) [[likely]] {
      if (!fits(p, end)) return fail_truncated(st, p, "double");
      if (!assign(load_f64_le(p), out)) [[unlikely]] {
        return fail(st, error_code::inexact, p, "double does not fit the member's type exactly");
      }
      return p + fixed_size;
    }
    if (t == static_cast<std::uint8_t>(bson_type::int32)) {  // widening into double is exact
      if (!int32_wire::fits(p, end)) return fail_truncated(st, p, "int32");
      const std::int32_t i = load_i32_le(p);
      if constexpr (std::is_integral_v<V>) {
        if (!integer_fits<V>(i)) {
          return fail(st, error_code::inexact, p, "integer does not fit the member's type");
        }
      }
      out = static_cast<V>(i);
      return p + int32_wire::fixed_size;
    }
    return fail_type(st, bson_type::double_, t, p);
  }
};

// Integers: V is the member's type; values that do not fit it are `inexact` errors on decode, and
// member values that do not fit the BSON type are `inexact` errors on encode.
template <bson_type Type, class Wire>
struct integer_codec : fixed_width_codec_base<Type> {
  static_assert(sizeof(Wire) == width_of(Type), "Wire holds a value of Type");
  static constexpr std::uint8_t type = static_cast<std::uint8_t>(Type);
  template <class V>
  static constexpr bool checks_on_encode = std::is_integral_v<V> && !integer_widens<Wire, V>;
  template <class V>
  static std::size_t size([[maybe_unused]] const V& v, [[maybe_unused]] encode_state& es) noexcept {
    if constexpr (checks_on_encode<V>) {
      if (!integer_fits<Wire>(v)) [[unlikely]]
        fail_encode_integer(es, v, type_name(Type));
    }
    return sizeof(Wire);
  }
  template <class V>
  static void store_fixed(const V& v, std::uint8_t* out) noexcept {
    if constexpr (sizeof(Wire) == 4) {
      store_i32_le(out, static_cast<std::int32_t>(v));
    } else {
      store_i64_le(out, static_cast<std::int64_t>(v));
    }
  }
  template <class V>
  static std::uint8_t* write(const V& v, std::uint8_t* out,
                             [[maybe_unused]] text_bits& text) noexcept {
    store_fixed(v, out);
    return out + sizeof(Wire);
  }
  template <class V, class W>
  static bool assign(W w, V& out) noexcept {
    if constexpr (std::is_same_v<V, W>) {
      out = w;
      return true;
    } else if constexpr (std::is_integral_v<V>) {
      if (!integer_fits<V>(w)) return false;
      out = static_cast<V>(w);
      return true;
    } else {
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
      if (end - p < static_cast<std::ptrdiff_t>(sizeof(Wire)))
        return fail_truncated(st, p, type_name(Type));
      fits = load_fixed(p, out);
      next = p + sizeof(Wire);
    } else if (sizeof(Wire) == 8 && t == static_cast<std::uint8_t>(bson_type::int32)) {
      if (!int32_wire::fits(p, end)) return fail_truncated(st, p, "int32");
      fits = assign(load_i32_le(p), out);
      next = p + int32_wire::fixed_size;
    } else {
      return fail_type(st, Type, t, p);
    }
    if (!fits) return fail(st, error_code::inexact, p, "integer does not fit the member's type");
    return next;
  }
};
using int32_codec = integer_codec<bson_type::int32, std::int32_t>;
using int64_codec = integer_codec<bson_type::int64, std::int64_t>;

struct bool_codec : fixed_width_codec_base<bson_type::boolean> {
  static void store_fixed(bool v, std::uint8_t* out) noexcept { *out = v ? 1 : 0; }
  static std::uint8_t* write(bool v, std::uint8_t* out, [[maybe_unused]] text_bits& text) noexcept {
    store_fixed(v, out);
    return out + fixed_size;
  }
  static bool load_fixed(const std::uint8_t* p, bool& out) noexcept {
    out = *p == 1;
    return *p <= 1;
  }
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, bool& out) {
    if (t != type) return fail_type(st, bson_type::boolean, t, p);
    if (!fits(p, end)) return fail_truncated(st, p, "bool");
    if (!load_fixed(p, out)) {
      return fail_invalid_bool(st, p);
    }
    return p + fixed_size;
  }
};

// Any system_clock time point with an integral count whose period is a whole number of
// milliseconds or a whole fraction of one. Finer clocks (nanoseconds): encode floors to
// milliseconds, decode fails with `inexact` beyond the clock's range. Coarser clocks (seconds):
// decode fails with `inexact` unless the milliseconds are a whole number of ticks, encode unless
// the milliseconds fit int64.
struct datetime_codec : fixed_width_codec_base<bson_type::datetime> {
  template <class Period>
  struct scale {
    static constexpr bool coarse = std::ratio_greater_v<Period, std::milli>;
    using ratio = std::conditional_t<coarse, std::ratio_divide<Period, std::milli>,
                                     std::ratio_divide<std::milli, Period>>;
    static_assert(ratio::den == 1,
                  "a datetime member's clock period must be a whole number of milliseconds or a "
                  "whole fraction of one");
    static constexpr std::int64_t factor = ratio::num;  // ms per tick (coarse) or ticks per ms
  };
  template <class V>
  static constexpr bool checks_on_encode =
      scale<typename V::period>::coarse || !integer_widens<std::int64_t, typename V::rep>;

  // v as milliseconds since the epoch; false when they do not fit int64.
  template <class V>
  static bool to_millis(const V& v, std::int64_t& ms) noexcept {
    using rep = typename V::rep;
    static_assert(std::is_integral_v<rep>, "a datetime member needs an integral clock count");
    using S = scale<typename V::period>;
    const rep ticks = v.time_since_epoch().count();
    if (!integer_fits<std::int64_t>(ticks)) return false;
    const auto t = static_cast<std::int64_t>(ticks);
    if constexpr (S::coarse) {
      return !__builtin_mul_overflow(t, S::factor, &ms);
    } else {
      ms = t / S::factor;
      if (t % S::factor < 0) --ms;  // toward negative infinity
      return true;
    }
  }
  // The time point `ms` milliseconds after the epoch; false when V cannot hold it exactly.
  template <class V>
  static bool from_millis(std::int64_t ms, V& out) noexcept {
    using rep = typename V::rep;
    using S = scale<typename V::period>;
    std::int64_t ticks = 0;
    if constexpr (S::coarse) {
      if (ms % S::factor != 0) return false;
      ticks = ms / S::factor;
    } else if (__builtin_mul_overflow(ms, S::factor, &ticks)) {
      return false;
    }
    if (!integer_fits<rep>(ticks)) return false;
    out = V(typename V::duration(static_cast<rep>(ticks)));
    return true;
  }

  template <class V>
  static std::size_t size([[maybe_unused]] const V& v, [[maybe_unused]] encode_state& es) noexcept {
    if constexpr (checks_on_encode<V>) {
      std::int64_t ms = 0;
      if (!to_millis(v, ms)) [[unlikely]] {
        fail_encode_integer(es, v.time_since_epoch().count(), "datetime (milliseconds)");
      }
    }
    return fixed_size;
  }
  template <class V>
  static void store_fixed(const V& v, std::uint8_t* out) noexcept {
    std::int64_t ms = 0;
    static_cast<void>(to_millis(v, ms));  // size() refused values that do not fit
    store_i64_le(out, ms);
  }
  template <class V>
  static std::uint8_t* write(const V& v, std::uint8_t* out,
                             [[maybe_unused]] text_bits& text) noexcept {
    store_fixed(v, out);
    return out + fixed_size;
  }
  template <class V>
  static bool load_fixed(const std::uint8_t* p, V& out) noexcept {
    if constexpr (std::is_same_v<V, datetime>) {
      out = V(std::chrono::milliseconds(load_i64_le(p)));
      return true;
    } else {
      return from_millis(load_i64_le(p), out);
    }
  }
  template <class V>
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, V& out) {
    if (t != type) return fail_type(st, bson_type::datetime, t, p);
    if (!fits(p, end)) return fail_truncated(st, p, "datetime");
    if (!load_fixed(p, out)) {
      return fail(st, error_code::inexact, p, "datetime does not fit the member's clock exactly");
    }
    return p + fixed_size;
  }
};

template <bson_type Type, class Value>
struct bytes_codec : fixed_width_codec_base<Type> {
  static constexpr std::size_t width = width_of(Type);
  static void store_fixed(const Value& v, std::uint8_t* out) noexcept {
    if constexpr (std::is_same_v<Value, object_id>) {
      std::memcpy(out, v.data(), width);
    } else if constexpr (std::is_same_v<Value, decimal128>) {
      v.to_bytes(out);
    } else {
      store_u32_le(out, v.increment);
      store_u32_le(out + 4, v.seconds);
    }
  }
  static std::uint8_t* write(const Value& v, std::uint8_t* out,
                             [[maybe_unused]] text_bits& text) noexcept {
    store_fixed(v, out);
    return out + width;
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
    if (end - p < static_cast<std::ptrdiff_t>(width)) return fail_truncated(st, p, type_name(Type));
    load_fixed(p, out);
    return p + width;
  }
};
using object_id_codec = bytes_codec<bson_type::object_id, object_id>;
using decimal128_codec = bytes_codec<bson_type::decimal128, decimal128>;
using timestamp_codec = bytes_codec<bson_type::timestamp, timestamp>;

// Binary subtype 4 with 16 bytes, held as std::array<std::uint8_t, 16>. The length and subtype are
// the constant bytes of its fixed shape (catalog.py's, checked by catalog_facts_test).
inline constexpr std::size_t uuid_size = 16;
inline constexpr std::size_t binary_prefix_size =
    rule_of(bson_type::binary).width;  // length, subtype
struct uuid_codec : fixed_width_codec_base<bson_type::binary, binary_prefix_size + uuid_size> {
  using bytes = std::array<std::uint8_t, uuid_size>;
  static void store_fixed(const bytes& v, std::uint8_t* out) noexcept {
    std::memcpy(out + binary_prefix_size, v.data(), uuid_size);
  }
  static std::uint8_t* write(const bytes& v, std::uint8_t* out,
                             [[maybe_unused]] text_bits& text) noexcept {
    store_i32_le(out, static_cast<std::int32_t>(uuid_size));
    out[4] = static_cast<std::uint8_t>(binary_subtype::uuid);
    store_fixed(v, out);
    return out + fixed_size;
  }
  static bool load_fixed(const std::uint8_t* p, bytes& out) noexcept {
    std::memcpy(out.data(), p + binary_prefix_size, uuid_size);
    return true;
  }
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, bytes& out) {
    if (t != type) return fail_type(st, bson_type::binary, t, p);
    if (end - p < static_cast<std::ptrdiff_t>(binary_prefix_size))
      return fail_truncated(st, p, "binary");
    const std::int32_t length = load_i32_le(p);
    if (length != static_cast<std::int32_t>(uuid_size) ||
        p[4] != static_cast<std::uint8_t>(binary_subtype::uuid)) {
      return fail_not_uuid(st, p);
    }
    if (!fits(p, end)) return fail_truncated(st, p, "binary");
    load_fixed(p, out);
    return p + fixed_size;
  }
};

template <bson_type Type>
struct unit_codec : fixed_width_codec_base<Type> {
  template <class V>
  static void store_fixed(const V&, std::uint8_t*) noexcept {}
  template <class V>
  static std::uint8_t* write(const V&, std::uint8_t* out,
                             [[maybe_unused]] text_bits& text) noexcept {
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

// n bytes from src to dst, inline for the short runs keys and strings mostly are (a libc memcpy
// call costs more than the copy for them).
inline void copy_bytes(char* dst, const char* src, std::size_t n) noexcept {
  if (n > 32) {
    std::memcpy(dst, src, n);
  } else if (n >= 16) {
    std::memcpy(dst, src, 16);
    std::memcpy(dst + n - 16, src + n - 16, 16);
  } else if (n >= 8) {
    std::memcpy(dst, src, 8);
    std::memcpy(dst + n - 8, src + n - 8, 8);
  } else if (n >= 4) {
    std::memcpy(dst, src, 4);
    std::memcpy(dst + n - 4, src + n - 4, 4);
  } else {
    for (std::size_t i = 0; i < n; ++i) dst[i] = src[i];
  }
}

// Copies n bytes from src to dst, inline for the short runs strings and keys mostly are, and
// returns a word whose high bits (0x80 of some byte) say the bytes need encode's exact check: some
// byte is above 0x7f or, when NulIsBad, NUL. Either way the copy reads each byte once, so the check
// costs nearly nothing beside it.
template <bool NulIsBad>
inline std::uint64_t copy_flagging(std::uint8_t* dst, const std::uint8_t* src,
                                   std::size_t n) noexcept {
  constexpr std::uint64_t highs = 0x8080808080808080ULL;
  if (n >= 16) {
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128();
    const auto copy16 = [&](std::size_t at) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + at));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + at), v);
      if constexpr (NulIsBad) return _mm_or_si128(v, _mm_cmpeq_epi8(v, zero));  // NUL -> 0xff
      return v;
    };
    __m128i flagged = copy16(n - 16);
    for (std::size_t i = 0; i + 16 < n; i += 16) flagged = _mm_or_si128(flagged, copy16(i));
    return _mm_movemask_epi8(flagged) != 0 ? 0x80 : 0;
#else
    std::memcpy(dst, src, n);
    const bool exact_ok = NulIsBad ? is_ascii_without_nul(src, n) : is_valid_utf8(src, n);
    return exact_ok ? 0 : 0x80;
#endif
  }
  // A word's flags: its bytes, and with NulIsBad a borrow that only a NUL byte starts (each byte
  // less one, across the whole word).
  const auto flags = [](auto w) {
    if constexpr (NulIsBad) return (w - static_cast<decltype(w)>(0x0101010101010101ULL)) | w;
    return w;
  };
  std::uint64_t flagged = 0;
  if (n >= 8) {
    const std::uint64_t a = load_u64_le(src);
    const std::uint64_t b = load_u64_le(src + n - 8);
    store_u64_le(dst, a);
    store_u64_le(dst + n - 8, b);
    flagged = flags(a) | flags(b);
  } else if (n >= 4) {
    const std::uint32_t a = load_u32_le(src);
    const std::uint32_t b = load_u32_le(src + n - 4);
    store_u32_le(dst, a);
    store_u32_le(dst + n - 4, b);
    flagged = flags(a) | flags(b);
  } else {
    for (std::size_t i = 0; i < n; ++i) {
      dst[i] = src[i];
      const std::uint32_t byte = src[i];
      flagged |= NulIsBad ? (byte - 1U) | byte : byte;  // 0 - 1 wraps to all ones
    }
  }
  return flagged & highs;
}

// Copies the text s to dst and ORs its flags into text.ored: the write pass's half of the UTF-8
// check of strings (see text_bits), so a string's bytes are read once per encode instead of twice
// (size() and write()).
inline void copy_text(std::uint8_t* dst, std::string_view s, text_bits& text) noexcept {
  text.ored |= copy_flagging<false>(dst, reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
}

// Copies the key k of a map entry to dst, as copy_text copies a string, also flagging a NUL: what
// the decoder accepts as a key is UTF-8 without NUL. A flag costs only the exact check encode then
// makes (valid_map_key, through size()), which names the key that fails or finds a non-ASCII one
// valid.
inline void copy_key(std::uint8_t* dst, std::string_view k, text_bits& text) noexcept {
  text.ored |= copy_flagging<true>(dst, reinterpret_cast<const std::uint8_t*>(k.data()), k.size());
}

// out = s, without std::string::assign's out-of-line call when the size stays the same (a reused
// member decoded from similar input). Otherwise clear() + append() rather than assign(): s never
// aliases out (it points into the input), and libstdc++'s _M_append skips the overlap handling of
// _M_replace, which assign() goes through. Measured (callgrind, schemas/orders.yaml's order, one
// document): a new struct 6,343 -> 5,921 instructions per decode, one on an arena 5,864 -> 5,430.
// Any allocator: std::string and std::pmr::string alike.
template <class Allocator>
[[gnu::always_inline]] inline void assign_text(
    std::basic_string<char, std::char_traits<char>, Allocator>& out, std::string_view s) {
  if (out.size() == s.size()) {
    copy_bytes(out.data(), s.data(), s.size());
  } else {
    out.clear();
    out.append(s.data(), s.size());
  }
}

// UTF-8 strings: std::string (owning, keeps its capacity when decoded into again) or
// std::string_view (points into the input, which must outlive it). Encode refuses text that is not
// UTF-8, as decode would (NUL bytes are fine: the length frames a BSON string).
template <bson_type Type>
struct basic_string_codec {
  static constexpr std::uint8_t type = static_cast<std::uint8_t>(Type);
  template <class V>
  static std::size_t size(const V& v, encode_state& es) noexcept {
    const std::string_view s(v);
    if (!es.text_checked_on_write && !is_utf8_text(s)) [[unlikely]] {
      fail_encode_utf8(es, type_name(Type));
    }
    return s.size() + 5;
  }
  template <class V>
  static std::uint8_t* write(const V& v, std::uint8_t* out, text_bits& text) noexcept {
    // write_string's layout, with the text copied inline (most strings are short) and seen by
    // the UTF-8 check on the way (size() left it to this pass when es.text_checked_on_write).
    const std::string_view s(v);
    store_i32_le(out, static_cast<std::int32_t>(s.size() + 1));
    copy_text(out + 4, s, text);
    out[4 + s.size()] = 0;
    return out + 5 + s.size();
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
      } else if constexpr (requires { assign_text(out, s); }) {
        assign_text(out, s);
      } else {
        out.assign(s.data(), s.size());
      }
    }
    return p;
  }
};
using string_codec = basic_string_codec<bson_type::string>;
using javascript_codec = basic_string_codec<bson_type::javascript>;

// Subtype 2 (old binary) holds its payload behind an inner int32 length on the wire. In memory,
// as everywhere in bsongen, `bytes` is the payload alone: encode writes the inner length, decode
// checks and strips it (as pymongo and libbson do). B is bsongen::binary or, in `allocator: pmr`
// schemas, bsongen::pmr::binary: the same members, `bytes` a vector of either allocator.
struct binary_codec {
  static constexpr std::uint8_t type = static_cast<std::uint8_t>(bson_type::binary);
  template <class B>
  static constexpr std::size_t old_binary_extra(const B& v) noexcept {
    return v.subtype == binary_subtype::binary_old ? 4 : 0;
  }
  template <class B>
  static std::size_t size(const B& v, encode_state&) noexcept {
    return v.bytes.size() + 5 + old_binary_extra(v);
  }
  template <class B>
  static bool empty(const B& v) noexcept {
    return v.bytes.empty();
  }
  template <class B>
  static std::uint8_t* write(const B& v, std::uint8_t* out,
                             [[maybe_unused]] text_bits& text) noexcept {
    const std::size_t extra = old_binary_extra(v);
    store_i32_le(out, static_cast<std::int32_t>(v.bytes.size() + extra));
    out[4] = static_cast<std::uint8_t>(v.subtype);
    out += 5;
    if (extra != 0) {
      store_i32_le(out, static_cast<std::int32_t>(v.bytes.size()));
      out += 4;
    }
    if (!v.bytes.empty()) std::memcpy(out, v.bytes.data(), v.bytes.size());
    return out + v.bytes.size();
  }
  template <class B>
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, B& out) {
    if (t != type) return fail_type(st, bson_type::binary, t, p);
    if (end - p < 5) return fail_truncated(st, p, "binary");
    const std::int32_t length = load_i32_le(p);
    if (length < 0) {
      return fail(st, error_code::invalid_length, p, messages::negative_length("binary", length));
    }
    if (length > end - p - 5) return fail_length_past_end(st, p, "binary", length);
    const std::uint8_t subtype = p[4];
    const std::uint8_t* payload = p + 5;
    if (subtype == static_cast<std::uint8_t>(binary_subtype::binary_old)) {
      if (length < 4 || load_i32_le(p + 5) != length - 4) {
        return fail(st, error_code::invalid_length, p,
                    messages::old_binary_length_disagrees(length));
      }
      payload += 4;
    }
    out.subtype = static_cast<binary_subtype>(subtype);
    out.bytes.assign(payload, p + 5 + length);
    return p + 5 + length;
  }
};

// Options are written sorted (bsongen/detail/regex_options.hpp), as the generic encoder writes
// them, so one value has one encoding. Encode refuses a NUL (it would end the C string early) and
// text that is not UTF-8. R is bsongen::regex or, in `allocator: pmr` schemas, bsongen::pmr::regex.
struct regex_codec {
  static constexpr std::uint8_t type = static_cast<std::uint8_t>(bson_type::regex);
  template <class R>
  static std::size_t size(const R& v, encode_state& es) noexcept {
    if (!is_utf8_cstring(v.pattern) || !is_utf8_cstring(v.options)) [[unlikely]] {
      fail_encode_regex(es, v.pattern, v.options);
    }
    return v.pattern.size() + v.options.size() + 2;
  }
  template <class R>
  static std::uint8_t* write(const R& v, std::uint8_t* out,
                             [[maybe_unused]] text_bits& text) noexcept {
    std::memcpy(out, v.pattern.c_str(), v.pattern.size() + 1);
    out += v.pattern.size() + 1;
    std::memcpy(out, v.options.c_str(), v.options.size() + 1);
    sort_regex_options(out, v.options.size());
    return out + v.options.size() + 1;
  }
  template <class R>
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, R& out) {
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
  // Document: bsongen::raw_document or bsongen::pmr::raw_document.
  template <class Document>
  static std::size_t size(const Document& v, encode_state&) noexcept {
    return v.size();
  }
  template <class Document>
  static bool empty(const Document& v) noexcept {
    return v.empty();
  }
  template <class Document>
  static std::uint8_t* write(const Document& v, std::uint8_t* out,
                             [[maybe_unused]] text_bits& text) noexcept {
    const std::span<const std::uint8_t> bytes = v.bytes();
    std::memcpy(out, bytes.data(), bytes.size());
    return out + bytes.size();
  }
  template <class Document>
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, Document& out) {
    if (t != type) return fail_type(st, bson_type::document, t, p);
    const std::uint8_t* next = skip_value(st, t, p, end);
    if (next != nullptr) out.assign(std::span<const std::uint8_t>(p, next));
    return next;
  }
};

// The scope is a raw_document (valid by its invariant); encode refuses code that is not UTF-8,
// checked as strings are (by write() while it copies, when es.text_checked_on_write).
struct javascript_with_scope_codec {
  static constexpr std::uint8_t type = static_cast<std::uint8_t>(bson_type::javascript_with_scope);
  // Code: bsongen::javascript_with_scope or bsongen::pmr::javascript_with_scope.
  template <class Code>
  static std::size_t size(const Code& v, encode_state& es) noexcept {
    if (!es.text_checked_on_write && !is_utf8_text(v.code)) [[unlikely]]
      fail_encode_utf8(es, "javascriptWithScope code");
    return 4 + 5 + v.code.size() + v.scope.size();
  }
  template <class Code>
  static std::uint8_t* write(const Code& v, std::uint8_t* out, text_bits& text) noexcept {
    const std::string_view code(v.code);
    const std::span<const std::uint8_t> scope = v.scope.bytes();
    store_i32_le(out, static_cast<std::int32_t>(4 + 5 + code.size() + scope.size()));
    store_i32_le(out + 4, static_cast<std::int32_t>(code.size() + 1));
    copy_text(out + 8, code, text);
    out += 8 + code.size();
    *out++ = 0;
    std::memcpy(out, scope.data(), scope.size());
    return out + scope.size();
  }
  template <class Code>
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, Code& out) {
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

// --- any: one value of any BSON type (bsongen::value, or bsongen::pmr::value in `allocator: pmr`
// schemas), through the generic path's decoder and encoder (bsongen/detail/value_wire.hpp). ---

// The one codec whose type byte depends on the value: callers write type_of(v) where other codecs
// have the constant `type` (see element_type below).
struct any_codec {
  template <class V>
  static std::uint8_t type_of(const V& v) noexcept {
    return type_byte_of(plain(v));
  }
  // Refuses what encode_document refuses (text that is not UTF-8 anywhere in the value), with
  // its path below the field; a value whose node_flags vouch for its text costs no extra read.
  template <class V>
  static std::size_t size(const V& v, encode_state& es) noexcept {
    return encoded_value_size(plain(v), es);
  }
  template <class V>
  static std::uint8_t* write(const V& v, std::uint8_t* out,
                             [[maybe_unused]] text_bits& text) noexcept {
    return write_value(plain(v), out);
  }
  // A plain value's parts go where decode_options::memory says (the runtime's block resource when
  // unset); a pmr::value's onto its own resource, as every allocator-aware member's do.
  template <class V>
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, V& out) {
    if constexpr (std::is_same_v<V, value>) {
      return decode_any_value(st, t, p, end, st.memory, out);
    } else {
      return decode_any_value(st, t, p, end, out.resource_, out.value_);
    }
  }

 private:
  template <class V>
  static const value& plain(const V& v) noexcept {
    if constexpr (std::is_same_v<V, value>) {
      return v;
    } else {
      return v.value_;
    }
  }
};

// Enums stored as int32: E's codec supplies is_valid(std::int32_t).
template <class E, class Traits>
struct enum_int32_codec : fixed_width_codec_base<bson_type::int32> {
  template <class V>
  static constexpr bool checks_on_encode = true;  // a value may name no enumerator
  static std::size_t size(E v, encode_state& es) noexcept {
    if (!Traits::is_known(v)) fail_encode_enum(es, static_cast<std::int64_t>(v), Traits::enum_name);
    return fixed_size;
  }
  static void store_fixed(E v, std::uint8_t* out) noexcept {
    store_i32_le(out, static_cast<std::int32_t>(v));
  }
  static std::uint8_t* write(E v, std::uint8_t* out, [[maybe_unused]] text_bits& text) noexcept {
    store_fixed(v, out);
    return out + fixed_size;
  }
  // Stores only a value that names an enumerator (a select, not a branch, in the fixed-shape
  // loops): a refused one leaves `out` as it was, so a failed decode leaves no value encode
  // would refuse.
  static bool load_fixed(const std::uint8_t* p, E& out) noexcept {
    const std::int32_t raw = load_i32_le(p);
    const bool valid = Traits::is_valid(raw);
    out = valid ? static_cast<E>(raw) : out;
    return valid;
  }
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, E& out) {
    if (t != type) return fail_type(st, bson_type::int32, t, p);
    if (!fits(p, end)) return fail_truncated(st, p, "int32");
    if (!load_fixed(p, out)) {
      return fail_enum_value(st, p, std::int64_t{load_i32_le(p)}, Traits::enum_name);
    }
    return p + fixed_size;
  }
};

// Enums stored as their names: Traits supplies name_of(E) and from_name(name, E&) -> bool.
template <class E, class Traits>
struct enum_string_codec {
  static constexpr std::uint8_t type = static_cast<std::uint8_t>(bson_type::string);
  static std::size_t size(E v, encode_state& es) noexcept {
    if (!Traits::is_known(v)) fail_encode_enum(es, static_cast<std::int64_t>(v), Traits::enum_name);
    return Traits::name_of(v).size() + 5;
  }
  static std::uint8_t* write(E v, std::uint8_t* out, [[maybe_unused]] text_bits& text) noexcept {
    return write_string(Traits::name_of(v), out);
  }
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, E& out) {
    if (t != type) return fail_type(st, bson_type::string, t, p);
    std::string_view s;
    const std::uint8_t* next = read_string(st, p, end, s);
    if (next == nullptr) return nullptr;
    if (!Traits::from_name(s, out)) return fail_enum_value(st, p, s, Traits::enum_name);
    return next;
  }
};

// --- Value wrappers (bsongen/nullable.hpp, bsongen/number.hpp): the type byte depends on the
// value, so they have type_of(v) instead of a constant `type`, as any_codec. ---

// nullable<T>: BSON null, or T through Elem.
template <class Elem>
struct nullable_codec {
  template <class V>
  static std::uint8_t type_of(const V& v) noexcept {
    if (v.is_null()) return static_cast<std::uint8_t>(bson_type::null);
    if constexpr (requires { Elem::type_of(*v); }) {
      return Elem::type_of(*v);
    } else {
      return Elem::type;
    }
  }
  template <class V>
  static std::size_t size(const V& v, encode_state& es) noexcept {
    return v.is_null() ? 0 : Elem::size(*v, es);
  }
  template <class V>
  static std::uint8_t* write(const V& v, std::uint8_t* out,
                             [[maybe_unused]] text_bits& text) noexcept {
    return v.is_null() ? out : Elem::write(*v, out, text);
  }
  template <class V>
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, V& out) {
    if (t == static_cast<std::uint8_t>(bson_type::null)) {
      out.reset();
      return p;
    }
    // A value held already is decoded into, keeping its storage (strings, vectors). Struct
    // codecs (generated, `is_document`) also take whether the value is new (nothing to reset).
    const bool fresh = !out.has_value();
    auto& value = fresh ? emplace_value(st, out) : *out;
    const std::uint8_t* next;
    if constexpr (requires { Elem::is_document; }) {
      next = Elem::decode(st, t, p, end, value, fresh);
    } else {
      next = Elem::decode(st, t, p, end, value);
    }
    // A failed decode leaves no half-made value behind (a value-initialized enum may name no
    // enumerator, and encode would refuse it).
    if (next == nullptr && fresh) out.reset();
    return next;
  }
};

// number<std::int64_t> and number<double> (bsongen/number.hpp). Elem (int64_codec or
// double_codec) names the schema's element; the member type decides everything else.
template <class Elem>
struct number_codec {
  // The type encode writes: the remembered one when the value fits it exactly, else T's own.
  template <class T>
  static bson_type wire_type_of(const number<T>& v) noexcept {
    const T x = v.value();
    const bson_type remembered = v.wire_type();
    if constexpr (std::is_same_v<T, std::int64_t>) {
      return remembered == bson_type::int32 && integer_fits<std::int32_t>(x) ? bson_type::int32
                                                                             : bson_type::int64;
    } else {
      if (remembered == bson_type::double_) return bson_type::double_;
      // -0.0 is integral but an integer would lose its sign; decode accepts int64 up to 2^53.
      constexpr auto int64_limit = static_cast<double>(double_exact_limit);
      constexpr auto int32_min = static_cast<double>(std::numeric_limits<std::int32_t>::min());
      constexpr auto int32_max = static_cast<double>(std::numeric_limits<std::int32_t>::max());
      const bool integral = std::trunc(x) == x && !(x == 0 && std::signbit(x));
      if (remembered == bson_type::int32 && integral && x >= int32_min && x <= int32_max) {
        return bson_type::int32;
      }
      if (remembered == bson_type::int64 && integral && x >= -int64_limit && x <= int64_limit) {
        return bson_type::int64;
      }
      return bson_type::double_;
    }
  }
  template <class T>
  static std::uint8_t type_of(const number<T>& v) noexcept {
    return static_cast<std::uint8_t>(wire_type_of(v));
  }
  template <class T>
  static std::size_t size(const number<T>& v, encode_state&) noexcept {
    return wire_type_of(v) == bson_type::int32 ? int32_codec::fixed_size : int64_codec::fixed_size;
  }
  template <class T>
  static std::uint8_t* write(const number<T>& v, std::uint8_t* out,
                             [[maybe_unused]] text_bits& text) noexcept {
    switch (wire_type_of(v)) {
      case bson_type::int32:
        return int32_codec::write(static_cast<std::int32_t>(v.value()), out, text);
      case bson_type::int64:
        return int64_codec::write(static_cast<std::int64_t>(v.value()), out, text);
      default:
        return double_codec::write(static_cast<double>(v.value()), out, text);
    }
  }
  template <class T>
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, number<T>& out) {
    switch (static_cast<bson_type>(t)) {
      case bson_type::int32:
        if (!int32_codec::fits(p, end)) return fail_truncated(st, p, "int32");
        out = number<T>(static_cast<T>(load_i32_le(p)), bson_type::int32);
        return p + int32_codec::fixed_size;
      case bson_type::int64: {
        if (!int64_codec::fits(p, end)) return fail_truncated(st, p, "int64");
        const std::int64_t i = load_i64_le(p);
        if constexpr (std::is_same_v<T, double>) {
          if (i > double_exact_limit || i < -double_exact_limit) {
            return fail(st, error_code::inexact, p,
                        "int64 beyond 2^53 in magnitude does not fit a double exactly");
          }
        }
        out = number<T>(static_cast<T>(i), bson_type::int64);
        return p + int64_codec::fixed_size;
      }
      case bson_type::double_:
        if constexpr (std::is_same_v<T, double>) {
          if (!double_codec::fits(p, end)) return fail_truncated(st, p, "double");
          out = number<T>(load_f64_le(p), bson_type::double_);
          return p + double_codec::fixed_size;
        }
        break;
      default:
        break;
    }
    return fail_type(st, number<T>::own_type, t, p);
  }
};

}  // namespace bsongen::detail
