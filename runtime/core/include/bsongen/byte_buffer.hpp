#pragma once

// byte_buffer: an owning, growable run of bytes whose growth does not zero-fill.
//
// std::vector<std::uint8_t>::resize writes zeros that an encoder overwrites immediately; for a
// 13 KB document that memset is a measurable share of encode time. byte_buffer grows without it.
// It owns its array through a plain pointer rather than std::unique_ptr: <memory> costs every
// translation unit that includes a generated header about 0.3 s of compile time (g++ 12).

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <utility>
#include <vector>

namespace bsongen {

class byte_buffer {
 public:
  byte_buffer() = default;
  explicit byte_buffer(std::span<const std::uint8_t> bytes) { assign(bytes); }
  byte_buffer(const byte_buffer& other) { assign(other.span()); }
  byte_buffer& operator=(const byte_buffer& other) {
    if (this != &other) assign(other.span());
    return *this;
  }
  byte_buffer(byte_buffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        capacity_(std::exchange(other.capacity_, 0)) {}
  byte_buffer& operator=(byte_buffer&& other) noexcept {
    if (this != &other) {
      delete[] data_;
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
      capacity_ = std::exchange(other.capacity_, 0);
    }
    return *this;
  }
  ~byte_buffer() { delete[] data_; }

  [[nodiscard]] std::uint8_t* data() noexcept { return data_; }
  [[nodiscard]] const std::uint8_t* data() const noexcept { return data_; }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] std::size_t capacity() const noexcept { return capacity_; }
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }
  [[nodiscard]] std::span<const std::uint8_t> span() const noexcept { return {data_, size_}; }
  operator std::span<const std::uint8_t>() const noexcept { return span(); }  // NOLINT: view
  [[nodiscard]] const std::uint8_t* begin() const noexcept { return data_; }
  [[nodiscard]] const std::uint8_t* end() const noexcept { return data_ + size_; }
  std::uint8_t operator[](std::size_t i) const noexcept { return data_[i]; }
  [[nodiscard]] std::vector<std::uint8_t> to_vector() const { return {begin(), end()}; }

  // Keeps the capacity: a buffer reused across encodes allocates once.
  void clear() noexcept { size_ = 0; }

  void reserve(std::size_t capacity) {
    if (capacity <= capacity_) return;
    auto* grown = new std::uint8_t[capacity];  // default-initialized: no zero fill
    if (size_ != 0) std::memcpy(grown, data_, size_);
    delete[] data_;
    data_ = grown;
    capacity_ = capacity;
  }

  // Grows or shrinks the size; new bytes are uninitialized (callers write them next).
  void resize_uninitialized(std::size_t size) {
    if (size > capacity_) reserve(size > 2 * capacity_ ? size : 2 * capacity_);
    size_ = size;
  }

  void assign(std::span<const std::uint8_t> bytes) {
    size_ = 0;
    reserve(bytes.size());
    if (!bytes.empty()) std::memcpy(data_, bytes.data(), bytes.size());
    size_ = bytes.size();
  }

  friend bool operator==(const byte_buffer& a, const byte_buffer& b) noexcept {
    return a.size_ == b.size_ && (a.size_ == 0 || std::memcmp(a.data(), b.data(), a.size_) == 0);
  }

 private:
  std::uint8_t* data_ = nullptr;  // new[]-allocated, capacity_ bytes, or null
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace bsongen
