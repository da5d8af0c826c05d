#include "bsongen/object_id.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <ctime>
#include <set>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

namespace {

using bsongen::object_id;

std::uint32_t counter_of(const object_id& id) {
  const auto* b = id.data();
  return static_cast<std::uint32_t>(b[9]) << 16 | static_cast<std::uint32_t>(b[10]) << 8 | b[11];
}

std::array<std::uint8_t, 5> random_of(const object_id& id) {
  std::array<std::uint8_t, 5> random{};
  std::copy(id.data() + 4, id.data() + 9, random.begin());
  return random;
}

TEST(ObjectId, DefaultIsAllZero) {
  object_id id;
  for (std::uint8_t b : id.bytes()) EXPECT_EQ(b, 0);
  EXPECT_EQ(id.to_hex(), "000000000000000000000000");
}

TEST(ObjectId, GenerateLaysOutSecondsRandomAndCounter) {
  const object_id first = object_id::generate(0x01020304);
  const object_id second = object_id::generate(0x01020304);
  EXPECT_EQ(first.data()[0], 0x01);
  EXPECT_EQ(first.data()[3], 0x04);
  EXPECT_EQ(first.timestamp(), 0x01020304u);
  EXPECT_EQ(random_of(first), random_of(second)) << "the 5-byte value is fixed per process";
  EXPECT_EQ(counter_of(second), (counter_of(first) + 1) & 0xFFFFFF);
}

TEST(ObjectId, TimestampFollowsTheClock) {
  const auto before = static_cast<std::uint32_t>(std::time(nullptr));
  const object_id id = object_id::generate();
  const auto after = static_cast<std::uint32_t>(std::time(nullptr));
  // The coarse clock may trail time() by a tick, hence the one-second slack below.
  EXPECT_GE(id.timestamp() + 1, before);
  EXPECT_LE(id.timestamp(), after);
  EXPECT_EQ(id.time(), std::chrono::system_clock::time_point(std::chrono::seconds(id.timestamp())));
}

TEST(ObjectId, UniqueAcrossEightThreads) {
  constexpr int thread_count = 8;
  constexpr int per_thread = 100'000;
  std::vector<std::vector<object_id>> produced(thread_count);
  std::vector<std::thread> threads;
  for (int t = 0; t < thread_count; ++t) {
    threads.emplace_back([&slot = produced[t]] {
      slot.reserve(per_thread);
      for (int i = 0; i < per_thread; ++i) slot.push_back(object_id::generate());
    });
  }
  for (auto& thread : threads) thread.join();

  std::unordered_set<object_id> all;
  all.reserve(thread_count * per_thread);
  for (const auto& slot : produced) all.insert(slot.begin(), slot.end());
  EXPECT_EQ(all.size(), static_cast<std::size_t>(thread_count * per_thread));
}

TEST(ObjectId, CounterWrapsAt24Bits) {
  bsongen::detail::object_id_counter_for_testing(0xFFFFFE);
  const object_id a = object_id::generate(7);
  const object_id b = object_id::generate(7);
  const object_id c = object_id::generate(7);
  EXPECT_EQ(counter_of(a), 0xFFFFFEu);
  EXPECT_EQ(counter_of(b), 0xFFFFFFu);
  EXPECT_EQ(counter_of(c), 0u);
  EXPECT_EQ(random_of(a), random_of(c)) << "the wrap must not spill into the random bytes";
  EXPECT_EQ(c.timestamp(), 7u) << "nor into the timestamp";
}

TEST(ObjectId, CounterTestHookTakesTheLow24Bits) {
  bsongen::detail::object_id_counter_for_testing(0x12345678);
  EXPECT_EQ(counter_of(object_id::generate(1)), 0x345678u);
}

// Reads exactly `size` bytes from `fd`; false on EOF or error.
bool read_all(int fd, void* out, std::size_t size) {
  auto* p = static_cast<char*>(out);
  while (size > 0) {
    const ssize_t got = ::read(fd, p, size);
    if (got <= 0) return false;
    p += got;
    size -= static_cast<std::size_t>(got);
  }
  return true;
}

TEST(ObjectId, ChildAfterForkDrawsANewRandomValue) {
  constexpr int per_process = 1000;
  std::vector<object_id> parent_ids;
  parent_ids.push_back(object_id::generate());  // the parent's value is drawn before the fork

  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(pipe_fds[0]);
    for (int i = 0; i < per_process; ++i) {
      const object_id id = object_id::generate();
      if (::write(pipe_fds[1], id.data(), object_id::size) !=
          static_cast<ssize_t>(object_id::size)) {
        ::_exit(2);
      }
    }
    ::_exit(0);
  }
  ::close(pipe_fds[1]);
  for (int i = 1; i < per_process; ++i) parent_ids.push_back(object_id::generate());

  std::vector<object_id> child_ids;
  std::array<std::uint8_t, object_id::size> buffer{};
  while (read_all(pipe_fds[0], buffer.data(), buffer.size())) {
    child_ids.push_back(object_id(std::span<const std::uint8_t, object_id::size>(buffer)));
  }
  ::close(pipe_fds[0]);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
  ASSERT_EQ(child_ids.size(), static_cast<std::size_t>(per_process));

