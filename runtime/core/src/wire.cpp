#include "bsongen/detail/wire.hpp"

#include <cstddef>
#include <functional>
#include <new>
#include <unordered_set>
#include <utility>

namespace bsongen::detail {

struct unknown_key_set {
  // A document is known by its end, which no other open document shares.
  using entry = std::pair<const std::uint8_t*, std::string_view>;
  struct entry_hash {
    std::size_t operator()(const entry& e) const noexcept {
      return std::hash<std::string_view>()(e.second) ^
             (std::hash<const void*>()(e.first) * 0x9e3779b97f4a7c15ULL);
    }
  };
  std::unordered_set<entry, entry_hash> keys;
};

void unknown_key_set_deleter::operator()(unknown_key_set* keys) const noexcept { delete keys; }

bool note_unknown_key(decode_state& st, const std::uint8_t* doc_end, std::string_view key) {
  if (st.unknown_keys == nullptr) st.unknown_keys.reset(new unknown_key_set);
  return st.unknown_keys->keys.emplace(doc_end, key).second;
}

std::nullptr_t fail(decode_state& st, error_code code, const std::uint8_t* at,
                    std::string message) {
  st.err = bsongen::error(code, std::move(message), st.offset(at));
  return nullptr;
}

std::nullptr_t fail_truncated(decode_state& st, const std::uint8_t* at, std::string_view what) {
  return fail(st, error_code::truncated, at, messages::value_past_end(what));
}

std::nullptr_t fail_length_past_end(decode_state& st, const std::uint8_t* at, std::string_view what,
                                    std::int64_t length) {
  return fail(st, error_code::invalid_length, at, messages::length_past_end(what, length));
}

std::nullptr_t fail_not_a_type(decode_state& st, std::uint8_t type, const std::uint8_t* at) {
  // A NUL where an element should start ends the document early: a length problem.
  if (type == 0) {
    return fail(st, error_code::invalid_length, at, std::string(messages::early_document_end));
  }
  return fail(st, error_code::invalid_type, at, messages::unknown_type(type));
}

std::nullptr_t fail_type(decode_state& st, bson_type expected, std::uint8_t actual,
                         const std::uint8_t* at) {
  if (!is_bson_type(actual)) return fail_not_a_type(st, actual, at);
  return fail(st, error_code::type_mismatch, at,
              "expected " + std::string(type_name(expected)) + ", found " +
                  std::string(type_name(static_cast<bson_type>(actual))));
}

error envelope_error(const std::uint8_t* p, std::size_t size, std::size_t max_size) {
  if (size < 5) {
    return error(error_code::truncated,
                 "input has " + std::to_string(size) + " bytes, a document needs at least 5", 0);
  }
  const std::int32_t declared = load_i32_le(p);
  if (declared < 5) {
    return error(error_code::invalid_length, messages::length_below("document", declared, 5), 0);
  }
  const auto length = static_cast<std::size_t>(declared);
  if (length > max_size) {
    return error(error_code::too_large,
                 "document length " + std::to_string(length) + " exceeds the limit of " +
                     std::to_string(max_size) + " bytes",
                 0);
  }
  if (length > size) {
    return error(error_code::truncated,
                 "document declares " + std::to_string(length) + " bytes but the input has " +
                     std::to_string(size),
                 size);
  }
  if (length < size) {
    return error(error_code::trailing_bytes,
                 std::to_string(size - length) + " bytes follow the document's declared end",
                 length);
  }
  if (p[length - 1] != 0) {
    return error(error_code::missing_terminator, messages::missing_nul("document"), length - 1);
  }
  return error();
}

std::nullptr_t fail_document(decode_state& st, const std::uint8_t* p, std::int64_t length,
                             std::int64_t available) {
  if (st.depth == 0 && p == st.origin) {
    // The outermost document: the same verdicts as the generic decoder's envelope check.
    error e = envelope_error(p, static_cast<std::size_t>(available), static_cast<std::size_t>(-1));
    if (e.code != error_code::ok) {
      st.err = std::move(e);
      return nullptr;
    }
    return fail(st, error_code::too_deep, p, messages::too_deep(st.max_depth));
  }
  if (available < 5) return fail_truncated(st, p, "embedded document");
  if (length < 5) {
    return fail(st, error_code::invalid_length, p,
                messages::length_below("embedded document", length, 5));
  }
  if (length > available) return fail_length_past_end(st, p, "embedded document", length);
  if (p[length - 1] != 0) {
    return fail(st, error_code::missing_terminator, p + length - 1,
                messages::missing_nul("embedded document"));
  }
  return fail(st, error_code::too_deep, p, messages::too_deep(st.max_depth));
}

std::nullptr_t fail_string(decode_state& st, const std::uint8_t* p, const std::uint8_t* end) {
  // A readable length is named, as the generic decoder names it, even when the value has no room
  // for its NUL.
  if (end - p < 4) return fail_truncated(st, p, "string");
  const std::int32_t length = load_i32_le(p);
  if (length < 1) {
    return fail(st, error_code::invalid_length, p, messages::length_below("string", length, 1));
  }
  if (length > end - p - 4) return fail_length_past_end(st, p, "string", length);
  if (p[4 + length - 1] != 0) {
    return fail(st, error_code::missing_terminator, p + 4 + length - 1,
                messages::missing_nul("string"));
  }
  return fail(st, error_code::invalid_utf8, p, messages::not_utf8("string"));
}

std::nullptr_t fail_invalid_bool(decode_state& st, const std::uint8_t* p) {
  return fail(st, error_code::invalid_bool, p, messages::invalid_bool(*p));
}

bsongen::error out_of_memory_error() noexcept {
  bsongen::error e;  // an empty message allocates nothing
  e.code = error_code::out_of_memory;
  try {
    e.message = "the memory resource could not allocate";
  } catch (const std::bad_alloc&) {  // the code alone says what happened
  }
  return e;
}

std::nullptr_t fail_out_of_memory(decode_state& st, const std::uint8_t* at) noexcept {
  st.err = out_of_memory_error();
  st.err.offset = st.offset(at);
  return nullptr;
}

void prepend_index(decode_state& st, std::size_t index) {
  st.err.prepend_path(std::to_string(index));
}

void fail_encode(encode_state& es, error_code code, std::string message) {
  if (es.failed) return;  // keep the first problem
  es.failed = true;
  es.err = bsongen::error(code, std::move(message));
}

namespace {

// skip_value's verdict on a fixed-width or string value, inline: the byte after the value when
// it passes; nullptr when skip_value must look (another layout, or a value it then refuses and
// says why). A nested document's elements are mostly these, so most of its walk makes no call.
[[gnu::always_inline]] inline const std::uint8_t* quick_skip(const decode_state& st,
                                                             std::uint8_t type,
                                                             const std::uint8_t* p,
                                                             const std::uint8_t* end) noexcept {
  const value_rule& rule = rule_of(type);
  const auto avail = static_cast<std::size_t>(end - p);
  if (rule.layout == value_layout::fixed) {
    if (avail >= rule.width && (type != static_cast<std::uint8_t>(bson_type::boolean) || *p <= 1))
      return p + rule.width;
  } else if (rule.layout == value_layout::string && avail >= rule.width) {
    const auto n = static_cast<std::uint64_t>(std::int64_t{load_i32_le(p)});
    if (n - 1 < avail - 4 && p[4 + n - 1] == 0 &&
        (!st.validate_utf8 || is_valid_utf8(p + 4, static_cast<std::size_t>(n - 1)))) {
      return p + 4 + n;
    }
  }
  return nullptr;
}

// On failure inside the document st.depth stays at its level (one above the caller's): skip_value
// tells errors about a value from errors inside its nested elements that way. Under
// duplicate_keys: reject a key repeated in the document (an array's keys are not checked) fails
// at the repeating element, as the generic decoder fails: a skipped unknown value, a raw_document
// member or a javascript_with_scope's scope is refused as decode_document refuses it.
const std::uint8_t* skip_document(decode_state& st, const std::uint8_t* p, const std::uint8_t* end,
                                  bool is_array) {
  const std::uint8_t* body;
  const std::uint8_t* doc_end;
  if (!open_document(st, p, end, body, doc_end)) return nullptr;
  ++st.depth;
  const bool rejects_repeats = !is_array && st.duplicate_keys == duplicate_key_policy::reject;
  while (body < doc_end) {
    std::uint8_t type = 0;
    std::string_view key;
    const std::uint8_t* const element = body;
    if (!read_element_header(st, body, doc_end, type, key)) return nullptr;
    // Each skipped document is walked once per decode, so its end names it in the set.
    if (rejects_repeats && !note_unknown_key(st, doc_end, key)) [[unlikely]] {
      fail(st, error_code::duplicate_field, element, std::string(messages::repeated_key));
      st.err.prepend_path(key);
      return nullptr;
    }
    const std::uint8_t* const next = quick_skip(st, type, body, doc_end);
    body = next != nullptr ? next : skip_value(st, type, body, doc_end, element);
    if (body == nullptr) {
      st.err.prepend_path(key);
      return nullptr;
    }
  }
  --st.depth;
  return doc_end + 1;
}

const std::uint8_t* need(decode_state& st, const std::uint8_t* p, const std::uint8_t* end,
                         std::size_t n, std::string_view what) {
  if (static_cast<std::size_t>(end - p) < n) return fail_truncated(st, p, what);
  return p + n;
}

}  // namespace

const std::uint8_t* read_code_with_scope(decode_state& st, const std::uint8_t* p,
                                         const std::uint8_t* end, std::string_view& code,
                                         const std::uint8_t*& scope) {
  if (end - p < 4) return fail_truncated(st, p, "javascriptWithScope");
  const std::int32_t total = load_i32_le(p);
  if (total < rule_of(bson_type::javascript_with_scope).width) {
    return fail(st, error_code::invalid_length, p,
                messages::length_below("javascriptWithScope", total,
                                       rule_of(bson_type::javascript_with_scope).width));
  }
  if (total > end - p) return fail_length_past_end(st, p, "javascriptWithScope", total);
  const std::uint8_t* const stop = p + total;
  scope = read_string(st, p + 4, stop, code);
  if (scope == nullptr) return nullptr;
  // The scope must fill the rest exactly: open_document checks it fits before `stop`.
  const std::uint8_t* next = skip_document(st, scope, stop, false);
  if (next == nullptr) return nullptr;
  if (next != stop) {
    return fail(st, error_code::invalid_length, p,
                messages::code_with_scope_length_disagrees(total));
  }
  return next;
}

namespace {

const std::uint8_t* skip_value_at(decode_state& st, std::uint8_t type, const std::uint8_t* p,
                                  const std::uint8_t* end) {
  std::string_view text;
  const value_rule& rule = rule_of(type);
  switch (rule.layout) {
    case value_layout::fixed:
      if (static_cast<std::size_t>(end - p) < rule.width) return fail_truncated(st, p, rule.name);
      if (type == static_cast<std::uint8_t>(bson_type::boolean) && *p > 1)
        return fail_invalid_bool(st, p);
      return p + rule.width;
    case value_layout::string:
      return read_string(st, p, end, text);
    case value_layout::document:
      return skip_document(st, p, end, type == static_cast<std::uint8_t>(bson_type::array));
    case value_layout::binary: {
      if (end - p < rule.width) return fail_truncated(st, p, "binary");
      const std::int32_t length = load_i32_le(p);
      if (length < 0) {
        return fail(st, error_code::invalid_length, p, messages::negative_length("binary", length));
      }
      if (length > end - p - 5) return fail_length_past_end(st, p, "binary", length);
      if (p[4] == static_cast<std::uint8_t>(binary_subtype::binary_old) &&
          !old_binary_prefix_ok(p + 5, length)) {
        return fail(st, error_code::invalid_length, p,
                    messages::old_binary_length_disagrees(length));
      }
      return p + 5 + length;
    }
    case value_layout::regex: {
      const std::uint8_t* next = read_cstring(st, p, end, text);
      return next == nullptr ? nullptr : read_cstring(st, next, end, text);
    }
    case value_layout::db_pointer: {
      const std::uint8_t* next = read_string(st, p, end, text);
      return next == nullptr ? nullptr : need(st, next, end, 12, "dbPointer");
    }
    case value_layout::code_with_scope: {
      const std::uint8_t* scope = nullptr;
      return read_code_with_scope(st, p, end, text, scope);
    }
    case value_layout::none:
      break;
  }
  return fail_not_a_type(st, type, p);
}

}  // namespace

const std::uint8_t* skip_value(decode_state& st, std::uint8_t type, const std::uint8_t* p,
                               const std::uint8_t* end, const std::uint8_t* element) {
  const std::size_t depth = st.depth;
  const std::uint8_t* next = skip_value_at(st, type, p, end);
  // An error about this value (not inside a nested element, which left st.depth deeper) points
  // at its element (README, "Errors").
  if (next == nullptr && element != nullptr && st.depth == depth) [[unlikely]]
    st.err.offset = st.offset(element);
  return next;
}

}  // namespace bsongen::detail
