#pragma once

// BSON Binary Vector: binary subtype 0x09 (the MongoDB specification "BSON Binary Subtype 9 -
// Vector"), dense vectors of int8, float32 or single bits. The binary's payload is
//
//   [dtype byte][padding byte][elements, little-endian]
//
// and this header holds its rules, once, for every path: read-only views over a payload
// (parse_vector and the typed parse_*_vector), owning decodes (decode_vector), sizes and writers
// for encoders (vector_payload_size, write_vector_value, store_vector_payload) and the owning
// packed-bit type (packed_bits).
//
//   // Decode: a view over the payload, no copy.
//   bsongen::result<bsongen::float32_vector_view> v = bsongen::parse_float32_vector(payload);
//   if (!v) return v.error();  // e.g. invalid_length: float32 data not a multiple of 4 bytes
//   float first = (*v)[0];
//
//   // Encode: one binary value (int32 length, subtype 0x09, payload) onto a writer.
//   std::vector<float> embedding = ...;
//   bsongen::result<void> r = bsongen::write_vector_value(out, std::span<const float>(embedding));
//
// The rules, as the specification states them and parse_vector checks them (nothing more):
//  * the payload holds at least its two header bytes (dtype, padding): invalid_length;
//  * dtype is int8 (0x03), float32 (0x27) or packed_bit (0x10): invalid_value;
//  * padding is 0 for int8 and float32, at most 7 for packed_bit, and 0 for a packed_bit vector
//    with no data bytes: invalid_value;
//  * a packed_bit vector's ignored bits (the `padding` low bits of its last byte) are 0:
//    invalid_value (the specification's SHOULD, taken as a MUST here: one value, one encoding);
//  * float32 data is a whole number of 4-byte elements: invalid_length.
// Encoders refuse what decoders would refuse (invalid_value, never bytes parse_vector rejects).
//
// Errors: `offset` is `payload_offset` (where payload[0] sits in the caller's input; 0 when not
// given) plus the position of the offending byte in the payload.
//
// Lifetime: every *_vector_view points into the payload it was parsed from, which must outlive it
// and stay unchanged.
//
// Bit order: a packed_bit vector's bit i is bit (7 - i % 8) of byte i / 8 (the first element is the
// most significant bit of the first byte, as numpy.packbits), and padding counts the unused least
// significant bits of the last byte: bytes {0xEE, 0xE0} with padding 4 are the 12 bits
// 1110 1110 1110.
//
// Why inline: generated codecs call these per vector field and the float32 path is a bounds check
// and one memcpy on little-endian hosts; out of line, every call would pay a call and lose the
// caller's knowledge of sizes. Only the cold error texts (detail/error_messages.hpp) are compiled
// into bsongen::core.
//
// The owning packed-bit type for `allocator: pmr` structs, bsongen::pmr::packed_bits, is in
// bsongen/pmr_types.hpp (which keeps <memory_resource> out of this header).

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "bsongen/bson_type.hpp"
#include "bsongen/detail/endian.hpp"
#include "bsongen/detail/error_messages.hpp"
#include "bsongen/error.hpp"
#include "bsongen/types.hpp"
#include "bsongen/writer.hpp"

namespace bsongen {

// The element type byte, the payload's first byte.
enum class vector_dtype : std::uint8_t {
  int8 = 0x03,        // signed 8-bit integers
  float32 = 0x27,     // IEEE 754 binary32, little-endian
  packed_bit = 0x10,  // single bits, 8 to a byte, most significant first
};

// "int8", "float32" or "packed_bit"; "unknown" for a byte that is none of them.
[[nodiscard]] constexpr std::string_view vector_dtype_name(vector_dtype dtype) noexcept {
  switch (dtype) {
    case vector_dtype::int8:
      return "int8";
    case vector_dtype::float32:
      return "float32";
    case vector_dtype::packed_bit:
      return "packed_bit";
  }
  return "unknown";
}

// True for the three dtype bytes this runtime knows.
[[nodiscard]] constexpr bool is_vector_dtype(std::uint8_t byte) noexcept {
  return byte == static_cast<std::uint8_t>(vector_dtype::int8) ||
         byte == static_cast<std::uint8_t>(vector_dtype::float32) ||
         byte == static_cast<std::uint8_t>(vector_dtype::packed_bit);
}

// The dtype and padding bytes that open every payload.
inline constexpr std::size_t vector_header_size = 2;
// The largest payload a document can hold: the binary length is an int32, and the smallest
// document around the value adds 12 bytes (document length 4, type byte 1, empty key's NUL 1,
// binary length 4, subtype 1, document NUL 1).
inline constexpr std::size_t max_vector_payload_size =
    static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()) - 12;

// The padding of a packed_bit vector of `bit_count` bits: the unused low bits of its last byte.
[[nodiscard]] constexpr std::uint8_t packed_bit_padding(std::size_t bit_count) noexcept {
  return static_cast<std::uint8_t>((8 - bit_count % 8) % 8);
}

