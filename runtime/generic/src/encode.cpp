// Canonical BSON encoding of generic documents.
//
// Two passes: the exact size first (one walk over 32-byte nodes), then one writer::extend for the
// whole document and plain stores into it, each nested length patched once its end is known.
// There is no per-element capacity check and no reallocation. Both passes walk nested documents
// with an explicit stack (inline for the first 32 levels), so no depth can overflow the C++ stack.

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <vector>

#include "bsongen/detail/regex_options.hpp"
#include "bsongen/detail/utf8.hpp"
#include "bsongen/detail/value_wire.hpp"
#include "bsongen/document.hpp"
#include "small_stack.hpp"

namespace bsongen {
namespace {

using detail::container;
using detail::node;

std::size_t index_key_size(std::uint32_t i) noexcept {
  std::size_t digits = 1;
  while (i >= 10) {
    i /= 10;
    ++digits;
  }
  return digits;
}

std::uint8_t* write_index_key(std::uint8_t* p, std::uint32_t i) noexcept {
  if (i < 10) {
    p[0] = static_cast<std::uint8_t>('0' + i);
    p[1] = 0;
    return p + 2;
  }
  char digits[10];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + i % 10);
    i /= 10;
  } while (i != 0);
  while (n != 0) *p++ = static_cast<std::uint8_t>(digits[--n]);
  *p++ = 0;
  return p;
}

using detail::small_stack;

struct walk_frame {
  const node* next;
  const node* last;
  std::uint8_t* start;      // where this document's length goes (write pass)
  std::uint8_t* cws_start;  // for a scope: where the enclosing code-with-scope length goes
  std::uint32_t index;      // position of `next`: the array key to write
  bool is_array;
};

// Bytes of the value of `n`, not counting the documents nested in it (the walk adds those).
std::size_t value_size_shallow(const node& n) noexcept {
  const detail::value_rule& rule = detail::rule_of(n.type);
  switch (rule.layout) {
    case detail::value_layout::string:
      return detail::string_value_size(n.as.text.size);
    case detail::value_layout::binary:
      return detail::binary_value_size(n.as.text.size, n.subtype);
    case detail::value_layout::regex:
      return detail::regex_value_size(n.as.text.size, n.as.text.extra);
    case detail::value_layout::db_pointer:
      return detail::db_pointer_value_size(n.as.text.size);
    case detail::value_layout::code_with_scope:
      return detail::code_with_scope_head_size(n.as.cws->code_size);
    case detail::value_layout::document:
      return 0;
    case detail::value_layout::fixed:
    case detail::value_layout::none:
      break;
  }
  return rule.width;
}

// The document, array or scope nested in `n`'s value, or nullptr.
const container* nested_container(const node& n, bool& is_array) noexcept {
  is_array = n.type == bson_type::array;
  if (n.type == bson_type::document || n.type == bson_type::array) return &n.as.doc;
  if (n.type == bson_type::javascript_with_scope) return &n.as.cws->scope;
  return nullptr;
}

// `is_array`: root's elements get the keys "0", "1", ... instead of their own.
std::size_t document_size(const container& root, bool is_array = false) {
  small_stack<walk_frame, 32> stack;
  walk_frame f{root.elements, root.elements + root.size, nullptr, nullptr, 0, is_array};
  std::size_t total = 5;
  while (true) {
    if (f.next == f.last) {
      if (stack.empty()) return total;
      f = stack.top();
      stack.pop();
      continue;
    }
    const node& n = *f.next++;
    const std::uint32_t i = f.index++;
    total += 2 + (f.is_array ? index_key_size(i) : n.key_size) + value_size_shallow(n);
    bool child_is_array = false;
    const container* child = nested_container(n, child_is_array);
    if (child != nullptr) {
      total += 5;
      stack.push(f);
      f = {child->elements, child->elements + child->size, nullptr, nullptr, 0, child_is_array};
    }
  }
}

std::uint8_t* write_text(std::uint8_t* p, const char* data, std::uint32_t size) noexcept {
  detail::store_u32_le(p, size + 1);
  if (size != 0) std::memcpy(p + 4, data, size);
  p[4 + size] = 0;
  return p + 4 + size + 1;
}

