// Differential test of enums and nullable values in every container
// (schemas/enum_differential.yaml): int32 and string enums, names stored under a `bson_name` other
// than the enumerator's (non-ASCII among them), in vectors, fixed arrays, optional and nullable;
// nullable in vectors, arrays and maps; a struct with `duplicate_keys: reject` and a required
// field; a fixed-shape struct.
//
// The documents are pymongo's (write_enum_differential_documents.py, fixed seed): valid ones, and
// ones with keys out of order, missing, unknown or repeated, enum values that are near misses,
// values of other types, fixed arrays of other lengths, cut and flipped bytes. The script states no
// verdict. For every document:
//   - the generic path decodes it; where it refuses, the generated decoder must refuse too;
//   - where it accepts, this test's oracle reads the generic document against the schema's rules
//     (written here from docs/schema-format.md, not from the generator), member by member through
//     codec<T>::visit, in document order: the value the struct must hold, or the error (code and
//     path) of the first element the schema refuses;
//   - the generated decoder reaches that verdict into a new struct, into a struct that holds the
//     previous document's values (or whatever its failed decode left), and into one a failed
//     decode just left behind; a struct left by a failed decode still encodes;
//   - what is accepted holds the oracle's values in all three (compared through their encodings,
//     so NaN and -0.0 compare as bytes), and its encoding decodes and re-encodes byte for byte.
// The counts (documents per category and verdict) are printed at the end.

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "bsongen/codec.hpp"
#include "bsongen/document.hpp"
#include "codec_helpers.hpp"
#include "enum_differential.bsongen.hpp"

namespace {

using bsongen::array_ref;
using bsongen::document_ref;
using bsongen::error_code;
using bsongen::value_ref;
using bytes = std::vector<std::uint8_t>;

// --- The schema's rules, as the oracle reads them. ---

// The enums' stored values, copied from the schema.
constexpr std::array<std::pair<std::int32_t, enum_diff::tone>, 4> tone_values = {{
    {-2147483647 - 1, enum_diff::tone::low},
    {0, enum_diff::tone::off},
    {7, enum_diff::tone::mid},
    {2147483647, enum_diff::tone::high},
}};
const std::array<std::pair<std::string_view, enum_diff::day>, 7> day_names = {{
    {"Mon", enum_diff::day::monday},
    {"mardi", enum_diff::day::tuesday},
    {"mi\xc3\xa9rcoles", enum_diff::day::wednesday},
    {"\xe6\x9c\xa8\xe6\x9b\x9c\xe6\x97\xa5", enum_diff::day::thursday},
    {"friday", enum_diff::day::friday},
    {"\xf0\x9f\x98\x80", enum_diff::day::saturday},
    {"", enum_diff::day::sunday},
}};

// Per struct: `duplicate_keys: reject` (any key seen twice among its elements, known or not) and
// its required keys.
template <class T>
struct policy {
  static constexpr bool reject_duplicates = false;
  static constexpr std::array<std::string_view, 0> required{};
};
template <>
struct policy<enum_diff::strict> {
  static constexpr bool reject_duplicates = true;
  static constexpr std::array<std::string_view, 1> required{"_id"};
};

// Where the schema refuses a document: the code and the path's segments, outermost first.
struct failure {
  error_code code = error_code::ok;
  std::vector<std::string> segments;

