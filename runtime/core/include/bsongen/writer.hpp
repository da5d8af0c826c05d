#pragma once

// writer: where encoders put bytes.
//
// Two modes:
//  * growable (default constructed): owns a byte_buffer; clear() keeps its capacity, so one writer
//    reused across encodes allocates only while documents keep growing;
//  * caller buffer (constructed from a span): writes into memory the caller owns and never
//    allocates.
//
// Encoders that know the exact size call extend(n) once and store through the returned pointer
// with detail::store_* (one bounds decision per document, not per value). When a caller buffer
// cannot hold the n bytes, extend returns nullptr and changes nothing: the encoder reports
// buffer_too_small and the writer is as it was before the call (size, contents before that size,
// overflowed()), ready for a smaller document or a retry after clear().
//
// The put_* helpers are for code that does not know sizes up front. The first one that does not
// fit makes the writer overflowed(): from then on every put_* and extend does nothing (returns
// nullptr), so a half-written value is never followed by more bytes. clear() or rewind() ends
// that state. An encoder built on put_* that fails gives the caller the same contract as extend:
// it records position() before writing and calls rewind() with it on any error.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <utility>

#include "bsongen/byte_buffer.hpp"
#include "bsongen/detail/endian.hpp"

namespace bsongen {

class writer {
 public:
  writer() = default;
  explicit writer(std::span<std::uint8_t> caller_buffer) noexcept
      : data_(caller_buffer.data()),
        capacity_(caller_buffer.size()),
        limit_(caller_buffer.size()),
        fixed_(true) {}

  writer(const writer&) = delete;
  writer& operator=(const writer&) = delete;
  // A moved-from writer is empty and growable, as if default constructed.
  writer(writer&& other) noexcept
      : owned_(std::move(other.owned_)),
        data_(std::exchange(other.data_, nullptr)),
        size_(std::exchange(other.size_, 0)),
        capacity_(std::exchange(other.capacity_, 0)),
        limit_(std::exchange(other.limit_, 0)),
        fixed_(std::exchange(other.fixed_, false)),
        overflowed_(std::exchange(other.overflowed_, false)) {}
  writer& operator=(writer&& other) noexcept {
    if (this != &other) {
      owned_ = std::move(other.owned_);
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
      capacity_ = std::exchange(other.capacity_, 0);
      limit_ = std::exchange(other.limit_, 0);
      fixed_ = std::exchange(other.fixed_, false);
      overflowed_ = std::exchange(other.overflowed_, false);
    }
    return *this;
  }
  ~writer() = default;

  // Appends n bytes of uninitialized space and returns where they start. nullptr, with nothing
  // changed, when a caller buffer cannot hold them or the writer has overflowed(). The pointer
  // stays valid until the next call that may grow.
  [[nodiscard]] std::uint8_t* extend(std::size_t n) {
    if (limit_ - size_ >= n) [[likely]] {
      std::uint8_t* p = data_ + size_;
      size_ += n;
      return p;
    }
    return extend_slow(n);
  }

  // Makes room for n more bytes without changing the size (growable mode only; no-op otherwise).
  void reserve(std::size_t n) {
    if (!fixed_ && capacity_ - size_ < n) grow(size_ + n);
  }

  // Forgets the contents, keeps the capacity, and clears overflowed().
  void clear() noexcept { rewind({0, false}); }

  // Where the writer stands; rewind() returns to it.
  struct mark {
    std::size_t size = 0;
    bool overflowed = false;
  };
  [[nodiscard]] mark position() const noexcept { return {size_, overflowed_}; }
  // Drops what was written after `m` and restores its overflowed() state: how an encoder that
  // fails leaves the writer as it found it. Precondition: m came from this writer's position()
  // and nothing since has shrunk the writer below m.size.
  void rewind(mark m) noexcept {
    size_ = m.size;
    overflowed_ = m.overflowed;
    limit_ = overflowed_ ? size_ : capacity_;
  }

  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] std::size_t capacity() const noexcept { return capacity_; }
  [[nodiscard]] std::uint8_t* data() noexcept { return data_; }
  [[nodiscard]] const std::uint8_t* data() const noexcept { return data_; }
  [[nodiscard]] std::span<const std::uint8_t> bytes() const noexcept { return {data_, size_}; }
  [[nodiscard]] bool overflowed() const noexcept { return overflowed_; }
  [[nodiscard]] bool uses_caller_buffer() const noexcept { return fixed_; }

