#pragma once

// bsongen::binary and bsongen::regex for the structs of `allocator: pmr` schemas
// (docs/schema-format.md, "Allocators"): the same values, their bytes and texts on the struct's
// std::pmr::memory_resource. Allocator-aware as the std::pmr containers are (an allocator_type,
// constructors that take one, get_allocator()), so a struct, vector, map or optional holding one
// builds it on its own resource. A header of its own: <memory_resource> is what the light
// bsongen/types.hpp, which every generated header includes, keeps out.
//
// The generated codecs take either spelling (detail::binary_codec, detail::regex_codec); the
// generic path (bsongen::value, bsongen::document) keeps bsongen::binary and bsongen::regex.

#include <cstdint>
#include <memory_resource>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bsongen/bson_type.hpp"

namespace bsongen::pmr {

// Owning binary data with its subtype, as bsongen::binary (for subtype 2 `bytes` is the payload
// without the inner length).
struct binary {
  std::pmr::vector<std::uint8_t> bytes;
  binary_subtype subtype = binary_subtype::generic;

  using allocator_type = std::pmr::polymorphic_allocator<>;

  binary() = default;
  explicit binary(const allocator_type& memory) : bytes(memory) {}
  binary(std::span<const std::uint8_t> payload, binary_subtype kind,
         const allocator_type& memory = {})
      : bytes(payload.begin(), payload.end(), memory), subtype(kind) {}
  binary(const binary& other, const allocator_type& memory)
      : bytes(other.bytes, memory), subtype(other.subtype) {}
  binary(binary&& other, const allocator_type& memory)
      : bytes(std::move(other.bytes), memory), subtype(other.subtype) {}
  binary(const binary&) = default;
  binary(binary&&) = default;
  binary& operator=(const binary&) = default;
  binary& operator=(binary&&) = default;
  ~binary() = default;

  [[nodiscard]] allocator_type get_allocator() const noexcept { return bytes.get_allocator(); }

  friend bool operator==(const binary&, const binary&) = default;
};

// A regular expression, as bsongen::regex (options are written sorted).
struct regex {
  std::pmr::string pattern;
  std::pmr::string options;

  using allocator_type = std::pmr::polymorphic_allocator<>;

  regex() = default;
  explicit regex(const allocator_type& memory) : pattern(memory), options(memory) {}
  regex(std::string_view pattern_text, std::string_view options_text,
        const allocator_type& memory = {})
      : pattern(pattern_text, memory), options(options_text, memory) {}
  regex(const regex& other, const allocator_type& memory)
      : pattern(other.pattern, memory), options(other.options, memory) {}
  regex(regex&& other, const allocator_type& memory)
      : pattern(std::move(other.pattern), memory), options(std::move(other.options), memory) {}
  regex(const regex&) = default;
  regex(regex&&) = default;
  regex& operator=(const regex&) = default;
  regex& operator=(regex&&) = default;
  ~regex() = default;

  [[nodiscard]] allocator_type get_allocator() const noexcept { return pattern.get_allocator(); }

  friend bool operator==(const regex&, const regex&) = default;
};

}  // namespace bsongen::pmr
