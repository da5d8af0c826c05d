// Nested type combinations against a real peer: every leaf type of the schema grammar in every
// container/wrapper shape up to depth 3 (schemas/combinations_*.yaml, written by
// make_combination_schema.py), decoded from documents pymongo wrote
// (write_combination_documents.py, fixed seed) and written back by the generated encoder.
//
// For every document: the generated decoder fills a new struct and a reused one that held another
// document, and both must be equal; the generated encoder must write back pymongo's bytes, or,
// where the schema is documented as lossy, pymongo's encoding of the canonical form (the record
// carries those bytes and the reason: optional<T> reads null as absent, int32 read into double or
// int64 members, std::map sorting keys, absent vector/map/nullable members written back as their
// defaults, omit_empty, skipped unknown keys, captured unknown keys written back after the
// fields); the generic path must reproduce the input and agree
// with the generated encoding. Documents pymongo wrote with one value broken (a wrong type, a null
// where no null is allowed, a wrong fixed array length, an unknown enumerator, a non-UUID binary,
// an unknown field where they are rejected, a repeated key where duplicates are rejected)
// must be refused with the error code and path the writer recorded, at the broken element's type
// byte. Every document is also fed truncated and with bytes flipped: decoding must give an error
// or a value that encodes and decodes again, never a crash (the sanitized suite runs this).
//
// Built twice: on the schemas as written (combinations_test), and on the same schemas with
// `allocator: pmr` (combinations_pmr_test: namespace combo_pmr, suites combinations_pmr*), where
// every document is also decoded onto arenas while the default resource counts what it is asked
// for: no std::pmr string, vector or map of a decoded struct may be on the default resource.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <memory_resource>
#include <optional>
#include <random>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "bsongen/codec.hpp"
#include "bsongen/document.hpp"
#include "codec_helpers.hpp"
#include "combinations_1.bsongen.hpp"
#include "combinations_2.bsongen.hpp"
#include "combinations_3.bsongen.hpp"
#include "combinations_4.bsongen.hpp"
#include "counting_resource.hpp"

// combinations_pmr_test defines these for the `allocator: pmr` copies of the schemas.
#ifndef BSONGEN_COMBO_NAMESPACE
#define BSONGEN_COMBO_NAMESPACE combo
#define BSONGEN_COMBO_SUITE combinations
#define BSONGEN_COMBO_HOSTILE_SUITE combinations_hostile
#endif

namespace {

namespace parts = BSONGEN_COMBO_NAMESPACE;
using bytes = std::vector<std::uint8_t>;
using bsongen::test::counting_resource;
using bsongen::test::encode_ok;

// One document of write_combination_documents.py (its docstring describes the file).
struct record {
  bool refused = false;
  bool has_nan = false;  // NaN != NaN: values are compared through their encodings
  // The canonical bytes decode to another value: omit_empty left out an engaged but empty
  // optional<T> (reads back as absent) or an empty binary of a subtype other than 0 (reads back
  // as subtype 0).
  bool canonical_changes_value = false;
  std::string struct_name;
  std::string note;
  std::string path;
  std::string code;
  std::uint8_t type_byte = 0;
  bytes input;
  std::optional<bytes> expected;  // what the generated encoder writes back, when not `input`

  const bytes& written_back() const { return expected ? *expected : input; }
};

class file_reader {
 public:
  explicit file_reader(bytes data) : data_(std::move(data)) {}
  bool done() const { return at_ == data_.size(); }
  bool ok() const { return ok_; }
  std::uint64_t number(std::size_t width) {
    if (data_.size() - at_ < width) {
      ok_ = false;
      at_ = data_.size();
      return 0;
    }
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < width; ++i) v |= std::uint64_t{data_[at_ + i]} << (8 * i);
    at_ += width;
    return v;
  }
  bytes take(std::size_t n) {
    if (data_.size() - at_ < n) {
      ok_ = false;
      at_ = data_.size();
      return {};
    }
    bytes out(data_.begin() + static_cast<std::ptrdiff_t>(at_),
              data_.begin() + static_cast<std::ptrdiff_t>(at_ + n));
    at_ += n;
    return out;
  }
  std::string text() {
    const bytes b = take(static_cast<std::size_t>(number(2)));
    return {b.begin(), b.end()};
  }

 private:
  bytes data_;
  std::size_t at_ = 0;
  bool ok_ = true;
};

