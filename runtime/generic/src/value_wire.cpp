// decode_any_value: one element value of any type into a bsongen::value, for the `any` fields of
// generated codecs, with the memory every value of one decode shares.

#include "bsongen/detail/value_wire.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <memory_resource>
#include <new>
#include <string>
#include <utility>

#include "bsongen/detail/arena.hpp"
#include "bsongen/document.hpp"
#include "bsongen/value.hpp"

namespace bsongen::detail {

// The memory of one decode's `any` values: a bump allocator over the rest of its own block and
// then chunks from operator new. Every value with parts in it holds it (value_storage::holding),
// and so does every document such a value was moved into (arena::adopt_hold). It counts the holds
// and frees everything when the count reaches zero after the decode: when the last value using it
// is destroyed, on whatever thread, or at the end of a decode whose values kept nothing.
// Allocation happens during the decode only (values do not allocate once built).
//
// While the decode that created it runs, nothing outside that decode can reach this memory (its
// values are handed out when the decode returns), so the holds are counted in a plain integer
// then; close() moves the count into the atomic one, which releases after the decode, on any
// thread, count down. Counting every part atomically, allocation and free, was a quarter of the
// decode time of a document with one `any` field.
struct value_memory final : shared_arena_memory {
  // The object and its first chunk are one block of `upstream`: decode_options::memory when the
  // caller gave one (so `any` values take their memory where the generic path's documents and an
  // `allocator: pmr` struct's members take theirs), else the runtime's block resource (a
  // thread's recently freed blocks are reused, so a decode with `any` fields calls no malloc for
  // them). Later chunks come from `upstream` too. Precondition: `upstream` outlives every value
  // this memory serves.
  static constexpr std::size_t block_size = 1024;
  static constexpr std::size_t block_alignment = 16;
  static constexpr std::size_t max_chunk = std::size_t{1} << 20;

  [[nodiscard]] static value_memory* create(std::pmr::memory_resource* upstream) {
    if (upstream == nullptr) upstream = default_block_resource();
    void* raw = upstream->allocate(block_size, block_alignment);
    return ::new (raw) value_memory(upstream);
  }

  // The arena the generic decoder builds nested documents' nodes with (decode_value): one for
  // every value of the decode, its parts bumped from this memory.
  [[nodiscard]] arena& nodes() noexcept { return *nodes_; }

  value_memory(const value_memory&) = delete;
  value_memory& operator=(const value_memory&) = delete;

  // Only the decode gives values parts in this memory (held_by), so holds are taken while it
  // runs, never after close(); documents that values move into take over a hold, not a new one.
  void hold() noexcept override { ++open_holds_; }
  void release() noexcept override {
    if (open_) {
      --open_holds_;  // the decode's own hold keeps the count above zero
    } else {
      drop();
    }
  }

  // Ends the decode: from here on its values may travel to other threads (whoever hands them over
  // synchronizes, which publishes these plain stores), and the decode's hold is released: when no
  // value kept a part, everything is freed now.
  void close() noexcept {
    if (open_holds_ == 0) {
      destroy();
      return;
    }
    live_.store(open_holds_, std::memory_order_relaxed);
    open_ = false;
  }

 private:
  struct chunk {
    chunk* next;
    std::size_t size;  // bytes, this header included
  };
  static constexpr std::size_t header = (sizeof(chunk) + 15) & ~std::size_t{15};

  explicit value_memory(std::pmr::memory_resource* upstream) noexcept;
  ~value_memory() override {
    for (chunk* c = chunks_; c != nullptr;) {
      chunk* next = c->next;
      upstream_->deallocate(c, c->size, block_alignment);
      c = next;
    }
  }
  void destroy() noexcept {
    std::pmr::memory_resource* const upstream = upstream_;
    this->~value_memory();
    upstream->deallocate(this, block_size, block_alignment);
  }
  void drop() noexcept {
    // Once closed the count only falls (values do not allocate, so nothing takes a new hold): a
    // holder that sees 1 is the last one and needs no atomic write.
    if (live_.load(std::memory_order_acquire) == 1 ||
        live_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      destroy();
    }
  }

