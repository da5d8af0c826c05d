#include "bsongen/detail/arena.hpp"

#include <algorithm>
#include <bit>

namespace bsongen::detail {

namespace {
constexpr std::size_t block_alignment = 16;
constexpr std::size_t min_block_size = 512;
constexpr std::size_t max_growth_block_size = std::size_t{1} << 20;

std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) & ~(to - 1); }
}  // namespace

}  // namespace bsongen::detail

namespace bsongen::detail {
namespace {

// Size classes of powers of two from 64 B to 1 MiB; each thread keeps a few free blocks per class
// (per_class). Larger blocks, and blocks beyond that, go straight to new/delete. The small classes
// serve values' arenas (arena::create_exact: a value holding a short string takes a 128-byte
// block, never more than twice what it needs) and keep more blocks, since one document decodes
// many values: a malloc and a free per value were a third of decoding `any` fields.
constexpr std::size_t min_class_shift = 6;  // 64 B
constexpr std::size_t class_count = 15;     // 64 B .. 1 MiB
constexpr std::size_t small_classes = 3;    // 64, 128, 256 B
constexpr std::uint8_t per_class(std::size_t c) noexcept { return c < small_classes ? 32 : 4; }

struct free_block {
  free_block* next;
};

// Trivially destructible, so every access is a plain thread-local load (no init guard); the
// cached blocks are returned at thread exit by cache_owner, registered on first use.
struct thread_cache {
  free_block* heads[class_count];
  std::uint8_t counts[class_count];
  bool owner_registered;
  bool gone;  // this thread's cache_owner has run: cache nothing more
};
thread_local thread_cache cache{};

constexpr std::size_t class_bytes(std::size_t c) noexcept {
  return std::size_t{1} << (c + min_class_shift);
}
// The smallest class holding `bytes`, or class_count when none does.
std::size_t class_of(std::size_t bytes) noexcept {
  if (bytes <= class_bytes(0)) return 0;
  const std::size_t c = static_cast<std::size_t>(std::bit_width(bytes - 1)) - min_class_shift;
  return c < class_count ? c : class_count;
}

struct cache_owner {
  ~cache_owner() {
    cache.gone = true;
    for (std::size_t c = 0; c < class_count; ++c) {
      for (free_block* b = cache.heads[c]; b != nullptr;) {
        free_block* next = b->next;
        ::operator delete (static_cast<void*>(b), std::align_val_t{block_alignment});
        b = next;
      }
      cache.heads[c] = nullptr;
      cache.counts[c] = 0;
    }
  }
};

void* cached_allocate(std::size_t bytes) {
  const std::size_t c = class_of(bytes);
  if (c == class_count) return ::operator new (bytes, std::align_val_t{block_alignment});
  if (free_block* b = cache.heads[c]) {
    cache.heads[c] = b->next;
    --cache.counts[c];
    return b;
  }
  return ::operator new (class_bytes(c), std::align_val_t{block_alignment});
}

void cached_deallocate(void* p, std::size_t bytes) noexcept {
  const std::size_t c = class_of(bytes);
  if (c == class_count) {
    ::operator delete (p, std::align_val_t{block_alignment});
    return;
  }
  if (cache.counts[c] < per_class(c) && !cache.gone) {
    if (!cache.owner_registered) [[unlikely]] {
      cache.owner_registered = true;
      thread_local cache_owner owner;  // constructed once; its destructor empties the cache
      (void)owner;
    }
    cache.heads[c] = ::new (p) free_block{cache.heads[c]};
    ++cache.counts[c];
    return;
  }
  ::operator delete (p, std::align_val_t{block_alignment});
}

class block_cache_resource final : public std::pmr::memory_resource {
  void* do_allocate(std::size_t bytes, std::size_t alignment) override {
    if (alignment > block_alignment) return ::operator new (bytes, std::align_val_t{alignment});
    return cached_allocate(bytes);
  }
  void do_deallocate(void* p, std::size_t bytes, std::size_t alignment) override {
    if (alignment > block_alignment) {
      ::operator delete (p, std::align_val_t{alignment});
      return;
    }
    cached_deallocate(p, bytes);
  }
  [[nodiscard]] bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override {
    return this == &other;
  }
};

// Constant-initialized, so it exists before any dynamic initializer runs. Blocks freed after its
// destructor ran (documents in static storage) still work: the arena recognizes the address and
// calls cached_deallocate, which does not touch the object.
constinit block_cache_resource default_instance;
std::pmr::memory_resource* const default_resource = &default_instance;

// The default resource hands out whole size classes: use all of the block.
std::size_t usable_block_size(std::pmr::memory_resource* upstream, std::size_t bytes) noexcept {
  if (upstream != default_resource) return bytes;
  const std::size_t c = class_of(bytes);
  return c == class_count ? bytes : class_bytes(c);
}

// Blocks from the default resource skip the virtual call.
void* upstream_allocate(std::pmr::memory_resource* upstream, std::size_t bytes) {
  if (upstream == default_resource) return cached_allocate(bytes);
  return upstream->allocate(bytes, block_alignment);
}

void upstream_deallocate(std::pmr::memory_resource* upstream, void* p, std::size_t bytes) noexcept {
  if (upstream == default_resource) {
    cached_deallocate(p, bytes);
  } else {
    upstream->deallocate(p, bytes, block_alignment);
  }
}

}  // namespace

std::pmr::memory_resource* default_block_resource() noexcept { return default_resource; }

}  // namespace bsongen::detail

