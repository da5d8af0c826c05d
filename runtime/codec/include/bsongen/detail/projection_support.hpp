#pragma once

// What a projection's generated decoder calls to step over its source's other fields (its skip
// runs, generator/templates/queries.j2): where the document holds a source field the projection
// leaves out, with the type byte and key the source writes, the element is stepped over after one
// prefix compare, with no key lookup. Anything else is left where it is, for the chain and the
// general path (decode_out_of_order), which also report every error: a skip step that finds a
// value it cannot accept steps over nothing, and the general path meets that element and says
// why, as for any unknown element.
//
// `Validate` is decode_options::validate_skipped, decided once per run (skip_in_mode), so the
// steps do not test it: true validates a skipped value as detail::step_over does, false reads
// only its length fields.

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "bsongen/bson_type.hpp"
#include "bsongen/detail/codec_errors.hpp"
#include "bsongen/detail/element_prefix.hpp"
#include "bsongen/detail/endian.hpp"
#include "bsongen/detail/utf8.hpp"
#include "bsongen/detail/wire.hpp"

namespace bsongen::detail {

template <bool Validate>
struct skip_mode {
  static constexpr bool validate = Validate;
};

// run(skip_mode<st.validate_skipped>{}, p, doc_end): the run's steps, compiled for each mode,
// from p; returns where they stopped. The pointers go in and out by value, so they stay in
// registers through the steps.
template <class Run>
[[nodiscard]] [[gnu::always_inline]] inline const std::uint8_t* skip_in_mode(
    const decode_state& st, const std::uint8_t* p, const std::uint8_t* doc_end, Run&& run) {
  return st.validate_skipped ? run(skip_mode<true>{}, p, doc_end)
                             : run(skip_mode<false>{}, p, doc_end);
}

// A value stepped over by detail::step_over (layouts other than fixed and string), left where it
// is when it does not pass: st.depth back where it was (skip_value leaves it deeper when it fails
// inside a document), and the general path reports it.
[[nodiscard]] inline const std::uint8_t* step_over_or_stay(decode_state& st, std::uint8_t type,
                                                           const std::uint8_t* element,
                                                           const std::uint8_t* value,
                                                           const std::uint8_t* doc_end) {
  const std::size_t depth = st.depth;
  const std::uint8_t* const next = step_over(st, type, value, doc_end);
  if (next == nullptr) [[unlikely]] {
    st.depth = depth;
    return element;
  }
  return next;
}

// The element at p, when it is a source field with this prefix (its type byte, key and NUL):
// the byte after it. Otherwise p.
template <bool Validate, std::size_t K>
[[nodiscard]] [[gnu::always_inline]] inline const std::uint8_t* skip_known(
    decode_state& st, const std::uint8_t* p, const std::uint8_t* doc_end,
    const element_prefix<K>& prefix) {
  constexpr std::size_t size = element_prefix<K>::size;
  const value_rule& rule = rule_of(prefix.type);
  // One bound for the prefix and the value's fewest bytes (a fixed value's only check).
  if (static_cast<std::size_t>(doc_end - p) < size + rule.width ||
      !equal_bytes<size>(p, prefix.bytes.data())) {
    return p;
  }
  const std::uint8_t* const value = p + size;
  if (rule.layout == value_layout::fixed) {
    if (Validate && prefix.type == static_cast<std::uint8_t>(bson_type::boolean) && *value > 1)
        [[unlikely]] {
      return p;
    }
    return value + rule.width;
  }
  if (rule.layout == value_layout::string) {
    // read_string's checks: a length of at least 1 that fits (1 <= n <= avail - 4, one unsigned
    // compare), then (validated) its NUL and UTF-8.
    const auto n = static_cast<std::uint64_t>(std::int64_t{load_i32_le(value)});
    if (n - 1 >= static_cast<std::size_t>(doc_end - value) - 4) [[unlikely]]
      return p;
    const std::uint8_t* const next = value + 4 + n;
    if (Validate && (next[-1] != 0 || (st.validate_utf8 && !is_valid_utf8_call(value + 4, n - 1))))
        [[unlikely]] {
      return p;
    }
    return next;
  }
  return step_over_or_stay(st, prefix.type, p, value, doc_end);
}

// The same for a source field whose value decides its type byte (`any`, `nullable`, `number`).
template <bool Validate, std::size_t K>
[[nodiscard]] [[gnu::always_inline]] inline const std::uint8_t* skip_known(
    decode_state& st, const std::uint8_t* p, const std::uint8_t* doc_end,
    const key_suffix<K>& key) {
  if (!has_prefix(p, doc_end, key)) return p;
  return step_over_or_stay(st, *p, p, p + 1 + key_suffix<K>::size, doc_end);
}

// p[0..N) ^ q[0..N), OR-ed into a word (zero: equal), as equal_bytes compares them.
template <std::size_t N>
[[nodiscard]] [[gnu::always_inline]] inline std::uint64_t prefix_difference(
    const std::uint8_t* p, const std::uint8_t* q) noexcept {
  std::uint64_t diff = 0;
  if constexpr (N >= 8) {
    for (std::size_t i = 0; i + 8 <= N; i += 8) diff |= load_u64_le(p + i) ^ load_u64_le(q + i);
    if constexpr (N % 8 != 0) diff |= load_u64_le(p + N - 8) ^ load_u64_le(q + N - 8);
  } else if constexpr (N >= 4) {
    diff = (load_u32_le(p) ^ load_u32_le(q)) | (load_u32_le(p + N - 4) ^ load_u32_le(q + N - 4));
  } else {
    for (std::size_t i = 0; i < N; ++i) diff |= static_cast<std::uint64_t>(p[i] ^ q[i]);
  }
  return diff;
}

// Consecutive source fields of fixed width (`Prefixes`, their skip_N constants in the source's
// order): stepped over together where the document holds all of them there, with one bound and
// one branch (their prefix compares do not wait on each other); otherwise one at a time.
template <bool Validate, const auto&... Prefixes>
[[nodiscard]] [[gnu::always_inline]] inline const std::uint8_t* skip_fixed_run(
    decode_state& st, const std::uint8_t* p, const std::uint8_t* doc_end) {
  static_assert(((rule_of(Prefixes.type).layout == value_layout::fixed) && ...),
                "skip_fixed_run takes fields of fixed width (the generator's catalog and "
                "bson_type.hpp's value_rules disagree)");
  constexpr std::size_t total =
      ((std::remove_cvref_t<decltype(Prefixes)>::size + rule_of(Prefixes.type).width) + ...);
  if (static_cast<std::size_t>(doc_end - p) >= total) {
    std::uint64_t diff = 0;
    std::size_t at = 0;
    (
        [&] {
          constexpr std::size_t size = std::remove_cvref_t<decltype(Prefixes)>::size;
          diff |= prefix_difference<size>(p + at, Prefixes.bytes.data());
          if constexpr (Validate &&
                        Prefixes.type == static_cast<std::uint8_t>(bson_type::boolean)) {
            diff |= p[at + size] > 1 ? 1U : 0U;
          }
          at += size + rule_of(Prefixes.type).width;
        }(),
        ...);
    if (diff == 0) [[likely]]
      return p + total;
  }
  ((p = skip_known<Validate>(st, p, doc_end, Prefixes)), ...);
  return p;
}

}  // namespace bsongen::detail
