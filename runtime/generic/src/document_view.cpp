// Reads of validated BSON in place (document_view::from_bytes lives with the decoder).

#include "bsongen/document_view.hpp"

#include <string>

namespace bsongen {
namespace detail {

std::size_t trusted_value_size(bson_type t, const std::uint8_t* v) noexcept {
  if (const int fixed = fixed_value_size(t); fixed >= 0) return static_cast<std::size_t>(fixed);
  switch (t) {
    case bson_type::string:
    case bson_type::javascript:
    case bson_type::symbol:
      return 4 + static_cast<std::size_t>(load_i32_le(v));
    case bson_type::db_pointer:
      return 4 + static_cast<std::size_t>(load_i32_le(v)) + 12;
    case bson_type::binary:
      return 5 + static_cast<std::size_t>(load_i32_le(v));
    case bson_type::document:
    case bson_type::array:
    case bson_type::javascript_with_scope:
      return static_cast<std::size_t>(load_i32_le(v));
    case bson_type::regex: {
      const std::size_t pattern = std::strlen(reinterpret_cast<const char*>(v));
      return pattern + 1 + std::strlen(reinterpret_cast<const char*>(v + pattern + 1)) + 1;
    }
    default:
      return 0;  // fixed-size types, answered above
  }
}

void throw_view_type_mismatch(bson_type expected, bool missing, bson_type actual) {
  if (missing) throw exception(error(error_code::missing_field, "no element there (missing key or index)"));
  std::string message = "expected ";
  message += type_name(expected);
  message += ", found ";
  message += type_name(actual);
  throw exception(error(error_code::type_mismatch, std::move(message)));
}

}  // namespace detail

binary_view view_element::as_binary() const {
  const std::uint8_t* v = expect(bson_type::binary);
  auto size = static_cast<std::size_t>(detail::load_i32_le(v));
  const auto subtype = static_cast<binary_subtype>(v[4]);
  const std::uint8_t* data = v + 5;
  if (subtype == binary_subtype::binary_old) {  // validated: the inner length is size - 4
    data += 4;
    size -= 4;
  }
  return {{data, size}, subtype};
}

regex_view view_element::as_regex() const {
  const auto* v = reinterpret_cast<const char*>(expect(bson_type::regex));
  const std::string_view pattern(v);
  return {pattern, std::string_view(v + pattern.size() + 1)};
}

db_pointer_view view_element::as_db_pointer() const {
  const std::uint8_t* v = expect(bson_type::db_pointer);
  const std::string_view ns = text(v);
  return {ns, object_id::from_bytes(v + 4 + ns.size() + 1)};
}

document_view view_element::as_javascript_with_scope_scope() const {
  const std::uint8_t* v = expect(bson_type::javascript_with_scope);
  const std::uint8_t* scope = v + 4 + 4 + static_cast<std::size_t>(detail::load_i32_le(v + 4));
  return document_view::from_trusted_bytes({scope, static_cast<std::size_t>(detail::load_i32_le(scope))});
}

std::size_t document_view::count() const noexcept {
  std::size_t n = 0;
  for (auto it = begin(), last = end(); it != last; ++it) ++n;
  return n;
}

view_element document_view::find(std::string_view key) const noexcept {
  for (view_element e : *this) {
    if (e.key() == key) return e;
  }
  return view_element();
}

view_element array_view::operator[](std::size_t i) const noexcept {
  for (view_element e : doc_) {
    if (i-- == 0) return e;
  }
  return view_element();
}

}  // namespace bsongen
