// Generated codecs against hostile input and the issue 11 findings on their side: captured
// unknown fields of fixed-shape structs (item 1), the hard depth cap (item 3), depth on the
// fixed-shape fast path (item 4), enums inside containers on encode and encode error paths
// (item 5), duplicate keys under decode_options (item 9), error offsets (item 14). Schemas:
// tests/generated/schemas/hostile_cases.yaml and all_types.yaml.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "all_types.bsongen.hpp"
#include "bsongen/codec.hpp"
#include "bsongen/document.hpp"
#include "bsongen/writer.hpp"
#include "hostile_cases.bsongen.hpp"

namespace {

using bytes = std::vector<std::uint8_t>;

// Little BSON assembly for bytes no encoder writes.
struct builder {
  bytes out;
  builder& u8(std::uint8_t v) {
    out.push_back(v);
    return *this;
  }
  builder& i32(std::int32_t v) {
    for (int i = 0; i < 4; ++i)
      out.push_back(static_cast<std::uint8_t>(static_cast<std::uint32_t>(v) >> (8 * i)));
    return *this;
  }
  builder& cstr(std::string_view s) {
    out.insert(out.end(), s.begin(), s.end());
    return u8(0);
  }
  builder& str(std::string_view s) {
    i32(static_cast<std::int32_t>(s.size() + 1));
    return cstr(s);
  }
  builder& doc(const builder& body) {
    i32(static_cast<std::int32_t>(body.out.size() + 5));
    out.insert(out.end(), body.out.begin(), body.out.end());
    return u8(0);
  }
  builder& element(std::uint8_t type, std::string_view key) { return u8(type).cstr(key); }
};

bytes document_of(const builder& body) { return builder().doc(body).out; }

template <class T>
bytes encode_ok(const T& v) {
  auto r = bsongen::encode(v);
  EXPECT_TRUE(r) << r.error().to_string();
  return r ? bytes(r->data(), r->data() + r->size()) : bytes{};
}

template <class T>
bsongen::error decode_error(const bytes& b, const bsongen::decode_options& options = {}) {
  auto r = bsongen::decode<T>(std::span<const std::uint8_t>(b), options);
  EXPECT_FALSE(r) << "decoded input it should reject";
  return r ? bsongen::error{} : r.error();
}

// The generated decoder's verdict is the generic decoder's: both accept, or both reject at the
// same offset with the same path (and the same code unless `same_code` is false: a string length
// past its document is `truncated` in one and `invalid_length` in the other).
template <class T>
void expect_same_verdict(const bytes& b, const bsongen::decode_options& options = {},
                         bool same_code = true) {
  auto generated = bsongen::decode<T>(std::span<const std::uint8_t>(b), options);
  auto generic = bsongen::decode_document(b, options);
  ASSERT_EQ(static_cast<bool>(generated), static_cast<bool>(generic))
      << (generated ? generic.error().to_string() : generated.error().to_string());
  if (!generated) {
    if (same_code) {
      EXPECT_EQ(name(generated.error().code), name(generic.error().code));
    }
    EXPECT_EQ(generated.error().offset, generic.error().offset) << generated.error().to_string();
    EXPECT_EQ(generated.error().path, generic.error().path) << generated.error().to_string();
  }
}

// --- Issue 11 item 1: capture on an all-fixed-width struct. ---

TEST(generated_codec_hostile, capture_on_an_all_fixed_struct_writes_and_clears_captured_elements) {
  // Encode once wrote only the fixed skeleton, dropping the captured elements.
  hostile_test::fixed_capture v;
  v.x = 1.5;
  v.n = 7;
  auto with_note =
      bsongen::decode<hostile_test::fixed_capture>(document_of(builder()
                                                                   .element(0x01, "x")
                                                                   .i32(0)
                                                                   .i32(0x3FF80000)
                                                                   .element(0x02, "note")
                                                                   .str("kept")
                                                                   .element(0x10, "n")
                                                                   .i32(7)));
  ASSERT_TRUE(with_note) << with_note.error().to_string();
  EXPECT_EQ(with_note->x, 1.5);
  EXPECT_EQ(with_note->n, 7);
  ASSERT_FALSE(with_note->rest.empty());
  const bytes written = encode_ok(*with_note);
  const auto generic = bsongen::decode_document(written);
  ASSERT_TRUE(generic) << generic.error().to_string();
  ASSERT_TRUE(generic->contains("note")) << "the captured element was not written back";
  EXPECT_EQ((*generic)["note"].as_string(), "kept");

  // Decoding into that object again, from input with no unknown field (the fixed shape exactly),
  // once returned before clearing the capture member.
  const bytes plain = encode_ok(v);
  ASSERT_TRUE(bsongen::decode(std::span<const std::uint8_t>(plain), *with_note));
  EXPECT_TRUE(with_note->rest.empty()) << "stale captured elements survived a decode";
  EXPECT_EQ(*with_note, v);
}

TEST(generated_codec_hostile, encode_refuses_a_captured_element_with_the_key_of_a_field) {
  // Written, the document would hold `n` twice: the struct's own decoder refuses that under
  // duplicate_keys: reject, and under last_wins reads the captured 8 over the field's 7.
  hostile_test::fixed_capture v;
  v.n = 7;
  v.rest = bsongen::to_raw_document(bsongen::document{{"note", "kept"}, {"n", 8}});
  const auto written = bsongen::encode(v);
  ASSERT_FALSE(written);
  EXPECT_EQ(written.error().code, bsongen::error_code::invalid_value);
  EXPECT_EQ(written.error().path, "n");
  v.rest = bsongen::to_raw_document(bsongen::document{{"note", "kept"}});
  EXPECT_TRUE(bsongen::encode(v).has_value());
}

// --- Issue 11 item 4: depth on the fixed-shape fast path, as the generic decoder counts it. ---

// T's encoding decoded with max_depth 1..deepest: the generic decoder's verdict each time, and a
// success exactly from `levels` (the documents and arrays the value opens) up.
template <class T>
void expect_depth_counted_like_the_generic_decoder(const T& value, std::size_t levels,
                                                   std::size_t deepest) {
  const bytes b = encode_ok(value);
  for (std::size_t max_depth = 1; max_depth <= deepest; ++max_depth) {
    SCOPED_TRACE(max_depth);
    bsongen::decode_options options;
    options.max_depth = max_depth;
    expect_same_verdict<T>(b, options);
    EXPECT_EQ(static_cast<bool>(bsongen::decode<T>(b, options)), max_depth >= levels);
  }
}

TEST(generated_codec_hostile, fixed_shape_fast_path_counts_depth_like_the_generic_decoder) {
  // Ten documents, each level's decode on the fast path.
  expect_depth_counted_like_the_generic_decoder(hostile_test::level_9{}, 10, 12);
  // The same nesting reached from a struct that is not fixed (an array of fixed structs).
  expect_depth_counted_like_the_generic_decoder(gen_test::fixed_shape{}, 3, 4);
  // A fixed array of plain values, decoded on its own fast path, in a struct that is not fixed.
  hostile_test::measured m{};
  m.size = {1.5, 2.5, 3.5};
  expect_depth_counted_like_the_generic_decoder(m, 2, 3);
}

TEST(generated_codec_hostile, max_depth_zero_rejects_even_the_outermost_document) {
  // Library decision 2: the outermost document counts as one level.
  bsongen::decode_options options;
  options.max_depth = 0;
  for (const bytes& b : {encode_ok(hostile_test::level_0{}), encode_ok(hostile_test::level_9{})}) {
    const auto e = decode_error<hostile_test::level_9>(b, options);
    EXPECT_EQ(e.code, bsongen::error_code::too_deep) << e.to_string();
  }
  const auto e = decode_error<gen_test::empty>(bytes{5, 0, 0, 0, 0}, options);
  EXPECT_EQ(e.code, bsongen::error_code::too_deep) << e.to_string();
  EXPECT_EQ(e.offset, 0u);
}

// --- Issue 11 item 3: the hard cap bounds the recursion whatever max_depth says. ---

// `nodes` nested nodes: {v: 1, children: [{v: 1, children: [...]}]}, the innermost with an empty
// array: 2 * nodes levels.
bytes node_chain(std::size_t nodes) {
  // Built from both ends: the heads of every level, the innermost node, then the tails (lengths
  // computed inside out), so a 50,000-node chain takes linear time.
  const bytes innermost =
      document_of(builder().element(0x10, "v").i32(1).element(0x04, "children").doc(builder()));
  // Level k (from the inside, k >= 1) is node{v: 1, children: [<level k-1>]}: its head is
  // length, v, "children" header, array length, "0" header; its tail two NULs.
  constexpr std::size_t head = 4 + 7 + 10 + 4 + 3;
  std::vector<std::int32_t> node_length(nodes);
  node_length[0] = static_cast<std::int32_t>(innermost.size());
  for (std::size_t k = 1; k < nodes; ++k) {
    node_length[k] = node_length[k - 1] + static_cast<std::int32_t>(head + 2);
  }
  bytes out;
  out.reserve(static_cast<std::size_t>(node_length[nodes - 1]));
  for (std::size_t k = nodes - 1; k >= 1; --k) {
    builder b;
    b.i32(node_length[k]).element(0x10, "v").i32(1).element(0x04, "children");
    b.i32(node_length[k - 1] + 3 + 5).element(0x03, "0");
    out.insert(out.end(), b.out.begin(), b.out.end());
  }
  out.insert(out.end(), innermost.begin(), innermost.end());
  out.insert(out.end(), 2 * (nodes - 1), 0);
  return out;
}

TEST(generated_codec_hostile, nesting_stops_at_max_depth_limit_whatever_the_option) {
  bsongen::decode_options unlimited;
  unlimited.max_depth = std::numeric_limits<std::size_t>::max();
  static_assert(bsongen::max_depth_limit % 2 == 0);
  const bytes at_limit = node_chain(bsongen::max_depth_limit / 2);
  auto r = bsongen::decode<hostile_test::node>(std::span<const std::uint8_t>(at_limit), unlimited);
  ASSERT_TRUE(r) << r.error().to_string();
  const bytes over = node_chain(bsongen::max_depth_limit / 2 + 1);
  EXPECT_EQ(decode_error<hostile_test::node>(over, unlimited).code, bsongen::error_code::too_deep);
  // Far beyond: an error, not a stack overflow (once at 30k levels).
  const bytes deep = node_chain(50000);
  EXPECT_EQ(decode_error<hostile_test::node>(deep, unlimited).code, bsongen::error_code::too_deep);
  // The same through a skipped unknown field and through an `any`-free struct's table loop.
  builder skipped;
  skipped.element(0x03, "unknown").out.insert(skipped.out.end(), deep.begin(), deep.end());
  EXPECT_EQ(decode_error<hostile_test::pair>(document_of(skipped), unlimited).code,
            bsongen::error_code::too_deep);
}

// --- Fixed shapes as wide as 64 KiB, and names the C library or an empty string could break. ---

template <class T>
constexpr bool has_fixed_size = requires {
  bsongen::codec<T>::fixed_size;
};

// array<double, N> and an int32: encodes, decodes back, and refuses a wrong array length or key.
template <class Wide>
void expect_wide_array_round_trips() {
  auto v = std::make_unique<Wide>();
  for (std::size_t i = 0; i < v->values.size(); ++i) v->values[i] = static_cast<double>(i) / 4;
  v->n = 7;
  const bytes b = encode_ok(*v);
  auto back = bsongen::decode<Wide>(std::span<const std::uint8_t>(b));
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_TRUE(*back == *v);
  // One element short is refused.
  bsongen::array shorter;
  for (std::size_t i = 0; i + 1 < v->values.size(); ++i) shorter.push_back(v->values[i]);
  bsongen::document d;
  d.append("values", std::move(shorter));
  d.append("n", 7);
  const auto r = bsongen::decode<Wide>(bsongen::encode_document(d).span());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().path, "values");
  // Element 2000 as a string: refused with its path. The same bytes with its key written "2001"
  // decode: array keys are read, not checked, on every path.
  static constexpr char element[] =
      "\x01"
      "2000";  // type byte, key and NUL
  const auto at = std::search(b.begin(), b.end(), element, element + sizeof element);
  ASSERT_NE(at, b.end());
  bytes retyped = b;
  retyped[static_cast<std::size_t>(at - b.begin())] = 0x02;
  const auto t = bsongen::decode<Wide>(std::span<const std::uint8_t>(retyped));
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error().path, "values.2000");
  bytes renamed = b;
  renamed[static_cast<std::size_t>(at - b.begin()) + 4] = '1';
  const auto k = bsongen::decode<Wide>(std::span<const std::uint8_t>(renamed));
  ASSERT_TRUE(k) << k.error().to_string();
  EXPECT_TRUE(*k == *v);
}

