// The entry points of bsongen/codec.hpp around a generated codec: sizes, buffers, the outermost
// document's framing and the decode state. Compiled once here rather than per struct.

#include <algorithm>
#include <limits>
#include <utility>

#include "bsongen/codec.hpp"
#include "bsongen/detail/codec_errors.hpp"
#include "bsongen/detail/value_wire.hpp"
#include "bsongen/detail/wire.hpp"

namespace bsongen::detail {

namespace {

// obj's encoded size, or 0 with `err` set when obj cannot be encoded. The entry points share it
// and build a result only on failure (a result<std::size_t> per call showed in 1-field rows).
std::size_t checked_size(const void* obj, const document_functions& f, bsongen::error& err) {
  encode_state es;
  const std::size_t n = f.size(obj, es);
  if (es.failed) [[unlikely]] {
    err = std::move(es.err);
    return 0;
  }
  if (n > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) [[unlikely]] {
    err = too_large_error(n);
    return 0;
  }
  return n;
}

}  // namespace

result<std::size_t> encoded_size(const void* obj, const document_functions& f) {
  bsongen::error err;
  const std::size_t n = checked_size(obj, f, err);
  if (n == 0) [[unlikely]]
    return err;
  return n;
}

result<void> encode(const void* obj, writer& out, const document_functions& f) {
  bsongen::error err;
  const std::size_t n = checked_size(obj, f, err);
  if (n == 0) [[unlikely]]
    return err;
  std::uint8_t* p = out.extend(n);
  if (p == nullptr) [[unlikely]]
    return buffer_too_small_error(n);
  f.write(obj, p);
  return {};
}

result<byte_buffer> encode(const void* obj, const document_functions& f) {
  bsongen::error err;
  const std::size_t n = checked_size(obj, f, err);
  if (n == 0) [[unlikely]]
    return err;
  result<byte_buffer> out(std::in_place);
  out->resize_uninitialized(n);
  f.write(obj, out->data());
  return out;
}

result<void> decode(std::span<const std::uint8_t> bytes, void* out, bool fresh,
                    const decode_options& options, const document_functions& f) {
  decode_state st;
  st.origin = bytes.data();
  st.max_depth = std::min(options.max_depth, max_depth_limit);
  st.validate_utf8 = options.validate_utf8;
  st.duplicate_keys = options.duplicate_keys;
  // The outermost framing, with the generic decoder's verdicts (one function gives both).
  if (bytes.size() < 5 || load_i32_le(bytes.data()) < 5 ||
      static_cast<std::size_t>(load_i32_le(bytes.data())) != bytes.size() ||
      bytes.size() > options.max_size || bytes[bytes.size() - 1] != 0) [[unlikely]] {
    return envelope_error(bytes.data(), bytes.size(), options.max_size);
  }
  const std::uint8_t* const end =
      f.decode(st, bytes.data(), bytes.data() + bytes.size(), out, fresh);
  release_value_memory(st);
  if (end == nullptr) [[unlikely]]
    return std::move(st.err);
  return {};
}

}  // namespace bsongen::detail
