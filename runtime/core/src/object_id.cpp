#include "bsongen/object_id.hpp"

#include <pthread.h>
#include <sys/random.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <ctime>
#include <random>

namespace bsongen {
namespace {

// Process state, constant-initialized so it exists before any dynamic initializer runs and the
// fork handler can touch it without a guard variable.
//
// The 5-byte process-unique value lives in the low 40 bits of one atomic word; bit 63 says it has
// been drawn. Readers load it with one relaxed load, no lock: the word is written once per process
// (by whichever thread wins the compare-exchange below) and cleared in a fork child.
constexpr std::uint64_t random_drawn_bit = std::uint64_t{1} << 63;
constexpr std::uint64_t random_mask = (std::uint64_t{1} << 40) - 1;
constexpr std::uint32_t counter_mask = (std::uint32_t{1} << 24) - 1;

constinit std::atomic<std::uint64_t> process_random{0};
// Only the low 24 bits are used. 2^32 is a multiple of 2^24, so letting the 32-bit word wrap
// keeps the masked sequence continuous: the counter wraps at 2^24 with no extra branch.
constinit std::atomic<std::uint32_t> counter{0};
constinit std::atomic<bool> fork_handler_registered{false};

// Fills `out` from getrandom(2), falling back to std::random_device, then to a mix of clock,
// pid and an address; never fails and never throws, so generate() can stay noexcept.
void fill_random(std::uint8_t* out, std::size_t size) noexcept {
  std::size_t filled = 0;
  while (filled < size) {
    const ssize_t got = ::getrandom(out + filled, size - filled, 0);
    if (got > 0) {
      filled += static_cast<std::size_t>(got);
    } else if (got < 0 && errno == EINTR) {
      continue;
    } else {
      break;
    }
  }
  if (filled == size) return;
  try {
    std::random_device device;
    for (std::size_t i = filled; i < size; ++i) out[i] = static_cast<std::uint8_t>(device());
    return;
  } catch (...) {
    // No entropy source at all: still better than a constant.
  }
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  std::uint64_t mix = static_cast<std::uint64_t>(now.tv_nsec) ^
                      static_cast<std::uint64_t>(now.tv_sec) << 32 ^
                      static_cast<std::uint64_t>(::getpid()) * 0x9E3779B97F4A7C15ULL ^
                      reinterpret_cast<std::uintptr_t>(&mix);
  for (std::size_t i = filled; i < size; ++i) {
    mix = (mix ^ (mix >> 31)) * 0xBF58476D1CE4E5B9ULL;
    out[i] = static_cast<std::uint8_t>(mix >> 56);
  }
}

// Runs in the child after fork(), while it is single-threaded. It only clears the drawn flag: the
// child's first generate() draws a fresh random value and counter offset, so parent and child
// never share the 5-byte field. No allocation or lock happens here.
void on_fork_child() noexcept { process_random.store(0, std::memory_order_relaxed); }

// Slow path of generate(): draws the process-unique value and a random counter start.
//
// Why pthread_atfork and not a pid check: glibc no longer caches getpid() (since 2.25), so a pid
// check would put a system call on every generate(); the fork handler costs nothing on the hot
// path. Its limit: a child made by a raw clone(2) or _Fork(3), which skip fork handlers, would
// keep the parent's value. Neither is how programs normally fork.
[[gnu::noinline]] std::uint64_t draw_process_random() noexcept {
  if (!fork_handler_registered.exchange(true, std::memory_order_relaxed)) {
    ::pthread_atfork(nullptr, nullptr, &on_fork_child);
  }
  std::uint8_t fresh[8];
  fill_random(fresh, sizeof fresh);
  const std::uint64_t bits = detail::load_u64_le(fresh);
  const std::uint64_t drawn = (bits & random_mask) | random_drawn_bit;
  const auto counter_offset = static_cast<std::uint32_t>(bits >> 40) & counter_mask;

  std::uint64_t expected = 0;
  if (process_random.compare_exchange_strong(expected, drawn, std::memory_order_relaxed)) {
    // Adding (not storing) the random start keeps every counter value already handed out by a
    // racing thread distinct from the ones that follow, within one 2^24 window.
    counter.fetch_add(counter_offset, std::memory_order_relaxed);
    return drawn;
  }
  return expected;  // another thread drew first; everyone uses its value
}

std::uint32_t current_seconds() noexcept {
  // The coarse clock is read from the vDSO without touching the hardware clock; its tick (a few
  // milliseconds) is far below the one-second resolution an ObjectId keeps.
  timespec now{};
#ifdef CLOCK_REALTIME_COARSE
  ::clock_gettime(CLOCK_REALTIME_COARSE, &now);
#else
  ::clock_gettime(CLOCK_REALTIME, &now);
#endif
  return static_cast<std::uint32_t>(now.tv_sec);
}

constexpr char hex_digits[] = "0123456789abcdef";

// 0-15 for a hex digit of either case, -1 otherwise.
constexpr int hex_value(char c) noexcept {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string describe_char(char c) {
  const auto byte = static_cast<unsigned char>(c);
  if (byte >= 0x20 && byte < 0x7F) return std::string{'\'', c, '\''};
  std::string escaped = "byte 0x";
  escaped += hex_digits[byte >> 4];
  escaped += hex_digits[byte & 0xF];
  return escaped;
}

}  // namespace

object_id object_id::generate() noexcept { return generate(current_seconds()); }

object_id object_id::generate(std::uint32_t seconds) noexcept {
  std::uint64_t random = process_random.load(std::memory_order_relaxed);
  if ((random & random_drawn_bit) == 0) [[unlikely]]
    random = draw_process_random();
  const std::uint32_t count = counter.fetch_add(1, std::memory_order_relaxed);

  object_id id;
  std::uint8_t* out = id.bytes_.data();
  detail::store_u32_be(out, seconds);
  for (int i = 0; i < 5; ++i) out[4 + i] = static_cast<std::uint8_t>(random >> (8 * (4 - i)));
  out[9] = static_cast<std::uint8_t>(count >> 16);
  out[10] = static_cast<std::uint8_t>(count >> 8);
  out[11] = static_cast<std::uint8_t>(count);
  return id;
}

result<object_id> object_id::from_hex(std::string_view hex) {
  if (hex.size() != 2 * size) {
    return error(error_code::invalid_value,
                 "ObjectId hex string must be 24 characters, got " + std::to_string(hex.size()));
  }
  object_id id;
  for (std::size_t i = 0; i < size; ++i) {
    const int high = hex_value(hex[2 * i]);
    const int low = hex_value(hex[2 * i + 1]);
    if (high < 0 || low < 0) {
      const std::size_t position = high < 0 ? 2 * i : 2 * i + 1;
      return error(error_code::invalid_value,
                   "ObjectId hex string has invalid character " + describe_char(hex[position]) +
                       " at position " + std::to_string(position),
                   position);
    }
    id.bytes_[i] = static_cast<std::uint8_t>(high << 4 | low);
  }
  return id;
}

void object_id::to_hex(char* out) const noexcept {
  for (std::size_t i = 0; i < size; ++i) {
    out[2 * i] = hex_digits[bytes_[i] >> 4];
    out[2 * i + 1] = hex_digits[bytes_[i] & 0xF];
  }
}

std::string object_id::to_hex() const {
  std::string hex(2 * size, '\0');
  to_hex(hex.data());
  return hex;
}

namespace detail {

void object_id_counter_for_testing(std::uint32_t next) noexcept {
  // Draw first, so the one-time random counter offset cannot land after the value set here.
  if ((process_random.load(std::memory_order_relaxed) & random_drawn_bit) == 0) {
    (void)draw_process_random();
  }
  counter.store(next & counter_mask, std::memory_order_relaxed);
}

}  // namespace detail
}  // namespace bsongen