TEST(generated_codec_hostile, fixed_structs_up_to_64_kib_decode_on_their_fast_path) {
  // 56 KB: the generator writes the shape out (a consteval function building it ran out of clang's
  // steps near 39 KB); the array inside is too wide for its own compile-time shape.
  static_assert(bsongen::codec<hostile_test::wide_array>::fixed_size == 56259);
  expect_wide_array_round_trips<hostile_test::wide_array>();
}

TEST(generated_codec_hostile, structs_over_64_kib_decode_the_general_way) {
  static_assert(!has_fixed_size<hostile_test::too_wide_array>);
  expect_wide_array_round_trips<hostile_test::too_wide_array>();
}

TEST(generated_codec_hostile, names_of_the_c_library_work_inside_a_namespace) {
  const hostile_test::log entry{.message = "disk full", .tm = 3, .when = hostile_test::time::late};
  const bytes b = encode_ok(entry);
  const auto back = bsongen::decode<hostile_test::log>(std::span<const std::uint8_t>(b));
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_TRUE(*back == entry);
}

TEST(generated_codec_hostile, an_enum_stored_as_the_empty_string_round_trips) {
  // `bson_name: ""` stores ""; `bson_name:` with no value (YAML null) keeps the enumerator's name.
  const bytes blank = document_of(builder().element(0x02, "m").str(""));
  EXPECT_EQ(encode_ok(hostile_test::marked{.m = hostile_test::mark::blank}), blank);
  const auto back = bsongen::decode<hostile_test::marked>(std::span<const std::uint8_t>(blank));
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(back->m, hostile_test::mark::blank);
  EXPECT_EQ(encode_ok(hostile_test::marked{.m = hostile_test::mark::plain}),
            document_of(builder().element(0x02, "m").str("plain")));
}

