// decode_any_value: one element value of any type into a bsongen::value, for the `any` fields of
// generated codecs. Each value with variable-length parts gets an arena of its own, its first
// block sized to those parts: a value keeps alive what it holds and nothing of the document it
// came from (an earlier design shared one block per decode among all its values, so one value
// kept from a 15 MB document kept every part decoded from it).

#include "bsongen/detail/value_wire.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory_resource>
#include <new>
#include <string>
#include <utility>

#include "bsongen/detail/arena.hpp"
#include "bsongen/detail/error_messages.hpp"
#include "bsongen/document.hpp"
#include "bsongen/value.hpp"

namespace bsongen::detail {

// What decode_any_value needs of a value's insides (bsongen::value befriends it).
struct value_adopter {
  static void adopt(value& out, const node& n, value_storage storage) noexcept {
    out.node_ = n;
    out.node_.key = nullptr;
    out.node_.key_size = 0;
    out.storage_ = std::move(storage);
  }
  // Makes `out` a value of type t, no key and a zero payload, keeping its parts in `storage`;
  // returns its node for the caller to fill in the payload.
  static node& assign(value& out, bson_type t, std::uint16_t flags,
                      value_storage storage = {}) noexcept {
    out.storage_ = std::move(storage);
    node& n = out.node_;
    n.key = nullptr;
    n.key_size = 0;
    n.type = t;
    n.subtype = 0;
    n.flags = flags;
    std::memset(&n.as, 0, sizeof n.as);
    return n;
  }
};

namespace {

// A value's own arena, its first block `bytes` long, from `upstream` (the runtime's block
// resource when none is given).
arena_ptr value_arena(std::pmr::memory_resource* upstream, std::size_t bytes) {
  return arena_ptr(
      arena::create_exact(upstream != nullptr ? upstream : default_block_resource(), bytes));
}

// A decoded value's node_flags: it has no key; its texts were checked when st.validate_utf8.
std::uint16_t text_flags(const decode_state& st, bson_type t) noexcept {
  return static_cast<std::uint16_t>(
      node_flags::key_utf8 | (st.validate_utf8 ? node_flags::text_utf8 : unchecked_text_flags(t)));
}

// A copy of n bytes followed by a NUL in `a`; returns its first byte.
inline char* copy_out(arena& a, const std::uint8_t* bytes, std::size_t n) {
  auto* copy = static_cast<char*>(a.allocate(n + 1, 1));
  std::memcpy(copy, bytes, n);
  copy[n] = 0;
  return copy;
}

[[gnu::cold]] std::nullptr_t fail_embedded(decode_state& st, const std::uint8_t* p,
                                           std::ptrdiff_t avail) {
  if (avail < 4) return fail_truncated(st, p, "embedded document");
  const std::int32_t length = load_i32_le(p);
  if (length < 5) {
    return fail(st, error_code::invalid_length, p,
                messages::length_below("embedded document", length, 5));
  }
  if (length > avail) {
    return fail(st, error_code::invalid_length, p,
                messages::length_past_end("embedded document", length));
  }
  if (p[length - 1] != 0) {
    return fail(st, error_code::missing_terminator, p, messages::missing_nul("embedded document"));
  }
  return fail(st, error_code::too_deep, p, messages::too_deep(st.max_depth));
}

// Room for the copy of an embedded value of `length` bytes and the nodes of its elements (32
// bytes each, for elements of usually 8-20 encoded bytes); the arena grows past that for
// documents of smaller elements.
constexpr std::size_t embedded_first_block(std::size_t length) noexcept { return length * 3 + 32; }

// The document, array or code with scope (`type`) at p, through the generic decoder started at
// that value (decode_value) into an arena of its own; its errors become st's, at their own
// elements. `out` changes only once the value decoded.
const std::uint8_t* decode_embedded(decode_state& st, std::uint8_t type, const std::uint8_t* p,
                                    const std::uint8_t* end, std::size_t length,
                                    std::pmr::memory_resource* upstream, value& out) {
  arena_ptr a = value_arena(upstream, embedded_first_block(length));
  node n{};
  const std::uint8_t* const next = decode_value(st, p, type, p, end, *a, n);
  if (next == nullptr) [[unlikely]]
    return nullptr;
  value_adopter::adopt(out, n, value_storage(a.release()));
  return next;
}

// Binary, regex and dbPointer values (and a type byte that names no type): checked by skip_value,
// then copied into an arena of their own.
const std::uint8_t* decode_rare_value(decode_state& st, std::uint8_t type, const std::uint8_t* p,
                                      const std::uint8_t* end, std::pmr::memory_resource* upstream,
                                      value& out) {
  const std::uint8_t* const next = skip_value(st, type, p, end);
  if (next == nullptr) [[unlikely]]
    return nullptr;
  const auto t = static_cast<bson_type>(type);
  const std::uint8_t* bytes = p;
  std::size_t size = 0;  // bytes to copy, the NUL copy_out adds not counted
  text_ref text{};
  std::uint8_t subtype = 0;
  if (t == bson_type::binary) {
    size = static_cast<std::size_t>(load_i32_le(p));
    subtype = p[4];
    bytes = p + 5;
    if (subtype == static_cast<std::uint8_t>(binary_subtype::binary_old)) {
      bytes += 4;  // in memory without its inner length (skip_value checked it)
      size -= 4;
    }
    text = {nullptr, static_cast<std::uint32_t>(size), 0};
  } else if (t == bson_type::regex) {
    const std::size_t pattern = std::strlen(reinterpret_cast<const char*>(p));
    const std::size_t options = std::strlen(reinterpret_cast<const char*>(p + pattern + 1));
    size = pattern + 1 + options;
    text = {nullptr, static_cast<std::uint32_t>(pattern), static_cast<std::uint32_t>(options)};
  } else {  // dbPointer: the namespace, its NUL (skip_value checked it) and the id, as they lie
    const auto ns = static_cast<std::size_t>(load_i32_le(p) - 1);
    bytes = p + 4;
    size = ns + 1 + 12;
    text = {nullptr, static_cast<std::uint32_t>(ns), 0};
  }
  arena_ptr a = value_arena(upstream, size + 1);
  text.data = copy_out(*a, bytes, size);
  node& n = value_adopter::assign(out, t, text_flags(st, t), value_storage(a.release()));
  n.subtype = subtype;
  n.as.text = text;
  return next;
}

}  // namespace

const std::uint8_t* decode_any_value(decode_state& st, std::uint8_t type, const std::uint8_t* p,
                                     const std::uint8_t* end, std::pmr::memory_resource* upstream,
                                     value& out) {
  const std::ptrdiff_t avail = end - p;
  const auto t = static_cast<bson_type>(type);
  // Each value is checked as skip_value would check it, then written straight into `out`: scalars
  // and strings, most of what `any` fields hold, without a temporary node or a rule-table
  // dispatch (those were a third of their decode).
  switch (t) {
    case bson_type::double_:
    case bson_type::datetime:
    case bson_type::int64:
    case bson_type::timestamp:
      if (avail < 8) [[unlikely]]
        return fail_truncated(st, p, rule_of(type).name);
      value_adopter::assign(out, t, text_flags(st, t)).as.u64 = load_u64_le(p);
      return p + 8;
    case bson_type::int32:
      if (avail < 4) [[unlikely]]
        return fail_truncated(st, p, rule_of(type).name);
      value_adopter::assign(out, t, text_flags(st, t)).as.i32 = load_i32_le(p);
      return p + 4;
    case bson_type::boolean:
      if (avail < 1) [[unlikely]]
        return fail_truncated(st, p, rule_of(type).name);
      if (*p > 1) [[unlikely]]
        return fail_invalid_bool(st, p);
      value_adopter::assign(out, t, text_flags(st, t)).as.boolean = *p == 1;
      return p + 1;
    case bson_type::object_id:
      if (avail < 12) [[unlikely]]
        return fail_truncated(st, p, rule_of(type).name);
      std::memcpy(value_adopter::assign(out, t, text_flags(st, t)).as.bytes, p, 12);
      return p + 12;
    case bson_type::decimal128:
      if (avail < 16) [[unlikely]]
        return fail_truncated(st, p, rule_of(type).name);
      std::memcpy(value_adopter::assign(out, t, text_flags(st, t)).as.bytes, p, 16);
      return p + 16;
    case bson_type::null:
    case bson_type::undefined:
    case bson_type::min_key:
    case bson_type::max_key:  // the type is the value
      value_adopter::assign(out, t, text_flags(st, t));
      return p;

    case bson_type::string:
    case bson_type::javascript:
    case bson_type::symbol: {
      std::string_view text;
      const std::uint8_t* const next = read_string(st, p, end, text);
      if (next == nullptr) [[unlikely]]
        return nullptr;
      arena_ptr a = value_arena(upstream, text.size() + 1);  // before `out` changes: may throw
      const char* copy = copy_out(*a, p + 4, text.size());
      value_adopter::assign(out, t, text_flags(st, t), value_storage(a.release())).as.text = {
          copy, static_cast<std::uint32_t>(text.size()), 0};
      return next;
    }

    case bson_type::document:
    case bson_type::array: {
      // The framing checks the generic decoder makes before it enters a level.
      if (avail < 5) [[unlikely]]
        return fail_embedded(st, p, avail);
      const std::int32_t length = load_i32_le(p);
      if (length < 5 || length > avail || p[length - 1] != 0 || st.depth >= st.max_depth)
          [[unlikely]] {
        return fail_embedded(st, p, avail);
      }
      const std::uint8_t* const next =
          decode_embedded(st, type, p, p + length, static_cast<std::size_t>(length), upstream, out);
      if (next == nullptr) [[unlikely]]
        st.error_located = true;  // an error inside: at its own element
      return next;
    }

    case bson_type::javascript_with_scope: {
      // Through the generic decoder (its walk, from this value), which checks the code and the
      // scope in its own order and words; the scope is the value's first level, as there.
      const std::size_t length =
          avail >= 4 && load_i32_le(p) > 0
              ? std::min(static_cast<std::size_t>(load_i32_le(p)), static_cast<std::size_t>(avail))
              : 0;
      const std::uint8_t* const next = decode_embedded(st, type, p, end, length, upstream, out);
      if (next == nullptr) [[unlikely]] {
        // An error about the value itself is at p (the element named there), for the caller to
        // place at its element; one inside the scope is at its own byte already.
        if (st.err.offset != st.offset(p)) st.error_located = true;
      }
      return next;
    }

    default:
      return decode_rare_value(st, type, p, end, upstream, out);
  }
}

}  // namespace bsongen::detail
