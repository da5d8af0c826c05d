// The entry points of bsongen/codec.hpp around a generated codec: sizes, buffers, the outermost
// document's framing and the decode state. Compiled once here rather than per struct.

#include <algorithm>
#include <limits>
#include <new>
#include <utility>

#include "bsongen/codec.hpp"
#include "bsongen/detail/codec_errors.hpp"
#include "bsongen/detail/wire.hpp"

namespace bsongen::detail {

namespace {

// Why size() could not give the encoded size n of a value (its error, or a size beyond int32).
[[gnu::cold]] bsongen::error size_error(encode_state& es, std::size_t n) {
  return es.failed ? std::move(es.err) : too_large_error(n);
}

[[nodiscard]] bool size_ok(const encode_state& es, std::size_t n) noexcept {
  return !es.failed && n <= static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max());
}

// After a write pass that saw text other than ASCII: size() again, now checking every string,
// names one that is not UTF-8 (in es.err), or finds them all valid.
[[gnu::cold]] bool text_is_utf8(const void* obj, const document_functions& f, encode_state& es) {
  es.text_checked_on_write = false;
  static_cast<void>(f.size(obj, es));
  return !es.failed;
}

// What the write pass after es's size pass reads the maps' entries from (map_codec), or null.
const void* const* recorded_map_entries(const encode_state& es) noexcept {
  return es.map_entries_recorded && !es.map_entries.empty() ? es.map_entries.data() : nullptr;
}

// The state a decode of `bytes` starts from.
decode_state initial_state(std::span<const std::uint8_t> bytes, const decode_options& options) {
  decode_state st;
  st.origin = bytes.data();
  st.max_depth = std::min(options.max_depth, max_depth_limit);
  st.validate_utf8 = options.validate_utf8;
  st.validate_skipped = options.validate_skipped;
  st.duplicate_keys = options.duplicate_keys;
  st.memory = options.memory;
  return st;
}

}  // namespace

result<std::size_t> encoded_size(const void* obj, const document_functions& f) {
  encode_state es;
  const std::size_t n = f.size(obj, es);
  if (!size_ok(es, n)) [[unlikely]]
    return size_error(es, n);
  return n;
}

// Strings are checked as write() copies them (text_bits), not in size(): each is read once.
result<void> encode(const void* obj, writer& out, const document_functions& f) {
  encode_state es;
  es.text_checked_on_write = true;
  const std::size_t n = f.size(obj, es);
  if (!size_ok(es, n)) [[unlikely]]
    return size_error(es, n);
  const writer::mark before = out.position();
  std::uint8_t* p = nullptr;
  try {
    p = out.extend(n);
  } catch (const std::bad_alloc&) {  // growing failed; the writer is as it was
    return out_of_memory_error();
  }
  if (p == nullptr) [[unlikely]]
    return buffer_too_small_error(n);
  text_bits text;
  text.map_entries = recorded_map_entries(es);
  f.write(obj, p, text);
  if (!text.all_ascii() && !text_is_utf8(obj, f, es)) [[unlikely]] {
    out.rewind(before);  // as it was before the call (writer.hpp's contract for failed encodes)
    return std::move(es.err);
  }
  return {};
}

result<byte_buffer> encode(const void* obj, const document_functions& f) {
  encode_state es;
  es.text_checked_on_write = true;
  const std::size_t n = f.size(obj, es);
  if (!size_ok(es, n)) [[unlikely]]
    return size_error(es, n);
  result<byte_buffer> out(std::in_place);
  try {
    out->resize_uninitialized(n);
  } catch (const std::bad_alloc&) {
    return out_of_memory_error();
  }
  text_bits text;
  text.map_entries = recorded_map_entries(es);
  f.write(obj, out->data(), text);
  if (!text.all_ascii() && !text_is_utf8(obj, f, es)) [[unlikely]]
    return std::move(es.err);
  return out;
}

namespace {

result<void> decode_checked(std::span<const std::uint8_t> bytes, void* out, bool fresh,
                            const decode_options& options, const document_functions& f) {
  decode_state st = initial_state(bytes, options);
  // The outermost framing, with the generic decoder's verdicts (one function gives both).
  if (bytes.size() < 5 || load_i32_le(bytes.data()) < 5 ||
      static_cast<std::size_t>(load_i32_le(bytes.data())) != bytes.size() ||
      bytes.size() > options.max_size || bytes[bytes.size() - 1] != 0) [[unlikely]] {
    return envelope_error(bytes.data(), bytes.size(), options.max_size);
  }
  const std::uint8_t* end = f.decode(st, bytes.data(), bytes.data() + bytes.size(), out, fresh);
  if (end == nullptr && st.guessed_below_seen) [[unlikely]] {
    // A learned field order sent a chain below fields already decoded, where a repeated key may
    // have been taken as new (check_chain_run), or may have hidden the error schema order meets
    // first. Decoding again without guesses gives exactly what schema order gives. `out` is as
    // the first pass left it, so not fresh: every field is decoded or reset again.
    decode_state again = initial_state(bytes, options);
    again.follow_learned_order = false;
    st = std::move(again);
    end = f.decode(st, bytes.data(), bytes.data() + bytes.size(), out, false);
  }
  if (end == nullptr) [[unlikely]]
    return std::move(st.err);
  return {};
}

}  // namespace

result<void> decode(std::span<const std::uint8_t> bytes, void* out, bool fresh,
                    const decode_options& options, const document_functions& f) {
  // Members turn their own allocation failures into out_of_memory at their path
  // (decode_member); this catches the rest (resetting absent fields, or an error message that
  // could not be allocated), so that decode never throws.
  try {
    return decode_checked(bytes, out, fresh, options, f);
  } catch (const std::bad_alloc&) {
    return out_of_memory_error();
  }
}

}  // namespace bsongen::detail
