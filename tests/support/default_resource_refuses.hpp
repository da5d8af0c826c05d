#pragma once

// While one lives, the default std::pmr resource refuses every allocation (std::bad_alloc), so
// anything that should have used a struct's resource and took the default one fails the test
// (pmr_struct_test, scanned_pmr_test).

#include <memory_resource>

namespace bsongen::test {

class default_resource_refuses {
 public:
  default_resource_refuses()
      : previous_(std::pmr::set_default_resource(std::pmr::null_memory_resource())) {}
  ~default_resource_refuses() { std::pmr::set_default_resource(previous_); }
  default_resource_refuses(const default_resource_refuses&) = delete;
  default_resource_refuses& operator=(const default_resource_refuses&) = delete;

 private:
  std::pmr::memory_resource* previous_;
};

}  // namespace bsongen::test