// Payload bytes (header included) of a `count`-element vector; count is bits for packed_bit.
// Saturates at SIZE_MAX, which is above max_vector_payload_size, so a count too large for any
// document is refused by whoever checks against that limit.
[[nodiscard]] constexpr std::size_t vector_payload_size(vector_dtype dtype,
                                                        std::size_t count) noexcept {
  constexpr std::size_t room = std::numeric_limits<std::size_t>::max() - vector_header_size;
  switch (dtype) {
    case vector_dtype::float32:
      return count > room / 4 ? std::numeric_limits<std::size_t>::max()
                              : vector_header_size + count * 4;
    case vector_dtype::packed_bit:
      return vector_header_size + count / 8 + (count % 8 != 0 ? 1 : 0);
    case vector_dtype::int8:
      break;
  }
  return count > room ? std::numeric_limits<std::size_t>::max() : vector_header_size + count;
}

// Bytes of the whole binary value (int32 length, subtype byte, payload): what follows the key.
// Saturates as vector_payload_size does.
[[nodiscard]] constexpr std::size_t vector_value_size(vector_dtype dtype,
                                                      std::size_t count) noexcept {
  const std::size_t payload = vector_payload_size(dtype, count);
  return payload > std::numeric_limits<std::size_t>::max() - 5
             ? std::numeric_limits<std::size_t>::max()
             : payload + 5;
}

namespace detail {

[[nodiscard]] inline bool packed_bit_at(const std::uint8_t* bytes, std::size_t i) noexcept {
  return ((bytes[i / 8] >> (7 - i % 8)) & 1U) != 0;
}
[[nodiscard]] inline std::int8_t int8_at(const std::uint8_t* bytes, std::size_t i) noexcept {
  return static_cast<std::int8_t>(bytes[i]);
}
[[nodiscard]] inline float float32_at(const std::uint8_t* bytes, std::size_t i) noexcept {
  return std::bit_cast<float>(load_u32_le(bytes + 4 * i));
}
// std::memcpy(to, from, n) through the C library's memcpy even where n is a compile-time
// constant, as for a fixed-dimension vector (std::array). For a known size between 32 bytes and
// 8 KiB, g++ 12's generic x86-64 tuning expands memcpy into `rep movsq`, which took about 190 ns
// to copy a 6 KiB float32 vector to its place in a document (7 bytes past the value's start),
// where the library's call takes 30-45 ns (bench/README.md, "Binary vectors").
inline void copy_vector_bytes(void* to, const void* from, std::size_t n) noexcept {
#if defined(__GNUC__)
  __asm__("" : "+r"(n));  // from here on n's value is unknown to the optimizer: a call stays a call
#endif
  std::memcpy(to, from, n);
}

// The mask of a last byte's ignored bits under `padding` (0..7).
[[nodiscard]] constexpr std::uint8_t ignored_bits_mask(std::uint8_t padding) noexcept {
  return static_cast<std::uint8_t>((1U << padding) - 1U);
}

// A random-access iterator over a view's elements, yielding them by value. Holds the data pointer
// and an index, not the view, so it stays valid as long as the payload does.
template <class T, T (*Load)(const std::uint8_t*, std::size_t) noexcept>
class vector_iterator {
 public:
  using iterator_category = std::random_access_iterator_tag;
  using iterator_concept = std::random_access_iterator_tag;
  using value_type = T;
  using difference_type = std::ptrdiff_t;
  using reference = T;
  using pointer = void;

  vector_iterator() noexcept = default;
  vector_iterator(const std::uint8_t* data, std::size_t index) noexcept
      : data_(data), index_(index) {}

  T operator*() const noexcept { return Load(data_, index_); }
  T operator[](difference_type d) const noexcept {
    return Load(data_, index_ + static_cast<std::size_t>(d));
  }
  vector_iterator& operator++() noexcept {
    ++index_;
    return *this;
  }
  vector_iterator operator++(int) noexcept {
    vector_iterator old = *this;
    ++index_;
    return old;
  }
  vector_iterator& operator--() noexcept {
    --index_;
    return *this;
  }
  vector_iterator operator--(int) noexcept {
    vector_iterator old = *this;
    --index_;
    return old;
  }
  vector_iterator& operator+=(difference_type d) noexcept {
    index_ += static_cast<std::size_t>(d);
    return *this;
  }
  vector_iterator& operator-=(difference_type d) noexcept {
    index_ -= static_cast<std::size_t>(d);
    return *this;
  }
  friend vector_iterator operator+(vector_iterator it, difference_type d) noexcept {
    return it += d;
  }
  friend vector_iterator operator+(difference_type d, vector_iterator it) noexcept {
    return it += d;
  }
  friend vector_iterator operator-(vector_iterator it, difference_type d) noexcept {
    return it -= d;
  }
  friend difference_type operator-(vector_iterator a, vector_iterator b) noexcept {
    return static_cast<difference_type>(a.index_) - static_cast<difference_type>(b.index_);
  }
  friend bool operator==(vector_iterator a, vector_iterator b) noexcept {
    return a.index_ == b.index_;
  }
  friend auto operator<=>(vector_iterator a, vector_iterator b) noexcept {
    return a.index_ <=> b.index_;
  }

