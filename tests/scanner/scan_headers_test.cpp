// bsongen-scan's mapping from C++ declarations to the intermediate model (scan_headers.cpp): every
// supported member type through the spellings users write, enums, nested and recursive documents,
// the struct and member options, and each error with its file:line:col.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>

#include "scan_runner.hpp"

namespace bsongen::scan_test {
namespace {

using nlohmann::json;

// A header's model, scanned once for the test suite `Suite` (each suite its own statics), with
// lookups that fail the test when a name is missing.
template <class Suite>
class scanned_model : public ::testing::Test {
 protected:
  static void scan(const char* scratch, const std::filesystem::path& header,
                   const std::filesystem::path& include_dir) {
    scratch_dir dir(scratch);
    header_ = header;
    scan_output run = run_scan({header.string(), "-I", include_dir.string(), "-I",
                                runtime_include_dir.string(), "-o", "model.json"},
                               dir.path());
    exit_code_ = run.exit_code;
    stderr_ = run.err;
    if (run.exit_code == 0) model_ = json::parse(read_text(dir.path() / "model.json"));
  }

  void SetUp() override { ASSERT_EQ(exit_code_, 0) << stderr_; }

  static const json& structure(std::string_view name) {
    for (const auto& s : model_["structs"])
      if (s["name"] == name) return s;
    ADD_FAILURE() << "no struct " << name;
    static const json none;
    return none;
  }

  static json type_of(std::string_view struct_name, std::string_view field_name) {
    for (const auto& f : structure(struct_name)["fields"])
      if (f["name"] == field_name) return f["type"];
    ADD_FAILURE() << "no field " << struct_name << "." << field_name;
    return {};
  }

