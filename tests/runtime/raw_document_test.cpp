// bsongen/raw_document.hpp: a BSON document kept as bytes (captured unknown elements, unmodelled
// embedded documents, a javascript_with_scope's scope). Its invariant (always a complete, valid
// document) holds from default construction on, which costs no heap allocation: the empty
// document is an empty buffer read as the 5 constant bytes. Linked with the heap counter
// (tests/support/heap_counter.hpp) to check that.

#include "bsongen/raw_document.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "heap_counter.hpp"

namespace {

using bsongen::raw_document;
using bytes = std::vector<std::uint8_t>;

const bytes empty_document = {5, 0, 0, 0, 0};
// {"a": int32 1}
const bytes element_a = {0x10, 'a', 0, 1, 0, 0, 0};
const bytes document_a = {12, 0, 0, 0, 0x10, 'a', 0, 1, 0, 0, 0, 0};
// {"a": int32 1, "b": true}
const bytes element_b = {0x08, 'b', 0, 1};
const bytes document_ab = {16, 0, 0, 0, 0x10, 'a', 0, 1, 0, 0, 0, 0x08, 'b', 0, 1, 0};

bytes contents(const raw_document& d) { return {d.bytes().begin(), d.bytes().end()}; }

// Keeps the optimizer from seeing through `p` (and dropping a construction it could prove unused).
void escape(const void* p) { asm volatile("" : : "g"(p) : "memory"); }

TEST(raw_document, default_is_the_empty_document) {
  const raw_document d;
  EXPECT_EQ(contents(d), empty_document);
  EXPECT_EQ(d.size(), 5U);
  EXPECT_TRUE(d.empty());
  EXPECT_EQ(d, raw_document(empty_document));
  EXPECT_TRUE(raw_document(empty_document).empty());
  EXPECT_NE(d, raw_document(document_a));
}

TEST(raw_document, default_construction_allocates_nothing) {
  std::optional<raw_document> d;
  const auto use = bsongen::test::heap::measure([&] {
    d.emplace();
    escape(&d);
  });
  EXPECT_EQ(use.allocations, 0U);
  EXPECT_EQ(contents(*d), empty_document);
  // Nor does copying it, or clearing a document that holds elements.
  std::optional<raw_document> copy;
  EXPECT_EQ(bsongen::test::heap::measure([&] {
              copy.emplace(*d);
              escape(&copy);
            }).allocations,
            0U);
  EXPECT_EQ(*copy, *d);
}

TEST(raw_document, appends_elements_to_the_empty_document) {
  raw_document d;
  d.append_element(element_a);
  EXPECT_EQ(contents(d), document_a);
  EXPECT_FALSE(d.empty());
  d.append_element(element_b);
  EXPECT_EQ(contents(d), document_ab);
  EXPECT_EQ(d.size(), document_ab.size());
  EXPECT_EQ(d, raw_document(document_ab));
}

TEST(raw_document, clear_leaves_the_empty_document_and_keeps_the_capacity) {
  raw_document d(document_ab);
  d.clear();
  EXPECT_EQ(contents(d), empty_document);
  EXPECT_TRUE(d.empty());
  EXPECT_EQ(d, raw_document());
  // Capturing again after clear() (decode into a used struct) reuses the buffer.
  EXPECT_EQ(bsongen::test::heap::measure([&] {
              d.append_element(element_a);
              d.append_element(element_b);
            }).allocations,
            0U);
  EXPECT_EQ(contents(d), document_ab);
}

TEST(raw_document, assign_replaces_the_contents) {
  raw_document d;
  d.assign(document_a);
  EXPECT_EQ(contents(d), document_a);
  d.assign(empty_document);
  EXPECT_EQ(d, raw_document());
  EXPECT_TRUE(d.empty());
  d.append_element(element_b);
  EXPECT_EQ(contents(d), (bytes{9, 0, 0, 0, 0x08, 'b', 0, 1, 0}));
}

}  // namespace
