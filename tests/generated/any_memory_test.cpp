// Memory of `any` values (issue 11 item 2): a 3.8 MiB vector<any> once reached 2 GiB of RSS, each
// value holding a 1 KiB arena block of its own; and where it comes from (decode_options::memory).
// This executable links bsongen_test_heap_counter, which counts every byte the global allocator
// hands out, so the peak of one decode can be bounded by a multiple of its input.

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory_resource>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "any_fields.bsongen.hpp"
#include "bsongen/codec.hpp"
#include "bsongen/document.hpp"
#include "heap_counter.hpp"

namespace {

// {values: [...], attributes: {...}}: about 3.8 MiB of small values of every common kind.
std::vector<std::uint8_t> many_small_values() {
  bsongen::array values;
  bsongen::document attributes;
  for (int i = 0; values.size() < 175'000; ++i) {
    switch (i % 8) {
      case 0:
        values.push_back(i);
        break;
      case 1:
        values.push_back(std::to_string(i).insert(0, 1, 's'));
        break;
      case 2:
        values.push_back(bsongen::document{{"k", i}});
        break;
      case 3:
        values.push_back(bsongen::array{i, i + 1});
        break;
      case 4:
        values.push_back(nullptr);
        break;
      case 5:
        values.push_back(0.5 * i);
        break;
      case 6:
        values.push_back(std::to_string(i).insert(0, "a longer string value number "));
        break;
      case 7:
        values.push_back(std::int64_t{i} << 33);
        break;
    }
    if (i % 16 == 0) attributes.append(std::to_string(i).insert(0, "key"), std::to_string(i));
  }
  bsongen::document d{{"values", std::move(values)}, {"attributes", std::move(attributes)}};
  const bsongen::byte_buffer b = bsongen::encode_document(d);
  return {b.data(), b.data() + b.size()};
}

namespace heap = bsongen::test::heap;

// Peak bytes live during f(), above what was live before it.
template <class F>
std::size_t peak_during(F&& f) {
  return heap::measure(static_cast<F&&>(f)).peak;
}

TEST(any_codec_hostile, many_small_values_cost_a_small_multiple_of_their_input) {
  const std::vector<std::uint8_t> input = many_small_values();
  ASSERT_GT(input.size(), 3'500'000u);
  ASSERT_LT(input.size(), 4'500'000u);

  std::size_t generated = 0;
  std::size_t kept = 0;
  {
    bsongen::result<any_test::containers> r(std::in_place);
    generated = peak_during([&] { r = bsongen::decode<any_test::containers>(input); });
    ASSERT_TRUE(r) << r.error().to_string();
    ASSERT_EQ(r->values.size(), 175'000u);
    kept = heap::live_bytes();
  }
  const std::size_t generic = peak_during([&] {
    auto d = bsongen::decode_document(input);
    ASSERT_TRUE(d);
  });
  const double ratio = static_cast<double>(generated) / static_cast<double>(input.size());
  std::printf(
      "input %zu bytes: generated decode peak %zu (%.1fx), generic decode peak %zu (%.1fx)\n",
      input.size(), generated, ratio, generic,
      static_cast<double>(generic) / static_cast<double>(input.size()));
  EXPECT_LT(ratio, 12.0) << "any values cost more than a small multiple of their input";
  EXPECT_LT(generated, 2 * generic) << "any values cost far more than the generic path's decode";
  EXPECT_GT(kept, 0u);
  // Everything goes when the struct goes: the shared memory is returned with the last value.
  EXPECT_LT(heap::live_bytes(), kept);
}

// A resource that takes its memory from the heap and checks what comes back: every block once,
// with the size and alignment it was handed out with.
class checking_resource final : public std::pmr::memory_resource {
 public:
  std::size_t allocations = 0;
  std::size_t mismatches = 0;  // frees of a block not handed out, or with another size/alignment
  [[nodiscard]] std::size_t live_blocks() const noexcept { return live_.size(); }
  [[nodiscard]] std::size_t live_bytes() const noexcept {
    std::size_t bytes = 0;
    for (const auto& [block, size_and_alignment] : live_) bytes += size_and_alignment.first;
    return bytes;
  }

 private:
  void* do_allocate(std::size_t bytes, std::size_t alignment) override {
    void* p = std::pmr::new_delete_resource()->allocate(bytes, alignment);
    live_.emplace(p, std::pair(bytes, alignment));
    ++allocations;
    return p;
  }
  void do_deallocate(void* p, std::size_t bytes, std::size_t alignment) override {
    const auto it = live_.find(p);
    if (it == live_.end() || it->second != std::pair(bytes, alignment)) {
      ++mismatches;
      return;  // leaked rather than freed wrongly
    }
    live_.erase(it);
    std::pmr::new_delete_resource()->deallocate(p, bytes, alignment);
  }
  [[nodiscard]] bool do_is_equal(const memory_resource& other) const noexcept override {
    return this == &other;
  }
  std::map<void*, std::pair<std::size_t, std::size_t>> live_;
};

// decode_options::memory is where `any` values take their memory, as a generic document's arena
// takes its blocks there: all of it, each value's returned when that value goes, each block as it
// was handed out.
TEST(any_codec, values_take_their_memory_from_the_resource_decode_is_given) {
  const std::vector<std::uint8_t> input = many_small_values();
  checking_resource memory;
  bsongen::value kept;
  {
    auto r = bsongen::decode<any_test::containers>(input, {.memory = &memory});
    ASSERT_TRUE(r) << r.error().to_string();
    EXPECT_GT(memory.allocations, 1U) << "the values' memory came from elsewhere";
    kept = std::move(r->values[6]);
  }
  EXPECT_GT(memory.live_blocks(), 0U) << "a value outlived its memory";
  EXPECT_LE(memory.live_blocks(), 1U) << "a value keeps memory beyond its own";
  EXPECT_EQ(kept.as_string(), "a longer string value number 6");
  kept = bsongen::value();
  EXPECT_EQ(memory.live_blocks(), 0U);
  EXPECT_EQ(memory.mismatches, 0U);

  // A decode whose `any` values keep nothing (scalars) takes nothing from it.
  const bsongen::document scalars{{"_id", 1}, {"metadata", 2.5}, {"name", "n"}};
  const bsongen::byte_buffer bytes = bsongen::encode_document(scalars);
  const std::size_t before = memory.allocations;
  auto tagged = bsongen::decode<any_test::tagged>(bytes.span(), {.memory = &memory});
  ASSERT_TRUE(tagged) << tagged.error().to_string();
  EXPECT_EQ(tagged->metadata.as_double(), 2.5);
  EXPECT_EQ(memory.allocations, before);
}

TEST(any_codec_hostile, values_outlive_the_rest_of_their_decode) {
  // A value moved out of the decoded struct keeps its own memory alive.
  const std::vector<std::uint8_t> input = many_small_values();
  bsongen::value kept;
  {
    auto r = bsongen::decode<any_test::containers>(input);
    ASSERT_TRUE(r) << r.error().to_string();
    kept = std::move(r->values[6]);
  }
  EXPECT_EQ(kept.as_string(), "a longer string value number 6");
}

// A decoded document, array or string moved into a document or array built by hand: the
// document takes over the value's own memory (no copy of a nested document), keeps it readable
// once the struct and the value are gone, and returns it with itself. Repeating this must not
// grow the heap.
TEST(any_codec_hostile, values_moved_into_documents_live_and_die_with_them) {
  const std::string text(100, 't');
  const bsongen::byte_buffer input = bsongen::encode_document(bsongen::document{
      {"values", bsongen::array{bsongen::document{{"a", text}, {"b", 2}}, bsongen::array{text, 3.5},
                                text, bsongen::document{}}}});
  const auto round = [&] {
    bsongen::document built;
    bsongen::array list;
    {
      auto r = bsongen::decode<any_test::containers>(input.span());
      ASSERT_TRUE(r) << r.error().to_string();
      ASSERT_EQ(r->values.size(), 4u);
      built.append("doc", std::move(r->values[0]));
      built.append("str", std::move(r->values[2]));
      built.set("doc", bsongen::value(1));  // the replaced value's memory stays with the document
      built.append("doc2", std::move(r->values[3]));
      list.push_back(std::move(r->values[1]));
    }
    ASSERT_EQ(built["str"].as_string(), text);
    ASSERT_EQ(built["doc"].as_int32(), 1);
    ASSERT_TRUE(built["doc2"].as_document().empty());
    ASSERT_EQ(list[0][0].as_string(), text);
    ASSERT_EQ(list[0][1].as_double(), 3.5);
    bsongen::value whole(std::move(list));
    ASSERT_EQ(whole[0][0].as_string(), text);
  };
  round();
  const std::size_t before = heap::live_bytes();
  for (int i = 0; i < 50; ++i) round();
  EXPECT_EQ(heap::live_bytes(), before);
}

// A value's memory is freed with it: when a repeated key replaces it (the last wins), with the
// struct otherwise, also after a decode that failed. Repeating such decodes must not grow the
// heap (the first round warms the runtime's per-thread block cache).
TEST(any_codec_hostile, decodes_that_keep_no_value_return_all_their_memory) {
  const std::string text(300, 'x');
  // `extra` twice: the first value is built, then replaced by a number (which needs no memory).
  const bsongen::byte_buffer repeated = bsongen::encode_document(
      bsongen::document{{"extra", bsongen::document{{"a", text}}}, {"extra", 5}});
  // A value, then an element the struct refuses (values must be an array).
  const bsongen::byte_buffer failing = bsongen::encode_document(
      bsongen::document{{"extra", bsongen::document{{"a", text}}}, {"values", 5}});
  const auto round = [&] {
    {
      auto r = bsongen::decode<any_test::containers>(repeated.span());
      ASSERT_TRUE(r) << r.error().to_string();
      ASSERT_EQ(r->extra->as_int32(), 5);
    }
    ASSERT_FALSE(bsongen::decode<any_test::containers>(failing.span()));
    any_test::containers reused;
    ASSERT_TRUE(bsongen::decode(repeated.span(), reused));
    ASSERT_TRUE(bsongen::decode(repeated.span(), reused));  // replaces the first decode's value
  };
  round();
  const std::size_t before = heap::live_bytes();
  for (int i = 0; i < 100; ++i) round();
  EXPECT_EQ(heap::live_bytes(), before);
}

// A value kept from a large decode keeps what it holds and nothing else of that decode (the red
// team's finding: eight structs, each keeping a 1-byte string decoded from a 15 MB document, kept
// 175 MiB, every value holding the memory all values of its decode shared). Counted at the
// resource: the default one also keeps a bounded cache of free blocks per thread, which is not
// the values' memory.
TEST(any_codec_hostile, a_kept_value_keeps_only_what_it_holds) {
  const std::vector<std::uint8_t> input = many_small_values();
  checking_resource memory;
  std::vector<bsongen::value> kept;
  kept.reserve(8);
  for (int round = 0; round < 8; ++round) {
    auto r = bsongen::decode<any_test::containers>(input, {.memory = &memory});
    ASSERT_TRUE(r) << r.error().to_string();
    kept.push_back(std::move(r->values[1]));  // "s1"
  }
  for (const bsongen::value& v : kept) EXPECT_EQ(v.as_string(), "s1");
  std::printf("8 values of 2 bytes kept from 8 decodes of %zu bytes: %zu bytes in %zu blocks\n",
              input.size(), memory.live_bytes(), memory.live_blocks());
  EXPECT_EQ(memory.live_blocks(), 8U) << "a kept value holds more than its own block";
  EXPECT_LT(memory.live_bytes(), 8 * 128) << "a kept value keeps more than what it holds";
}

}  // namespace
