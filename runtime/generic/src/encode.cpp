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

// Bytes of the keys "0", "1", ..., count - 1 without their NULs: one digit each, one more for
// each key from 10 on, one more from 100 on, ...
std::size_t index_keys_size(std::uint32_t count) noexcept {
  std::size_t total = count;
  for (std::uint64_t from = 10; from < count; from *= 10) total += count - from;
  return total;
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

// The table's facts as compile-time constants, so value_size_shallow is one jump on the type byte
// rather than a table load per element; a case that disagrees with the table does not compile.
template <bson_type T>
constexpr std::size_t fixed_width() noexcept {
  static_assert(detail::rule_of(T).layout == detail::value_layout::fixed);
  return detail::rule_of(T).width;
}
template <detail::value_layout L, bson_type... T>
constexpr bool laid_out_as = ((detail::rule_of(T).layout == L) && ...);

// Bytes of the value of `n`, not counting the documents nested in it (the walk adds those).
std::size_t value_size_shallow(const node& n) noexcept {
  using L = detail::value_layout;
  using T = bson_type;
  switch (n.type) {
    case T::double_:
      return fixed_width<T::double_>();
    case T::undefined:
      return fixed_width<T::undefined>();
    case T::object_id:
      return fixed_width<T::object_id>();
    case T::boolean:
      return fixed_width<T::boolean>();
    case T::datetime:
      return fixed_width<T::datetime>();
    case T::null:
      return fixed_width<T::null>();
    case T::int32:
      return fixed_width<T::int32>();
    case T::timestamp:
      return fixed_width<T::timestamp>();
    case T::int64:
      return fixed_width<T::int64>();
    case T::decimal128:
      return fixed_width<T::decimal128>();
    case T::min_key:
      return fixed_width<T::min_key>();
    case T::max_key:
      return fixed_width<T::max_key>();
    case T::string:
    case T::javascript:
    case T::symbol:
      static_assert(laid_out_as<L::string, T::string, T::javascript, T::symbol>);
      return detail::string_value_size(n.as.text.size);
    case T::binary:
      static_assert(laid_out_as<L::binary, T::binary>);
      return detail::binary_value_size(n.as.text.size, n.subtype);
    case T::regex:
      static_assert(laid_out_as<L::regex, T::regex>);
      return detail::regex_value_size(n.as.text.size, n.as.text.extra);
    case T::db_pointer:
      static_assert(laid_out_as<L::db_pointer, T::db_pointer>);
      return detail::db_pointer_value_size(n.as.text.size);
    case T::javascript_with_scope:
      static_assert(laid_out_as<L::code_with_scope, T::javascript_with_scope>);
      return detail::code_with_scope_head_size(n.as.cws->code_size);
    case T::document:
    case T::array:
      static_assert(laid_out_as<L::document, T::document, T::array>);
      return 0;
  }
  return 0;  // not a type byte: nodes hold only the types above
}

// The document, array or scope nested in `n`'s value, or nullptr.
const container* nested_container(const node& n, bool& is_array) noexcept {
  is_array = n.type == bson_type::array;
  if (n.type == bson_type::document || n.type == bson_type::array) return &n.as.doc;
  if (n.type == bson_type::javascript_with_scope) return &n.as.cws->scope;
  return nullptr;
}

const char* unwritable(const node& n, bool is_array_element) noexcept;

// `is_array`: root's elements get the keys "0", "1", ... instead of their own. With `refused`,
// also checks the UTF-8 each element's node_flags do not vouch for (an array element's key is not
// written) and sets *refused when some element cannot be encoded (check_encodable says which).
template <bool CheckUtf8 = false>
std::size_t document_size(const container& root, bool is_array = false,
                          [[maybe_unused]] bool* refused = nullptr) {
  // The current level lives in locals (registers); enclosing ones wait on the stack as three
  // scalars, not a walk_frame copied through memory.
  struct level {
    const node* next;
    const node* last;
    bool is_array;
  };
  small_stack<level, 32> stack;
  const node* next = root.elements;
  const node* last = root.elements + root.size;
  std::size_t total = 5 + (is_array ? index_keys_size(root.size) : 0);
  while (true) {
    if (next == last) {
      if (stack.empty()) return total;
      const level& up = stack.top();
      next = up.next;
      last = up.last;
      is_array = up.is_array;
      stack.pop();
      continue;
    }
    const node& n = *next++;
    if constexpr (CheckUtf8) {
      const std::uint16_t vouched =
          is_array ? detail::node_flags::text_utf8 : detail::node_flags::utf8;
      if ((n.flags & vouched) != vouched && unwritable(n, is_array) != nullptr) [[unlikely]]
        *refused = true;
    }
    // Type byte, key NUL, key (an array element's, counted when its array was entered), value.
    total += 2 + (is_array ? 0 : n.key_size) + value_size_shallow(n);
    bool child_is_array = false;
    const container* child = nested_container(n, child_is_array);
    if (child != nullptr) {
      total += 5 + (child_is_array ? index_keys_size(child->size) : 0);
      if (child->size != 0) {
        stack.push({next, last, is_array});
        next = child->elements;
        last = child->elements + child->size;
        is_array = child_is_array;
      }
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
// takes any other bytes. The size walk checks every element whose node_flags do not vouch for it
// (decoded with validate_utf8, or built from text that was UTF-8); this walk runs only once that
// check has failed, to find the first unwritable element again with its path.
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

// The first element below `root` (an array's elements when `is_array`) that cannot be written,
// as an error whose path leads to it from root; ok when there is none.
result<void> check_encodable(const container& root, bool is_array = false) {
  small_stack<check_frame, 32> stack;
  check_frame f{root.elements, root.elements + root.size, 0, is_array};
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
  bool refused = false;
  const std::size_t size = document_size<true>(doc.root(), false, &refused);
  if (size > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
    return error(error_code::too_large,
                 "encoding needs " + std::to_string(size) + " bytes, above BSON's 2 GiB limit");
  }
  if (refused) [[unlikely]] {
    if (auto checked = check_encodable(doc.root()); !checked) return std::move(checked).error();
  }
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

namespace {

// Why encode_document would refuse the value of `n` (written without its key), its path below
// the value: what check_encodable says of it.
[[gnu::cold, gnu::noinline]] void fail_encode_value(encode_state& es, const node& n) {
  if (es.failed) return;  // keep the first problem, as fail_encode does
  es.failed = true;
  if (const char* problem = unwritable(n, true)) {
    es.err = bsongen::error(error_code::invalid_utf8, std::string("cannot encode: ") + problem);
    return;
  }
  bool is_array = false;
  const container* child = nested_container(n, is_array);
  result<void> checked = child != nullptr ? check_encodable(*child, is_array) : result<void>{};
  es.err = checked ? bsongen::error(error_code::invalid_utf8, "cannot encode: text is not UTF-8")
                   : std::move(checked).error();
}

}  // namespace

std::size_t encoded_value_size(const value& v, encode_state& es) noexcept {
  const node& n = *v.node_ptr();
  // The checks encode_document makes, on the same walk: only what node_flags do not vouch for
  // (a decoded value, or one built from UTF-8 text, costs one flag test per node).
  bool refused = (n.flags & node_flags::text_utf8) == 0 && unwritable(n, true) != nullptr;
  bool is_array = false;
  const container* child = nested_container(n, is_array);
  const std::size_t size = value_size_shallow(n) +
                           (child != nullptr ? document_size<true>(*child, is_array, &refused) : 0);
  if (refused) [[unlikely]]
    fail_encode_value(es, n);
  return size;
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
