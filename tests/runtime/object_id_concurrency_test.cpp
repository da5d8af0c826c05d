// Concurrency: ObjectId generation, the pool allocator, and generic and generated encode/decode
// used from many threads at once, and ObjectIds across fork(). Each test checks results (ids
// unique, decoded values equal to the serial result, allocations intact); scripts/test-sanitized
// also runs this binary under ThreadSanitizer, which checks the same runs for data races.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory_resource>
#include <mutex>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "any_fields.bsongen.hpp"
#include "bson_builder.hpp"
#include "bsongen/codec.hpp"
#include "bsongen/document.hpp"
#include "bsongen/document_view.hpp"
#include "bsongen/object_id.hpp"
#include "bsongen/pool.hpp"
#include "codec_helpers.hpp"
#include "orders.bsongen.hpp"

namespace bsongen {
namespace {

#if defined(__SANITIZE_THREAD__)
constexpr bool thread_sanitizer = true;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
constexpr bool thread_sanitizer = true;
#else
constexpr bool thread_sanitizer = false;
#endif
#else
constexpr bool thread_sanitizer = false;
#endif

constexpr int thread_count = 4;

// Starts `thread_count` threads running body(thread_index) together and joins them.
template <class Body>
void run_in_threads(Body body) {
  std::atomic<int> ready{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < thread_count; ++t) {
    threads.emplace_back([&, t] {
      ++ready;
      while (ready.load() < thread_count) std::this_thread::yield();  // start together
      body(t);
    });
  }
  for (std::thread& th : threads) th.join();
}

std::array<std::uint8_t, 5> random_part(const object_id& id) {
  std::array<std::uint8_t, 5> r{};
  std::memcpy(r.data(), id.data() + 4, 5);
  return r;
}

bool write_all(int fd, const void* data, std::size_t size) {
  const auto* p = static_cast<const std::uint8_t*>(data);
  while (size != 0) {
    const ssize_t n = ::write(fd, p, size);
    if (n <= 0) return false;
    p += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

std::vector<object_id> read_ids(int fd) {
  std::vector<object_id> ids;
  std::vector<std::uint8_t> bytes;
  std::uint8_t buffer[4096];
  for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;)
    bytes.insert(bytes.end(), buffer, buffer + n);
  for (std::size_t i = 0; i + object_id::size <= bytes.size(); i += object_id::size) {
    ids.push_back(object_id::from_bytes(bytes.data() + i));
  }
  return ids;
}

// ---- ObjectId ----

TEST(concurrency, object_ids_are_unique_across_threads_and_children_forked_meanwhile) {
  constexpr int per_thread = 20000;
  constexpr int children = 2;
  std::vector<std::vector<object_id>> per_thread_ids(thread_count);

  // Children fork while the parent's threads are generating: each child generates from two
  // threads of its own and sends its ids back through a pipe.
  //
  // A child of a multithreaded process can only rely on locks no other thread held at the fork.
  // glibc's malloc makes its own locks fork-safe, sanitizer allocators do not (a child then hangs
  // in its first allocation, about one run in three under ASan). So the forks happen only while
  // every generating thread is past its start-up allocations and none can exit: the threads
  // signal `generating` once their storage is reserved and wait for `forks_done` before leaving.
  std::atomic<int> generating{0};
  std::atomic<bool> forks_done{false};
  std::vector<std::pair<pid_t, int>> forked;
  std::thread forker([&] {
    struct mark_done {
      std::atomic<bool>& done;
      ~mark_done() { done = true; }  // also when an ASSERT below returns early
    } guard{forks_done};
    while (generating.load() < thread_count) std::this_thread::yield();
    for (int c = 0; c < children; ++c) {
      int fds[2];
      ASSERT_EQ(::pipe(fds), 0);
      const pid_t pid = ::fork();
      ASSERT_GE(pid, 0);
      if (pid == 0) {
        ::close(fds[0]);
        std::vector<object_id> mine(2 * per_thread);
        auto generate_range = [&](int from, int to) {
          for (int i = from; i < to; ++i) mine[static_cast<std::size_t>(i)] = object_id::generate();
        };
        if constexpr (thread_sanitizer) {
          // ThreadSanitizer still counts the parent's generating threads as alive in the child
          // and aborts when a new thread reuses one's id ("dup thread with used id"): the child
          // generates from the forking thread alone there.
          generate_range(0, 2 * per_thread);
        } else {
          std::thread a(generate_range, 0, per_thread);
          std::thread b(generate_range, per_thread, 2 * per_thread);
          a.join();
          b.join();
        }
        const bool ok = write_all(fds[1], mine.data(), mine.size() * object_id::size);
        ::_exit(ok ? 0 : 3);
      }
      ::close(fds[1]);
      forked.emplace_back(pid, fds[0]);
    }
  });
  run_in_threads([&](int t) {
    auto& ids = per_thread_ids[static_cast<std::size_t>(t)];
    ids.reserve(per_thread);
    ++generating;
    for (int i = 0; i < per_thread; ++i) ids.push_back(object_id::generate());
    while (!forks_done.load()) std::this_thread::yield();
  });
  forker.join();

  std::set<object_id> all;
  std::set<std::array<std::uint8_t, 5>> parent_random;
  for (const auto& ids : per_thread_ids) {
    for (const object_id& id : ids) {
      all.insert(id);
      parent_random.insert(random_part(id));
    }
  }
  ASSERT_EQ(all.size(), static_cast<std::size_t>(thread_count * per_thread))
      << "duplicate ids across threads";
  EXPECT_EQ(parent_random.size(), 1u) << "one random value per process";

  for (auto [pid, fd] : forked) {
    const std::vector<object_id> child_ids = read_ids(fd);
    ::close(fd);
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
    ASSERT_EQ(child_ids.size(), static_cast<std::size_t>(2 * per_thread));
    for (const object_id& id : child_ids) {
      ASSERT_EQ(parent_random.count(random_part(id)), 0u)
          << "a child reused the parent's random bytes";
      ASSERT_TRUE(all.insert(id).second) << "id " << id.to_hex() << " repeats across processes";
    }
  }
}

// ---- pool_resource ----

// Allocates and frees mixed sizes through `resource`, filling each block with a pattern of
// `owner` and checking it before the free: a block handed to two owners shows up as a mismatch.
void churn(std::pmr::memory_resource& resource, std::uint8_t owner, int rounds, unsigned seed) {
  struct block {
    std::uint8_t* p;
    std::size_t size;
    std::size_t alignment;
  };
  std::mt19937 rng(seed);
  std::vector<block> live;
  for (int i = 0; i < rounds; ++i) {
    if (live.empty() || rng() % 3 != 0) {
      const std::size_t size = rng() % 4 == 0 ? 257 + rng() % 2000 : 1 + rng() % 256;
      const std::size_t alignment = std::size_t{1} << (rng() % 6);  // 1 .. 32
      auto* p = static_cast<std::uint8_t*>(resource.allocate(size, alignment));
      ASSERT_EQ(reinterpret_cast<std::uintptr_t>(p) % alignment, 0u);
      std::memset(p, owner, size);
      live.push_back({p, size, alignment});
    } else {
      const std::size_t k = rng() % live.size();
      const block b = live[k];
      for (std::size_t j = 0; j < b.size; ++j)
        ASSERT_EQ(b.p[j], owner) << "block overwritten by another owner";
      resource.deallocate(b.p, b.size, b.alignment);
      live[k] = live.back();
      live.pop_back();
    }
  }
  for (const block& b : live) resource.deallocate(b.p, b.size, b.alignment);
}

TEST(concurrency, one_pool_per_thread_shares_no_state) {
  run_in_threads([](int t) {
    pool_resource pool;
    churn(pool, static_cast<std::uint8_t>(t + 1), 20000, static_cast<unsigned>(t));
    pool.release();
    churn(pool, static_cast<std::uint8_t>(t + 1), 2000, static_cast<unsigned>(t + 100));
  });
}

// A pool shared by threads through a lock, as its contract asks (it is not thread-safe itself).
class locked_resource final : public std::pmr::memory_resource {
 public:
  explicit locked_resource(std::pmr::memory_resource& inner) : inner_(inner) {}

 private:
  void* do_allocate(std::size_t bytes, std::size_t alignment) override {
    std::lock_guard lock(mutex_);
    return inner_.allocate(bytes, alignment);
  }
  void do_deallocate(void* p, std::size_t bytes, std::size_t alignment) override {
    std::lock_guard lock(mutex_);
    inner_.deallocate(p, bytes, alignment);
  }
  [[nodiscard]] bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override {
    return this == &other;
  }
  std::pmr::memory_resource& inner_;
  std::mutex mutex_;
};

TEST(concurrency, a_pool_shared_behind_a_lock_hands_each_block_to_one_thread) {
  pool_resource pool;
  locked_resource shared(pool);
  run_in_threads([&](int t) {
    churn(shared, static_cast<std::uint8_t>(t + 1), 20000, static_cast<unsigned>(t));
  });
}

// ---- generic encode/decode ----

std::vector<std::uint8_t> sample_document() {
  document d{{"_id", object_id::generate(1700000000)},
             {"name", "concurrent"},
             {"n", 42},
             {"big", std::int64_t{1} << 40},
             {"pi", 3.25},
             {"tags", array{"a", "b", "c"}},
             {"nested",
              document{{"x", true}, {"y", nullptr}, {"z", array{1, 2, document{{"deep", "yes"}}}}}},
             {"price", *decimal128::from_string("12.50")}};
  return encode_document(d).to_vector();
}

TEST(concurrency, generic_decode_encode_and_view_in_parallel_match_the_serial_result) {
  const std::vector<std::uint8_t> bytes = sample_document();
  const document reference = *decode_document(bytes);
  std::atomic<int> mismatches{0};
  run_in_threads([&](int) {
    for (int i = 0; i < 2000; ++i) {
      auto d = decode_document(bytes);
      if (!d || *d != reference || encode_document(*d).to_vector() != bytes) ++mismatches;
      auto v = document_view::from_bytes(bytes);
      if (!v || v->count() != reference.size() || (*v)["name"].as_string() != "concurrent")
        ++mismatches;
    }
  });
  EXPECT_EQ(mismatches.load(), 0);
}

TEST(concurrency, documents_decoded_on_one_thread_are_read_and_destroyed_on_another) {
  const std::vector<std::uint8_t> bytes = sample_document();
  const document reference = *decode_document(bytes);
  std::mutex mutex;
  std::condition_variable ready;
  std::deque<document> queue;
  bool done = false;
  std::atomic<int> mismatches{0};

  std::thread consumer([&] {
    for (;;) {
      std::unique_lock lock(mutex);
      ready.wait(lock, [&] { return !queue.empty() || done; });
      if (queue.empty()) return;
      document d = std::move(queue.front());
      queue.pop_front();
      lock.unlock();
      if (d != reference) ++mismatches;
    }  // d is destroyed here, on the consumer thread
  });
  run_in_threads([&](int) {
    for (int i = 0; i < 1000; ++i) {
      auto d = decode_document(bytes);
      ASSERT_TRUE(d);
      std::lock_guard lock(mutex);
      queue.push_back(std::move(*d));
      ready.notify_one();
    }
  });
  {
    std::lock_guard lock(mutex);
    done = true;
  }
  ready.notify_one();
  consumer.join();
  EXPECT_EQ(mismatches.load(), 0);
}

TEST(concurrency, decoding_into_per_thread_pools_in_parallel) {
  const std::vector<std::uint8_t> bytes = sample_document();
  const document reference = *decode_document(bytes);
  std::atomic<int> mismatches{0};
  run_in_threads([&](int) {
    pool_resource pool;
    decode_options options;
    options.memory = &pool;
    for (int i = 0; i < 1000; ++i) {
      auto d = decode_document(bytes, options);
      if (!d || *d != reference) ++mismatches;
    }
  });
  EXPECT_EQ(mismatches.load(), 0);
}

TEST(concurrency, hostile_inputs_in_parallel_give_the_serial_errors) {
  // Errors are built from per-thread scratch state: each thread must see its own input's path.
  const auto deep = test::nested_documents(150);
  const auto bad_string = test::document_of(test::bson_builder().u8(0x02).cstr("s").i32(0));
  const auto bad_utf8 =
      test::document_of(test::bson_builder().u8(0x02).cstr("k").i32(2).u8s({0xFF, 0}));
  const std::vector<std::vector<std::uint8_t>> inputs = {deep, bad_string, bad_utf8};
  std::vector<error> expected;
  for (const auto& input : inputs) expected.push_back(decode_document(input).error());
  std::atomic<int> mismatches{0};
  run_in_threads([&](int t) {
    for (int i = 0; i < 500; ++i) {
      const std::size_t k = static_cast<std::size_t>(t + i) % inputs.size();
      auto r = decode_document(inputs[k]);
      if (r || r.error().code != expected[k].code || r.error().path != expected[k].path ||
          r.error().offset != expected[k].offset) {
        ++mismatches;
      }
    }
  });
  EXPECT_EQ(mismatches.load(), 0);
}

// ---- generated encode/decode ----

shop::order sample_order() {
  shop::order o;
  o.id = object_id::generate(1700000000);
  o.number = 100042;
  o.status = shop::order_status::cancelled;
  o.payment = shop::payment_method::voucher;
  o.customer.id = object_id::generate(1700000001);
  o.customer.name = "Ada";
  o.customer.shipping.street = "Main St 1";
  o.customer.shipping.city = "Berlin";
  shop::line_item item;
  item.sku = "A-1";
  item.quantity = 2;
  item.unit_price = *decimal128::from_string("12.50");
  o.items = {item, item};
  o.total = *decimal128::from_string("25.00");
  o.created_at = datetime(std::chrono::milliseconds(1715938200000));
  o.tags = {{"channel", "web"}, {"priority", "high"}};
  o.dimensions = {30.0, 20.5, 10.25};
  return o;
}

TEST(concurrency, generated_encode_and_decode_of_one_schema_in_parallel) {
  const shop::order reference = sample_order();
  const auto reference_bytes = encode(reference);
  ASSERT_TRUE(reference_bytes) << reference_bytes.error().to_string();
  ASSERT_TRUE(decode<shop::order>(reference_bytes->span())) << "the sample does not decode";
  std::atomic<int> mismatches{0};
  run_in_threads([&](int) {
    writer w;
    shop::order reused;
    for (int i = 0; i < 2000; ++i) {
      w.clear();
      if (!encode(reference, w) || !std::ranges::equal(w.bytes(), reference_bytes->span()))
        ++mismatches;
      if (!decode(reference_bytes->span(), reused) || !(reused == reference)) ++mismatches;
    }
  });
  EXPECT_EQ(mismatches.load(), 0);
}

// The learned field order of a generated struct (struct_table::successors) is shared by every
// thread. Here each thread decodes the sample with its top-level elements in an order of its own,
// so the threads keep rewriting what the others learned: a guess is only ever a guess, and every
// decode must still give the sample (the TSan run checks the sharing).
TEST(concurrency, generated_decode_of_documents_in_different_orders_in_parallel) {
  const shop::order reference = sample_order();
  const auto reference_bytes = encode(reference);
  ASSERT_TRUE(reference_bytes) << reference_bytes.error().to_string();
  const auto elements = test::elements_of(reference_bytes->span());
  std::atomic<int> mismatches{0};
  run_in_threads([&](int t) {
    std::vector<std::size_t> order(elements.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::mt19937 rng(static_cast<unsigned>(t));
    if (t != 0) std::shuffle(order.begin(), order.end(), rng);  // thread 0: schema order
    const auto bytes = test::document_of(elements, order);
    shop::order reused;
    for (int i = 0; i < 2000; ++i) {
      if (!decode(std::span<const std::uint8_t>(bytes), reused) || !(reused == reference)) {
        ++mismatches;
      }
    }
  });
  EXPECT_EQ(mismatches.load(), 0);
}

// The `any` values of one generated decode share their memory, freed with the last of them. Here
// each decode's values are moved to every thread and destroyed there at the same time, so the
// last release races with the others (the TSan run checks the counting), and every value must
// still read as decoded until its own thread destroys it.
TEST(concurrency, any_values_of_one_decode_are_destroyed_on_many_threads_at_once) {
  array values;
  for (int i = 0; i < 64; ++i) {
    values.push_back(
        document{{"n", i}, {"text", std::string(40, static_cast<char>('a' + i % 26))}});
  }
  const byte_buffer bytes = encode_document(document{{"values", std::move(values)}});
  std::atomic<int> mismatches{0};
  for (int round = 0; round < 200; ++round) {
    auto decoded = decode<any_test::containers>(bytes.span());
    ASSERT_TRUE(decoded) << decoded.error().to_string();
    std::vector<std::vector<value>> shares(thread_count);
    for (std::size_t i = 0; i < decoded->values.size(); ++i) {
      shares[i % thread_count].push_back(std::move(decoded->values[i]));
    }
    decoded->values.clear();  // the struct keeps nothing: the threads hold every value
    run_in_threads([&](int t) {
      for (const value& v : shares[static_cast<std::size_t>(t)]) {
        const auto n = v.as_document()["n"].as_int32();
        if (v.as_document()["text"].as_string() !=
            std::string(40, static_cast<char>('a' + n % 26))) {
          ++mismatches;
        }
      }
      shares[static_cast<std::size_t>(t)].clear();
    });
  }
  EXPECT_EQ(mismatches.load(), 0);
}

// The same, with each thread's values first moved into a document of its own: the documents take
// over the values' holds, and their destruction on every thread at once releases them.
TEST(concurrency, any_values_moved_into_documents_are_released_on_many_threads_at_once) {
  array values;
  for (int i = 0; i < 64; ++i) values.push_back(document{{"n", i}, {"text", std::string(40, 'q')}});
  const byte_buffer bytes = encode_document(document{{"values", std::move(values)}});
  std::atomic<int> mismatches{0};
  for (int round = 0; round < 200; ++round) {
    auto decoded = decode<any_test::containers>(bytes.span());
    ASSERT_TRUE(decoded) << decoded.error().to_string();
    std::vector<document> shares(thread_count);
    for (std::size_t i = 0; i < decoded->values.size(); ++i) {
      shares[i % thread_count].append(std::to_string(i), std::move(decoded->values[i]));
    }
    decoded->values.clear();
    run_in_threads([&](int t) {
      document mine = std::move(shares[static_cast<std::size_t>(t)]);
      for (const element e : mine) {
        if (e.value()["n"].as_int32() != std::stoi(std::string(e.key())) ||
            e.value()["text"].as_string() != std::string(40, 'q')) {
          ++mismatches;
        }
      }
    });
  }
  EXPECT_EQ(mismatches.load(), 0);
}

}  // namespace
}  // namespace bsongen
