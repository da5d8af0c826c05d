#include "bsongen/pool.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <list>
#include <map>
#include <memory_resource>
#include <random>
#include <vector>

#include "bsongen/decimal128.hpp"
#include "bsongen/object_id.hpp"

namespace {

using bsongen::pool_resource;

// An upstream that forwards to new/delete and records every call, so tests can see exactly what
// the pool asks of it. It also checks the pool hands back each block with the size and alignment
// it was allocated with.
class counting_resource final : public std::pmr::memory_resource {
 public:
  std::size_t allocations = 0;
  std::size_t deallocations = 0;
  std::size_t largest_request = 0;

  [[nodiscard]] std::size_t outstanding_bytes() const {
    std::size_t total = 0;
    for (const auto& [p, block] : live_) total += block.bytes;
    return total;
  }
  [[nodiscard]] std::size_t outstanding_blocks() const { return live_.size(); }

 private:
  struct block_info {
    std::size_t bytes;
    std::size_t alignment;
  };

  void* do_allocate(std::size_t bytes, std::size_t alignment) override {
    void* p = std::pmr::new_delete_resource()->allocate(bytes, alignment);
    ++allocations;
    largest_request = std::max(largest_request, bytes);
    live_[p] = {bytes, alignment};
    return p;
  }
  void do_deallocate(void* p, std::size_t bytes, std::size_t alignment) override {
    const auto it = live_.find(p);
    EXPECT_NE(it, live_.end()) << "pool returned a pointer it never got";
    if (it != live_.end()) {
      EXPECT_EQ(it->second.bytes, bytes);
      EXPECT_EQ(it->second.alignment, alignment);
      live_.erase(it);
    }
    ++deallocations;
    std::pmr::new_delete_resource()->deallocate(p, bytes, alignment);
  }
  [[nodiscard]] bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override {
    return this == &other;
  }