// Writes the value of `n` at p, without the documents nested in it: for a document, array or
// code with scope it stops after the length field and sets `child` (otherwise left alone) to the
// frame that walks the nested contents. Returns the end of what it wrote.
[[gnu::always_inline]] inline std::uint8_t* write_value_shallow(std::uint8_t* p, const node& n,
                                                                walk_frame& child) noexcept {
  switch (n.type) {
    case bson_type::null:  // no value bytes
    case bson_type::undefined:
    case bson_type::min_key:
    case bson_type::max_key:
      return p;
    case bson_type::double_:
    case bson_type::datetime:
    case bson_type::int64:
    case bson_type::timestamp:
      detail::store_u64_le(p, n.as.u64);
      p += 8;
      break;
    case bson_type::int32:
      detail::store_i32_le(p, n.as.i32);
      p += 4;
      break;
    case bson_type::boolean:
      *p++ = n.as.boolean ? 1 : 0;
      break;
    case bson_type::object_id:
      std::memcpy(p, n.as.bytes, 12);
      p += 12;
      break;
    case bson_type::decimal128:
      std::memcpy(p, n.as.bytes, 16);
      p += 16;
      break;
    case bson_type::string:
    case bson_type::javascript:
    case bson_type::symbol:
      p = write_text(p, n.as.text.data, n.as.text.size);
      break;
    case bson_type::binary: {
      const std::uint32_t size = n.as.text.size;
      if (n.subtype == static_cast<std::uint8_t>(binary_subtype::binary_old)) {
        constexpr auto prefix = static_cast<std::uint32_t>(detail::binary_old_prefix);
        detail::store_u32_le(p, size + prefix);
        p[4] = n.subtype;
        detail::store_u32_le(p + 5, size);
        p += 5 + prefix;
      } else {
        detail::store_u32_le(p, size);
        p[4] = n.subtype;
        p += 5;
      }
      if (size != 0) std::memcpy(p, n.as.text.data, size);
      p += size;
      break;
    }
    case bson_type::regex: {
      const std::uint32_t pattern = n.as.text.size;
      const std::uint32_t options = n.as.text.extra;
      std::memcpy(p, n.as.text.data, pattern + 1);
      p += pattern + 1;
      std::memcpy(p, n.as.text.data + pattern + 1, options);
      detail::sort_regex_options(p, options);  // canonical, as the generated encoder writes them
      p[options] = 0;
      p += options + 1;
      break;
    }
    case bson_type::db_pointer:
      p = write_text(p, n.as.text.data, n.as.text.size);
      std::memcpy(p, n.as.text.data + n.as.text.size + 1, 12);
      p += 12;
      break;
    case bson_type::javascript_with_scope: {
      std::uint8_t* const cws_start = p;
      p = write_text(p + 4, n.as.cws->code, n.as.cws->code_size);
      const container& scope = n.as.cws->scope;
      child = {scope.elements, scope.elements + scope.size, p, cws_start, 0, false};
      return p + 4;
    }
    case bson_type::document:
    case bson_type::array:
      child = {n.as.doc.elements,         n.as.doc.elements + n.as.doc.size, p, nullptr, 0,
               n.type == bson_type::array};
      return p + 4;
  }
  return p;
}

// Walks from frame `f` (its length field already skipped) until it closes; returns the end.
std::uint8_t* write_walk(std::uint8_t* p, walk_frame f) {
  // The current document's state stays in `f` (registers); enclosing ones wait on the stack.
  small_stack<walk_frame, 32> stack;
  while (true) {
    if (f.next == f.last) {
      *p++ = 0;
      detail::store_u32_le(f.start, static_cast<std::uint32_t>(p - f.start));
      if (f.cws_start != nullptr)
        detail::store_u32_le(f.cws_start, static_cast<std::uint32_t>(p - f.cws_start));
      if (stack.empty()) return p;
      f = stack.top();
      stack.pop();
      continue;
    }
    const node& n = *f.next++;
    const std::uint32_t i = f.index++;
    *p++ = static_cast<std::uint8_t>(n.type);
    if (f.is_array) {
      p = write_index_key(p, i);
    } else {
      if (n.key_size != 0) std::memcpy(p, n.key, n.key_size);
      p[n.key_size] = 0;
      p += n.key_size + 1;
    }
    walk_frame child{nullptr, nullptr, nullptr, nullptr, 0, false};
    p = write_value_shallow(p, n, child);
    if (child.start != nullptr) {
      stack.push(f);
      f = child;
    }
  }
}

std::uint8_t* write_document(std::uint8_t* p, const container& root) {
  return write_walk(p + 4, {root.elements, root.elements + root.size, p, nullptr, 0, false});
}

}  // namespace

std::size_t encoded_size(document_ref doc) { return document_size(doc.root()); }