  void* grow(std::size_t bytes, std::size_t align) override {
    const std::size_t size = std::max(next_chunk_, header + bytes + align);
    next_chunk_ = std::min(next_chunk_ * 2, max_chunk);
    void* raw = upstream_->allocate(size, block_alignment);
    chunks_ = ::new (raw) chunk{chunks_, size};
    cursor_ = static_cast<std::byte*>(raw) + header;
    end_ = static_cast<std::byte*>(raw) + size;
    return bump(bytes, align);
  }

  std::pmr::memory_resource* upstream_;  // where the block and the chunks come from
  chunk* chunks_ = nullptr;  // chunks after the one inside this object's block, newest first
  std::size_t next_chunk_ = block_size;
  std::size_t open_holds_ = 0;       // holds on this memory, counted while the decode runs
  bool open_ = true;                 // the decode that created this memory is still running
  std::atomic<std::size_t> live_{};  // once closed: the holds on this memory
  arena* nodes_ = nullptr;           // lives in this memory (create_shared), with it
};
value_memory::value_memory(std::pmr::memory_resource* upstream) noexcept : upstream_(upstream) {
  // The first chunk: the rest of the object's block.
  constexpr std::size_t first_part = (sizeof(value_memory) + 15) & ~std::size_t{15};
  static_assert(first_part + 256 <= block_size);
  cursor_ = reinterpret_cast<std::byte*>(this) + first_part;
  end_ = reinterpret_cast<std::byte*>(this) + block_size;
  nodes_ = arena::create_shared(this);  // fits the first chunk: cannot throw
}

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

// The decode's shared memory, made by its first value that needs it (out of line: the call for
// every later value stays a load and a test).
[[gnu::noinline]] value_memory& new_memory(decode_state& st) {
  st.values = value_memory::create(st.memory);
  return *st.values;
}
inline value_memory& memory_of(decode_state& st) {
  return st.values != nullptr ? *st.values : new_memory(st);
}

// A decoded value's node_flags: it has no key; its texts were checked when st.validate_utf8.
std::uint16_t text_flags(const decode_state& st, bson_type t) noexcept {
  return static_cast<std::uint16_t>(
      node_flags::key_utf8 | (st.validate_utf8 ? node_flags::text_utf8 : unchecked_text_flags(t)));
}

// A copy of n bytes followed by a NUL in the decode's shared memory; returns its first byte.
inline char* copy_out(value_memory& memory, const std::uint8_t* bytes, std::size_t n) {
  auto* copy = static_cast<char*>(memory.bump(n + 1, 1));
  std::memcpy(copy, bytes, n);
  copy[n] = 0;
  return copy;
}

// A new hold on the decode's shared memory, for a value whose parts are in it.
value_storage held_by(value_memory& memory) noexcept {
  memory.hold();
  return value_storage::holding(&memory);
}

[[gnu::cold]] std::nullptr_t fail_embedded(decode_state& st, const std::uint8_t* p,
                                           std::ptrdiff_t avail) {
  if (avail < 4) return fail_truncated(st, p, "document");
  const std::int32_t length = load_i32_le(p);
  if (length < 5) {
    return fail(
        st, error_code::invalid_length, p,
        "embedded document length " + std::to_string(length) + " is below the minimum of 5");
  }
  if (length > avail) {
    return fail(
        st, error_code::invalid_length, p,
        "embedded document length " + std::to_string(length) + " runs past the end of its parent");
  }
  if (p[length - 1] != 0) {
    return fail(st, error_code::missing_terminator, p,
                "embedded document does not end with a NUL byte");
  }
  return fail(st, error_code::too_deep, p,
              "nesting exceeds the depth limit of " + std::to_string(st.max_depth));
}

// The document or array (`type`) at p, exactly `length` bytes, framing already checked, through
// the generic decoder started at that value (decode_value) into the decode's shared memory; its
// errors become st's, at their own elements.
bool decode_embedded(decode_state& st, std::uint8_t type, const std::uint8_t* p, std::size_t length,
                     value& out) {
  value_memory& memory = memory_of(st);
  node n{};
  if (decode_value(st, p, type, p, p + length, memory.nodes(), n) == nullptr) [[unlikely]] {
    st.error_located = true;  // an error inside: at its own element
    return false;
  }
  value_adopter::adopt(out, n, held_by(memory));
  return true;
}

// Binary, regex and dbPointer values (and a type byte that names no type): checked by skip_value,
// then copied into the shared memory.
const std::uint8_t* decode_rare_value(decode_state& st, std::uint8_t type, const std::uint8_t* p,
                                      const std::uint8_t* end, value& out) {
  const std::uint8_t* const next = skip_value(st, type, p, end);
  if (next == nullptr) [[unlikely]]
    return nullptr;
  const auto t = static_cast<bson_type>(type);
  value_memory& memory = memory_of(st);
  text_ref text{};
  std::uint8_t subtype = 0;
  if (t == bson_type::binary) {
    auto size = static_cast<std::size_t>(load_i32_le(p));
    subtype = p[4];
    const std::uint8_t* payload = p + 5;
    if (subtype == static_cast<std::uint8_t>(binary_subtype::binary_old)) {
      payload += 4;  // in memory without its inner length (skip_value checked it)
      size -= 4;
    }
    text = {copy_out(memory, payload, size), static_cast<std::uint32_t>(size), 0};
  } else if (t == bson_type::regex) {
    const std::size_t pattern = std::strlen(reinterpret_cast<const char*>(p));
    const std::size_t options = std::strlen(reinterpret_cast<const char*>(p + pattern + 1));
    text = {copy_out(memory, p, pattern + 1 + options), static_cast<std::uint32_t>(pattern),
            static_cast<std::uint32_t>(options)};
  } else {  // dbPointer: the namespace, its NUL (skip_value checked it) and the id, as they lie
    const auto size = static_cast<std::size_t>(load_i32_le(p) - 1);
    text = {copy_out(memory, p + 4, size + 1 + 12), static_cast<std::uint32_t>(size), 0};
  }
  node& n = value_adopter::assign(out, t, text_flags(st, t), held_by(memory));
  n.subtype = subtype;
  n.as.text = text;
  return next;
}

}  // namespace

