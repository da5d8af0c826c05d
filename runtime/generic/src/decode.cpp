// Validating decode of untrusted BSON into a generic document (and validation alone, for views).
//
// One loop, no recursion: nesting lives in an explicit frame stack on the heap, so no depth can
// overflow the C++ stack and max_depth is checked before a level is entered. Every read is
// bounded by the end of the document that contains it, which is itself checked against its
// parent before it is entered, so nothing is read outside the input. Errors name the element
// path and the byte offset of the offending element; the path is built only on failure.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "bsongen/detail/error_messages.hpp"
#include "bsongen/detail/unpooled_decode.hpp"
#include "bsongen/detail/utf8.hpp"
#include "bsongen/detail/value_wire.hpp"
#include "bsongen/document.hpp"
#include "bsongen/document_view.hpp"

namespace bsongen {
namespace {

namespace messages = detail::messages;

using detail::container;
using detail::node;

constexpr std::uint32_t no_parent = std::numeric_limits<std::uint32_t>::max();

// Widths and minimum sizes come from the one table (bsongen/bson_type.hpp); the decoder's checks
// use them as compile-time constants.
constexpr std::size_t width_of(bson_type t) noexcept {
  return detail::rule_of(t).layout == detail::value_layout::fixed ? detail::rule_of(t).width : 0;
}
constexpr std::int32_t min_size_of(bson_type t) noexcept { return detail::rule_of(t).width; }

enum class frame_kind : std::uint8_t { document, array, scope };

struct frame {
  const std::uint8_t* end;  // the frame's terminating NUL
  const char* key;          // key of the element that opened it: the path segment
  std::uint32_t key_size;
  std::uint32_t scratch_base;  // first scratch slot of this frame's elements
  std::uint32_t parent_index;  // scratch slot of the node that receives the container
  std::uint32_t keys_base;     // first entry of this frame's keys in decode_scratch::keys (reject)
  frame_kind kind;
};

// The open levels of a walk, innermost last. push_back is inline: std::vector's stayed an
// out-of-line call (its reallocation path came along), 6-10% of decoding a small document.
class frame_stack {
 public:
  [[gnu::always_inline]] void push_back(const frame& f) {
    if (size_ == storage_.size()) [[unlikely]]
      grow();
    storage_[size_++] = f;
  }
  void pop_back() noexcept { --size_; }
  [[nodiscard]] const frame& back() const noexcept { return storage_[size_ - 1]; }
  [[nodiscard]] const frame& operator[](std::size_t i) const noexcept { return storage_[i]; }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  void clear() noexcept { size_ = 0; }
  // Frees the storage when it holds more than `kept` frames.
  void release_above(std::size_t kept) {
    if (storage_.size() > kept) {
      std::vector<frame>().swap(storage_);
      size_ = 0;
    }
  }

 private:
  [[gnu::noinline]] void grow() { storage_.resize(std::max<std::size_t>(16, storage_.size() * 2)); }

  std::vector<frame> storage_;
  std::size_t size_ = 0;
};

// A key read under duplicate_key_policy::reject, and its element's position in its document.
struct key_entry {
  const std::uint8_t* key;
  std::uint32_t size;
  std::uint32_t order;
};

// The elements of the documents still open, innermost last; a closed document's run moves to
// the arena. Grows by doubling and never shrinks.
class node_stack {
 public:
  [[nodiscard]] node* base() noexcept { return data_.get(); }
  [[nodiscard]] node* limit() noexcept { return capacity_end_; }
  // Doubles the capacity, keeping the nodes below `top`; base() and limit() change.
  void grow(node* top) {
    const auto size = static_cast<std::size_t>(top - data_.get());
    const std::size_t capacity = size < 256 ? 512 : size * 2;
    auto grown = std::make_unique_for_overwrite<node[]>(capacity);
    if (size != 0) std::memcpy(static_cast<void*>(grown.get()), data_.get(), size * sizeof(node));
    data_ = std::move(grown);
    capacity_end_ = data_.get() + capacity;
  }
  // Frees the storage when it holds more than `max_nodes` (the next decode grows it again).
  void release_above(std::size_t max_nodes) noexcept {
    if (static_cast<std::size_t>(capacity_end_ - data_.get()) > max_nodes) {
      data_.reset();
      capacity_end_ = nullptr;
    }
  }

 private:
  std::unique_ptr<node[]> data_;
  node* capacity_end_ = nullptr;
};

// Reused across decodes on a thread, so a steady stream of decodes allocates only its arenas.
struct decode_scratch {
  node_stack nodes;
  frame_stack frames;
  std::vector<key_entry> keys;  // the open documents' keys, innermost last (reject only)

