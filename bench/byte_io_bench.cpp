// `byte_io_{f64,i64}_1000/{shift,memcpy,runtime}/{decode,encode}`: the measurement behind the
// choice in bsongen/detail/endian.hpp. `shift` is the portable shift-and-or form (the C++ analogue
// of js-bson's bit math), `memcpy` a plain host-order memcpy, `runtime` what the runtime ships.
// For a single value both forms compile to one unaligned mov; in these loops at -O3 they do not
// (g++ 12 vectorizes the byte stores before merging them, clang 14 vectorizes only the memcpy
// forms), which is why the runtime uses memcpy on little-endian hosts.
//
// decode sums 1000 little-endian values read from a byte buffer; encode stores 1000 values into
// one. The f64 sum keeps four independent accumulators: with a single one the loop would be bound
// by the 4-cycle latency of each dependent floating-point add, which would hide a slow load
// entirely and make the rows equal whatever the loads cost.
//
// Rows report bytes/s of values moved and items/s = values/s (not documents).

#include <benchmark/benchmark.h>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "bsongen/detail/endian.hpp"
#include "seed_cases.hpp"

namespace bsongen::bench {
namespace {

// The memcpy rows read and write host order; they equal the little-endian forms only on
// little-endian hosts, which is what the comparison is about.
static_assert(std::endian::native == std::endian::little,
              "byte_io rows compare against host-order memcpy; run them on a little-endian host");

constexpr std::size_t value_count = 1000;
constexpr std::size_t buffer_bytes = value_count * 8;

struct shift_io {
  static std::uint64_t load_u64(const std::uint8_t* p) noexcept {
    return static_cast<std::uint64_t>(p[0]) | static_cast<std::uint64_t>(p[1]) << 8 |
           static_cast<std::uint64_t>(p[2]) << 16 | static_cast<std::uint64_t>(p[3]) << 24 |
           static_cast<std::uint64_t>(p[4]) << 32 | static_cast<std::uint64_t>(p[5]) << 40 |
           static_cast<std::uint64_t>(p[6]) << 48 | static_cast<std::uint64_t>(p[7]) << 56;
  }
  static void store_u64(std::uint8_t* p, std::uint64_t v) noexcept {
    p[0] = static_cast<std::uint8_t>(v);
    p[1] = static_cast<std::uint8_t>(v >> 8);
    p[2] = static_cast<std::uint8_t>(v >> 16);
    p[3] = static_cast<std::uint8_t>(v >> 24);
    p[4] = static_cast<std::uint8_t>(v >> 32);
    p[5] = static_cast<std::uint8_t>(v >> 40);
    p[6] = static_cast<std::uint8_t>(v >> 48);
    p[7] = static_cast<std::uint8_t>(v >> 56);
  }
  static double load_f64(const std::uint8_t* p) noexcept {
    return std::bit_cast<double>(load_u64(p));
  }
  static std::int64_t load_i64(const std::uint8_t* p) noexcept {
    return static_cast<std::int64_t>(load_u64(p));
  }
  static void store_f64(std::uint8_t* p, double v) noexcept {
    store_u64(p, std::bit_cast<std::uint64_t>(v));
  }
  static void store_i64(std::uint8_t* p, std::int64_t v) noexcept {
    store_u64(p, static_cast<std::uint64_t>(v));
  }
};

struct runtime_io {
  static double load_f64(const std::uint8_t* p) noexcept { return detail::load_f64_le(p); }
  static std::int64_t load_i64(const std::uint8_t* p) noexcept { return detail::load_i64_le(p); }
  static void store_f64(std::uint8_t* p, double v) noexcept { detail::store_f64_le(p, v); }
  static void store_i64(std::uint8_t* p, std::int64_t v) noexcept { detail::store_i64_le(p, v); }
};

struct memcpy_io {
  static double load_f64(const std::uint8_t* p) noexcept {
    double v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  static std::int64_t load_i64(const std::uint8_t* p) noexcept {
    std::int64_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  static void store_f64(std::uint8_t* p, double v) noexcept { std::memcpy(p, &v, sizeof v); }
  static void store_i64(std::uint8_t* p, std::int64_t v) noexcept { std::memcpy(p, &v, sizeof v); }
};

template <class Io>
double sum_f64(const std::uint8_t* bytes) noexcept {
  double sums[4] = {0, 0, 0, 0};
  for (std::size_t i = 0; i < value_count; i += 4) {
    sums[0] += Io::load_f64(bytes + 8 * i);
    sums[1] += Io::load_f64(bytes + 8 * (i + 1));
    sums[2] += Io::load_f64(bytes + 8 * (i + 2));
    sums[3] += Io::load_f64(bytes + 8 * (i + 3));
  }
  return (sums[0] + sums[1]) + (sums[2] + sums[3]);
}

template <class Io>
std::int64_t sum_i64(const std::uint8_t* bytes) noexcept {
  // Unsigned so the sum wraps with defined behaviour.
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < value_count; ++i) {
    sum += static_cast<std::uint64_t>(Io::load_i64(bytes + 8 * i));
  }
  return static_cast<std::int64_t>(sum);
}

template <class Io>
void store_all_f64(const std::vector<double>& values, std::uint8_t* out) noexcept {
  for (std::size_t i = 0; i < value_count; ++i) Io::store_f64(out + 8 * i, values[i]);
}

template <class Io>
void store_all_i64(const std::vector<std::int64_t>& values, std::uint8_t* out) noexcept {
  for (std::size_t i = 0; i < value_count; ++i) Io::store_i64(out + 8 * i, values[i]);
}

// Distinct, exactly representable values so a wrong offset or byte order changes the sum.
std::vector<double> f64_values() {
  std::vector<double> v(value_count);
  for (std::size_t i = 0; i < value_count; ++i) v[i] = 120.384 + static_cast<double>(i) * 0.5;
  return v;
}

std::vector<std::int64_t> i64_values() {
  std::vector<std::int64_t> v(value_count);
  for (std::size_t i = 0; i < value_count; ++i) {
    v[i] = -120 - static_cast<std::int64_t>(i) * 0x0101'0101'0101;
  }
  return v;
}

// The reference encoding, built a byte at a time so it depends on neither candidate.
template <class T>
std::vector<std::uint8_t> reference_bytes(const std::vector<T>& values) {
  std::vector<std::uint8_t> bytes(buffer_bytes);
  for (std::size_t i = 0; i < value_count; ++i) {
    const auto bits = std::bit_cast<std::uint64_t>(values[i]);
    for (std::size_t b = 0; b < 8; ++b) {
      bytes[8 * i + b] = static_cast<std::uint8_t>(bits >> (8 * b));
    }
  }
  return bytes;
}

void set_value_throughput(benchmark::State& state) {
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(buffer_bytes));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(value_count));
}

template <class Io>
void register_f64_rows(const char* impl) {
  const std::string case_name = "byte_io_f64_1000";
  register_row(case_name, impl, "decode", [case_name, impl](benchmark::State& state) {
    const std::vector<double> values = f64_values();
    const std::vector<std::uint8_t> bytes = reference_bytes(values);
    double expected[4] = {0, 0, 0, 0};
    for (std::size_t i = 0; i < value_count; ++i) expected[i % 4] += values[i];
    const double expected_sum = (expected[0] + expected[1]) + (expected[2] + expected[3]);
    if (sum_f64<Io>(bytes.data()) != expected_sum) {
      fail(row_name(case_name, impl, "decode"), "sum differs from the sum of the source values");
    }
    for (auto _ : state) {
      benchmark::ClobberMemory();  // the buffer may have changed: no hoisting the sum
      double sum = sum_f64<Io>(bytes.data());
      benchmark::DoNotOptimize(sum);
    }
    set_value_throughput(state);
  });
  register_row(case_name, impl, "encode", [case_name, impl](benchmark::State& state) {
    const std::vector<double> values = f64_values();
    std::vector<std::uint8_t> out(buffer_bytes);
    store_all_f64<Io>(values, out.data());
    check_bytes(row_name(case_name, impl, "encode"), out, reference_bytes(values));
    for (auto _ : state) {
      store_all_f64<Io>(values, out.data());
      benchmark::DoNotOptimize(out.data());
      benchmark::ClobberMemory();  // every iteration's stores must happen
    }
    set_value_throughput(state);
  });
}

template <class Io>
void register_i64_rows(const char* impl) {
  const std::string case_name = "byte_io_i64_1000";
  register_row(case_name, impl, "decode", [case_name, impl](benchmark::State& state) {
    const std::vector<std::int64_t> values = i64_values();
    const std::vector<std::uint8_t> bytes = reference_bytes(values);
    std::uint64_t expected_sum = 0;
    for (std::int64_t v : values) expected_sum += static_cast<std::uint64_t>(v);
    if (sum_i64<Io>(bytes.data()) != static_cast<std::int64_t>(expected_sum)) {
      fail(row_name(case_name, impl, "decode"), "sum differs from the sum of the source values");
    }
    for (auto _ : state) {
      benchmark::ClobberMemory();
      std::int64_t sum = sum_i64<Io>(bytes.data());
      benchmark::DoNotOptimize(sum);
    }
    set_value_throughput(state);
  });
  register_row(case_name, impl, "encode", [case_name, impl](benchmark::State& state) {
    const std::vector<std::int64_t> values = i64_values();
    std::vector<std::uint8_t> out(buffer_bytes);
    store_all_i64<Io>(values, out.data());
    check_bytes(row_name(case_name, impl, "encode"), out, reference_bytes(values));
    for (auto _ : state) {
      store_all_i64<Io>(values, out.data());
      benchmark::DoNotOptimize(out.data());
      benchmark::ClobberMemory();
    }
    set_value_throughput(state);
  });
}

const bool registered = [] {
  register_f64_rows<shift_io>("shift");
  register_f64_rows<memcpy_io>("memcpy");
  register_f64_rows<runtime_io>("runtime");
  register_i64_rows<shift_io>("shift");
  register_i64_rows<memcpy_io>("memcpy");
  register_i64_rows<runtime_io>("runtime");
  return true;
}();

}  // namespace
}  // namespace bsongen::bench
