#pragma once

// What generated codec definitions (the generated .cpp) call that is not specific to one struct:
// element prefixes, the per-struct field tables and the loop that decodes out-of-order elements,
// the fixed-shape matcher, array keys and the containers. The per-type value codecs are in
// bsongen/detail/value_codecs.hpp; the wire rules both build on (framing, strings, the common
// error builders) in bsongen/detail/wire.hpp.
//
// Codec contract (every *_codec below and every bsongen::codec<T> the generator writes):
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
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "bsongen/bson_type.hpp"
#include "bsongen/byte_buffer.hpp"
#include "bsongen/codec.hpp"
#include "bsongen/decode_options.hpp"
#include "bsongen/detail/codec_errors.hpp"
#include "bsongen/detail/endian.hpp"
#include "bsongen/detail/utf8.hpp"
#include "bsongen/detail/value_codecs.hpp"
#include "bsongen/detail/wire.hpp"
#include "bsongen/error.hpp"

namespace bsongen::detail {

// --- Element prefixes: the type byte, key and NUL that precede a field's value. ---

// p[0..N) == q[0..N), as a few word compares: libc's memcmp is an out-of-line call that costs
// more than the compare for these short keys. Loads from a constant q fold into immediates.
template <std::size_t N>
[[nodiscard]] inline bool equal_bytes(const std::uint8_t* p, const std::uint8_t* q) noexcept {
  if constexpr (N >= 8) {
    std::uint64_t diff = 0;
    for (std::size_t i = 0; i + 8 <= N; i += 8) diff |= load_u64_le(p + i) ^ load_u64_le(q + i);
    if constexpr (N % 8 != 0) diff |= load_u64_le(p + N - 8) ^ load_u64_le(q + N - 8);
    return diff == 0;
  } else if constexpr (N >= 4) {
    return ((load_u32_le(p) ^ load_u32_le(q)) |
            (load_u32_le(p + N - 4) ^ load_u32_le(q + N - 4))) == 0;
  } else {
    std::uint32_t diff = 0;
    for (std::size_t i = 0; i < N; ++i) diff |= static_cast<std::uint32_t>(p[i] ^ q[i]);
    return diff == 0;
  }
}

// A field's element prefix: its type byte, its key and the key's NUL, built at compile time.
//
//   static constexpr detail::element_prefix prefix_id{bson_type::object_id, "_id"};
template <std::size_t KeyChars>
struct element_prefix {
  static constexpr std::size_t size = KeyChars + 1;  // type byte, key, NUL
  std::uint8_t type;
  std::array<std::uint8_t, size> bytes{};

  constexpr element_prefix(bson_type t, const char (&key)[KeyChars]) noexcept
      : type(static_cast<std::uint8_t>(t)) {
    bytes[0] = type;
    for (std::size_t i = 0; i < KeyChars; ++i) bytes[1 + i] = static_cast<std::uint8_t>(key[i]);
  }
};

// The key and NUL of a field whose value decides its type byte (`any`).
template <std::size_t KeyChars>
struct key_suffix {
  static constexpr std::size_t size = KeyChars;  // key and NUL
  std::array<std::uint8_t, size> bytes{};