  // What a thread keeps between decodes: 64 Ki nodes (2 MiB) and 4 Ki frames. One unusually
  // large document (a dense 16 MiB one needs ~256 MiB of nodes) must not stay pinned on every
  // thread that ever decoded one.
  static constexpr std::size_t kept_nodes = 64 * 1024;
  static constexpr std::size_t kept_frames = 4 * 1024;
  void trim() noexcept {
    nodes.release_above(kept_nodes);
    frames.release_above(kept_frames);
    if (keys.capacity() > kept_nodes) std::vector<key_entry>().swap(keys);
  }
};

// The calling thread's scratch for the duration of one decode, trimmed when the decode ends.
class scratch_lease {
 public:
  scratch_lease() noexcept : scratch_(thread_scratch()) {}
  scratch_lease(const scratch_lease&) = delete;
  scratch_lease& operator=(const scratch_lease&) = delete;
  ~scratch_lease() { scratch_.trim(); }
  [[nodiscard]] decode_scratch& get() noexcept { return scratch_; }

 private:
  static decode_scratch& thread_scratch() noexcept {
    thread_local decode_scratch scratch;
    return scratch;
  }
  decode_scratch& scratch_;
};

// The outermost framing holds: what must be true before a byte is allocated or copied.
inline bool envelope_ok(std::span<const std::uint8_t> bytes,
                        const decode_options& options) noexcept {
  if (bytes.size() < 5) return false;
  const std::int32_t declared = detail::load_i32_le(bytes.data());
  return declared >= 5 && static_cast<std::size_t>(declared) == bytes.size() &&
         static_cast<std::size_t>(declared) <= options.max_size && bytes[bytes.size() - 1] == 0;
}

// Why envelope_ok is false (the same verdict the generated decoders give).
[[gnu::noinline, gnu::cold]] result<void> check_envelope(std::span<const std::uint8_t> bytes,
                                                         const decode_options& options) {
  return detail::envelope_error(bytes.data(), bytes.size(), options.max_size);
}

// The key's terminating NUL, searched 8 bytes at a time, or nullptr when the key runs into the
// document's own terminator at `end` (the NUL at `end` is readable, so whole words up to it are).
// Clears `ascii` when a key byte has its high bit set (then UTF-8 needs the full check).
inline const std::uint8_t* find_key_end(const std::uint8_t* p, const std::uint8_t* end,
                                        bool& ascii) noexcept {
  constexpr std::uint64_t ones = 0x0101010101010101ULL;
  constexpr std::uint64_t highs = 0x8080808080808080ULL;
  const std::uint8_t* q = p;
  while (end + 1 - q >= 8) {
    std::uint64_t word;
    std::memcpy(&word, q, 8);
    const std::uint64_t zeros = (word - ones) & ~word & highs;
    if (zeros != 0) {
      const std::uint64_t lowest = zeros & (~zeros + 1);
      if ((word & (lowest - 1) & highs) != 0) ascii = false;  // bytes before the first NUL
      q += std::countr_zero(zeros) / 8;
      return q < end ? q : nullptr;
    }
    if ((word & highs) != 0) ascii = false;
    q += 8;
  }
  for (; q < end; ++q) {
    if (*q == 0) return q;
    if (*q >= 0x80) ascii = false;
  }
  return nullptr;
}

template <bool Build>
class decoder {
 public:
  // Reads and validates `base`; nodes point at the same offsets in `copy` (Build only), which
  // holds the same bytes. Reading the caller's bytes rather than the fresh copy avoids stalling
  // on the copy's stores.
  // `origin` is where error offsets count from (the outermost input); `depth_base` the levels open
  // around `base` that the frame stack does not hold (see run_value).
  decoder(const std::uint8_t* base, std::size_t size, const std::uint8_t* copy,
          const decode_options& options, detail::arena* a, decode_scratch& scratch,
          const std::uint8_t* origin = nullptr, std::size_t depth_base = 0)
      : base_(base),
        copy_(copy),
        origin_(origin != nullptr ? origin : base),
        size_(size),
        options_(options),
        arena_(a),
        scratch_(scratch),
        max_depth_(std::min(options.max_depth, max_depth_limit)),
        depth_base_(depth_base) {}

  // The document at base (size_ bytes, framing already checked) into *root. False when it is
  // malformed; failure() then says why.
  bool run(container* root) {
    if (max_depth_ == 0) [[unlikely]] {  // the document itself is 1 level
      scratch_.frames.clear();
      return stash(too_deep(base_, {}));
    }
    const std::uint8_t* const body = base_ + 4;
    const std::uint8_t* const end = base_ + size_ - 1;
    return (defaults() ? walk<false, true>(root, nullptr, body, end, 0, nullptr)
                       : walk<false, false>(root, nullptr, body, end, 0, nullptr)) != nullptr;
  }

