#pragma once

// number<T>: a widened number that remembers the BSON type it was read as, the member type of the
// schema forms `number<int64>` (T = std::int64_t) and `number<double>` (T = double).
//
//   bsongen::number<double> price;   // 0.0, written as a double
//   price = 12;                      // the value changes, the remembered type stays
//   double p = price;                // converts to T
//   price.wire_type();               // bson_type::int32 after decoding an int32
//
// Collections often mix int32, int64 and double in one field. Decoding widens what it reads
// (number<int64>: int32 or int64; number<double>: int32, int64 up to 2^53 in magnitude, or
// double) and remembers the type; encoding writes that type back when the value still fits it
// exactly (integral and within int32, or integral and within int64 — for number<double> within
// 2^53, what decode accepts), and T's own type otherwise. So an unchanged value round-trips to
// the same bytes, and a changed one is never written with lost digits.

#include <concepts>
#include <cstdint>
#include <type_traits>

#include "bsongen/bson_type.hpp"

namespace bsongen {

template <class T>
requires(std::same_as<T, std::int64_t> || std::same_as<T, double>) class number {
 public:
  using value_type = T;
  // T's own BSON type: what a new number is written as.
  static constexpr bson_type own_type =
      std::is_same_v<T, double> ? bson_type::double_ : bson_type::int64;

  constexpr number() noexcept = default;
  constexpr number(T v) noexcept : value_(v) {}  // NOLINT: implicit by design
  // A value with a remembered type: int32 or int64 for number<int64>, also double for
  // number<double>; any other type counts as T's own.
  constexpr number(T v, bson_type wire) noexcept
      : value_(v), wire_(allowed(wire) ? wire : own_type) {}

  // Assigning a value keeps the remembered type (encode falls back to T's own when it no longer
  // fits).
  constexpr number& operator=(T v) noexcept {
    value_ = v;
    return *this;
  }

  constexpr operator T() const noexcept { return value_; }  // NOLINT: implicit by design
  [[nodiscard]] constexpr T value() const noexcept { return value_; }
  // The BSON type the value was read as (or constructed with): int32, int64 or double.
  [[nodiscard]] constexpr bson_type wire_type() const noexcept { return wire_; }
  constexpr void set_wire_type(bson_type wire) noexcept { wire_ = allowed(wire) ? wire : own_type; }

  // Numbers compare by value: the remembered type is how a value is written, not part of it.
  friend constexpr bool operator==(const number& a, const number& b) noexcept {
    return a.value_ == b.value_;
  }
  // With a plain number: compares the values exactly (2.5 is not 2).
  template <class U>
  requires(std::integral<U> || std::floating_point<U>) friend constexpr bool operator==(
      const number& a, U b) noexcept {
    if constexpr (std::floating_point<T> || std::floating_point<U>) {
      return static_cast<long double>(a.value_) == static_cast<long double>(b);  // exact for int64
    } else if constexpr (std::is_signed_v<U>) {
      return a.value_ == static_cast<std::int64_t>(b);
    } else {
      return a.value_ >= 0 && static_cast<std::uint64_t>(a.value_) == static_cast<std::uint64_t>(b);
    }
  }

 private:
  static constexpr bool allowed(bson_type wire) noexcept {
    return wire == bson_type::int32 || wire == bson_type::int64 ||
           (std::is_same_v<T, double> && wire == bson_type::double_);
  }

  T value_{};
  bson_type wire_ = own_type;
};

}  // namespace bsongen
