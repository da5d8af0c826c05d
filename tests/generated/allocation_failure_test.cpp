// Decode and encode never throw, whatever the allocator does (issue 35 item 2): an allocation that
// fails becomes an out_of_memory error, and a new container reserves only the elements its input
// really holds, so a small document cannot ask for gigabytes, nor fail on a bounded resource in
// one element order while it decodes in the other.
//
// This executable links bsongen_test_heap_counter: its failing_after scope makes the global
// operator new refuse every allocation after the first k, which reaches every allocation a decode
// makes (std::string, std::vector, std::map, the `any` values' arenas, error messages).

#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory_resource>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "any_fields.bsongen.hpp"
#include "arena_structs.bsongen.hpp"
#include "bsongen/codec.hpp"
#include "bsongen/document.hpp"
#include "bsongen/writer.hpp"
#include "heap_counter.hpp"
#include "hostile_cases.bsongen.hpp"
#include "map_spellings.bsongen.hpp"
#include "orders.bsongen.hpp"

namespace {

namespace heap = bsongen::test::heap;

std::vector<std::uint8_t> bytes_of(const bsongen::document& d) {
  const bsongen::byte_buffer b = bsongen::encode_document(d);
  return {b.data(), b.data() + b.size()};
}

template <class T>
std::vector<std::uint8_t> bytes_of(const T& value) {
  const auto b = bsongen::encode(value);
  EXPECT_TRUE(b) << b.error().to_string();
  return {b->data(), b->data() + b->size()};
}

// A string too long for any inline buffer, so each one allocates.
std::string long_text(std::string_view stem, int n) {
  return std::string(stem) + " number " + std::to_string(n) + " with room to spare";
}

shop::order an_order() {
  shop::order o;
  o.id = bsongen::object_id::generate(7);
  o.number = 500;
  o.customer.id = bsongen::object_id::generate(8);
  o.customer.name = long_text("customer", 1);
  o.customer.email = long_text("email", 1);
  o.customer.shipping.street = long_text("street", 1);
  o.customer.shipping.city = long_text("city", 1);
  for (int k = 0; k < 3; ++k) {
    shop::line_item item;
    item.sku = long_text("sku", k);
    item.quantity = k + 1;
    item.unit_price = bsongen::decimal128::from_int64(100 + k);
    o.items.push_back(item);
  }
  o.created_at = bsongen::datetime(std::chrono::milliseconds(1'700'000'000'000LL));
  o.tags = {{long_text("channel", 0), long_text("web", 0)}, {"n", long_text("tag", 1)}};
  o.notes = long_text("note", 0);
  return o;
}

std::vector<std::uint8_t> any_values() {
  bsongen::array values;
  values.push_back(1).push_back(long_text("value", 1));
  values.push_back(bsongen::document{{"k", 1}, {"nested", bsongen::array{1, long_text("x", 2)}}});
  return bytes_of(bsongen::document{
      {"values", values},
      {"attributes", bsongen::document{{long_text("key", 1), long_text("v", 1)}, {"b", 2.5}}},
      {"extra", bsongen::document{{"d", long_text("e", 3)}}}});
}

arena::person a_person() {
  arena::person p;
  const auto pmr_text = [](std::string_view stem, int n) {
    return std::pmr::string(long_text(stem, n));
  };
  p.name = pmr_text("name", 0);
  p.nicknames.push_back(pmr_text("nick", 1));
  p.nicknames.push_back(pmr_text("nick", 2));
  arena::address a;
  a.street = pmr_text("street", 3);
  p.friends.push_back(a);
  p.by_city.emplace(pmr_text("city", 4), a);
  p.attributes = bsongen::value(bsongen::document{{"service", long_text("service", 5)}});
  return p;
}

// Decodes `input` as a new T with the first k allocations allowed, for every k up to what a
// successful decode makes: each one either succeeds or returns out_of_memory, and never throws.
template <class T>
void expect_every_failed_allocation_is_an_error(const std::vector<std::uint8_t>& input,
                                                const char* what) {
  const heap::use full = heap::measure([&] { ASSERT_TRUE(bsongen::decode<T>(input)); });
  ASSERT_GT(full.allocations, 2U) << what << ": the input should make the decode allocate";
  for (std::size_t k = 0; k < full.allocations; ++k) {
    SCOPED_TRACE(std::string(what) + ", allocations allowed: " + std::to_string(k));
    bool refused = false;
    bool ok = false;
    bsongen::error_code code{};
    try {
      const heap::failing_after failing(k);
      const bsongen::result<T> r = bsongen::decode<T>(input);
      refused = failing.refused() > 0;
      ok = static_cast<bool>(r);
      if (!ok) code = r.error().code;
    } catch (...) {
      ADD_FAILURE() << "decode threw";
      continue;
    }
    if (refused) {
      EXPECT_FALSE(ok) << "an allocation failed and decode still succeeded";
      EXPECT_EQ(code, bsongen::error_code::out_of_memory);
    } else {
      EXPECT_TRUE(ok);
    }
  }
}

TEST(allocation_failure_hostile, a_failed_allocation_anywhere_in_a_decode_is_an_error) {
  expect_every_failed_allocation_is_an_error<shop::order>(bytes_of(an_order()), "shop::order");
  expect_every_failed_allocation_is_an_error<any_test::containers>(any_values(),
                                                                   "any_test::containers");
  expect_every_failed_allocation_is_an_error<arena::person>(bytes_of(a_person()), "arena::person");
}

TEST(allocation_failure_hostile, a_failed_allocation_in_the_generic_decoder_is_an_error) {
  const std::vector<std::uint8_t> input = any_values();
  const heap::use full = heap::measure([&] { ASSERT_TRUE(bsongen::decode_document(input)); });
  for (std::size_t k = 0; k < full.allocations; ++k) {
    SCOPED_TRACE("allocations allowed: " + std::to_string(k));
    try {
      const heap::failing_after failing(k);
      const bsongen::result<bsongen::document> r = bsongen::decode_document(input);
      if (failing.refused() > 0) {
        ASSERT_FALSE(r);
        EXPECT_EQ(r.error().code, bsongen::error_code::out_of_memory);
      }
    } catch (...) {
      ADD_FAILURE() << "decode_document threw";
    }
  }
}

TEST(allocation_failure_hostile, encode_reports_a_buffer_it_cannot_allocate) {
  const shop::order o = an_order();
  try {
    const heap::failing_after failing(0);
    const auto bytes = bsongen::encode(o);
    ASSERT_FALSE(bytes);
    EXPECT_EQ(bytes.error().code, bsongen::error_code::out_of_memory);
  } catch (...) {
    ADD_FAILURE() << "encode threw";
  }
  bsongen::writer w;
  try {
    const heap::failing_after failing(0);
    const auto r = bsongen::encode(o, w);
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().code, bsongen::error_code::out_of_memory);
  } catch (...) {
    ADD_FAILURE() << "encode into a writer threw";
  }
  EXPECT_EQ(w.size(), 0U) << "a failed encode leaves the writer as it was";
}