  // One element value of type `type` at base_ (the value's first byte), inside a document whose
  // terminator is at `end`, as decode_document would read it as an element: into *out (Build) and
  // returning the byte after it, or nullptr (failure() says why). Errors about the value itself
  // point at `element` (its element's type byte); errors inside it at their own elements. Paths
  // are relative to the value ("x.3"). The frame stack's bottom stands for the enclosing document,
  // at depth depth_base_ + 1.
  const std::uint8_t* run_value(std::uint8_t type, const std::uint8_t* element,
                                const std::uint8_t* end, node* out) {
    path_from_ = 2;  // segment 1 is the value's own (empty) key: the caller names the value
    const std::uint8_t* next = defaults()
                                   ? walk<true, true>(nullptr, out, base_, end, type, element)
                                   : walk<true, false>(nullptr, out, base_, end, type, element);
    if constexpr (Build) {
      if (next != nullptr) {
        *out = scratch_.nodes.base()[0];
        out->key = nullptr;
        out->key_size = 0;
      }
    }
    return next;
  }

 private:
  // The options most decodes run with (validate_utf8, duplicate keys last_wins): the loop for them
  // is compiled with both known, so no per-element test or register is spent on either.
  [[nodiscard]] bool defaults() const noexcept {
    return options_.validate_utf8 && options_.duplicate_keys == duplicate_key_policy::last_wins;
  }