// --- Issue 11 item 5: enums in containers are checked on encode; errors carry the path. ---

TEST(generated_codec_hostile, enums_in_containers_are_checked_on_encode_with_their_path) {
  hostile_test::board b;
  b.fixed = {};  // value-initialized: 0s, which name no enumerator
  auto r = bsongen::encode(b);
  ASSERT_FALSE(r) << "encoded enum values its decoder rejects";
  EXPECT_EQ(r.error().code, bsongen::error_code::invalid_value);
  EXPECT_EQ(r.error().path, "fixed.0");
  EXPECT_EQ(r.error().message, "0 is not a value of ::hostile_test::status");

  b.fixed = {hostile_test::status::open, hostile_test::status::closed, hostile_test::status::open};
  EXPECT_TRUE(bsongen::encode(b));
  b.list = {hostile_test::status::open, hostile_test::status::open, hostile_test::status::closed,
            static_cast<hostile_test::status>(9)};
  r = bsongen::encode(b);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().path, "list.3");
  EXPECT_EQ(r.error().message, "9 is not a value of ::hostile_test::status");

  b.list.pop_back();
  b.tickets.resize(5);
  for (auto& t : b.tickets) t.status = hostile_test::status::closed;
  b.tickets[3].status = static_cast<hostile_test::status>(7);
  r = bsongen::encode(b);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().path, "tickets.3.status");
  EXPECT_EQ(bsongen::encoded_size(b).error().path, "tickets.3.status");

  b.tickets[3].status = hostile_test::status::open;
  b.by_name = {{"fine", hostile_test::status::open}, {"odd", static_cast<hostile_test::status>(3)}};
  r = bsongen::encode(b);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().path, "by_name.odd");

  b.by_name.erase("odd");
  const bytes good = encode_ok(b);
  auto back = bsongen::decode<hostile_test::board>(good);
  ASSERT_TRUE(back) << back.error().to_string();
  EXPECT_EQ(*back, b);
}

