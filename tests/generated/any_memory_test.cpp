// Memory of `any` values (issue 11 item 2): a 3.8 MiB vector<any> once reached 2 GiB of RSS, each
// value holding a 1 KiB arena block of its own. This executable counts every byte the global
// allocator hands out, so the peak of one decode can be bounded by a multiple of its input.

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <span>
#include <string>
#include <vector>

#include "any_fields.bsongen.hpp"
#include "bsongen/codec.hpp"
#include "bsongen/document.hpp"

namespace {

std::atomic<std::size_t> live_bytes{0};
std::atomic<std::size_t> peak_bytes{0};

// Each block carries its size and header width just below the pointer handed out.
void* counted_allocate(std::size_t n, std::size_t align) {
  const std::size_t header = align > 16 ? align : 16;
  const std::size_t total = (header + n + header - 1) / header * header;
  auto* raw = static_cast<unsigned char*>(std::aligned_alloc(header, total));
  if (raw == nullptr) throw std::bad_alloc();
  auto* user = raw + header;
  reinterpret_cast<std::size_t*>(user)[-1] = header;
  reinterpret_cast<std::size_t*>(user)[-2] = n;
  const std::size_t now = live_bytes.fetch_add(n, std::memory_order_relaxed) + n;
  std::size_t peak = peak_bytes.load(std::memory_order_relaxed);
  while (now > peak && !peak_bytes.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
  return user;
}

void counted_free(void* p) noexcept {
  if (p == nullptr) return;
  auto* user = static_cast<unsigned char*>(p);
  const std::size_t header = reinterpret_cast<std::size_t*>(user)[-1];
  live_bytes.fetch_sub(reinterpret_cast<std::size_t*>(user)[-2], std::memory_order_relaxed);
  std::free(user - header);
}

}  // namespace

void* operator new(std::size_t n) { return counted_allocate(n, 16); }
void* operator new[](std::size_t n) { return counted_allocate(n, 16); }
void* operator new(std::size_t n, std::align_val_t a) {
  return counted_allocate(n, static_cast<std::size_t>(a));
}
void* operator new[](std::size_t n, std::align_val_t a) {
  return counted_allocate(n, static_cast<std::size_t>(a));
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return counted_allocate(n, 16);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return counted_allocate(n, 16);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t) noexcept { counted_free(p); }
void operator delete(void* p, std::align_val_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { counted_free(p); }

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

// Peak bytes live during f(), above what was live before it.
template <class F>
std::size_t peak_during(F&& f) {
  const std::size_t before = live_bytes.load();
  peak_bytes.store(before);
  f();
  return peak_bytes.load() - before;
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
    kept = live_bytes.load();
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
  EXPECT_LT(live_bytes.load(), kept);
}

TEST(any_codec_hostile, values_outlive_the_rest_of_their_decode) {
  // A value moved out of the decoded struct keeps the memory it shares with its siblings alive.
  const std::vector<std::uint8_t> input = many_small_values();
  bsongen::value kept;
  {
    auto r = bsongen::decode<any_test::containers>(input);
    ASSERT_TRUE(r) << r.error().to_string();
    kept = std::move(r->values[6]);
  }
  EXPECT_EQ(kept.as_string(), "a longer string value number 6");
}

}  // namespace
