#pragma once

// bsongen::pmr::value: the `any` member of an `allocator: pmr` struct (docs/schema-format.md,
// "Allocators"). A bsongen::value whose parts live on a std::pmr::memory_resource, and which is
// allocator-aware as the std::pmr containers are, so it follows its struct wherever the struct's
// other members follow it:
//
//   std::pmr::monotonic_buffer_resource a, b;
//   auto r = bsongen::decode<arena::person>(bytes, {.memory = &a});  // r->attributes' parts on a
//   std::pmr::vector<arena::person> people(&b);
//   people.push_back(std::move(*r));   // every member copies onto b, attributes too
//   a.release();                        // people[0] holds nothing of a
//
// The resource is fixed at construction (the allocator is not propagated by assignment, as for
// std::pmr types): assigning or moving from a value on another resource copies its parts; moving
// between values on equal resources moves them. A copy constructed without an allocator is on
// std::pmr::get_default_resource(), as a std::pmr::string's is. Every resource must outlive the
// values on it.
//
// Read it as any bsongen::value (the same accessors; value_ref borrows it); build it from anything
// a bsongen::value is built from. Equality is bsongen::value's.

#include <concepts>
#include <memory_resource>
#include <type_traits>
#include <utility>

#include "bsongen/value.hpp"

namespace bsongen {
namespace detail {
struct any_codec;  // bsongen/detail/value_codecs.hpp
}

namespace pmr {

class value : public detail::value_access<value> {
 public:
  using allocator_type = std::pmr::polymorphic_allocator<>;

  // A null value on the default resource, or on `memory`.
  value() noexcept : resource_(std::pmr::get_default_resource()) {}
  explicit value(const allocator_type& memory) noexcept : resource_(memory.resource()) {}

  // What bsongen::value is built from (`pmr::value v(42, &arena);`), its parts on `memory`.
  template <class T>
  requires(!std::same_as<std::remove_cvref_t<T>, value> &&
           !std::same_as<std::remove_cvref_t<T>, allocator_type> &&
           std::constructible_from<bsongen::value, T&&>)
      value(T&& v, const allocator_type& memory = {})  // NOLINT: implicit, as bsongen::value's
      : resource_(memory.resource()), value_(onto(bsongen::value(std::forward<T>(v)), resource_)) {}

  // A copy of v's value, its parts on `memory`.
  value(value_ref v, const allocator_type& memory = {})  // NOLINT: implicit, as bsongen::value's
      : resource_(memory.resource()), value_(v, resource_) {}

  value(const value& other) : value(other, allocator_type()) {}
  value(const value& other, const allocator_type& memory)
      : resource_(memory.resource()), value_(other.ref(), resource_) {}
  value(value&& other) noexcept : resource_(other.resource_), value_(std::move(other.value_)) {}
  value(value&& other, const allocator_type& memory)
      : resource_(memory.resource()), value_(take(std::move(other), resource_)) {}

  value& operator=(const value& other) {
    if (this != &other) value_ = bsongen::value(other.ref(), resource_);
    return *this;
  }
  // Moves the parts when both resources are equal, else copies them onto this value's.
  value& operator=(value&& other) {
    if (this != &other) value_ = take(std::move(other), resource_);
    return *this;
  }
  template <class T>
  requires(!std::same_as<std::remove_cvref_t<T>, value> &&
           std::constructible_from<bsongen::value, T&&>) value&
  operator=(T&& v) {
    value_ = onto(bsongen::value(std::forward<T>(v)), resource_);
    return *this;
  }
  ~value() = default;

  [[nodiscard]] allocator_type get_allocator() const noexcept { return resource_; }

  [[nodiscard]] const detail::node* node_ptr() const noexcept { return value_.node_ptr(); }
  [[nodiscard]] value_ref ref() const noexcept { return value_.ref(); }
  operator value_ref() const noexcept { return ref(); }  // NOLINT: borrowing is free
  // The plain value, for APIs that take one (encode_document's values, bsongen::document).
  [[nodiscard]] const bsongen::value& plain() const noexcept { return value_; }

  friend bool operator==(const value& a, const value& b) { return a.ref() == b.ref(); }

 private:
  friend struct detail::any_codec;  // decodes straight into value_, on resource_

  // v, its parts on `memory`: moved when they are there already (or v has none), else copied.
  [[nodiscard]] static bsongen::value onto(bsongen::value&& v, std::pmr::memory_resource* memory) {
    std::pmr::memory_resource* const parts = v.parts_resource();
    if (parts == nullptr || parts == memory) return std::move(v);
    return bsongen::value(v.ref(), memory);
  }
  [[nodiscard]] static bsongen::value take(value&& other, std::pmr::memory_resource* memory) {
    if (other.resource_ == memory || other.resource_->is_equal(*memory)) {
      return std::move(other.value_);
    }
    return bsongen::value(other.ref(), memory);
  }

  std::pmr::memory_resource* resource_;  // value_'s parts are here (invariant)
  bsongen::value value_;
};

}  // namespace pmr
}  // namespace bsongen
