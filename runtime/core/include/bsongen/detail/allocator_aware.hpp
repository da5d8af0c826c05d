#pragma once

// What the structs of `allocator: pmr` schemas (docs/schema-format.md) need beyond
// <memory_resource>: members that hold allocator-aware values without being allocator-aware
// themselves (std::optional, std::array) get them built on the struct's allocator, as std::pmr
// containers do for their elements. A plain copy of a std::optional<std::pmr::string> or of a
// std::array<std::pmr::string, 2> would take the default resource instead.

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include "bsongen/nullable.hpp"

namespace bsongen::detail {

template <class T>
inline constexpr bool is_std_array = false;
template <class T, std::size_t N>
inline constexpr bool is_std_array<std::array<T, N>> = true;

// std::optional and bsongen::nullable: a value or none, the value's allocator not kept.
template <class T>
inline constexpr bool is_value_or_none = false;
template <class T>
inline constexpr bool is_value_or_none<std::optional<T>> = true;
template <class T>
inline constexpr bool is_value_or_none<nullable<T>> = true;

// A copy (from an lvalue) or move (from an rvalue) of `value` whose allocator-aware parts use
// `allocator`: an optional's or a nullable's value, each element of a std::array (nested ones too),
// and any value std::uses_allocator says takes one. Other values are copied or moved as they are.
template <class V, class Allocator>
[[nodiscard]] std::remove_cvref_t<V> with_allocator(V&& value, const Allocator& allocator) {
  using T = std::remove_cvref_t<V>;
  // Element access that keeps `value`'s category: std::array has no rvalue operator[].
  const auto part = [](auto& element) -> decltype(auto) {
    if constexpr (std::is_lvalue_reference_v<V>) {
      return static_cast<const std::remove_cvref_t<decltype(element)>&>(element);
    } else {
      return std::move(element);
    }
  };
  if constexpr (is_value_or_none<T>) {
    if (!value.has_value()) return T();
    return T(with_allocator(part(*value), allocator));
  } else if constexpr (is_std_array<T>) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return T{with_allocator(part(value[I]), allocator)...};
    }
    (std::make_index_sequence<std::tuple_size_v<T>>());
  } else if constexpr (std::uses_allocator_v<T, Allocator>) {
    return std::make_obj_using_allocator<T>(allocator, std::forward<V>(value));
  } else {
    return std::forward<V>(value);
  }
}

// A new std::array whose elements (and their elements, for nested arrays) are built with
// `allocator`: what an allocator-aware struct's constructor gives its fixed-array members.
template <class T, class Allocator>
[[nodiscard]] T new_with_allocator(const Allocator& allocator) {
  if constexpr (is_std_array<T>) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return T{((void)I, new_with_allocator<typename T::value_type>(allocator))...};
    }
    (std::make_index_sequence<std::tuple_size_v<T>>());
  } else {
    return std::make_obj_using_allocator<T>(allocator);
  }
}

}  // namespace bsongen::detail