const std::uint8_t* decode_any_value(decode_state& st, std::uint8_t type, const std::uint8_t* p,
                                     const std::uint8_t* end, value& out) {
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
      value_memory& memory = memory_of(st);
      const char* copy = copy_out(memory, p + 4, text.size());  // before `out` changes: may throw
      value_adopter::assign(out, t, text_flags(st, t), held_by(memory)).as.text = {
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
      // Into `out` directly: decode_embedded changes it only once the value decoded.
      if (!decode_embedded(st, type, p, static_cast<std::size_t>(length), out)) return nullptr;
      return p + length;
    }

    case bson_type::javascript_with_scope: {
      // Through the generic decoder (its walk, from this value), which checks the code and the
      // scope in its own order and words; the scope is the value's first level, as there.
      value_memory& memory = memory_of(st);
      node n{};
      const std::uint8_t* const next = decode_value(st, p, type, p, end, memory.nodes(), n);
      if (next == nullptr) [[unlikely]] {
        // An error about the value itself is at p (the element named there), for the caller to
        // place at its element; one inside the scope is at its own byte already.
        if (st.err.offset != st.offset(p)) st.error_located = true;
        return nullptr;
      }
      value_adopter::adopt(out, n, held_by(memory));
      return next;
    }

    default:
      return decode_rare_value(st, type, p, end, out);
  }
}

void release_value_memory(decode_state& st) noexcept {
  if (st.values != nullptr) {
    st.values->close();
    st.values = nullptr;
  }
}

}  // namespace bsongen::detail
