#pragma once

// pool_resource: the arena behind small heap-held BSON values (ObjectId, Decimal128, generic
// document nodes, decoded containers).
//
// A std::pmr::memory_resource with size classes of 16-byte granules up to 256 bytes, carved from
// blocks taken from an upstream resource. A freed small chunk goes on its class's free list and is
// handed out again; release() returns every block and every large allocation to the upstream in
// one step, so a decode can drop everything it built without visiting each node.
//
//   bsongen::pool_resource arena;                      // upstream:
//   std::pmr::get_default_resource() std::pmr::vector<bsongen::object_id> ids(&arena);
//   ...
//   arena.release();                                   // every pointer into the arena now dangles
//
// Why a hand-written pool (bench/alloc_bench.cpp, alloc_<case>_1000/*/decode): it ties
// std::pmr::monotonic_buffer_resource on a decode-then-release cycle and, unlike it, reuses freed
// chunks, which an edited generic document needs; std::pmr::unsynchronized_pool_resource is
// about 1.8x slower there and new/delete about 2.4x.
//
// Contracts:
// - Not thread-safe: one pool per decode / per thread, like std::pmr::unsynchronized_pool_resource.
// - Requests larger than max_small_size or aligned beyond granule pass through to the upstream,
//   each with a small header so release() can still return them.
// - deallocate() must be given the same size and alignment as the matching allocate(), as the
//   memory_resource contract requires: the size picks the free list.
// - The pool is neither copyable nor movable (containers hold a pointer to it); destroying it
//   releases everything.
// - Allocation failure in the upstream throws (std::bad_alloc from new_delete_resource), as every
//   pmr resource does.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory_resource>

namespace bsongen {

struct pool_options {
  // Bytes of the first block taken from the upstream; later blocks double up to max_block_size.
  std::size_t initial_block_size = 4096;
  std::size_t max_block_size = 64 * 1024;
};

class pool_resource final : public std::pmr::memory_resource {
 public:
  // Every small chunk is a whole number of granules and starts on a granule boundary, which
  // covers alignof(std::max_align_t) on the targets we build for.
  static constexpr std::size_t granule = 16;
  static constexpr std::size_t max_small_size = 256;
  static constexpr std::size_t class_count = max_small_size / granule;
  static_assert(granule >= alignof(std::max_align_t),
                "small chunks must suit any fundamental type");

  pool_resource() noexcept : pool_resource(std::pmr::get_default_resource()) {}
  // `upstream` must outlive the pool.
  explicit pool_resource(std::pmr::memory_resource* upstream, pool_options options = {}) noexcept;
  pool_resource(const pool_resource&) = delete;
  pool_resource& operator=(const pool_resource&) = delete;
  ~pool_resource() override { release(); }

  // Returns every block and large allocation to the upstream. All memory handed out before is
  // invalid afterwards; the pool stays usable and starts again from initial_block_size.
  void release() noexcept;

  [[nodiscard]] std::pmr::memory_resource* upstream_resource() const noexcept { return upstream_; }
  // Bytes currently held from the upstream (blocks and large allocations, headers included).
  [[nodiscard]] std::size_t bytes_from_upstream() const noexcept { return upstream_bytes_; }

 protected:
  // The hot path is here in the header so a caller holding a pool_resource& (the class is final)
  // gets a devirtualized, inlined free-list pop or bump.
  void* do_allocate(std::size_t bytes, std::size_t alignment) override {
    if (bytes <= max_small_size && alignment <= granule) [[likely]] {
      const std::size_t index = class_index(bytes);
      if (free_chunk* head = free_lists_[index]) {
        free_lists_[index] = head->next;
        return head;
      }
      const std::size_t chunk = (index + 1) * granule;
      if (static_cast<std::size_t>(end_ - cursor_) >= chunk) [[likely]] {
        std::byte* p = cursor_;
        cursor_ += chunk;
        return p;
      }
      return allocate_from_new_block(chunk);
    }
    return allocate_large(bytes, alignment);
  }

  void do_deallocate(void* p, std::size_t bytes, std::size_t alignment) override {
    if (bytes <= max_small_size && alignment <= granule) [[likely]] {
      const std::size_t index = class_index(bytes);
      free_lists_[index] = ::new (p) free_chunk{free_lists_[index]};
      return;
    }
    deallocate_large(p, bytes, alignment);
  }

  [[nodiscard]] bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override {
    return this == &other;
  }

 private:
  struct free_chunk {
    free_chunk* next;
  };
  struct block_header;
  struct large_header;

  // 0 bytes shares the 16-byte class: every allocation gets a distinct address.
  [[nodiscard]] static constexpr std::size_t class_index(std::size_t bytes) noexcept {
    return bytes == 0 ? 0 : (bytes - 1) / granule;
  }

  void* allocate_from_new_block(std::size_t chunk);
  void* allocate_large(std::size_t bytes, std::size_t alignment);
  void deallocate_large(void* p, std::size_t bytes, std::size_t alignment) noexcept;
  void free_large(large_header* header) noexcept;

  std::pmr::memory_resource* upstream_;
  pool_options options_;
  std::byte* cursor_ = nullptr;  // next free byte of the current block
  std::byte* end_ = nullptr;     // one past the current block
  std::array<free_chunk*, class_count> free_lists_{};
  block_header* blocks_ = nullptr;  // singly linked, newest first
  large_header* large_ = nullptr;   // doubly linked so a single large free is O(1)
  std::size_t next_block_size_;
  std::size_t upstream_bytes_ = 0;
};

}  // namespace bsongen
