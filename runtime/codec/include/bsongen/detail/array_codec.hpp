#pragma once

// The array containers of generated code: vector_codec (std::vector and the other growable
// sequences a `vector` field may be spelled as) and array_codec (std::array<T, N>, exactly N
// elements; a fixed shape of its own when T is fixed-width). Elem is the element's codec; V the
// member's container type. Generated sources of schemas with `vector` or `array` fields include it
// (catalog.CONTAINERS' codec_headers).

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "bsongen/bson_type.hpp"
#include "bsongen/codec.hpp"
#include "bsongen/detail/array_keys.hpp"
#include "bsongen/detail/codec_errors.hpp"
#include "bsongen/detail/endian.hpp"
#include "bsongen/detail/fixed_shape.hpp"
#include "bsongen/detail/member_decode.hpp"
#include "bsongen/detail/utf8.hpp"
#include "bsongen/detail/value_codecs.hpp"
#include "bsongen/detail/wire.hpp"

namespace bsongen::detail {

template <class Elem>
[[nodiscard]] constexpr bool is_fixed_codec() noexcept {
  return requires { Elem::fixed_size; };
}

// Elements whose whole value is value bytes of a fixed width (numbers, bool, datetime, ObjectId,
// Decimal128, timestamps, int32 enums): arrays of them have a layout fixed by their length.
template <class Elem>
[[nodiscard]] constexpr bool is_plain_fixed_codec() noexcept {
  if constexpr (requires {
                  Elem::fixed_size;
                  Elem::type;
                }) {
    return Elem::fixed_size > 0 && fixed_value_size(static_cast<bson_type>(Elem::type)) ==
                                       static_cast<int>(Elem::fixed_size);
  } else {
    return false;
  }
}

template <class Elem, std::size_t Width>
[[nodiscard]] constexpr bool is_plain_fixed_codec_of_width() noexcept {
  if constexpr (is_plain_fixed_codec<Elem>()) {
    return Elem::fixed_size == Width;
  } else {
    return false;
  }
}

// The number of elements of a canonical array (keys "0", "1", ... in order) of `width`-byte
// values whose document is `length` bytes, or npos when no count gives that length.
[[nodiscard]] constexpr std::size_t canonical_array_count(std::size_t length,
                                                          std::size_t width) noexcept {
  if (length < 5) return std::string_view::npos;
  std::size_t rest = length - 5;
  std::size_t count = 0;
  for (std::size_t digits = 1, decade = 10; rest != 0; ++digits, decade *= 10) {
    const std::size_t element = 2 + digits + width;  // type, digits, NUL, value
    const std::size_t in_decade = decade - count;
    if (rest < in_decade * element) {
      if (rest % element != 0) return std::string_view::npos;
      return count + rest / element;
    }
    rest -= in_decade * element;
    count = decade;
  }
  return count;
}

// Loads a canonical array of n plain fixed-width elements starting at `body` (its first element)
// into out[0..n), checking every type byte and key on the way. False when one differs or a value
// is not acceptable (the caller then decodes element by element, which reports why). Precondition:
// the array's document is exactly as long as n such elements need, and is inside its parent
// (so the byte after its NUL is readable).
template <class Elem, class Out>
[[nodiscard]] bool load_canonical_array(const std::uint8_t* body, std::size_t n, Out& out) {
  constexpr std::size_t width = Elem::fixed_size;
  constexpr std::uint64_t type = Elem::type;
  std::uint64_t diff = 0;
  bool ok = true;
  const std::uint8_t* p = body;
#if defined(__GLIBCXX__)
  // libstdc++ keeps a vector<bool>'s bits in 64-bit words from begin()._M_p (as write_array's
  // bulk path reads them): the values are gathered 64 at a time in a register and stored a word at
  // a time. Through vector<bool>'s bit references, each value was a read-modify-write of the word
  // the previous value had just written, one store-to-load round trip per element.
  constexpr bool bit_words = std::is_same_v<Out, std::vector<bool>>;
  static_assert(sizeof(std::_Bit_type) == 8);
  std::_Bit_type bits = 0;
  [[maybe_unused]] std::_Bit_type* words = nullptr;
  if constexpr (bit_words) words = out.begin()._M_p;
#else
  constexpr bool bit_words = false;
#endif
  auto load = [&](std::size_t i, const std::uint8_t* value) {
    if constexpr (bit_words) {
      bool b = false;
      ok &= Elem::load_fixed(value, b);
      bits |= std::_Bit_type{b} << (i % 64);
      if (i % 64 == 63 || i == n - 1) {
        words[i / 64] = bits;  // the bits past the size in the last word are unused
        bits = 0;
      }
    } else if constexpr (std::is_same_v<typename Out::value_type, bool>) {
      bool b = false;
      ok &= Elem::load_fixed(value, b);
      out[i] = b;
    } else {
      ok &= Elem::load_fixed(value, out[i]);
    }
  };
  // All but the last element: an 8-byte header load stays inside the array (the next element
  // follows), one per element.
  const std::size_t last = n - 1;
  std::size_t i = 0;
  for (std::uint32_t key_size = 2, stop = 10; i < last && stop <= table_index_keys;
       ++key_size, stop *= 10) {
    const std::uint64_t mask = (std::uint64_t{1} << (8 * (key_size + 1))) - 1;
    for (const std::size_t end = std::min<std::size_t>(last, stop); i < end; ++i) {
      diff |= (load_u64_le(p) ^ (type | std::uint64_t{index_key_table[i]} << 8)) & mask;
      load(i, p + 1 + key_size);
      p += 1 + key_size + width;
    }
  }
  if (i < last) {
    index_keys keys;
    while (keys.index() < i) keys.next();
    for (; i < last; ++i, keys.next()) {
      if (!keys.fits()) return false;  // 10 million elements: left to the general loop
      const std::uint32_t header = 1 + keys.size();
      const std::uint64_t mask =
          header >= 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * header)) - 1;
      diff |= (load_u64_le(p) ^ (type | keys.word() << 8)) & mask;
      if (header > 8) diff |= p[8] ^ static_cast<std::uint8_t>(keys.word() >> 56);
      load(i, p + header);
      p += header + width;
    }
  }
  // The last element, byte by byte.
  const std::size_t key_size = index_key_size(last);
  std::uint8_t key[24];
  put_index_key(key, last);
  diff |= p[0] ^ type;
  for (std::size_t k = 0; k < key_size; ++k) diff |= p[1 + k] ^ key[k];
  load(last, p + 1 + key_size);
  return diff == 0 && ok;
}