const std::vector<record>& records() {
  static const std::vector<record> all = [] {
    std::ifstream in(BSONGEN_PYMONGO_COMBINATION_DOCUMENTS, std::ios::binary);
    file_reader r(bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()));
    std::vector<record> out;
    while (!r.done()) {
      record rec;
      rec.refused = r.number(1) == 1;
      const auto flags = r.number(1);
      rec.has_nan = (flags & 1U) != 0;
      rec.canonical_changes_value = (flags & 4U) != 0;
      rec.struct_name = r.text();
      rec.note = r.text();
      rec.path = r.text();
      rec.code = r.text();
      rec.type_byte = static_cast<std::uint8_t>(r.number(1));
      rec.input = r.take(static_cast<std::size_t>(r.number(4)));
      if ((flags & 2U) != 0) rec.expected = r.take(static_cast<std::size_t>(r.number(4)));
      if (!r.ok()) {
        ADD_FAILURE() << "truncated record in " << BSONGEN_PYMONGO_COMBINATION_DOCUMENTS;
        break;
      }
      out.push_back(std::move(rec));
    }
    return out;
  }();
  return all;
}

std::string describe(const record& rec, std::size_t index) {
  return rec.struct_name + " document " + std::to_string(index) +
         (rec.note.empty() ? std::string() : " (" + rec.note + ")");
}

// --- Per struct type: the checks, instantiated for every struct of the schema. ---

template <class T>
void check_decodes(const std::vector<const record*>& docs) {
  ASSERT_FALSE(docs.empty());
  // The reused struct starts out holding the last document, then each one before the next.
  T reused{};
  ASSERT_TRUE(bsongen::decode(docs.back()->input, reused));
  for (std::size_t i = 0; i < docs.size(); ++i) {
    const record& rec = *docs[i];
    SCOPED_TRACE(describe(rec, i));
    auto fresh = bsongen::decode<T>(rec.input);
    ASSERT_TRUE(fresh) << fresh.error().to_string();
    auto into_reused = bsongen::decode(rec.input, reused);
    ASSERT_TRUE(into_reused) << into_reused.error().to_string();
    if (!rec.has_nan) {
      EXPECT_TRUE(*fresh == reused) << "a reused struct kept an earlier value";
    }

    // The generated encoder writes pymongo's bytes back (or the canonical form, see the note).
    const bytes& want = rec.written_back();
    const bytes generated = encode_ok(*fresh);
    EXPECT_EQ(generated, want);
    EXPECT_EQ(encode_ok(reused), want);
    auto size = bsongen::encoded_size(*fresh);
    ASSERT_TRUE(size);
    EXPECT_EQ(*size, want.size());

    // The generic path keeps every document as read, and agrees with the generated encoding.
    auto generic = bsongen::decode_document(rec.input);
    ASSERT_TRUE(generic) << generic.error().to_string();
    EXPECT_EQ(bsongen::test::generic_encoding(*generic), rec.input);
    if (rec.expected) {
      auto canonical = bsongen::decode_document(*rec.expected);
      ASSERT_TRUE(canonical) << canonical.error().to_string();
      EXPECT_EQ(bsongen::test::generic_encoding(*canonical), generated);
      // The canonical form is a fixed point: it decodes to the same value and writes itself.
      auto again = bsongen::decode<T>(*rec.expected);
      ASSERT_TRUE(again) << again.error().to_string();
      if (!rec.has_nan && !rec.canonical_changes_value) {
        EXPECT_TRUE(*again == *fresh);
      }
      EXPECT_EQ(encode_ok(*again), *rec.expected);
    }
  }
}

template <class T>
void check_refused(const std::vector<const record*>& docs, const record& good) {
  T reused{};
  for (std::size_t i = 0; i < docs.size(); ++i) {
    const record& rec = *docs[i];
    SCOPED_TRACE(describe(rec, i) + " at " + rec.path);
    // The broken value is still BSON: only the schema refuses it.
    EXPECT_TRUE(bsongen::decode_document(rec.input));
    auto fresh = bsongen::decode<T>(rec.input);
    ASSERT_FALSE(fresh) << "decoded although " << rec.note << " at " << rec.path;
    const bsongen::error& e = fresh.error();
    EXPECT_EQ(bsongen::name(e.code), rec.code) << e.to_string();
    EXPECT_EQ(e.path, rec.path) << e.to_string();
    if (rec.type_byte != 0) {
      ASSERT_LT(e.offset, rec.input.size()) << e.to_string();
      EXPECT_EQ(rec.input[e.offset], rec.type_byte) << e.to_string();
    }
    // A struct that held a good document reports the same error.
    ASSERT_TRUE(bsongen::decode(good.input, reused));
    auto into_reused = bsongen::decode(rec.input, reused);
    ASSERT_FALSE(into_reused);
    EXPECT_EQ(into_reused.error().code, e.code);
    EXPECT_EQ(into_reused.error().path, e.path);
    EXPECT_EQ(into_reused.error().offset, e.offset);
  }
}

