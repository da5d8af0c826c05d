// What decoding into a new struct allocates (schemas/orders.yaml): only the members whose values
// need the heap, each once. Malloc and free are the largest cost a new struct's decode adds to a
// reused one's, so an allocation nobody needs (a captured-elements document built on the heap
// while empty, a vector that grows after guessing its size) is a regression worth a test. This
// executable links bsongen_test_heap_counter, which counts every allocation.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "bsongen/codec.hpp"
#include "heap_counter.hpp"
#include "orders.bsongen.hpp"

namespace {

namespace heap = bsongen::test::heap;

// Strings up to this many characters live inside std::string (no allocation).
const std::size_t inline_chars = std::string().capacity();

shop::line_item item(std::uint32_t k, bool discounted) {
  shop::line_item i;
  i.sku = "SKU-" + std::to_string(100 + k);
  i.quantity = static_cast<std::int32_t>(k + 1);
  i.unit_price = bsongen::decimal128::from_string("19.99").value();
  if (discounted) i.discount = bsongen::decimal128::from_string("2.50").value();
  return i;
}

shop::order order_with_items(std::vector<shop::line_item> items) {
  shop::order o;
  o.number = 7;
  o.items = std::move(items);
  return o;
}

std::size_t allocations_of_new_decode(const bsongen::byte_buffer& bytes) {
  std::size_t count = 0;
  const auto use = heap::measure([&] {
    const auto decoded = bsongen::decode<shop::order>(bytes.span());
    ASSERT_TRUE(decoded) << decoded.error().to_string();
    count = decoded->items.size();
  });
  EXPECT_GT(count, 0U);
  return use.allocations;
}

TEST(decode_allocation, an_order_without_unknown_fields_allocates_nothing_for_extra) {
  // No heap member set but the items vector: one allocation in all (`extra`, the captured
  // unknown elements, stays the empty document without one).
  const auto bytes = bsongen::encode(order_with_items({item(0, false)})).value();
  EXPECT_EQ(allocations_of_new_decode(bytes), 1U);
}

TEST(decode_allocation, a_vector_of_structs_is_allocated_once_when_later_elements_are_smaller) {
  // The first line item carries a discount the others lack, so it is the largest element: the
  // vector's size guess from it must still cover them all.
  for (std::uint32_t n = 2; n <= 9; ++n) {
    std::vector<shop::line_item> items;
    for (std::uint32_t k = 0; k < n; ++k) items.push_back(item(k, k == 0));
    const auto bytes = bsongen::encode(order_with_items(items)).value();
    EXPECT_EQ(allocations_of_new_decode(bytes), 1U) << n << " items";
  }
}

TEST(decode_allocation, each_member_that_needs_the_heap_allocates_once) {
  shop::order o = order_with_items({item(0, true), item(1, false), item(2, false)});
  o.notes = std::string(inline_chars + 1, 'n');                                 // 1
  o.customer.email = std::string(inline_chars + 5, 'e');                        // 1
  o.customer.name = "short";                                                    // 0
  o.tags = {{"channel", "web"}, {"region", "eu-central"}};                      // 2 map nodes
  o.attachment = bsongen::binary{{1, 2, 3}, bsongen::binary_subtype::generic};  // 1
  const auto bytes = bsongen::encode(o).value();
  EXPECT_EQ(allocations_of_new_decode(bytes), 1U + 1U + 1U + 2U + 1U);
}

}  // namespace