 private:
  const std::uint8_t* data_ = nullptr;
  std::size_t index_ = 0;
};

[[noreturn]] inline void throw_vector_dtype_mismatch(vector_dtype found, vector_dtype expected) {
  throw exception(bsongen::error(error_code::type_mismatch,
                                 detail::messages::vector_dtype_mismatch(
                                     vector_dtype_name(found), vector_dtype_name(expected))));
}

}  // namespace detail

// --- The owning packed-bit vector. ---

// Bits with their padding, as stored: `bytes` packed most significant bit first, `padding` the
// unused low bits of the last byte (0..7; 0 when `bytes` is empty). Allocator-aware like the std
// containers (bsongen/pmr_types.hpp has bsongen::pmr::packed_bits).
//
//   bsongen::packed_bits b;
//   b.push_back(true); b.push_back(false); b.push_back(true);  // bytes {0xA0}, padding 5
//   bool third = b[2];                                         // true
//
// The members are public so decoders and users can fill them directly; valid() says whether they
// keep the specification's rules, and every encoder checks them (invalid_value otherwise).
// Equality compares padding and bytes, ignored bits included (as pymongo's BinaryVector does): two
// values that follow the rules are equal exactly when their bits are.
template <class Allocator = std::allocator<std::uint8_t>>
struct basic_packed_bits {
  std::vector<std::uint8_t, Allocator> bytes;
  std::uint8_t padding = 0;

  using allocator_type = Allocator;

  basic_packed_bits() = default;
  explicit basic_packed_bits(const allocator_type& memory) : bytes(memory) {}
  // `bit_count` zero bits.
  explicit basic_packed_bits(std::size_t bit_count, const allocator_type& memory = {})
      : bytes(bit_count / 8 + (bit_count % 8 != 0 ? 1 : 0), 0, memory),
        padding(packed_bit_padding(bit_count)) {}
  // A copy of packed bytes and their padding, as given (check valid()).
  basic_packed_bits(std::span<const std::uint8_t> packed, std::uint8_t padding_bits,
                    const allocator_type& memory = {})
      : bytes(packed.begin(), packed.end(), memory), padding(padding_bits) {}
  basic_packed_bits(const basic_packed_bits& other, const allocator_type& memory)
      : bytes(other.bytes, memory), padding(other.padding) {}
  basic_packed_bits(basic_packed_bits&& other, const allocator_type& memory)
      : bytes(std::move(other.bytes), memory), padding(other.padding) {}
  basic_packed_bits(const basic_packed_bits&) = default;
  basic_packed_bits(basic_packed_bits&&) = default;
  basic_packed_bits& operator=(const basic_packed_bits&) = default;
  basic_packed_bits& operator=(basic_packed_bits&&) = default;
  ~basic_packed_bits() = default;

  [[nodiscard]] allocator_type get_allocator() const noexcept { return bytes.get_allocator(); }

  // The number of bits: 8 per byte less the padding (0 when there are no bytes).
  // Precondition for the result to mean anything: valid().
  [[nodiscard]] std::size_t size() const noexcept {
    return bytes.empty() ? 0 : bytes.size() * 8 - padding;
  }
  [[nodiscard]] bool empty() const noexcept { return size() == 0; }

  // Bit i. Precondition: i < size().
  [[nodiscard]] bool operator[](std::size_t i) const noexcept {
    return detail::packed_bit_at(bytes.data(), i);
  }
  [[nodiscard]] bool test(std::size_t i) const noexcept { return (*this)[i]; }
  // Sets bit i. Precondition: i < size().
  void set(std::size_t i, bool bit) noexcept {
    const auto mask = static_cast<std::uint8_t>(0x80U >> (i % 8));
    std::uint8_t& byte = bytes[i / 8];
    byte = static_cast<std::uint8_t>(bit ? byte | mask : byte & ~mask);
  }
  // Appends one bit, keeping padding and the ignored bits (zero) in step. Precondition: valid().
  void push_back(bool bit) {
    if (padding == 0) {
      bytes.push_back(0);
      padding = 8;
    }
    --padding;
    if (bit) set(size() - 1, true);
  }
  void clear() noexcept {
    bytes.clear();
    padding = 0;
  }

  // True when padding and bytes keep the specification's rules (see the top of this header).
  [[nodiscard]] bool valid() const noexcept {
    if (padding > 7) return false;
    if (bytes.empty()) return padding == 0;
    return (bytes.back() & detail::ignored_bits_mask(padding)) == 0;
  }

  friend bool operator==(const basic_packed_bits& a, const basic_packed_bits& b) {
    return a.padding == b.padding && a.bytes == b.bytes;
  }
};