// The string elements of an array into a vector of std::string, all inline: the common case of
// arrays of strings, whose per-element cost is otherwise mostly calls. One run per key length
// (indices below 1000), so each element's type byte and key are one masked word compare. Stops
// at the first element that is not a well-formed ASCII string with the expected key (the general
// loop then takes it, and reports what is wrong); returns where it stopped, `count` elements done.
template <class Container>
const std::uint8_t* decode_string_elements(const decode_state& st, const std::uint8_t* body,
                                           const std::uint8_t* doc_end, Container& out,
                                           std::size_t& count) {
  constexpr std::uint64_t string_type = static_cast<std::uint8_t>(bson_type::string);
  const std::uint8_t* const first = body;
  const bool check_utf8 = st.validate_utf8;
  // The strings `out` already holds are decoded over (keeping their storage), then new ones are
  // appended. Their number and address are read once: stores into a string's buffer may alias
  // the vector's own pointers as far as the compiler knows, so `i < out.size()` and `out[i]`
  // would load them again per element (about a tenth of the loop's instructions).
  const std::size_t reused = out.size();
  std::string* const reused_strings = out.data();
  std::size_t i = 0;
  for (std::uint32_t key_size = 2, stop = 10; stop <= table_index_keys; ++key_size, stop *= 10) {
    const std::uint32_t header = 1 + key_size;
    const std::uint64_t mask = (std::uint64_t{1} << (8 * header)) - 1;
    for (; i < stop; ++i) {
      // A string element takes at least 8 bytes (type, key, NUL, length, NUL), so the word load
      // stays inside it when it is whole.
      if (doc_end - body < 6 + static_cast<std::ptrdiff_t>(key_size)) break;
      if (((load_u64_le(body) ^ (string_type | std::uint64_t{index_key_table[i]} << 8)) & mask) !=
          0) {
        break;
      }
      const std::uint8_t* const value = body + header;
      const std::int32_t length = load_i32_le(value);
      if (length < 1 || length > doc_end - value - 4 || value[4 + length - 1] != 0) break;
      const auto n = static_cast<std::size_t>(length - 1);
      const std::uint8_t* const text = value + 4;
      if (check_utf8 && !is_ascii(text, n)) break;
      const std::string_view s(reinterpret_cast<const char*>(text), n);
      if (i < reused) {
        assign_text(reused_strings[i], s);
      } else {
        if (i == 0 && out.capacity() < 2) out.reserve(count_elements<string_codec>(first, doc_end));
        out.emplace_back(s);
      }
      body = text + length;
    }
    if (i < stop) break;
  }
  count = i;
  return body;
}

