// BSON Binary Vector on the generic path: vector values from elements, the typed view of a binary
// (value_ref::as_vector, view_element::as_vector) and the specification's conversions to and from
// plain BSON arrays. The payload rules themselves are bsongen/binary_vector.hpp's: every
// conversion builds a payload and hands it to parse_vector, so no rule is written twice.

#include "bsongen/binary_vector.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "bsongen/detail/error_messages.hpp"
#include "bsongen/document.hpp"
#include "bsongen/document_view.hpp"

namespace bsongen {
namespace detail {

error not_a_vector(const node* actual) {
  if (actual == nullptr) {
    return error(error_code::missing_field, "no element there (missing key or index)");
  }
  error e(error_code::type_mismatch, actual->type == bson_type::binary
                                         ? messages::vector_wrong_subtype(actual->subtype)
                                         : messages::vector_not_binary(type_name(actual->type)));
  if (actual->key_size != 0) e.path.assign(actual->key, actual->key_size);
  return e;
}

namespace {

static_assert(std::numeric_limits<float>::is_iec559,
              "float32 vectors need IEEE 754 binary32 floats");

error element_error(std::size_t index, error_code code, std::string message) {
  error e(code, std::move(message));
  e.path = std::to_string(index);
  return e;
}

// A payload built from `elements` (array_ref or array_view: their elements have type() and the
// as_* accessors), checked by parse_vector, as a binary value.
template <class Elements>
result<value> vector_from_elements(const Elements& elements, vector_dtype dtype,
                                   std::uint8_t padding) {
  const auto dtype_byte = static_cast<std::uint8_t>(dtype);
  if (!is_vector_dtype(dtype_byte)) {
    return error(error_code::invalid_value, messages::vector_unknown_dtype(dtype_byte));
  }
  const std::string_view name = vector_dtype_name(dtype);
  std::vector<std::uint8_t> payload{dtype_byte, padding};
  std::size_t index = 0;
  for (const auto& e : elements) {
    const bson_type t = e.type();
    if (dtype == vector_dtype::float32) {
      float f = 0;
      if (t == bson_type::double_) {
        const double d = e.as_double();
        f = static_cast<float>(d);  // IEEE: nearest, or infinity beyond the range
        if (std::isfinite(d) && std::isinf(f)) {
          return element_error(index, error_code::invalid_value,
                               messages::vector_element_beyond_float32(d));
        }
      } else if (t == bson_type::int32) {
        f = static_cast<float>(e.as_int32());
      } else if (t == bson_type::int64) {
        f = static_cast<float>(e.as_int64());  // directly: through double could round twice
      } else {
        return element_error(
            index, error_code::type_mismatch,
            messages::vector_element_type(name, type_name(t), "a double, int32 or int64"));
      }
      std::uint8_t bytes[4];
      store_u32_le(bytes, std::bit_cast<std::uint32_t>(f));
      payload.insert(payload.end(), bytes, bytes + 4);
    } else {
      std::int64_t i = 0;
      if (t == bson_type::int32) {
        i = e.as_int32();
      } else if (t == bson_type::int64) {
        i = e.as_int64();
      } else {
        return element_error(
            index, error_code::type_mismatch,
            messages::vector_element_type(name, type_name(t), "an int32 or int64"));
      }
      const std::int64_t low = dtype == vector_dtype::int8 ? -128 : 0;
      const std::int64_t high = dtype == vector_dtype::int8 ? 127 : 255;
      if (i < low || i > high) {
        return element_error(index, error_code::invalid_value,
                             messages::vector_element_out_of_range(name, i, low, high));
      }
      payload.push_back(static_cast<std::uint8_t>(i));  // two's complement for int8
    }
    ++index;
  }
  result<vector_view> checked = parse_vector(payload);
  if (!checked) {
    error e = std::move(checked).error();
    e.offset = 0;  // a built value: no input to point into
    return e;
  }
  return value(binary{std::move(payload), binary_subtype::vector});
}

}  // namespace
}  // namespace detail

value value::from_vector(std::span<const float> elements) {
  return value(to_vector_binary(elements));
}

value value::from_vector(std::span<const std::int8_t> elements) {
  return value(to_vector_binary(elements));
}

value value::from_vector(const packed_bits& bits) {
  result<binary> b = to_vector_binary(bits);
  if (!b) throw exception(std::move(b).error());
  return value(*b);
}

result<value> vector_from_array(array_ref elements, vector_dtype dtype, std::uint8_t padding) {
  return detail::vector_from_elements(elements, dtype, padding);
}

result<value> vector_from_array(const array_view& elements, vector_dtype dtype,
                                std::uint8_t padding) {
  return detail::vector_from_elements(elements, dtype, padding);
}

array vector_to_array(const vector_view& vector) {
  array out;
  switch (vector.dtype()) {
    case vector_dtype::int8:
      for (const std::int8_t i : vector.as_int8()) out.push_back(std::int32_t{i});
      break;
    case vector_dtype::float32:
      for (const float f : vector.as_float32()) out.push_back(static_cast<double>(f));
      break;
    case vector_dtype::packed_bit:
      for (const std::uint8_t byte : vector.data()) out.push_back(std::int32_t{byte});
      break;
  }
  return out;
}

result<vector_view> view_element::as_vector() const {
  if (!exists()) return error(error_code::missing_field, "no element there (missing key or index)");
  const auto type_byte = static_cast<bson_type>(*start_);
  error e;
  if (type_byte != bson_type::binary) {
    e = error(error_code::type_mismatch, detail::messages::vector_not_binary(type_name(type_byte)));
  } else {
    const std::uint8_t* v = value_start();
    if (v[4] == static_cast<std::uint8_t>(binary_subtype::vector)) {
      return parse_vector({v + 5, static_cast<std::size_t>(detail::load_i32_le(v))});
    }
    e = error(error_code::type_mismatch, detail::messages::vector_wrong_subtype(v[4]));
  }
  e.path.assign(key());
  return e;
}

}  // namespace bsongen