// Encode records the entries of node-based maps for its write pass (map_codec); when that record
// cannot allocate, the write pass walks the maps itself: the same bytes, no error.
TEST(allocation_failure_hostile, encode_writes_maps_without_the_entry_record_it_cannot_allocate) {
  gen_maps::nested_maps m;
  for (int i = 0; i < 50; ++i) {
    m.before[long_text("before", i)] = i;
    m.tree[long_text("tree", i)][long_text("inner", i)] = i;
    m.list.emplace_back()[long_text("list", i)] = long_text("value", i);
  }
  const std::vector<std::uint8_t> expected = bytes_of(m);
  for (std::size_t allowed = 0; allowed < 4; ++allowed) {
    std::vector<std::uint8_t> buffer(expected.size());
    bsongen::writer w{std::span<std::uint8_t>(buffer)};
    try {
      const heap::failing_after failing(allowed);
      const auto r = bsongen::encode(m, w);
      ASSERT_TRUE(r) << allowed << ": " << r.error().to_string();
    } catch (...) {
      ADD_FAILURE() << "encode threw";
    }
    EXPECT_EQ(buffer, expected) << allowed << " allocations allowed";
  }
}

TEST(allocation_failure_hostile,
     a_resource_that_refuses_everything_gives_out_of_memory_at_the_member) {
  // Building an arena::person allocates (its defaults); one built on a buffer then meets a
  // resource with nothing left when its members decode.
  const std::vector<std::uint8_t> input = bytes_of(
      bsongen::document{{"name", "n"}, {"nicknames", bsongen::array{long_text("a nickname", 1)}}});
  std::array<std::byte, 4096> storage{};
  std::pmr::monotonic_buffer_resource bounded(storage.data(), storage.size(),
                                              std::pmr::null_memory_resource());
  arena::person p{arena::person::allocator_type(&bounded)};
  try {  // use up the rest of the buffer
    for (;;) static_cast<void>(bounded.allocate(16, 1));
  } catch (const std::bad_alloc&) {
  }
  const auto r = bsongen::decode(std::span<const std::uint8_t>(input), p);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, bsongen::error_code::out_of_memory);
  EXPECT_EQ(r.error().path, "nicknames");  // the vector could not reserve its one element
  EXPECT_EQ(r.error().offset, 16U) << r.error().to_string();  // its type byte
}

