#pragma once

// Struct tables of generated struct codecs: the key index each struct builds at compile time, its
// struct_table, the field order learned from earlier documents, and the table-driven loop
// (codec/src/codec_struct.cpp) that decodes the elements the generated in-order chain did not
// expect, captures unknown ones and places encode errors. Every generated source with a struct
// includes it (catalog.STRUCT_CODEC_HEADERS).

#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <type_traits>

#include "bsongen/detail/element_prefix.hpp"
#include "bsongen/detail/endian.hpp"
#include "bsongen/detail/wire.hpp"

namespace bsongen::detail {

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

}  // namespace bsongen::detail