  // The decode loop. Single: start at one value (`first_type`, its element at `first_element`)
  // and stop after it; otherwise read the elements of the document whose body starts at p.
  // Defaults: defaults() holds.
  template <bool Single, bool Defaults>
  const std::uint8_t* walk(container* root, [[maybe_unused]] node* out, const std::uint8_t* p,
                           const std::uint8_t* end, [[maybe_unused]] std::uint8_t first_type,
                           [[maybe_unused]] const std::uint8_t* first_element) {
    frame_stack& frames = scratch_.frames;
    node_stack& nodes = scratch_.nodes;
    frames.clear();
    // The stack top and the current frame's end live in locals (registers) in the loop.
    [[maybe_unused]] node* top = nodes.base();
    [[maybe_unused]] node* limit = nodes.limit();
    auto push = [&]() -> node& {
      if (top == limit) [[unlikely]] {
        const auto size = static_cast<std::size_t>(top - nodes.base());
        nodes.grow(top);
        top = nodes.base() + size;
        limit = nodes.limit();
      }
      return *top++;
    };
    auto stack_size = [&]() { return static_cast<std::uint32_t>(top - nodes.base()); };
    frames.push_back({end, nullptr, 0, 0, no_parent, 0, frame_kind::document});
    const bool check_utf8 = Defaults || options_.validate_utf8;
    const bool reject_duplicates =
        !Defaults && options_.duplicate_keys == duplicate_key_policy::reject;
    if (reject_duplicates) scratch_.keys.clear();

    for (bool first = Single;; first = false) {
      // After the one value of a Single walk: done once its containers have closed.
      if constexpr (Single) {
        if (!first && frames.size() == 1) return p;
      }
      if ((!Single || !first) && p == end) {  // (a value of no bytes can sit at its document's end)
        if (reject_duplicates) [[unlikely]] {
          if (!keys_unique()) return nullptr;
        }
        if constexpr (Build) top = close_frame(root, nodes.base(), top);
        frames.pop_back();
        if (frames.empty()) return end + 1;
        p = end + 1;
        end = frames.back().end;
        continue;
      }

      const std::uint8_t* element_start;
      std::uint8_t type;
      const char* key;
      std::uint32_t key_size;
      bool key_ascii = true;
      if (Single && first) {
        element_start = first_element;
        type = first_type;
        key = "";
        key_size = 0;
      } else {
        element_start = p;
        type = *p++;
      }
      if (!is_bson_type(type)) [[unlikely]] {
        if (type == 0 && !(Single && first)) {
          return stash(fail(error_code::invalid_length, std::string(messages::early_document_end),
                            element_start, {}));
        }
        return stash(
            fail(error_code::invalid_type, messages::unknown_type(type), element_start, {}));
      }
      if (!(Single && first)) {
        const std::uint8_t* const key_nul = find_key_end(p, end, key_ascii);
        if (key_nul == nullptr) [[unlikely]] {
          return stash(fail(error_code::missing_terminator, std::string(messages::key_without_nul),
                            element_start, {}));
        }
        key = reinterpret_cast<const char*>(p);
        key_size = static_cast<std::uint32_t>(key_nul - p);
        if (!key_ascii && check_utf8 && !detail::is_valid_utf8_slow(p, key_size)) [[unlikely]] {
          return stash(fail(error_code::invalid_utf8, messages::not_utf8("key"), element_start,
                            {key, key_size}));
        }
        p = key_nul + 1;
        if (reject_duplicates && frames.back().kind != frame_kind::array) [[unlikely]] {
          const auto order =
              static_cast<std::uint32_t>(scratch_.keys.size() - frames.back().keys_base);
          scratch_.keys.push_back({reinterpret_cast<const std::uint8_t*>(key), key_size, order});
        }
      }
      const std::string_view key_view(key, key_size);
      const auto avail = static_cast<std::size_t>(end - p);

      [[maybe_unused]] node unused_slot;
      node& n = Build ? push() : unused_slot;
      // What this decode checks of the node's UTF-8, for encode (node_flags): everything when
      // validating it; else an ASCII key, and the text of types that have none.
      [[maybe_unused]] std::uint16_t flags = detail::node_flags::utf8;
      if constexpr (Build) {
        if (!check_utf8) [[unlikely]] {
          flags = static_cast<std::uint16_t>(
              (key_ascii ? detail::node_flags::key_utf8 : 0) |
              detail::unchecked_text_flags(static_cast<bson_type>(type)));
        }
        set_header(n, Single && first ? nullptr : in_copy(p - key_size - 1), key_size, type, 0,
                   flags);
      }

      switch (static_cast<bson_type>(type)) {
        case bson_type::double_:
        case bson_type::datetime:
        case bson_type::int64:
        case bson_type::timestamp:
          static_assert(width_of(bson_type::double_) == 8 && width_of(bson_type::datetime) == 8 &&
                        width_of(bson_type::int64) == 8 && width_of(bson_type::timestamp) == 8);
          if (avail < 8) [[unlikely]]
            return stash(
                past_end(type_name(static_cast<bson_type>(type)), element_start, key_view));
          if constexpr (Build) set_payload(n, detail::load_u64_le(p), 0);
          p += 8;
          break;
        case bson_type::int32:
          static_assert(width_of(bson_type::int32) == 4);
          if (avail < 4) [[unlikely]]
            return stash(
                past_end(type_name(static_cast<bson_type>(type)), element_start, key_view));
          if constexpr (Build) set_payload(n, detail::load_u32_le(p), 0);
          p += 4;
          break;
        case bson_type::boolean:
          static_assert(width_of(bson_type::boolean) == 1);
          if (avail < 1) [[unlikely]]
            return stash(
                past_end(type_name(static_cast<bson_type>(type)), element_start, key_view));
          if (*p > 1) [[unlikely]] {
            return stash(fail(error_code::invalid_bool, messages::invalid_bool(*p), element_start,
                              key_view));
          }
          if constexpr (Build) set_payload(n, *p, 0);
          p += 1;
          break;
        case bson_type::null:
        case bson_type::undefined:
        case bson_type::min_key:
        case bson_type::max_key:
          if constexpr (Build) set_payload(n, 0, 0);
          break;
        case bson_type::object_id:
          static_assert(width_of(bson_type::object_id) == 12);
          if (avail < 12) [[unlikely]]
            return stash(
                past_end(type_name(static_cast<bson_type>(type)), element_start, key_view));
          if constexpr (Build) set_payload(n, detail::load_u64_le(p), detail::load_u32_le(p + 8));
          p += 12;
          break;
        case bson_type::decimal128:
          static_assert(width_of(bson_type::decimal128) == 16);
          if (avail < 16) [[unlikely]]
            return stash(
                past_end(type_name(static_cast<bson_type>(type)), element_start, key_view));
          if constexpr (Build) set_payload(n, detail::load_u64_le(p), detail::load_u64_le(p + 8));
          p += 16;
          break;
        case bson_type::string:
        case bson_type::javascript:
        case bson_type::symbol: {
          std::uint32_t text_size = 0;
          if (!read_string(p, avail, text_size, check_utf8, element_start, key_view))
            return nullptr;
          if constexpr (Build) set_text(n, in_copy(p + 4), text_size, 0);
          p += 4 + text_size + 1;
          break;
        }
        case bson_type::document:
        case bson_type::array: {
          if (avail < 4) [[unlikely]]
            return stash(past_end("embedded document", element_start, key_view));
          const std::int32_t length = detail::load_i32_le(p);
          if (!check_embedded(length, avail, p, element_start, key_view)) return nullptr;
          if (depth_base_ + frames.size() >= max_depth_) [[unlikely]]
            return stash(too_deep(element_start, key_view));
          std::uint32_t parent = no_parent;
          if constexpr (Build) {
            set_payload(n, 0, 0);
            parent = stack_size() - 1;
          }
          end = p + length - 1;
          frames.push_back(
              {end, key, key_size, Build ? stack_size() : 0, parent,
               reject_duplicates ? static_cast<std::uint32_t>(scratch_.keys.size()) : 0,
               type == static_cast<std::uint8_t>(bson_type::document) ? frame_kind::document
                                                                      : frame_kind::array});
          p += 4;
          continue;
        }
        case bson_type::binary: {
          if (avail < std::size_t{min_size_of(bson_type::binary)}) [[unlikely]] {
            return stash(past_end("binary", element_start, key_view));
          }
          const std::int32_t length = detail::load_i32_le(p);
          if (length < 0) [[unlikely]] {
            return stash(fail(error_code::invalid_length,
                              messages::negative_length("binary", length), element_start,
                              key_view));
          }
          if (static_cast<std::size_t>(length) > avail - 5) [[unlikely]] {
            return stash(fail(error_code::invalid_length,
                              messages::length_past_end("binary", length), element_start,
                              key_view));
          }
          const std::uint8_t subtype = p[4];
          const std::uint8_t* data = p + 5;
          auto data_size = static_cast<std::uint32_t>(length);
          if (subtype == static_cast<std::uint8_t>(binary_subtype::binary_old)) {
            if (!detail::old_binary_prefix_ok(data, length)) [[unlikely]] {
              return stash(fail(error_code::invalid_length,
                                messages::old_binary_length_disagrees(length), element_start,
                                key_view));
            }
            data += detail::binary_old_prefix;
            data_size -= detail::binary_old_prefix;
          }
          if constexpr (Build) {
            set_header(n, n.key, key_size, type, subtype, flags);
            set_text(n, in_copy(data), data_size, 0);
          }
          p += 5 + static_cast<std::size_t>(length);
          break;
        }
        case bson_type::regex: {
          const void* pattern_nul = std::memchr(p, 0, avail);
          const void* options_nul =
              pattern_nul == nullptr
                  ? nullptr
                  : std::memchr(static_cast<const std::uint8_t*>(pattern_nul) + 1, 0,
                                static_cast<std::size_t>(
                                    end - (static_cast<const std::uint8_t*>(pattern_nul) + 1)));
          if (options_nul == nullptr) [[unlikely]] {
            return stash(fail(error_code::missing_terminator,
                              std::string(messages::regex_without_nul), element_start, key_view));
          }
          const auto pattern_size =
              static_cast<std::uint32_t>(static_cast<const std::uint8_t*>(pattern_nul) - p);
          const std::uint8_t* opts = p + pattern_size + 1;
          const auto options_size =
              static_cast<std::uint32_t>(static_cast<const std::uint8_t*>(options_nul) - opts);
          if (check_utf8 && (!detail::is_valid_utf8(p, pattern_size) ||
                             !detail::is_valid_utf8(opts, options_size))) [[unlikely]] {
            return stash(fail(error_code::invalid_utf8, messages::not_utf8("regex"), element_start,
                              key_view));
          }
          if constexpr (Build) set_text(n, in_copy(p), pattern_size, options_size);
          p = opts + options_size + 1;
          break;
        }
        case bson_type::db_pointer: {
          std::uint32_t text_size = 0;
          if (!read_string(p, avail, text_size, check_utf8, element_start, key_view))
            return nullptr;
          if (avail - 5 - text_size < 12) [[unlikely]]
            return stash(past_end("dbPointer", element_start, key_view));
          if constexpr (Build) set_text(n, in_copy(p + 4), text_size, 0);
          p += 4 + text_size + 1 + 12;
          break;
        }
        case bson_type::javascript_with_scope: {
          if (avail < 4) [[unlikely]]
            return stash(
                past_end(type_name(static_cast<bson_type>(type)), element_start, key_view));
          const std::int32_t total = detail::load_i32_le(p);
          // int32 total, string (int32 length >= 1, bytes, NUL), document (>= 5 bytes).
          if (total < min_size_of(bson_type::javascript_with_scope)) [[unlikely]] {
            return stash(fail(error_code::invalid_length,
                              messages::length_below("javascriptWithScope", total,
                                                     min_size_of(bson_type::javascript_with_scope)),
                              element_start, key_view));
          }
          if (static_cast<std::size_t>(total) > avail) [[unlikely]] {
            return stash(fail(error_code::invalid_length,
                              messages::length_past_end("javascriptWithScope", total),
                              element_start, key_view));
          }
          std::uint32_t code_size = 0;
          if (!read_string(p + 4, static_cast<std::size_t>(total) - 4, code_size, check_utf8,
                           element_start, key_view)) {
            return nullptr;
          }
          const std::uint8_t* scope = p + 4 + 4 + code_size + 1;
          const auto scope_room = static_cast<std::size_t>(p + total - scope);
          if (scope_room < 5 || detail::load_i32_le(scope) != static_cast<std::int64_t>(scope_room))
              [[unlikely]] {
            return stash(fail(error_code::invalid_length,
                              messages::code_with_scope_length_disagrees(total), element_start,
                              key_view));
          }
          if (scope[scope_room - 1] != 0) [[unlikely]] {
            return stash(fail(error_code::missing_terminator,
                              messages::missing_nul("scope document"), element_start, key_view));
          }
          if (depth_base_ + frames.size() >= max_depth_) [[unlikely]]
            return stash(too_deep(element_start, key_view));
          std::uint32_t parent = no_parent;
          if constexpr (Build) {
            auto* cws = arena_->template allocate_array<detail::code_with_scope>(1);
            cws->code = in_copy(p + 8);
            cws->code_size = code_size;
            cws->scope = {};
            set_payload(n, reinterpret_cast<std::uintptr_t>(cws), 0);
            parent = stack_size() - 1;
          }
          end = scope + scope_room - 1;
          frames.push_back(
              {end, key, key_size, Build ? stack_size() : 0, parent,
               reject_duplicates ? static_cast<std::uint32_t>(scratch_.keys.size()) : 0,
               frame_kind::scope});
          p = scope + 4;
          continue;
        }
      }
    }
  }