  constexpr explicit key_suffix(const char (&key)[KeyChars]) noexcept {
    for (std::size_t i = 0; i < KeyChars; ++i) bytes[i] = static_cast<std::uint8_t>(key[i]);
  }
};

// True when the element at p (p <= doc_end) starts with `prefix`.
template <std::size_t K>
[[nodiscard]] inline bool has_prefix(const std::uint8_t* p, const std::uint8_t* doc_end,
                                     const element_prefix<K>& prefix) noexcept {
  return static_cast<std::size_t>(doc_end - p) >= prefix.size &&
         equal_bytes<element_prefix<K>::size>(p, prefix.bytes.data());
}
// True when the element at p has a valid type byte and then `key`.
template <std::size_t K>
[[nodiscard]] inline bool has_prefix(const std::uint8_t* p, const std::uint8_t* doc_end,
                                     const key_suffix<K>& key) noexcept {
  return static_cast<std::size_t>(doc_end - p) > key.size && is_bson_type(*p) &&
         equal_bytes<key_suffix<K>::size>(p + 1, key.bytes.data());
}

template <std::size_t K>
inline std::uint8_t* put_prefix(std::uint8_t* out, const element_prefix<K>& prefix) noexcept {
  std::memcpy(out, prefix.bytes.data(), prefix.size);
  return out + prefix.size;
}
template <std::size_t K>
inline std::uint8_t* put_prefix(std::uint8_t* out, std::uint8_t type,
                                const key_suffix<K>& key) noexcept {
  *out = type;
  std::memcpy(out + 1, key.bytes.data(), key.size);
  return out + 1 + key.size;
}

// --- Field tables: what the out-of-order loop knows about a struct. ---

// Specialized by the generated source for each struct: its prefixes, tables and dispatch.
template <class T>
struct codec_impl;

enum class unknown_policy : std::uint8_t { skip, reject, capture };

// A key's first 8 bytes as a big-endian number, zero-padded (keys hold no NUL): comparing two
// heads compares the keys' first 8 bytes as std::string_view does.
[[nodiscard]] constexpr std::uint64_t key_head(std::string_view key) noexcept {
  if (!std::is_constant_evaluated() && key.size() >= 8) {
    // One load: the little-endian value, byte-swapped, puts the first byte highest on any host.
    return __builtin_bswap64(load_u64_le(reinterpret_cast<const std::uint8_t*>(key.data())));
  }
  std::uint64_t head = 0;
  for (std::size_t i = 0; i < 8; ++i) {
    head = (head << 8) | (i < key.size() ? static_cast<std::uint8_t>(key[i]) : 0U);
  }
  return head;
}

// key_head of the `size`-byte key at k, when 8 bytes at k are readable whatever the key's size (an
// element's key with its NUL and what follows in the document): one load, the bytes past the key
// masked off.
[[nodiscard]] inline std::uint64_t key_head_in_place(const std::uint8_t* k,
                                                     std::size_t size) noexcept {
  const std::uint64_t head = __builtin_bswap64(load_u64_le(k));
  return size >= 8 ? head : size == 0 ? 0 : head & (~std::uint64_t{0} << (8 * (8 - size)));
}

// A key's last 8 bytes as a little-endian number when it is longer than 8 bytes, else 0: with
// the head, what the key index hashes, so keys that differ only past their 8th byte
// (`property_001`, `property_002`) spread too.
[[nodiscard]] constexpr std::uint64_t key_tail(std::string_view key) noexcept {
  if (key.size() <= 8) return 0;
  if (!std::is_constant_evaluated()) {
    return load_u64_le(reinterpret_cast<const std::uint8_t*>(key.data() + key.size() - 8));
  }
  std::uint64_t tail = 0;
  for (std::size_t i = 0; i < 8; ++i) {
    tail |= std::uint64_t{static_cast<std::uint8_t>(key[key.size() - 8 + i])} << (8 * i);
  }
  return tail;
}

// The key index's slot for a key (head, tail, size): multiplicative (Fibonacci) hashing, whose
// top bits depend on every bit of the mixed key; `shift` is 64 minus the index's size in bits.
[[nodiscard]] constexpr std::size_t key_slot(std::uint64_t head, std::uint64_t tail,
                                             std::size_t size, unsigned shift) noexcept {
  const std::uint64_t mixed = head ^ (tail * 0xC2B2AE3D27D4EB4FULL) ^ size;
  return static_cast<std::size_t>((mixed * 0x9E3779B97F4A7C15ULL) >> shift);
}

// A struct's keys as an open-addressing hash table, built at compile time from its `keys`: each
// slot holds a field index + 1, or 0; at least twice as many slots as keys, so every probe
// sequence meets an empty slot, and most lookups take one probe. Replaces a binary search whose
// unpredictable branches cost ~150 instructions a lookup in a 16-field struct, for documents that
// come in another order than the schema's.
template <std::size_t Slots>
struct key_index {
  static_assert(Slots >= 2 && (Slots & (Slots - 1)) == 0);
  std::array<std::uint16_t, Slots> slots{};
  unsigned shift = 64 - static_cast<unsigned>(std::countr_zero(Slots));
};

[[nodiscard]] consteval std::size_t key_index_slots(std::size_t keys) noexcept {
  std::size_t slots = 2;
  while (slots < 2 * keys) slots *= 2;
  return slots;
}

// The index of keys[0, Count): `keys` is the generated table of a struct's keys by field index
// (it holds one empty key when the struct has no fields).
template <std::size_t Count, std::size_t N>
consteval key_index<key_index_slots(Count)> make_key_index(const std::string_view (&keys)[N]) {
  static_assert(Count <= N && Count < 0xFFFF, "a key index holds up to 65534 keys");
  key_index<key_index_slots(Count)> index;
  constexpr std::size_t mask = key_index_slots(Count) - 1;
  for (std::size_t i = 0; i < Count; ++i) {
    std::size_t slot = key_slot(key_head(keys[i]), key_tail(keys[i]), keys[i].size(), index.shift);
    while (index.slots[slot] != 0) slot = (slot + 1) & mask;
    index.slots[slot] = static_cast<std::uint16_t>(i + 1);
  }
  return index;
}

// Where a field's member is: which of the struct's member-pointer tables (one per distinct codec
// and member type) and its position there. The generated dispatch reads it.
struct field_slot {
  std::uint32_t group;
  std::uint32_t index;
};

// One struct's fields for the runtime loops below; a constant the generated source defines.
struct struct_table {
  const std::string_view* keys;    // by field index
  const std::uint16_t* key_slots;  // key_index::slots
  unsigned key_shift;              // key_index::shift
  const std::uint64_t* required;   // bit i: field i is required; (field_count + 63) / 64 words
  std::uint32_t field_count;
  unknown_policy unknown;
  bool reject_duplicates;  // the schema's duplicate_keys: reject
  // Decodes the type-t value at p into field `index` of *obj; `fresh`: that member is as
  // value-initialized. A value codec's contract otherwise (errors at p, nullptr on failure).
  const std::uint8_t* (*decode_field)(decode_state& st, std::uint32_t index, std::uint8_t t,
                                      const std::uint8_t* p, const std::uint8_t* end, void* obj,
                                      bool fresh);
  // Bytes field `index` of *obj adds to its document (0 when left out): to find which field an
  // encode error comes from.
  std::size_t (*size_field)(std::uint32_t index, const void* obj, encode_state& es);
  void (*capture)(void* obj, std::span<const std::uint8_t> element);  // unknown_policy::capture
  // The order documents came in, learned: successors[i] is 1 + the field that last followed
  // field i where the chain did not expect it (successors[field_count]: a document's first
  // field), 0 when none was seen. field_count + 1 entries, or nullptr for structs without a
  // chain. Only a guess, checked by the chain's own key compare, so any value is safe: the
  // entries are relaxed atomics shared by every thread decoding this struct.
  std::atomic<std::uint32_t>* successors = nullptr;
};

// a == b without a libc call for texts of up to 16 bytes (map keys mostly are): two loads from
// each end, overlapping when shorter than the loads; memcmp beyond. Reads only inside a and b.
[[nodiscard]] inline bool same_text(std::string_view a, std::string_view b) noexcept {
  const std::size_t n = a.size();
  if (n != b.size()) return false;
  const auto* x = reinterpret_cast<const std::uint8_t*>(a.data());
  const auto* y = reinterpret_cast<const std::uint8_t*>(b.data());
  if (n >= 8) {
    if (n > 16) return std::memcmp(x, y, n) == 0;
    return ((load_u64_le(x) ^ load_u64_le(y)) |
            (load_u64_le(x + n - 8) ^ load_u64_le(y + n - 8))) == 0;
  }
  if (n >= 4) {
    return ((load_u32_le(x) ^ load_u32_le(y)) |
            (load_u32_le(x + n - 4) ^ load_u32_le(y + n - 4))) == 0;
  }
  // 0 to 3 bytes: first, middle and last (the same byte when n is 1)
  return n == 0 || ((x[0] ^ y[0]) | (x[n / 2] ^ y[n / 2]) | (x[n - 1] ^ y[n - 1])) == 0;
}

// The field index of `key` (its head given: key_head or key_head_in_place), or
// table.field_count when the struct has no such field.
[[nodiscard]] inline std::size_t find_field(const struct_table& table, std::string_view key,
                                            std::uint64_t head) noexcept {
  const std::size_t mask = ~std::uint64_t{0} >> table.key_shift;
  for (std::size_t slot = key_slot(head, key_tail(key), key.size(), table.key_shift);;
       slot = (slot + 1) & mask) {
    const std::uint32_t entry = table.key_slots[slot];
    if (entry == 0) return table.field_count;
    if (same_text(table.keys[entry - 1], key)) return entry - 1;
  }
}

template <std::size_t Words>
[[nodiscard]] inline bool has_all(const std::uint64_t (&seen)[Words],
                                  const std::uint64_t (&wanted)[Words]) noexcept {
  std::uint64_t missing = 0;
  for (std::size_t i = 0; i < Words; ++i) missing |= wanted[i] & ~seen[i];
  return missing == 0;
}

// The first field from `field` on that `seen` (`words` words) marks, or no_field.
inline constexpr std::uint32_t no_field = 0xFFFFFFFF;
[[nodiscard]] inline std::uint32_t first_seen_from(const std::uint64_t* seen, std::size_t words,
                                                   std::uint32_t field) noexcept {
  std::size_t i = field / 64;
  if (i >= words) return no_field;
  if (const std::uint64_t w = seen[i] >> (field % 64); w != 0) {
    return field + static_cast<std::uint32_t>(std::countr_zero(w));
  }
  while (++i < words) {
    if (seen[i] != 0) return static_cast<std::uint32_t>(i * 64 + std::countr_zero(seen[i]));
  }
  return no_field;
}

// Where generated decode_document's chain (its unrolled in-order cases) stands in a document.
// The chain and the calls below share it. An element the chain does not expect at case `next`
// goes to follow_learned_order, which may send the chain to the case the order of earlier
// documents suggests, else to decode_out_of_order, which decodes it and sends the chain on.
//
// The cases check no `seen` bits: that would cost every in-order field. Sent to a case below a
// field already decoded (`fence`), the chain may fall through into that field's case, a repeated
// key taken as new: check_chain_run finds that after the run, and the decode fails, to be run
// again without guesses (decode_state::guessed_below_seen).
struct chain_cursor {
  std::uint32_t next = 0;          // the case the chain runs from
  std::uint32_t resumed = 0;       // the case it was last sent to (next == resumed: nothing decoded
                                   // since)
  std::uint32_t last;              // the field before `resumed` (field_count: the document's start)
  std::uint32_t fence = no_field;  // the first field from `resumed` on already seen
  bool guessed = false;            // `resumed` was a guess of follow_learned_order