  // As error::prepend_path builds it: segments joined by '.', a trailing "" dropped.
  std::string path() const {
    std::string out;
    for (auto it = segments.rbegin(); it != segments.rend(); ++it) {
      out = out.empty() ? *it : *it + "." + out;
    }
    return out;
  }
};
using outcome = std::optional<failure>;  // empty: read

outcome fail(error_code code) { return failure{code, {}}; }
outcome within(outcome o, std::string segment) {
  if (o) o->segments.insert(o->segments.begin(), std::move(segment));
  return o;
}

template <class T>
concept visitable = requires(T& t) {
  bsongen::codec<T>::visit(t, [](std::string_view, auto&) {});
};

// Whether T is an instance of Template (std::vector, std::map, std::optional, bsongen::nullable);
// std::array, whose size is not a type, has its own.
template <class T, template <class...> class Template>
constexpr bool is_a = false;
template <template <class...> class Template, class... Args>
constexpr bool is_a<Template<Args...>, Template> = true;
template <class T>
constexpr bool is_std_array = false;
template <class T, std::size_t N>
constexpr bool is_std_array<std::array<T, N>> = true;

template <visitable T>
outcome read_struct(document_ref d, T& out);

// Reads v as a member of type M into `out` (a default M), or says why the schema refuses it.
template <class M>
outcome read(value_ref v, M& out) {
  if constexpr (std::is_same_v<M, std::int32_t>) {
    if (!v.is(bsongen::bson_type::int32)) return fail(error_code::type_mismatch);
    out = v.as_int32();
  } else if constexpr (std::is_same_v<M, double>) {
    if (v.is(bsongen::bson_type::double_)) {
      out = v.as_double();
    } else if (v.is(bsongen::bson_type::int32)) {
      out = v.as_int32();  // decode also accepts int32
    } else {
      return fail(error_code::type_mismatch);
    }
  } else if constexpr (std::is_same_v<M, std::string>) {
    if (!v.is_string()) return fail(error_code::type_mismatch);
    out = std::string(v.as_string());
  } else if constexpr (std::is_same_v<M, enum_diff::tone>) {
    if (!v.is(bsongen::bson_type::int32)) return fail(error_code::type_mismatch);
    for (const auto& [stored, e] : tone_values) {
      if (stored == v.as_int32()) {
        out = e;
        return {};
      }
    }
    return fail(error_code::invalid_value);  // names no enumerator
  } else if constexpr (std::is_same_v<M, enum_diff::day>) {
    if (!v.is_string()) return fail(error_code::type_mismatch);
    for (const auto& [stored, e] : day_names) {
      if (stored == v.as_string()) {  // byte for byte: no case folding, no normalization
        out = e;
        return {};
      }
    }
    return fail(error_code::invalid_value);
  } else if constexpr (is_a<M, bsongen::nullable>) {
    if (v.is_null()) {
      out = nullptr;
      return {};
    }
    return read(v, out.emplace());
  } else if constexpr (is_a<M, std::vector>) {
    if (!v.is_array()) return fail(error_code::type_mismatch);
    const array_ref a = v.as_array();
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (outcome o = read(a[i], out.emplace_back())) return within(o, std::to_string(i));
    }
  } else if constexpr (is_std_array<M>) {
    if (!v.is_array()) return fail(error_code::type_mismatch);
    const array_ref a = v.as_array();
    // Elements in order; one beyond N, or too few at the end, is the array's invalid_length.
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (i == out.size()) return fail(error_code::invalid_length);
      if (outcome o = read(a[i], out[i])) return within(o, std::to_string(i));
    }
    if (a.size() != out.size()) return fail(error_code::invalid_length);
  } else if constexpr (is_a<M, std::map>) {
    if (!v.is_document()) return fail(error_code::type_mismatch);
    for (const bsongen::element e : v.as_document()) {
      typename M::mapped_type value{};  // a repeated key: the last value
      if (outcome o = read(e.value(), value)) return within(o, std::string(e.key()));
      out.insert_or_assign(std::string(e.key()), std::move(value));
    }
  } else if constexpr (visitable<M>) {
    if (!v.is_document()) return fail(error_code::type_mismatch);
    return read_struct(v.as_document(), out);
  } else {
    static_assert(sizeof(M) == 0, "a member type the oracle does not know");
  }
  return {};
}

// A field's member: optional<T> reads a null as absent, except optional<nullable<T>>, which
// holds the null.
template <class M>
outcome read_field(value_ref v, M& out) {
  if constexpr (is_a<M, std::optional>) {
    using inner = typename M::value_type;
    if (v.is_null() && !is_a<inner, bsongen::nullable>) {
      out.reset();
      return {};
    }
    return read(v, out.emplace());
  } else {
    return read(v, out);
  }
}