  // Under duplicate_key_policy::reject, when the innermost document closes: false (error stashed,
  // at the first element whose key an earlier element of the document already had) when a key
  // repeats. Sorting the document's keys keeps this O(n log n) whatever the keys are.
  [[gnu::noinline]] bool keys_unique() {
    std::vector<key_entry>& keys = scratch_.keys;
    const auto first = keys.begin() + frames_back().keys_base;
    const auto last = keys.end();
    if (last - first >= 2) {
      std::sort(first, last, [](const key_entry& a, const key_entry& b) {
        const int c = std::memcmp(a.key, b.key, std::min(a.size, b.size));
        if (c != 0) return c < 0;
        return a.size != b.size ? a.size < b.size : a.order < b.order;
      });
      const key_entry* repeat = nullptr;  // the earliest second occurrence
      for (auto it = first + 1; it != last; ++it) {
        const key_entry& prev = *(it - 1);
        if (prev.size == it->size && std::memcmp(prev.key, it->key, it->size) == 0 &&
            (repeat == nullptr || it->order < repeat->order)) {
          // Sorted by order within equal keys: `it` is a later one; the group's second is the
          // first such `it` after the group's first entry.
          if (it - 1 == first || (it - 2)->size != it->size ||
              std::memcmp((it - 2)->key, it->key, it->size) != 0) {
            repeat = &*it;
          }
        }
      }
      if (repeat != nullptr) {
        const std::string_view key(reinterpret_cast<const char*>(repeat->key), repeat->size);
        return stash(fail(error_code::duplicate_field, std::string(messages::repeated_key),
                          repeat->key - 1, key));
      }
    }
    keys.erase(first, last);
    return true;
  }
  [[nodiscard]] const frame& frames_back() const noexcept { return scratch_.frames.back(); }

