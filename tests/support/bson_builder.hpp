#pragma once

// Hand-assembled BSON for tests that need bytes an encoder would never write: every length is
// written by the test, so a test can lie about any of them. Nothing here validates; that is the
// decoder's job.

#include <bit>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>
#include <vector>

namespace bsongen::test {

class bson_builder {
 public:
  // Room up front also keeps g++ 12 from a false -Wstringop-overflow on the first small appends.
  bson_builder() { bytes_.reserve(64); }

  bson_builder& u8(std::uint8_t v) {
    bytes_.push_back(v);
    return *this;
  }
  bson_builder& u8s(std::initializer_list<std::uint8_t> vs) {
    bytes_.insert(bytes_.end(), vs.begin(), vs.end());
    return *this;
  }
  bson_builder& i32(std::int32_t v) { return le(static_cast<std::uint32_t>(v), 4); }
  bson_builder& i64(std::int64_t v) { return le(static_cast<std::uint64_t>(v), 8); }
  bson_builder& f64(double v) { return le(std::bit_cast<std::uint64_t>(v), 8); }
  // The characters without a terminator.
  bson_builder& raw(std::string_view s) {
    bytes_.insert(bytes_.end(), s.begin(), s.end());
    return *this;
  }
  // A key or C string: the characters and a NUL.
  bson_builder& cstr(std::string_view s) {
    raw(s);
    return u8(0);
  }
  // A BSON string with its honest length (characters + NUL).
  bson_builder& str(std::string_view s) {
    i32(static_cast<std::int32_t>(s.size() + 1));
    return cstr(s);
  }
  bson_builder& append(std::span<const std::uint8_t> more) {
    bytes_.insert(bytes_.end(), more.begin(), more.end());
    return *this;
  }
  // An embedded document or array: its honest length, `body`'s bytes, the terminator.
  bson_builder& doc(const bson_builder& body) {
    i32(static_cast<std::int32_t>(body.bytes_.size() + 5));
    append(body.bytes_);
    return u8(0);
  }

  [[nodiscard]] std::size_t size() const noexcept { return bytes_.size(); }
  [[nodiscard]] const std::vector<std::uint8_t>& bytes() const noexcept { return bytes_; }

 private:
  bson_builder& le(std::uint64_t v, int width) {
    for (int i = 0; i < width; ++i) bytes_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    return *this;
  }

  std::vector<std::uint8_t> bytes_;
};

// The outermost document whose elements are `body`, with the honest length and terminator.
inline std::vector<std::uint8_t> document_of(std::span<const std::uint8_t> body) {
  return bson_builder().i32(static_cast<std::int32_t>(body.size() + 5)).append(body).u8(0).bytes();
}
inline std::vector<std::uint8_t> document_of(const bson_builder& body) {
  return document_of(body.bytes());
}

// `depth` documents nested through key "a": {"a": {"a": ... {} ...}}; the outermost counts as 1.
// Built inside out, so the whole thing is made in one buffer without recursion.
inline std::vector<std::uint8_t> nested_documents(std::size_t depth) {
  // Level k (0-based from the outside) starts at 7k: int32 length, 0x03, "a\0", then level k+1,
  // then its own terminator, which ends it at total - k. Level depth-1 is the empty document.
  const std::size_t total = 8 * (depth - 1) + 5;
  std::vector<std::uint8_t> out(total, 0);
  for (std::size_t k = 0; k < depth; ++k) {
    const std::size_t start = 7 * k;
    const auto length = static_cast<std::uint32_t>(total - 8 * k);
    out[start] = static_cast<std::uint8_t>(length);
    out[start + 1] = static_cast<std::uint8_t>(length >> 8);
    out[start + 2] = static_cast<std::uint8_t>(length >> 16);
    out[start + 3] = static_cast<std::uint8_t>(length >> 24);
    if (k + 1 < depth) {
      out[start + 4] = 0x03;
      out[start + 5] = 'a';
      out[start + 6] = 0;
    }
  }
  return out;  // every terminator is already 0
}

}  // namespace bsongen::test