namespace bsongen::detail {

arena* arena::create(std::pmr::memory_resource* upstream, std::size_t first_block_bytes,
                     bool pooled) {
  const std::size_t header = round_up(sizeof(arena), block_alignment);
  const std::size_t requested = header + (pooled ? std::max(first_block_bytes, min_block_size) : 0);
  const std::size_t total = usable_block_size(upstream, requested);
  void* block = upstream_allocate(upstream, total);
  auto* a = ::new (block) arena(upstream, pooled);
  a->first_block_size_ = total;
  a->cursor_ = static_cast<std::byte*>(block) + header;
  a->end_ = static_cast<std::byte*>(block) + total;
  a->next_block_size_ = std::min(std::max(total * 2, min_block_size), max_growth_block_size);
  return a;
}

arena* arena::create_exact(std::pmr::memory_resource* upstream, std::size_t bytes) {
  const std::size_t header = round_up(sizeof(arena), block_alignment);
  const std::size_t total = usable_block_size(upstream, header + round_up(bytes, block_alignment));
  void* block = upstream_allocate(upstream, total);
  auto* a = ::new (block) arena(upstream, true);
  a->first_block_size_ = total;
  a->cursor_ = static_cast<std::byte*>(block) + header;
  a->end_ = static_cast<std::byte*>(block) + total;
  a->next_block_size_ = std::min(std::max(total * 2, min_block_size), max_growth_block_size);
  return a;
}

void arena::destroy(arena* a) noexcept {
  // Iterative: a document built by nesting 100,000 moved-in levels adopts a chain that deep.
  // `pending` is a stack threaded through adopted_next_ (a root arena is adopted by no one).
  arena* pending = a;
  while (pending != nullptr) {
    arena* current = pending;
    pending = current->adopted_next_;
    for (arena* child = current->adopted_head_; child != nullptr;) {
      arena* next = child->adopted_next_;
      child->adopted_next_ = pending;
      pending = child;
      child = next;
    }
    std::pmr::memory_resource* upstream = current->upstream_;
    for (block_header* b = current->blocks_; b != nullptr;) {
      block_header* next = b->next;
      upstream_deallocate(upstream, b, b->size);
      b = next;
    }
    const std::size_t first = current->first_block_size_;
    current->~arena();
    upstream_deallocate(upstream, current, first);
  }
}

void* arena::allocate_slow(std::size_t n, std::size_t align) {
  const std::size_t header = round_up(sizeof(block_header), block_alignment);
  if (!pooled_) {
    // One upstream call per allocation, linked so destroy() can return it.
    const std::size_t total = header + n;
    void* raw = upstream_allocate(upstream_, total);
    blocks_ = ::new (raw) block_header{blocks_, total};
    return static_cast<std::byte*>(raw) + header;
  }
  const std::size_t size =
      usable_block_size(upstream_, std::max(next_block_size_, header + n + align));
  void* raw = upstream_allocate(upstream_, size);
  blocks_ = ::new (raw) block_header{blocks_, size};
  next_block_size_ = std::min(next_block_size_ * 2, max_growth_block_size);
  cursor_ = static_cast<std::byte*>(raw) + header;
  end_ = static_cast<std::byte*>(raw) + size;
  auto p = (reinterpret_cast<std::uintptr_t>(cursor_) + (align - 1)) & ~(std::uintptr_t{align} - 1);
  auto* aligned = reinterpret_cast<std::byte*>(p);
  cursor_ = aligned + n;
  return aligned;
}

}  // namespace bsongen::detail