TEST(generated_codec_hostile, invalid_map_keys_are_refused_on_encode) {
  gen_test::containers c;
  c.by_name.emplace(std::string("bad\xFF", 4), 1);
  auto r = bsongen::encode(c);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, bsongen::error_code::invalid_utf8);
  EXPECT_EQ(r.error().path.rfind("by_name.", 0), 0u) << r.error().path;
}

// Encode checks map keys as it copies them (copy_key), in a different word test for each key
// length. Every length from 1 to 40 bytes, with a NUL, a byte that is not UTF-8, or a valid
// two-byte character at each position: the bad keys are refused by every encode entry point with
// the generic encoder's code and the key in the path; the good ones encode to bytes that decode
// back to the same map.
TEST(generated_codec_hostile, map_keys_are_checked_at_every_length_and_position) {
  for (std::size_t length = 1; length <= 40; ++length) {
    for (std::size_t at = 0; at < length; ++at) {
      const std::string plain(length, 'k');
      std::string with_nul = plain;
      with_nul[at] = '\0';
      std::string not_utf8 = plain;
      not_utf8[at] = '\xff';
      for (const auto& [key, code] : {std::pair{with_nul, bsongen::error_code::invalid_value},
                                      std::pair{not_utf8, bsongen::error_code::invalid_utf8}}) {
        SCOPED_TRACE("length " + std::to_string(length) + ", bad byte at " + std::to_string(at));
        gen_test::containers c;
        c.by_name.emplace("good", 1);
        c.by_name.emplace(key, 2);
        auto to_buffer = bsongen::encode(c);
        ASSERT_FALSE(to_buffer);
        EXPECT_EQ(to_buffer.error().code, code);
        EXPECT_EQ(to_buffer.error().path.rfind("by_name.", 0), 0u) << to_buffer.error().path;
        bsongen::writer w;
        w.put_u8(7);
        ASSERT_FALSE(bsongen::encode(c, w));
        EXPECT_EQ(w.size(), 1u);  // as it was before the call
        auto size = bsongen::encoded_size(c);
        ASSERT_FALSE(size);
        EXPECT_EQ(size.error().code, code);
      }
      if (at + 2 <= length) {
        std::string accented = plain;
        accented.replace(at, 2, "\xc3\xa9");  // U+00E9
        gen_test::containers c;
        c.by_name.emplace(accented, 3);
        auto encoded = bsongen::encode(c);
        ASSERT_TRUE(encoded) << encoded.error().to_string();
        auto back = bsongen::decode<gen_test::containers>(encoded->span());
        ASSERT_TRUE(back) << back.error().to_string();
        EXPECT_EQ(back->by_name, c.by_name);
      }
    }
  }
}