// The struct's elements in document order: unknown keys skipped (the generic path has checked
// their framing), a repeated field read again over the earlier value (last wins) unless the struct
// rejects repeated keys; absent fields keep their defaults; then the required ones.
template <visitable T>
outcome read_struct(document_ref d, T& out) {
  std::set<std::string, std::less<>> seen;
  for (const bsongen::element e : d) {
    const std::string key(e.key());
    const bool again = !seen.insert(key).second;
    if (again && policy<T>::reject_duplicates)
      return within(fail(error_code::duplicate_field), key);
    outcome result;
    bsongen::codec<T>::visit(out, [&](std::string_view field_key, auto& member) {
      if (field_key != key) return;
      std::remove_reference_t<decltype(member)> value{};
      result = read_field(e.value(), value);
      if (!result) member = std::move(value);
    });
    if (result) return within(result, key);
  }
  for (const std::string_view key : policy<T>::required) {
    if (!seen.contains(key)) return within(fail(error_code::missing_field), std::string(key));
  }
  return {};
}

// --- The documents. ---

struct record {
  std::string struct_name;
  std::string category;
  bytes input;
};

std::vector<record> read_records() {
  std::ifstream in(BSONGEN_ENUM_DIFFERENTIAL_DOCUMENTS, std::ios::binary);
  const bytes data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<record> out;
  std::size_t at = 0;
  auto take = [&](std::size_t n) -> std::optional<bytes> {
    if (data.size() - at < n) return std::nullopt;
    bytes b(data.begin() + static_cast<std::ptrdiff_t>(at),
            data.begin() + static_cast<std::ptrdiff_t>(at + n));
    at += n;
    return b;
  };
  auto number = [&](std::size_t width) -> std::optional<std::size_t> {
    const auto b = take(width);
    if (!b) return std::nullopt;
    std::size_t v = 0;
    for (std::size_t i = 0; i < width; ++i) v |= std::size_t{(*b)[i]} << (8 * i);
    return v;
  };
  auto text = [&]() -> std::optional<std::string> {
    const auto n = number(2);
    const auto b = n ? take(*n) : std::nullopt;
    if (!b) return std::nullopt;
    return std::string(b->begin(), b->end());
  };
  while (at < data.size()) {
    auto name = text();
    auto category = text();
    auto size = number(4);
    auto input = size ? take(*size) : std::nullopt;
    if (!name || !category || !input) {
      ADD_FAILURE() << "truncated record in " << BSONGEN_ENUM_DIFFERENTIAL_DOCUMENTS;
      break;
    }
    out.push_back({std::move(*name), std::move(*category), std::move(*input)});
  }
  return out;
}

const std::vector<record>& all_records() {
  static const std::vector<record> all = read_records();
  return all;
}

// Documents per (category, verdict), and the comparisons made.
struct tally {
  std::map<std::pair<std::string, std::string>, std::size_t> by_category;
  std::map<std::string, std::size_t> by_verdict;
  std::size_t fresh_vs_reused = 0;       // accepted: the new struct against a reused one
  std::size_t after_failure_checks = 0;  // documents decoded into a struct a failed decode left
  std::size_t round_trips = 0;

  void count(const record& rec, const std::string& verdict) {
    ++by_category[{rec.category, verdict}];
    ++by_verdict[verdict];
  }
};

std::string describe(const bsongen::error& e) { return e.to_string(); }

// The verdict of one decode against the expected one: the same error (code, path) or success.
template <class T>
void expect_verdict(const bsongen::result<void>& got, const outcome& want, bool generic_refused,
                    const char* into) {
  SCOPED_TRACE(into);
  if (generic_refused) {
    EXPECT_FALSE(got) << "the generated decoder accepted what the generic path refuses";
    return;
  }
  if (want) {
    ASSERT_FALSE(got) << "accepted although the schema refuses it: " << bsongen::name(want->code)
                      << " at " << want->path();
    EXPECT_EQ(bsongen::name(got.error().code), bsongen::name(want->code)) << describe(got.error());
    EXPECT_EQ(got.error().path, want->path()) << describe(got.error());
  } else {
    EXPECT_TRUE(got) << "refused although the schema accepts it: " << describe(got.error());
  }
}

