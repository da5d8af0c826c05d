// bsongen-scan against the type catalogue it is built with (generator/bsongen_gen/catalog.py, as
// the JSON the build emits): every scalar kind maps from its C++ spelling to itself, every
// container kind from its template, emptiability and the array size limit are the catalogue's.
// The members are written from the catalogue, so a kind added to catalog.py that the scanner
// cannot map fails here.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "scan_runner.hpp"

namespace bsongen::scan_test {
namespace {

using nlohmann::json;

const json& catalog() {
  static const json parsed = json::parse(read_text(BSONGEN_CATALOG_JSON));
  return parsed;
}

// The catalogue spells types from the global namespace ("::bsongen::value"); so may a header.
std::string cpp_of(const json& scalar) { return scalar["cpp_type"].get<std::string>(); }

// Every public runtime header, so each kind's C++ type is declared.
std::string preamble() {
  std::string out =
      "#include <array>\n#include <chrono>\n#include <cstddef>\n#include <cstdint>\n"
      "#include <map>\n#include <optional>\n#include <string>\n#include <vector>\n";
  std::vector<std::string> headers;
  for (const auto& entry : std::filesystem::directory_iterator(runtime_include_dir / "bsongen"))
    if (entry.path().extension() == ".hpp") headers.push_back(entry.path().filename().string());
  std::sort(headers.begin(), headers.end());
  for (const auto& h : headers) out += "#include <bsongen/" + h + ">\n";
  return out;
}

// The container's default spelling with `element` (and size 3 when it has one).
std::string container_spelling(const json& container, const std::string& element) {
  std::string out = container["cpp_template"].get<std::string>() + "<";
  for (const auto& arg : container["cpp_leading_args"]) out += arg.get<std::string>() + ", ";
  out += element;
  if (container["has_size"].get<bool>()) out += ", 3";
  return out + ">";
}

const json& scalar_named(const std::string& kind) {
  for (const auto& s : catalog()["scalars"])
    if (s["kind"] == kind) return s;
  ADD_FAILURE() << "no scalar kind " << kind << " in the catalogue";
  static const json none;
  return none;
}

const json* container_named(const std::string& kind) {
  for (const auto& c : catalog()["containers"])
    if (c["kind"] == kind) return &c;
  return nullptr;
}

// How the catalogue spells a model type reference: its `cpp`, else its kind's default.
std::string default_spelling_of(const json& type) {
  if (type.contains("cpp")) return type["cpp"].get<std::string>();
  const std::string kind = type["kind"].get<std::string>();
  if (const json* c = container_named(kind)) {
    std::string out = (*c)["cpp_template"].get<std::string>() + "<";
    for (const auto& arg : (*c)["cpp_leading_args"]) out += arg.get<std::string>() + ", ";
    out += default_spelling_of(type["element"]);
    if ((*c)["has_size"].get<bool>()) out += ", " + std::to_string(type["size"].get<int>());
    return out + ">";
  }
  return scalar_named(kind)["cpp_type"].get<std::string>();
}

std::string without_global_qualifier(std::string cpp) {
  return cpp.rfind("::", 0) == 0 ? cpp.substr(2) : cpp;
}

class scan_catalog : public ::testing::Test {
 protected:
  // Scans `body` (inside namespace catalog_check); the exit status, stderr and model.
  scan_output scan(const std::string& body) {
    write_text(dir_.path() / "kinds.hpp", preamble() + "namespace catalog_check {\n" + body +
                                              "}  // namespace catalog_check\n");
    return run_scan({"kinds.hpp", "-I", runtime_include_dir.string(), "-o", "model.json"},
                    dir_.path());
  }
  // The scan, then `bsongen generate` on its model (what a build runs).
  scan_output generate(const std::string& body) {
    write_text(dir_.path() / "kinds.hpp", preamble() + "namespace catalog_check {\n" + body +
                                              "}  // namespace catalog_check\n");
    return run_pipeline({"kinds.hpp", "-I", runtime_include_dir.string()}, dir_.path());
  }
  json model() { return json::parse(read_text(dir_.path() / "model.json")); }
  static json fields_of(const json& model, const std::string& name) {
    for (const auto& s : model["structs"])
      if (s["name"] == name) return s["fields"];
    ADD_FAILURE() << "no struct " << name;
    return json::array();
  }
  scratch_dir dir_;
};

TEST_F(scan_catalog, the_catalogue_has_what_the_scanner_reads) {
  ASSERT_TRUE(catalog()["scalars"].is_array());
  ASSERT_FALSE(catalog()["scalars"].empty());
  ASSERT_TRUE(catalog()["containers"].is_array());
  ASSERT_FALSE(catalog()["containers"].empty());
  EXPECT_TRUE(catalog()["max_array_size"].is_number_unsigned());
  EXPECT_TRUE(catalog()["definition_kinds"].is_array());
}

// Marked BSONGEN_AS(kind), a member of the kind's C++ type is that kind with no `cpp`; unmarked, it
// is the first scalar kind with that C++ type (string before javascript), or the kind its C++ type
// has structurally (std::array<std::uint8_t, 16> is an array), spelled by default.
TEST_F(scan_catalog, every_scalar_kind_maps_from_its_cpp_type) {
  std::string plain = "struct BSONGEN_DOCUMENT plain {\n";
  std::string marked = "struct BSONGEN_DOCUMENT marked {\n";
  for (const auto& s : catalog()["scalars"]) {
    const std::string kind = s["kind"].get<std::string>();
    plain += "  " + cpp_of(s) + " f_" + kind + "{};\n";
    marked += "  BSONGEN_AS(" + kind + ") " + cpp_of(s) + " f_" + kind + "{};\n";
  }
  scan_output run = scan(plain + "};\n" + marked + "};\n");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json m = model();
  const json plain_fields = fields_of(m, "plain");
  const json marked_fields = fields_of(m, "marked");
  ASSERT_EQ(plain_fields.size(), catalog()["scalars"].size());
  ASSERT_EQ(marked_fields.size(), catalog()["scalars"].size());
  for (std::size_t i = 0; i < plain_fields.size(); ++i) {
    const json& s = catalog()["scalars"][i];
    const std::string kind = s["kind"].get<std::string>();
    SCOPED_TRACE(kind + " (" + cpp_of(s) + ")");
    EXPECT_EQ(marked_fields[i]["type"], json({{"kind", kind}}));

    const json& type = plain_fields[i]["type"];
    EXPECT_FALSE(type.contains("cpp")) << type;
    EXPECT_EQ(without_global_qualifier(default_spelling_of(type)),
              without_global_qualifier(cpp_of(s)))
        << type;
    if (type["kind"] != kind && container_named(type["kind"]) == nullptr) {
      // Another scalar kind with the same C++ type comes first in the catalogue.
      bool earlier = false;
      for (const auto& other : catalog()["scalars"]) {
        if (other["kind"] == kind) break;
        earlier = earlier || (other["kind"] == type["kind"] && cpp_of(other) == cpp_of(s));
      }
      EXPECT_TRUE(earlier) << "maps to " << type["kind"] << ", not the first kind of its C++ type";
    }
  }
}

// A member of a kind's std::pmr spelling (the catalogue's pmr_cpp_type: std::pmr::string,
// bsongen::pmr::binary, ...) is the first kind with that spelling, with `cpp` naming it.
TEST_F(scan_catalog, every_pmr_spelling_maps_to_its_kind) {
  std::string body = "struct BSONGEN_DOCUMENT spelled_for_pmr {\n";
  std::vector<const json*> spelled;
  for (const auto& s : catalog()["scalars"]) {
    if (s["pmr_cpp_type"].is_null()) continue;
    spelled.push_back(&s);
    body += "  " + s["pmr_cpp_type"].get<std::string>() + " f_" + s["kind"].get<std::string>() +
            "{};\n";
  }
  ASSERT_FALSE(spelled.empty());
  scan_output run = scan(body + "};\n");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json fields = fields_of(model(), "spelled_for_pmr");
  ASSERT_EQ(fields.size(), spelled.size());
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const json& s = *spelled[i];
    const std::string pmr = s["pmr_cpp_type"].get<std::string>();
    SCOPED_TRACE(s["kind"].get<std::string>() + " (" + pmr + ")");
    std::string first_kind;
    for (const auto& other : catalog()["scalars"]) {
      if (other["pmr_cpp_type"] == pmr) {
        first_kind = other["kind"].get<std::string>();
        break;
      }
    }
    EXPECT_EQ(fields[i]["type"],
              json({{"kind", first_kind}, {"cpp", without_global_qualifier(pmr)}}));
  }
}

// The element kind a container is tried with: int32, or the first kind it allows when the
// catalogue restricts its elements (`number` takes int64 or double).
std::string element_kind_for(const json& container) {
  const auto allowed = container.find("element_kinds");
  if (allowed != container.end() && allowed->is_array() && !allowed->empty())
    return (*allowed)[0].get<std::string>();
  return "int32";
}

TEST_F(scan_catalog, every_container_kind_maps_from_its_template) {
  std::string body = "struct BSONGEN_DOCUMENT containers {\n";
  for (const auto& c : catalog()["containers"])
    body += "  " + container_spelling(c, cpp_of(scalar_named(element_kind_for(c)))) + " c_" +
            c["kind"].get<std::string>() + "{};\n";
  scan_output run = scan(body + "};\n");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json fields = fields_of(model(), "containers");
  ASSERT_EQ(fields.size(), catalog()["containers"].size());
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const json& c = catalog()["containers"][i];
    SCOPED_TRACE(c["kind"].get<std::string>());
    json expected = {{"kind", c["kind"]}};
    if (c["has_size"].get<bool>()) expected["size"] = 3;
    expected["element"] = {{"kind", element_kind_for(c)}};
    EXPECT_EQ(fields[i]["type"], expected);
  }
}

