#pragma once

// What generated code gives the queries that go with its structs (docs/schema-format.md,
// "Projections and field paths"); every generated header includes this.
//
// Typed field paths: bsongen::paths<T> (for a schema's struct also <namespace>::<struct>_paths)
// holds, per field of T, a constant converting to the field's stored dotted path, the fields of
// nested structs (and of the structs in vectors, arrays and optionals) included:
//
//   std::string_view path = shop::order_paths::customer.name;    // "customer.name"
//   std::string_view id = bsongen::paths<shop::order>::id;        // "_id": the stored key
//
// for filters, sorts, updates and index specifications. A field renamed or removed in the schema
// makes the code that names its path fail to compile. The text is NUL-terminated, so its data()
// suits C APIs (bson_append_int32(&b, path.data(), ...)). A field whose struct leads back to the
// struct the paths start from (a recursive struct) has a path without members.
//
// Projection documents: bsongen::projection<T>() is the MongoDB `find` projection that asks for
// exactly the fields T's decoder reads, built at compile time:
//
//   constexpr std::span<const std::uint8_t> p = bsongen::projection<shop::order_summary>();
//   bson_t projection;
//   bson_init_static(&projection, p.data(), p.size());  // {"_id": 1, "status": 1, ...}
//
// A struct without an `_id` field says `_id: 0` (the server returns `_id` unless told not to); a
// struct that captures unknown fields asks for everything (`{}`). `bsongen projection SCHEMA
// STRUCT` prints the same document as Extended JSON.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "bsongen/codec.hpp"

namespace bsongen {
namespace detail {

// A path's text as a template argument: N - 1 characters and a NUL.
template <std::size_t N>
struct path_text {
  char chars[N]{};

  consteval path_text() noexcept = default;
  consteval path_text(const char (&text)[N]) noexcept {  // NOLINT: converts literals on purpose
    for (std::size_t i = 0; i < N; ++i) chars[i] = text[i];
  }
  [[nodiscard]] constexpr std::string_view view() const noexcept { return {chars, N - 1}; }
};

// The path of the member stored under `key` of the document at `parent` ("" for the outermost).
template <std::size_t N, std::size_t M>
consteval auto child_path(const path_text<N>& parent, const char (&key)[M]) noexcept {
  path_text<N == 1 ? M : N + M> out;
  std::size_t at = 0;
  for (std::size_t i = 0; i + 1 < N; ++i) out.chars[at++] = parent.chars[i];
  if constexpr (N > 1) out.chars[at++] = '.';
  for (std::size_t i = 0; i < M; ++i) out.chars[at++] = key[i];
  return out;
}

}  // namespace detail

// One field's stored dotted path; converts to it as a std::string_view.
template <detail::path_text Path>
struct field_path {
  constexpr operator std::string_view() const noexcept { return Path.view(); }  // NOLINT
};

// The paths of T's fields below `Path` (one static constant per field, named as the member),
// specialized by the generated header of every struct. It converts to `Path` itself.
template <class T, detail::path_text Path>
struct paths_of;

// The paths of T's fields from the document's top: bsongen::paths<shop::order>::customer.name.
template <class T>
using paths = paths_of<T, detail::path_text<1>{""}>;

// The MongoDB find projection asking for exactly what T's decoder reads (see above).
template <generated_document T>
[[nodiscard]] constexpr std::span<const std::uint8_t> projection() noexcept {
  return codec<T>::projection_document;
}

}  // namespace bsongen