  // Moves the innermost frame's nodes (from its scratch_base up to `top`) into the arena and hands
  // the container to its parent node or to *root; returns the new stack top.
  node* close_frame(container* root, node* base, node* top) {
    const frame& f = scratch_.frames.back();
    node* const first = base + f.scratch_base;
    const auto count = static_cast<std::uint32_t>(top - first);
    container c{nullptr, count, count};
    if (count != 0) {
      c.elements = arena_->allocate_array<node>(count);
      copy_nodes(c.elements, first, count);
    }
    if (f.parent_index == no_parent) {
      *root = c;
    } else if (f.kind == frame_kind::scope) {
      base[f.parent_index].as.cws->scope = c;
    } else {
      set_payload(base[f.parent_index], reinterpret_cast<std::uintptr_t>(c.elements),
                  count | std::uint64_t{count} << 32);
    }
    return first;
  }

  // A BSON string at p: int32 length >= 1, that many bytes, the last one NUL. False (error_ set)
  // when it is not.
  [[gnu::always_inline]] bool read_string(const std::uint8_t* p, std::size_t avail,
                                          std::uint32_t& text_size, bool check_utf8,
                                          const std::uint8_t* element_start, std::string_view key) {
    if (avail < 4) [[unlikely]]
      return stash(past_end("string", element_start, key));
    const std::int32_t length = detail::load_i32_le(p);
    if (length < min_size_of(bson_type::string) - 4) [[unlikely]] {
      return stash(fail(error_code::invalid_length, messages::length_below("string", length, 1),
                        element_start, key));
    }
    if (static_cast<std::size_t>(length) > avail - 4) [[unlikely]] {
      return stash(fail(error_code::invalid_length, messages::length_past_end("string", length),
                        element_start, key));
    }
    if (p[4 + length - 1] != 0) [[unlikely]] {
      return stash(fail(error_code::missing_terminator, messages::missing_nul("string"),
                        element_start, key));
    }
    text_size = static_cast<std::uint32_t>(length - 1);
    if (check_utf8 && !detail::is_valid_utf8(p + 4, text_size)) [[unlikely]] {
      return stash(
          fail(error_code::invalid_utf8, messages::not_utf8("string"), element_start, key));
    }
    return true;
  }

  [[gnu::always_inline]] bool check_embedded(std::int32_t length, std::size_t avail,
                                             const std::uint8_t* p,
                                             const std::uint8_t* element_start,
                                             std::string_view key) {
    if (length < min_size_of(bson_type::document)) [[unlikely]] {
      return stash(fail(error_code::invalid_length,
                        messages::length_below("embedded document", length, 5), element_start,
                        key));
    }
    if (static_cast<std::size_t>(length) > avail) [[unlikely]] {
      return stash(fail(error_code::invalid_length,
                        messages::length_past_end("embedded document", length), element_start,
                        key));
    }
    if (p[length - 1] != 0) [[unlikely]] {
      return stash(fail(error_code::missing_terminator, messages::missing_nul("embedded document"),
                        element_start, key));
    }
    return true;
  }