// --- Issue 11 item 9: decode_options::duplicate_keys applies to generated decoders. ---

TEST(generated_codec_hostile, decode_option_rejects_duplicate_keys) {
  const bytes twice = document_of(
      builder().element(0x10, "a").i32(1).element(0x02, "b").str("x").element(0x10, "a").i32(2));
  auto last_wins = bsongen::decode<hostile_test::pair>(twice);
  ASSERT_TRUE(last_wins) << last_wins.error().to_string();
  EXPECT_EQ(last_wins->a, 2);

  bsongen::decode_options reject;
  reject.duplicate_keys = bsongen::duplicate_key_policy::reject;
  auto e = decode_error<hostile_test::pair>(twice, reject);
  EXPECT_EQ(e.code, bsongen::error_code::duplicate_field);
  EXPECT_EQ(e.path, "a");
  EXPECT_EQ(e.offset, 4u + 7u + 9u);  // the second "a"'s type byte

  // In a nested struct, and in order (the in-order chain must notice too).
  const bytes nested = document_of(builder().element(0x03, "p").doc(
      builder().element(0x10, "v").i32(1).element(0x10, "v").i32(2)));
  e = decode_error<hostile_test::pair>(nested, reject);
  EXPECT_EQ(e.code, bsongen::error_code::duplicate_field);
  EXPECT_EQ(e.path, "p.v");
  EXPECT_EQ(e.offset, 4u + 3u + 4u + 7u);
  EXPECT_TRUE(bsongen::decode<hostile_test::pair>(nested));  // last wins by default
}

// Issue 35 item 4: a key the schema does not declare may not repeat under reject either, as the
// generic decoder refuses it: skipped, captured, or in a struct that rejects on its own.
TEST(generated_codec_hostile, repeated_unknown_keys_are_refused_under_reject) {
  const bytes twice = document_of(
      builder().element(0x10, "a").i32(1).element(0x10, "x").i32(1).element(0x10, "x").i32(2));
  EXPECT_TRUE(bsongen::decode<hostile_test::pair>(twice));  // last wins by default
  bsongen::decode_options reject;
  reject.duplicate_keys = bsongen::duplicate_key_policy::reject;
  const bsongen::error e = decode_error<hostile_test::pair>(twice, reject);
  EXPECT_EQ(e.code, bsongen::error_code::duplicate_field) << e.to_string();
  EXPECT_EQ(e.path, "x");
  EXPECT_EQ(e.offset, 4u + 7u + 7u);  // the second "x"'s type byte
  expect_same_verdict<hostile_test::pair>(twice, reject);
  expect_same_verdict<hostile_test::fixed_capture>(twice, reject);

  // One unknown key in each of two documents is no repeat.
  const bytes apart = document_of(builder().element(0x10, "x").i32(1).element(0x03, "p").doc(
      builder().element(0x10, "x").i32(2).element(0x10, "v").i32(3)));
  const auto decoded =
      bsongen::decode<hostile_test::pair>(std::span<const std::uint8_t>(apart), reject);
  ASSERT_TRUE(decoded) << decoded.error().to_string();
  EXPECT_EQ(decoded->p.v, 3);
  expect_same_verdict<hostile_test::pair>(apart, reject);
}