using packed_bits = basic_packed_bits<>;

// --- Views over a validated payload (see the lifetime note above). ---

// The elements of an int8 vector.
class int8_vector_view {
 public:
  using value_type = std::int8_t;
  using iterator = detail::vector_iterator<std::int8_t, &detail::int8_at>;

  int8_vector_view() noexcept = default;  // empty
  // Precondition: `data` is the elements of a valid int8 payload (the bytes after its header).
  explicit int8_vector_view(std::span<const std::uint8_t> data) noexcept : data_(data) {}

  [[nodiscard]] std::size_t size() const noexcept { return data_.size(); }
  [[nodiscard]] bool empty() const noexcept { return data_.empty(); }
  // Precondition: i < size().
  [[nodiscard]] std::int8_t operator[](std::size_t i) const noexcept {
    return detail::int8_at(data_.data(), i);
  }
  [[nodiscard]] iterator begin() const noexcept { return {data_.data(), 0}; }
  [[nodiscard]] iterator end() const noexcept { return {data_.data(), data_.size()}; }
  // The elements' bytes (two's complement, one per element).
  [[nodiscard]] std::span<const std::uint8_t> bytes() const noexcept { return data_; }
  // Copies the elements to out[0, size()). Precondition: out.size() >= size().
  void copy_to(std::span<std::int8_t> out) const noexcept {
    if (!data_.empty()) detail::copy_vector_bytes(out.data(), data_.data(), data_.size());
  }

 private:
  std::span<const std::uint8_t> data_;
};

// The elements of a float32 vector, read as 4 little-endian bytes each (byte-swapped on
// big-endian hosts); no alignment is assumed.
class float32_vector_view {
 public:
  using value_type = float;
  using iterator = detail::vector_iterator<float, &detail::float32_at>;

  float32_vector_view() noexcept = default;  // empty
  // Precondition: `data` is the elements of a valid float32 payload (a multiple of 4 bytes).
  explicit float32_vector_view(std::span<const std::uint8_t> data) noexcept : data_(data) {}

  [[nodiscard]] std::size_t size() const noexcept { return data_.size() / 4; }
  [[nodiscard]] bool empty() const noexcept { return data_.empty(); }
  // Precondition: i < size().
  [[nodiscard]] float operator[](std::size_t i) const noexcept {
    return detail::float32_at(data_.data(), i);
  }
  [[nodiscard]] iterator begin() const noexcept { return {data_.data(), 0}; }
  [[nodiscard]] iterator end() const noexcept { return {data_.data(), size()}; }
  // The elements' bytes, 4 little-endian bytes each.
  [[nodiscard]] std::span<const std::uint8_t> bytes() const noexcept { return data_; }
  // Copies the elements to out[0, size()): one memcpy on little-endian hosts.
  // Precondition: out.size() >= size().
  void copy_to(std::span<float> out) const noexcept {
    if constexpr (detail::host_is_little_endian) {
      if (!data_.empty()) detail::copy_vector_bytes(out.data(), data_.data(), data_.size());
    } else {
      for (std::size_t i = 0; i < size(); ++i) out[i] = (*this)[i];
    }
  }

 private:
  std::span<const std::uint8_t> data_;
};

// The bits of a packed_bit vector (see "Bit order" above).
class packed_bit_vector_view {
 public:
  using value_type = bool;
  using iterator = detail::vector_iterator<bool, &detail::packed_bit_at>;

  packed_bit_vector_view() noexcept = default;  // empty
  // Precondition: `data` and `padding` are the elements and padding of a valid packed_bit payload.
  packed_bit_vector_view(std::span<const std::uint8_t> data, std::uint8_t padding) noexcept
      : data_(data), padding_(padding) {}

  // The number of bits.
  [[nodiscard]] std::size_t size() const noexcept {
    return data_.empty() ? 0 : data_.size() * 8 - padding_;
  }
  [[nodiscard]] bool empty() const noexcept { return data_.empty(); }
  [[nodiscard]] std::uint8_t padding() const noexcept { return padding_; }
  // Bit i. Precondition: i < size().
  [[nodiscard]] bool operator[](std::size_t i) const noexcept {
    return detail::packed_bit_at(data_.data(), i);
  }
  [[nodiscard]] bool test(std::size_t i) const noexcept { return (*this)[i]; }
  [[nodiscard]] iterator begin() const noexcept { return {data_.data(), 0}; }
  [[nodiscard]] iterator end() const noexcept { return {data_.data(), size()}; }
  // The packed bytes, size() bits rounded up to whole bytes (the specification's "list of
  // integers in [0, 255]").
  [[nodiscard]] std::span<const std::uint8_t> bytes() const noexcept { return data_; }
  // An owning copy.
  template <class Allocator = std::allocator<std::uint8_t>>
  [[nodiscard]] basic_packed_bits<Allocator> to_packed_bits(const Allocator& memory = {}) const {
    return basic_packed_bits<Allocator>(data_, padding_, memory);
  }

