#pragma once

// The generator's type catalogue (generator/bsongen_gen/catalog.py) as bsongen-scan needs it. The
// build emits the catalogue as JSON and compiles it into the scanner (scanner/README.md says why),
// so the scanner keeps no copy of the kinds' C++ spellings or limits: what changes in catalog.py
// changes here on the next build. Plain standard C++, like scan_headers.hpp.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace bsongen::scan {

struct type_ref;

struct scalar_kind {
  std::string kind;
  std::string cpp;  // the default C++ spelling, written as the scanner spells types (no leading ::)
  // The spelling that allocates from a std::pmr::memory_resource (`allocator: pmr` schemas'),
  // written the same way; empty when the catalogue gives the kind none.
  std::string pmr_cpp;
};

struct container_kind {
  std::string kind;
  std::string cpp_template;               // "std::vector"
  std::vector<std::string> leading_args;  // template arguments before the element (a map's key)
  bool has_size = false;                  // a size argument after the element (std::array)
};

// A dtype of the binary vector kind (catalog.VECTOR_DTYPES: BSON binary subtype 9).
struct vector_dtype_entry {
  std::string dtype;          // float32, int8, packed_bit
  std::string cpp;            // the variable-dimension spelling (std::vector<float>)
  std::string pmr_cpp;        // ... with a polymorphic allocator
  std::string fixed_element;  // the std::array element of a fixed dimension; empty: none
};

class type_catalog {
 public:
  // The catalogue this scanner was built with. Aborts with a message if the build embedded a
  // catalogue it cannot read (a build error, not a user's).
  static const type_catalog& built_in();
  // Reads the catalogue's JSON (python3 -m bsongen_gen.catalog_json); throws std::runtime_error
  // naming what is missing or malformed.
  static type_catalog from_json(std::string_view text);

  [[nodiscard]] const std::vector<scalar_kind>& scalars() const { return scalars_; }
  [[nodiscard]] const std::vector<container_kind>& containers() const { return containers_; }
  [[nodiscard]] const std::vector<std::string>& definition_kinds() const {
    return definition_kinds_;
  }
  [[nodiscard]] std::uint64_t max_array_size() const { return max_array_size_; }
  // The binary vector kind ("binary_vector"), its dtypes and its largest fixed dimension.
  [[nodiscard]] const std::string& vector_kind() const { return vector_kind_; }
  [[nodiscard]] const std::vector<vector_dtype_entry>& vector_dtypes() const {
    return vector_dtypes_;
  }
  [[nodiscard]] std::uint64_t max_vector_dimension() const { return max_vector_dimension_; }
  // The dtype whose variable-dimension spelling (or its std::pmr one) is `cpp`; the dtype whose
  // fixed element is `element`; null when none is.
  [[nodiscard]] const vector_dtype_entry* vector_for_spelling(std::string_view cpp) const;
  [[nodiscard]] const vector_dtype_entry* vector_for_fixed_element(std::string_view element) const;

  // null when the catalogue has no such kind.
  [[nodiscard]] const scalar_kind* scalar(std::string_view kind) const;
  [[nodiscard]] const container_kind* container(std::string_view kind) const;
  // The container kind spelled with this class template ("std::vector"); null when none is.
  [[nodiscard]] const container_kind* container_for_template(std::string_view cpp_template) const;
  // The first scalar kind (in the catalogue's order) whose default C++ type is `cpp`: the kind a
  // member of that type maps to unless BSONGEN_AS names another. null when there is none.
  [[nodiscard]] const scalar_kind* scalar_for_spelling(std::string_view cpp) const;
  // The same for the kinds' std::pmr spellings ("bsongen::pmr::binary").
  [[nodiscard]] const scalar_kind* scalar_for_pmr_spelling(std::string_view cpp) const;
  // The kind's default C++ spelling for `ref` whose element (if any) is spelled
  // `element_spelling`; empty for struct and enum (named by the model, never given a `cpp`).
  [[nodiscard]] std::string default_spelling(const type_ref& ref,
                                             const std::string& element_spelling) const;

 private:
  std::vector<scalar_kind> scalars_;
  std::vector<container_kind> containers_;
  std::vector<std::string> definition_kinds_;
  std::uint64_t max_array_size_ = 0;
  std::string vector_kind_;
  std::vector<vector_dtype_entry> vector_dtypes_;
  std::uint64_t max_vector_dimension_ = 0;
};

}  // namespace bsongen::scan