// Issue 34 item 10 (enum_differential_test found it): inside a skipped unknown value, a repeated
// key passed under reject, which the generic decoder refuses; in a skipped array it is no repeat.
TEST(generated_codec_hostile, repeated_keys_inside_skipped_values_are_refused_under_reject) {
  const bytes inside = document_of(builder().element(0x10, "a").i32(1).element(0x03, "u").doc(
      builder().element(0x10, "k").i32(1).element(0x10, "k").i32(2)));
  EXPECT_TRUE(bsongen::decode<hostile_test::pair>(inside));  // last wins by default
  bsongen::decode_options reject;
  reject.duplicate_keys = bsongen::duplicate_key_policy::reject;
  const bsongen::error e = decode_error<hostile_test::pair>(inside, reject);
  EXPECT_EQ(e.code, bsongen::error_code::duplicate_field) << e.to_string();
  EXPECT_EQ(e.path, "u.k");
  EXPECT_EQ(e.offset, 4u + 7u + 3u + 4u + 7u);  // the second "k"'s type byte
  expect_same_verdict<hostile_test::pair>(inside, reject);
  expect_same_verdict<hostile_test::fixed_capture>(inside, reject);

  const bytes in_array = document_of(builder().element(0x10, "a").i32(1).element(0x04, "u").doc(
      builder().element(0x10, "0").i32(1).element(0x10, "0").i32(2)));
  expect_same_verdict<hostile_test::pair>(in_array, reject);
  EXPECT_TRUE(bsongen::decode<hostile_test::pair>(std::span<const std::uint8_t>(in_array), reject));
}

// --- Issue 11 item 14: error offsets at the element's type byte (decision 1). ---

TEST(generated_codec_hostile, errors_point_at_the_elements_type_byte_as_the_generic_decoder_says) {
  // A string whose length runs past its document.
  bytes b = document_of(builder().element(0x10, "a").i32(1).element(0x02, "b").i32(100).cstr("x"));
  expect_same_verdict<hostile_test::pair>(b, {}, false);
  EXPECT_EQ(decode_error<hostile_test::pair>(b).offset, 4u + 7u);

  // A nested document without its terminator.
  b = document_of(
      builder().element(0x03, "p").i32(12).element(0x10, "v").i32(1).u8(1).element(0x10, "a").i32(
          1));
  expect_same_verdict<hostile_test::pair>(b);

  // A bool byte of 2 on the fixed-shape path (fixed_shape's "on" field).
  gen_test::fixed_shape f{};
  b = encode_ok(f);
  const std::string on("\x08on", 4);
  auto at = std::search(b.begin(), b.end(), on.begin(), on.end());
  ASSERT_NE(at, b.end());
  at[4] = 2;
  expect_same_verdict<gen_test::fixed_shape>(b);

  // An array element: containers.names.1 with a bad UTF-8 string.
  gen_test::containers c;
  c.names = {"ok", "also ok"};
  b = encode_ok(c);
  const std::string also("also ok", 7);
  at = std::search(b.begin(), b.end(), also.begin(), also.end());
  ASSERT_NE(at, b.end());
  at[1] = static_cast<char>(0xFF);
  auto e = decode_error<gen_test::containers>(b);
  EXPECT_EQ(e.path, "names.1");
  EXPECT_EQ(e.offset, static_cast<std::size_t>(at - b.begin()) - 4 - 3);  // type, "1", NUL, length
  expect_same_verdict<gen_test::containers>(b);

  // A type byte BSON does not define, in a known field and in an unknown one.
  b = document_of(builder().element(0x10, "a").i32(1).element(0x42, "b").i32(1));
  expect_same_verdict<hostile_test::pair>(b);
  b = document_of(builder().element(0x10, "a").i32(1).element(0x42, "zz").i32(1));
  expect_same_verdict<hostile_test::pair>(b);
  b = document_of(builder().element(0x10, "a").i32(1).u8(0).u8(0).u8(0));
  expect_same_verdict<hostile_test::pair>(b);

  // A required field's absence points at the document lacking it.
  const bytes no_id = document_of(builder().element(0x02, "name").str("x"));
  e = decode_error<gen_test::options>(no_id);
  EXPECT_EQ(e.code, bsongen::error_code::missing_field);
  EXPECT_EQ(e.offset, 0u);
}

}  // namespace
