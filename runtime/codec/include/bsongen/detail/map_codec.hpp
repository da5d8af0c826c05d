#pragma once

// map_codec: documents with dynamic keys (std::map, std::unordered_map and sequences of pairs,
// with any allocator), for `map` fields. Generated sources of schemas with `map` fields include it
// (catalog.CONTAINERS' codec_headers).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <new>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "bsongen/bson_type.hpp"
#include "bsongen/codec.hpp"
#include "bsongen/decode_options.hpp"
#include "bsongen/detail/codec_errors.hpp"
#include "bsongen/detail/element_prefix.hpp"
#include "bsongen/detail/endian.hpp"
#include "bsongen/detail/member_decode.hpp"
#include "bsongen/detail/utf8.hpp"
#include "bsongen/detail/value_codecs.hpp"
#include "bsongen/detail/wire.hpp"

namespace bsongen::detail {

// What the decoder accepts as a key: UTF-8 without NUL.
[[nodiscard]] inline bool valid_map_key(std::string_view k) noexcept {
  const auto* p = reinterpret_cast<const std::uint8_t*>(k.data());
  return is_ascii_without_nul(p, k.size()) ||
         (k.find('\0') == std::string_view::npos && is_valid_utf8(p, k.size()));
}

// Room for `count` entries in es.map_entries; returns where they go. When that cannot allocate,
// nothing more is recorded and the write pass walks every map itself (never an error: the
// record only saves work).
[[nodiscard]] inline std::size_t reserve_entries(encode_state& es, std::size_t count) noexcept {
  const std::size_t at = es.map_entries.size();
  if (!es.map_entries_recorded) return at;
  try {
    es.map_entries.resize(at + count);
  } catch (const std::bad_alloc&) {
    es.map_entries.clear();
    es.map_entries_recorded = false;
  }
  return at;
}

// A document with dynamic keys. Keys must be UTF-8 without NUL. Two kinds of container:
// - associative (std::map<std::string, T>, std::unordered_map): a repeated key keeps the last
//   value; encode writes the container's order;
// - a sequence of pairs (std::vector<std::pair<std::string, T>>): the entries in document order,
//   a repeated key kept as often as it comes, so a document round-trips exactly. Decoding into a
//   new one appends to one vector instead of allocating and linking a tree node per entry.
template <class Elem>
struct map_codec {
  static constexpr std::uint8_t type = static_cast<std::uint8_t>(bson_type::document);
  // Node-based containers (std::map, std::unordered_map) record their entries in the size pass
  // for the write pass (encode_state::map_entries): walking one is a chain of dependent loads, so
  // it is walked once. A sequence of pairs is contiguous and is simply read again.
  template <class V>
  static constexpr bool records_entries = !requires(const V& v) {
    v.data();
  };
  // Small maps are walked twice: their nodes are few and cached, and recording them would cost
  // the encode an allocation.
  static constexpr std::size_t min_recorded_entries = 32;
  // Out of line (one copy per map type, called from each field): a map's loops, node handling
  // and its elements' codecs are too large to repeat in every decoder and encoder that has one.
  template <class V>
  [[gnu::noinline]] static std::size_t size(const V& v, encode_state& es) noexcept {
    std::size_t n = 5;
    std::size_t slot = 0;
    bool record = false;
    if constexpr (records_entries<V>) {
      record = v.size() >= min_recorded_entries;
      if (record) slot = reserve_entries(es, v.size());
    }
    for (const auto& entry : v) {
      if constexpr (records_entries<V>) {
        if (record && es.map_entries_recorded) es.map_entries[slot++] = &entry;
      }
      const std::string_view k(entry.first);
      // Checked by write() as it copies, when es.text_checked_on_write, as strings are.
      if (!es.text_checked_on_write && !valid_map_key(k)) [[unlikely]]
        fail_map_key(es, k);
      n += 2 + k.size() + Elem::size(entry.second, es);
    }
    if (es.failed) [[unlikely]] {
      for (const auto& [key, value] : v) {
        const std::string_view k(key);
        encode_state probe;
        if (!valid_map_key(k)) {
          fail_map_key(probe, k);
        } else {
          static_cast<void>(Elem::size(value, probe));
        }
        if (probe.failed) {
          es.err = std::move(probe.err);
          es.err.prepend_path(k);
          break;
        }
      }
    }
    return n;
  }
  template <class V>
  [[gnu::noinline]] static std::uint8_t* write(const V& v, std::uint8_t* out,
                                               text_bits& text) noexcept {
    std::uint8_t* const start = out;
    out += 4;
    const auto write_entry = [&](const auto& entry) {
      const std::string_view k(entry.first);
      *out++ = element_type<Elem>(entry.second);
      copy_key(out, k, text);
      out[k.size()] = 0;
      out = Elem::write(entry.second, out + k.size() + 1, text);
    };
    if constexpr (records_entries<V>) {
      if (const void* const* entries = text.map_entries;
          entries != nullptr && v.size() >= min_recorded_entries) {
        // This map's block, then (inside the loop) the blocks of maps its values hold.
        const std::size_t count = v.size();
        text.map_entries += count;
        for (std::size_t i = 0; i < count; ++i) {
          write_entry(*static_cast<const typename V::value_type*>(entries[i]));
        }
      } else {
        for (const auto& entry : v) write_entry(entry);
      }
    } else {
      for (const auto& entry : v) write_entry(entry);
    }
    *out++ = 0;
    store_i32_le(start, static_cast<std::int32_t>(out - start));
    return out;
  }
  template <class V>
  static bool empty(const V& v) noexcept {
    return v.empty();
  }
  template <class V>
  [[gnu::noinline]] static const std::uint8_t* decode(decode_state& st, std::uint8_t t,
                                                      const std::uint8_t* p,
                                                      const std::uint8_t* end, V& out) {
    if (t != type) return fail_type(st, bson_type::document, t, p);
    const std::uint8_t* body;
    const std::uint8_t* doc_end;
    if (!open_document(st, p, end, body, doc_end)) return nullptr;
    ++st.depth;
    if constexpr (requires { out.emplace_back(); }) {
      body = decode_entries_in_order(st, body, doc_end, out);
    } else {
      body = decode_entries_by_key(st, body, doc_end, out);
    }
    if (body == nullptr) return nullptr;
    --st.depth;
    return doc_end + 1;
  }

