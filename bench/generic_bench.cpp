// The generic path against libbson and memcpy.
//
// Rows:
//  * `<seed case>/generic/encode|decode` and `<array case>/generic/encode|decode`: encode a built
//    bsongen::document into a reused writer; decode_document (full validation, UTF-8 included)
//    into a new document each iteration.
//  * `oid_1000`, `dec128_1000` `generic_nopool/decode`: the same decode with one allocation per
//    element array from new_delete_resource instead of the arena.
//  * `flat_bson`, `deep_bson`, `full_bson` (driver benchmark documents):
//      generic/encode, generic/decode as above;
//      libbson/decode: bson_iter over every element, recursing into documents, arrays and scopes,
//        reading every value (bson_iter validates framing only, not UTF-8);
//      libbson/encode: rebuilding the document into a reused bson_t (bson_reinit) from a
//        walk of the source, with bson_append_value for leaves and *_begin/_end for nesting:
//        what a libbson user does to serialize a document they hold in memory;
//      memcpy/copy: the ceiling.
// Every row checks its output before timing.

#include <benchmark/benchmark.h>
#include <bson/bson.h>

#include <cstring>
#include <memory_resource>
#include <string>
#include <vector>

#include "array_cases.hpp"
#include "bench_data.hpp"
#include "bsongen/detail/unpooled_decode.hpp"
#include "bsongen/document.hpp"
#include "seed_cases.hpp"

