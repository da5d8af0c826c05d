// Structs written for std::pmr, scanned from a header (tests/scanner/data/scan_fixture/
// pmr_members.hpp, built through bsongen_generate(HEADERS)): the code generated for them decodes
// every string, container, value type and captured element onto the resource the struct was built
// on, a new struct onto decode_options::memory, and writes the bytes of the same documents spelled
// with the default types.

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <memory_resource>
#include <string>
#include <string_view>
#include <vector>

#include "bsongen/codec.hpp"
#include "bsongen/document.hpp"
#include "counting_resource.hpp"
#include "default_resource_refuses.hpp"
#include "scanned_pmr_members.bsongen.hpp"

namespace {

using bsongen::test::counting_resource;
using bsongen::test::default_resource_refuses;
using scan_fixture::pmr_reading;
using scan_fixture::pmr_sample;
using scan_fixture::std_reading;

static_assert(std::uses_allocator_v<pmr_sample, std::pmr::polymorphic_allocator<>>);

// A text past std::string's inline buffer, so that it allocates.
std::string text(const char* what, int n) {
  return std::string(what) + " number " + std::to_string(n) + ", long enough to allocate";
}

// A reading on `resource` with `n` elements in each container, every text long enough to allocate.
pmr_reading reading(std::pmr::memory_resource* resource, int n) {
  pmr_reading r{pmr_reading::allocator_type(resource)};
  r.name = text("name", n);
  for (int i = 0; i < n; ++i) {
    r.tags.emplace_back(text("tag", i));
    pmr_sample& s = r.samples.emplace_back();
    s.label = text("sample", i);
    s.value = i + 0.5;
    r.labels.emplace(text("label", i), i);
    r.ordered.emplace_back(text("ordered key", n - i), text("ordered value", i));
    r.matrix.emplace_back().emplace_back(text("cell", i));
    if (i % 2 == 0) {
      r.maybe_samples.emplace_back(nullptr);
    } else {
      r.maybe_samples.emplace_back(pmr_sample{});
      r.maybe_samples.back()->label = text("maybe sample", i);
    }
  }
  // One entry: the std twin's unordered_map then writes the same order.
  r.by_name[std::pmr::string(text("by name", n), resource)].label = text("counter", n);
  r.blob.bytes.assign(64, std::uint8_t{7});
  r.filter.pattern = text("^pattern", n);
  r.filter.options = "imx";
  r.shape.assign(bsongen::encode(scan_fixture::std_sample{text("shape", n), 1.0}).value().span());
  r.script = text("function f() { return 1; } //", n);
  r.note.emplace(text("note", n), resource);
  if (n % 2 == 1) {
    r.best.emplace(pmr_sample::allocator_type(resource));
    r.best->label = text("best", n);
  }
  return r;
}

// Every allocating member of r, and of what it holds, is on `expected`.
void expect_on(const pmr_reading& r, std::pmr::memory_resource* expected) {
  EXPECT_EQ(r.get_allocator().resource(), expected);
  EXPECT_EQ(r.tags.get_allocator().resource(), expected) << "tags";
  for (const auto& tag : r.tags) EXPECT_EQ(tag.get_allocator().resource(), expected) << "tag";
  EXPECT_EQ(r.samples.get_allocator().resource(), expected) << "samples";
  for (const auto& s : r.samples) EXPECT_EQ(s.get_allocator().resource(), expected) << "sample";
  EXPECT_EQ(r.labels.get_allocator().resource(), expected) << "labels";
  for (const auto& [key, value] : r.labels)
    EXPECT_EQ(key.get_allocator().resource(), expected) << "labels key";
  EXPECT_EQ(r.by_name.get_allocator().resource(), expected) << "by_name";
  for (const auto& [key, value] : r.by_name) {
    EXPECT_EQ(key.get_allocator().resource(), expected) << "by_name key";
    EXPECT_EQ(value.get_allocator().resource(), expected) << "by_name." << key;
  }
  EXPECT_EQ(r.ordered.get_allocator().resource(), expected) << "ordered";
  for (const auto& [key, value] : r.ordered) {
    EXPECT_EQ(key.get_allocator().resource(), expected) << "ordered key";
    EXPECT_EQ(value.get_allocator().resource(), expected) << "ordered." << key;
  }
  EXPECT_EQ(r.blob.get_allocator().resource(), expected) << "blob";
  EXPECT_EQ(r.filter.pattern.get_allocator().resource(), expected) << "filter";
  EXPECT_EQ(r.shape.get_allocator().resource(), expected) << "shape";
  EXPECT_EQ(r.script.get_allocator().resource(), expected) << "script";
  if (r.note) {
    EXPECT_EQ(r.note->get_allocator().resource(), expected) << "note";
  }
  if (r.best) {
    EXPECT_EQ(r.best->get_allocator().resource(), expected) << "best";
  }
  EXPECT_EQ(r.matrix.get_allocator().resource(), expected) << "matrix";
  for (const auto& row : r.matrix) {
    EXPECT_EQ(row.get_allocator().resource(), expected) << "matrix row";
    for (const auto& cell : row) EXPECT_EQ(cell.get_allocator().resource(), expected) << "cell";
  }
  EXPECT_EQ(r.maybe_samples.get_allocator().resource(), expected) << "maybe_samples";
  for (const auto& maybe : r.maybe_samples) {
    if (maybe.has_value()) {
      EXPECT_EQ(maybe->get_allocator().resource(), expected) << "maybe sample";
    }
  }
  EXPECT_EQ(r.extra.get_allocator().resource(), expected) << "extra";
}

// A fixed buffer that cannot grow: what does not fit fails instead of reaching the heap.
struct bounded_buffer {
  std::vector<std::byte> bytes = std::vector<std::byte>(64 * 1024);
  std::pmr::monotonic_buffer_resource resource{bytes.data(), bytes.size(),
                                               std::pmr::null_memory_resource()};
};

TEST(scanned_pmr, a_new_struct_decodes_onto_the_given_resource_and_nowhere_else) {
  std::pmr::monotonic_buffer_resource source_memory;
  const pmr_reading source = reading(&source_memory, 3);
  const auto bytes = bsongen::encode(source).value();
  bounded_buffer arena;
  bsongen::result<pmr_reading> decoded = bsongen::error{};
  {
    const default_resource_refuses guard;
    decoded = bsongen::decode<pmr_reading>(bytes.span(), {.memory = &arena.resource});
  }
  ASSERT_TRUE(decoded) << decoded.error().to_string();
  EXPECT_EQ(*decoded, source);
  expect_on(*decoded, &arena.resource);
  EXPECT_EQ(bsongen::encode(*decoded).value(), bytes);
}

TEST(scanned_pmr, decoding_into_a_struct_keeps_its_resource_as_members_come_and_go) {
  std::pmr::monotonic_buffer_resource source_memory;
  bounded_buffer arena;
  pmr_reading target{pmr_reading::allocator_type(&arena.resource)};
  const default_resource_refuses guard;
  for (const int n : {4, 1, 6, 0}) {
    const pmr_reading source = reading(&source_memory, n);
    const auto bytes = bsongen::encode(source).value();
    const auto decoded = bsongen::decode(bytes.span(), target);
    ASSERT_TRUE(decoded) << n << ": " << decoded.error().to_string();
    EXPECT_EQ(target, source) << n;
    expect_on(target, &arena.resource);
  }
}

TEST(scanned_pmr, captured_unknown_elements_decode_onto_the_resource) {
  std::pmr::monotonic_buffer_resource source_memory;
  // The std twin, with elements the scanned structs do not declare in its capture member.
  std_reading source;
  source.name = text("name", 1);
  bsongen::document unknown;
  unknown.append("unknown", text("unknown", 1));
  unknown.append("also_unknown", std::int64_t{7});
  source.extra.assign(bsongen::encode_document(unknown).span());
  const auto bytes = bsongen::encode(source).value();
  bounded_buffer arena;
  const default_resource_refuses guard;
  const auto decoded = bsongen::decode<pmr_reading>(bytes.span(), {.memory = &arena.resource});
  ASSERT_TRUE(decoded) << decoded.error().to_string();
  EXPECT_FALSE(decoded->extra.empty());
  expect_on(*decoded, &arena.resource);
  EXPECT_EQ(bsongen::encode(*decoded).value(), bytes);
}

TEST(scanned_pmr, without_a_resource_decode_uses_the_default_one) {
  std::pmr::monotonic_buffer_resource source_memory;
  const auto bytes = bsongen::encode(reading(&source_memory, 2)).value();
  counting_resource counted;
  std::pmr::memory_resource* previous = std::pmr::set_default_resource(&counted);
  const auto decoded = bsongen::decode<pmr_reading>(bytes.span());
  std::pmr::set_default_resource(previous);
  ASSERT_TRUE(decoded) << decoded.error().to_string();
  expect_on(*decoded, &counted);
  EXPECT_GT(counted.allocations, 0U);
}

// The std::pmr spellings change where members allocate, not the wire: the same values spelled
// with the default types encode to the same bytes, and each decodes the other's.
TEST(scanned_pmr, writes_the_bytes_of_the_default_spellings) {
  std::pmr::monotonic_buffer_resource memory;
  const pmr_reading pmr = reading(&memory, 3);
  const auto pmr_bytes = bsongen::encode(pmr).value();
  const auto as_std = bsongen::decode<std_reading>(pmr_bytes.span());
  ASSERT_TRUE(as_std) << as_std.error().to_string();
  EXPECT_EQ(as_std->name, std::string_view(pmr.name));
  ASSERT_EQ(as_std->samples.size(), 3U);
  EXPECT_EQ(as_std->samples[2].label, std::string_view(pmr.samples[2].label));
  const auto std_bytes = bsongen::encode(*as_std).value();
  EXPECT_EQ(std_bytes, pmr_bytes);
  const auto back = bsongen::decode<pmr_reading>(std_bytes.span(), {.memory = &memory});
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(*back, pmr);
}

}  // namespace