template <class Elem, class Container>
const std::uint8_t* decode_array_elements(decode_state& st, const std::uint8_t* p,
                                          const std::uint8_t* end, Container& out,
                                          std::size_t& count, std::size_t max_count) {
  const std::uint8_t* body;
  const std::uint8_t* doc_end;
  if (!open_document(st, p, end, body, doc_end)) return nullptr;
  constexpr bool growable = requires { out.emplace_back(); };
  using value_type = typename Container::value_type;
  if constexpr (is_plain_fixed_codec<Elem>()) {
    // A canonical array of fixed-width values: its length gives the count; resize once, then
    // one pass checks every header and loads every value.
    const std::size_t n =
        canonical_array_count(static_cast<std::size_t>(doc_end + 1 - p), Elem::fixed_size);
    if (n != std::string_view::npos && n != 0 && n <= max_count && (growable || n == max_count)) {
      if constexpr (growable) out.resize(n);
      if (load_canonical_array<Elem>(body, n, out)) {
        count = n;
        return doc_end + 1;
      }
    }
  }
  ++st.depth;
  count = 0;
  index_keys keys;
  if constexpr (std::is_same_v<Elem, string_codec> && std::is_same_v<value_type, std::string> &&
                growable) {
    body = decode_string_elements(st, body, doc_end, out, count);
    if (body < doc_end) {
      while (keys.index() < count) keys.next();
    }
  }
  while (body < doc_end) {
    const std::uint8_t* const element = body;
    const std::uint8_t t = *body;
    // Array keys are "0", "1", ...: confirm the expected one in place; read any other.
    if (has_index_key(body, doc_end, keys)) {
      body += 1 + keys.size();
    } else {
      std::uint8_t type = 0;
      std::string_view key;
      if (!read_element_header(st, body, doc_end, type, key)) {
        st.error_located = true;
        return nullptr;
      }
    }
    if (count == max_count) {
      return fail_array_length(st, element, max_count + 1, max_count);
    }
    if constexpr (growable) {
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
        body = decode_member<Elem>(st, t, body, doc_end, out[count], false);
      } else {
        if (count == 0 && out.capacity() < 2) {
          // A new vector: reserved once, at its size, before the first element.
          out.reserve(std::min(count_elements<Elem>(element, doc_end), max_count));
        }
        body = decode_member<Elem>(st, t, body, doc_end, out.emplace_back(), true);
      }
    } else {
      adopt_memory(st, out[count]);
      body = decode_member<Elem>(st, t, body, doc_end, out[count], false);
    }
    if (body == nullptr) {
      // Only whole elements stay (no half-made one, and none the fast path above sized the
      // container for and loaded past this one, unchecked).
      if constexpr (growable)
        out.erase(out.begin() + static_cast<std::ptrdiff_t>(count), out.end());
      return fail_in_element(st, element, count);
    }
    ++count;
    keys.next();
  }
  if constexpr (growable) {
    if (count < out.size()) out.resize(count);  // elements left from a longer previous value
  }
  --st.depth;
  return doc_end + 1;
}