  // Nodes are written and copied as whole 8-byte words: a node is copied to the arena right after
  // it is built, and a wide load over narrower recent stores would stall on store forwarding.
  static void set_header(node& n, const char* key, std::uint32_t key_size, std::uint8_t type,
                         std::uint8_t subtype, std::uint16_t flags) noexcept {
    static_assert(offsetof(node, key_size) == 8 && offsetof(node, type) == 12 &&
                  offsetof(node, subtype) == 13 && offsetof(node, flags) == 14);
    n.key = key;
    const std::uint64_t word = key_size | std::uint64_t{type} << 32 | std::uint64_t{subtype} << 40 |
                               std::uint64_t{flags} << 48;
    std::memcpy(reinterpret_cast<unsigned char*>(&n) + 8, &word, 8);
  }
  static void set_payload(node& n, std::uint64_t low, std::uint64_t high) noexcept {
    std::memcpy(n.as.bytes, &low, 8);
    std::memcpy(n.as.bytes + 8, &high, 8);
  }
  static void set_text(node& n, const char* data, std::uint32_t size,
                       std::uint32_t extra) noexcept {
    set_payload(n, reinterpret_cast<std::uintptr_t>(data), size | std::uint64_t{extra} << 32);
  }
  static void copy_nodes(node* to, const node* from, std::uint32_t count) noexcept {
    if (count > 8) {
      std::memcpy(static_cast<void*>(to), from, count * sizeof(node));
      return;
    }
    auto* d = reinterpret_cast<unsigned char*>(to);
    const auto* s = reinterpret_cast<const unsigned char*>(from);
    for (std::size_t i = 0; i < std::size_t{count} * 4; ++i) {
      std::uint64_t w;
      std::memcpy(&w, s + i * 8, 8);
      std::memcpy(d + i * 8, &w, 8);
      asm volatile("" ::
                       : "memory");  // keep word copies (a memcpy call would load 32 bytes at once)
    }
  }

  [[nodiscard]] const char* in_copy(const std::uint8_t* p) const noexcept {
    return reinterpret_cast<const char*>(copy_ + (p - base_));
  }

  // Keeps `e` for failure(); converts to false and to a null pointer, so both kinds of checks can
  // `return stash(...)`.
  struct stashed {
    operator bool() const noexcept { return false; }  // NOLINT: the point is the conversion
    operator const std::uint8_t*() const noexcept { return nullptr; }  // NOLINT
  };
  stashed stash(error e) {
    error_.emplace(std::move(e));
    return {};
  }

 public:
  // Precondition: run() returned false.
  [[nodiscard]] error& failure() noexcept { return *error_; }

 private:
  // `what`: the value's type name, as the generated decoders name it.
  [[gnu::noinline, gnu::cold]] error past_end(std::string_view what,
                                              const std::uint8_t* element_start,
                                              std::string_view key) {
    return fail(error_code::truncated, messages::value_past_end(what), element_start, key);
  }

  [[gnu::noinline, gnu::cold]] error too_deep(const std::uint8_t* element_start,
                                              std::string_view key) {
    return fail(error_code::too_deep, messages::too_deep(max_depth_), element_start, key);
  }

  // fail() with the message `prefix` + number + `suffix`, built only here, off the hot path.
  // The error at `where`, with the path of open frames plus the current element's key.
  [[gnu::noinline, gnu::cold]] error fail(error_code code, std::string message,
                                          const std::uint8_t* where, std::string_view key) {
    error e(code, std::move(message), static_cast<std::size_t>(where - origin_));
    // Joined front to back: prepending one segment per level is quadratic in the depth, seconds
    // at 100,000 levels when max_depth is raised. Same result as prepend_path from the inside
    // out: the segments joined by '.', empty segments after the last non-empty one dropped.
    const frame_stack& frames = scratch_.frames;
    const std::size_t segments = frames.size() + (!key.empty() || key.data() != nullptr ? 1 : 0);
    const auto segment = [&](std::size_t i) {
      return i < frames.size() ? std::string_view(frames[i].key, frames[i].key_size) : key;
    };
    std::size_t last = 0;  // one past the last non-empty segment
    for (std::size_t i = path_from_; i < segments; ++i) {
      if (!segment(i).empty()) last = i + 1;
    }
    for (std::size_t i = path_from_; i < last; ++i) {
      if (i > path_from_) e.path += '.';
      e.path += segment(i);
    }
    return e;
  }