// Decoding hostile bytes gives an error inside the input, or a value: then the generic decoder
// accepts the bytes too (generated decoders accept only valid BSON), and the value encodes (encode
// refuses only what decode rejects) to bytes that decode and encode to themselves.
struct hostile_tally {
  std::size_t refused = 0;
  std::size_t decoded = 0;
};

template <class T>
void expect_error_or_value(const bytes& input, T& reused, hostile_tally& tally) {
  auto fresh = bsongen::decode<T>(input);
  auto into_reused = bsongen::decode(input, reused);
  EXPECT_EQ(static_cast<bool>(fresh), static_cast<bool>(into_reused));
  ++(fresh ? tally.decoded : tally.refused);
  if (!fresh) {
    EXPECT_NE(fresh.error().code, bsongen::error_code::ok);
    EXPECT_LE(fresh.error().offset, input.size()) << fresh.error().to_string();
    return;
  }
  EXPECT_TRUE(bsongen::decode_document(input)) << "generated accepted what generic refuses";
  const bytes once = encode_ok(*fresh);
  auto back = bsongen::decode<T>(once);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(encode_ok(*back), once);
}

template <class T>
void check_hostile(const std::vector<const record*>& docs, std::mt19937& rng,
                   hostile_tally& tally) {
  T reused{};
  for (std::size_t i = 0; i < docs.size(); ++i) {
    const bytes& doc = docs[i]->input;
    SCOPED_TRACE(describe(*docs[i], i));
    const std::size_t n = doc.size();
    std::set<std::size_t> cuts = {0, 1, 4, 5, 6, n / 3, n / 2, n - 2, n - 1};
    for (int k = 0; k < 4; ++k) cuts.insert(rng() % n);
    for (const std::size_t cut : cuts) {
      if (cut >= n) continue;
      // Cut as is: the declared length runs past the input.
      const bytes cut_bytes(doc.begin(), doc.begin() + static_cast<std::ptrdiff_t>(cut));
      expect_error_or_value(cut_bytes, reused, tally);
      // Cut and framed again (length and final NUL fixed), so the decoder meets the cut inside.
      if (cut >= 5) {
        bytes framed = cut_bytes;
        const auto len = static_cast<std::uint32_t>(cut);
        for (int b = 0; b < 4; ++b) framed[static_cast<std::size_t>(b)] = (len >> (8 * b)) & 0xFFU;
        framed.back() = 0;
        expect_error_or_value(framed, reused, tally);
      }
    }
    for (int k = 0; k < 6; ++k) {
      bytes flipped = doc;
      const int times = 1 + static_cast<int>(rng() % 3);
      for (int t = 0; t < times; ++t) {
        flipped[4 + rng() % (n - 4)] ^= static_cast<std::uint8_t>(1 + rng() % 255);
      }
      expect_error_or_value(flipped, reused, tally);
    }
  }
}