// The array's size; each element's size() is called, so one that cannot be encoded (an enum
// value naming no enumerator) fails with its index in the path.
template <class Elem, class Container>
std::size_t array_size(const Container& v, encode_state& es) noexcept {
  const std::size_t count = std::size(v);
  std::size_t n = 5 + index_keys_size(count) + count;
  // By index: a value-independent size() (numbers, bool) then folds into count * width, which
  // iterating a vector<bool> by proxy keeps the compiler from seeing.
  for (std::size_t i = 0; i < count; ++i) n += Elem::size(v[i], es);
  if (es.failed) [[unlikely]] {
    std::size_t i = 0;
    for (const auto& e : v) {
      encode_state probe;
      static_cast<void>(Elem::size(e, probe));
      if (probe.failed) {
        es.err = std::move(probe.err);
        es.err.prepend_path(std::to_string(i));
        break;
      }
      ++i;
    }
  }
  return n;
}

// Calls put(element, header word, header bytes) for each element of v but the last, in order:
// the word holds the element's type byte then its key and NUL (a store of 8 bytes there stays
// inside the output, since another element follows). Returns the number of elements it covered;
// the caller writes the rest (the last one, and any past ten million) byte by byte.
template <class Elem, class Container, class Put>
[[gnu::always_inline]] inline std::size_t put_array_headers(const Container& v, Put&& put) {
  const std::size_t n = std::size(v);
  if (n < 2) return 0;
  const std::size_t last = n - 1;
  auto it = std::begin(v);
  std::size_t i = 0;
  // Indices below 1000 from the table, one run per key length so the stride is a constant.
  for (std::uint32_t key_size = 2, stop = 10; i < last && stop <= table_index_keys;
       ++key_size, stop *= 10) {
    for (const std::size_t end = std::min<std::size_t>(last, stop); i < end; ++i, ++it) {
      put(*it, element_type<Elem>(*it) | std::uint64_t{index_key_table[i]} << 8, 1 + key_size);
    }
  }
  if (i < last) {
    index_keys keys;
    while (keys.index() < i) keys.next();
    for (; i < last && keys.size() < 8; ++i, ++it, keys.next()) {
      put(*it, element_type<Elem>(*it) | keys.word() << 8, 1 + keys.size());
    }
  }
  return i;
}

// Byte k of bit_bytes[b] is bit k of b.
inline constexpr std::array<std::uint64_t, 256> bit_bytes = [] {
  std::array<std::uint64_t, 256> t{};
  for (std::size_t b = 0; b < 256; ++b) {
    for (std::size_t k = 0; k < 8; ++k) t[b] |= static_cast<std::uint64_t>((b >> k) & 1) << (8 * k);
  }
  return t;
}();

// The first thousand elements of a canonical array of one-byte values (bool), values zero: what
// bool arrays copy before storing their values, since a header per element costs more than the
// values themselves. A class template so only sources with bool arrays build it.
template <std::uint8_t Type>
struct canonical_byte_array {
  static constexpr std::size_t count = table_index_keys;
  // Bytes of the first n elements (n <= count): type, key, NUL, value each.
  [[nodiscard]] static constexpr std::size_t prefix_size(std::size_t n) noexcept {
    return index_keys_size(n) + 2 * n;
  }
  static constexpr std::array<std::uint8_t, prefix_size(count)> bytes = [] {
    std::array<std::uint8_t, prefix_size(count)> b{};
    std::size_t at = 0;
    for (std::size_t i = 0; i < count; ++i) {
      b[at++] = Type;
      for (std::uint32_t word = index_key_table[i]; word != 0; word >>= 8) {
        b[at++] = static_cast<std::uint8_t>(word);
      }
      at += 2;  // the key's NUL and the value, both zero
    }
    return b;
  }();
};

