#pragma once

// The property check every generated-decoder fuzz target runs, for the struct T of its schema.
//
// - A generated decoder never accepts what the generic decoder rejects (the generic decoder is
//   the reference validator), and its errors point inside the input.
// - The values agree: T's encoding, read by the generic decoder, holds for each member the value
//   the input holds under that key (the last occurrence: duplicate keys are last-wins or
//   rejected), allowing the exact widenings the generated code performs (int32 into int64 and
//   double members). Members absent from the input hold their defaults and are not compared.
// - T's encoding decodes back through the generated decoder and re-encodes byte-identically.
// - Decoding {} into a populated object resets it: the result encodes like T{}, as decoding into a
//   reused object promises.
// - Decoding with decode_options::validate_skipped = false (trusted input) accepts what the
//   validated decode accepts, with the same values, and its errors point inside the input too.
//
// check_pmr_twin: T's `allocator: pmr` twin (the same schema with its own namespace), decoded onto
// a pool resource, into a new struct and into one reused on the resource, under the same options,
// reaches T's verdict with T's error (code, path and offset), and encodes to T's bytes (or is
// refused by encode with T's error). The pool hands what it is given back to pools by size, so a
// wrong size or a double release shows under ASan.

#include <cstdint>
#include <cstdio>
#include <memory_resource>
#include <span>
#include <string_view>

#include "bsongen/codec.hpp"
#include "bsongen/document.hpp"
#include "fuzz_support.hpp"

