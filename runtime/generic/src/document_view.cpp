// Reads of validated BSON in place (document_view::from_bytes lives with the decoder).

#include "bsongen/document_view.hpp"

#include <string>

#include "bsongen/detail/wire.hpp"

namespace bsongen {
namespace detail {

std::size_t trusted_value_size(bson_type t, const std::uint8_t* v) noexcept {
  return trusted_value_size(static_cast<std::uint8_t>(t), v);
}

void throw_view_type_mismatch(bson_type expected, bool missing, bson_type actual) {
  if (missing)
    throw exception(error(error_code::missing_field, "no element there (missing key or index)"));
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
  if (subtype == binary_subtype::binary_old) {  // validated: the prefix holds size - 4
    data += detail::binary_old_prefix;
    size -= detail::binary_old_prefix;
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
  return document_view::from_trusted_bytes(
      {scope, static_cast<std::size_t>(detail::load_i32_le(scope))});
}

std::size_t document_view::count() const noexcept {
  std::size_t n = 0;
  for (auto it = begin(), last = end(); it != last; ++it) ++n;
  return n;
}

view_element document_view::find(std::string_view key) const noexcept {
  view_element found;
  for (view_element e : *this) {
    if (e.key() == key) found = e;
  }
  return found;
}

view_element array_view::operator[](std::size_t i) const noexcept {
  for (view_element e : doc_) {
    if (i-- == 0) return e;
  }
  return view_element();
}

}  // namespace bsongen
