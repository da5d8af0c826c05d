#pragma once

// reader: a bounds-checked cursor over encoded bytes.
//
// It cannot read outside the span it was given: every read either succeeds whole or returns
// false/nullptr and leaves the position unchanged. offset() is measured from the start of the
// outermost input, also in sub-readers, so errors point at the byte a user can find in a hex dump.
// The reader does not own the bytes; they must outlive it and everything read from it.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

#include "bsongen/detail/endian.hpp"

namespace bsongen {

class reader {
 public:
  reader() noexcept = default;
  explicit reader(std::span<const std::uint8_t> bytes) noexcept
      : origin_(bytes.data()), pos_(bytes.data()), end_(bytes.data() + bytes.size()) {}

  [[nodiscard]] std::size_t offset() const noexcept {
    return static_cast<std::size_t>(pos_ - origin_);
  }
  [[nodiscard]] std::size_t remaining() const noexcept {
    return static_cast<std::size_t>(end_ - pos_);
  }
  [[nodiscard]] bool at_end() const noexcept { return pos_ == end_; }
  [[nodiscard]] const std::uint8_t* position() const noexcept { return pos_; }
  [[nodiscard]] const std::uint8_t* end() const noexcept { return end_; }

  // The next n bytes, advancing past them; nullptr (position unchanged) when fewer remain.
  [[nodiscard]] const std::uint8_t* take(std::size_t n) noexcept {
    if (remaining() < n) return nullptr;
    const std::uint8_t* p = pos_;
    pos_ += n;
    return p;
  }
  [[nodiscard]] bool skip(std::size_t n) noexcept { return take(n) != nullptr; }

  // Peeks without advancing. Precondition for peek_u8: !at_end().
  [[nodiscard]] std::uint8_t peek_u8() const noexcept { return *pos_; }
  [[nodiscard]] bool starts_with(const std::uint8_t* bytes, std::size_t n) const noexcept {
    return remaining() >= n && std::memcmp(pos_, bytes, n) == 0;
  }

  [[nodiscard]] bool read_u8(std::uint8_t& out) noexcept {
    if (pos_ == end_) return false;
    out = *pos_++;
    return true;
  }
  [[nodiscard]] bool read_i32(std::int32_t& out) noexcept {
    if (remaining() < 4) return false;
    out = detail::load_i32_le(pos_);
    pos_ += 4;
    return true;
  }
  [[nodiscard]] bool read_u32(std::uint32_t& out) noexcept {
    if (remaining() < 4) return false;
    out = detail::load_u32_le(pos_);
    pos_ += 4;
    return true;
  }
  [[nodiscard]] bool read_i64(std::int64_t& out) noexcept {
    if (remaining() < 8) return false;
    out = detail::load_i64_le(pos_);
    pos_ += 8;
    return true;
  }
  [[nodiscard]] bool read_u64(std::uint64_t& out) noexcept {
    if (remaining() < 8) return false;
    out = detail::load_u64_le(pos_);
    pos_ += 8;
    return true;
  }
  [[nodiscard]] bool read_f64(double& out) noexcept {
    if (remaining() < 8) return false;
    out = detail::load_f64_le(pos_);
    pos_ += 8;
    return true;
  }

  // A NUL-terminated key or C string: the bytes before the NUL, advancing past the NUL.
  // False (position unchanged) when no NUL occurs before the end.
  [[nodiscard]] bool read_cstring(std::string_view& out) noexcept {
    const std::size_t n = remaining();
    if (n == 0) return false;
    const void* nul = std::memchr(pos_, 0, n);
    if (nul == nullptr) return false;
    const auto* terminator = static_cast<const std::uint8_t*>(nul);
    out = std::string_view(reinterpret_cast<const char*>(pos_),
                           static_cast<std::size_t>(terminator - pos_));
    pos_ = terminator + 1;
    return true;
  }

  // A reader over the next n bytes (a nested document), advancing this one past them; offsets in
  // the sub-reader stay relative to the outermost input. Returns false when fewer than n remain.
  [[nodiscard]] bool split(std::size_t n, reader& sub) noexcept {
    if (remaining() < n) return false;
    sub = reader(origin_, pos_, pos_ + n);
    pos_ += n;
    return true;
  }

 private:
  reader(const std::uint8_t* origin, const std::uint8_t* pos, const std::uint8_t* end) noexcept
      : origin_(origin), pos_(pos), end_(end) {}

  const std::uint8_t* origin_ = nullptr;
  const std::uint8_t* pos_ = nullptr;
  const std::uint8_t* end_ = nullptr;
};

}  // namespace bsongen