 private:
  // The elements of the document at [body, doc_end) into an associative container. Returns
  // doc_end, or nullptr with st's error located.
  template <class V>
  static const std::uint8_t* decode_entries_by_key(decode_state& st, const std::uint8_t* body,
                                                   const std::uint8_t* doc_end, V& out) {
    constexpr bool recycles = requires { out.extract(out.begin()); };
    // A reused map whose keys come again in its own order (the same labels decoded again) takes
    // the new values in place, no node leaving or entering the tree. At the first key that
    // differs: if the map holds that key, the keys are likely the map's own in another order
    // (clients that write insertion order, not sorted order), and the rest goes by lookup
    // (decode_entries_by_lookup); otherwise the entries not yet matched give their nodes (and
    // their strings' storage) to the elements left.
    // On out's allocator: nodes move between the two maps, and swap and node insertion need
    // equal allocators (std::pmr maps on different resources would be undefined behaviour).
    V old(out.get_allocator());
    // decode_options::duplicate_keys: reject fails at the element that repeats a key (the
    // generic decoder's verdict); last_wins decodes it over the earlier value.
    const bool rejects_repeats = st.duplicate_keys == duplicate_key_policy::reject;
    auto same = out.begin();
    std::size_t matched = 0;
    bool in_place = recycles;
    if constexpr (!recycles) out.clear();
    while (body < doc_end) {
      const std::uint8_t* const element = body;
      std::uint8_t elem_type = 0;
      std::string_view key;
      if (!read_element_header(st, body, doc_end, elem_type, key)) {
        st.error_located = true;
        return nullptr;
      }
      if constexpr (recycles) {
        if (in_place) {
          if (same != out.end() && same_text(key, same->first)) {
            body = decode_member<Elem>(st, elem_type, body, doc_end, same->second, false);
            if (body == nullptr) return fail_in_element(st, element, key);
            ++same;
            ++matched;
            continue;
          }
          // The marks cost a pointer and a flag per entry not yet matched: at most 8 times the
          // bytes left (every element takes at least 2), so bounded by the input.
          const std::size_t unmatched = out.size() - matched;
          if (unmatched != 0 && unmatched <= static_cast<std::size_t>(doc_end - element) / 2) {
            const std::uint8_t* done = nullptr;
            if (decode_entries_by_lookup(st, element, doc_end, out, same, unmatched, done)) {
              return done;
            }
          }
          if (same == out.begin()) {
            old.swap(out);
          } else {
            while (same != out.end()) old.insert(out.extract(same++));
          }
          in_place = false;
        }
        // Keys usually arrive sorted (encoders write std::map in order): insert at the end first.
        if (!old.empty()) {
          auto node = old.extract(old.begin());
          node.key().assign(key.data(), key.size());
          body = decode_member<Elem>(st, elem_type, body, doc_end, node.mapped(), false);
          if (body == nullptr) return fail_in_element(st, element, key);
          // A repeated key leaves the node out of the map: its value, the last, replaces the
          // held one. Only a sorted map gains from the hint; without one, insert hands a refused
          // node back in its result (libstdc++ 12's unordered_map drops it from a hinted insert
          // instead of leaving it in `node`, which kept the first value of a repeated key).
          if constexpr (requires { out.lower_bound(node.key()); }) {
            const auto at = out.insert(out.end(), std::move(node));
            if (!node.empty()) {
              if (rejects_repeats) return fail_duplicate_field(st, element, key);
              at->second = std::move(node.mapped());
            }
          } else {
            auto inserted = out.insert(std::move(node));
            if (!inserted.inserted) {
              if (rejects_repeats) return fail_duplicate_field(st, element, key);
              inserted.position->second = std::move(inserted.node.mapped());
            }
          }
          continue;
        }
      }
      // emplace_hint rather than try_emplace: one key comparison less per entry (try_emplace
      // looks the position up before emplacing, which looks it up again).
      const std::size_t before = out.size();
      const auto slot = out.emplace_hint(out.end(), std::piecewise_construct,
                                         std::forward_as_tuple(key), std::forward_as_tuple());
      const bool added = out.size() != before;
      if (!added && rejects_repeats) return fail_duplicate_field(st, element, key);
      body = decode_member<Elem>(st, elem_type, body, doc_end, slot->second, added);
      if (body == nullptr) {
        if (added) out.erase(slot);  // no half-made entry left behind
        return fail_in_element(st, element, key);
      }
    }
    if (in_place) out.erase(same, out.end());  // entries the input no longer has
    return body;
  }