template <class T>
void check_struct(const std::vector<const record*>& docs, const bsongen::decode_options& options,
                  tally& counts) {
  T carried{};        // each document decoded into it in turn, whatever the last verdict was
  T after_failure{};  // a failed decode just went into it before each document
  const bytes* last_refused = nullptr;
  for (std::size_t i = 0; i < docs.size(); ++i) {
    const record& rec = *docs[i];
    SCOPED_TRACE(rec.struct_name + " document " + std::to_string(i) + " (" + rec.category + ")");
    const std::span<const std::uint8_t> input(rec.input);

    // The reference: the generic path, then the oracle.
    auto generic = bsongen::decode_document(input, options);
    outcome want;
    T expected{};
    if (generic) want = read_struct(generic->ref(), expected);
    const std::string verdict =
        !generic ? "refused by BSON: " + std::string(bsongen::name(generic.error().code))
        : want   ? "refused by the schema: " + std::string(bsongen::name(want->code))
                 : "accepted";
    counts.count(rec, verdict);

    auto fresh = bsongen::decode<T>(input, options);
    const bsongen::result<void> fresh_verdict =
        fresh ? bsongen::result<void>() : bsongen::result<void>(fresh.error());
    expect_verdict<T>(fresh_verdict, want, !generic, "new struct");
    if (!fresh) {
      EXPECT_LE(fresh.error().offset, input.size()) << describe(fresh.error());
    }

    const bool carried_had_failed = i > 0 && last_refused == &docs[i - 1]->input;
    auto into_carried = bsongen::decode(input, carried, options);
    expect_verdict<T>(
        into_carried, want, !generic,
        carried_had_failed ? "struct a failed decode left" : "struct of the last one");

    bool failed_before = false;
    if (last_refused != nullptr) {
      failed_before = !bsongen::decode(*last_refused, after_failure, options);
      EXPECT_TRUE(failed_before) << "a refused document decoded on a second try";
      // What a failed decode leaves (unspecified values) still encodes.
      EXPECT_TRUE(bsongen::encode(after_failure)) << "the struct a failed decode left";
    }
    auto into_after_failure = bsongen::decode(input, after_failure, options);
    expect_verdict<T>(into_after_failure, want, !generic, "struct right after a failed decode");
    if (failed_before) ++counts.after_failure_checks;

    if (!fresh) {
      last_refused = &rec.input;
      // Both reused structs fail alike.
      if (!into_carried) {
        EXPECT_EQ(into_carried.error().path, fresh.error().path);
      }
      if (!into_after_failure) {
        EXPECT_EQ(into_after_failure.error().path, fresh.error().path);
      }
      continue;
    }
    if (!generic || want) continue;  // reported above

    // The oracle's values, in the new struct and in both reused ones.
    const bytes want_bytes = bsongen::test::encode_ok(expected);
    const bytes got = bsongen::test::encode_ok(*fresh);
    EXPECT_EQ(got, want_bytes) << "the new struct holds other values than the generic document";
    if (into_carried) {
      EXPECT_EQ(bsongen::test::encode_ok(carried), got) << "a reused struct kept an earlier value";
      ++counts.fresh_vs_reused;
    }
    if (into_after_failure) {
      EXPECT_EQ(bsongen::test::encode_ok(after_failure), got)
          << "a struct a failed decode left kept a value";
      ++counts.fresh_vs_reused;
    }

    // Its encoding reads back, through either path, as itself.
    auto back = bsongen::decode<T>(got);
    ASSERT_TRUE(back) << describe(back.error());
    EXPECT_EQ(bsongen::test::encode_ok(*back), got);
    auto generic_back = bsongen::decode_document(got);
    ASSERT_TRUE(generic_back) << describe(generic_back.error());
    T reread{};
    EXPECT_FALSE(read_struct(generic_back->ref(), reread));
    EXPECT_EQ(bsongen::test::encode_ok(reread), got);
    ++counts.round_trips;
  }
}

