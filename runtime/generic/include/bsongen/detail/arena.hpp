#pragma once

// arena: the bump allocator every generic document owns.
//
// A decoded document copies its input once into its arena and points into that copy, so the
// arena is what makes "one allocation per document, none per value" true. The arena object
// itself lives at the start of its first block: creating a document costs one upstream call.
//
// Blocks come from a std::pmr::memory_resource, by default default_block_resource(). In unpooled
// mode every allocate() is its own upstream call,
// which is the `generic_nopool` benchmark baseline, not a mode for production use. An arena over
// shared_arena_memory (create_shared) takes every part straight from that memory and returns
// none: the memory is freed all at once when its last hold is released.
//
// Lifetime: everything allocated from an arena, every arena adopted by it and every hold handed
// to it lives until destroy(). The upstream resource must outlive the arena.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <memory_resource>
#include <new>
#include <string_view>
#include <utility>

namespace bsongen::detail {

// Where arena blocks come from by default: a process-wide resource that keeps a few recently
// freed blocks per size class in a thread-local cache (so decoding a stream of small documents
// does not call malloc/free per document) and passes everything else to new/delete. Blocks may be
// freed on another thread than the one that allocated them. Thread-safe; never destroyed.
[[nodiscard]] std::pmr::memory_resource* default_block_resource() noexcept;

// Memory many values draw from and that is freed all at once: the `any` values of one generated
// decode share one (runtime/generic/src/value_wire.cpp), so a value costs bump allocations and
// one hold, not an arena or a block of its own nor a free per part. Whoever keeps parts in it
// (a value_storage, or an arena it was handed to) holds it: hold() once, release() once.
class shared_arena_memory : public std::pmr::memory_resource {
 public:
  virtual void hold() noexcept = 0;
  virtual void release() noexcept = 0;

  // n bytes aligned to `align` (a power of two): a bump of the current chunk, inline, or a new
  // chunk from grow(). What allocate() does too, without its virtual call: an `any` value takes
  // two or three parts, and the call was as dear as the bump.
  [[nodiscard]] void* bump(std::size_t n, std::size_t align) {
    const auto at =
        (reinterpret_cast<std::uintptr_t>(cursor_) + (align - 1)) & ~(std::uintptr_t{align} - 1);
    if (at + n <= reinterpret_cast<std::uintptr_t>(end_)) [[likely]] {
      cursor_ = reinterpret_cast<std::byte*>(at + n);
      return reinterpret_cast<void*>(at);
    }
    return grow(n, align);
  }

 protected:
  ~shared_arena_memory() override = default;
  // Makes a chunk with room for n bytes at `align` the current one (cursor_, end_) and returns
  // them from it.
  virtual void* grow(std::size_t n, std::size_t align) = 0;
  void* do_allocate(std::size_t n, std::size_t align) final { return bump(n, align); }
  // Parts are never returned one by one: they go all at once with the last hold.
  void do_deallocate(void*, std::size_t, std::size_t) final {}
  [[nodiscard]] bool do_is_equal(const std::pmr::memory_resource& other) const noexcept final {
    return this == &other;
  }

  std::byte* cursor_ = nullptr;  // the current chunk's free bytes: [cursor_, end_)
  std::byte* end_ = nullptr;
};

class arena {
 public:
  // Creates an arena whose first block has room for at least `first_block_bytes` bytes.
  // Throws std::bad_alloc when the upstream resource does.
  [[nodiscard]] static arena* create(std::pmr::memory_resource* upstream,
                                     std::size_t first_block_bytes, bool pooled = true);
  // Creates an arena (itself and every part) in `memory`, which owns it: it takes no hold, is
  // never destroy()ed, and its parts live as long as the memory (as long as their holders hold
  // it). Throws std::bad_alloc when the memory does.
  [[nodiscard]] static arena* create_shared(shared_arena_memory* memory);
  // Frees every block, every unpooled allocation and every adopted arena, releases every hold
  // handed to it, then frees the arena itself. Not for a create_shared arena.
  static void destroy(arena* a) noexcept;

  arena(const arena&) = delete;
  arena& operator=(const arena&) = delete;

  // Uninitialized storage for n bytes aligned to `align` (a power of two, at most 16).
  [[nodiscard]] void* allocate(std::size_t n, std::size_t align = 8) {
    if (pooled_) [[likely]] {
      auto p =
          (reinterpret_cast<std::uintptr_t>(cursor_) + (align - 1)) & ~(std::uintptr_t{align} - 1);
      auto* aligned = reinterpret_cast<std::byte*>(p);
      if (aligned <= end_ && static_cast<std::size_t>(end_ - aligned) >= n) {
        cursor_ = aligned + n;
        return aligned;
      }
    } else if (shared_) {
      return static_cast<shared_arena_memory*>(upstream_)->bump(n, align);
    }
    return allocate_slow(n, align);
  }