template <class Elem, class Container>
std::uint8_t* write_array(const Container& v, std::uint8_t* out, text_bits& text) noexcept {
  std::uint8_t* const start = out;
  out += 4;
  std::size_t done = 0;
  if constexpr (is_plain_fixed_codec_of_width<Elem, 1>()) {
    // Copy the headers of up to a thousand elements at once, then store the value bytes, one run
    // per key length so each value's offset steps by a constant.
    using skeleton = canonical_byte_array<Elem::type>;
    const std::size_t n = std::min(std::size(v), skeleton::count);
    std::memcpy(out, skeleton::bytes.data(), skeleton::prefix_size(n));
    std::size_t i = 0;
    if constexpr (std::is_same_v<Container, std::vector<bool>> &&
                  std::is_same_v<Elem, bool_codec>) {
#if defined(__GLIBCXX__)
      // libstdc++ keeps a vector<bool>'s bits in 64-bit words from begin()._M_p: eight values
      // at a time from a byte of them, spread to bytes by a table.
      static_assert(sizeof(std::_Bit_type) == 8);
      const std::_Bit_type* words = v.begin()._M_p;
      for (std::size_t key_size = 2, stop = 10; i < n; ++key_size, stop *= 10) {
        const std::size_t stride = 2 + key_size;
        std::uint8_t* value = out + skeleton::prefix_size(i) + 1 + key_size;
        const std::size_t end = std::min(n, stop);
        for (; i < end && (i % 8 != 0 || end - i < 8); ++i, value += stride) {
          *value = static_cast<std::uint8_t>((words[i / 64] >> (i % 64)) & 1);
        }
        for (; end - i >= 8; i += 8, value += 8 * stride) {
          const std::uint64_t bytes = bit_bytes[(words[i / 64] >> (i % 64)) & 0xFF];
          for (std::size_t k = 0; k < 8; ++k) {
            value[k * stride] = static_cast<std::uint8_t>(bytes >> (8 * k));
          }
        }
        for (; i < end; ++i, value += stride) {
          *value = static_cast<std::uint8_t>((words[i / 64] >> (i % 64)) & 1);
        }
      }
#endif
    }
    auto it = std::begin(v);
    std::advance(it, static_cast<std::ptrdiff_t>(i));
    for (std::size_t key_size = 2, stop = 10; i < n; ++key_size, stop *= 10) {
      std::uint8_t* value = out + skeleton::prefix_size(i) + 1 + key_size;
      for (const std::size_t end = std::min(n, stop); i < end; ++i, ++it) {
        Elem::store_fixed(*it, value);
        value += 2 + key_size;
      }
    }
    out += skeleton::prefix_size(n);
    done = n;
  } else if constexpr (is_plain_fixed_codec<Elem>()) {
    done = put_array_headers<Elem>(v, [&](const auto& e, std::uint64_t header, std::size_t size) {
      store_u64_le(out, header);
      Elem::store_fixed(e, out + size);
      out += size + Elem::fixed_size;
    });
  } else if constexpr (std::is_same_v<Elem, string_codec>) {
    done = put_array_headers<Elem>(v, [&](const auto& e, std::uint64_t header, std::size_t size) {
      store_u64_le(out, header);
      const std::string_view s(e);
      store_i32_le(out + size, static_cast<std::int32_t>(s.size() + 1));
      copy_text(out + size + 4, s, text);
      out[size + 4 + s.size()] = 0;
      out += size + 5 + s.size();
    });
  } else {
    done = put_array_headers<Elem>(v, [&](const auto& e, std::uint64_t header, std::size_t size) {
      store_u64_le(out, header);
      out = Elem::write(e, out + size, text);
    });
  }
  auto it = std::begin(v);
  std::advance(it, static_cast<std::ptrdiff_t>(done));
  for (std::size_t i = done; it != std::end(v); ++it, ++i) {
    *out++ = element_type<Elem>(*it);
    out = put_index_key(out, i);
    out = Elem::write(*it, out, text);
  }
  *out++ = 0;
  store_i32_le(start, static_cast<std::int32_t>(out - start));
  return out;
}