  static inline std::filesystem::path header_;
  static inline int exit_code_ = -1;
  static inline std::string stderr_;
  static inline json model_;
};

// The model of tests/scanner/data/scan_fixture/all_types.hpp.
class fixture_model : public scanned_model<fixture_model> {
 protected:
  static void SetUpTestSuite() {
    scan("fixture_model", data_dir / "scan_fixture" / "all_types.hpp", data_dir);
  }
  static const json& field(std::string_view struct_name, std::string_view field_name) {
    for (const auto& f : structure(struct_name)["fields"])
      if (f["name"] == field_name) return f;
    ADD_FAILURE() << "no field " << struct_name << "." << field_name;
    static const json none;
    return none;
  }
  static const json& enumeration(std::string_view name) {
    for (const auto& e : model_["enums"])
      if (e["name"] == name) return e;
    ADD_FAILURE() << "no enum " << name;
    static const json none;
    return none;
  }
  // The 1-based line of the fixture holding `text`.
  static int line_of(std::string_view text) {
    const std::string source = read_text(header_);
    const auto at = source.find(text);
    if (at == std::string::npos) return 0;
    return 1 + static_cast<int>(
                   std::count(source.begin(), source.begin() + static_cast<long>(at), '\n'));
  }
};

TEST_F(fixture_model, top_level_describes_a_header_model) {
  EXPECT_EQ(model_["bsongen_model"], 1);
  EXPECT_EQ(model_["origin"]["kind"], "header");
  EXPECT_EQ(model_["origin"]["path"], header_.string());
  EXPECT_EQ(model_["output_name"], "all_types");
  EXPECT_EQ(model_["namespace"], "scan_fixture");
  EXPECT_EQ(model_["defines_types"], false);
  // Spelled relative to the -I directory that contains the header.
  EXPECT_EQ(model_["includes"], json::array({"scan_fixture/all_types.hpp"}));
}

TEST_F(fixture_model, integers_map_by_width_and_signedness) {
  EXPECT_EQ(type_of("scalars", "plain_int"), json::parse(R"({"kind":"int32"})"));
  EXPECT_EQ(type_of("scalars", "tiny"), json::parse(R"({"kind":"int32","cpp":"std::int8_t"})"));
  EXPECT_EQ(type_of("scalars", "small"), json::parse(R"({"kind":"int32","cpp":"std::int16_t"})"));
  EXPECT_EQ(type_of("scalars", "byte"), json::parse(R"({"kind":"int32","cpp":"std::uint8_t"})"));
  EXPECT_EQ(type_of("scalars", "word"), json::parse(R"({"kind":"int32","cpp":"std::uint16_t"})"));
  // uint32 needs int64 to hold every value.
  EXPECT_EQ(type_of("scalars", "dword"), json::parse(R"({"kind":"int64","cpp":"std::uint32_t"})"));
  EXPECT_EQ(type_of("scalars", "wide"), json::parse(R"({"kind":"int64"})"));
  // long long is 64 bits but not std::int64_t (long) on LP64: it keeps its own spelling.
  EXPECT_EQ(type_of("scalars", "wide_ll"), json::parse(R"({"kind":"int64","cpp":"long long"})"));
  // Through a typedef.
  EXPECT_EQ(type_of("scalars", "aliased"), json::parse(R"({"kind":"int64"})"));
}

TEST_F(fixture_model, scalars_and_runtime_types_map_to_their_kinds) {
  const std::pair<const char*, const char*> expected[] = {
      {"ratio", "double"},       {"flag", "bool"},
      {"text", "string"},        {"id", "object_id"},
      {"amount", "decimal128"},  {"blob", "binary"},
      {"stamp", "timestamp"},    {"pattern", "regex"},
      {"when_ms", "datetime"},   {"lowest", "min_key"},
      {"highest", "max_key"},    {"nothing", "null"},
      {"code", "javascript"},    {"uuid", "uuid"},
      {"extra", "raw_document"}, {"scoped", "javascript_with_scope"},
  };
  for (const auto& [member, kind] : expected) {
    EXPECT_EQ(type_of("scalars", member), json({{"kind", kind}})) << member;
  }
}

TEST_F(fixture_model, binary_vectors_map_with_the_marker_and_packed_bits_without) {
  EXPECT_EQ(type_of("vectors", "embedding"),
            json::parse(R"({"kind":"binary_vector","dtype":"float32"})"));
  EXPECT_EQ(type_of("vectors", "quantized"),
            json::parse(R"({"kind":"binary_vector","dtype":"int8"})"));
  EXPECT_EQ(type_of("vectors", "fixed"),
            json::parse(R"({"kind":"binary_vector","dtype":"float32","size":3})"));
  EXPECT_EQ(type_of("vectors", "maybe_fixed"),
            json::parse(R"({"kind":"optional","element":)"
                        R"({"kind":"binary_vector","dtype":"int8","size":2}})"));
  EXPECT_EQ(type_of("vectors", "on_resource"),
            json::parse(R"({"kind":"binary_vector","cpp":"std::pmr::vector<float>",)"
                        R"("dtype":"float32"})"));
  EXPECT_TRUE(field("vectors", "on_resource")["omit_empty"]);
  EXPECT_EQ(type_of("vectors", "bits"),
            json::parse(R"({"kind":"binary_vector","dtype":"packed_bit"})"));
  EXPECT_EQ(type_of("vectors", "pmr_bits"),
            json::parse(R"({"kind":"binary_vector","cpp":"bsongen::pmr::packed_bits",)"
                        R"("dtype":"packed_bit"})"));
  EXPECT_EQ(type_of("vectors", "maybe_bits"),
            json::parse(R"({"kind":"optional","element":)"
                        R"({"kind":"binary_vector","dtype":"packed_bit"}})"));
  EXPECT_EQ(type_of("vectors", "many_bits"),
            json::parse(R"({"kind":"vector","element":)"
                        R"({"kind":"binary_vector","dtype":"packed_bit"}})"));
  // Without the marker a std::vector<std::int8_t> stays a BSON array of int32.
  EXPECT_EQ(type_of("vectors", "small_numbers"),
            json::parse(R"({"kind":"vector","element":{"kind":"int32","cpp":"std::int8_t"}})"));
}

TEST_F(fixture_model, system_clock_time_points_are_datetimes_with_their_spelling) {
  // An alias of std::chrono::system_clock::time_point.
  EXPECT_EQ(type_of("scalars", "when_ns"),
            json::parse(R"({"kind":"datetime","cpp":"std::chrono::system_clock::time_point"})"));
  EXPECT_EQ(
      type_of("scalars", "when_s"),
      json::parse(
          R"({"kind":"datetime","cpp":"std::chrono::time_point<std::chrono::system_clock, std::chrono::duration<std::int64_t, std::ratio<1, 1>>>"})"));
}

TEST_F(fixture_model, containers_nest_their_element_types) {
  EXPECT_EQ(type_of("containers", "numbers"),
            json::parse(R"({"kind":"vector","element":{"kind":"int32"}})"));
  // Through an alias of std::vector<std::string>.
  EXPECT_EQ(type_of("containers", "labels"),
            json::parse(R"({"kind":"vector","element":{"kind":"string"}})"));
  EXPECT_EQ(type_of("containers", "point"),
            json::parse(R"({"kind":"array","size":3,"element":{"kind":"double"}})"));
  EXPECT_EQ(type_of("containers", "nickname"),
            json::parse(R"({"kind":"optional","element":{"kind":"string"}})"));
  EXPECT_EQ(type_of("containers", "shipping"),
            json::parse(R"({"kind":"optional","element":{"kind":"struct","name":"address"}})"));
  EXPECT_EQ(type_of("containers", "history"),
            json::parse(R"({"kind":"vector","element":{"kind":"struct","name":"address"}})"));
  EXPECT_EQ(type_of("containers", "counts"),
            json::parse(R"({"kind":"map","element":{"kind":"int64"}})"));
  EXPECT_EQ(type_of("containers", "groups"), json::parse(R"({"kind":"map",
      "cpp":"std::unordered_map<std::string, std::vector<std::string>>",
      "element":{"kind":"vector","element":{"kind":"string"}}})"));
  EXPECT_EQ(type_of("containers", "ordered"), json::parse(R"({"kind":"map",
      "cpp":"std::vector<std::pair<std::string, std::int64_t>>",
      "element":{"kind":"int64"}})"));
  EXPECT_EQ(type_of("containers", "by_name"), json::parse(R"({"kind":"map",
      "cpp":"std::map<std::string, scan_fixture::address, std::less<>>",
      "element":{"kind":"struct","name":"address"}})"));
  EXPECT_EQ(type_of("containers", "matrix"), json::parse(R"({"kind":"vector",
      "element":{"kind":"vector","element":{"kind":"int32","cpp":"std::uint16_t"}}})"));
}

TEST_F(fixture_model, nullable_and_number_map_to_their_forms) {
  EXPECT_EQ(type_of("containers", "alias"),
            json::parse(R"({"kind":"nullable","element":{"kind":"string"}})"));
  EXPECT_EQ(type_of("containers", "rank"), json::parse(R"({"kind":"optional",
      "element":{"kind":"nullable","element":{"kind":"int32"}}})"));
  EXPECT_EQ(type_of("containers", "readings"), json::parse(R"({"kind":"vector",
      "element":{"kind":"nullable","element":{"kind":"double"}}})"));
  EXPECT_EQ(type_of("containers", "price"),
            json::parse(R"({"kind":"number","element":{"kind":"double"}})"));
  // Through a typedef of std::int64_t.
  EXPECT_EQ(type_of("containers", "total"),
            json::parse(R"({"kind":"number","element":{"kind":"int64"}})"));
}

TEST_F(fixture_model, omit_empty_looks_through_optional) {
  EXPECT_EQ(field("containers", "motto")["omit_empty"], true);
  EXPECT_EQ(type_of("containers", "motto"),
            json::parse(R"({"kind":"optional","element":{"kind":"string"}})"));
}

TEST_F(fixture_model, documents_from_included_headers_join_the_model_before_their_users) {
  std::vector<std::string> order;
  for (const auto& s : model_["structs"]) order.push_back(s["name"]);
  EXPECT_EQ(order, (std::vector<std::string>{"scalars", "address", "containers", "options",
                                             "open_document", "tree", "vectors"}));
  EXPECT_EQ(structure("address")["doc"], "A postal address.");
  EXPECT_EQ(structure("address")["location"]["file"],
            (data_dir / "scan_fixture" / "address.hpp").string());
}

TEST_F(fixture_model, recursive_documents_reference_themselves) {
  EXPECT_EQ(type_of("tree", "children"),
            json::parse(R"({"kind":"vector","element":{"kind":"struct","name":"tree"}})"));
}

TEST_F(fixture_model, enums_carry_storage_and_values) {
  const json& priority = enumeration("priority");
  EXPECT_EQ(priority["storage"], "int32");
  EXPECT_EQ(priority["doc"], "Stored as its value.");
  ASSERT_EQ(priority["values"].size(), 3U);
  EXPECT_EQ(priority["values"][1]["name"], "normal");
  EXPECT_EQ(priority["values"][1]["value"], 5);

  const json& color = enumeration("legacy_color");  // unscoped, negative and wide values
  EXPECT_EQ(color["storage"], "int32");
  EXPECT_EQ(color["values"][0]["value"], -1);
  EXPECT_EQ(color["values"][2]["value"], 70000);

  const json& state = enumeration("state");
  EXPECT_EQ(state["storage"], "string");
  EXPECT_EQ(state["values"][0]["bson_name"], "pending");
  EXPECT_EQ(state["values"][1]["bson_name"], "SHIPPED");

  EXPECT_EQ(type_of("options", "level"), json::parse(R"({"kind":"enum","name":"priority"})"));
  EXPECT_EQ(type_of("options", "history"),
            json::parse(R"({"kind":"vector","element":{"kind":"enum","name":"state"}})"));
  // Enums in declaration order.
  EXPECT_EQ(model_["enums"][0]["name"], "priority");
  EXPECT_EQ(model_["enums"][2]["name"], "state");
}

TEST_F(fixture_model, member_markers_set_key_required_and_omit_empty) {
  const json& id = field("options", "id");
  EXPECT_EQ(id["key"], "_id");
  EXPECT_EQ(id["doc"], "The primary key.");
  EXPECT_EQ(id["location"]["line"], line_of("BSONGEN_KEY(\"_id\") bsongen::object_id id;"));
  EXPECT_EQ(field("options", "name")["required"], true);
  EXPECT_EQ(field("options", "id")["required"], false);
  EXPECT_EQ(field("options", "notes")["omit_empty"], true);
  EXPECT_EQ(field("options", "short_key")["key"], "n");
  EXPECT_EQ(field("options", "short_key")["omit_empty"], true);
}

TEST_F(fixture_model, ignored_and_static_members_are_not_fields) {
  std::vector<std::string> names;
  for (const auto& f : structure("options")["fields"]) names.push_back(f["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{"id", "name", "notes", "short_key", "level", "color",
                                             "status", "history"}));
}

TEST_F(fixture_model, struct_markers_set_policies) {
  EXPECT_EQ(structure("containers")["unknown_fields"], "reject");
  EXPECT_EQ(structure("containers")["duplicate_keys"], "reject");
  EXPECT_EQ(structure("scalars")["unknown_fields"], "skip");
  EXPECT_EQ(structure("scalars")["duplicate_keys"], "last_wins");
  EXPECT_EQ(structure("scalars")["capture_member"], nullptr);
  // The capture member receives unknown elements and is not a field itself.
  EXPECT_EQ(structure("open_document")["unknown_fields"], "capture");
  EXPECT_EQ(structure("open_document")["capture_member"], "rest");
  EXPECT_EQ(structure("open_document")["fields"].size(), 1U);
}

// --- Headers as applications write them: tests/scanner/data/realworld_fixture/realworld/. ---

class realworld_model : public scanned_model<realworld_model> {
 protected:
  static void SetUpTestSuite() {
    const std::filesystem::path fixture = data_dir / "realworld_fixture";
    scan("realworld_model", fixture / "realworld" / "model.hpp", fixture);
  }
  // Each field's name and whether the struct sets its initial value.
  static std::vector<std::pair<std::string, bool>> struct_defaults(std::string_view name) {
    std::vector<std::pair<std::string, bool>> out;
    for (const auto& f : structure(name)["fields"])
      out.emplace_back(f["name"], f["struct_default"]);
    return out;
  }
};

TEST_F(realworld_model, an_inline_namespace_is_part_of_the_model_namespace) {
  // Spelled as user code may spell it; the generated code names corp::rw::v2::reading.
  EXPECT_EQ(model_["namespace"], "corp::rw::v2");
  EXPECT_EQ(model_["includes"], json::array({"realworld/model.hpp"}));
}

TEST_F(realworld_model, struct_default_marks_members_the_struct_initializes) {
  EXPECT_EQ(struct_defaults("geo_point"), (std::vector<std::pair<std::string, bool>>{
                                              {"lat", false}, {"lon", false}, {"label", false}}));
  for (const auto& [name, from_struct] : struct_defaults("reading"))
    EXPECT_FALSE(from_struct) << name;
  // Every member with an initializer; `plain` has none.
  for (const auto& [name, from_struct] : struct_defaults("settings"))
    EXPECT_EQ(from_struct, name != "plain") << name;
  // A user-provided default constructor may set any member.
  for (const auto& [name, from_struct] : struct_defaults("account"))
    EXPECT_TRUE(from_struct) << name;
}

TEST_F(realworld_model, static_ignored_and_private_ignored_members_are_not_fields) {
  std::vector<std::string> names;
  for (const auto& f : structure("account")["fields"]) names.push_back(f["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{"balance", "owner", "rates"}));
  EXPECT_EQ(structure("settings")["fields"].size(), 12U);  // no `version`, `instances`
}

TEST_F(realworld_model, aliases_resolve_to_their_types) {
  EXPECT_EQ(type_of("settings", "tags"),
            json::parse(R"({"kind":"vector","element":{"kind":"string"}})"));
  EXPECT_EQ(type_of("settings", "limits"),
            json::parse(R"({"kind":"map","element":{"kind":"int64"}})"));
  EXPECT_EQ(type_of("settings", "threshold"), json::parse(R"({"kind":"double"})"));
  EXPECT_EQ(type_of("reading", "where"), json::parse(R"({"kind":"struct","name":"geo_point"})"));
  EXPECT_EQ(type_of("odd", "roots"),
            json::parse(R"({"kind":"vector","element":{"kind":"struct","name":"category"}})"));
  EXPECT_EQ(type_of("reading", "at_s32"), json::parse(R"({"kind":"datetime",
      "cpp":"std::chrono::time_point<std::chrono::system_clock, std::chrono::duration<int, std::ratio<1, 1>>>"})"));
}

TEST_F(realworld_model, a_typedef_names_an_unnamed_enum) {
  EXPECT_EQ(type_of("switches", "mode"), json::parse(R"({"kind":"enum","name":"switch_mode"})"));
  for (const auto& e : model_["enums"]) {
    if (e["name"] == "switch_mode") {
      EXPECT_EQ(e["values"].size(), 2U);
      return;
    }
  }
  ADD_FAILURE() << "no enum switch_mode";
}

TEST_F(realworld_model, enum_aliases_appear_once_under_their_first_name) {
  for (const auto& e : model_["enums"]) {
    if (e["name"] != "level") continue;
    ASSERT_EQ(e["values"].size(), 2U);
    EXPECT_EQ(e["values"][0]["name"], "lowest");
    EXPECT_EQ(e["values"][1]["name"], "high");
    EXPECT_EQ(e["values"][1]["value"], 3);
    return;
  }
  ADD_FAILURE() << "no enum level";
}

TEST_F(realworld_model, macro_members_point_at_their_use) {
  for (const auto& f : structure("odd")["fields"]) {
    if (f["name"] != "from_macro") continue;
    const std::string source =
        read_text(data_dir / "realworld_fixture" / "realworld" / "model.hpp");
    const auto at = source.find("RW_FIELD(int, from_macro)");
    ASSERT_NE(at, std::string::npos);
    EXPECT_EQ(f["location"]["line"],
              1 + std::count(source.begin(), source.begin() + static_cast<long>(at), '\n'));
    return;
  }
  ADD_FAILURE() << "no field odd.from_macro";
}

// --- Structs written for std::pmr: tests/scanner/data/scan_fixture/pmr_members.hpp. ---

class pmr_model : public scanned_model<pmr_model> {
 protected:
  static void SetUpTestSuite() {
    scan("pmr_model", data_dir / "scan_fixture" / "pmr_members.hpp", data_dir);
  }
};

TEST_F(pmr_model, polymorphic_allocator_members_keep_their_kinds_spelled_with_std_pmr) {
  EXPECT_EQ(type_of("pmr_reading", "name"),
            json::parse(R"({"kind":"string","cpp":"std::pmr::string"})"));
  EXPECT_EQ(type_of("pmr_reading", "tags"), json::parse(R"({"kind":"vector",
      "cpp":"std::pmr::vector<std::pmr::string>",
      "element":{"kind":"string","cpp":"std::pmr::string"}})"));
  EXPECT_EQ(type_of("pmr_reading", "samples"), json::parse(R"({"kind":"vector",
      "cpp":"std::pmr::vector<scan_fixture::pmr_sample>",
      "element":{"kind":"struct","name":"pmr_sample"}})"));
  EXPECT_EQ(type_of("pmr_reading", "labels"), json::parse(R"({"kind":"map",
      "cpp":"std::pmr::map<std::pmr::string, std::int64_t>","element":{"kind":"int64"}})"));
  EXPECT_EQ(type_of("pmr_reading", "by_name"), json::parse(R"({"kind":"map",
      "cpp":"std::pmr::unordered_map<std::pmr::string, scan_fixture::pmr_sample>",
      "element":{"kind":"struct","name":"pmr_sample"}})"));
  EXPECT_EQ(type_of("pmr_reading", "ordered"), json::parse(R"({"kind":"map",
      "cpp":"std::pmr::vector<std::pair<std::pmr::string, std::pmr::string>>",
      "element":{"kind":"string","cpp":"std::pmr::string"}})"));
  EXPECT_EQ(type_of("pmr_reading", "note"), json::parse(R"({"kind":"optional",
      "element":{"kind":"string","cpp":"std::pmr::string"}})"));
}

TEST_F(pmr_model, bsongen_pmr_value_types_map_to_their_kinds) {
  EXPECT_EQ(type_of("pmr_reading", "blob"),
            json::parse(R"({"kind":"binary","cpp":"bsongen::pmr::binary"})"));
  EXPECT_EQ(type_of("pmr_reading", "filter"),
            json::parse(R"({"kind":"regex","cpp":"bsongen::pmr::regex"})"));
  EXPECT_EQ(type_of("pmr_reading", "shape"),
            json::parse(R"({"kind":"raw_document","cpp":"bsongen::pmr::raw_document"})"));
  // BSONGEN_AS takes the kind's std::pmr spelling as it takes its default one.
  EXPECT_EQ(type_of("pmr_reading", "script"),
            json::parse(R"({"kind":"javascript","cpp":"std::pmr::string"})"));
  EXPECT_EQ(type_of("std_reading", "script"), json::parse(R"({"kind":"javascript"})"));
  // The capture member may be the std::pmr raw document too.
  EXPECT_EQ(structure("pmr_reading")["unknown_fields"], "capture");
  EXPECT_EQ(structure("pmr_reading")["capture_member"], "extra");
}

TEST_F(pmr_model, the_default_spellings_beside_them_stay_without_cpp) {
  EXPECT_EQ(type_of("std_reading", "name"), json::parse(R"({"kind":"string"})"));
  EXPECT_EQ(type_of("std_reading", "labels"),
            json::parse(R"({"kind":"map","element":{"kind":"int64"}})"));
  EXPECT_EQ(type_of("std_reading", "blob"), json::parse(R"({"kind":"binary"})"));
}

TEST(scan_warning, enum_member_that_starts_at_no_enumerator_warns_but_scans) {
  scratch_dir dir;
  write_text(dir.path() / "case.hpp",
             "#include <bsongen/annotate.hpp>\n"
             "#include <optional>\n"
             "enum class status { active = 1, closed = 2 };\n"
             "struct BSONGEN_DOCUMENT doc {\n"
             "  status bare;\n"
             "  status initialized = status::active;\n"
             "  BSONGEN_REQUIRED status required;\n"
             "  std::optional<status> maybe;\n"
             "};\n");
  scan_output run =
      run_scan({"case.hpp", "-I", runtime_include_dir.string(), "-o", "model.json"}, dir.path());
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("case.hpp:5:10: warning: field 'bare' of 'doc' has no initializer and "
                         "enum 'status' has no enumerator for 0: a new 'doc', or one decoded from "
                         "a document without 'bare', holds 0 there, which encode refuses; give "
                         "the member an initializer or mark it BSONGEN_REQUIRED"),
            std::string::npos)
      << run.err;
  // Only `bare`: the others are initialized, required or optional.
  EXPECT_EQ(run.err.find("warning: field 'initialized'"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("warning: field 'required'"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.find("warning: field 'maybe'"), std::string::npos) << run.err;
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "model.json"));
}

TEST(scan_doc_comment, in_latin1_is_kept_with_replacement_characters) {
  // Old headers are often Latin-1; the model is JSON (UTF-8): the scan must not abort on them.
  scratch_dir dir;
  write_text(dir.path() / "case.hpp",
             "#include <bsongen/annotate.hpp>\n"
             "/// Copyright \xa9 2003 M\xfcller\n"
             "struct BSONGEN_DOCUMENT doc { int a = 0; };\n");
  scan_output run =
      run_scan({"case.hpp", "-I", runtime_include_dir.string(), "-o", "model.json"}, dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json model = json::parse(read_text(dir.path() / "model.json"));
  EXPECT_EQ(model["structs"][0]["doc"], "Copyright \xef\xbf\xbd 2003 M\xef\xbf\xbdller");
}

TEST(scan_missing_include, names_the_including_line) {
  scratch_dir dir;
  write_text(dir.path() / "case.hpp",
             "#include <bsongen/annotate.hpp>\n#include \"app/missing.hpp\"\n"
             "struct BSONGEN_DOCUMENT doc { int a; };\n");
  scan_output run =
      run_scan({"case.hpp", "-I", runtime_include_dir.string(), "-o", "model.json"}, dir.path());
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find("case.hpp:2:10: fatal error: 'app/missing.hpp' file not found"),
            std::string::npos)
      << run.err;
  EXPECT_NE(run.err.find("no model written"), std::string::npos) << run.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "model.json"));
}

