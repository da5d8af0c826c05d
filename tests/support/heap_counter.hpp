#pragma once

// What the heap holds, for the tests that bound memory without depending on RSS or timing. An
// executable gets these figures by linking `bsongen_test_heap_counter`, whose one source replaces
// the global operator new/delete (so link it only into executables that want that).
//
// Every figure counts the sizes callers asked for, over all threads: the arena, scratch stacks,
// error messages, simdjson's buffers, GoogleTest's own allocations.

#include <cstddef>

namespace bsongen::test::heap {

[[nodiscard]] std::size_t live_bytes() noexcept;       // allocated and not yet freed
[[nodiscard]] std::size_t peak_bytes() noexcept;       // the most live_bytes since reset_peak()
[[nodiscard]] std::size_t allocated_bytes() noexcept;  // every allocation's size, never decremented
[[nodiscard]] std::size_t allocations() noexcept;      // how many allocations were made
void reset_peak() noexcept;                            // peak_bytes() = live_bytes()

// Fault injection: after `allowed` more allocations succeed, every later one fails (throwing
// operator new throws std::bad_alloc, the nothrow forms return nullptr) until the scope ends.
// Over all threads; one scope at a time.
class failing_after {
 public:
  explicit failing_after(std::size_t allowed) noexcept;
  ~failing_after();
  failing_after(const failing_after&) = delete;
  failing_after& operator=(const failing_after&) = delete;
  // How many allocations were refused so far.
  [[nodiscard]] std::size_t refused() const noexcept;
};

// Heap use of one call: bytes allocated in total, the peak above what was live before it, what
// is still live after it returned (and its results were dropped), and the number of allocations.
struct use {
  std::size_t allocated = 0;
  std::size_t peak = 0;
  std::ptrdiff_t retained = 0;
  std::size_t allocations = 0;
};

template <class F>
use measure(F&& call) {
  const std::size_t live_before = live_bytes();
  const std::size_t allocated_before = allocated_bytes();
  const std::size_t count_before = allocations();
  reset_peak();
  static_cast<F&&>(call)();
  return {allocated_bytes() - allocated_before, peak_bytes() - live_before,
          static_cast<std::ptrdiff_t>(live_bytes()) - static_cast<std::ptrdiff_t>(live_before),
          allocations() - count_before};
}

}  // namespace bsongen::test::heap
