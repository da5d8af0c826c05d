#pragma once

// The BSON wire rules every decoder shares: the decode and encode state, framing checks (document
// lengths, terminators, depth), element headers, strings and C strings, and the out-of-line, cold
// error builders. Generated codecs (the codec subsystem's bsongen/detail/*_codec(s).hpp) and the
// generic path build on these.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bsongen/bson_type.hpp"
#include "bsongen/decode_options.hpp"
#include "bsongen/detail/endian.hpp"
#include "bsongen/detail/error_messages.hpp"
#include "bsongen/detail/utf8.hpp"
#include "bsongen/error.hpp"

namespace bsongen {
namespace detail {

// The keys of unknown elements each open document has shown, kept only when repeated keys are
// refused (defined in wire.cpp; see note_unknown_key).
struct unknown_key_set;
struct unknown_key_set_deleter {
  void operator()(unknown_key_set* keys) const noexcept;
};

struct decode_state {
  const std::uint8_t* origin = nullptr;  // start of the outermost input: offsets count from here
  std::size_t depth = 0;                 // documents/arrays open on the current path
  std::size_t max_depth = 100;
  bool validate_utf8 = true;
  // decode_options::validate_skipped: false steps over skipped values by their length prefixes
  // alone (step_over).
  bool validate_skipped = true;
  duplicate_key_policy duplicate_keys = duplicate_key_policy::last_wins;
  // Generated decoders: err.offset already points where decision 1 wants it (an element's type
  // byte, or the document lacking a required field), so enclosing levels leave it alone. Value
  // codecs fail at the value's first byte; the innermost element that sees that moves the
  // offset to its type byte and sets this.
  bool error_located = false;
  // Allocator-aware structs (`allocator: pmr` schemas): the resource of the struct being decoded,
  // from which values the decoder creates outside a container (an optional's) allocate.
  std::pmr::memory_resource* memory = nullptr;
  // Generated decoders' learned field order (struct_table.hpp, follow_learned_order). A guess
  // may send a struct's chain to a case below fields already decoded, where a repeated key would
  // pass as new; the chain then counts what it decodes (`guessed_below_seen`), and a decode that
  // fails after that runs again without guesses, so its result and errors are schema order's.
  bool follow_learned_order = true;
  bool guessed_below_seen = false;
  // Made on the first unknown key under duplicate_keys: reject.
  std::unique_ptr<unknown_key_set, unknown_key_set_deleter> unknown_keys;
  bsongen::error err;