// --- Errors: each case is a header with one problem; '@' marks where the error must point. ---

struct error_case {
  const char* name;
  const char* source;  // after a common preamble; '@' is removed and marks the expected location
  const char* message;
};

constexpr std::string_view preamble =
    "#include <bsongen/annotate.hpp>\n"
    "#include <bsongen/types.hpp>\n"
    "#include <cstdint>\n"
    "#include <map>\n"
    "#include <optional>\n"
    "#include <set>\n"
    "#include <string>\n"
    "#include <vector>\n";

const error_case error_cases[] = {
    {"unsupported_std_type", "namespace app { struct BSONGEN_DOCUMENT doc { std::set<int> @s; }; }",
     "field 's' of 'app::doc' has unsupported type 'std::set<int>': std::set is not supported"},
    {"unsupported_element",
     "namespace app { struct BSONGEN_DOCUMENT doc { std::vector<std::set<int>> @v; }; }",
     "field 'v' of 'app::doc' has unsupported type 'std::vector<std::set<int>>': in "
     "'std::set<int>': std::set is not supported"},
    {"uint64_through_alias",
     "namespace app { using big = std::uint64_t; struct BSONGEN_DOCUMENT doc { big @n; }; }",
     "field 'n' of 'app::doc' has unsupported type 'app::big' (aka 'unsigned long'): 64-bit "
     "unsigned integers have no lossless BSON type"},
    {"float", "struct BSONGEN_DOCUMENT doc { float @f; };",
     "field 'f' of 'doc' has unsupported type 'float': float would lose digits"},
    {"plain_char", "struct BSONGEN_DOCUMENT doc { char @c; };",
     "field 'c' of 'doc' has unsupported type 'char': plain char is ambiguous"},
    {"pointer", "struct BSONGEN_DOCUMENT doc { int* @p; };",
     "field 'p' of 'doc' has unsupported type 'int *': pointers are not supported"},
    {"c_array", "struct BSONGEN_DOCUMENT doc { int @a[3]; };",
     "field 'a' of 'doc' has unsupported type 'int[3]': C arrays are not supported"},
    {"unmarked_struct", "struct point { int x; };\nstruct BSONGEN_DOCUMENT doc { point @p; };",
     "field 'p' of 'doc' has unsupported type 'point': 'point' is not marked BSONGEN_DOCUMENT"},
    {"optional_inside_a_container",
     "struct BSONGEN_DOCUMENT doc { std::vector<std::optional<int>> @v; };",
     "field 'v' of 'doc' has unsupported type 'std::vector<std::optional<int>>': in "
     "'std::optional<int>': std::optional is only allowed as a member's outermost type"},
    {"empty_std_array", "#include <array>\nstruct BSONGEN_DOCUMENT doc { std::array<int, 0> @a; };",
     "field 'a' of 'doc' has unsupported type 'std::array<int, 0>': std::array needs a size from 1 "
     "to 65536"},
    {"map_with_integer_keys", "struct BSONGEN_DOCUMENT doc { std::map<int, int> @m; };",
     "field 'm' of 'doc' has unsupported type 'std::map<int, int>': map keys must be std::string"},
    {"private_member",
     "class BSONGEN_DOCUMENT doc {\n public:\n  int a;\n private:\n  std::string @secret;\n};",
     "field 'secret' of 'doc' (type 'std::string' (aka 'basic_string<char>')) is private: "
     "generated code cannot reach it"},
    {"protected_member", "struct BSONGEN_DOCUMENT doc {\n protected:\n  int @p;\n};",
     "field 'p' of 'doc' (type 'int') is protected"},
    {"const_member", "struct BSONGEN_DOCUMENT doc { const int @c = 1; };",
     "field 'c' of 'doc' (type 'const int') is const"},
    {"bit_field", "struct BSONGEN_DOCUMENT doc { int @b : 3; };",
     "field 'b' of 'doc' (type 'int') is a bit-field"},
    {"base_class", "struct base { int x; };\nstruct BSONGEN_DOCUMENT doc : @base { int y; };",
     "BSONGEN_DOCUMENT 'doc' has a base class"},
    // The schema rules, which the generator's linker checks (the scan writes the model).
    {"required_optional",
     "struct BSONGEN_DOCUMENT doc { BSONGEN_REQUIRED std::optional<int> @o; };",
     "field `o` is optional and required at once"},
    {"omit_empty_on_integer", "struct BSONGEN_DOCUMENT doc { BSONGEN_OMIT_EMPTY int @n; };",
     "field `n`: omit_empty needs a type that can be empty (string, javascript, binary, "
     "raw_document, vector, map, binary_vector without a fixed dimension), not `int32`"},
    {"duplicate_key", "struct BSONGEN_DOCUMENT doc { int a;\n  BSONGEN_KEY(\"a\") int @b; };",
     "struct `doc`: duplicate key `a`"},
    {"empty_key", "struct BSONGEN_DOCUMENT doc { @BSONGEN_KEY(\"\") int a; };",
     "field `a`: key '' must be a non-empty string without NUL"},
    {"nul_in_key", "struct BSONGEN_DOCUMENT doc { @BSONGEN_KEY(\"a\\0b\") int a; };",
     "field `a`: key 'a\\x00b' must be a non-empty string without NUL"},
    {"enum_value_outside_int32",
     "enum class big : long { @huge = 5000000000 };\nstruct BSONGEN_DOCUMENT doc { big b; };",
     "enumerator `huge`: 5000000000 does not fit in int32"},
    {"capture_member_not_raw_document",
     "struct BSONGEN_DOCUMENT doc { BSONGEN_CAPTURE_UNKNOWN std::string @rest; };",
     "BSONGEN_CAPTURE_UNKNOWN field 'rest' of 'doc' has type 'std::string' (aka "
     "'basic_string<char>'); it must be bsongen::raw_document or bsongen::pmr::raw_document"},
    {"bad_unknown_fields_policy",
     "struct BSONGEN_DOCUMENT @BSONGEN_UNKNOWN_FIELDS(ignore) doc { int a; };",
     "BSONGEN_UNKNOWN_FIELDS(ignore) on 'doc': expected skip or reject"},
    {"marker_given_twice",
     "struct BSONGEN_DOCUMENT doc { BSONGEN_KEY(\"a\") @BSONGEN_KEY(\"b\") int x; };",
     "marker 'bsongen:key' is given twice"},
    {"enum_nested_in_a_class", "struct BSONGEN_DOCUMENT doc { enum class @kind { a }; kind k; };",
     "enum 'doc::kind' must be declared at namespace scope"},
    {"uuid_on_wrong_type", "struct BSONGEN_DOCUMENT doc { BSONGEN_AS(uuid) std::vector<int> @u; };",
     "field 'u' of 'doc' has unsupported type 'std::vector<int>': BSONGEN_AS(uuid) needs a "
     "std::array<std::uint8_t, 16> member"},
    {"javascript_on_wrong_type", "struct BSONGEN_DOCUMENT doc { BSONGEN_AS(javascript) int @j; };",
     "field 'j' of 'doc' has unsupported type 'int': BSONGEN_AS(javascript) needs a std::string "
     "or std::pmr::string member"},
    {"float_vector_without_the_marker", "struct BSONGEN_DOCUMENT doc { std::vector<float> @v; };",
     "field 'v' of 'doc' has unsupported type 'std::vector<float>': in 'float': float would lose "
     "digits decoding a BSON double; use double"},
    {"binary_vector_on_wrong_type",
     "struct BSONGEN_DOCUMENT doc { BSONGEN_AS(binary_vector) std::vector<double> @v; };",
     "field 'v' of 'doc' has unsupported type 'std::vector<double>': BSONGEN_AS(binary_vector) "
     "needs a std::vector or std::pmr::vector of float or std::int8_t, a std::array of them (a "
     "fixed dimension), or bsongen::packed_bits"},
    {"binary_vector_on_unsigned_bytes",
     "struct BSONGEN_DOCUMENT doc { BSONGEN_AS(binary_vector) std::vector<std::uint8_t> @v; };",
     "field 'v' of 'doc' has unsupported type 'std::vector<std::uint8_t>' (aka "
     "'vector<unsigned char>'): BSONGEN_AS(binary_vector) needs a std::vector or std::pmr::vector "
     "of float or std::int8_t"},
    {"omit_empty_on_a_fixed_dimension",
     "struct BSONGEN_DOCUMENT doc { BSONGEN_AS(binary_vector) BSONGEN_OMIT_EMPTY "
     "std::array<float, 2> @v; };",
     "field `v`: omit_empty needs a type that can be empty (string, javascript, binary, "
     "raw_document, vector, map, binary_vector without a fixed dimension), not "
     "`binary_vector<float32, 2>`"},
    {"document_nested_in_a_class", "struct outer { struct BSONGEN_DOCUMENT @inner { int a; }; };",
     "document 'outer::inner' must be declared at namespace scope"},
    {"class_template_document", "template <class T> struct BSONGEN_DOCUMENT @box { T value; };",
     "class template 'box' cannot be a BSONGEN_DOCUMENT"},
    {"documents_in_two_namespaces",
     "namespace a { struct BSONGEN_DOCUMENT one { int x; }; }\n"
     "namespace b { struct BSONGEN_DOCUMENT @two { int y; }; }",
     "document 'b::two' is in namespace 'b' but the model's namespace is 'a'"},
    {"enum_from_another_namespace",
     "namespace lib { enum class @kind { a, b }; }\n"
     "namespace app { struct BSONGEN_DOCUMENT doc { lib::kind k; }; }",
     "enum 'lib::kind' is in namespace 'lib' but the model's namespace is 'app'"},
    {"bson_name_on_int_enum",
     "enum class kind { a @BSONGEN_BSON_NAME(\"A\") };\nstruct BSONGEN_DOCUMENT doc { kind k; };",
     "BSONGEN_BSON_NAME on 'a' needs the enum 'kind' marked BSONGEN_ENUM_AS_STRING"},
    {"syntax_error", "struct BSONGEN_DOCUMENT doc { int a@ }; ",
     "expected ';' at end of declaration list"},
    // What application headers hold.
    {"not_default_constructible",
     "struct BSONGEN_DOCUMENT @doc { explicit doc(int v) : a(v) {} int a; };",
     "BSONGEN_DOCUMENT 'doc' is not default-constructible: it has no constructor callable without "
     "arguments; decoding creates it as 'doc()' before reading the fields, so give it a public "
     "default constructor"},
    {"deleted_default_constructor", "struct BSONGEN_DOCUMENT doc { @doc() = delete; int a; };",
     "BSONGEN_DOCUMENT 'doc' is not default-constructible: its default constructor is deleted"},
    {"private_default_constructor",
     "class BSONGEN_DOCUMENT doc { @doc() = default;\n public:\n  int a; };",
     "BSONGEN_DOCUMENT 'doc' is not default-constructible: its default constructor is not public"},
    {"ignored_member_without_default",
     "struct BSONGEN_DOCUMENT @doc { int a; BSONGEN_IGNORE const int k; };",
     "BSONGEN_DOCUMENT 'doc' is not default-constructible: its implicit default constructor is "
     "deleted (a member cannot be default-constructed)"},
    {"private_destructor", "struct BSONGEN_DOCUMENT doc { int a;\n private:\n  @~doc(); };",
     "BSONGEN_DOCUMENT 'doc' has a deleted or non-public destructor"},
    {"floating_point_time_point",
     "#include <chrono>\nstruct BSONGEN_DOCUMENT doc { std::chrono::time_point<std::chrono::"
     "system_clock, std::chrono::duration<double>> @t; };",
     "field 't' of 'doc' has unsupported type 'std::chrono::time_point<std::chrono::system_clock, "
     "std::chrono::duration<double>>': a time point must count ticks in an integer type"},
    {"steady_clock",
     "#include <chrono>\nstruct BSONGEN_DOCUMENT doc { std::chrono::steady_clock::time_point @t; "
     "};",
     "field 't' of 'doc' has unsupported type 'std::chrono::steady_clock::time_point' (aka "
     "'time_point<std::chrono::steady_clock, duration<long, ratio<1, 1000000000>>>'): only time "
     "points of std::chrono::system_clock map to a BSON datetime"},
    {"duration", "#include <chrono>\nstruct BSONGEN_DOCUMENT doc { std::chrono::seconds @d; };",
     "field 'd' of 'doc' has unsupported type 'std::chrono::seconds' (aka 'duration<long>'): "
     "std::chrono::duration is not supported"},
    {"char_array", "struct BSONGEN_DOCUMENT doc { char @name[16]; };",
     "field 'name' of 'doc' has unsupported type 'char[16]': C arrays are not supported; use "
     "std::string for text"},
    {"reference", "struct BSONGEN_DOCUMENT doc { const std::string& @r; };",
     "field 'r' of 'doc' has unsupported type 'const std::string &' (aka 'const "
     "basic_string<char> &'): references are not supported"},
    {"std_list", "#include <list>\nstruct BSONGEN_DOCUMENT doc { std::list<int> @l; };",
     "field 'l' of 'doc' has unsupported type 'std::list<int>': std::list is not supported"},
    {"std_variant",
     "#include <variant>\nstruct BSONGEN_DOCUMENT doc { std::variant<int, double> @v; };",
     "field 'v' of 'doc' has unsupported type 'std::variant<int, double>': std::variant is not "
     "supported"},
    {"std_unique_ptr",
     "#include <memory>\nstruct BSONGEN_DOCUMENT doc { std::unique_ptr<std::string> @u; };",
     "field 'u' of 'doc' has unsupported type 'std::unique_ptr<std::string>' (aka "
     "'unique_ptr<basic_string<char>>'): std::unique_ptr is not supported"},
    {"std_pair", "struct BSONGEN_DOCUMENT doc { std::pair<int, int> @p; };",
     "field 'p' of 'doc' has unsupported type 'std::pair<int, int>': std::pair is not supported"},
    {"vector_of_pair_with_int_keys",
     "struct BSONGEN_DOCUMENT doc { std::vector<std::pair<int, double>> @p; };",
     "field 'p' of 'doc' has unsupported type 'std::vector<std::pair<int, double>>': a std::vector "
     "of std::pair is a map: its keys must be std::string or std::pmr::string (BSON keys are "
     "strings)"},
    {"vector_with_another_allocator",
     "template <class T> struct pool : std::allocator<T> {\n"
     "  template <class U> struct rebind { using other = pool<U>; };\n};\n"
     "struct BSONGEN_DOCUMENT doc { std::vector<int, pool<int>> @v; };",
     "field 'v' of 'doc' has unsupported type 'std::vector<int, pool<int>>': std::vector with an "
     "allocator other than std::allocator or std::pmr::polymorphic_allocator is not supported"},
    {"string_with_another_allocator",
     "template <class T> struct pool : std::allocator<T> {\n"
     "  template <class U> struct rebind { using other = pool<U>; };\n};\n"
     "struct BSONGEN_DOCUMENT doc {\n"
     "  std::basic_string<char, std::char_traits<char>, pool<char>> @s; };",
     "field 's' of 'doc' has unsupported type 'std::basic_string<char, std::char_traits<char>, "
     "pool<char>>': only std::string and std::pmr::string (char, the default traits) are "
     "supported"},
    {"pmr_map_with_int_keys",
     "#include <memory_resource>\n"
     "struct BSONGEN_DOCUMENT doc { std::pmr::map<int, double> @m; };",
     "field 'm' of 'doc' has unsupported type 'std::pmr::map<int, double>' (aka 'map<int, double, "
     "std::less<int>, polymorphic_allocator<pair<const int, double>>>'): map keys must be "
     "std::string or std::pmr::string (BSON keys are strings)"},
    {"unmarked_class_template",
     "template <class T> struct point { T x; };\nstruct BSONGEN_DOCUMENT doc { point<int> @p; };",
     "field 'p' of 'doc' has unsupported type 'point<int>': 'point' is not marked "
     "BSONGEN_DOCUMENT"},
    {"size_t", "struct BSONGEN_DOCUMENT doc { std::size_t @n; };",
     "field 'n' of 'doc' has unsupported type 'std::size_t' (aka 'unsigned long'): 64-bit "
     "unsigned integers have no lossless BSON type; use std::int64_t"},
    {"unmarked_nested_struct",
     "struct BSONGEN_DOCUMENT doc { struct inner { int a; };\n  inner @i; };",
     "field 'i' of 'doc' has unsupported type 'doc::inner': 'doc::inner' is not marked "
     "BSONGEN_DOCUMENT"},
    {"union_member",
     "union number { int i; double d; };\nstruct BSONGEN_DOCUMENT doc { number @n; };",
     "field 'n' of 'doc' has unsupported type 'number': 'number' is not marked BSONGEN_DOCUMENT"},
    {"document_only_declared",
     "struct BSONGEN_DOCUMENT later;\nstruct BSONGEN_DOCUMENT doc { std::vector<later> @l; };",
     "field 'l' of 'doc' has unsupported type 'std::vector<later>': in 'later': the struct is "
     "declared but not defined"},
    {"document_in_anonymous_namespace", "namespace { struct BSONGEN_DOCUMENT @doc { int a; }; }",
     "document '(anonymous namespace)::doc' must be declared at namespace scope (not in a class, "
     "function or anonymous namespace)"},
    {"unnamed_typedef_struct", "typedef @struct BSONGEN_DOCUMENT { int a; } doc;",
     "a BSONGEN_DOCUMENT struct needs a name"},
    {"string_enum_alias",
     "enum class BSONGEN_ENUM_AS_STRING kind { a = 1, @b = 1 };\n"
     "struct BSONGEN_DOCUMENT doc { kind k; };",
     "enumerator 'b' of 'kind' has the value of 'a' (1): an enum stored as a string "
     "(BSONGEN_ENUM_AS_STRING) needs one enumerator per value"},
    {"key_not_utf8", "struct BSONGEN_DOCUMENT doc { @BSONGEN_KEY(\"caf\\xe9\") int a; };",
     "BSON key of field 'a' of 'doc' is not valid UTF-8 (BSON keys are UTF-8): save the header as "
     "UTF-8 or spell the key with \\u escapes"},
    {"bson_name_not_utf8",
     "enum class BSONGEN_ENUM_AS_STRING kind { a @BSONGEN_BSON_NAME(\"\\xff\") };\n"
     "struct BSONGEN_DOCUMENT doc { kind k; };",
     "BSONGEN_BSON_NAME of 'a' of 'kind' is not valid UTF-8"},
    {"unnamed_enum_member", "struct BSONGEN_DOCUMENT doc { enum { x, y } @e; };",
     "field 'e' of 'doc' has unsupported type 'enum (unnamed enum at case.hpp:9:31)': an enum "
     "without a name cannot be named in the model; name it"},
};