// `allocator: pmr` structs: each document decoded into a new struct on an arena and into a reused
// one built on another, while the default resource counts its allocations, which must stay at
// zero; allocator-extended copies and moves give equal structs. Counts the documents in `checked`.
template <class T>
void check_resources(const std::vector<const record*>& docs, std::size_t& checked) {
  if constexpr (std::uses_allocator_v<T, std::pmr::polymorphic_allocator<>>) {
    std::pmr::monotonic_buffer_resource fresh_arena(std::pmr::new_delete_resource());
    std::pmr::monotonic_buffer_resource reused_arena(std::pmr::new_delete_resource());
    std::pmr::monotonic_buffer_resource copy_arena(std::pmr::new_delete_resource());
    T reused{std::pmr::polymorphic_allocator<>(&reused_arena)};
    for (std::size_t i = 0; i < docs.size(); ++i) {
      const record& rec = *docs[i];
      SCOPED_TRACE(describe(rec, i));
      counting_resource counter;
      std::pmr::memory_resource* const previous = std::pmr::set_default_resource(&counter);
      auto fresh = bsongen::decode<T>(rec.input, {.memory = &fresh_arena});
      auto into_reused = bsongen::decode(rec.input, reused);
      std::pmr::set_default_resource(previous);
      ASSERT_TRUE(fresh) << fresh.error().to_string();
      ASSERT_TRUE(into_reused) << into_reused.error().to_string();
      EXPECT_EQ(counter.allocations, 0U) << "decode used the default resource";
      EXPECT_EQ(fresh->get_allocator().resource(), &fresh_arena);
      EXPECT_EQ(reused.get_allocator().resource(), &reused_arena);
      EXPECT_EQ(encode_ok(*fresh), rec.written_back());
      EXPECT_EQ(encode_ok(reused), rec.written_back());
      const T copy(*fresh, std::pmr::polymorphic_allocator<>(&copy_arena));
      const T moved(T(reused, std::pmr::polymorphic_allocator<>(&copy_arena)),
                    std::pmr::polymorphic_allocator<>(&fresh_arena));
      EXPECT_EQ(copy.get_allocator().resource(), &copy_arena);
      EXPECT_EQ(moved.get_allocator().resource(), &fresh_arena);
      if (!rec.has_nan) {
        EXPECT_TRUE(*fresh == reused);
        EXPECT_TRUE(copy == *fresh);
        EXPECT_TRUE(moved == *fresh);
      }
    }
    checked += docs.size();
  }
}

struct struct_checks {
  void (*decodes)(const std::vector<const record*>&);
  void (*refused)(const std::vector<const record*>&, const record&);
  void (*hostile)(const std::vector<const record*>&, std::mt19937&, hostile_tally&);
  void (*resources)(const std::vector<const record*>&, std::size_t&);
};

template <class T>
struct_checks checks_of() {
  return {&check_decodes<T>, &check_refused<T>, &check_hostile<T>, &check_resources<T>};
}

// Every struct of the combination schemas, in the file whose documents it has (the first test
// fails when the documents name another). A struct defined in several files (the leaf structs
// `fixed` and `texty`) is checked in the first.
const std::map<std::string, struct_checks>& checks() {
  static const std::map<std::string, struct_checks> all = {
      {"fixed", checks_of<parts::part1::fixed>()},
      {"texty", checks_of<parts::part1::texty>()},
      {"tree", checks_of<parts::part1::tree>()},
      {"strict", checks_of<parts::part1::strict>()},
      {"kept", checks_of<parts::part1::kept>()},
      {"special", checks_of<parts::part1::special>()},
      {"c_double", checks_of<parts::part1::c_double>()},
      {"c_string", checks_of<parts::part1::c_string>()},
      {"c_javascript", checks_of<parts::part1::c_javascript>()},
      {"c_int32", checks_of<parts::part1::c_int32>()},
      {"c_int64", checks_of<parts::part1::c_int64>()},
      {"c_bool", checks_of<parts::part1::c_bool>()},
      {"c_datetime", checks_of<parts::part2::c_datetime>()},
      {"c_object_id", checks_of<parts::part2::c_object_id>()},
      {"c_decimal128", checks_of<parts::part2::c_decimal128>()},
      {"c_binary", checks_of<parts::part2::c_binary>()},
      {"c_uuid", checks_of<parts::part2::c_uuid>()},
      {"c_timestamp", checks_of<parts::part2::c_timestamp>()},
      {"c_regex", checks_of<parts::part2::c_regex>()},
      {"c_null", checks_of<parts::part2::c_null>()},
      {"c_min_key", checks_of<parts::part2::c_min_key>()},
      {"c_max_key", checks_of<parts::part2::c_max_key>()},
      {"c_jscope", checks_of<parts::part2::c_jscope>()},
      {"c_raw", checks_of<parts::part2::c_raw>()},
      {"c_any", checks_of<parts::part3::c_any>()},
      {"c_ienum", checks_of<parts::part3::c_ienum>()},
      {"c_senum", checks_of<parts::part3::c_senum>()},
      {"c_fixed", checks_of<parts::part3::c_fixed>()},
      {"c_texty", checks_of<parts::part3::c_texty>()},
      {"c_num_i64", checks_of<parts::part3::c_num_i64>()},
      {"c_num_dbl", checks_of<parts::part3::c_num_dbl>()},
      {"deep_0", checks_of<parts::part3::deep_0>()},
      {"deep_1", checks_of<parts::part3::deep_1>()},
      {"deep_2", checks_of<parts::part4::deep_2>()},
      {"deep_3", checks_of<parts::part4::deep_3>()},
      {"deep_4", checks_of<parts::part4::deep_4>()},
      {"deep_5", checks_of<parts::part4::deep_5>()},
      {"deep_6", checks_of<parts::part4::deep_6>()},
      {"deep_7", checks_of<parts::part4::deep_7>()},
  };
  return all;
}