namespace {

// Encode refuses what decoding would reject (issue 11 item 5): keys, text values and a regex's
// pattern and options must be UTF-8. Building a document refuses a NUL in keys and regex parts but
// takes any other bytes, and decoded documents are valid already, so this walk runs once per
// encode, before anything is written, with its own explicit stack; the error's path names the
// element.
struct check_frame {
  const node* next;
  const node* last;
  std::uint32_t index;
  bool is_array;
};

// What keeps `n` itself from being written (its nested documents aside), or nullptr.
const char* unwritable(const node& n, bool is_array_element) noexcept {
  if (!is_array_element && !detail::is_valid_utf8(n.key, n.key_size)) return "key is not UTF-8";
  switch (n.type) {
    case bson_type::string:
    case bson_type::javascript:
    case bson_type::symbol:
    case bson_type::db_pointer:
      return detail::is_valid_utf8(n.as.text.data, n.as.text.size) ? nullptr
                                                                   : "string is not valid UTF-8";
    case bson_type::regex: {
      const char* pattern = n.as.text.data;
      const bool ok = detail::is_valid_utf8(pattern, n.as.text.size) &&
                      detail::is_valid_utf8(pattern + n.as.text.size + 1, n.as.text.extra);
      return ok ? nullptr : "regex pattern or options are not UTF-8";
    }
    case bson_type::javascript_with_scope:
      return detail::is_valid_utf8(n.as.cws->code, n.as.cws->code_size) ? nullptr
                                                                        : "code is not valid UTF-8";
    default:
      return nullptr;
  }
}

std::string path_segment(const node& n, bool is_array_element, std::uint32_t index) {
  return is_array_element ? std::to_string(index) : std::string(n.key, n.key_size);
}

result<void> check_encodable(const container& root) {
  small_stack<check_frame, 32> stack;
  check_frame f{root.elements, root.elements + root.size, 0, false};
  while (true) {
    if (f.next == f.last) {
      if (stack.empty()) return {};
      f = stack.top();
      stack.pop();
      continue;
    }
    const node& n = *f.next++;
    const std::uint32_t i = f.index++;
    if (const char* problem = unwritable(n, f.is_array)) [[unlikely]] {
      error e(error_code::invalid_utf8, std::string("cannot encode: ") + problem);
      e.prepend_path(path_segment(n, f.is_array, i));
      for (; !stack.empty(); stack.pop()) {
        const check_frame& up = stack.top();
        e.prepend_path(path_segment(*(up.next - 1), up.is_array, up.index - 1));
      }
      return e;
    }
    bool child_is_array = false;
    if (const container* child = nested_container(n, child_is_array)) {
      stack.push(f);
      f = {child->elements, child->elements + child->size, 0, child_is_array};
    }
  }
}

}  // namespace

result<void> encode_document(document_ref doc, writer& out) {
  const std::size_t size = document_size(doc.root());
  if (size > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
    return error(error_code::too_large,
                 "encoding needs " + std::to_string(size) + " bytes, above BSON's 2 GiB limit");
  }
  if (auto checked = check_encodable(doc.root()); !checked) return std::move(checked).error();
  std::uint8_t* p = out.extend(size);
  if (p == nullptr) {
    return error(error_code::buffer_too_small, "encoding needs " + std::to_string(size) +
                                                   " bytes, the output buffer has " +
                                                   std::to_string(out.capacity() - out.size()));
  }
  write_document(p, doc.root());
  return {};
}

namespace detail {

std::size_t encoded_value_size(const value& v) noexcept {
  const node& n = *v.node_ptr();
  bool is_array = false;
  const container* child = nested_container(n, is_array);
  return value_size_shallow(n) + (child != nullptr ? document_size(*child, is_array) : 0);
}

std::uint8_t* write_value(const value& v, std::uint8_t* out) noexcept {
  walk_frame child{nullptr, nullptr, nullptr, nullptr, 0, false};
  out = write_value_shallow(out, *v.node_ptr(), child);
  return child.start != nullptr ? write_walk(out, child) : out;
}

std::uint8_t type_byte_of(const value& v) noexcept {
  return static_cast<std::uint8_t>(v.node_ptr()->type);
}

}  // namespace detail

raw_document to_raw_document(document_ref doc) { return raw_document(encode_document(doc).span()); }

byte_buffer encode_document(document_ref doc) {
  writer w;
  encode_document(doc, w).value();
  return w.take();
}

}  // namespace bsongen