// BSONGEN_OMIT_EMPTY is accepted exactly on the kinds the catalogue calls emptiable (std::optional
// is looked through, so it is not one of the members here): the generator's linker refuses it on
// the others, for a scanned header as for a schema file.
TEST_F(scan_catalog, omit_empty_applies_to_the_emptiable_kinds) {
  std::string accepted = "struct BSONGEN_DOCUMENT accepted {\n";
  std::string refused = "struct BSONGEN_DOCUMENT refused {\n";
  std::vector<std::string> refused_fields;
  auto add = [&](const std::string& name, const std::string& marker, const std::string& cpp,
                 bool emptiable) {
    (emptiable ? accepted : refused) +=
        "  BSONGEN_OMIT_EMPTY " + marker + cpp + " " + name + "{};\n";
    if (!emptiable) refused_fields.push_back(name);
  };
  for (const auto& s : catalog()["scalars"]) {
    const std::string kind = s["kind"].get<std::string>();
    add("e_" + kind, "BSONGEN_AS(" + kind + ") ", cpp_of(s), s["emptiable"].get<bool>());
  }
  for (const auto& c : catalog()["containers"]) {
    if (c["cpp_template"] == "std::optional") continue;
    add("e_" + c["kind"].get<std::string>(), "",
        container_spelling(c, cpp_of(scalar_named(element_kind_for(c)))),
        c["emptiable"].get<bool>());
  }
  ASSERT_FALSE(refused_fields.empty());

  scan_output ok = generate(accepted + "  int unused = 0;\n};\n");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;

  scan_output run = generate(refused + "};\n");
  EXPECT_EQ(run.exit_code, 1) << run.err;
  std::size_t errors = 0;
  for (auto at = run.err.find(": error: "); at != std::string::npos;
       at = run.err.find(": error: ", at + 1))
    ++errors;
  for (const auto& name : refused_fields) {
    EXPECT_NE(
        run.err.find("error: field `" + name + "`: omit_empty needs a type that can be empty"),
        std::string::npos)
        << name << "\n"
        << run.err;
  }
  EXPECT_EQ(errors, refused_fields.size()) << run.err;
}

TEST_F(scan_catalog, std_array_sizes_stop_at_the_catalogue_limit) {
  const auto limit = catalog()["max_array_size"].get<std::uint64_t>();
  scan_output ok = scan("struct BSONGEN_DOCUMENT largest { std::array<std::int32_t, " +
                        std::to_string(limit) + "> a; };\n");
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(fields_of(model(), "largest")[0]["type"]["size"], limit);

  scan_output over = scan("struct BSONGEN_DOCUMENT too_large { std::array<std::int32_t, " +
                          std::to_string(limit + 1) + "> a; };\n");
  EXPECT_EQ(over.exit_code, 1);
  EXPECT_NE(over.err.find("std::array needs a size from 1 to " + std::to_string(limit)),
            std::string::npos)
      << over.err;
}

TEST_F(scan_catalog, bsongen_as_names_a_kind_of_the_catalogue) {
  scan_output run =
      scan("struct BSONGEN_DOCUMENT doc { BSONGEN_AS(no_such_kind) std::string s; };\n");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("BSONGEN_AS(no_such_kind) on field 's': 'no_such_kind' is not a scalar "
                         "kind of the type catalogue"),
            std::string::npos)
      << run.err;
}

}  // namespace
}  // namespace bsongen::scan_test
