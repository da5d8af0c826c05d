// `alloc_oid_1000/<impl>/decode` and `alloc_dec128_1000/<impl>/decode`: decoding the seed
// oid_1000 / dec128_1000 documents into 1000 separately heap-held values, the way a decoded
// container or the generic document's nodes hold them, then dropping them all. Only the storage
// differs between rows:
//
//   pool           bsongen::pool_resource (released in one step)
//   new            operator new / delete per value
//   pmr_pool       std::pmr::unsynchronized_pool_resource (released in one step)
//   pmr_monotonic  std::pmr::monotonic_buffer_resource (released in one step)
//   in_place       baseline: the same walk storing values in a reserved std::vector<T>, no
//                  per-value allocation; the gap to it is what heap-holding costs
//
// This is the C++ counterpart of the js-bson seed measurement of Node's allocUnsafe pool. The
// arena rows allocate through a std::pmr::memory_resource* the compiler cannot see through, so
// every allocation is the virtual call the generic document makes. Each iteration includes the
// teardown (delete per value, or release()). items/s counts documents, as in every row;
// values_per_second counts the heap-held values.

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory_resource>
#include <new>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bsongen/decimal128.hpp"
#include "bsongen/object_id.hpp"
#include "bsongen/pool.hpp"
#include "bsongen/reader.hpp"
#include "seed_cases.hpp"

namespace bsongen::bench {
namespace {

template <class T>
constexpr std::size_t wire_size = 0;
template <>
constexpr std::size_t wire_size<object_id> = object_id::size;
template <>
constexpr std::size_t wire_size<decimal128> = 16;

template <class T>
T load_value(const std::uint8_t* bytes) noexcept {
  return T::from_bytes(bytes);
}

// Calls emit(value_bytes) for each element of a flat document whose values are all T; false when
// the bytes do not have that shape. Bounds-checked through bsongen::reader.
template <class T, class Emit>
bool for_each_value(std::span<const std::uint8_t> bytes, bson_type expected_type, Emit&& emit) {
  reader in(bytes);
  std::int32_t length = 0;
  if (!in.read_i32(length) || static_cast<std::size_t>(length) != bytes.size()) return false;
  for (;;) {
    std::uint8_t type = 0;
    if (!in.read_u8(type)) return false;
    if (type == 0) return in.at_end();
    if (type != static_cast<std::uint8_t>(expected_type)) return false;
    std::string_view key;
    if (!in.read_cstring(key)) return false;
    const std::uint8_t* value = in.take(wire_size<T>);
    if (value == nullptr) return false;
    emit(value);
  }
}

template <class T>
struct new_delete_storage {
  T* make(const std::uint8_t* bytes) { return new T(load_value<T>(bytes)); }
  void drop_all(std::vector<T*>& held) {
    for (T* value : held) delete value;
    held.clear();
  }
};

template <class T, class Arena>
struct arena_storage {
  Arena arena;
  // The pointer decoders hold. Laundered through DoNotOptimize so calls stay virtual for every
  // arena alike, as they are in code written against std::pmr::memory_resource*.
  std::pmr::memory_resource* resource = &arena;

  arena_storage() { benchmark::DoNotOptimize(resource); }
  T* make(const std::uint8_t* bytes) {
    return ::new (resource->allocate(sizeof(T), alignof(T))) T(load_value<T>(bytes));
  }
  // T is trivially destructible, so dropping the values is releasing the arena.
  void drop_all(std::vector<T*>& held) {
    static_assert(std::is_trivially_destructible_v<T>);
    held.clear();
    arena.release();
  }
};

template <class T>
void register_in_place_row(const uniform_case<T>& c) {
  const std::string case_name = "alloc_" + c.name;
  register_row(case_name, "in_place", "decode",
               [&c, row = row_name(case_name, "in_place", "decode")](benchmark::State& state) {
                 std::vector<T> values;
                 values.reserve(c.values.size());
                 const auto decode = [&] {
                   const bool ok = for_each_value<T>(
                       c.bytes.span(), c.element_type,
                       [&](const std::uint8_t* bytes) { values.push_back(load_value<T>(bytes)); });
                   if (!ok) fail(row, "the case bytes are not a flat document of one value type");
                 };

                 decode();
                 check_values(row, values, c);
                 values.clear();

                 for (auto _ : state) {
                   decode();
                   benchmark::DoNotOptimize(values.data());
                   benchmark::ClobberMemory();
                   values.clear();
                 }
                 set_document_throughput(state, c.bytes.size());
                 state.counters["values_per_second"] = benchmark::Counter(
                     static_cast<double>(state.iterations()) * static_cast<double>(c.values.size()),
                     benchmark::Counter::kIsRate);
               });
}

template <class T, class Storage>
void register_alloc_row(const uniform_case<T>& c, std::string_view impl) {
  const std::string case_name = "alloc_" + c.name;
  register_row(case_name, impl, "decode",
               [&c, row = row_name(case_name, impl, "decode")](benchmark::State& state) {
                 Storage storage;
                 std::vector<T*> held;
                 held.reserve(c.values.size());
                 const auto decode = [&] {
                   const bool ok = for_each_value<T>(
                       c.bytes.span(), c.element_type,
                       [&](const std::uint8_t* bytes) { held.push_back(storage.make(bytes)); });
                   if (!ok) fail(row, "the case bytes are not a flat document of one value type");
                 };

                 decode();
                 std::vector<T> decoded;
                 decoded.reserve(held.size());
                 for (const T* value : held) decoded.push_back(*value);
                 check_values(row, decoded, c);
                 storage.drop_all(held);

                 for (auto _ : state) {
                   decode();
                   benchmark::DoNotOptimize(held.data());
                   benchmark::ClobberMemory();
                   storage.drop_all(held);
                 }
                 set_document_throughput(state, c.bytes.size());
                 state.counters["values_per_second"] = benchmark::Counter(
                     static_cast<double>(state.iterations()) * static_cast<double>(c.values.size()),
                     benchmark::Counter::kIsRate);
               });
}

template <class T>
void register_alloc_rows(const uniform_case<T>& c) {
  register_alloc_row<T, arena_storage<T, pool_resource>>(c, "pool");
  register_alloc_row<T, new_delete_storage<T>>(c, "new");
  register_alloc_row<T, arena_storage<T, std::pmr::unsynchronized_pool_resource>>(c, "pmr_pool");
  register_alloc_row<T, arena_storage<T, std::pmr::monotonic_buffer_resource>>(c, "pmr_monotonic");
  register_in_place_row(c);
}

const bool registered = [] {
  const seed_cases& cases = get_seed_cases();
  register_alloc_rows(cases.oid_1000);
  register_alloc_rows(cases.dec128_1000);
  return true;
}();

}  // namespace
}  // namespace bsongen::bench