// Names the case in ctest's listing instead of printing its bytes.
void PrintTo(const error_case& c, std::ostream* out) { *out << c.name; }

class scan_error : public ::testing::TestWithParam<error_case> {};

// Through the pipeline a build runs (scan, then generate): the scanner's own errors stop the scan,
// the schema rules stop the generator; either way at the same file:line:col, and no code is
// written.
TEST_P(scan_error, is_reported_at_its_location_and_fails_the_pipeline) {
  const error_case& c = GetParam();
  std::string body = c.source;
  const auto marker = body.find('@');
  ASSERT_NE(marker, std::string::npos) << "case without '@'";
  body.erase(marker, 1);
  const std::string before = std::string(preamble) + body.substr(0, marker);
  const auto line = 1 + std::count(before.begin(), before.end(), '\n');
  const auto column = before.size() - (before.rfind('\n') + 1) + 1;

  scratch_dir dir;
  write_text(dir.path() / "case.hpp", std::string(preamble) + body + "\n");
  scan_output run = run_pipeline({"case.hpp", "-I", runtime_include_dir.string()}, dir.path());
  EXPECT_EQ(run.exit_code, 1) << run.err;
  const std::string expected =
      "case.hpp:" + std::to_string(line) + ":" + std::to_string(column) + ": error: " + c.message;
  EXPECT_NE(run.err.find(expected), std::string::npos) << "expected: " << expected << "\nstderr:\n"
                                                       << run.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / pipeline_output / "case.bsongen.hpp"));
}

// The scanner's own errors stop it before any model is written.
TEST(scan_error_alone, writes_no_model) {
  scratch_dir dir;
  write_text(dir.path() / "case.hpp",
             std::string(preamble) + "struct BSONGEN_DOCUMENT doc { std::set<int> s; };\n");
  scan_output run =
      run_scan({"case.hpp", "-I", runtime_include_dir.string(), "-o", "model.json"}, dir.path());
  EXPECT_EQ(run.exit_code, 1) << run.err;
  EXPECT_NE(run.err.find("1 error; no model written"), std::string::npos) << run.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "model.json"));
}

INSTANTIATE_TEST_SUITE_P(cases, scan_error, ::testing::ValuesIn(error_cases),
                         [](const ::testing::TestParamInfo<error_case>& param_info) {
                           return std::string(param_info.param.name);
                         });

}  // namespace
}  // namespace bsongen::scan_test
