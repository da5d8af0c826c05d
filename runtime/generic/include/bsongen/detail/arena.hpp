#pragma once

// arena: the bump allocator every generic document owns.
//
// A decoded document copies its input once into its arena and points into that copy, so the
// arena is what makes "one allocation per document, none per value" true. The arena object
// itself lives at the start of its first block: creating a document costs one upstream call.
//
// Blocks come from a std::pmr::memory_resource, by default default_block_resource(). In unpooled
// mode every allocate() is its own upstream call, which is the `generic_nopool` benchmark
// baseline, not a mode for production use. A value's arena (create_exact) starts with a block of
// about the size its parts need, so a value holding one short string costs a hundred bytes, not
// a whole block: what a value keeps alive is bounded by what it holds.
//
// Lifetime: everything allocated from an arena and every arena adopted by it lives until
// destroy(). The upstream resource must outlive the arena.

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

class arena {
 public:
  // Creates an arena whose first block has room for at least `first_block_bytes` bytes.
  // Throws std::bad_alloc when the upstream resource does.
  [[nodiscard]] static arena* create(std::pmr::memory_resource* upstream,
                                     std::size_t first_block_bytes, bool pooled = true);
  // Creates a pooled arena whose first block holds `bytes` bytes (at 16-byte alignment) beyond the
  // arena itself: no minimum block (the runtime's block resource rounds it up to its size class,
  // less than twice the request; other resources are asked for exactly that). Later blocks grow
  // as create()'s do. Throws std::bad_alloc when the upstream resource does.
  [[nodiscard]] static arena* create_exact(std::pmr::memory_resource* upstream, std::size_t bytes);
  // Frees every block, every unpooled allocation and every adopted arena, then frees the arena
  // itself.
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

  [[nodiscard]] std::pmr::memory_resource* upstream() const noexcept { return upstream_; }
  [[nodiscard]] bool pooled() const noexcept { return pooled_; }

 private:
  struct block_header {
    block_header* next;
    std::size_t size;  // bytes of the whole block, header included
  };
  arena(std::pmr::memory_resource* upstream, bool pooled) noexcept
      : upstream_(upstream), pooled_(pooled) {}
  void* allocate_slow(std::size_t n, std::size_t align);

  std::byte* cursor_ = nullptr;
  std::byte* end_ = nullptr;
  block_header* blocks_ = nullptr;  // blocks after the first, newest first
  std::size_t first_block_size_ = 0;
  std::size_t next_block_size_ = 0;
  std::pmr::memory_resource* upstream_;
  arena* adopted_head_ = nullptr;
  arena* adopted_next_ = nullptr;
  bool pooled_;
};

struct arena_deleter {
  void operator()(arena* a) const noexcept { arena::destroy(a); }
};
using arena_ptr = std::unique_ptr<arena, arena_deleter>;

// Where a bsongen::value keeps its variable-length parts: nowhere (scalars) or an arena of its
// own, sized to those parts. Move-only; frees the arena when destroyed or reset.
class value_storage {
 public:
  value_storage() noexcept = default;
  explicit value_storage(arena* owned) noexcept : arena_(owned) {}
  value_storage(value_storage&& other) noexcept : arena_(std::exchange(other.arena_, nullptr)) {}
  value_storage& operator=(value_storage&& other) noexcept {
    if (this != &other) {
      reset();
      arena_ = std::exchange(other.arena_, nullptr);
    }
    return *this;
  }
  ~value_storage() { reset(); }

  void reset() noexcept {
    if (arena_ != nullptr) arena::destroy(std::exchange(arena_, nullptr));
  }
  explicit operator bool() const noexcept { return arena_ != nullptr; }
  [[nodiscard]] arena* owned() const noexcept { return arena_; }
  // Hands the arena over to `a`, whose destroy() then frees it.
  void hand_to(arena& a) noexcept {
    if (arena_ != nullptr) a.adopt(std::exchange(arena_, nullptr));
  }

 private:
  arena* arena_ = nullptr;
};

}  // namespace bsongen::detail