  const std::uint8_t* base_;
  const std::uint8_t* copy_;
  const std::uint8_t* origin_;
  std::size_t size_;
  const decode_options& options_;
  detail::arena* arena_;
  decode_scratch& scratch_;
  std::size_t max_depth_;  // options_.max_depth within max_depth_limit
  std::size_t depth_base_;
  std::size_t path_from_ = 1;   // first frame whose key is a path segment (the root has none)
  std::optional<error> error_;  // what stash() kept from a failed check
};

}  // namespace

namespace detail {

struct document_adopter {
  static void adopt(document& out, arena_ptr a, const container& root,
                    std::size_t source_size) noexcept {
    out.arena_ = std::move(a);
    out.root_ = root;
    out.source_size_ = source_size;
  }
};

const std::uint8_t* decode_value(decode_state& st, const std::uint8_t* element, std::uint8_t type,
                                 const std::uint8_t* p, const std::uint8_t* end, arena& a,
                                 node& out) {
  decode_options options;
  options.validate_utf8 = st.validate_utf8;
  options.max_depth = st.max_depth;
  options.duplicate_keys = st.duplicate_keys;
  // The walk's bottom frame stands for the enclosing document, the st.depth-th level open.
  const std::size_t depth_base = st.depth == 0 ? 0 : st.depth - 1;
  scratch_lease scratch;
  const std::ptrdiff_t size = claimed_value_size(type, p, static_cast<std::size_t>(end - p));
  if (size < 0) [[unlikely]] {
    // Its own length fields do not fit: nothing to copy. The validating walk says why.
    decoder<false> d(p, 0, nullptr, options, nullptr, scratch.get(), st.origin, depth_base);
    if (d.run_value(type, element, end, nullptr) == nullptr) {
      st.err = std::move(d.failure());
    } else {
      st.err =
          error(error_code::invalid_length, "value's length fields disagree", st.offset(element));
    }
    return nullptr;
  }
  // The nodes point into one copy of the value's bytes, as a decoded document's into its input's.
  auto* copy = static_cast<std::uint8_t*>(a.allocate(static_cast<std::size_t>(size), 8));
  if (size != 0) std::memcpy(copy, p, static_cast<std::size_t>(size));
  decoder<true> d(p, static_cast<std::size_t>(size), copy, options, &a, scratch.get(), st.origin,
                  depth_base);
  const std::uint8_t* next = d.run_value(type, element, end, &out);
  if (next == nullptr) [[unlikely]]
    st.err = std::move(d.failure());
  return next;
}

}  // namespace detail

namespace {

result<document> decode_into_arena(std::span<const std::uint8_t> bytes,
                                   const decode_options& options, bool pooled) {
  if (!envelope_ok(bytes, options)) [[unlikely]]
    return check_envelope(bytes, options).error();
  std::pmr::memory_resource* upstream =
      options.memory != nullptr ? options.memory : detail::default_block_resource();
  // Room for the input copy plus the nodes of a typical document (32 bytes per element of usually
  // 8-20 encoded bytes); the arena grows in blocks when a document has smaller elements.
  detail::arena_ptr a(detail::arena::create(upstream, bytes.size() * 4 + 64, pooled));
  auto* copy = static_cast<std::uint8_t*>(a->allocate(bytes.size(), 8));
  std::memcpy(copy, bytes.data(), bytes.size());

  container root{};
  scratch_lease scratch;
  decoder<true> d(bytes.data(), bytes.size(), copy, options, a.get(), scratch.get());
  if (!d.run(&root)) [[unlikely]]
    return std::move(d.failure());
  document out;
  detail::document_adopter::adopt(out, std::move(a), root, bytes.size());
  return out;
}

}  // namespace

// Decode never throws: an allocation that fails (the arena's upstream refusing a block, the
// scratch stacks or an error message failing to grow) ends the decode with out_of_memory.
result<document> decode_document(std::span<const std::uint8_t> bytes,
                                 const decode_options& options) {
  try {
    return decode_into_arena(bytes, options, true);
  } catch (const std::bad_alloc&) {
    return detail::out_of_memory_error();
  }
}

result<document> detail::decode_document_unpooled(std::span<const std::uint8_t> bytes,
                                                  const decode_options& options) {
  try {
    return decode_into_arena(bytes, options, false);
  } catch (const std::bad_alloc&) {
    return detail::out_of_memory_error();
  }
}

result<void> validate_document(std::span<const std::uint8_t> bytes, const decode_options& options) {
  if (!envelope_ok(bytes, options)) [[unlikely]]
    return check_envelope(bytes, options);
  try {
    scratch_lease scratch;
    decoder<false> d(bytes.data(), bytes.size(), nullptr, options, nullptr, scratch.get());
    if (!d.run(nullptr)) return std::move(d.failure());
    return {};
  } catch (const std::bad_alloc&) {
    return detail::out_of_memory_error();
  }
}

result<document_view> document_view::from_bytes(std::span<const std::uint8_t> bytes,
                                                const decode_options& options) {
  if (auto r = validate_document(bytes, options); !r) return std::move(r).error();
  return document_view(bytes);
}

}  // namespace bsongen