// What vector_codec and both array_codecs share: the type byte, and encode, which does not depend
// on the container (write_array reads any of them by index and iterator).
template <class Elem>
struct array_encoder {
  static constexpr std::uint8_t type = static_cast<std::uint8_t>(bson_type::array);
  template <class V>
  static std::size_t size(const V& v, encode_state& es) noexcept {
    return array_size<Elem>(v, es);
  }
  template <class V>
  static std::uint8_t* write(const V& v, std::uint8_t* out,
                             [[maybe_unused]] text_bits& text) noexcept {
    return write_array<Elem>(v, out, text);
  }
};

// The array value at p into out, which must end up with exactly N elements (std::array<T, N>).
template <class Elem, std::size_t N, class V>
const std::uint8_t* decode_exactly(decode_state& st, const std::uint8_t* p, const std::uint8_t* end,
                                   V& out) {
  std::size_t count = 0;
  const std::uint8_t* next = decode_array_elements<Elem>(st, p, end, out, count, N);
  if (next != nullptr && count != N) {
    return fail_array_length(st, p, count, N);
  }
  return next;
}

template <class Elem>
struct vector_codec : array_encoder<Elem> {
  using array_encoder<Elem>::type;
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
struct array_codec : array_encoder<Elem> {
  using array_encoder<Elem>::type;
  template <class V>
  static const std::uint8_t* decode(decode_state& st, std::uint8_t t, const std::uint8_t* p,
                                    const std::uint8_t* end, V& out) {
    if (t != type) return fail_type(st, bson_type::array, t, p);
    return decode_exactly<Elem, N>(st, p, end, out);
  }
};

// What encode writes for an array of N fixed-width Elem values (Size bytes): the length, then per
// element its type byte, index key and value (zeros, not compared), then the terminator.
template <class Elem, std::size_t N, std::size_t Size>
consteval fixed_shape<Size> make_array_shape() {
  char skeleton[Size + 1] = {};
  std::array<byte_run, N> values{};
  for (std::size_t b = 0; b < 4; ++b) skeleton[b] = static_cast<char>((Size >> (8 * b)) & 0xFF);
  std::size_t at = 4;
  for (std::size_t i = 0; i < N; ++i) {
    skeleton[at++] = static_cast<char>(Elem::type);
    std::uint8_t key[24] = {};
    const std::uint8_t* const key_end = put_index_key(key, i);  // the digits and the NUL
    for (const std::uint8_t* k = key; k != key_end; ++k) skeleton[at++] = static_cast<char>(*k);
    values[i] = {static_cast<std::uint32_t>(at), static_cast<std::uint32_t>(Elem::fixed_size)};
    at += Elem::fixed_size;
  }
  return make_fixed_shape<Size>(skeleton, values);  // skeleton[at] is the terminator
}

// Fixed arrays of fixed-width elements have a fixed shape themselves.
template <class Elem, std::size_t N>
requires(is_fixed_codec<Elem>()) struct array_codec<Elem, N> : array_encoder<Elem> {
  using array_encoder<Elem>::type;
  static constexpr std::size_t fixed_size = 5 + index_keys_size(N) + N * (1 + Elem::fixed_size);
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
    if constexpr (is_plain_fixed_codec<Elem>() && N != 0 && fixed_size <= max_fixed_shape_size) {
      // The bytes encode writes: one pass checks the length, every type byte, key and the
      // terminator against the skeleton, then the values load, without the general path's count
      // from the length (two divisions) or its per-element key checks. Anything else goes the
      // general way, which also says what is wrong.
      static constexpr fixed_shape<fixed_size> shape = make_array_shape<Elem, N, fixed_size>();
      if (static_cast<std::ptrdiff_t>(fixed_size) <= end - p && st.depth < st.max_depth &&
          matches_shape(p, shape) && load_fixed(p, out)) {
        return p + fixed_size;
      }
    }
    return decode_exactly<Elem, N>(st, p, end, out);
  }
};

}  // namespace bsongen::detail