  [[nodiscard]] std::size_t offset(const std::uint8_t* p) const noexcept {
    return static_cast<std::size_t>(p - origin);
  }
};

struct encode_state {
  bool failed = false;
  // Set by encode entry points that check strings as write() copies them (text_bits): size()
  // then leaves strings unchecked. encoded_size() and the recheck after a write leave it false.
  bool text_checked_on_write = false;
  // The entries of the tree-shaped maps (std::map) size() walked, in the order write() meets
  // them: a block per map, in preorder (map_codec). The write pass reads its entries from here
  // rather than walking each tree a second time, a chase of dependent node pointers that was
  // half of a large std::map's encode. Empty for documents without such maps; cleared (and the
  // write pass walks the trees) when recording them failed to allocate.
  std::vector<const void*> map_entries;
  bool map_entries_recorded = true;
  bsongen::error err;
};

// Records `key`, an unknown element's key in the document ending at `doc_end`; false when that
// document showed it before. Unknown keys are what a struct's field table cannot catch repeating
// (its `seen` bits cover schema fields), so under duplicate_keys: reject generated decoders refuse
// them as the generic decoder does. Amortized O(1) per key, so hostile documents of many unknown
// keys cost linear time. May throw std::bad_alloc (decode turns it into out_of_memory).
[[nodiscard]] bool note_unknown_key(decode_state& st, const std::uint8_t* doc_end,
                                    std::string_view key);

// --- Error builders: out of line and cold so the success path stays small. All return nullptr
// so a decoder can `return fail(...)`. ---

[[gnu::cold]] std::nullptr_t fail(decode_state& st, error_code code, const std::uint8_t* at,
                                  std::string message);
[[gnu::cold]] std::nullptr_t fail_truncated(decode_state& st, const std::uint8_t* at,
                                            std::string_view what);
// A declared length that runs past the enclosing document: invalid_length, as the generic
// decoder says it ("string length 50 runs past the end of its document"). fail_truncated is for
// bytes missing before any length could be read.
[[gnu::cold]] std::nullptr_t fail_length_past_end(decode_state& st, const std::uint8_t* at,
                                                  std::string_view what, std::int64_t length);
// "expected int32, found string" at the value.
[[gnu::cold]] std::nullptr_t fail_type(decode_state& st, bson_type expected, std::uint8_t actual,
                                       const std::uint8_t* at);
// A type byte that names no BSON type (`type` at `at`); 0 ends the document early.
[[gnu::cold]] std::nullptr_t fail_not_a_type(decode_state& st, std::uint8_t type,
                                             const std::uint8_t* at);
[[gnu::cold]] void fail_encode(encode_state& es, error_code code, std::string message);
// Why the document at p (length field `length`, `available` bytes before its limit) is rejected.
[[gnu::cold]] std::nullptr_t fail_document(decode_state& st, const std::uint8_t* p,
                                           std::int64_t length, std::int64_t available);
// Why the outermost document, `size` bytes at p, is not one whole document of at most `max_size`
// bytes (code ok when it is): the framing checks both decoders make before reading elements, with
// one message and offset each (README, "Errors": the byte where the framing breaks).
[[gnu::cold]] bsongen::error envelope_error(const std::uint8_t* p, std::size_t size,
                                            std::size_t max_size);
[[gnu::cold]] std::nullptr_t fail_string(decode_state& st, const std::uint8_t* p,
                                         const std::uint8_t* end);
[[gnu::cold]] std::nullptr_t fail_invalid_bool(decode_state& st, const std::uint8_t* p);
[[gnu::cold]] void prepend_index(decode_state& st, std::size_t index);
// An allocation for the value at `at` failed (std::bad_alloc): out_of_memory there, its message
// left empty when even that cannot be allocated. Never throws, so a catch handler can call it.
[[gnu::cold]] std::nullptr_t fail_out_of_memory(decode_state& st, const std::uint8_t* at) noexcept;
// The same error when no value can be named (the allocation failed outside any member's decode):
// built without allocating.
[[gnu::cold]] bsongen::error out_of_memory_error() noexcept;

// Validates a javascriptWithScope value at p (total length, code string, scope document filling
// the rest exactly) and returns the byte after it; `code` and `scope` (the scope document's first
// byte) describe its parts.
[[nodiscard]] const std::uint8_t* read_code_with_scope(decode_state& st, const std::uint8_t* p,
                                                       const std::uint8_t* end,
                                                       std::string_view& code,
                                                       const std::uint8_t*& scope);

// Validates the element whose value starts at p (framing, lengths, terminators, nested documents
// to st.max_depth, UTF-8 when st.validate_utf8) and returns the byte after it. Errors inside
// nested documents point at the nested element's type byte; errors about the value itself at
// `element` (its element's type byte) when given, else at the value.
[[nodiscard]] const std::uint8_t* skip_value(decode_state& st, std::uint8_t type,
                                             const std::uint8_t* p, const std::uint8_t* end,
                                             const std::uint8_t* element = nullptr);

// --- Value lengths: the length rules of bsongen/bson_type.hpp's value_rules, applied. ---

// Subtype 2 (old binary) of outer length `length` whose payload starts at `payload`: the payload
// opens with an int32 that must equal length - 4. Precondition: `length` bytes are readable.
[[nodiscard]] inline bool old_binary_prefix_ok(const std::uint8_t* payload,
                                               std::int32_t length) noexcept {
  return length >= binary_old_prefix && load_i32_le(payload) == length - binary_old_prefix;
}

// Encoded sizes of the variable-length layouts, from their parts.
[[nodiscard]] constexpr std::size_t string_value_size(std::size_t text_size) noexcept {
  return 4 + text_size + 1;
}
// `payload_size` without subtype 2's prefix (the encoder writes it).
[[nodiscard]] constexpr std::size_t binary_value_size(std::size_t payload_size,
                                                      std::uint8_t subtype) noexcept {
  return 5 + payload_size +
         (subtype == static_cast<std::uint8_t>(binary_subtype::binary_old)
              ? std::size_t{binary_old_prefix}
              : 0);
}
[[nodiscard]] constexpr std::size_t regex_value_size(std::size_t pattern_size,
                                                     std::size_t options_size) noexcept {
  return pattern_size + 1 + options_size + 1;
}
[[nodiscard]] constexpr std::size_t db_pointer_value_size(std::size_t ns_size) noexcept {
  return string_value_size(ns_size) + 12;
}
// Without the scope document's own bytes.
[[nodiscard]] constexpr std::size_t code_with_scope_head_size(std::size_t code_size) noexcept {
  return 4 + string_value_size(code_size);
}

// Bytes of the type-`type` value at p as its own length fields size it, when those fields are
// readable and fit the `avail` bytes before the end of its document (minimums included); -1 when
// they do not (a validator then says why). Framing only: contents (terminators, UTF-8, nested
// elements) are not checked.
[[nodiscard]] inline std::ptrdiff_t claimed_value_size(std::uint8_t type, const std::uint8_t* p,
                                                       std::size_t avail) noexcept {
  const value_rule& rule = rule_of(type);
  if (avail < rule.width) return -1;
  switch (rule.layout) {
    case value_layout::fixed:
      return rule.width;
    case value_layout::string: {
      const std::int64_t n = load_i32_le(p);
      return n >= 1 && n <= static_cast<std::int64_t>(avail - 4)
                 ? static_cast<std::ptrdiff_t>(4 + n)
                 : -1;
    }
    case value_layout::db_pointer: {
      const std::int64_t n = load_i32_le(p);
      return n >= 1 && n <= static_cast<std::int64_t>(avail - 4 - 12)
                 ? static_cast<std::ptrdiff_t>(4 + n + 12)
                 : -1;
    }
    case value_layout::binary: {
      const std::int64_t n = load_i32_le(p);
      return n >= 0 && n <= static_cast<std::int64_t>(avail - 5)
                 ? static_cast<std::ptrdiff_t>(5 + n)
                 : -1;
    }
    case value_layout::document:
    case value_layout::code_with_scope: {
      const std::int64_t n = load_i32_le(p);
      return n >= rule.width && n <= static_cast<std::int64_t>(avail)
                 ? static_cast<std::ptrdiff_t>(n)
                 : -1;
    }
    case value_layout::regex: {
      const void* pattern_end = std::memchr(p, 0, avail);
      if (pattern_end == nullptr) return -1;
      const auto* options = static_cast<const std::uint8_t*>(pattern_end) + 1;
      const void* options_end =
          std::memchr(options, 0, avail - static_cast<std::size_t>(options - p));
      if (options_end == nullptr) return -1;
      return static_cast<const std::uint8_t*>(options_end) + 1 - p;
    }
    case value_layout::none:
      break;
  }
  return -1;
}

// Bytes of the type-`type` value at v. Precondition: v is a value of validated BSON.
[[nodiscard]] inline std::size_t trusted_value_size(std::uint8_t type,
                                                    const std::uint8_t* v) noexcept {
  const value_rule& rule = rule_of(type);
  switch (rule.layout) {
    case value_layout::string:
      return 4 + static_cast<std::size_t>(load_i32_le(v));
    case value_layout::db_pointer:
      return 4 + static_cast<std::size_t>(load_i32_le(v)) + 12;
    case value_layout::binary:
      return 5 + static_cast<std::size_t>(load_i32_le(v));
    case value_layout::document:
    case value_layout::code_with_scope:
      return static_cast<std::size_t>(load_i32_le(v));
    case value_layout::regex: {
      const std::size_t pattern = std::strlen(reinterpret_cast<const char*>(v));
      return pattern + 1 + std::strlen(reinterpret_cast<const char*>(v + pattern + 1)) + 1;
    }
    case value_layout::fixed:
    case value_layout::none:
      break;
  }
  return rule.width;
}

// --- Framing. ---

// Checks the document starting at p (its int32 length) against `limit` (the enclosing document's
// terminating NUL, or the input's end for the outermost document) and the depth limit. On success
// `body` is its first element and `doc_end` its terminating NUL.
[[nodiscard]] inline bool open_document(decode_state& st, const std::uint8_t* p,
                                        const std::uint8_t* limit, const std::uint8_t*& body,
                                        const std::uint8_t*& doc_end) {
  constexpr std::int32_t min_size = rule_of(bson_type::document).width;
  const std::ptrdiff_t available = limit - p;
  if (available < min_size) [[unlikely]]
    return fail_document(st, p, -1, available), false;
  const std::int32_t length = load_i32_le(p);
  if (length < min_size || length > available || p[length - 1] != 0 || st.depth >= st.max_depth)
      [[unlikely]] {
    return fail_document(st, p, length, available), false;
  }
  doc_end = p + length - 1;
  body = p + 4;
  return true;
}

// The first NUL in [p, end), or nullptr. Keys are short ("0", "_id", "createdAt"): a byte loop
// finds their end before a call to memchr would return; longer runs go to memchr.
[[nodiscard]] inline const std::uint8_t* find_nul(const std::uint8_t* p,
                                                  const std::uint8_t* end) noexcept {
  const std::uint8_t* const short_end = end - p > 16 ? p + 16 : end;
  for (; p < short_end; ++p) {
    if (*p == 0) return p;
  }
  if (p == end) return nullptr;
  return static_cast<const std::uint8_t*>(std::memchr(p, 0, static_cast<std::size_t>(end - p)));
}

// Reads an element's type byte and key at p (p < doc_end), leaving p at its value. A key that is
// not UTF-8 is an error about the element with that key (README, "Errors"), so its path is the
// key, as the generic decoder's is; a key without NUL has no key to name.
[[nodiscard]] inline bool read_element_header(decode_state& st, const std::uint8_t*& p,
                                              const std::uint8_t* doc_end, std::uint8_t& type,
                                              std::string_view& key) {
  type = *p;
  const std::uint8_t* k = p + 1;
  // ASCII keys a word at a time: a word's first zero byte ends the key (the lowest bit of the
  // zero-byte test is exact; only bits above it can be false), and no high bit before it means
  // ASCII, which is valid UTF-8 without the validator. A non-ASCII byte, or a key closer than a
  // word to the document's end, leaves the rest to the byte loop and the validator below.
  constexpr std::uint64_t ones = 0x0101010101010101ULL;
  constexpr std::uint64_t highs = 0x8080808080808080ULL;
  for (const std::uint8_t* w = k; doc_end - w >= 8; w += 8) {
    const std::uint64_t word = load_u64_le(w);
    const std::uint64_t zeros = (word - ones) & ~word & highs;
    if (zeros == 0) {
      if ((word & highs) != 0) break;
      continue;
    }
    const int length = std::countr_zero(zeros) / 8;
    const std::uint64_t before = (std::uint64_t{1} << (8 * length)) - 1;
    if ((word & before & highs) != 0) break;
    key = std::string_view(reinterpret_cast<const char*>(k),
                           static_cast<std::size_t>(w - k) + static_cast<std::size_t>(length));
    p = w + length + 1;
    return true;
  }
  const std::uint8_t* terminator = find_nul(k, doc_end);
  if (terminator == nullptr) [[unlikely]] {
    return fail(st, error_code::missing_terminator, p, std::string(messages::key_without_nul)),
           false;
  }
  key =
      std::string_view(reinterpret_cast<const char*>(k), static_cast<std::size_t>(terminator - k));
  // Every key, also the unknown ones a decoder skips, as the generic decoder checks them.
  if (st.validate_utf8 && !is_valid_utf8(k, key.size())) [[unlikely]] {
    fail(st, error_code::invalid_utf8, p, messages::not_utf8("key"));
    st.err.prepend_path(key);
    return false;
  }
  p = terminator + 1;
  return true;
}

// --- Strings. ---

// Reads a BSON string value at p: int32 length (bytes + 1), bytes, NUL.
[[nodiscard]] inline const std::uint8_t* read_string(decode_state& st, const std::uint8_t* p,
                                                     const std::uint8_t* end,
                                                     std::string_view& out) {
  if (end - p < 5) [[unlikely]]
    return fail_string(st, p, end);
  const std::int32_t length = load_i32_le(p);
  const std::uint8_t* bytes = p + 4;
  if (length < 1 || length > end - bytes || bytes[length - 1] != 0) [[unlikely]] {
    return fail_string(st, p, end);
  }
  const auto n = static_cast<std::size_t>(length - 1);
  if (st.validate_utf8 && !is_valid_utf8(bytes, n)) [[unlikely]]
    return fail_string(st, p, end);
  out = std::string_view(reinterpret_cast<const char*>(bytes), n);
  return bytes + length;
}

inline std::uint8_t* write_string(std::string_view s, std::uint8_t* out) noexcept {
  store_i32_le(out, static_cast<std::int32_t>(s.size() + 1));
  if (!s.empty()) std::memcpy(out + 4, s.data(), s.size());
  out[4 + s.size()] = 0;
  return out + 5 + s.size();
}

// Reads a C string (a regex's pattern or options) at p.
[[nodiscard]] inline const std::uint8_t* read_cstring(decode_state& st, const std::uint8_t* p,
                                                      const std::uint8_t* end,
                                                      std::string_view& out) {
  const std::uint8_t* terminator = find_nul(p, end);
  if (terminator == nullptr)
    return fail(st, error_code::missing_terminator, p, std::string(messages::regex_without_nul));
  const auto n = static_cast<std::size_t>(terminator - p);
  if (st.validate_utf8 && !is_valid_utf8(p, n)) {
    return fail(st, error_code::invalid_utf8, p, messages::not_utf8("regex"));
  }
  out = std::string_view(reinterpret_cast<const char*>(p), n);
  return terminator + 1;
}

// --- Skipping. ---

// Steps over the type-`type` value at p of an element a generated decoder does not keep (an
// unknown key's, or a source field a projection leaves out) and returns the byte after it, or
// nullptr with st.err set as skip_value sets it. With st.validate_skipped the value is validated
// as skip_value validates it; without, by its length fields alone (claimed_value_size: it must end
// by `end`; nothing inside it is read). Fixed-width and string values are stepped over inline
// (for a constant `type`, as a projection's skip runs pass, a few instructions); other values,
// and any that fail, go to skip_value, which validates them or says why their framing is wrong.
[[nodiscard]] [[gnu::always_inline]] inline const std::uint8_t* step_over(decode_state& st,
                                                                          std::uint8_t type,
                                                                          const std::uint8_t* p,
                                                                          const std::uint8_t* end) {
  const value_rule& rule = rule_of(type);
  const auto avail = static_cast<std::size_t>(end - p);
  if (rule.layout == value_layout::fixed) {
    if (avail >= rule.width && (type != static_cast<std::uint8_t>(bson_type::boolean) ||
                                !st.validate_skipped || *p <= 1)) [[likely]] {
      return p + rule.width;
    }
  } else if (rule.layout == value_layout::string) {
    // read_string's checks: a length of at least 1 that fits (1 <= n <= avail - 4, one unsigned
    // compare), then (validated) its NUL and UTF-8.
    if (avail >= rule.width) [[likely]] {
      const auto n = static_cast<std::uint64_t>(std::int64_t{load_i32_le(p)});
      if (n - 1 < avail - 4) [[likely]] {
        const std::uint8_t* const next = p + 4 + n;
        if (!st.validate_skipped ||
            (next[-1] == 0 && (!st.validate_utf8 || is_valid_utf8_call(p + 4, n - 1)))) {
          return next;
        }
      }
    }
  } else if (!st.validate_skipped) {
    const std::ptrdiff_t n = claimed_value_size(type, p, avail);
    if (n >= 0) [[likely]]
      return p + n;
  }
  return skip_value(st, type, p, end);
}

// Whether a generated projection may step over its source's other fields inline (its skip runs):
// not when repeated keys are refused, which records every unknown key (note_unknown_key).
[[nodiscard]] inline bool skips_inline(const decode_state& st) noexcept {
  return st.duplicate_keys != duplicate_key_policy::reject;
}

}  // namespace detail
}  // namespace bsongen