using check_function = void (*)(const std::vector<const record*>&, const bsongen::decode_options&,
                                tally&);

const std::map<std::string, check_function>& checks() {
  static const std::map<std::string, check_function> all = {
      {"fixed_tones", &check_struct<enum_diff::fixed_tones>},
      {"pair", &check_struct<enum_diff::pair>},
      {"mixed", &check_struct<enum_diff::mixed>},
      {"strict", &check_struct<enum_diff::strict>},
  };
  return all;
}

// Every document through every struct's checks under `options`; the counts printed.
tally run_all(const bsongen::decode_options& options) {
  const std::vector<record>& records = all_records();
  tally counts;
  std::map<std::string, std::vector<const record*>> by_struct;
  for (const record& rec : records) by_struct[rec.struct_name].push_back(&rec);
  for (const auto& [name, check] : checks()) {
    SCOPED_TRACE(name);
    const auto it = by_struct.find(name);
    if (it == by_struct.end()) {
      ADD_FAILURE() << "no documents for struct " << name;
      continue;
    }
    check(it->second, options, counts);
  }
  for (const auto& [name, docs] : by_struct) {
    EXPECT_TRUE(checks().contains(name)) << "struct " << name << " has no checks in this test";
  }
  std::printf("%zu documents:\n", records.size());
  for (const auto& [verdict, n] : counts.by_verdict) std::printf("  %5zu %s\n", n, verdict.c_str());
  std::printf("by category:\n");
  for (const auto& [key, n] : counts.by_category) {
    std::printf("  %-14s %5zu %s\n", key.first.c_str(), n, key.second.c_str());
  }
  std::printf(
      "%zu accepted values compared between a new and a reused struct, %zu documents decoded "
      "right after a failed decode, %zu round trips\n",
      counts.fresh_vs_reused, counts.after_failure_checks, counts.round_trips);
  EXPECT_GT(counts.after_failure_checks, 0U);
  EXPECT_GT(counts.by_verdict["accepted"], records.size() / 4);
  return counts;
}

TEST(enum_differential, generated_decoder_agrees_with_the_generic_path_and_the_schema) {
  ASSERT_FALSE(all_records().empty()) << "no documents in " << BSONGEN_ENUM_DIFFERENTIAL_DOCUMENTS;
  tally counts = run_all({});
  // Every kind of verdict occurs, or a check of it never ran.
  EXPECT_GT(counts.by_verdict["refused by the schema: invalid_value"], 0U);
  EXPECT_GT(counts.by_verdict["refused by the schema: type_mismatch"], 0U);
  EXPECT_GT(counts.by_verdict["refused by the schema: invalid_length"], 0U);
  EXPECT_GT(counts.by_verdict["refused by the schema: duplicate_field"], 0U);
  EXPECT_GT(counts.by_verdict["refused by the schema: missing_field"], 0U);
}

// decode_options::duplicate_keys = reject: the generic path then refuses a repeated key at any
// level (in maps, nested structs and skipped unknown values too), and the generated decoder, under
// the same options, must refuse at least as much; the rest as above.
TEST(enum_differential, same_verdicts_when_the_options_reject_repeated_keys) {
  ASSERT_FALSE(all_records().empty()) << "no documents in " << BSONGEN_ENUM_DIFFERENTIAL_DOCUMENTS;
  bsongen::decode_options options;
  options.duplicate_keys = bsongen::duplicate_key_policy::reject;
  tally counts = run_all(options);
  EXPECT_GT(counts.by_verdict["refused by BSON: duplicate_field"], 0U);
}

}  // namespace