 private:
  std::span<const std::uint8_t> data_;
  std::uint8_t padding_ = 0;
};

// A valid payload of any dtype, as parse_vector returns it.
class vector_view {
 public:
  // An empty int8 vector over no payload.
  vector_view() noexcept = default;

  [[nodiscard]] vector_dtype dtype() const noexcept { return dtype_; }
  [[nodiscard]] bool is(vector_dtype t) const noexcept { return dtype_ == t; }
  [[nodiscard]] std::uint8_t padding() const noexcept { return padding_; }
  // Elements: bytes for int8, 4-byte groups for float32, bits for packed_bit.
  [[nodiscard]] std::size_t size() const noexcept {
    switch (dtype_) {
      case vector_dtype::float32:
        return data_.size() / 4;
      case vector_dtype::packed_bit:
        return data_.empty() ? 0 : data_.size() * 8 - padding_;
      case vector_dtype::int8:
        break;
    }
    return data_.size();
  }
  [[nodiscard]] bool empty() const noexcept { return data_.empty(); }
  // The elements' bytes (after the two header bytes).
  [[nodiscard]] std::span<const std::uint8_t> data() const noexcept { return data_; }
  // The whole payload, header included (empty for a default-constructed view).
  [[nodiscard]] std::span<const std::uint8_t> payload() const noexcept {
    return data_.data() == nullptr
               ? std::span<const std::uint8_t>()
               : std::span<const std::uint8_t>(data_.data() - vector_header_size,
                                               data_.size() + vector_header_size);
  }

  // The typed view; throws bsongen::exception (type_mismatch) when dtype() is another.
  [[nodiscard]] int8_vector_view as_int8() const {
    expect(vector_dtype::int8);
    return int8_vector_view(data_);
  }
  [[nodiscard]] float32_vector_view as_float32() const {
    expect(vector_dtype::float32);
    return float32_vector_view(data_);
  }
  [[nodiscard]] packed_bit_vector_view as_packed_bit() const {
    expect(vector_dtype::packed_bit);
    return {data_, padding_};
  }

  // Precondition: `payload` passed parse_vector's checks.
  [[nodiscard]] static vector_view from_trusted_payload(
      std::span<const std::uint8_t> payload) noexcept {
    return vector_view(static_cast<vector_dtype>(payload[0]), payload[1],
                       payload.subspan(vector_header_size));
  }

 private:
  vector_view(vector_dtype dtype, std::uint8_t padding, std::span<const std::uint8_t> data) noexcept
      : dtype_(dtype), padding_(padding), data_(data) {}
  void expect(vector_dtype t) const {
    if (dtype_ != t) [[unlikely]]
      detail::throw_vector_dtype_mismatch(dtype_, t);
  }

  vector_dtype dtype_ = vector_dtype::int8;
  std::uint8_t padding_ = 0;
  std::span<const std::uint8_t> data_;
};

// --- Parsing: the specification's checks, then a view. ---

namespace detail {

// Checks the packed_bit rules for `padding` over `data` (the bytes after the header); `at` is
// the offset of the padding byte, `at + 1` that of data[0]. Shared by decoders and encoders.
[[nodiscard]] inline result<void> check_packed_bit_data(std::span<const std::uint8_t> data,
                                                        std::uint8_t padding, std::size_t at) {
  if (padding > 7) [[unlikely]] {
    return bsongen::error(error_code::invalid_value,
                          detail::messages::vector_padding_above_7(padding), at);
  }
  if (data.empty()) {
    if (padding != 0) [[unlikely]] {
      return bsongen::error(error_code::invalid_value,
                            detail::messages::vector_padding_without_data(padding), at);
    }
    return {};
  }
  if ((data.back() & ignored_bits_mask(padding)) != 0) [[unlikely]] {
    return bsongen::error(error_code::invalid_value,
                          detail::messages::vector_ignored_bits_set(data.back(), padding),
                          at + data.size());
  }
  return {};
}

}  // namespace detail

