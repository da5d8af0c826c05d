#pragma once

// A std::pmr::memory_resource that counts the allocations it hands out and takes them from the
// heap, so a test can tell which allocations went to which resource (pmr_struct_test, and
// combinations_pmr_test as the default resource while decoding onto arenas).

#include <cstddef>
#include <memory_resource>

namespace bsongen::test {

class counting_resource final : public std::pmr::memory_resource {
 public:
  std::size_t allocations = 0;

 private:
  void* do_allocate(std::size_t size, std::size_t alignment) override {
    ++allocations;
    return std::pmr::new_delete_resource()->allocate(size, alignment);
  }
  void do_deallocate(void* p, std::size_t size, std::size_t alignment) override {
    std::pmr::new_delete_resource()->deallocate(p, size, alignment);
  }
  [[nodiscard]] bool do_is_equal(const memory_resource& other) const noexcept override {
    return this == &other;
  }
};

}  // namespace bsongen::test
