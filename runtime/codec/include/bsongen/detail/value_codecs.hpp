#pragma once

// The value codecs of generated code, one per BSON type a schema names (the codec contract is in
// bsongen/detail/codec_support.hpp): numbers, booleans, datetimes, ObjectIds, Decimal128,
// timestamps, UUIDs, strings, binary, regexes, raw documents, code with scope, `any`, and enums.

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <ratio>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "bsongen/bson_type.hpp"
#include "bsongen/decimal128.hpp"
#include "bsongen/detail/codec_errors.hpp"
#include "bsongen/detail/endian.hpp"
#include "bsongen/detail/utf8.hpp"
#include "bsongen/detail/value_wire.hpp"
#include "bsongen/detail/wire.hpp"
#include "bsongen/error.hpp"
#include "bsongen/object_id.hpp"
#include "bsongen/raw_document.hpp"
#include "bsongen/types.hpp"

namespace bsongen::detail {

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

// out = s, without std::string::assign's out-of-line call when the size stays the same (a reused
// member decoded from similar input).
inline void assign_text(std::string& out, std::string_view s) {
  if (out.size() == s.size()) {
    copy_bytes(out.data(), s.data(), s.size());
  } else {
    out.assign(s.data(), s.size());
  }
}

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
    // write_string's layout, with the text copied inline (most strings are short).
    const std::string_view s(v);
    store_i32_le(out, static_cast<std::int32_t>(s.size() + 1));
    copy_bytes(reinterpret_cast<char*>(out + 4), s.data(), s.size());
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
      } else if constexpr (std::is_same_v<V, std::string>) {
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

// Enums stored as their names: Traits supplies name_of(E) and from_name(name, E&) -> bool.
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
    if (!Traits::from_name(s, out)) return fail_enum_value(st, p, s, Traits::enum_name);
    return next;
  }
};

}  // namespace bsongen::detail