// The records of each struct, split into documents that decode and documents to refuse.
struct by_struct {
  std::vector<const record*> decodes;
  std::vector<const record*> refused;
};

std::map<std::string, by_struct> grouped() {
  std::map<std::string, by_struct> out;
  for (const record& rec : records()) {
    (rec.refused ? out[rec.struct_name].refused : out[rec.struct_name].decodes).push_back(&rec);
  }
  return out;
}

TEST(BSONGEN_COMBO_SUITE, every_struct_has_documents_and_every_document_a_struct) {
  const auto groups = grouped();
  ASSERT_FALSE(groups.empty()) << "no documents in " << BSONGEN_PYMONGO_COMBINATION_DOCUMENTS;
  for (const auto& [name, docs] : groups) {
    EXPECT_TRUE(checks().contains(name)) << "struct " << name << " has no checks in this test";
  }
  std::size_t decodes = 0;
  std::size_t refused = 0;
  std::size_t lossy = 0;
  for (const auto& [name, c] : checks()) {
    const auto it = groups.find(name);
    ASSERT_NE(it, groups.end()) << "no documents for struct " << name;
    EXPECT_GE(it->second.decodes.size(), 20U) << name;
    EXPECT_GE(it->second.refused.size(), 5U) << name;
    decodes += it->second.decodes.size();
    refused += it->second.refused.size();
    for (const record* rec : it->second.decodes) lossy += rec->expected ? 1 : 0;
  }
  // Most documents must come back byte for byte, so the lossy spots do not hide the rest.
  EXPECT_LT(lossy * 2, decodes);
  std::printf(
      "%zu structs: %zu documents decode (%zu written back in canonical form), %zu refused\n",
      checks().size(), decodes, lossy, refused);
}

TEST(BSONGEN_COMBO_SUITE, pymongo_documents_decode_and_write_back_exactly) {
  for (const auto& [name, docs] : grouped()) {
    SCOPED_TRACE(name);
    const auto it = checks().find(name);
    if (it == checks().end()) continue;  // reported by the test above
    it->second.decodes(docs.decodes);
  }
}

TEST(BSONGEN_COMBO_SUITE, pmr_structs_decode_onto_their_resource_and_nowhere_else) {
  if (!std::uses_allocator_v<parts::part1::tree, std::pmr::polymorphic_allocator<>>) {
    GTEST_SKIP() << "these structs take no allocator; combinations_pmr_test runs this on the "
                    "same schemas with `allocator: pmr`";
  }
  std::size_t checked = 0;
  for (const auto& [name, docs] : grouped()) {
    SCOPED_TRACE(name);
    const auto it = checks().find(name);
    if (it == checks().end()) continue;
    it->second.resources(docs.decodes, checked);
  }
  // Most structs hold a string, vector or map somewhere, and so take an allocator.
  EXPECT_GT(checked * 2, records().size());
  std::printf("%zu documents decoded onto arenas\n", checked);
}

TEST(BSONGEN_COMBO_HOSTILE_SUITE, broken_documents_are_refused_at_the_broken_value) {
  for (const auto& [name, docs] : grouped()) {
    SCOPED_TRACE(name);
    const auto it = checks().find(name);
    if (it == checks().end() || docs.decodes.empty()) continue;
    it->second.refused(docs.refused, *docs.decodes.front());
  }
}

TEST(BSONGEN_COMBO_HOSTILE_SUITE, truncated_and_flipped_documents_give_an_error_or_a_value) {
  std::mt19937 rng(20261201);
  hostile_tally tally;
  for (const auto& [name, docs] : grouped()) {
    SCOPED_TRACE(name);
    const auto it = checks().find(name);
    if (it == checks().end()) continue;
    it->second.hostile(docs.decodes, rng, tally);
  }
  // Both outcomes must occur, or the checks of one of them never ran.
  EXPECT_GT(tally.refused, 0U);
  EXPECT_GT(tally.decoded, 0U);
  std::printf("hostile inputs: %zu refused, %zu decoded\n", tally.refused, tally.decoded);
}

}  // namespace