  template <class T>
  [[nodiscard]] T* allocate_array(std::size_t count) {
    return static_cast<T*>(allocate(count * sizeof(T), alignof(T)));
  }

  // A copy of `s` followed by a NUL byte; returns the copy's first byte.
  [[nodiscard]] char* copy_string(std::string_view s) {
    auto* out = static_cast<char*>(allocate(s.size() + 1, 1));
    if (!s.empty()) std::memcpy(out, s.data(), s.size());
    out[s.size()] = '\0';
    return out;
  }

  // Keeps `child` alive until this arena is destroyed (so nodes can point into it without a copy).
  void adopt(arena* child) noexcept {
    child->adopted_next_ = adopted_head_;
    adopted_head_ = child;
  }

  // Takes over the caller's hold on `memory` (so nodes can point into it without a copy) and
  // releases it in destroy(). Throws std::bad_alloc, keeping nothing, when a link for it cannot be
  // allocated.
  void adopt_hold(shared_arena_memory* memory);

  [[nodiscard]] std::pmr::memory_resource* upstream() const noexcept { return upstream_; }
  [[nodiscard]] bool pooled() const noexcept { return pooled_; }

 private:
  struct block_header {
    block_header* next;
    std::size_t size;  // bytes of the whole block, header included
  };
  struct held_memory {  // a hold adopt_hold() took over, allocated from this arena
    shared_arena_memory* memory;
    held_memory* next;
  };

  arena(std::pmr::memory_resource* upstream, bool pooled, bool shared) noexcept
      : upstream_(upstream), pooled_(pooled), shared_(shared) {}
  void* allocate_slow(std::size_t n, std::size_t align);  // an owned arena's (not shared_)

  std::byte* cursor_ = nullptr;
  std::byte* end_ = nullptr;
  block_header* blocks_ = nullptr;  // blocks after the first, newest first
  std::size_t first_block_size_ = 0;
  std::size_t next_block_size_ = 0;
  std::pmr::memory_resource* upstream_;
  arena* adopted_head_ = nullptr;
  arena* adopted_next_ = nullptr;
  held_memory* held_ = nullptr;  // newest first
  bool pooled_;
  bool shared_;  // upstream_ is a shared_arena_memory: parts are never returned one by one
};

struct arena_deleter {
  void operator()(arena* a) const noexcept { arena::destroy(a); }
};
using arena_ptr = std::unique_ptr<arena, arena_deleter>;

// Where a bsongen::value keeps its variable-length parts: nowhere (scalars), an arena of its own
// (values built or moved in from documents), or shared memory it holds (values an `any` field
// decoded: no arena object per value, only a hold). Move-only; releases what it keeps when
// destroyed or reset.
class value_storage {
 public:
  value_storage() noexcept = default;
  explicit value_storage(arena* owned) noexcept : bits_(reinterpret_cast<std::uintptr_t>(owned)) {}
  // Keeps a hold on `memory` that the caller has taken for it.
  [[nodiscard]] static value_storage holding(shared_arena_memory* memory) noexcept {
    value_storage s;
    s.bits_ = reinterpret_cast<std::uintptr_t>(memory) | shared_tag;
    return s;
  }
  value_storage(value_storage&& other) noexcept : bits_(std::exchange(other.bits_, 0)) {}
  value_storage& operator=(value_storage&& other) noexcept {
    if (this != &other) {
      reset();
      bits_ = std::exchange(other.bits_, 0);
    }
    return *this;
  }
  ~value_storage() { reset(); }

  void reset() noexcept {
    if (bits_ != 0) release(std::exchange(bits_, 0));
  }
  explicit operator bool() const noexcept { return bits_ != 0; }
  // The arena of its own, or nullptr.
  [[nodiscard]] arena* owned() const noexcept {
    return (bits_ & shared_tag) != 0 ? nullptr : reinterpret_cast<arena*>(bits_);
  }
  // Hands what it keeps over to `a`, whose destroy() then frees or releases it; keeps it when
  // that throws (std::bad_alloc).
  void hand_to(arena& a);

 private:
  // Both arena and shared_arena_memory are aligned to at least 8, so the low bit is free.
  static constexpr std::uintptr_t shared_tag = 1;
  static void release(std::uintptr_t bits) noexcept;

  std::uintptr_t bits_ = 0;
};

}  // namespace bsongen::detail
