#pragma once

// filled_array: a std::array whose every element is one value, as a constant expression.
//
// Generated structs start a fixed array of enums (or of fixed arrays of them) with it: a
// value-initialized enum is 0, which may name no enumerator, and a struct whose members a decode
// left at their initial values must encode. Scalar enum members start at their first enumerator;
// this gives array elements the same start.

#include <array>
#include <cstddef>

namespace bsongen {

template <class T, std::size_t N>
constexpr std::array<T, N> filled_array(const T& value) {
  std::array<T, N> out{};
  out.fill(value);
  return out;
}

}  // namespace bsongen