// rows: [{}, then `n` int32s]: one 5-byte document stands for a 32 KB struct. A guess from the
// first element's size once reserved room for every byte of the array at that rate (about 64 GB
// for a 16 MB input, thrown as std::bad_alloc); the input holds one such struct.
TEST(allocation_failure_hostile, a_vector_of_large_structs_reserves_only_the_elements_present) {
  static_assert(sizeof(hostile_test::wide_array) > 32'000);
  bsongen::array rows;
  rows.push_back(bsongen::document{});
  for (int i = 0; i < 100'000; ++i) rows.push_back(i);
  const std::vector<std::uint8_t> input = bytes_of(bsongen::document{{"rows", rows}});
  bsongen::error e;
  const heap::use use = heap::measure([&] {
    const auto r = bsongen::decode<hostile_test::wide_rows>(input);
    ASSERT_FALSE(r);
    e = r.error();
  });
  EXPECT_EQ(e.code, bsongen::error_code::type_mismatch) << e.to_string();
  EXPECT_EQ(e.path, "rows.1");
  EXPECT_LT(use.peak, 4 * sizeof(hostile_test::wide_array)) << "reserved beyond the input";
}

// A bounded buffer of 32 KiB holds one 14,000-character string and an empty one, in either
// order; a guess from the first element once reserved 1,750 strings when the empty one came first.
TEST(allocation_failure_hostile, strings_decode_onto_a_bounded_buffer_in_either_order) {
  const std::string long_one(14'000, 'x');
  for (const bool empty_first : {true, false}) {
    SCOPED_TRACE(empty_first ? "empty string first" : "long string first");
    bsongen::array names;
    if (empty_first) names.push_back("");
    names.push_back(long_one);
    if (!empty_first) names.push_back("");
    const std::vector<std::uint8_t> input =
        bytes_of(bsongen::document{{"name", "n"}, {"nicknames", names}});
    std::array<std::byte, 32 * 1024> storage{};
    std::pmr::monotonic_buffer_resource bounded(storage.data(), storage.size(),
                                                std::pmr::null_memory_resource());
    try {
      const auto r = bsongen::decode<arena::person>(input, {.memory = &bounded});
      ASSERT_TRUE(r) << r.error().to_string();
      ASSERT_EQ(r->nicknames.size(), 2U);
      EXPECT_EQ(std::string_view(r->nicknames[empty_first ? 1 : 0]), long_one);
    } catch (...) {
      ADD_FAILURE() << "decode threw";
    }
  }
}

}  // namespace