// Checks `payload` (a subtype-9 binary's bytes after BSON's subtype byte) against every rule at
// the top of this header and returns a view over it. `payload_offset`: where payload[0] is in the
// caller's input, for the error's offset.
[[nodiscard]] inline result<vector_view> parse_vector(std::span<const std::uint8_t> payload,
                                                      std::size_t payload_offset = 0) {
  if (payload.size() < vector_header_size) [[unlikely]] {
    return error(error_code::invalid_length,
                 detail::messages::vector_payload_too_short(payload.size()), payload_offset);
  }
  const std::uint8_t dtype = payload[0];
  const std::uint8_t padding = payload[1];
  const std::span<const std::uint8_t> data = payload.subspan(vector_header_size);
  switch (dtype) {
    case static_cast<std::uint8_t>(vector_dtype::float32):
      if (data.size() % 4 != 0) [[unlikely]] {
        if (padding != 0) break;  // the padding error first, as for int8
        return error(error_code::invalid_length,
                     detail::messages::vector_float32_length(data.size()),
                     payload_offset + vector_header_size);
      }
      [[fallthrough]];
    case static_cast<std::uint8_t>(vector_dtype::int8):
      if (padding != 0) [[unlikely]]
        break;
      return vector_view::from_trusted_payload(payload);
    case static_cast<std::uint8_t>(vector_dtype::packed_bit): {
      result<void> checked = detail::check_packed_bit_data(data, padding, payload_offset + 1);
      if (!checked) [[unlikely]]
        return std::move(checked).error();
      return vector_view::from_trusted_payload(payload);
    }
    default:
      return error(error_code::invalid_value, detail::messages::vector_unknown_dtype(dtype),
                   payload_offset);
  }
  return error(error_code::invalid_value,
               detail::messages::vector_padding_not_allowed(
                   vector_dtype_name(static_cast<vector_dtype>(dtype)), padding),
               payload_offset + 1);
}

namespace detail {

[[nodiscard]] inline result<vector_view> parse_vector_of(vector_dtype expected,
                                                         std::span<const std::uint8_t> payload,
                                                         std::size_t payload_offset) {
  result<vector_view> v = parse_vector(payload, payload_offset);
  if (v && v->dtype() != expected) [[unlikely]] {
    return bsongen::error(error_code::type_mismatch,
                          detail::messages::vector_dtype_mismatch(vector_dtype_name(v->dtype()),
                                                                  vector_dtype_name(expected)),
                          payload_offset);
  }
  return v;
}

}  // namespace detail

// parse_vector, then the typed view; a valid vector of another dtype is type_mismatch.
[[nodiscard]] inline result<int8_vector_view> parse_int8_vector(
    std::span<const std::uint8_t> payload, std::size_t payload_offset = 0) {
  result<vector_view> v = detail::parse_vector_of(vector_dtype::int8, payload, payload_offset);
  if (!v) return std::move(v).error();
  return int8_vector_view(v->data());
}
[[nodiscard]] inline result<float32_vector_view> parse_float32_vector(
    std::span<const std::uint8_t> payload, std::size_t payload_offset = 0) {
  result<vector_view> v = detail::parse_vector_of(vector_dtype::float32, payload, payload_offset);
  if (!v) return std::move(v).error();
  return float32_vector_view(v->data());
}
[[nodiscard]] inline result<packed_bit_vector_view> parse_packed_bit_vector(
    std::span<const std::uint8_t> payload, std::size_t payload_offset = 0) {
  result<vector_view> v =
      detail::parse_vector_of(vector_dtype::packed_bit, payload, payload_offset);
  if (!v) return std::move(v).error();
  return packed_bit_vector_view(v->data(), v->padding());
}

// --- Owning decodes. On error `out` is left unchanged. ---

namespace detail {

// Whether `payload` is a valid vector of `dtype` (float32 or int8) by its header and length alone:
// the one test the owning decodes make before they copy; anything else goes through parse_vector,
// which says what is wrong.
[[nodiscard]] constexpr bool is_plain_vector(std::span<const std::uint8_t> payload,
                                             vector_dtype dtype,
                                             std::size_t element_size) noexcept {
  return payload.size() >= vector_header_size && payload[0] == static_cast<std::uint8_t>(dtype) &&
         payload[1] == 0 && (payload.size() - vector_header_size) % element_size == 0;
}

}  // namespace detail

template <class Allocator>
[[nodiscard]] result<void> decode_vector(std::span<const std::uint8_t> payload,
                                         std::vector<float, Allocator>& out,
                                         std::size_t payload_offset = 0) {
  if (detail::is_plain_vector(payload, vector_dtype::float32, 4)) [[likely]] {
    const float32_vector_view v(payload.subspan(vector_header_size));
    out.resize(v.size());  // value-initializes; std::vector offers no uninitialized growth
    v.copy_to(out);
    return {};
  }
  result<float32_vector_view> v = parse_float32_vector(payload, payload_offset);
  if (!v) [[unlikely]]
    return std::move(v).error();
  out.resize(v->size());  // value-initializes; std::vector offers no uninitialized growth
  v->copy_to(out);
  return {};
}

template <class Allocator>
[[nodiscard]] result<void> decode_vector(std::span<const std::uint8_t> payload,
                                         std::vector<std::int8_t, Allocator>& out,
                                         std::size_t payload_offset = 0) {
  if (detail::is_plain_vector(payload, vector_dtype::int8, 1)) [[likely]] {
    const int8_vector_view v(payload.subspan(vector_header_size));
    out.resize(v.size());
    v.copy_to(out);
    return {};
  }
  result<int8_vector_view> v = parse_int8_vector(payload, payload_offset);
  if (!v) [[unlikely]]
    return std::move(v).error();
  out.resize(v->size());
  v->copy_to(out);
  return {};
}