  std::map<void*, block_info> live_;
};

bool is_aligned(const void* p, std::size_t alignment) {
  return reinterpret_cast<std::uintptr_t>(p) % alignment == 0;
}

struct live_allocation {
  std::byte* p;
  std::size_t bytes;
  std::size_t alignment;
  std::uint8_t fill;
};

TEST(PoolResource, MixedSizesAndAlignmentsNeverOverlap) {
  counting_resource upstream;
  pool_resource pool(&upstream);
  std::mt19937 rng(12345);
  std::uniform_int_distribution<std::size_t> small_size(0, 300);
  std::uniform_int_distribution<std::size_t> large_size(257, 5000);
  const std::size_t alignments[] = {1, 2, 4, 8, 16, 32, 64, 256};
  std::vector<live_allocation> live;

  for (int round = 0; round < 20'000; ++round) {
    // Free about a third of the time, so the free lists are exercised as much as the bump.
    if (!live.empty() && rng() % 3 == 0) {
      const std::size_t victim = rng() % live.size();
      const live_allocation a = live[victim];
      for (std::size_t i = 0; i < a.bytes; ++i) {
        ASSERT_EQ(static_cast<std::uint8_t>(a.p[i]), a.fill) << "overwritten by another allocation";
      }
      pool.deallocate(a.p, a.bytes, a.alignment);
      live[victim] = live.back();
      live.pop_back();
      continue;
    }
    const std::size_t bytes = rng() % 20 == 0 ? large_size(rng) : small_size(rng);
    const std::size_t alignment = alignments[rng() % std::size(alignments)];
    auto* p = static_cast<std::byte*>(pool.allocate(bytes, alignment));
    ASSERT_TRUE(is_aligned(p, alignment)) << bytes << " bytes aligned " << alignment;
    const auto fill = static_cast<std::uint8_t>(rng());
    std::memset(p, fill, bytes);
    live.push_back({p, bytes, alignment, fill});
  }

  std::vector<live_allocation> sorted = live;
  std::sort(sorted.begin(), sorted.end(),
            [](const live_allocation& a, const live_allocation& b) { return a.p < b.p; });
  for (std::size_t i = 1; i < sorted.size(); ++i) {
    const live_allocation& prev = sorted[i - 1];
    // Zero-byte allocations still own a distinct address, so compare with at least one byte.
    ASSERT_LE(prev.p + std::max<std::size_t>(prev.bytes, 1), sorted[i].p)
        << "allocations of " << prev.bytes << " and " << sorted[i].bytes << " bytes overlap";
  }
  for (const live_allocation& a : live) {
    for (std::size_t i = 0; i < a.bytes; ++i) ASSERT_EQ(static_cast<std::uint8_t>(a.p[i]), a.fill);
  }
}

TEST(PoolResource, FreedChunkIsReusedBySameClassOnly) {
  pool_resource pool;
  void* a = pool.allocate(24, 8);
  pool.deallocate(a, 24, 8);
  void* other_class = pool.allocate(100, 8);
  EXPECT_NE(other_class, a);
  void* same_class = pool.allocate(32, 8);  // 24 and 32 both take two granules
  EXPECT_EQ(same_class, a);
}

TEST(PoolResource, ZeroByteAllocationsGetDistinctAddresses) {
  pool_resource pool;
  void* a = pool.allocate(0, 1);
  void* b = pool.allocate(0, 1);
  EXPECT_NE(a, b);
  pool.deallocate(a, 0, 1);
  pool.deallocate(b, 0, 1);
}

TEST(PoolResource, AlignmentUpToGranuleForSmallAndBeyondForLarge) {
  pool_resource pool;
  for (std::size_t alignment = 1; alignment <= 4096; alignment *= 2) {
    for (std::size_t bytes : {1u, 12u, 16u, 200u, 256u, 257u, 3000u}) {
      void* p = pool.allocate(bytes, alignment);
      EXPECT_TRUE(is_aligned(p, alignment)) << bytes << " bytes aligned " << alignment;
      std::memset(p, 0xAB, bytes);
    }
  }
}

TEST(PoolResource, SmallAllocationsShareUpstreamBlocks) {
  counting_resource upstream;
  pool_resource pool(&upstream, {.initial_block_size = 4096, .max_block_size = 64 * 1024});
  for (int i = 0; i < 1000; ++i)
    (void)pool.allocate(sizeof(bsongen::object_id), alignof(bsongen::object_id));
  // 1000 x 16-byte chunks need 16000 bytes: blocks of 4 KiB then 8 KiB make three upstream calls.
  EXPECT_EQ(upstream.allocations, 3u);
  EXPECT_EQ(upstream.deallocations, 0u);
}

TEST(PoolResource, ReleaseReturnsEverythingInOneStep) {
  counting_resource upstream;
  pool_resource pool(&upstream);
  std::vector<void*> small;
  for (int i = 0; i < 5000; ++i) small.push_back(pool.allocate(16 + i % 200, 8));
  void* large = pool.allocate(10'000, 8);
  void* over_aligned = pool.allocate(64, 128);
  ASSERT_GT(upstream.outstanding_blocks(), 2u);
  EXPECT_EQ(pool.bytes_from_upstream(), upstream.outstanding_bytes());
  (void)large;
  (void)over_aligned;

  const std::size_t blocks_before = upstream.outstanding_blocks();
  const std::size_t deallocations_before = upstream.deallocations;
  pool.release();  // no per-allocation deallocate calls needed
  EXPECT_EQ(upstream.outstanding_blocks(), 0u);
  EXPECT_EQ(upstream.outstanding_bytes(), 0u);
  EXPECT_EQ(upstream.deallocations - deallocations_before, blocks_before);
  EXPECT_EQ(pool.bytes_from_upstream(), 0u);
}

TEST(PoolResource, UsableAgainAfterRelease) {
  counting_resource upstream;
  pool_resource pool(&upstream);
  for (int round = 0; round < 3; ++round) {
    std::pmr::vector<bsongen::decimal128> values(&pool);
    for (int i = 0; i < 1000; ++i)
      values.push_back(bsongen::decimal128(1, static_cast<std::uint64_t>(i)));
    for (int i = 0; i < 1000; ++i)
      ASSERT_EQ(values[static_cast<std::size_t>(i)].low_bits(), static_cast<std::uint64_t>(i));
    values.clear();
    values.shrink_to_fit();
    pool.release();
    EXPECT_EQ(upstream.outstanding_blocks(), 0u) << "round " << round;
  }
  EXPECT_GT(upstream.allocations, 3u);
}

TEST(PoolResource, LargeAllocationsPassThroughAndFreeImmediately) {
  counting_resource upstream;
  pool_resource pool(&upstream);
  void* big = pool.allocate(1 << 20, 8);
  EXPECT_EQ(upstream.allocations, 1u);
  EXPECT_GE(upstream.largest_request, std::size_t{1} << 20);
  EXPECT_LT(upstream.largest_request, (std::size_t{1} << 20) + 256) << "only a small header added";
  std::memset(big, 1, 1 << 20);
  pool.deallocate(big, 1 << 20, 8);
  EXPECT_EQ(upstream.deallocations, 1u);
  EXPECT_EQ(upstream.outstanding_blocks(), 0u);

  // Freeing one large allocation from the middle of the list leaves the others intact.
  void* a = pool.allocate(1000, 8);
  void* b = pool.allocate(2000, 64);
  void* c = pool.allocate(3000, 8);
  pool.deallocate(b, 2000, 64);
  EXPECT_EQ(upstream.outstanding_blocks(), 2u);
  pool.deallocate(a, 1000, 8);
  pool.deallocate(c, 3000, 8);
  EXPECT_EQ(upstream.outstanding_blocks(), 0u);
  EXPECT_EQ(pool.bytes_from_upstream(), 0u);
}

TEST(PoolResource, DestructorReleases) {
  counting_resource upstream;
  {
    pool_resource pool(&upstream);
    (void)pool.allocate(40, 8);
    (void)pool.allocate(4000, 8);
    EXPECT_EQ(upstream.outstanding_blocks(), 2u);
  }
  EXPECT_EQ(upstream.outstanding_blocks(), 0u);
}

TEST(PoolResource, TinyBlockOptionsStillServeTheLargestClass) {
  counting_resource upstream;
  pool_resource pool(&upstream, {.initial_block_size = 1, .max_block_size = 1});
  for (int i = 0; i < 100; ++i) {
    void* p = pool.allocate(pool_resource::max_small_size, 16);
    std::memset(p, 0, pool_resource::max_small_size);
  }
  EXPECT_EQ(upstream.allocations, 100u) << "one block per chunk at the minimum block size";
}

TEST(PoolResource, BacksNodeContainersOfObjectIds) {
  pool_resource pool;
  std::pmr::list<bsongen::object_id> ids(&pool);
  for (std::uint32_t i = 0; i < 1000; ++i) ids.push_back(bsongen::object_id::generate(i));
  std::uint32_t expected = 0;
  for (const auto& id : ids) EXPECT_EQ(id.timestamp(), expected++);
  EXPECT_TRUE(pool.is_equal(pool));
  pool_resource other;
  EXPECT_FALSE(pool.is_equal(other));
  EXPECT_EQ(pool.upstream_resource(), std::pmr::get_default_resource());
}

}  // namespace
