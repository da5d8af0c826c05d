// The table-driven half of generated struct decoders: elements out of schema order, unknown and
// repeated keys, resetting absent fields, and placing encode errors. One copy for every struct;
// a struct brings its table (bsongen/detail/struct_table.hpp, struct_table).

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <new>
#include <string_view>
#include <utility>

#include "bsongen/detail/codec_errors.hpp"
#include "bsongen/detail/element_prefix.hpp"
#include "bsongen/detail/struct_table.hpp"
#include "bsongen/detail/wire.hpp"

namespace bsongen::detail {

const std::uint8_t* decode_out_of_order(decode_state& st, const std::uint8_t* element,
                                        const std::uint8_t* doc_end, void* obj,
                                        const struct_table& table, std::uint64_t* seen, bool fresh,
                                        chain_cursor& chain) {
  if (!is_bson_type(*element)) return fail_element_type(st, element, {});
  const std::uint32_t next = chain.next;
  const std::uint32_t previous = chain.previous();
  const std::uint8_t* body = element;
  std::uint8_t type = *element;
  std::string_view key;
  std::size_t index = table.field_count;
  // The field the chain expected comes first, its key and NUL compared in place: an element
  // leaves the chain mostly because its type byte is not the schema's while its key is the
  // expected one (an int32 in an int64 or double field, as JavaScript and Python drivers write
  // integral numbers; a null in an optional field), and fixed-shape structs whose shape did not
  // match send every element here, in order. Equal to a schema key, the element's key needs none
  // of read_element_header's checks, and the lookup is not needed.
  if (next < table.field_count) {
    const std::string_view expected = table.keys[next];
    const std::uint8_t* const k = element + 1;
    if (static_cast<std::size_t>(doc_end - k) > expected.size() && k[expected.size()] == 0 &&
        same_text({reinterpret_cast<const char*>(k), expected.size()}, expected)) {
      key = expected;
      index = next;
      body = k + expected.size() + 1;
    }
  }
  // Any other field's key is looked up where it lies, its length found a word at a time: equal
  // to a schema key, it needs none of read_element_header's checks (UTF-8, its own word loop),
  // which cost more than the lookup. Keys that match nothing, and keys too near the document's
  // end for a word, take read_element_header below, which checks them.
  bool searched = false;
  if (index == table.field_count && doc_end - (element + 1) >= 8) {
    const std::uint8_t* const k = element + 1;
    const std::uint8_t* nul = nullptr;
    for (const std::uint8_t* w = k; doc_end - w >= 8; w += 8) {
      const std::uint64_t word = load_u64_le(w);
      const std::uint64_t zeros = (word - 0x0101010101010101ULL) & ~word & 0x8080808080808080ULL;
      if (zeros != 0) {
        nul = w + std::countr_zero(zeros) / 8;  // the lowest flagged byte is exact
        break;
      }
    }
    if (nul != nullptr) {
      searched = true;
      const std::string_view in_place(reinterpret_cast<const char*>(k),
                                      static_cast<std::size_t>(nul - k));
      index = find_field(table, in_place, key_head_in_place(k, in_place.size()));
      if (index != table.field_count) {
        key = in_place;
        body = nul + 1;
      }
    }
  }
  if (index == table.field_count) {
    body = element;
    if (!read_element_header(st, body, doc_end, type, key)) {
      st.error_located = true;
      return nullptr;
    }
    if (!searched) index = find_field(table, key, key_head(key));
  }
  const bool rejects_repeats =
      table.reject_duplicates || st.duplicate_keys == duplicate_key_policy::reject;
  if (index == table.field_count) {
    if (table.unknown == unknown_policy::reject) return fail_unknown_field(st, element, key);
    if (rejects_repeats && !note_unknown_key(st, doc_end, key)) {
      return fail_duplicate_field(st, element, key);
    }
    // A captured element is kept (a raw_document holds valid BSON), so it is validated whatever
    // decode_options::validate_skipped says; a skipped one is stepped over as that says.
    const std::uint8_t* const after = table.unknown == unknown_policy::capture
                                          ? skip_value(st, type, body, doc_end)
                                          : step_over(st, type, body, doc_end);
    if (after == nullptr) return fail_skipped(st, element, key);
    if (table.unknown == unknown_policy::capture) {
      try {
        table.capture(obj, {element, after});
      } catch (const std::bad_alloc&) {
        fail_out_of_memory(st, body);
        return fail_in_element(st, element, key);
      }
    }
    return after;
  }
  const std::uint64_t bit = std::uint64_t{1} << (index % 64);
  const bool again = (seen[index / 64] & bit) != 0;
  if (again && rejects_repeats) {
    return fail_duplicate_field(st, element, key);
  }
  seen[index / 64] |= bit;
  const auto field = static_cast<std::uint32_t>(index);
  body = table.decode_field(st, field, type, body, doc_end, obj, fresh && !again);
  if (body == nullptr) return fail_in_element(st, element, key);
  // The field after `previous` in schema order: the chain tries it first anyway, so it is never
  // worth learning (an int32 in an int64 field comes here in schema order, and must not erase
  // what documents that leave that field out taught).
  const std::uint32_t in_schema_order = previous == table.field_count ? 0 : previous + 1;
  if (index != next && field != in_schema_order && table.successors != nullptr) {
    // Learn: after `previous` came `field`, where the chain did not expect it. Written only when
    // it changes, so a stream in one order stops writing (and sharing the line across cores).
    std::atomic<std::uint32_t>& successor = table.successors[previous];
    if (successor.load(std::memory_order_relaxed) != field + 1) {
      successor.store(field + 1, std::memory_order_relaxed);
    }
  }
  // The chain goes on after this field, or where it was when this field lies behind it: so
  // without guesses (follow_learned_order) it only ever meets fields not seen yet.
  chain.send(st, seen, (table.field_count + 63) / 64, std::max(next, field + 1), field, false);
  return body;
}

const std::uint8_t* fail_repeat_on_guessed_path(decode_state& st) {
  st.err = bsongen::error(error_code::duplicate_field,
                          "a repeated key on a guessed path (decode() runs it again without)");
  return nullptr;
}

const std::uint8_t* decode_elements(decode_state& st, const std::uint8_t* body,
                                    const std::uint8_t* doc_end, void* obj,
                                    const struct_table& table, std::uint64_t* seen, bool fresh) {
  chain_cursor chain{.last = table.field_count};
  while (body < doc_end) {
    body = decode_out_of_order(st, body, doc_end, obj, table, seen, fresh, chain);
    if (body == nullptr) return nullptr;
  }
  return body;
}

std::size_t check_captured_keys(std::span<const std::uint8_t> captured, const struct_table& table,
                                encode_state& es) noexcept {
  // A raw_document holds a valid document (its precondition), so the walk below fails only on
  // bytes that broke it; it then stops and leaves the rest unchecked.
  decode_state st;
  st.origin = captured.data();
  st.validate_utf8 = false;
  const std::uint8_t* p = captured.data() + 4;
  const std::uint8_t* const end = captured.data() + captured.size() - 1;
  while (p != nullptr && p < end) {
    const std::uint8_t* const element = p;
    std::uint8_t type = 0;
    std::string_view key;
    if (!read_element_header(st, p, end, type, key)) break;
    if (find_field(table, key, key_head(key)) != table.field_count) {
      fail_encode(es, error_code::invalid_value,
                  "a captured element has the key of a field of the struct");
      es.err.prepend_path(key);
      break;
    }
    p = skip_value(st, type, p, end, element);
  }
  return captured.size() - 5;
}

void locate_encode_error(const void* obj, const struct_table& table, encode_state& es) {
  for (std::uint32_t i = 0; i < table.field_count; ++i) {
    encode_state probe;
    static_cast<void>(table.size_field(i, obj, probe));
    if (probe.failed) {
      es.err = std::move(probe.err);
      es.err.prepend_path(table.keys[i]);
      return;
    }
  }
}

}  // namespace bsongen::detail