  // Moves the written bytes out (growable mode); the writer is left empty with no capacity.
  // In caller-buffer mode returns a copy of the written bytes.
  [[nodiscard]] byte_buffer take() {
    if (fixed_) return byte_buffer(bytes());
    owned_.resize_uninitialized(size_);
    byte_buffer out = std::move(owned_);
    data_ = nullptr;
    size_ = capacity_ = limit_ = 0;
    return out;
  }

  // Drops bytes written after `size` (used to undo a partially written element). An overflowed
  // writer stays overflowed (see rewind()).
  void truncate(std::size_t size) noexcept {
    if (size < size_) size_ = size;
    if (overflowed_) limit_ = size_;
  }

  // --- Appends for encoders that do not size up front. ---
  void put_u8(std::uint8_t v) {
    if (std::uint8_t* p = claim(1)) *p = v;
  }
  void put_i32(std::int32_t v) {
    if (std::uint8_t* p = claim(4)) detail::store_i32_le(p, v);
  }
  void put_u32(std::uint32_t v) {
    if (std::uint8_t* p = claim(4)) detail::store_u32_le(p, v);
  }
  void put_i64(std::int64_t v) {
    if (std::uint8_t* p = claim(8)) detail::store_i64_le(p, v);
  }
  void put_u64(std::uint64_t v) {
    if (std::uint8_t* p = claim(8)) detail::store_u64_le(p, v);
  }
  void put_f64(double v) {
    if (std::uint8_t* p = claim(8)) detail::store_f64_le(p, v);
  }
  void put_bytes(const void* src, std::size_t n) {
    if (n == 0) return;
    if (std::uint8_t* p = claim(n)) std::memcpy(p, src, n);
  }
  void put_bytes(std::span<const std::uint8_t> src) { put_bytes(src.data(), src.size()); }
  // Key or C string: the bytes then a NUL. Callers guarantee `s` holds no NUL.
  void put_cstring(std::string_view s) {
    if (std::uint8_t* p = claim(s.size() + 1)) {
      if (!s.empty()) std::memcpy(p, s.data(), s.size());
      p[s.size()] = 0;
    }
  }
  // BSON string: int32 length (bytes + 1), the bytes, a NUL.
  void put_string(std::string_view s) {
    if (std::uint8_t* p = claim(s.size() + 5)) {
      detail::store_i32_le(p, static_cast<std::int32_t>(s.size() + 1));
      if (!s.empty()) std::memcpy(p + 4, s.data(), s.size());
      p[4 + s.size()] = 0;
    }
  }
  // Overwrites the int32 at `at` (a length placeholder written earlier).
  void patch_i32(std::size_t at, std::int32_t v) noexcept {
    if (at + 4 <= size_) detail::store_i32_le(data_ + at, v);
  }

 private:
  // extend for the put_* helpers: a caller buffer that cannot hold n bytes overflows for good.
  // (Forced inline: the put_* helpers are the Extended JSON builder's hot path, and g++ would
  // otherwise call out for each.)
  [[gnu::always_inline]] std::uint8_t* claim(std::size_t n) {
    if (limit_ - size_ >= n) [[likely]] {
      std::uint8_t* p = data_ + size_;
      size_ += n;
      return p;
    }
    return claim_slow(n);
  }

  [[gnu::noinline]] std::uint8_t* claim_slow(std::size_t n) {
    std::uint8_t* p = extend_slow(n);
    if (p == nullptr) {
      overflowed_ = true;
      limit_ = size_;
    }
    return p;
  }

  std::uint8_t* extend_slow(std::size_t n) {
    if (fixed_ || overflowed_) return nullptr;
    grow(size_ + n);
    std::uint8_t* p = data_ + size_;
    size_ += n;
    return p;
  }

  void grow(std::size_t min_capacity) {
    std::size_t target = capacity_ < 64 ? 64 : capacity_ * 2;
    if (target < min_capacity) target = min_capacity;
    owned_.resize_uninitialized(size_);  // owned_ mirrors data_; keep its size in step for copy
    owned_.reserve(target);
    data_ = owned_.data();
    capacity_ = owned_.capacity();
    limit_ = capacity_;
  }

  byte_buffer owned_;
  std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
  std::size_t capacity_ = 0;
  // Where extend stops: capacity_, or size_ once overflowed (so the fast path needs no flag test).
  std::size_t limit_ = 0;
  bool fixed_ = false;
  bool overflowed_ = false;
};

}  // namespace bsongen