  // Whether the map's order is the keys' byte order (std::less over a std::basic_string<char> of
  // any allocator, as std::map and std::pmr::map have by default): then its entries, in the
  // map's order, are sorted as string_views compare, and a binary search over them needs no
  // key_type copy of the key.
  template <class V>
  static constexpr bool byte_ordered = [] {
    if constexpr (requires { typename V::key_compare; }) {
      using key = typename V::key_type;
      return std::is_same_v<key, std::basic_string<char, std::char_traits<char>,
                                                   typename key::allocator_type>> &&
             (std::is_same_v<typename V::key_compare, std::less<key>> ||
              std::is_same_v<typename V::key_compare, std::less<>>);
    } else {
      return false;  // unordered
    }
  }();

  // out.find(key). A map whose comparator (or hash and equality) is not transparent, such as
  // std::less<std::string>, looks up only its key_type: the key is copied into `scratch`, which
  // keeps its storage from one key to the next (no allocation per entry).
  template <class V>
  static auto find_key(V& out, std::string_view key, typename V::key_type& scratch) {
    if constexpr (requires { out.find(key); }) {
      return out.find(key);
    } else {
      scratch.assign(key.data(), key.size());
      return out.find(scratch);
    }
  }

  // The elements from `body` on (the first is the key that left the map's order) into a used
  // map by lookup: each key found decodes into its entry in place (the node stays where it is:
  // no rebalancing, no key copied), a key the map lacks gets a new entry, and the entries from
  // `tail` on (`unmatched` of them, the ones no element has named yet) that no element names are
  // erased at the end. Entries before `tail` were decoded already.
  //
  // Each entry from `tail` on has a mark saying whether an element named it; the other entries
  // (before `tail`, or added here) have all been named, so finding one of them again is a
  // repeated key: the last value wins (decoded over the earlier one, as a fresh decode does).
  // A byte-ordered map's marks are in its order and found by key, which finds the entry too;
  // other maps' are found by the address of the entry out.find gives (std::unordered_map may
  // rehash when an entry is added, which moves no entry).
  //
  // Returns false, having decoded nothing, when the first key is not among the entries from
  // `tail` on (a map whose keys changed, not only their order: recycling its nodes then costs
  // less than new ones); else true with `done` set as decode_entries_by_key's result.
  // Out of line: inlined, its key comparisons grew decode_entries_by_key enough that the
  // compiler stopped inlining those of its emplace_hint (the path of every new map).
  template <class V>
  [[gnu::noinline]] static bool decode_entries_by_lookup(decode_state& st, const std::uint8_t* body,
                                                         const std::uint8_t* doc_end, V& out,
                                                         typename V::iterator tail,
                                                         std::size_t unmatched,
                                                         const std::uint8_t*& done) {
    using entry_type = typename V::value_type;
    struct mark {
      entry_type* entry;
      bool named;
    };
    std::vector<mark> marks;
    marks.reserve(unmatched);
    for (; tail != out.end(); ++tail) marks.push_back({&*tail, false});
    const auto by_address = [](const mark& m, const entry_type* entry) {
      return std::less<const entry_type*>{}(m.entry, entry);
    };
    if constexpr (!byte_ordered<V>) {
      std::sort(marks.begin(), marks.end(),
                [&](const mark& a, const mark& b) { return by_address(a, b.entry); });
    }
    // One for every key looked up; on the map's allocator, as every key of a std::pmr map is.
    typename V::key_type scratch(out.get_allocator());
    // The mark of the entry whose key is `key`, or nullptr; for a map that is not byte-ordered
    // *found is out.find(key) (end() if the map lacks the key), for a byte-ordered one only when
    // the key is not among the marks.
    const auto find_mark = [&](std::string_view key, typename V::iterator& found) -> mark* {
      if constexpr (byte_ordered<V>) {
        const auto m = std::lower_bound(
            marks.begin(), marks.end(), key,
            [](const mark& e, std::string_view k) { return std::string_view(e.entry->first) < k; });
        if (m != marks.end() && same_text(m->entry->first, key)) return &*m;
        found = find_key(out, key, scratch);
        return nullptr;
      } else {
        found = find_key(out, key, scratch);
        if (found == out.end()) return nullptr;
        const auto m = std::lower_bound(marks.begin(), marks.end(), &*found, by_address);
        return m != marks.end() && m->entry == &*found ? &*m : nullptr;
      }
    };
    std::size_t unnamed = marks.size();
    bool first = true;
    while (body < doc_end) {
      const std::uint8_t* const element = body;
      std::uint8_t elem_type = 0;
      std::string_view key;
      if (!read_element_header(st, body, doc_end, elem_type, key)) {
        st.error_located = true;
        return true;  // done stays nullptr
      }
      auto found = out.end();
      mark* const m = find_mark(key, found);
      if (first && m == nullptr) return false;  // the caller reads this element again
      first = false;
      entry_type* entry = nullptr;
      bool fresh = false;
      if (m != nullptr && !m->named) {
        entry = m->entry;
        m->named = true;
        --unnamed;
      } else if (m != nullptr || found != out.end()) {  // named before: a repeated key
        if (st.duplicate_keys == duplicate_key_policy::reject) {
          fail_duplicate_field(st, element, key);
          return true;  // done stays nullptr
        }
        entry = m != nullptr ? m->entry : &*found;
      } else {
        entry = &*out.emplace(std::piecewise_construct, std::forward_as_tuple(key),
                              std::forward_as_tuple())
                      .first;
        fresh = true;
      }
      body = decode_member<Elem>(st, elem_type, body, doc_end, entry->second, fresh);
      if (body == nullptr) {
        if (fresh) out.erase(out.find(entry->first));  // no half-made entry left behind
        fail_in_element(st, element, key);
        return true;  // done stays nullptr
      }
    }
    if (unnamed != 0) {
      for (const mark& m : marks) {
        if (!m.named) out.erase(out.find(m.entry->first));
      }
    }
    done = body;
    return true;
  }

