// bsongen::pmr::binary and bsongen::pmr::regex (bsongen/pmr_types.hpp): the `allocator: pmr`
// spellings of binary and regex keep their bytes and texts on the resource they were built on,
// and rebuild them on another one when an allocator-extended constructor asks, as the std::pmr
// containers do; vectors and maps of them hand them their own resource.

#include "bsongen/pmr_types.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <memory_resource>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "counting_resource.hpp"

namespace {

using bsongen::binary_subtype;
using bsongen::test::counting_resource;
using allocator = std::pmr::polymorphic_allocator<>;

// Longer than a string's inline buffer, so every copy allocates.
constexpr std::string_view long_text = "a text that no string keeps in its inline buffer";

std::span<const std::uint8_t> bytes_of(std::string_view text) {
  return {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()};
}

TEST(pmr_binary, keeps_its_bytes_on_its_resource_and_copies_onto_another_when_asked) {
  counting_resource first;
  counting_resource second;
  const bsongen::pmr::binary b(bytes_of(long_text), binary_subtype::user_defined, &first);
  EXPECT_EQ(b.get_allocator().resource(), &first);
  EXPECT_EQ(b.bytes.size(), long_text.size());
  EXPECT_EQ(b.subtype, binary_subtype::user_defined);
  EXPECT_EQ(first.allocations, 1U);

  const bsongen::pmr::binary copy(b, allocator(&second));
  EXPECT_EQ(copy, b);
  EXPECT_EQ(copy.get_allocator().resource(), &second);
  EXPECT_EQ(second.allocations, 1U);

  bsongen::pmr::binary source = b;  // a plain copy: the default resource, as std::pmr's
  bsongen::pmr::binary moved(std::move(source), allocator(&second));
  EXPECT_EQ(moved, b);
  EXPECT_EQ(moved.get_allocator().resource(), &second);
  EXPECT_EQ(second.allocations, 2U) << "a move onto another resource copies the bytes";

  bsongen::pmr::binary other_subtype = copy;
  other_subtype.subtype = binary_subtype::generic;
  EXPECT_NE(other_subtype, copy);
}

TEST(pmr_regex, keeps_its_texts_on_its_resource_and_copies_onto_another_when_asked) {
  counting_resource first;
  counting_resource second;
  const bsongen::pmr::regex r(long_text, "imsx", &first);
  EXPECT_EQ(r.pattern, long_text);
  EXPECT_EQ(r.options, "imsx");
  EXPECT_EQ(r.get_allocator().resource(), &first);
  EXPECT_EQ(r.options.get_allocator().resource(), &first);

  const bsongen::pmr::regex copy(r, allocator(&second));
  EXPECT_EQ(copy, r);
  EXPECT_EQ(copy.pattern.get_allocator().resource(), &second);
  EXPECT_EQ(copy.options.get_allocator().resource(), &second);
  const std::size_t after_copy = second.allocations;
  EXPECT_GE(after_copy, 1U);

  bsongen::pmr::regex source(long_text, "i", &second);
  const bsongen::pmr::regex moved(std::move(source), allocator(&second));
  EXPECT_EQ(moved.pattern, long_text);
  EXPECT_EQ(second.allocations, after_copy + 1) << "a move on the same resource takes the text";
}

TEST(pmr_types, containers_build_their_elements_on_their_own_resource) {
  counting_resource arena;
  const std::pmr::memory_resource* const default_resource = std::pmr::get_default_resource();
  const bsongen::pmr::binary b(bytes_of(long_text), binary_subtype::generic);
  const bsongen::pmr::regex r(long_text, "i");
  ASSERT_EQ(b.get_allocator().resource(), default_resource);

  std::pmr::vector<bsongen::pmr::binary> blobs(&arena);
  blobs.push_back(b);
  blobs.emplace_back(bytes_of(long_text), binary_subtype::md5);
  std::pmr::map<std::pmr::string, bsongen::pmr::regex> filters(&arena);
  filters.emplace("x", r);
  for (const auto& blob : blobs) EXPECT_EQ(blob.get_allocator().resource(), &arena);
  EXPECT_EQ(filters.at("x").get_allocator().resource(), &arena);
  EXPECT_EQ(filters.at("x").options.get_allocator().resource(), &arena);
  EXPECT_EQ(blobs[0], b);
  EXPECT_EQ(filters.at("x"), r);
}

}  // namespace
