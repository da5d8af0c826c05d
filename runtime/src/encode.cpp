// Canonical BSON encoding of generic documents.
//
// Two passes: the exact size first (one walk over 32-byte nodes), then one writer::extend for the
// whole document and plain stores into it, each nested length patched once its end is known.
// There is no per-element capacity check and no reallocation.

#include <algorithm>
#include <cstring>
#include <limits>

#include "bsongen/document.hpp"

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

std::size_t container_size(const container& c, bool is_array) noexcept;

std::size_t value_size(const node& n) noexcept {
  switch (n.type) {
    case bson_type::double_:
    case bson_type::datetime:
    case bson_type::int64:
    case bson_type::timestamp:
      return 8;
    case bson_type::int32:
      return 4;
    case bson_type::boolean:
      return 1;
    case bson_type::null:
    case bson_type::undefined:
    case bson_type::min_key:
    case bson_type::max_key:
      return 0;
    case bson_type::object_id:
      return 12;
    case bson_type::decimal128:
      return 16;
    case bson_type::string:
    case bson_type::javascript:
    case bson_type::symbol:
      return 4 + std::size_t{n.as.text.size} + 1;
    case bson_type::binary:
      return 5 + std::size_t{n.as.text.size} + (n.subtype == 0x02 ? 4 : 0);
    case bson_type::regex:
      return std::size_t{n.as.text.size} + 1 + n.as.text.extra + 1;
    case bson_type::db_pointer:
      return 4 + std::size_t{n.as.text.size} + 1 + 12;
    case bson_type::javascript_with_scope:
      return 4 + 4 + std::size_t{n.as.cws->code_size} + 1 + container_size(n.as.cws->scope, false);
    case bson_type::document:
      return container_size(n.as.doc, false);
    case bson_type::array:
      return container_size(n.as.doc, true);
  }
  return 0;
}

std::size_t container_size(const container& c, bool is_array) noexcept {
  std::size_t total = 5 + 2 * std::size_t{c.size};  // length, terminator; per element type byte, key NUL
  for (std::uint32_t i = 0; i < c.size; ++i) {
    const node& n = c.elements[i];
    total += (is_array ? index_key_size(i) : n.key_size) + value_size(n);
  }
  return total;
}

std::uint8_t* write_text(std::uint8_t* p, const char* data, std::uint32_t size) noexcept {
  detail::store_u32_le(p, size + 1);
  if (size != 0) std::memcpy(p + 4, data, size);
  p[4 + size] = 0;
  return p + 4 + size + 1;
}

std::uint8_t* write_container(std::uint8_t* p, const container& c, bool is_array) noexcept {
  std::uint8_t* const start = p;
  p += 4;
  for (std::uint32_t i = 0; i < c.size; ++i) {
    const node& n = c.elements[i];
    *p++ = static_cast<std::uint8_t>(n.type);
    if (is_array) {
      p = write_index_key(p, i);
    } else {
      if (n.key_size != 0) std::memcpy(p, n.key, n.key_size);
      p[n.key_size] = 0;
      p += n.key_size + 1;
    }
    switch (n.type) {
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
      case bson_type::null:
      case bson_type::undefined:
      case bson_type::min_key:
      case bson_type::max_key:
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
        if (n.subtype == 0x02) {
          detail::store_u32_le(p, size + 4);
          p[4] = n.subtype;
          detail::store_u32_le(p + 5, size);
          p += 9;
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
        // The spec's canonical form lists options alphabetically. Its options are ASCII letters;
        // anything else is kept as read, since sorting bytes would split multi-byte UTF-8.
        if (std::all_of(p, p + options, [](std::uint8_t byte) { return byte < 0x80; })) std::sort(p, p + options);
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
        p = write_container(p, n.as.cws->scope, false);
        detail::store_u32_le(cws_start, static_cast<std::uint32_t>(p - cws_start));
        break;
      }
      case bson_type::document:
        p = write_container(p, n.as.doc, false);
        break;
      case bson_type::array:
        p = write_container(p, n.as.doc, true);
        break;
    }
  }
  *p++ = 0;
  detail::store_u32_le(start, static_cast<std::uint32_t>(p - start));
  return p;
}

}  // namespace

std::size_t encoded_size(document_ref doc) { return container_size(doc.root(), false); }

result<void> encode_document(document_ref doc, writer& out) {
  const std::size_t size = container_size(doc.root(), false);
  if (size > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
    return error(error_code::too_large, "encoding needs " + std::to_string(size) + " bytes, above BSON's 2 GiB limit");
  }
  std::uint8_t* p = out.extend(size);
  if (p == nullptr) {
    return error(error_code::buffer_too_small,
                 "encoding needs " + std::to_string(size) + " bytes, the output buffer has " +
                     std::to_string(out.capacity() - out.size()));
  }
  write_container(p, doc.root(), false);
  return {};
}

byte_buffer encode_document(document_ref doc) {
  writer w;
  encode_document(doc, w).value();
  return w.take();
}

}  // namespace bsongen
