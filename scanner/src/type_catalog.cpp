#include "type_catalog.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "bsongen_catalog_data.hpp"  // generated: bsongen::scan::catalog_json (scanner/CMakeLists.txt)
#include "scan_headers.hpp"

namespace bsongen::scan {
namespace {

// The catalogue spells types fully qualified from the global namespace ("::bsongen::object_id"),
// as generated code must; the scanner spells them as users write them ("bsongen::object_id").
std::string without_global_qualifiers(const std::string& cpp) {
  std::string out;
  for (std::size_t i = 0; i < cpp.size(); ++i) {
    const bool starts_name =
        out.empty() || out.back() == '<' || out.back() == ',' || out.back() == ' ';
    if (starts_name && cpp.compare(i, 2, "::") == 0) {
      ++i;
      continue;
    }
    out += cpp[i];
  }
  return out;
}

const nlohmann::json& member(const nlohmann::json& object, const char* key, const char* where) {
  if (!object.is_object() || !object.contains(key))
    throw std::runtime_error(std::string("type catalogue: ") + where + " has no '" + key + "'");
  return object.at(key);
}

template <class T>
T member_as(const nlohmann::json& object, const char* key, const char* where) {
  try {
    return member(object, key, where).get<T>();
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("type catalogue: ") + where + "." + key + ": " + e.what());
  }
}

}  // namespace

type_catalog type_catalog::from_json(std::string_view text) {
  nlohmann::json root;
  try {
    root = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("type catalogue: not JSON: ") + e.what());
  }
  type_catalog out;
  for (const auto& s : member(root, "scalars", "the catalogue")) {
    scalar_kind k;
    k.kind = member_as<std::string>(s, "kind", "a scalar");
    k.cpp = without_global_qualifiers(member_as<std::string>(s, "cpp_type", "a scalar"));
    // Present in every scalar, null where the kind has no std::pmr spelling.
    if (const nlohmann::json& pmr = member(s, "pmr_cpp_type", "a scalar"); !pmr.is_null())
      k.pmr_cpp = without_global_qualifiers(member_as<std::string>(s, "pmr_cpp_type", "a scalar"));
    out.scalars_.push_back(std::move(k));
  }
  for (const auto& c : member(root, "containers", "the catalogue")) {
    container_kind k;
    k.kind = member_as<std::string>(c, "kind", "a container");
    k.cpp_template =
        without_global_qualifiers(member_as<std::string>(c, "cpp_template", "a container"));
    for (const auto& arg :
         member_as<std::vector<std::string>>(c, "cpp_leading_args", "a container"))
      k.leading_args.push_back(without_global_qualifiers(arg));
    k.has_size = member_as<bool>(c, "has_size", "a container");
    out.containers_.push_back(std::move(k));
  }
  out.definition_kinds_ =
      member_as<std::vector<std::string>>(root, "definition_kinds", "the catalogue");
  out.max_array_size_ = member_as<std::uint64_t>(root, "max_array_size", "the catalogue");
  out.vector_kind_ = member_as<std::string>(root, "vector_kind", "the catalogue");
  out.max_vector_dimension_ =
      member_as<std::uint64_t>(root, "max_vector_dimension", "the catalogue");
  for (const auto& d : member(root, "vector_dtypes", "the catalogue")) {
    vector_dtype_entry e;
    e.dtype = member_as<std::string>(d, "dtype", "a vector dtype");
    e.cpp = without_global_qualifiers(member_as<std::string>(d, "cpp_type", "a vector dtype"));
    e.pmr_cpp =
        without_global_qualifiers(member_as<std::string>(d, "pmr_cpp_type", "a vector dtype"));
    // Present in every dtype, null where it has no fixed dimension.
    if (const nlohmann::json& fixed = member(d, "fixed_element", "a vector dtype");
        !fixed.is_null())
      e.fixed_element = member_as<std::string>(d, "fixed_element", "a vector dtype");
    out.vector_dtypes_.push_back(std::move(e));
  }
  if (out.scalars_.empty() || out.containers_.empty())
    throw std::runtime_error("type catalogue: no scalar or no container kinds");
  return out;
}

const type_catalog& type_catalog::built_in() {
  static const type_catalog catalog = [] {
    try {
      return from_json(catalog_json);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "bsongen-scan: internal error: %s\n", e.what());
      std::abort();
    }
  }();
  return catalog;
}

const scalar_kind* type_catalog::scalar(std::string_view kind) const {
  for (const auto& s : scalars_)
    if (s.kind == kind) return &s;
  return nullptr;
}

const container_kind* type_catalog::container(std::string_view kind) const {
  for (const auto& c : containers_)
    if (c.kind == kind) return &c;
  return nullptr;
}

const container_kind* type_catalog::container_for_template(std::string_view cpp_template) const {
  for (const auto& c : containers_)
    if (c.cpp_template == cpp_template) return &c;
  return nullptr;
}

const scalar_kind* type_catalog::scalar_for_spelling(std::string_view cpp) const {
  for (const auto& s : scalars_)
    if (s.cpp == cpp) return &s;
  return nullptr;
}

const scalar_kind* type_catalog::scalar_for_pmr_spelling(std::string_view cpp) const {
  for (const auto& s : scalars_)
    if (!s.pmr_cpp.empty() && s.pmr_cpp == cpp) return &s;
  return nullptr;
}

const vector_dtype_entry* type_catalog::vector_for_spelling(std::string_view cpp) const {
  for (const auto& d : vector_dtypes_)
    if (d.cpp == cpp || d.pmr_cpp == cpp) return &d;
  return nullptr;
}

const vector_dtype_entry* type_catalog::vector_for_fixed_element(std::string_view element) const {
  for (const auto& d : vector_dtypes_)
    if (!d.fixed_element.empty() && d.fixed_element == element) return &d;
  return nullptr;
}

std::string type_catalog::default_spelling(const type_ref& ref,
                                           const std::string& element_spelling) const {
  if (const scalar_kind* s = scalar(ref.kind)) return s->cpp;
  const container_kind* c = container(ref.kind);
  if (c == nullptr) return {};
  std::string out = c->cpp_template + "<";
  for (const auto& arg : c->leading_args) out += arg + ", ";
  out += element_spelling;
  if (c->has_size) out += ", " + std::to_string(ref.size);
  return out + ">";
}

}  // namespace bsongen::scan