  // The field before the element at hand.
  [[nodiscard]] std::uint32_t previous() const noexcept {
    return next != resumed ? next - 1 : last;
  }
  // Sends the chain to `field` (field_count: past every case), after `before`.
  void send(decode_state& st, const std::uint64_t* seen, std::size_t words, std::uint32_t field,
            std::uint32_t before, bool guess) noexcept {
    next = field;
    resumed = field;
    last = before;
    guessed = guess;
    fence = first_seen_from(seen, words, field);
    if (fence != no_field) st.guessed_below_seen = true;
  }
};

// After each run of the chain: false when the run went past its fence, decoding a field seen
// before it (a repeated key), which it must not take as new.
[[gnu::always_inline]] inline bool check_chain_run(const chain_cursor& chain) noexcept {
  return chain.next <= chain.fence;
}
// The failure check_chain_run calls for: decode() runs the document again without guesses.
[[gnu::cold]] const std::uint8_t* fail_repeat_on_guessed_path(decode_state& st);

// The chain missed the element at case chain.next. When the order learned from earlier documents
// (struct_table::successors) says another field, not seen yet, follows the one before it, sends
// the chain to that case (whose key compare checks the guess) and returns true. A guess the
// chain has just missed is not made again: decode_out_of_order takes that element.
template <std::size_t Words>
[[gnu::always_inline]] inline bool follow_learned_order(
    decode_state& st, chain_cursor& chain, const struct_table& table,
    const std::uint64_t (&seen)[Words]) noexcept {
  if (chain.guessed && chain.next == chain.resumed) return false;
  const std::uint32_t previous = chain.previous();
  const std::uint32_t guess = table.successors[previous].load(std::memory_order_relaxed) - 1;
  if (guess >= table.field_count || guess == chain.next ||  // entry 0, none learned, wraps
      (seen[guess / 64] >> (guess % 64) & 1) != 0 || !st.follow_learned_order) {
    return false;
  }
  chain.send(st, seen, Words, guess, previous, true);
  return true;
}

// The element at `element` (inside the document ending at doc_end), one the in-order chain of
// generated decode_document did not expect: a field out of schema order, a repeated one, or an
// unknown key (skipped, rejected or captured per the table). Returns the byte after it, or
// nullptr with st.err set. A field the chain did not expect is learned as the successor of the
// one before it (table.successors); the chain goes on after it.
[[nodiscard]] const std::uint8_t* decode_out_of_order(decode_state& st, const std::uint8_t* element,
                                                      const std::uint8_t* doc_end, void* obj,
                                                      const struct_table& table,
                                                      std::uint64_t* seen, bool fresh,
                                                      chain_cursor& chain);
// Every element from body to doc_end through decode_out_of_order (fixed-shape structs whose fast
// path did not apply).
[[nodiscard]] const std::uint8_t* decode_elements(decode_state& st, const std::uint8_t* body,
                                                  const std::uint8_t* doc_end, void* obj,
                                                  const struct_table& table, std::uint64_t* seen,
                                                  bool fresh);
// The bytes the elements a struct captured (unknown_fields: capture; `captured`: its capture
// member's document) add to the struct's document. None may have the key of one of the struct's
// fields: the document would hold that key twice, which the struct's own decoder refuses under
// duplicate_keys: reject and reads as the captured value under last_wins. Such an element fails
// the encode (invalid_value, its key as the path).
[[nodiscard]] std::size_t check_captured_keys(std::span<const std::uint8_t> captured,
                                              const struct_table& table, encode_state& es) noexcept;
[[nodiscard]] inline std::size_t captured_size(std::span<const std::uint8_t> captured,
                                               const struct_table& table,
                                               encode_state& es) noexcept {
  return captured.size() <= 5 ? 0 : check_captured_keys(captured, table, es);
}
// After a failed size(): which field of *obj failed (the first, in schema order), with its key
// prepended to es.err's path.
[[gnu::cold]] void locate_encode_error(const void* obj, const struct_table& table,
                                       encode_state& es);

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

// --- The fixed-shape fast path. ---

struct byte_run {
  std::uint32_t offset;
  std::uint32_t length;
};

// The widest fixed array whose fast path builds its shape (below): the shape is computed at compile
// time, at a cost of compile-time steps per byte (clang's default limit ran out near 39 KB), so
// wider arrays decode the general way. Fixed-shape structs are not bound by it: the generator
// writes their shapes out (up to catalog.MAX_FIXED_WIDTH).
inline constexpr std::size_t max_fixed_shape_size = 4096;

// Words [first, first + count) of a fixed shape's Size / 8 whole words.
struct word_run {
  std::uint32_t first;
  std::uint32_t count;
};

// A fixed-shape document's skeleton (every byte for zero values) and which bytes are constant
// (type bytes, keys, lengths) as 8-byte words, so one pass of xor/and/or verifies the shape.
// Words holding only value bytes need no compare: `runs` lists the words that are compared, in
// order, and `skeleton` / `constant_mask` hold those words only (Compared = the runs' total).
// The default, one run over every word, is what most shapes are; a long stretch of values (a
// fixed-dimension binary vector's elements) splits the runs, so decode's check costs the constant
// bytes' words and not the document's size.
template <std::size_t Size, std::size_t Compared = Size / 8, std::size_t Runs = 1>
struct fixed_shape {
  static constexpr std::size_t words = Size / 8;
  static constexpr std::size_t tail = Size % 8;
  // Every word, in one run: the loop needs no run table.
  static constexpr bool dense = Runs == 1 && Compared == words;
  std::array<std::uint64_t, Compared> skeleton{};
  std::array<std::uint64_t, Compared> constant_mask{};
  std::array<std::uint8_t, tail + 1> tail_skeleton{};
  std::array<std::uint8_t, tail + 1> tail_constant{};
  std::array<word_run, Runs> runs = {{{0, static_cast<std::uint32_t>(Compared)}}};
};

// `value_runs` lists the bytes that hold values (not compared). Fixed arrays build their shapes
// here, dense (their elements are scalars of at most 16 bytes between type bytes and keys, so
// every word holds a constant byte); the generator writes fixed structs' shapes out instead
// (cpp.FixedView), in the same layout, with runs where values leave whole words.
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
template <std::size_t Size, std::size_t Compared, std::size_t Runs>
[[nodiscard]] inline bool matches_shape(const std::uint8_t* p,
                                        const fixed_shape<Size, Compared, Runs>& shape) noexcept {
  std::uint64_t diff = 0;
  if constexpr (fixed_shape<Size, Compared, Runs>::dense) {
    for (std::size_t i = 0; i < shape.words; ++i) {
      diff |= (load_u64_le(p + 8 * i) ^ shape.skeleton[i]) & shape.constant_mask[i];
    }
  } else {
    std::size_t k = 0;
    for (const word_run& run : shape.runs) {
      const std::uint8_t* const q = p + 8 * std::size_t{run.first};
      for (std::size_t i = 0; i < run.count; ++i, ++k) {
        diff |= (load_u64_le(q + 8 * i) ^ shape.skeleton[k]) & shape.constant_mask[k];
      }
    }
  }
  for (std::size_t i = 0; i < shape.tail; ++i) {
    diff |= static_cast<std::uint64_t>((p[8 * shape.words + i] ^ shape.tail_skeleton[i]) &
                                       shape.tail_constant[i]);
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

// --- Array keys "0", "1", ...: each index's decimal digits and NUL as one little-endian word
// (first digit in the low byte), so encode stores a key and decode checks one with a single
// operation. A table serves the first thousand; a decimal counter runs on from there. ---

inline constexpr std::size_t table_index_keys = 1000;

consteval std::array<std::uint32_t, table_index_keys> make_index_key_table() {
  std::array<std::uint32_t, table_index_keys> t{};
  for (std::uint32_t i = 0; i < table_index_keys; ++i) {
    std::uint32_t word = 0;
    std::uint32_t shift = 0;
    for (std::uint32_t div = i >= 100 ? 100 : i >= 10 ? 10 : 1; div != 0; div /= 10) {
      word |= (static_cast<std::uint32_t>('0') + i / div % 10) << shift;
      shift += 8;
    }
    t[i] = word;  // the NUL is the zero byte after the digits
  }
  return t;
}
inline constexpr std::array<std::uint32_t, table_index_keys> index_key_table =
    make_index_key_table();

// Bytes of the key of index i, with its NUL.
[[nodiscard]] constexpr std::size_t index_key_size(std::size_t i) noexcept {
  std::size_t digits = 1;
  for (; i >= 10; i /= 10) ++digits;
  return digits + 1;
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
// Writes the key of index i (any size) and its NUL; returns the end.
constexpr std::uint8_t* put_index_key(std::uint8_t* out, std::size_t i) noexcept {
  const std::size_t n = index_key_size(i) - 1;
  for (std::size_t d = n; d-- > 0; i /= 10) out[d] = static_cast<std::uint8_t>('0' + i % 10);
  out[n] = 0;
  return out + n + 1;
}

// The keys of consecutive indices from 0. word() holds the digits and NUL of the current index
// while it has at most 7 digits (fits(); beyond that, keys go through put_index_key and
// read_element_header).
class index_keys {
 public:
  [[nodiscard]] std::size_t index() const noexcept { return index_; }
  [[nodiscard]] std::uint64_t word() const noexcept { return word_; }
  [[nodiscard]] std::uint32_t size() const noexcept { return size_; }
  [[nodiscard]] bool fits() const noexcept { return size_ <= 8; }

  void next() noexcept {
    ++index_;
    if (index_ < table_index_keys) [[likely]] {
      word_ = index_key_table[index_];
      size_ = index_ >= 100 ? 4 : index_ >= 10 ? 3 : 2;
      return;
    }
    increment();
  }

 private:
  // Adds one to the decimal digits of word_, carrying; past 7 digits word_ stops being kept.
  void increment() noexcept {
    if (!fits()) return;
    for (std::uint32_t pos = size_ - 1; pos-- > 0;) {
      const std::uint32_t shift = pos * 8;
      const auto digit = static_cast<std::uint8_t>(word_ >> shift);
      if (digit != '9') {
        word_ += std::uint64_t{1} << shift;
        return;
      }
      word_ -= std::uint64_t{'9' - '0'} << shift;
    }
    // Every digit was 9: one more digit, a leading 1.
    ++size_;
    word_ = size_ <= 8 ? word_ << 8 | '1' : 0;
  }

  std::size_t index_ = 0;
  std::uint64_t word_ = '0';
  std::uint32_t size_ = 2;
};

// Whether the element at p (a type byte, then a key) has key `keys`, the expected index key.
[[nodiscard]] inline bool has_index_key(const std::uint8_t* p, const std::uint8_t* doc_end,
                                        const index_keys& keys) noexcept {
  const auto avail = static_cast<std::size_t>(doc_end - p);
  if (!keys.fits() || avail <= keys.size()) return false;
  if (avail > 8) {
    const std::uint64_t mask =
        keys.size() == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * keys.size())) - 1;
    return ((load_u64_le(p + 1) ^ keys.word()) & mask) == 0;
  }
  for (std::uint32_t i = 0; i < keys.size(); ++i) {
    if (p[1 + i] != static_cast<std::uint8_t>(keys.word() >> (8 * i))) return false;
  }
  return true;
}

// --- Containers. Elem is the element's codec; V the member's container type. ---

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

template <class Elem>
struct vector_codec {
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
  static std::uint8_t* write(const V& v, std::uint8_t* out,
                             [[maybe_unused]] text_bits& text) noexcept {
    return write_array<Elem>(v, out, text);
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
requires(is_fixed_codec<Elem>()) struct array_codec<Elem, N> {
  static constexpr std::uint8_t type = static_cast<std::uint8_t>(bson_type::array);
  static constexpr std::size_t fixed_size = 5 + index_keys_size(N) + N * (1 + Elem::fixed_size);
  template <class V>
  static std::size_t size(const V& v, encode_state& es) noexcept {
    return array_size<Elem>(v, es);
  }
  template <class V>
  static std::uint8_t* write(const V& v, std::uint8_t* out,
                             [[maybe_unused]] text_bits& text) noexcept {
    return write_array<Elem>(v, out, text);
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
    std::size_t count = 0;
    const std::uint8_t* next = decode_array_elements<Elem>(st, p, end, out, count, N);
    if (next != nullptr && count != N) {
      return fail_array_length(st, p, count, N);
    }
    return next;
  }
};

// What the decoder accepts as a key: UTF-8 without NUL.
[[nodiscard]] inline bool valid_map_key(std::string_view k) noexcept {
  const auto* p = reinterpret_cast<const std::uint8_t*>(k.data());
  return is_ascii_without_nul(p, k.size()) ||
         (k.find('\0') == std::string_view::npos && is_valid_utf8(p, k.size()));
}

// Room for `count` entries in es.map_entries; returns where they go. When that cannot allocate,
// nothing more is recorded and the write pass walks every map itself (never an error: the
// record only saves work).
[[nodiscard]] inline std::size_t reserve_entries(encode_state& es, std::size_t count) noexcept {
  const std::size_t at = es.map_entries.size();
  if (!es.map_entries_recorded) return at;
  try {
    es.map_entries.resize(at + count);
  } catch (const std::bad_alloc&) {
    es.map_entries.clear();
    es.map_entries_recorded = false;
  }
  return at;
}

// A document with dynamic keys. Keys must be UTF-8 without NUL. Two kinds of container:
// - associative (std::map<std::string, T>, std::unordered_map): a repeated key keeps the last
//   value; encode writes the container's order;
// - a sequence of pairs (std::vector<std::pair<std::string, T>>): the entries in document order,
//   a repeated key kept as often as it comes, so a document round-trips exactly. Decoding into a
//   new one appends to one vector instead of allocating and linking a tree node per entry.
template <class Elem>
struct map_codec {
  static constexpr std::uint8_t type = static_cast<std::uint8_t>(bson_type::document);
  // Node-based containers (std::map, std::unordered_map) record their entries in the size pass
  // for the write pass (encode_state::map_entries): walking one is a chain of dependent loads, so
  // it is walked once. A sequence of pairs is contiguous and is simply read again.
  template <class V>
  static constexpr bool records_entries = !requires(const V& v) {
    v.data();
  };
  // Small maps are walked twice: their nodes are few and cached, and recording them would cost
  // the encode an allocation.
  static constexpr std::size_t min_recorded_entries = 32;
  // Out of line (one copy per map type, called from each field): a map's loops, node handling
  // and its elements' codecs are too large to repeat in every decoder and encoder that has one.
  template <class V>
  [[gnu::noinline]] static std::size_t size(const V& v, encode_state& es) noexcept {
    std::size_t n = 5;
    std::size_t slot = 0;
    bool record = false;
    if constexpr (records_entries<V>) {
      record = v.size() >= min_recorded_entries;
      if (record) slot = reserve_entries(es, v.size());
    }
    for (const auto& entry : v) {
      if constexpr (records_entries<V>) {
        if (record && es.map_entries_recorded) es.map_entries[slot++] = &entry;
      }
      const std::string_view k(entry.first);
      // Checked by write() as it copies, when es.text_checked_on_write, as strings are.
      if (!es.text_checked_on_write && !valid_map_key(k)) [[unlikely]]
        fail_map_key(es, k);
      n += 2 + k.size() + Elem::size(entry.second, es);
    }
    if (es.failed) [[unlikely]] {
      for (const auto& [key, value] : v) {
        const std::string_view k(key);
        encode_state probe;
        if (!valid_map_key(k)) {
          fail_map_key(probe, k);
        } else {
          static_cast<void>(Elem::size(value, probe));
        }
        if (probe.failed) {
          es.err = std::move(probe.err);
          es.err.prepend_path(k);
          break;
        }
      }
    }
    return n;
  }
  template <class V>
  [[gnu::noinline]] static std::uint8_t* write(const V& v, std::uint8_t* out,
                                               text_bits& text) noexcept {
    std::uint8_t* const start = out;
    out += 4;
    const auto write_entry = [&](const auto& entry) {
      const std::string_view k(entry.first);
      *out++ = element_type<Elem>(entry.second);
      copy_key(out, k, text);
      out[k.size()] = 0;
      out = Elem::write(entry.second, out + k.size() + 1, text);
    };
    if constexpr (records_entries<V>) {
      if (const void* const* entries = text.map_entries;
          entries != nullptr && v.size() >= min_recorded_entries) {
        // This map's block, then (inside the loop) the blocks of maps its values hold.
        const std::size_t count = v.size();
        text.map_entries += count;
        for (std::size_t i = 0; i < count; ++i) {
          write_entry(*static_cast<const typename V::value_type*>(entries[i]));
        }
      } else {
        for (const auto& entry : v) write_entry(entry);
      }
    } else {
      for (const auto& entry : v) write_entry(entry);
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
  [[gnu::noinline]] static const std::uint8_t* decode(decode_state& st, std::uint8_t t,
                                                      const std::uint8_t* p,
                                                      const std::uint8_t* end, V& out) {
    if (t != type) return fail_type(st, bson_type::document, t, p);
    const std::uint8_t* body;
    const std::uint8_t* doc_end;
    if (!open_document(st, p, end, body, doc_end)) return nullptr;
    ++st.depth;
    if constexpr (requires { out.emplace_back(); }) {
      body = decode_entries_in_order(st, body, doc_end, out);
    } else {
      body = decode_entries_by_key(st, body, doc_end, out);
    }
    if (body == nullptr) return nullptr;
    --st.depth;
    return doc_end + 1;
  }

 private:
  // The elements of the document at [body, doc_end) into an associative container. Returns
  // doc_end, or nullptr with st's error located.
  template <class V>
  static const std::uint8_t* decode_entries_by_key(decode_state& st, const std::uint8_t* body,
                                                   const std::uint8_t* doc_end, V& out) {
    constexpr bool recycles = requires { out.extract(out.begin()); };
    // A reused map whose keys come again in its own order (the same labels decoded again) takes
    // the new values in place, no node leaving or entering the tree. At the first key that
    // differs: if the map holds that key, the keys are likely the map's own in another order
    // (clients that write insertion order, not sorted order), and the rest goes by lookup
    // (decode_entries_by_lookup); otherwise the entries not yet matched give their nodes (and
    // their strings' storage) to the elements left.
    // On out's allocator: nodes move between the two maps, and swap and node insertion need
    // equal allocators (std::pmr maps on different resources would be undefined behaviour).
    V old(out.get_allocator());
    // decode_options::duplicate_keys: reject fails at the element that repeats a key (the
    // generic decoder's verdict); last_wins decodes it over the earlier value.
    const bool rejects_repeats = st.duplicate_keys == duplicate_key_policy::reject;
    auto same = out.begin();
    std::size_t matched = 0;
    bool in_place = recycles;
    if constexpr (!recycles) out.clear();
    while (body < doc_end) {
      const std::uint8_t* const element = body;
      std::uint8_t elem_type = 0;
      std::string_view key;
      if (!read_element_header(st, body, doc_end, elem_type, key)) {
        st.error_located = true;
        return nullptr;
      }
      if constexpr (recycles) {
        if (in_place) {
          if (same != out.end() && same_text(key, same->first)) {
            body = decode_member<Elem>(st, elem_type, body, doc_end, same->second, false);
            if (body == nullptr) return fail_in_element(st, element, key);
            ++same;
            ++matched;
            continue;
          }
          // The marks cost a pointer and a flag per entry not yet matched: at most 8 times the
          // bytes left (every element takes at least 2), so bounded by the input.
          const std::size_t unmatched = out.size() - matched;
          if (unmatched != 0 && unmatched <= static_cast<std::size_t>(doc_end - element) / 2) {
            const std::uint8_t* done = nullptr;
            if (decode_entries_by_lookup(st, element, doc_end, out, same, unmatched, done)) {
              return done;
            }
          }
          if (same == out.begin()) {
            old.swap(out);
          } else {
            while (same != out.end()) old.insert(out.extract(same++));
          }
          in_place = false;
        }
        // Keys usually arrive sorted (encoders write std::map in order): insert at the end first.
        if (!old.empty()) {
          auto node = old.extract(old.begin());
          node.key().assign(key.data(), key.size());
          body = decode_member<Elem>(st, elem_type, body, doc_end, node.mapped(), false);
          if (body == nullptr) return fail_in_element(st, element, key);
          // A repeated key leaves the node out of the map: its value, the last, replaces the
          // held one. Only a sorted map gains from the hint; without one, insert hands a refused
          // node back in its result (libstdc++ 12's unordered_map drops it from a hinted insert
          // instead of leaving it in `node`, which kept the first value of a repeated key).
          if constexpr (requires { out.lower_bound(node.key()); }) {
            const auto at = out.insert(out.end(), std::move(node));
            if (!node.empty()) {
              if (rejects_repeats) return fail_duplicate_field(st, element, key);
              at->second = std::move(node.mapped());
            }
          } else {
            auto inserted = out.insert(std::move(node));
            if (!inserted.inserted) {
              if (rejects_repeats) return fail_duplicate_field(st, element, key);
              inserted.position->second = std::move(inserted.node.mapped());
            }
          }
          continue;
        }
      }
      // emplace_hint rather than try_emplace: one key comparison less per entry (try_emplace
      // looks the position up before emplacing, which looks it up again).
      const std::size_t before = out.size();
      const auto slot = out.emplace_hint(out.end(), std::piecewise_construct,
                                         std::forward_as_tuple(key), std::forward_as_tuple());
      const bool added = out.size() != before;
      if (!added && rejects_repeats) return fail_duplicate_field(st, element, key);
      body = decode_member<Elem>(st, elem_type, body, doc_end, slot->second, added);
      if (body == nullptr) {
        if (added) out.erase(slot);  // no half-made entry left behind
        return fail_in_element(st, element, key);
      }
    }
    if (in_place) out.erase(same, out.end());  // entries the input no longer has
    return body;
  }

  // Whether the map's order is the keys' byte order (std::less over a std::basic_string<char> of
  // any allocator, as std::map and std::pmr::map have by default): then its entries, in the
  // map's order, are sorted as string_views compare, and a binary search over them needs no
  // key_type copy of the key.
  template <class V>
  static constexpr bool byte_ordered = [] {
    if constexpr (requires { typename V::key_compare; }) {
      using key = typename V::key_type;
      return std::is_same_v<key, std::basic_string<char, std::char_traits<char>,
                                                   typename key::allocator_type>> &&
             (std::is_same_v<typename V::key_compare, std::less<key>> ||
              std::is_same_v<typename V::key_compare, std::less<>>);
    } else {
      return false;  // unordered
    }
  }();

  // out.find(key). A map whose comparator (or hash and equality) is not transparent, such as
  // std::less<std::string>, looks up only its key_type: the key is copied into `scratch`, which
  // keeps its storage from one key to the next (no allocation per entry).
  template <class V>
  static auto find_key(V& out, std::string_view key, typename V::key_type& scratch) {
    if constexpr (requires { out.find(key); }) {
      return out.find(key);
    } else {
      scratch.assign(key.data(), key.size());
      return out.find(scratch);
    }
  }

  // The elements from `body` on (the first is the key that left the map's order) into a used
  // map by lookup: each key found decodes into its entry in place (the node stays where it is:
  // no rebalancing, no key copied), a key the map lacks gets a new entry, and the entries from
  // `tail` on (`unmatched` of them, the ones no element has named yet) that no element names are
  // erased at the end. Entries before `tail` were decoded already.
  //
  // Each entry from `tail` on has a mark saying whether an element named it; the other entries
  // (before `tail`, or added here) have all been named, so finding one of them again is a
  // repeated key: the last value wins (decoded over the earlier one, as a fresh decode does).
  // A byte-ordered map's marks are in its order and found by key, which finds the entry too;
  // other maps' are found by the address of the entry out.find gives (std::unordered_map may
  // rehash when an entry is added, which moves no entry).
  //
  // Returns false, having decoded nothing, when the first key is not among the entries from
  // `tail` on (a map whose keys changed, not only their order: recycling its nodes then costs
  // less than new ones); else true with `done` set as decode_entries_by_key's result.
  // Out of line: inlined, its key comparisons grew decode_entries_by_key enough that the
  // compiler stopped inlining those of its emplace_hint (the path of every new map).
  template <class V>
  [[gnu::noinline]] static bool decode_entries_by_lookup(decode_state& st, const std::uint8_t* body,
                                                         const std::uint8_t* doc_end, V& out,
                                                         typename V::iterator tail,
                                                         std::size_t unmatched,
                                                         const std::uint8_t*& done) {
    using entry_type = typename V::value_type;
    struct mark {
      entry_type* entry;
      bool named;
    };
    std::vector<mark> marks;
    marks.reserve(unmatched);
    for (; tail != out.end(); ++tail) marks.push_back({&*tail, false});
    const auto by_address = [](const mark& m, const entry_type* entry) {
      return std::less<const entry_type*>{}(m.entry, entry);
    };
    if constexpr (!byte_ordered<V>) {
      std::sort(marks.begin(), marks.end(),
                [&](const mark& a, const mark& b) { return by_address(a, b.entry); });
    }
    // One for every key looked up; on the map's allocator, as every key of a std::pmr map is.
    typename V::key_type scratch(out.get_allocator());
    // The mark of the entry whose key is `key`, or nullptr; for a map that is not byte-ordered
    // *found is out.find(key) (end() if the map lacks the key), for a byte-ordered one only when
    // the key is not among the marks.
    const auto find_mark = [&](std::string_view key, typename V::iterator& found) -> mark* {
      if constexpr (byte_ordered<V>) {
        const auto m = std::lower_bound(
            marks.begin(), marks.end(), key,
            [](const mark& e, std::string_view k) { return std::string_view(e.entry->first) < k; });
        if (m != marks.end() && same_text(m->entry->first, key)) return &*m;
        found = find_key(out, key, scratch);
        return nullptr;
      } else {
        found = find_key(out, key, scratch);
        if (found == out.end()) return nullptr;
        const auto m = std::lower_bound(marks.begin(), marks.end(), &*found, by_address);
        return m != marks.end() && m->entry == &*found ? &*m : nullptr;
      }
    };
    std::size_t unnamed = marks.size();
    bool first = true;
    while (body < doc_end) {
      const std::uint8_t* const element = body;
      std::uint8_t elem_type = 0;
      std::string_view key;
      if (!read_element_header(st, body, doc_end, elem_type, key)) {
        st.error_located = true;
        return true;  // done stays nullptr
      }
      auto found = out.end();
      mark* const m = find_mark(key, found);
      if (first && m == nullptr) return false;  // the caller reads this element again
      first = false;
      entry_type* entry = nullptr;
      bool fresh = false;
      if (m != nullptr && !m->named) {
        entry = m->entry;
        m->named = true;
        --unnamed;
      } else if (m != nullptr || found != out.end()) {  // named before: a repeated key
        if (st.duplicate_keys == duplicate_key_policy::reject) {
          fail_duplicate_field(st, element, key);
          return true;  // done stays nullptr
        }
        entry = m != nullptr ? m->entry : &*found;
      } else {
        entry = &*out.emplace(std::piecewise_construct, std::forward_as_tuple(key),
                              std::forward_as_tuple())
                      .first;
        fresh = true;
      }
      body = decode_member<Elem>(st, elem_type, body, doc_end, entry->second, fresh);
      if (body == nullptr) {
        if (fresh) out.erase(out.find(entry->first));  // no half-made entry left behind
        fail_in_element(st, element, key);
        return true;  // done stays nullptr
      }
    }
    if (unnamed != 0) {
      for (const mark& m : marks) {
        if (!m.named) out.erase(out.find(m.entry->first));
      }
    }
    done = body;
    return true;
  }

  // The elements of the document at [body, doc_end) as (key, value) pairs in their order. The
  // pairs `out` already holds are decoded into (their strings keep their storage); the ones left
  // over are erased. Returns doc_end, or nullptr with st's error located.
  template <class V>
  static const std::uint8_t* decode_entries_in_order(decode_state& st, const std::uint8_t* body,
                                                     const std::uint8_t* doc_end, V& out) {
    std::size_t count = 0;
    // Under duplicate_keys: reject, each entry's element, to name the one that repeats a key.
    const bool rejects_repeats = st.duplicate_keys == duplicate_key_policy::reject;
    std::vector<const std::uint8_t*> elements;
    while (body < doc_end) {
      const std::uint8_t* const element = body;
      std::uint8_t elem_type = 0;
      std::string_view key;
      if (!read_element_header(st, body, doc_end, elem_type, key)) {
        st.error_located = true;
        return nullptr;
      }
      if (rejects_repeats) elements.push_back(element);
      const bool fresh = count == out.size();
      if (fresh) {
        out.emplace_back(std::piecewise_construct, std::forward_as_tuple(key),
                         std::forward_as_tuple());
      } else if constexpr (std::is_same_v<typename V::value_type::first_type, std::string>) {
        assign_text(out[count].first, key);
      } else {
        out[count].first = key;
      }
      body = decode_member<Elem>(st, elem_type, body, doc_end, out[count].second, fresh);
      if (body == nullptr) {
        if (fresh) out.pop_back();  // no half-made entry left behind
        return fail_in_element(st, element, key);
      }
      if (count++ == 0 && out.capacity() < 2) {
        // A new container: as many entries as the document holds (the first is in place).
        out.reserve(1 + count_elements<Elem>(body, doc_end));
      }
    }
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(count), out.end());
    if (rejects_repeats) {
      if (const std::size_t repeat = first_repeated_key(out); repeat != out.size()) {
        return fail_duplicate_field(st, elements[repeat], std::string_view(out[repeat].first));
      }
    }
    return body;
  }

  // The index of the first entry whose key an earlier entry has, or entries.size().
  template <class V>
  static std::size_t first_repeated_key(const V& entries) {
    std::vector<std::size_t> by_key(entries.size());
    for (std::size_t i = 0; i < by_key.size(); ++i) by_key[i] = i;
    const auto key_of = [&](std::size_t i) { return std::string_view(entries[i].first); };
    std::sort(by_key.begin(), by_key.end(), [&](std::size_t a, std::size_t b) {
      const int order = key_of(a).compare(key_of(b));
      return order != 0 ? order < 0 : a < b;
    });
    std::size_t repeat = entries.size();
    for (std::size_t i = 1; i < by_key.size(); ++i) {
      if (key_of(by_key[i]) == key_of(by_key[i - 1])) repeat = std::min(repeat, by_key[i]);
    }
    return repeat;
  }
};

}  // namespace bsongen::detail
