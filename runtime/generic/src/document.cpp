// Building, copying and comparing generic documents and values.

#include "bsongen/document.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <string>

#include "bsongen/detail/regex_options.hpp"
#include "bsongen/detail/utf8.hpp"
#include "small_stack.hpp"

namespace bsongen {
namespace detail {

namespace {

using detail::small_stack;

constexpr std::size_t default_build_block = 256;

// See value.hpp, "Sizes". Checked before anything is copied, so a huge view costs nothing.
void check_part_size(std::size_t n, const char* what) {
  if (n > max_part_size) [[unlikely]] {
    throw exception(
        error(error_code::too_large, std::string(what) + " of " + std::to_string(n) +
                                         " bytes is longer than BSON's int32 sizes allow"));
  }
}

// node_flags (bsongen/detail/node.hpp): the key bit is set by whoever writes the key, the text bit
// by whoever writes the value; each keeps the other's.
void take_text_flag(node& dst, const node& src) noexcept {
  dst.flags = static_cast<std::uint16_t>((dst.flags & ~node_flags::text_utf8) |
                                         (src.flags & node_flags::text_utf8));
}

bool needs_storage(const node& n) noexcept {
  switch (n.type) {
    case bson_type::string:
    case bson_type::javascript:
    case bson_type::symbol:
    case bson_type::binary:
    case bson_type::regex:
    case bson_type::db_pointer:
    case bson_type::javascript_with_scope:
      return true;
    case bson_type::document:
    case bson_type::array:
      return n.as.doc.size != 0;
    default:
      return false;
  }
}

// A container whose elements are still to be copied: the copy walks with an explicit stack, so
// no nesting depth can overflow the C++ stack (HACKING.md: the generic path does not recurse).
struct clone_frame {
  const container* src;
  container* dst;
  std::uint32_t next;
  bool copy_keys;
};

// Copies src's parts into `a` and leaves dst pointing at them (keys and their flag untouched; dst's
// key flag must be set), except the
// elements of a nested document, array or scope: for those it sizes dst's container and returns
// the frame that fills it (else a frame with src == nullptr).
clone_frame clone_shallow(const node& src, node& dst, arena& a) {
  dst.type = src.type;
  dst.subtype = src.subtype;
  take_text_flag(dst, src);  // the same bytes
  const container* nested = nullptr;
  container* target = nullptr;
  bool keys = true;
  switch (src.type) {
    case bson_type::string:
    case bson_type::javascript:
    case bson_type::symbol:
    case bson_type::binary: {
      char* copy = a.copy_string({src.as.text.data, src.as.text.size});
      dst.as.text = {copy, src.as.text.size, 0};
      break;
    }
    case bson_type::regex:
    case bson_type::db_pointer: {
      // Both keep a second part right after the first's NUL (see node.hpp).
      const std::size_t tail =
          src.type == bson_type::regex ? src.as.text.extra + 1 : object_id::size;
      const std::size_t total = src.as.text.size + 1 + tail;
      auto* copy = static_cast<char*>(a.allocate(total, 1));
      std::memcpy(copy, src.as.text.data, total);
      dst.as.text = {copy, src.as.text.size, src.as.text.extra};
      break;
    }
    case bson_type::javascript_with_scope: {
      auto* cws = a.allocate_array<code_with_scope>(1);
      cws->code = a.copy_string({src.as.cws->code, src.as.cws->code_size});
      cws->code_size = src.as.cws->code_size;
      cws->scope = {};
      dst.as.cws = cws;
      nested = &src.as.cws->scope;
      target = &cws->scope;
      break;
    }
    case bson_type::document:
    case bson_type::array:
      dst.as.doc = {};
      nested = &src.as.doc;
      target = &dst.as.doc;
      keys = src.type == bson_type::document;
      break;
    default:
      dst.as = src.as;
      break;
  }
  if (nested == nullptr) return {nullptr, nullptr, 0, false};
  target->size = target->capacity = nested->size;
  target->elements = nested->size == 0 ? nullptr : a.allocate_array<node>(nested->size);
  return {nested, target, 0, keys};
}

// Fills f.dst's elements (allocated and sized) from f.src's, nested ones included.
void clone_walk(clone_frame f, arena& a) {
  small_stack<clone_frame, 16> stack;
  while (true) {
    if (f.next == f.src->size) {
      if (stack.empty()) return;
      f = stack.top();
      stack.pop();
      continue;
    }
    const node& s = f.src->elements[f.next];
    node& d = f.dst->elements[f.next];
    ++f.next;
    if (f.copy_keys && s.key_size != 0) {
      d.key = a.copy_string({s.key, s.key_size});
      d.key_size = s.key_size;
      d.flags = s.flags & node_flags::key_utf8;
    } else {
      d.key = "";
      d.key_size = 0;
      d.flags = node_flags::key_utf8;
    }
    const clone_frame child = clone_shallow(s, d, a);
    if (child.src != nullptr && child.src->size != 0) {
      stack.push(f);
      f = child;
    }
  }
}

// Copies src's elements, nested ones included, into a new run in `a` that dst then holds.
void clone_container(const container& src, container& dst, arena& a, bool copy_keys) {
  dst.size = dst.capacity = src.size;
  dst.elements = nullptr;
  if (src.size == 0) return;
  dst.elements = a.allocate_array<node>(src.size);
  clone_walk({&src, &dst, 0, copy_keys}, a);
}

// Copies a value's parts, nested elements included (keys untouched).
void clone_payload(const node& src, node& dst, arena& a) {
  const clone_frame child = clone_shallow(src, dst, a);
  if (child.src != nullptr && child.src->size != 0) clone_walk(child, a);
}

bool text_equal(const text_ref& a, const text_ref& b) noexcept {
  return a.size == b.size && (a.size == 0 || std::memcmp(a.data, b.data, a.size) == 0);
}

// Regex options as encode writes them (bsongen/detail/regex_options.hpp).
std::string sorted(std::string_view s) {
  std::string out(s);
  sort_regex_options(out.data(), out.size());
  return out;
}

// Grows `c` so one more node fits, moving its nodes to a larger run in `a`.
node& append_slot(container& c, arena& a) {
  if (c.size == c.capacity) {
    const std::uint32_t capacity = c.capacity < 4 ? 4 : c.capacity * 2;
    node* grown = a.allocate_array<node>(capacity);
    if (c.size != 0) std::memcpy(static_cast<void*>(grown), c.elements, c.size * sizeof(node));
    c.elements = grown;
    c.capacity = capacity;
  }
  return c.elements[c.size++];
}

// Fills `dst` with the value `v` holds, taking over v's storage for documents and arrays (no copy)
// and copying other variable-length parts into `a`.
// dst's key (and its flag) is already set.
void place_value(value_storage& v_storage, node& v_node, node& dst, arena& a) {
  if (v_storage && (v_node.type == bson_type::document || v_node.type == bson_type::array ||
                    v_node.type == bson_type::javascript_with_scope)) {
    v_storage.hand_to(a);  // first: it may throw, and dst is untouched then
    dst.type = v_node.type;
    dst.subtype = v_node.subtype;
    take_text_flag(dst, v_node);
    dst.as = v_node.as;
  } else if (needs_storage(v_node)) {
    clone_payload(v_node, dst, a);
  } else {
    dst.type = v_node.type;
    dst.subtype = v_node.subtype;
    take_text_flag(dst, v_node);
    dst.as = v_node.as;
  }
}

const char* copy_key(std::string_view key, arena& a) {
  check_part_size(key.size(), "a key");
  if (key.find('\0') != std::string_view::npos) {
    throw exception(error(error_code::invalid_value, "a key cannot contain a NUL byte"));
  }
  return a.copy_string(key);
}

// Bytes a value's parts take in an arena beyond its own node: texts, and for a document, array
// or scope every nested node with its key and parts. Walks with an explicit stack.
std::size_t parts_footprint(const node& n) {
  struct pending {
    const container* c;
    std::uint32_t next;
  };
  small_stack<pending, 16> stack;
  std::size_t total = 0;
  const node* current = &n;
  pending f{nullptr, 0};
  while (true) {
    if (current != nullptr) {
      const container* nested = nullptr;
      switch (current->type) {
        case bson_type::string:
        case bson_type::javascript:
        case bson_type::symbol:
        case bson_type::binary:
          total += std::size_t{current->as.text.size} + 1;
          break;
        case bson_type::regex:
          total += std::size_t{current->as.text.size} + 1 + current->as.text.extra + 1;
          break;
        case bson_type::db_pointer:
          total += std::size_t{current->as.text.size} + 1 + object_id::size;
          break;
        case bson_type::javascript_with_scope:
          total += sizeof(code_with_scope) + current->as.cws->code_size + 1;
          nested = &current->as.cws->scope;
          break;
        case bson_type::document:
        case bson_type::array:
          nested = &current->as.doc;
          break;
        default:
          break;
      }
      current = nullptr;
      if (nested != nullptr && nested->size != 0) {
        total += std::size_t{nested->capacity} * sizeof(node);
        if (f.c != nullptr) stack.push(f);
        f = {nested, 0};
      }
    }
    if (f.c == nullptr) return total;
    if (f.next == f.c->size) {
      if (stack.empty()) return total;
      f = stack.top();
      stack.pop();
      continue;
    }
    const node& e = f.c->elements[f.next++];
    total += std::size_t{e.key_size} + 1;
    current = &e;
  }
}

}  // namespace

void throw_type_mismatch(bson_type expected, const node* actual) {
  if (actual == nullptr) {
    throw exception(error(error_code::missing_field, "no element there (missing key or index)"));
  }
  std::string message = "expected ";
  message += type_name(expected);
  message += ", found ";
  message += type_name(actual->type);
  error e(error_code::type_mismatch, std::move(message));
  if (actual->key_size != 0) e.path.assign(actual->key, actual->key_size);
  throw exception(std::move(e));
}

void throw_integer_out_of_range() {
  throw exception(
      error(error_code::inexact, "an unsigned integer above INT64_MAX has no BSON type"));
}

namespace {

// Two containers whose elements are still to be compared, from position `next`.
struct equal_frame {
  const container* a;
  const container* b;
  std::uint32_t next;
  bool compare_keys;
};

// Compares x and y except the elements nested in them; for a document, array or scope pair it
// sets `child` to the frame that compares their elements.
bool shallow_equal(const node& a, const node& b, equal_frame& child) {
  if (a.type != b.type) return false;
  switch (a.type) {
    case bson_type::double_:
    case bson_type::datetime:
    case bson_type::int64:
    case bson_type::timestamp:
      return a.as.u64 == b.as.u64;  // doubles bit for bit, as their encodings compare
    case bson_type::int32:
      return a.as.i32 == b.as.i32;
    case bson_type::boolean:
      return a.as.boolean == b.as.boolean;
    case bson_type::object_id:
      return std::memcmp(a.as.bytes, b.as.bytes, object_id::size) == 0;
    case bson_type::decimal128:
      return std::memcmp(a.as.bytes, b.as.bytes, 16) == 0;
    case bson_type::string:
    case bson_type::javascript:
    case bson_type::symbol:
      return text_equal(a.as.text, b.as.text);
    case bson_type::binary:
      return a.subtype == b.subtype && text_equal(a.as.text, b.as.text);
    case bson_type::regex: {
      if (!text_equal(a.as.text, b.as.text) || a.as.text.extra != b.as.text.extra) return false;
      const std::string_view oa(a.as.text.data + a.as.text.size + 1, a.as.text.extra);
      const std::string_view ob(b.as.text.data + b.as.text.size + 1, b.as.text.extra);
      return oa == ob || sorted(oa) == sorted(ob);
    }
    case bson_type::db_pointer:
      return text_equal(a.as.text, b.as.text) &&
             std::memcmp(a.as.text.data + a.as.text.size + 1, b.as.text.data + b.as.text.size + 1,
                         object_id::size) == 0;
    case bson_type::javascript_with_scope:
      if (a.as.cws->code_size != b.as.cws->code_size ||
          (a.as.cws->code_size != 0 &&
           std::memcmp(a.as.cws->code, b.as.cws->code, a.as.cws->code_size) != 0)) {
        return false;
      }
      child = {&a.as.cws->scope, &b.as.cws->scope, 0, true};
      return true;
    case bson_type::document:
    case bson_type::array:
      child = {&a.as.doc, &b.as.doc, 0, a.type == bson_type::document};
      return true;
    case bson_type::undefined:
    case bson_type::null:
    case bson_type::min_key:
    case bson_type::max_key:
      return true;
  }
  return false;
}

// Compares the elements of f.a and f.b, nested ones included, with an explicit stack.
bool equal_walk(equal_frame f) {
  small_stack<equal_frame, 16> stack;
  while (true) {
    if (f.next == 0 && f.a->size != f.b->size) return false;
    if (f.next == f.a->size) {
      if (stack.empty()) return true;
      f = stack.top();
      stack.pop();
      continue;
    }
    const node& x = f.a->elements[f.next];
    const node& y = f.b->elements[f.next];
    ++f.next;
    if (f.compare_keys && (x.key_size != y.key_size ||
                           (x.key_size != 0 && std::memcmp(x.key, y.key, x.key_size) != 0))) {
      return false;
    }
    equal_frame child{nullptr, nullptr, 0, false};
    if (!shallow_equal(x, y, child)) return false;
    if (child.a != nullptr) {
      stack.push(f);
      f = child;
    }
  }
}

}  // namespace

bool containers_equal(const container& a, const container& b, bool compare_keys) {
  return equal_walk({&a, &b, 0, compare_keys});
}

bool nodes_equal(const node& a, const node& b) {
  equal_frame child{nullptr, nullptr, 0, false};
  if (!shallow_equal(a, b, child)) return false;
  return child.a == nullptr || equal_walk(child);
}

}  // namespace detail

// ---- value ----

detail::arena& value::own_arena(std::size_t bytes, std::pmr::memory_resource* upstream) {
  if (detail::arena* a = storage_.owned()) return *a;
  storage_ = detail::value_storage(detail::arena::create_exact(
      upstream != nullptr ? upstream : detail::default_block_resource(), bytes));
  return *storage_.owned();
}

std::pmr::memory_resource* value::parts_resource() const noexcept {
  const detail::arena* a = storage_.owned();
  return a != nullptr ? a->upstream() : nullptr;
}

value::value(std::string_view s) {
  detail::check_part_size(s.size(), "a string");
  set_type(bson_type::string);
  char* copy = own_arena(s.size() + 1).copy_string(s);
  node_.as.text = {copy, static_cast<std::uint32_t>(s.size()), 0};
  // Not refused here (a document may hold any bytes until it is encoded); known for encode.
  if (detail::is_valid_utf8(s.data(), s.size())) node_.flags |= detail::node_flags::text_utf8;
}

value::value(const binary& b) {
  detail::check_part_size(b.bytes.size(), "a binary value");
  set_type(bson_type::binary);
  node_.subtype = static_cast<std::uint8_t>(b.subtype);
  const std::string_view bytes(reinterpret_cast<const char*>(b.bytes.data()), b.bytes.size());
  char* copy = own_arena(bytes.size() + 1).copy_string(bytes);
  node_.as.text = {copy, static_cast<std::uint32_t>(bytes.size()), 0};
}

value::value(const regex& r) {
  if (r.pattern.find('\0') != std::string::npos || r.options.find('\0') != std::string::npos) {
    throw exception(
        error(error_code::invalid_value, "a regex pattern or options cannot contain NUL"));
  }
  detail::check_part_size(r.pattern.size() + r.options.size(), "a regex");
  set_type(bson_type::regex);
  const std::size_t total = r.pattern.size() + r.options.size() + 2;
  auto* copy = static_cast<char*>(own_arena(total).allocate(total, 1));
  std::memcpy(copy, r.pattern.c_str(), r.pattern.size() + 1);
  std::memcpy(copy + r.pattern.size() + 1, r.options.c_str(), r.options.size() + 1);
  node_.as.text = {copy, static_cast<std::uint32_t>(r.pattern.size()),
                   static_cast<std::uint32_t>(r.options.size())};
  if (detail::is_valid_utf8(r.pattern.data(), r.pattern.size()) &&
      detail::is_valid_utf8(r.options.data(), r.options.size())) {
    node_.flags |= detail::node_flags::text_utf8;
  }
}

value::value(const javascript& code) : value(std::string_view(code.code)) {
  node_.type = bson_type::javascript;
}

value::value(const symbol& s) : value(std::string_view(s.text)) { node_.type = bson_type::symbol; }

value::value(const db_pointer& p) {
  detail::check_part_size(p.ns.size(), "a dbPointer namespace");
  set_type(bson_type::db_pointer);
  const std::size_t total = p.ns.size() + 1 + object_id::size;
  auto* copy = static_cast<char*>(own_arena(total).allocate(total, 1));
  std::memcpy(copy, p.ns.c_str(), p.ns.size() + 1);
  std::memcpy(copy + p.ns.size() + 1, p.id.data(), object_id::size);
  node_.as.text = {copy, static_cast<std::uint32_t>(p.ns.size()), 0};
  if (detail::is_valid_utf8(p.ns.data(), p.ns.size())) node_.flags |= detail::node_flags::text_utf8;
}

value::value(const javascript_with_scope& c) {
  detail::check_part_size(c.code.size(), "JavaScript code");
  // The scope's bytes are a valid document by raw_document's precondition, so no size limit of
  // decode_options applies again; depth is bounded by max_depth_limit only (the hard cap), and a
  // scope that breaks the precondition throws.
  decode_options options;
  options.max_size = c.scope.size();
  options.max_depth = std::numeric_limits<std::size_t>::max();
  const document scope = decode_document(c.scope.bytes(), options).value();
  set_type(bson_type::javascript_with_scope);
  detail::arena& a = own_arena(c.code.size() + 64);
  auto* cws = a.allocate_array<detail::code_with_scope>(1);
  cws->code = a.copy_string(c.code);
  cws->code_size = static_cast<std::uint32_t>(c.code.size());
  cws->scope = {};
  detail::clone_container(scope.root_, cws->scope, a, true);
  node_.as.cws = cws;
  if (detail::is_valid_utf8(c.code.data(), c.code.size()))
    node_.flags |= detail::node_flags::text_utf8;
}

value::value(const document& d) {
  set_type(bson_type::document);
  node_.as.doc = {};
  if (d.root_.size != 0)
    detail::clone_container(d.root_, node_.as.doc, own_arena(detail::default_build_block), true);
}

value::value(document&& d) noexcept : storage_(d.arena_.release()) {
  set_type(bson_type::document);
  node_.as.doc = std::exchange(d.root_, {});
  d.source_size_ = 0;
}

value::value(const array& a) {
  set_type(bson_type::array);
  node_.as.doc = {};
  if (a.root_.size != 0)
    detail::clone_container(a.root_, node_.as.doc, own_arena(detail::default_build_block), false);
}

value::value(array&& a) noexcept : storage_(a.arena_.release()) {
  set_type(bson_type::array);
  node_.as.doc = std::exchange(a.root_, {});
}

value::value(value_ref v) : value(v, nullptr) {}

value::value(value_ref v, std::pmr::memory_resource* upstream) {
  if (!v.exists()) detail::throw_type_mismatch(bson_type::null, nullptr);
  const detail::node& src = *v.node_ptr();
  set_type(src.type);
  detail::take_text_flag(node_, src);
  if (detail::needs_storage(src)) {
    // Sized to the parts (with room for each node run's alignment), so a copy keeps alive what it
    // holds and no more.
    const std::size_t parts = detail::parts_footprint(src);
    detail::clone_payload(src, node_, own_arena(parts + parts / 4 + 16, upstream));
  } else {
    node_.subtype = src.subtype;
    node_.as = src.as;
    if (src.type == bson_type::document || src.type == bson_type::array) node_.as.doc = {};
  }
}

// ---- document ----

detail::arena& document::storage(std::size_t bytes_hint) {
  if (!arena_) arena_.reset(detail::arena::create(detail::default_block_resource(), bytes_hint));
  return *arena_;
}

document::document(std::initializer_list<field> fields) {
  detail::arena& a = storage(fields.size() * (sizeof(detail::node) + 16));
  root_.elements = a.allocate_array<detail::node>(fields.size());
  root_.capacity = static_cast<std::uint32_t>(fields.size());
  for (const field& f : fields) append(f.key, std::move(f.val));
}

document::document(document_ref other) {
  if (other.empty()) return;
  detail::clone_container(other.root(), root_, storage(other.size() * 64), true);
}

document& document::operator=(const document& other) {
  if (this != &other) *this = document(other);
  return *this;
}

document& document::operator=(document&& other) noexcept {
  if (this != &other) {
    arena_ = std::move(other.arena_);
    root_ = std::exchange(other.root_, {});
    source_size_ = std::exchange(other.source_size_, 0);
    dead_bytes_ = std::exchange(other.dead_bytes_, 0);
    compact_at_ = std::exchange(other.compact_at_, initial_compact_at);
  }
  return *this;
}

document& document::append(std::string_view key, value v) {
  detail::arena& a = storage(detail::default_build_block);
  const char* key_copy = detail::copy_key(key, a);
  detail::node& slot = detail::append_slot(root_, a);
  slot.key = key_copy;
  slot.key_size = static_cast<std::uint32_t>(key.size());
  slot.flags = detail::is_valid_utf8(key.data(), key.size()) ? detail::node_flags::key_utf8 : 0;
  detail::place_value(v.storage_, v.node_, slot, a);
  return *this;
}

document& document::set(std::string_view key, value v) {
  element existing = find(key);
  if (!existing) return append(key, std::move(v));
  auto& slot = const_cast<detail::node&>(*existing.node_ptr());  // our own storage
  // The replaced value's parts stay in the arena until the document is copied afresh: once they
  // outweigh what is live, so memory stays within a small multiple of the live document however
  // many times set() runs.
  dead_bytes_ += detail::parts_footprint(slot);
  detail::place_value(v.storage_, v.node_, slot, *arena_);
  if (dead_bytes_ > compact_at_) [[unlikely]]
    compact();
  return *this;
}

void document::compact() {
  // Floor: below it a copy costs more than the bytes it would give back.
  constexpr std::size_t min_dead_bytes = initial_compact_at;
  detail::node whole{};
  whole.type = bson_type::document;
  whole.as.doc = root_;
  const std::size_t live = detail::parts_footprint(whole);
  if (dead_bytes_ > live) {
    document fresh(ref());
    fresh.source_size_ = source_size_;
    *this = std::move(fresh);  // frees the old arena and every arena it adopted
    dead_bytes_ = 0;
  }
  compact_at_ = std::max(min_dead_bytes, live);
}

void document::clear() noexcept {
  arena_.reset();
  root_ = {};
  source_size_ = 0;
  dead_bytes_ = 0;
  compact_at_ = initial_compact_at;
}

// ---- array ----

detail::arena& array::storage(std::size_t bytes_hint) {
  if (!arena_) arena_.reset(detail::arena::create(detail::default_block_resource(), bytes_hint));
  return *arena_;
}

array::array(std::initializer_list<item> items) {
  detail::arena& a = storage(items.size() * (sizeof(detail::node) + 16));
  root_.elements = a.allocate_array<detail::node>(items.size());
  root_.capacity = static_cast<std::uint32_t>(items.size());
  for (const item& i : items) push_back(std::move(i.val));
}

array::array(array_ref other) {
  if (other.empty()) return;
  detail::clone_container(other.root(), root_, storage(other.size() * 64), false);
}

array& array::operator=(const array& other) {
  if (this != &other) *this = array(other);
  return *this;
}

array& array::operator=(array&& other) noexcept {
  if (this != &other) {
    arena_ = std::move(other.arena_);
    root_ = std::exchange(other.root_, {});
  }
  return *this;
}

array& array::push_back(value v) {
  detail::arena& a = storage(detail::default_build_block);
  detail::node& slot = detail::append_slot(root_, a);
  slot.key = "";
  slot.key_size = 0;
  slot.flags = detail::node_flags::key_utf8;
  detail::place_value(v.storage_, v.node_, slot, a);
  return *this;
}

void array::clear() noexcept {
  arena_.reset();
  root_ = {};
}

}  // namespace bsongen
