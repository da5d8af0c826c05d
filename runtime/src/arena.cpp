#include "bsongen/detail/arena.hpp"

#include <algorithm>

namespace bsongen::detail {

namespace {
constexpr std::size_t block_alignment = 16;
constexpr std::size_t min_block_size = 512;
constexpr std::size_t max_growth_block_size = std::size_t{1} << 20;

std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) & ~(to - 1); }
}  // namespace

arena* arena::create(std::pmr::memory_resource* upstream, std::size_t first_block_bytes, bool pooled) {
  const std::size_t header = round_up(sizeof(arena), block_alignment);
  const std::size_t total = header + (pooled ? std::max(first_block_bytes, min_block_size) : 0);
  void* block = upstream->allocate(total, block_alignment);
  auto* a = ::new (block) arena(upstream, pooled);
  a->first_block_size_ = total;
  a->cursor_ = static_cast<std::byte*>(block) + header;
  a->end_ = static_cast<std::byte*>(block) + total;
  a->next_block_size_ = std::min(std::max(total * 2, min_block_size), max_growth_block_size);
  return a;
}

void arena::destroy(arena* a) noexcept {
  if (a == nullptr) return;
  // Adopted arenas may adopt others in turn; each destroy walks its own list.
  for (arena* child = a->adopted_head_; child != nullptr;) {
    arena* next = child->adopted_next_;
    destroy(child);
    child = next;
  }
  std::pmr::memory_resource* upstream = a->upstream_;
  for (block_header* b = a->blocks_; b != nullptr;) {
    block_header* next = b->next;
    upstream->deallocate(b, b->size, block_alignment);
    b = next;
  }
  const std::size_t first = a->first_block_size_;
  a->~arena();
  upstream->deallocate(a, first, block_alignment);
}

void* arena::allocate_slow(std::size_t n, std::size_t align) {
  const std::size_t header = round_up(sizeof(block_header), block_alignment);
  if (!pooled_) {
    // One upstream call per allocation, linked so destroy() can return it.
    const std::size_t total = header + n;
    void* raw = upstream_->allocate(total, block_alignment);
    blocks_ = ::new (raw) block_header{blocks_, total};
    return static_cast<std::byte*>(raw) + header;
  }
  std::size_t size = std::max(next_block_size_, header + n + align);
  void* raw = upstream_->allocate(size, block_alignment);
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
