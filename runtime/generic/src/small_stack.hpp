#pragma once

// small_stack: the explicit stack the generic path's walks (encode, copy, equality) keep their
// enclosing levels on instead of the C++ stack, so no nesting depth can overflow it.

#include <array>
#include <cstddef>
#include <vector>

namespace bsongen::detail {

// A stack that lives inline up to N entries and moves to the heap beyond.
template <class T, std::size_t N>
class small_stack {
 public:
  void push(const T& v) {
    if (size_ < N) {
      inline_[size_] = v;
    } else {
      if (heap_.size() < size_ - N + 1) heap_.resize(size_ - N + 1);
      heap_[size_ - N] = v;
    }
    ++size_;
  }
  void pop() noexcept { --size_; }
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  [[nodiscard]] T& top() noexcept { return size_ <= N ? inline_[size_ - 1] : heap_[size_ - 1 - N]; }

 private:
  std::array<T, N> inline_;
  std::vector<T> heap_;
  std::size_t size_ = 0;
};

}  // namespace bsongen::detail
