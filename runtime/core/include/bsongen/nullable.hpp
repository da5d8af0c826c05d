#pragma once

// nullable<T>: a T or BSON null, the member type of the schema form `nullable<T>`.
//
//   bsongen::nullable<std::string> nickname;   // null
//   nickname = "ada";                          // a value
//   if (!nickname.is_null()) use(*nickname);
//   nickname = nullptr;                        // null again
//
// Decoding reads a null element as null and any other element as T; encoding writes null back as
// null, so a round trip keeps the element's type. (std::optional<T> fields mean "absent" and read
// a null as absent; `optional<nullable<T>>` keeps absent, null and a value apart.)
//
// With an allocator-aware T (std::pmr::string, the structs of `allocator: pmr` schemas),
// nullable<T> is allocator-aware too, by the leading std::allocator_arg convention: a std::pmr
// container of nullables copies each value onto its own resource, as it does its other elements. A
// null holds no allocator; a value put in later takes whatever allocator it is built with.

#include <cstddef>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

namespace bsongen {

template <class T>
class nullable {
 public:
  using value_type = T;

  // Null.
  constexpr nullable() noexcept = default;
  constexpr nullable(std::nullptr_t) noexcept {}  // NOLINT: implicit by design
  // A value: anything T is constructible from, as for std::optional<T>.
  template <class U = T>
  requires(std::is_constructible_v<T, U&&> && !std::is_same_v<std::remove_cvref_t<U>, nullable> &&
           !std::is_same_v<std::remove_cvref_t<U>, std::nullptr_t>) constexpr nullable(U&& v)
      : value_(std::in_place, std::forward<U>(v)) {}  // NOLINT

  // Allocator-extended construction (std::uses_allocator below): null, or a copy or move of
  // `other` whose value is rebuilt with `allocator`.
  template <class Allocator>
  requires std::uses_allocator_v<T, Allocator>
  constexpr nullable(std::allocator_arg_t, const Allocator&) noexcept {}
  template <class Allocator>
  requires std::uses_allocator_v<T, Allocator>
  constexpr nullable(std::allocator_arg_t, const Allocator& allocator, const nullable& other) {
    if (other.value_) value_.emplace(std::make_obj_using_allocator<T>(allocator, *other.value_));
  }
  template <class Allocator>
  requires std::uses_allocator_v<T, Allocator>
  constexpr nullable(std::allocator_arg_t, const Allocator& allocator, nullable&& other) {
    if (other.value_) {
      value_.emplace(std::make_obj_using_allocator<T>(allocator, std::move(*other.value_)));
    }
  }

  constexpr nullable& operator=(std::nullptr_t) noexcept {
    value_.reset();
    return *this;
  }
  template <class U = T>
  requires(std::is_constructible_v<T, U&&>&& std::is_assignable_v<T&, U&&> &&
           !std::is_same_v<std::remove_cvref_t<U>, nullable> &&
           !std::is_same_v<std::remove_cvref_t<U>, std::nullptr_t>) constexpr nullable&
  operator=(U&& v) {
    value_ = std::forward<U>(v);
    return *this;
  }

  [[nodiscard]] constexpr bool is_null() const noexcept { return !value_.has_value(); }
  [[nodiscard]] constexpr bool has_value() const noexcept { return value_.has_value(); }

  // Precondition: has_value().
  constexpr T& operator*() & noexcept { return *value_; }
  constexpr const T& operator*() const& noexcept { return *value_; }
  constexpr T* operator->() noexcept { return &*value_; }
  constexpr const T* operator->() const noexcept { return &*value_; }
  // Throws std::bad_optional_access when null.
  constexpr T& value() & { return value_.value(); }
  constexpr const T& value() const& { return value_.value(); }
  // The value, or `fallback` when null.
  template <class U>
  constexpr T value_or(U&& fallback) const& {
    return value_.value_or(std::forward<U>(fallback));
  }

  // Makes this a value, constructed in place; returns it.
  template <class... Args>
  constexpr T& emplace(Args&&... args) {
    return value_.emplace(std::forward<Args>(args)...);
  }
  // Makes this null.
  constexpr void reset() noexcept { value_.reset(); }

  // Two nulls are equal; a null equals no value.
  friend constexpr bool operator==(const nullable&, const nullable&) = default;
  friend constexpr bool operator==(const nullable& a, std::nullptr_t) noexcept {
    return a.is_null();
  }
  // Compares with a value of T (or of a type converting to T, e.g. a string literal): false when
  // null. (Constrained by convertibility, not by `*a == b` being valid: this friend is found for
  // every type that names nullable<T> in its template arguments, and a constraint that asks for
  // `==` again would recurse.)
  template <class U>
  requires(!std::is_same_v<U, nullable> && !std::is_same_v<U, std::nullptr_t> &&
           std::is_convertible_v<const U&, T>) friend constexpr bool
  operator==(const nullable& a, const U& b) {
    return a.has_value() && static_cast<bool>(*a == b);
  }

 private:
  std::optional<T> value_;
};

}  // namespace bsongen

template <class T, class Allocator>
struct std::uses_allocator<bsongen::nullable<T>, Allocator> : std::uses_allocator<T, Allocator> {};