// Fixed dimension: a vector of another element count is invalid_length, naming both counts.
template <std::size_t N>
[[nodiscard]] result<void> decode_vector(std::span<const std::uint8_t> payload,
                                         std::array<float, N>& out,
                                         std::size_t payload_offset = 0) {
  if (payload.size() == vector_header_size + 4 * N &&
      detail::is_plain_vector(payload, vector_dtype::float32, 4)) [[likely]] {
    float32_vector_view(payload.subspan(vector_header_size)).copy_to(out);
    return {};
  }
  result<float32_vector_view> v = parse_float32_vector(payload, payload_offset);
  if (!v) [[unlikely]]
    return std::move(v).error();
  if (v->size() != N) [[unlikely]] {
    return error(error_code::invalid_length,
                 detail::messages::vector_dimension_mismatch("float32", v->size(), N),
                 payload_offset + vector_header_size);
  }
  v->copy_to(out);
  return {};
}

template <std::size_t N>
[[nodiscard]] result<void> decode_vector(std::span<const std::uint8_t> payload,
                                         std::array<std::int8_t, N>& out,
                                         std::size_t payload_offset = 0) {
  if (payload.size() == vector_header_size + N &&
      detail::is_plain_vector(payload, vector_dtype::int8, 1)) [[likely]] {
    int8_vector_view(payload.subspan(vector_header_size)).copy_to(out);
    return {};
  }
  result<int8_vector_view> v = parse_int8_vector(payload, payload_offset);
  if (!v) [[unlikely]]
    return std::move(v).error();
  if (v->size() != N) [[unlikely]] {
    return error(error_code::invalid_length,
                 detail::messages::vector_dimension_mismatch("int8", v->size(), N),
                 payload_offset + vector_header_size);
  }
  v->copy_to(out);
  return {};
}

template <class Allocator>
[[nodiscard]] result<void> decode_vector(std::span<const std::uint8_t> payload,
                                         basic_packed_bits<Allocator>& out,
                                         std::size_t payload_offset = 0) {
  result<packed_bit_vector_view> v = parse_packed_bit_vector(payload, payload_offset);
  if (!v) [[unlikely]]
    return std::move(v).error();
  out.bytes.assign(v->bytes().begin(), v->bytes().end());
  out.padding = v->padding();
  return {};
}

// --- Encoding. ---

// The packed_bit rules an encoder checks before writing `bytes` with `padding`: invalid_value
// (offset 0) for padding above 7, padding with no bytes, or nonzero ignored bits.
[[nodiscard]] inline result<void> check_packed_bits(std::span<const std::uint8_t> bytes,
                                                    std::uint8_t padding) {
  result<void> r = detail::check_packed_bit_data(bytes, padding, 0);
  if (!r) r.error().offset = 0;
  return r;
}
template <class Allocator>
[[nodiscard]] result<void> check_packed_bits(const basic_packed_bits<Allocator>& bits) {
  return check_packed_bits(bits.bytes, bits.padding);
}

// Writes the payload (header and elements) at `out` and returns the byte after it.
// Precondition: vector_payload_size(dtype, count) bytes writable at `out`; for packed bits,
// check_packed_bits passed.
inline std::uint8_t* store_vector_payload(std::uint8_t* out,
                                          std::span<const float> values) noexcept {
  out[0] = static_cast<std::uint8_t>(vector_dtype::float32);
  out[1] = 0;
  out += vector_header_size;
  if constexpr (detail::host_is_little_endian) {
    if (!values.empty()) detail::copy_vector_bytes(out, values.data(), values.size() * 4);
  } else {
    for (std::size_t i = 0; i < values.size(); ++i) {
      detail::store_u32_le(out + 4 * i, std::bit_cast<std::uint32_t>(values[i]));
    }
  }
  return out + values.size() * 4;
}
inline std::uint8_t* store_vector_payload(std::uint8_t* out,
                                          std::span<const std::int8_t> values) noexcept {
  out[0] = static_cast<std::uint8_t>(vector_dtype::int8);
  out[1] = 0;
  out += vector_header_size;
  if (!values.empty()) detail::copy_vector_bytes(out, values.data(), values.size());
  return out + values.size();
}
inline std::uint8_t* store_packed_bit_vector_payload(std::uint8_t* out,
                                                     std::span<const std::uint8_t> bytes,
                                                     std::uint8_t padding) noexcept {
  out[0] = static_cast<std::uint8_t>(vector_dtype::packed_bit);
  out[1] = padding;
  out += vector_header_size;
  if (!bytes.empty()) detail::copy_vector_bytes(out, bytes.data(), bytes.size());
  return out + bytes.size();
}