  // The elements of the document at [body, doc_end) as (key, value) pairs in their order. The
  // pairs `out` already holds are decoded into (their strings keep their storage); the ones left
  // over are erased. Returns doc_end, or nullptr with st's error located.
  template <class V>
  static const std::uint8_t* decode_entries_in_order(decode_state& st, const std::uint8_t* body,
                                                     const std::uint8_t* doc_end, V& out) {
    std::size_t count = 0;
    // Under duplicate_keys: reject, each entry's element, to name the one that repeats a key.
    const bool rejects_repeats = st.duplicate_keys == duplicate_key_policy::reject;
    std::vector<const std::uint8_t*> elements;
    while (body < doc_end) {
      const std::uint8_t* const element = body;
      std::uint8_t elem_type = 0;
      std::string_view key;
      if (!read_element_header(st, body, doc_end, elem_type, key)) {
        st.error_located = true;
        return nullptr;
      }
      if (rejects_repeats) elements.push_back(element);
      const bool fresh = count == out.size();
      if (fresh) {
        out.emplace_back(std::piecewise_construct, std::forward_as_tuple(key),
                         std::forward_as_tuple());
      } else if constexpr (std::is_same_v<typename V::value_type::first_type, std::string>) {
        assign_text(out[count].first, key);
      } else {
        out[count].first = key;
      }
      body = decode_member<Elem>(st, elem_type, body, doc_end, out[count].second, fresh);
      if (body == nullptr) {
        if (fresh) out.pop_back();  // no half-made entry left behind
        return fail_in_element(st, element, key);
      }
      if (count++ == 0 && out.capacity() < 2) {
        // A new container: as many entries as the document holds (the first is in place).
        out.reserve(1 + count_elements<Elem>(body, doc_end));
      }
    }
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(count), out.end());
    if (rejects_repeats) {
      if (const std::size_t repeat = first_repeated_key(out); repeat != out.size()) {
        return fail_duplicate_field(st, elements[repeat], std::string_view(out[repeat].first));
      }
    }
    return body;
  }

  // The index of the first entry whose key an earlier entry has, or entries.size().
  template <class V>
  static std::size_t first_repeated_key(const V& entries) {
    std::vector<std::size_t> by_key(entries.size());
    for (std::size_t i = 0; i < by_key.size(); ++i) by_key[i] = i;
    const auto key_of = [&](std::size_t i) { return std::string_view(entries[i].first); };
    std::sort(by_key.begin(), by_key.end(), [&](std::size_t a, std::size_t b) {
      const int order = key_of(a).compare(key_of(b));
      return order != 0 ? order < 0 : a < b;
    });
    std::size_t repeat = entries.size();
    for (std::size_t i = 1; i < by_key.size(); ++i) {
      if (key_of(by_key[i]) == key_of(by_key[i - 1])) repeat = std::min(repeat, by_key[i]);
    }
    return repeat;
  }
};

}  // namespace bsongen::detail
