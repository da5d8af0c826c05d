#pragma once

// Markers that turn existing C++ structs and enums into a bsongen schema, read by `bsongen-scan`
// (see docs/intermediate-model.md for what each becomes in the model).
//
//   #include <bsongen/annotate.hpp>
//
//   namespace shop {
//   enum class BSONGEN_ENUM_AS_STRING status { pending, shipped BSONGEN_BSON_NAME("SHIPPED") };
//
//   struct BSONGEN_DOCUMENT BSONGEN_UNKNOWN_FIELDS(reject) order {
//     BSONGEN_KEY("_id") bsongen::object_id id;
//     BSONGEN_REQUIRED std::string customer;
//     BSONGEN_OMIT_EMPTY std::vector<std::string> tags;
//     status state = status::pending;
//     BSONGEN_IGNORE int cache = 0;  // not part of the document
//   };
//   }  // namespace shop
//
// Under clang each marker is a `[[clang::annotate("bsongen:...")]]` attribute the scanner reads
// from the AST; under every other compiler it expands to nothing, so annotated headers stay clean
// with `g++ -Wall -Wextra -Werror`. The markers change no layout and no behaviour of the struct.
//
// Placement (where C++ lets an attribute appertain to the declaration):
//   struct and enum markers:  between `struct`/`enum class` and the name;
//   member markers:           before the member's type;
//   enumerator markers:       after the enumerator's name, before any `= value`.
//
// Every non-static data member of a BSONGEN_DOCUMENT struct is a field unless marked
// BSONGEN_IGNORE; fields must be public (the generated code reads and assigns them directly).

#if defined(__clang__)
#define BSONGEN_DETAIL_ANNOTATE(text) [[clang::annotate(text)]]
#else
#define BSONGEN_DETAIL_ANNOTATE(text)
#endif

// --- structs ---------------------------------------------------------------------------------

// The struct is a BSON document: the generator emits encode/decode for it.
#define BSONGEN_DOCUMENT BSONGEN_DETAIL_ANNOTATE("bsongen:document")

// What decoding does with a key the struct does not declare: `skip` (the default) or `reject`
// (error unknown_field). To keep unknown elements, mark a bsongen::raw_document member
// BSONGEN_CAPTURE_UNKNOWN instead.
#define BSONGEN_UNKNOWN_FIELDS(policy) BSONGEN_DETAIL_ANNOTATE("bsongen:unknown_fields=" #policy)

// What decoding does with a known key seen twice: `last_wins` (the default) or `reject`
// (error duplicate_field).
#define BSONGEN_DUPLICATE_KEYS(policy) BSONGEN_DETAIL_ANNOTATE("bsongen:duplicate_keys=" #policy)

// --- members ---------------------------------------------------------------------------------

// The BSON key when it differs from the member's name. `key` is a string literal: "_id".
#define BSONGEN_KEY(key) BSONGEN_DETAIL_ANNOTATE("bsongen:key=" key)

// Decoding fails with missing_field when the key is absent (otherwise the member keeps the value
// its initializer gave it). Not allowed on std::optional members.
#define BSONGEN_REQUIRED BSONGEN_DETAIL_ANNOTATE("bsongen:required")

// Encoding leaves the element out when the value is empty (string, vector, map, binary).
#define BSONGEN_OMIT_EMPTY BSONGEN_DETAIL_ANNOTATE("bsongen:omit_empty")

// Not part of the document: never encoded, never decoded (caches, back pointers).
#define BSONGEN_IGNORE BSONGEN_DETAIL_ANNOTATE("bsongen:ignore")

// A bsongen::raw_document member that receives every element the struct does not declare.
#define BSONGEN_CAPTURE_UNKNOWN BSONGEN_DETAIL_ANNOTATE("bsongen:capture_unknown")

// A BSON type the C++ type alone does not tell: `javascript` on a std::string member,
// `uuid` on a std::array<std::uint8_t, 16> member (binary subtype 4), `binary_vector` on a
// std::vector<float> or std::vector<std::int8_t> (std::pmr::vector too) or a std::array of them
// (a fixed dimension): a BSON binary vector (subtype 9) instead of an array. (bsongen::packed_bits
// is a packed_bit binary vector without the marker.)
#define BSONGEN_AS(kind) BSONGEN_DETAIL_ANNOTATE("bsongen:as=" #kind)

// --- enums -----------------------------------------------------------------------------------

// The enum is stored as its enumerator's name (a BSON string) instead of its value (int32).
#define BSONGEN_ENUM_AS_STRING BSONGEN_DETAIL_ANNOTATE("bsongen:enum_storage=string")

// On an enumerator of a BSONGEN_ENUM_AS_STRING enum: the string stored instead of its C++ name.
#define BSONGEN_BSON_NAME(name) BSONGEN_DETAIL_ANNOTATE("bsongen:bson_name=" name)
