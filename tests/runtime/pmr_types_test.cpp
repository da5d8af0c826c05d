// bsongen::pmr::binary, regex, raw_document and javascript_with_scope (bsongen/pmr_types.hpp): the
// `allocator: pmr` spellings keep their bytes and texts on the resource they were built on, and
// rebuild them on another one when an allocator-extended constructor asks, as the std::pmr
// containers do; vectors and maps of them hand them their own resource. pmr::raw_document holds a
// valid document at every step, as bsongen::raw_document does.

#include "bsongen/pmr_types.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory_resource>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bsongen/raw_document.hpp"
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

// One element, as a struct's capture receives it: int32 `key` = `value`.
std::vector<std::uint8_t> int32_element(std::string_view key, std::int32_t value) {
  std::vector<std::uint8_t> e(1 + key.size() + 1 + 4);  // type, key, NUL, value
  e[0] = 0x10;
  std::memcpy(e.data() + 1, key.data(), key.size());
  for (std::size_t i = 0; i < 4; ++i) {
    e[key.size() + 2 + i] = static_cast<std::uint8_t>(static_cast<std::uint32_t>(value) >> (8 * i));
  }
  return e;
}

TEST(pmr_raw_document, is_the_empty_document_until_given_bytes_and_takes_no_memory_for_it) {
  counting_resource resource;
  bsongen::pmr::raw_document d{allocator(&resource)};
  const std::vector<std::uint8_t> empty_document = {5, 0, 0, 0, 0};
  EXPECT_TRUE(d.empty());
  EXPECT_EQ(d.size(), 5U);
  EXPECT_EQ(std::vector<std::uint8_t>(d.bytes().begin(), d.bytes().end()), empty_document);
  EXPECT_EQ(d, bsongen::pmr::raw_document{});
  EXPECT_EQ(resource.allocations, 0U);
}

TEST(pmr_raw_document, appends_elements_as_bsongen_raw_document_does_on_its_resource) {
  counting_resource resource;
  bsongen::pmr::raw_document d{allocator(&resource)};
  bsongen::raw_document plain;
  for (const auto& element : {int32_element("a", 1), int32_element("a longer key", -2)}) {
    d.append_element(element);
    plain.append_element(element);
    ASSERT_EQ(std::vector<std::uint8_t>(d.bytes().begin(), d.bytes().end()),
              std::vector<std::uint8_t>(plain.bytes().begin(), plain.bytes().end()));
  }
  EXPECT_FALSE(d.empty());
  EXPECT_EQ(d.size(), 5U + 7 + 18);
  EXPECT_EQ(d.get_allocator().resource(), &resource);
  EXPECT_GE(resource.allocations, 1U);

  d.clear();
  EXPECT_TRUE(d.empty());
  EXPECT_EQ(d.size(), 5U);
  d.assign(plain.bytes());
  EXPECT_EQ(std::vector<std::uint8_t>(d.bytes().begin(), d.bytes().end()),
            std::vector<std::uint8_t>(plain.bytes().begin(), plain.bytes().end()));
}

TEST(pmr_raw_document, copies_and_moves_onto_another_resource_when_asked) {
  counting_resource first;
  counting_resource second;
  bsongen::raw_document plain;
  plain.append_element(int32_element("x", 7));
  const bsongen::pmr::raw_document d(plain.bytes(), &first);
  const bsongen::pmr::raw_document copy(d, allocator(&second));
  EXPECT_EQ(copy, d);
  EXPECT_EQ(copy.get_allocator().resource(), &second);
  EXPECT_EQ(second.allocations, 1U);

  bsongen::pmr::raw_document source(plain.bytes(), &first);
  bsongen::pmr::raw_document moved(std::move(source), allocator(&second));
  EXPECT_EQ(moved, d);
  EXPECT_EQ(moved.get_allocator().resource(), &second);
  EXPECT_EQ(second.allocations, 2U) << "a move onto another resource copies the bytes";

  bsongen::pmr::raw_document other(plain.bytes(), &first);
  other.append_element(int32_element("y", 8));
  EXPECT_NE(other, d);
}

TEST(pmr_javascript_with_scope, keeps_code_and_scope_on_its_resource) {
  counting_resource first;
  counting_resource second;
  bsongen::raw_document scope;
  scope.append_element(int32_element("x", 7));
  const bsongen::pmr::javascript_with_scope js(long_text, scope.bytes(), &first);
  EXPECT_EQ(js.code, long_text);
  EXPECT_EQ(js.scope.size(), scope.size());
  EXPECT_EQ(js.get_allocator().resource(), &first);
  EXPECT_EQ(js.scope.get_allocator().resource(), &first);

  const bsongen::pmr::javascript_with_scope copy(js, allocator(&second));
  EXPECT_EQ(copy, js);
  EXPECT_EQ(copy.code.get_allocator().resource(), &second);
  EXPECT_EQ(copy.scope.get_allocator().resource(), &second);
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
