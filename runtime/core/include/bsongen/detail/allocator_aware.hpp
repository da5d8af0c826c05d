#pragma once

// What the structs of `allocator: pmr` schemas (docs/schema-format.md) need beyond
// <memory_resource>: their allocator-extended copy and move constructors rebuild an optional
// member's value on the new allocator, as std::pmr containers do for their elements (a plain
// copy of a std::optional<std::pmr::string> would take the default resource instead).

#include <memory>
#include <optional>
#include <utility>

namespace bsongen::detail {

template <class T, class Allocator>
[[nodiscard]] std::optional<T> optional_with_allocator(const std::optional<T>& value,
                                                       const Allocator& allocator) {
  if (!value) return std::nullopt;
  return std::make_obj_using_allocator<T>(allocator, *value);
}

template <class T, class Allocator>
[[nodiscard]] std::optional<T> optional_with_allocator(std::optional<T>&& value,
                                                       const Allocator& allocator) {
  if (!value) return std::nullopt;
  return std::make_obj_using_allocator<T>(allocator, std::move(*value));
}

}  // namespace bsongen::detail
