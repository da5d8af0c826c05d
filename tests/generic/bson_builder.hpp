#pragma once

// Hand-assembled BSON for tests that need bytes an encoder would never write.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bsongen::test {

class bson_builder {
 public:
  bson_builder& u8(std::uint8_t v) {
    bytes_.push_back(v);
    return *this;
  }
  bson_builder& i32(std::int32_t v) {
    for (int i = 0; i < 4; ++i) bytes_.push_back(static_cast<std::uint8_t>(static_cast<std::uint32_t>(v) >> (8 * i)));
    return *this;
  }
  bson_builder& i64(std::int64_t v) {
    for (int i = 0; i < 8; ++i) bytes_.push_back(static_cast<std::uint8_t>(static_cast<std::uint64_t>(v) >> (8 * i)));
    return *this;
  }
  // The bytes then a NUL.
  bson_builder& cstr(std::string_view s) {
    raw(s);
    return u8(0);
  }
  bson_builder& raw(std::string_view s) {
    bytes_.insert(bytes_.end(), s.begin(), s.end());
    return *this;
  }
  // BSON string: length (bytes + 1), bytes, NUL.
  bson_builder& str(std::string_view s) {
    i32(static_cast<std::int32_t>(s.size() + 1));
    return cstr(s);
  }
  // An embedded document or array: its length, `body`'s bytes, the terminator.
  bson_builder& doc(const bson_builder& body) {
    i32(static_cast<std::int32_t>(body.bytes_.size() + 5));
    bytes_.insert(bytes_.end(), body.bytes_.begin(), body.bytes_.end());
    return u8(0);
  }
  [[nodiscard]] std::size_t size() const { return bytes_.size(); }
  [[nodiscard]] const std::vector<std::uint8_t>& bytes() const { return bytes_; }

 private:
  std::vector<std::uint8_t> bytes_;
};

// The outermost document whose elements are `body`.
inline std::vector<std::uint8_t> document_of(const bson_builder& body) {
  return bson_builder().doc(body).bytes();
}

}  // namespace bsongen::test