// Writes the whole binary value (int32 length, subtype 0x09, payload) at `out`: what a generated
// codec's write step calls after its size step. Precondition as for store_vector_payload, with
// vector_value_size bytes, and the payload at most max_vector_payload_size.
inline std::uint8_t* store_vector_value(std::uint8_t* out, std::span<const float> values) noexcept {
  detail::store_i32_le(out, static_cast<std::int32_t>(vector_header_size + values.size() * 4));
  out[4] = static_cast<std::uint8_t>(binary_subtype::vector);
  return store_vector_payload(out + 5, values);
}
inline std::uint8_t* store_vector_value(std::uint8_t* out,
                                        std::span<const std::int8_t> values) noexcept {
  detail::store_i32_le(out, static_cast<std::int32_t>(vector_header_size + values.size()));
  out[4] = static_cast<std::uint8_t>(binary_subtype::vector);
  return store_vector_payload(out + 5, values);
}
inline std::uint8_t* store_packed_bit_vector_value(std::uint8_t* out,
                                                   std::span<const std::uint8_t> bytes,
                                                   std::uint8_t padding) noexcept {
  detail::store_i32_le(out, static_cast<std::int32_t>(vector_header_size + bytes.size()));
  out[4] = static_cast<std::uint8_t>(binary_subtype::vector);
  return store_packed_bit_vector_payload(out + 5, bytes, padding);
}

namespace detail {

// The writer step shared by the write_*_value functions: size checks, then one extend.
template <class Store>
[[nodiscard]] result<void> write_vector_value_with(writer& out, std::size_t payload_size,
                                                   Store store) {
  if (payload_size > max_vector_payload_size) [[unlikely]] {
    return bsongen::error(error_code::too_large, detail::messages::vector_too_large(payload_size));
  }
  std::uint8_t* p = out.extend(payload_size + 5);
  if (p == nullptr) [[unlikely]] {
    return bsongen::error(error_code::buffer_too_small,
                          detail::messages::vector_buffer_too_small(payload_size + 5));
  }
  store(p);
  return {};
}

}  // namespace detail

// Appends one binary value (int32 length, subtype 0x09, payload: what follows an element's key)
// to `out`. Errors: too_large beyond max_vector_payload_size, buffer_too_small when a caller
// buffer lacks the room, invalid_value for packed bits that break the rules (check_packed_bits).
// On error `out` is as it was.
[[nodiscard]] inline result<void> write_vector_value(writer& out, std::span<const float> values) {
  return detail::write_vector_value_with(
      out, vector_payload_size(vector_dtype::float32, values.size()),
      [values](std::uint8_t* p) { store_vector_value(p, values); });
}
[[nodiscard]] inline result<void> write_vector_value(writer& out,
                                                     std::span<const std::int8_t> values) {
  return detail::write_vector_value_with(
      out, vector_payload_size(vector_dtype::int8, values.size()),
      [values](std::uint8_t* p) { store_vector_value(p, values); });
}
[[nodiscard]] inline result<void> write_packed_bit_vector_value(writer& out,
                                                                std::span<const std::uint8_t> bytes,
                                                                std::uint8_t padding) {
  result<void> checked = check_packed_bits(bytes, padding);
  if (!checked) [[unlikely]]
    return checked;
  return detail::write_vector_value_with(
      out, vector_header_size + bytes.size(),
      [bytes, padding](std::uint8_t* p) { store_packed_bit_vector_value(p, bytes, padding); });
}
template <class Allocator>
[[nodiscard]] result<void> write_vector_value(writer& out,
                                              const basic_packed_bits<Allocator>& bits) {
  return write_packed_bit_vector_value(out, bits.bytes, bits.padding);
}

// An owning subtype-9 binary (bsongen::binary) holding the payload: for the generic path and any
// code that keeps binaries. Never fails for int8 and float32 (too_large is the encoder's verdict);
// packed bits are checked as check_packed_bits does.
[[nodiscard]] inline binary to_vector_binary(std::span<const float> values) {
  binary b{std::vector<std::uint8_t>(vector_payload_size(vector_dtype::float32, values.size())),
           binary_subtype::vector};
  store_vector_payload(b.bytes.data(), values);
  return b;
}
[[nodiscard]] inline binary to_vector_binary(std::span<const std::int8_t> values) {
  binary b{std::vector<std::uint8_t>(vector_payload_size(vector_dtype::int8, values.size())),
           binary_subtype::vector};
  store_vector_payload(b.bytes.data(), values);
  return b;
}
[[nodiscard]] inline result<binary> to_packed_bit_vector_binary(std::span<const std::uint8_t> bytes,
                                                                std::uint8_t padding) {
  result<void> checked = check_packed_bits(bytes, padding);
  if (!checked) [[unlikely]]
    return std::move(checked).error();
  binary b{std::vector<std::uint8_t>(vector_header_size + bytes.size()), binary_subtype::vector};
  store_packed_bit_vector_payload(b.bytes.data(), bytes, padding);
  return b;
}
template <class Allocator>
[[nodiscard]] result<binary> to_vector_binary(const basic_packed_bits<Allocator>& bits) {
  return to_packed_bit_vector_binary(bits.bytes, bits.padding);
}

}  // namespace bsongen