namespace bsongen::bench {
namespace {

// ---- reading generic values back for check_values ----

void read(value_ref v, double& out) { out = v.as_double(); }
void read(value_ref v, std::int64_t& out) { out = v.as_int64(); }
void read(value_ref v, std::int32_t& out) { out = v.as_int32(); }
void read(value_ref v, object_id& out) { out = v.as_object_id(); }
void read(value_ref v, decimal128& out) { out = v.as_decimal128(); }
void read(value_ref v, datetime& out) { out = v.as_datetime(); }
void read(value_ref v, bool& out) { out = v.as_bool(); }
void read(value_ref v, std::string& out) { out = std::string(v.as_string()); }

template <class T>
std::vector<T> values_of(const document& doc, const std::vector<std::string>& keys,
                         const std::string& row) {
  std::vector<T> out;
  if (doc.size() != keys.size()) fail(row, "decoded document has the wrong number of elements");
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (doc.at(i).key() != keys[i]) fail(row, "decoded key differs from the case's");
    T v{};
    read(doc.at(i), v);
    out.push_back(v);
  }
  return out;
}

template <class T>
std::vector<T> values_of(array_ref a) {
  std::vector<T> out;
  for (value_ref v : a) {
    T x{};
    read(v, x);
    out.push_back(x);
  }
  return out;
}

oid_string_document values_of(const document& doc, const oid_string_case& c) {
  return {doc[c.keys[0]].as_object_id(), std::string(doc[c.keys[1]].as_string())};
}

document decode_or_fail(std::span<const std::uint8_t> bytes, const std::string& row,
                        const decode_options& options = {}) {
  result<document> r = decode_document(bytes, options);
  if (!r) fail(row, r.error().to_string());
  return std::move(*r);
}

// ---- generic rows ----

void register_generic_encode(const std::string& case_name, const document& built,
                             std::span<const std::uint8_t> expected) {
  register_row(case_name, "generic", "encode",
               [case_name, &built, expected](benchmark::State& state) {
                 const std::string row = row_name(case_name, "generic", "encode");
                 writer w;
                 if (!encode_document(built, w)) fail(row, "encode failed");
                 check_bytes(row, w.bytes(), expected);
                 for (auto _ : state) {
                   w.clear();
                   const result<void> r = encode_document(built, w);
                   benchmark::DoNotOptimize(r);
                   benchmark::DoNotOptimize(w.data());
                   benchmark::ClobberMemory();
                 }
                 set_document_throughput(state, expected.size());
               });
}

// `check` receives the document decoded once before timing and aborts on a wrong result.
using decode_fn = result<document> (*)(std::span<const std::uint8_t>, const decode_options&);

template <class Check>
void register_generic_decode(const std::string& case_name, const std::string& impl,
                             std::span<const std::uint8_t> bytes, decode_options options,
                             Check check, decode_fn decode = &decode_document) {
  register_row(case_name, impl, "decode",
               [case_name, impl, bytes, options, check, decode](benchmark::State& state) {
                 const std::string row = row_name(case_name, impl, "decode");
                 check(decode_or_fail(bytes, row, options), row);
                 for (auto _ : state) {
                   result<document> r = decode(bytes, options);
                   benchmark::DoNotOptimize(r);
                   benchmark::ClobberMemory();
                 }
                 set_document_throughput(state, bytes.size());
               });
}

decode_options nopool_options() {
  decode_options o;
  o.memory = std::pmr::new_delete_resource();
  return o;
}

// Documents built once from the cases' values; rows borrow them for the whole run.
std::vector<std::unique_ptr<document>>& built_documents() {
  static std::vector<std::unique_ptr<document>> docs;
  return docs;
}

template <class T>
const document& build_uniform(const uniform_case<T>& c) {
  auto doc = std::make_unique<document>();
  for (std::size_t i = 0; i < c.keys.size(); ++i) doc->append(c.keys[i], c.values[i]);
  built_documents().push_back(std::move(doc));
  return *built_documents().back();
}

template <class T>
const document& build_array(const array_case<T>& c) {
  array a;
  for (const T& v : c.values) a.push_back(v);
  built_documents().push_back(std::make_unique<document>(document{{c.key, std::move(a)}}));
  return *built_documents().back();
}

void register_seed_rows() {
  const seed_cases& cases = get_seed_cases();
  for_each_uniform_case(cases, [](const auto& c) {
    using value_type = typename std::decay_t<decltype(c.values)>::value_type;
    register_generic_encode(c.name, build_uniform(c), c.bytes.span());
    auto check = [&c](const document& doc, const std::string& row) {
      check_values(row, values_of<value_type>(doc, c.keys, row), c);
    };
    register_generic_decode(c.name, "generic", c.bytes.span(), {}, check);
    if (c.name == "oid_1000" || c.name == "dec128_1000") {
      register_generic_decode(c.name, "generic_nopool", c.bytes.span(), nopool_options(), check,
                              &detail::decode_document_unpooled);
    }
  });
  const oid_string_case& os = cases.oid_string;
  {
    auto doc = std::make_unique<document>();
    doc->append(os.keys[0], os.value.oid).append(os.keys[1], os.value.string);
    built_documents().push_back(std::move(doc));
    register_generic_encode(os.name, *built_documents().back(), os.bytes.span());
  }
  register_generic_decode(os.name, "generic", os.bytes.span(), {},
                          [&os](const document& doc, const std::string& row) {
                            check_values(row, values_of(doc, os), os);
                          });
}

void register_array_rows() {
  for_each_array_case(get_array_cases(), [](const auto& c) {
    using value_type = typename std::decay_t<decltype(c.values)>::value_type;
    register_generic_encode(c.name, build_array(c), c.bytes.span());
    register_generic_decode(c.name, "generic", c.bytes.span(), {},
                            [&c](const document& doc, const std::string& row) {
                              check_values(row, values_of<value_type>(doc[c.key].as_array()), c);
                            });
  });
}

// ---- libbson over arbitrary documents ----

// Reads every value; returns the number of elements seen (recursively).
std::size_t libbson_visit(bson_iter_t* it, std::uint64_t& sink) {
  std::size_t count = 0;
  while (bson_iter_next(it)) {
    ++count;
    sink += bson_iter_key_len(it);
    switch (bson_iter_type(it)) {
      case BSON_TYPE_DOUBLE:
        sink += static_cast<std::uint64_t>(bson_iter_double(it));
        break;
      case BSON_TYPE_UTF8: {
        std::uint32_t n = 0;
        const char* s = bson_iter_utf8(it, &n);
        sink += n + static_cast<std::uint8_t>(n != 0 ? s[0] : 0);
        break;
      }
      case BSON_TYPE_DOCUMENT:
      case BSON_TYPE_ARRAY: {
        bson_iter_t child;
        if (bson_iter_recurse(it, &child)) count += libbson_visit(&child, sink);
        break;
      }
      case BSON_TYPE_BINARY: {
        bson_subtype_t subtype;
        std::uint32_t n = 0;
        const std::uint8_t* data = nullptr;
        bson_iter_binary(it, &subtype, &n, &data);
        sink += n + subtype;
        break;
      }
      case BSON_TYPE_OID:
        sink += bson_iter_oid(it)->bytes[11];
        break;
      case BSON_TYPE_BOOL:
        sink += bson_iter_bool(it) ? 1 : 0;
        break;
      case BSON_TYPE_DATE_TIME:
        sink += static_cast<std::uint64_t>(bson_iter_date_time(it));
        break;
      case BSON_TYPE_REGEX: {
        const char* options = nullptr;
        const char* pattern = bson_iter_regex(it, &options);
        sink += static_cast<std::uint8_t>(pattern[0]) + static_cast<std::uint8_t>(options[0]);
        break;
      }
      case BSON_TYPE_DBPOINTER: {
        std::uint32_t n = 0;
        const char* collection = nullptr;
        const bson_oid_t* oid = nullptr;
        bson_iter_dbpointer(it, &n, &collection, &oid);
        sink += n + oid->bytes[0];
        break;
      }
      case BSON_TYPE_CODE: {
        std::uint32_t n = 0;
        bson_iter_code(it, &n);
        sink += n;
        break;
      }
      case BSON_TYPE_SYMBOL: {
        std::uint32_t n = 0;
        bson_iter_symbol(it, &n);
        sink += n;
        break;
      }
      case BSON_TYPE_CODEWSCOPE: {
        std::uint32_t n = 0;
        std::uint32_t scope_len = 0;
        const std::uint8_t* scope = nullptr;
        bson_iter_codewscope(it, &n, &scope_len, &scope);
        bson_t scope_doc;
        bson_iter_t child;
        if (bson_init_static(&scope_doc, scope, scope_len) && bson_iter_init(&child, &scope_doc)) {
          count += libbson_visit(&child, sink);
        }
        sink += n;
        break;
      }
      case BSON_TYPE_INT32:
        sink += static_cast<std::uint32_t>(bson_iter_int32(it));
        break;
      case BSON_TYPE_TIMESTAMP: {
        std::uint32_t t = 0;
        std::uint32_t i = 0;
        bson_iter_timestamp(it, &t, &i);
        sink += t + i;
        break;
      }
      case BSON_TYPE_INT64:
        sink += static_cast<std::uint64_t>(bson_iter_int64(it));
        break;
      case BSON_TYPE_DECIMAL128: {
        bson_decimal128_t d;
        bson_iter_decimal128(it, &d);
        sink += d.low;
        break;
      }
      default:
        break;  // null, undefined, minkey, maxkey carry no value
    }
  }
  return count;
}

std::size_t libbson_decode(std::span<const std::uint8_t> bytes, std::uint64_t& sink) {
  bson_t doc;
  bson_iter_t it;
  if (!bson_init_static(&doc, bytes.data(), bytes.size()) || !bson_iter_init(&it, &doc)) return 0;
  return libbson_visit(&it, sink);
}

bool libbson_rebuild(bson_iter_t* it, bson_t* out) {
  while (bson_iter_next(it)) {
    const char* key = bson_iter_key(it);
    const int key_len = static_cast<int>(bson_iter_key_len(it));
    const bson_type_t type = bson_iter_type(it);
    if (type == BSON_TYPE_DOCUMENT || type == BSON_TYPE_ARRAY) {
      bson_iter_t child_it;
      bson_t child;
      if (!bson_iter_recurse(it, &child_it)) return false;
      const bool begun = type == BSON_TYPE_DOCUMENT
                             ? bson_append_document_begin(out, key, key_len, &child)
                             : bson_append_array_begin(out, key, key_len, &child);
      if (!begun || !libbson_rebuild(&child_it, &child)) return false;
      const bool ended = type == BSON_TYPE_DOCUMENT ? bson_append_document_end(out, &child)
                                                    : bson_append_array_end(out, &child);
      if (!ended) return false;
    } else if (!bson_append_value(out, key, key_len, bson_iter_value(it))) {
      return false;
    }
  }
  return true;
}

std::size_t count_elements(document_ref doc);
std::size_t count_elements(value_ref v) {
  std::size_t n = 0;
  if (v.is_document()) n += count_elements(v.as_document());
  if (v.is_array()) {
    for (value_ref e : v.as_array()) n += 1 + count_elements(e);
  }
  if (v.is(bson_type::javascript_with_scope))
    n += count_elements(v.as_javascript_with_scope_scope());
  return n;
}
std::size_t count_elements(document_ref doc) {
  std::size_t n = 0;
  for (element e : doc) n += 1 + count_elements(static_cast<value_ref>(e));
  return n;
}

void register_bench_document_rows() {
  for (const bench_document& d : get_bench_documents()) {
    const std::span<const std::uint8_t> bytes = d.bytes.span();
    const std::string name = d.name;
    built_documents().push_back(std::make_unique<document>(decode_or_fail(bytes, name)));
    register_generic_encode(name, *built_documents().back(), bytes);
    register_generic_decode(name, "generic", bytes, {},
                            [bytes](const document& doc, const std::string& row) {
                              check_bytes(row, encode_document(doc).span(), bytes);
                              std::uint64_t sink = 0;
                              if (count_elements(doc) != libbson_decode(bytes, sink))
                                fail(row, "element count differs from libbson's");
                            });

    register_row(name, "libbson", "decode", [name, bytes](benchmark::State& state) {
      const std::string row = row_name(name, "libbson", "decode");
      std::uint64_t sink = 0;
      const std::size_t expected = count_elements(decode_or_fail(bytes, row));
      if (libbson_decode(bytes, sink) != expected)
        fail(row, "libbson visited a different number of elements");
      for (auto _ : state) {
        const std::size_t n = libbson_decode(bytes, sink);
        benchmark::DoNotOptimize(n);
        benchmark::DoNotOptimize(sink);
      }
      set_document_throughput(state, bytes.size());
    });

    register_row(name, "libbson", "encode", [name, bytes](benchmark::State& state) {
      const std::string row = row_name(name, "libbson", "encode");
      bson_t source;
      if (!bson_init_static(&source, bytes.data(), bytes.size()))
        fail(row, "libbson rejects the bytes");
      bson_t out;
      bson_init(&out);
      auto rebuild = [&] {
        bson_reinit(&out);
        bson_iter_t it;
        return bson_iter_init(&it, &source) && libbson_rebuild(&it, &out);
      };
      if (!rebuild()) fail(row, "libbson rebuild failed");
      check_bytes(row, {bson_get_data(&out), out.len}, bytes);
      for (auto _ : state) {
        const bool ok = rebuild();
        benchmark::DoNotOptimize(ok);
        benchmark::DoNotOptimize(bson_get_data(&out));
        benchmark::ClobberMemory();
      }
      bson_destroy(&out);
      set_document_throughput(state, bytes.size());
    });

    register_row(name, "memcpy", "copy", [name, bytes](benchmark::State& state) {
      std::vector<std::uint8_t> destination(bytes.begin(), bytes.end());
      check_bytes(row_name(name, "memcpy", "copy"), destination, bytes);
      for (auto _ : state) {
        benchmark::DoNotOptimize(bytes.data());
        std::memcpy(destination.data(), bytes.data(), bytes.size());
        benchmark::DoNotOptimize(destination.data());
        benchmark::ClobberMemory();
      }
      set_document_throughput(state, bytes.size());
    });
  }
}

const bool registered = [] {
  register_seed_rows();
  register_array_rows();
  register_bench_document_rows();
  return true;
}();

}  // namespace
}  // namespace bsongen::bench
