#include "bsongen/pool.hpp"

#include <algorithm>
#include <limits>
#include <new>

namespace bsongen {

// Sits at the start of every block; chunks begin at the next granule boundary after it.
struct pool_resource::block_header {
  block_header* next;
  std::size_t size;  // bytes taken from the upstream, header included
};

// Sits immediately before the caller's pointer of every large allocation.
struct pool_resource::large_header {
  large_header* prev;
  large_header* next;
  std::size_t size;       // bytes taken from the upstream, header and padding included
  std::size_t alignment;  // alignment asked of the upstream; also fixes the header's offset
};

namespace {

constexpr std::size_t round_up(std::size_t n, std::size_t alignment) noexcept {
  return (n + alignment - 1) & ~(alignment - 1);
}

}  // namespace

pool_resource::pool_resource(std::pmr::memory_resource* upstream, pool_options options) noexcept
    : upstream_(upstream), options_(options) {
  // A block must hold its header and at least one chunk of the largest class, or a refill could
  // loop forever; a cap below the start would stop growth entirely.
  const std::size_t smallest = round_up(sizeof(block_header), granule) + max_small_size;
  options_.initial_block_size = std::max(options_.initial_block_size, smallest);
  options_.max_block_size = std::max(options_.max_block_size, options_.initial_block_size);
  next_block_size_ = options_.initial_block_size;
}

void pool_resource::release() noexcept {
  while (blocks_ != nullptr) {
    block_header* next = blocks_->next;
    upstream_->deallocate(blocks_, blocks_->size, granule);
    blocks_ = next;
  }
  while (large_ != nullptr) {
    large_header* next = large_->next;
    free_large(large_);
    large_ = next;
  }
  free_lists_.fill(nullptr);
  cursor_ = nullptr;
  end_ = nullptr;
  next_block_size_ = options_.initial_block_size;
  upstream_bytes_ = 0;
}

void* pool_resource::allocate_from_new_block(std::size_t chunk) {
  // The tail of the current block is too short for this chunk but still a whole number of
  // granules: keep it on the free list of its own class rather than leaking it until release().
  if (const auto leftover = static_cast<std::size_t>(end_ - cursor_); leftover >= granule) {
    const std::size_t index = leftover / granule - 1;
    free_lists_[index] = ::new (cursor_) free_chunk{free_lists_[index]};
  }

  const std::size_t size = next_block_size_;
  auto* base = static_cast<std::byte*>(upstream_->allocate(size, granule));
  blocks_ = ::new (base) block_header{blocks_, size};
  upstream_bytes_ += size;
  next_block_size_ = std::min(size * 2, options_.max_block_size);

  cursor_ = base + round_up(sizeof(block_header), granule);
  end_ = cursor_ + (size - round_up(sizeof(block_header), granule)) / granule * granule;
  std::byte* p = cursor_;
  cursor_ += chunk;
  return p;
}

void* pool_resource::allocate_large(std::size_t bytes, std::size_t alignment) {
  const std::size_t align = std::max(alignment, granule);
  const std::size_t offset = round_up(sizeof(large_header), align);
  if (bytes > std::numeric_limits<std::size_t>::max() - offset) throw std::bad_alloc();
  const std::size_t size = offset + bytes;
  auto* base = static_cast<std::byte*>(upstream_->allocate(size, align));
  std::byte* user = base + offset;
  auto* header = ::new (user - sizeof(large_header)) large_header{nullptr, large_, size, align};
  if (large_ != nullptr) large_->prev = header;
  large_ = header;
  upstream_bytes_ += size;
  return user;
}

void pool_resource::deallocate_large(void* p, std::size_t /*bytes*/,
                                     std::size_t /*alignment*/) noexcept {
  auto* header = reinterpret_cast<large_header*>(static_cast<std::byte*>(p) - sizeof(large_header));
  if (header->prev != nullptr) {
    header->prev->next = header->next;
  } else {
    large_ = header->next;
  }
  if (header->next != nullptr) header->next->prev = header->prev;
  upstream_bytes_ -= header->size;
  free_large(header);
}

void pool_resource::free_large(large_header* header) noexcept {
  const std::size_t offset = round_up(sizeof(large_header), header->alignment);
  std::byte* base = reinterpret_cast<std::byte*>(header + 1) - offset;
  upstream_->deallocate(base, header->size, header->alignment);
}

}  // namespace bsongen