namespace bsongen::fuzz {

inline bool values_agree(value_ref generated, value_ref input);

// The count-th (0-based) element with this key, or missing.
inline value_ref nth_with_key(document_ref doc, std::string_view key, std::size_t count) {
  for (element e : doc) {
    if (e.key() == key && count-- == 0) return e.value();
  }
  return {};
}

inline std::size_t count_key(document_ref doc, std::string_view key) {
  std::size_t n = 0;
  for (element e : doc) n += e.key() == key ? 1 : 0;
  return n;
}

inline bool documents_agree(document_ref generated, document_ref input) {
  for (std::size_t i = 0; i < generated.size(); ++i) {
    const element e = generated.at(i);
    const std::size_t in_input = count_key(input, e.key());
    if (in_input == 0) continue;  // absent from the input: the member kept its default
    // A key the struct writes once is the input's last occurrence; keys written several times
    // (captured unknown fields) pair up occurrence by occurrence.
    std::size_t occurrence = 0;
    for (std::size_t j = 0; j < i; ++j) occurrence += generated.at(j).key() == e.key() ? 1 : 0;
    const std::size_t in_generated = count_key(generated, e.key());
    const value_ref counterpart = in_generated == 1 ? nth_with_key(input, e.key(), in_input - 1)
                                                    : nth_with_key(input, e.key(), occurrence);
    if (!counterpart || !values_agree(e.value(), counterpart)) return false;
  }
  return true;
}

inline bool values_agree(value_ref generated, value_ref input) {
  if (generated.type() == input.type()) {
    if (generated.is_document())
      return documents_agree(generated.as_document(), input.as_document());
    if (generated.is_array()) {
      const array_ref a = generated.as_array();
      const array_ref b = input.as_array();
      if (a.size() != b.size()) return false;
      for (std::size_t i = 0; i < a.size(); ++i) {
        if (!values_agree(a[i], b[i])) return false;
      }
      return true;
    }
    return generated == input;
  }
  if (input.is(bson_type::int32)) {
    if (generated.is(bson_type::int64)) return generated.as_int64() == input.as_int32();
    if (generated.is(bson_type::double_))
      return generated.as_double() == static_cast<double>(input.as_int32());
  }
  return false;
}

template <generated_document T>
int check_generated_decoder(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> input(data, size);
  result<T> decoded = decode<T>(input);
  // Trusted (validate_skipped = false): unknown elements stepped over by their lengths alone,
  // still never reading outside the input; it accepts what validation accepts, with its values.
  const result<T> trusted = decode<T>(input, {.validate_skipped = false});
  if (!trusted) require_sane_error(trusted.error(), size);
  if (!decoded) {
    require_sane_error(decoded.error(), size);
    return 0;
  }
  BSONGEN_FUZZ_REQUIRE(trusted.has_value(), "trusted decoding refused what validation accepts");
  result<document> generic = decode_document(input);
  if (!generic) std::fprintf(stderr, "generic decoder: %s\n", generic.error().to_string().c_str());
  BSONGEN_FUZZ_REQUIRE(generic.has_value(),
                       "the generated decoder accepted input the generic decoder rejects");

  result<byte_buffer> encoded = encode(*decoded);
  BSONGEN_FUZZ_REQUIRE(encoded.has_value(), "a decoded struct does not encode");
  // By their encodings, which compare NaNs too.
  result<byte_buffer> encoded_trusted = encode(*trusted);
  BSONGEN_FUZZ_REQUIRE(encoded_trusted && same_bytes(encoded_trusted->span(), encoded->span()),
                       "trusted and validated decoding read different values");
  result<document> reread = decode_document(encoded->span());
  BSONGEN_FUZZ_REQUIRE(reread.has_value(), "the generated encoding is not valid BSON");
  BSONGEN_FUZZ_REQUIRE(documents_agree(*reread, *generic),
                       "generated and generic decoders read different values");

  result<T> back = decode<T>(encoded->span());
  if (!back) std::fprintf(stderr, "generated decoder: %s\n", back.error().to_string().c_str());
  BSONGEN_FUZZ_REQUIRE(back.has_value(), "the generated decoder rejects its own encoding");
  result<byte_buffer> encoded_again = encode(*back);
  BSONGEN_FUZZ_REQUIRE(encoded_again && same_bytes(encoded_again->span(), encoded->span()),
                       "the generated encoding does not re-encode byte-identically");

  static constexpr std::uint8_t empty_document[] = {5, 0, 0, 0, 0};
  T reused = std::move(*back);
  if (decode(std::span<const std::uint8_t>(empty_document), reused)) {
    result<byte_buffer> reset = encode(reused);
    result<byte_buffer> fresh = encode(T{});
    BSONGEN_FUZZ_REQUIRE(reset && fresh && same_bytes(reset->span(), fresh->span()),
                         "decoding {} into a used object left members behind");
  }
  return 0;
}

template <generated_document T, generated_document Twin>
void check_pmr_twin(std::span<const std::uint8_t> input, const decode_options& options = {}) {
  // Declared first: it outlives every struct built on it.
  std::pmr::unsynchronized_pool_resource pool;
  const result<T> plain = decode<T>(input, options);
  decode_options on_pool = options;
  on_pool.memory = &pool;
  const result<Twin> twin = decode<Twin>(input, on_pool);
  Twin reused{typename Twin::allocator_type(&pool)};
  const result<void> into_reused = decode(input, reused, options);
  BSONGEN_FUZZ_REQUIRE(
      twin.has_value() == plain.has_value() && into_reused.has_value() == plain.has_value(),
      "the pmr twin reached another verdict");
  if (!plain) {
    // By code, path and offset (same_error): the twin's messages name its own types.
    if (!same_error(twin.error(), plain.error()) ||
        !same_error(into_reused.error(), plain.error())) {
      std::fprintf(stderr, "T: %s\ntwin, new: %s\ntwin, reused: %s\n",
                   plain.error().to_string().c_str(), twin.error().to_string().c_str(),
                   into_reused.error().to_string().c_str());
    }
    BSONGEN_FUZZ_REQUIRE(
        same_error(twin.error(), plain.error()) && same_error(into_reused.error(), plain.error()),
        "the pmr twin failed with another error");
    return;
  }
  // Encode may refuse what decode took (text that is not UTF-8, when options skip that check):
  // then all three refuse it alike.
  const result<byte_buffer> expected = encode(*plain);
  const result<byte_buffer> from_twin = encode(*twin);
  const result<byte_buffer> from_reused = encode(reused);
  const auto same_encoding = [&expected](const result<byte_buffer>& r) {
    if (!expected) return !r && same_error(r.error(), expected.error());
    return r && same_bytes(r->span(), expected->span());
  };
  BSONGEN_FUZZ_REQUIRE(same_encoding(from_twin) && same_encoding(from_reused),
                       "the pmr twin encodes other bytes");
}

}  // namespace bsongen::fuzz
