// document::set() over and over: the memory a document holds stays within a small multiple of its
// live contents (issue 11.17: 5M updates of one small document used to reach 484 MiB). Measured by
// counting the bytes this process has allocated and not freed, so the test does not depend on
// RSS or timing. Its own executable: it links the heap counter (tests/support/heap_counter.hpp),
// which replaces the global operator new/delete.

#include <gtest/gtest.h>

#include <cstddef>
#include <string>

#include "bsongen/document.hpp"
#include "heap_counter.hpp"

namespace bsongen {
namespace {

// Runs `update` `times` times and returns the most bytes held above the starting point. The arena's
// block cache (a few freed blocks per size class and thread) can serve some growth without a new
// allocation, so each test makes far more garbage than that cache holds.
template <class F>
std::size_t peak_growth(int times, F update) {
  const std::size_t start = test::heap::live_bytes();
  std::size_t peak = start;
  for (int i = 0; i < times; ++i) {
    update(i);
    const std::size_t now = test::heap::live_bytes();
    if (now > peak) peak = now;
  }
  return peak - start;
}

TEST(document_memory_hostile, a_million_string_updates_keep_memory_bounded) {
  document d{{"name", "start"}, {"n", 1}, {"tags", array{"a", "b"}}};
  const std::string base(40, 'x');
  d.set("name", base);  // warm the allocator's caches
  const std::size_t growth = peak_growth(1'000'000, [&](int i) {
    d.set("name", std::string_view(base).substr(0, 20 + static_cast<std::size_t>(i % 20)));
    d.set("n", i);
  });
  // Each update leaves ~40 dead bytes: unbounded, a million of them would hold ~40 MB.
  EXPECT_LT(growth, std::size_t{256} * 1024) << growth << " bytes";
  EXPECT_EQ(d["name"].as_string(), base.substr(0, 20 + 999'999 % 20));
  EXPECT_EQ(d["n"].as_int32(), 999'999);
  EXPECT_EQ(d["tags"][1].as_string(), "b");
  EXPECT_EQ(d.size(), 3u);
}

TEST(document_memory_hostile, replacing_nested_documents_frees_their_arenas) {
  document d{{"a", 1}, {"sub", document{{"x", 0}}}};
  const std::size_t growth = peak_growth(200'000, [&](int i) {
    d.set("sub", document{{"x", i}, {"s", "some text"}});  // moved in: its arena is adopted
  });
  // Each adopted arena is at least 512 bytes: unbounded, 200,000 of them would hold 100 MB.
  EXPECT_LT(growth, std::size_t{256} * 1024) << growth << " bytes";
  EXPECT_EQ(d["sub"]["x"].as_int32(), 199'999);
  EXPECT_EQ(d["sub"]["s"].as_string(), "some text");
  EXPECT_EQ(d["a"].as_int32(), 1);
}

TEST(document_memory_hostile, a_decoded_document_updated_in_place_stays_correct_and_bounded) {
  const byte_buffer bytes = encode_document(document{{"k", "v"}, {"list", array{1, 2, 3}}});
  result<document> r = decode_document(bytes);
  ASSERT_TRUE(r);
  document d = std::move(*r);
  // ~25 dead bytes an update: far more than the allocator's block caches could hide.
  const std::size_t growth =
      peak_growth(1'000'000, [&](int i) { d.set("k", "a longer value " + std::to_string(i)); });
  EXPECT_LT(growth, std::size_t{256} * 1024) << growth << " bytes";
  EXPECT_EQ(d["k"].as_string(), "a longer value 999999");
  EXPECT_EQ(d["list"][2].as_int32(), 3);
  EXPECT_EQ(encode_document(d).to_vector(),
            encode_document(document{{"k", "a longer value 999999"}, {"list", array{1, 2, 3}}})
                .to_vector());
}

}  // namespace
}  // namespace bsongen