  for (const object_id& id : child_ids) {
    ASSERT_NE(random_of(id), random_of(parent_ids.front()))
        << "child " << id.to_hex() << " shares the parent's random bytes";
  }
  std::set<object_id> all(parent_ids.begin(), parent_ids.end());
  all.insert(child_ids.begin(), child_ids.end());
  EXPECT_EQ(all.size(), 2u * per_process);
}

TEST(ObjectId, HexRoundTrip) {
  const std::string hex = "507f1f77bcf86cd799439011";
  const auto parsed = object_id::from_hex(hex);
  ASSERT_TRUE(parsed) << parsed.error().to_string();
  EXPECT_EQ(parsed->data()[0], 0x50);
  EXPECT_EQ(parsed->data()[11], 0x11);
  EXPECT_EQ(parsed->to_hex(), hex);
  EXPECT_EQ(parsed->timestamp(), 0x507f1f77u);

  const object_id generated = object_id::generate();
  const auto back = object_id::from_hex(generated.to_hex());
  ASSERT_TRUE(back);
  EXPECT_EQ(*back, generated);
}

TEST(ObjectId, FromHexAcceptsUpperCaseAndWritesLowerCase) {
  const auto parsed = object_id::from_hex("507F1F77BCF86CD799439011");
  ASSERT_TRUE(parsed);
  EXPECT_EQ(parsed->to_hex(), "507f1f77bcf86cd799439011");
}

TEST(ObjectId, ToHexIntoBufferWritesExactly24Chars) {
  const auto id = object_id::from_hex("00112233445566778899aabb").value();
  std::string buffer(26, '#');
  id.to_hex(buffer.data());
  EXPECT_EQ(buffer, "00112233445566778899aabb##");
}

TEST(ObjectId, FromHexRejectsWrongLength) {
  for (const std::string& bad : {std::string(), std::string(23, 'a'), std::string(25, 'a')}) {
    const auto parsed = object_id::from_hex(bad);
    ASSERT_FALSE(parsed) << bad;
    EXPECT_EQ(parsed.error().code, bsongen::error_code::invalid_value);
    EXPECT_EQ(parsed.error().message,
              "ObjectId hex string must be 24 characters, got " + std::to_string(bad.size()));
  }
}

TEST(ObjectId, FromHexNamesTheBadCharacterAndPosition) {
  const auto high = object_id::from_hex("507f1g77bcf86cd799439011");
  ASSERT_FALSE(high);
  EXPECT_EQ(high.error().code, bsongen::error_code::invalid_value);
  EXPECT_EQ(high.error().message, "ObjectId hex string has invalid character 'g' at position 5");
  EXPECT_EQ(high.error().offset, 5u);

  const auto low_nibble = object_id::from_hex("507f1f77bcf86cd79943901z");
  ASSERT_FALSE(low_nibble);
  EXPECT_EQ(low_nibble.error().message,
            "ObjectId hex string has invalid character 'z' at position 23");

  const auto first_digit = object_id::from_hex("x07f1f77bcf86cd799439011");
  ASSERT_FALSE(first_digit);
  EXPECT_EQ(first_digit.error().offset, 0u);

  std::string control = "507f1f77bcf86cd799439011";
  control[10] = '\n';
  const auto unprintable = object_id::from_hex(control);
  ASSERT_FALSE(unprintable);
  EXPECT_EQ(unprintable.error().message,
            "ObjectId hex string has invalid character byte 0x0a at position 10");
  EXPECT_EQ(unprintable.error().to_string(),
            "invalid_value (byte 10): ObjectId hex string has invalid character byte 0x0a at "
            "position 10");
}

TEST(ObjectId, OrdersByBytesSoByTimestampFirst) {
  const object_id older = object_id::generate(1000);
  const object_id newer = object_id::generate(1001);
  EXPECT_LT(older, newer);
  EXPECT_NE(older, newer);
  const auto a = object_id::from_hex("000000000000000000000001").value();
  const auto b = object_id::from_hex("000000000000000000000100").value();
  EXPECT_LT(a, b);
  EXPECT_EQ(a, object_id::from_hex("000000000000000000000001").value());
  EXPECT_TRUE(std::is_trivially_copyable_v<object_id>);
}

TEST(ObjectId, HashWorksInUnorderedSet) {
  std::unordered_set<object_id> set;
  const auto a = object_id::from_hex("507f1f77bcf86cd799439011").value();
  const auto b = object_id::from_hex("507f1f77bcf86cd799439012").value();
  set.insert(a);
  set.insert(b);
  set.insert(a);
  EXPECT_EQ(set.size(), 2u);
  EXPECT_TRUE(set.contains(b));
  EXPECT_NE(std::hash<object_id>{}(a), std::hash<object_id>{}(b));
}

TEST(ObjectId, FromBytesAndSpanConstructorCopyAllTwelveBytes) {
  const std::array<std::uint8_t, 12> raw{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  const object_id from_span{std::span<const std::uint8_t, 12>(raw)};
  const object_id from_pointer = object_id::from_bytes(raw.data());
  EXPECT_EQ(from_span, from_pointer);
  EXPECT_TRUE(std::equal(raw.begin(), raw.end(), from_span.bytes().begin()));
}

}  // namespace
