// bsongen-scan's command line (main.cpp): flags and @files, the depfile a build uses to rescan,
// the include spelling in the model, and the exit status of every way a run can fail.

#include <gtest/gtest.h>

#include <string>

#include "scan_runner.hpp"

namespace bsongen::scan_test {
namespace {

using nlohmann::json;

constexpr const char* document_header =
    "#pragma once\n"
    "#include <bsongen/annotate.hpp>\n"
    "#include \"app/part.hpp\"\n"
    "namespace app {\n"
    "struct BSONGEN_DOCUMENT doc {\n"
    "#ifdef APP_WITH_EXTRA\n"
    "  int extra = 0;\n"
    "#endif\n"
    "  part p;\n"
    "};\n"
    "}  // namespace app\n";
constexpr const char* part_header =
    "#pragma once\n"
    "#include <bsongen/annotate.hpp>\n"
    "#include <string>\n"
    "namespace app { struct BSONGEN_DOCUMENT part { std::string name; }; }\n";

// An include tree like a project's: src/app/doc.hpp includes "app/part.hpp" through -I src.
class scan_cli : public ::testing::Test {
 protected:
  void SetUp() override {
    write_text(dir_.path() / "src" / "app" / "doc.hpp", document_header);
    write_text(dir_.path() / "src" / "app" / "part.hpp", part_header);
  }
  scan_output scan(std::vector<std::string> extra) {
    std::vector<std::string> args = {"src/app/doc.hpp", "-I", "src", "-I",
                                     runtime_include_dir.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_scan(args, dir_.path());
  }
  json model(const std::string& name = "model.json") {
    return json::parse(read_text(dir_.path() / name));
  }
  scratch_dir dir_;
};

TEST_F(scan_cli, writes_the_model_named_after_the_header_and_spelled_as_included) {
  scan_output run = scan({"-o", "model.json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(run.err.empty()) << run.err;
  const json m = model();
  EXPECT_EQ(m["origin"]["path"], "src/app/doc.hpp");
  EXPECT_EQ(m["output_name"], "doc");
  EXPECT_EQ(m["includes"], json::array({"app/doc.hpp"}));
  EXPECT_EQ(m["structs"].size(), 2U);
  EXPECT_EQ(m["structs"][0]["location"]["file"], "src/app/part.hpp");
}

TEST_F(scan_cli, output_name_overrides_the_stem) {
  ASSERT_EQ(scan({"--output-name", "shapes", "-o", "model.json"}).exit_code, 0);
  EXPECT_EQ(model()["output_name"], "shapes");
  // The same with the long options' '=' forms.
  ASSERT_EQ(scan({"--output-name=forms", "--std=c++20", "-o", "model.json"}).exit_code, 0);
  EXPECT_EQ(model()["output_name"], "forms");
}

TEST_F(scan_cli, definitions_reach_the_preprocessor) {
  ASSERT_EQ(scan({"-o", "without.json"}).exit_code, 0);
  ASSERT_EQ(scan({"-DAPP_WITH_EXTRA", "-o", "with.json"}).exit_code, 0);
  EXPECT_EQ(model("without.json")["structs"][1]["fields"].size(), 1U);
  EXPECT_EQ(model("with.json")["structs"][1]["fields"].size(), 2U);
  EXPECT_EQ(model("with.json")["structs"][1]["fields"][0]["name"], "extra");
}

TEST_F(scan_cli, arguments_file_holds_one_argument_per_line) {
  write_text(dir_.path() / "with space" / "args.txt",
             "-I\nsrc\n-I" + runtime_include_dir.string() + "\n\n-D\nAPP_WITH_EXTRA\n");
  scan_output run =
      run_scan({"src/app/doc.hpp", "@with space/args.txt", "-o", "model.json"}, dir_.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(model()["structs"][1]["fields"].size(), 2U);
}

TEST_F(scan_cli, several_headers_make_one_model) {
  write_text(dir_.path() / "src" / "app" / "extra.hpp",
             "#pragma once\n#include <bsongen/annotate.hpp>\n#include \"app/doc.hpp\"\n"
             "namespace app { struct BSONGEN_DOCUMENT wrapper { doc inner; }; }\n");
  scan_output run = run_scan({"src/app/doc.hpp", "src/app/extra.hpp", "-I", "src", "-I",
                              runtime_include_dir.string(), "-o", "model.json"},
                             dir_.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json m = model();
  EXPECT_EQ(m["origin"]["path"], "src/app/doc.hpp, src/app/extra.hpp");
  EXPECT_EQ(m["output_name"], "doc");
  EXPECT_EQ(m["includes"], json::array({"app/doc.hpp", "app/extra.hpp"}));
  std::vector<std::string> names;
  for (const auto& s : m["structs"]) names.push_back(s["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{"part", "doc", "wrapper"}));
}

TEST_F(scan_cli, depfile_lists_every_header_the_parse_read) {
  ASSERT_EQ(scan({"-o", "model.json", "--depfile", "model.d"}).exit_code, 0);
  const std::string depfile = read_text(dir_.path() / "model.d");
  EXPECT_EQ(depfile.rfind("model.json:", 0), 0U) << depfile;
  const std::string root = std::filesystem::canonical(dir_.path()).string();
  EXPECT_NE(depfile.find(root + "/src/app/doc.hpp"), std::string::npos) << depfile;
  EXPECT_NE(depfile.find(root + "/src/app/part.hpp"), std::string::npos) << depfile;
  EXPECT_NE(depfile.find("/bsongen/annotate.hpp"), std::string::npos) << depfile;
  EXPECT_NE(depfile.find("/c++/"), std::string::npos) << "the standard library's <string>";
  EXPECT_EQ(depfile.find("bsongen-scan-input"), std::string::npos)
      << "the scanner's in-memory input is no file a build could check";
}

TEST_F(scan_cli, depfile_escapes_spaces_for_make_and_ninja) {
  write_text(dir_.path() / "my dir" / "one.hpp",
             "#include <bsongen/annotate.hpp>\nstruct BSONGEN_DOCUMENT one { int a; };\n");
  scan_output run = run_scan({"my dir/one.hpp", "-I", runtime_include_dir.string(), "-o",
                              "model.json", "--depfile", "model.d"},
                             dir_.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(read_text(dir_.path() / "model.d").find("/my\\ dir/one.hpp"), std::string::npos);
}

TEST_F(scan_cli, help_and_version_succeed) {
  scan_output help = run_scan({"--help"}, dir_.path());
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("usage: bsongen-scan HEADER..."), std::string::npos);
  scan_output version = run_scan({"--version"}, dir_.path());
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_NE(version.out.find("intermediate model 1"), std::string::npos);
}

TEST_F(scan_cli, command_line_mistakes_exit_with_2) {
  scan_output unknown = scan({"--frobnicate", "-o", "model.json"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("unknown option '--frobnicate'"), std::string::npos) << unknown.err;

  scan_output glued_long_option = scan({"--stdc++20", "-o", "model.json"});
  EXPECT_EQ(glued_long_option.exit_code, 2);
  EXPECT_NE(glued_long_option.err.find("unknown option '--stdc++20'"), std::string::npos);

  scan_output no_output = scan({});
  EXPECT_EQ(no_output.exit_code, 2);
  EXPECT_NE(no_output.err.find("-o MODEL.json is required"), std::string::npos) << no_output.err;

  scan_output missing_value = scan({"-o"});
  EXPECT_EQ(missing_value.exit_code, 2);
  EXPECT_NE(missing_value.err.find("-o needs a value"), std::string::npos) << missing_value.err;

  scan_output no_header = run_scan({"-o", "model.json"}, dir_.path());
  EXPECT_EQ(no_header.exit_code, 2);
  EXPECT_NE(no_header.err.find("no header to scan"), std::string::npos) << no_header.err;

  scan_output missing_header = run_scan({"nowhere.hpp", "-o", "model.json"}, dir_.path());
  EXPECT_EQ(missing_header.exit_code, 2);
  EXPECT_NE(missing_header.err.find("cannot read header 'nowhere.hpp'"), std::string::npos)
      << missing_header.err;

  scan_output missing_args_file = scan({"@nowhere.txt", "-o", "model.json"});
  EXPECT_EQ(missing_args_file.exit_code, 2);
  EXPECT_NE(missing_args_file.err.find("cannot read arguments file 'nowhere.txt'"),
            std::string::npos);
}

// A -D whose value starts with '-' is an empty definition that swallowed the next option (as a
// build writing empty generator-expression results used to do), not a macro name.
TEST_F(scan_cli, a_definition_that_looks_like_an_option_exits_with_2) {
  scan_output dash = scan({"-D", "-x", "-o", "model.json"});
  EXPECT_EQ(dash.exit_code, 2);
  EXPECT_NE(dash.err.find("-D needs NAME or NAME=VALUE, got '-x'"), std::string::npos) << dash.err;
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "model.json"));

  // The arguments file bsongen_generate(HEADERS) wrote for a target whose definitions were all
  // empty: the bare -D took "--std", and "c++20" was read as a header.
  write_text(dir_.path() / "empty-definitions.args", "-D\n--std\nc++20\n");
  scan_output bare = scan({"@empty-definitions.args", "-o", "model.json"});
  EXPECT_EQ(bare.exit_code, 2);
  EXPECT_NE(bare.err.find("got '--std'"), std::string::npos) << bare.err;
  EXPECT_EQ(bare.err.find("c++20"), std::string::npos) << bare.err;
  write_text(dir_.path() / "two-definitions.args", "-D\n-D\n--std\nc++20\n");
  scan_output two = scan({"@two-definitions.args", "-o", "model.json"});
  EXPECT_EQ(two.exit_code, 2);
  EXPECT_NE(two.err.find("got '-D'"), std::string::npos) << two.err;

  scan_output empty = scan({"-D", "", "-o", "model.json"});
  EXPECT_EQ(empty.exit_code, 2);
  EXPECT_NE(empty.err.find("-D needs NAME or NAME=VALUE, got nothing"), std::string::npos)
      << empty.err;
  scan_output no_name = scan({"-D=1", "-o", "model.json"});
  EXPECT_EQ(no_name.exit_code, 2);
  EXPECT_NE(no_name.err.find("got '=1'"), std::string::npos) << no_name.err;
  EXPECT_FALSE(std::filesystem::exists(dir_.path() / "model.json"));

  // Values may start with '-'; only the name may not.
  ASSERT_EQ(scan({"-D", "APP_WITH_EXTRA=-1", "-o", "model.json"}).exit_code, 0);
  EXPECT_EQ(model()["structs"][1]["fields"].size(), 2U);
}

TEST_F(scan_cli, unwritable_output_exits_with_2) {
  scan_output run = scan({"-o", "no/such/dir/model.json"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("cannot write 'no/such/dir/model.json'"), std::string::npos) << run.err;
}

TEST_F(scan_cli, a_header_without_documents_exits_with_1) {
  write_text(dir_.path() / "plain.hpp", "struct plain { int a; };\n");
  scan_output run = run_scan({"plain.hpp", "-o", "model.json"}, dir_.path());
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("no BSONGEN_DOCUMENT struct in the given headers"), std::string::npos)
      << run.err;
}

TEST_F(scan_cli, builtin_headers_come_from_the_resource_directory) {
  // <cstddef> reaches the compiler's own stddef.h, which lives in Clang's resource directory: the
  // baked-in default finds it; --resource-dir replaces it (here by one whose stddef.h fails).
  write_text(dir_.path() / "sized.hpp",
             "#include <cstddef>\n#include <bsongen/annotate.hpp>\n"
             "struct BSONGEN_DOCUMENT sized { int a; };\n");
  const std::vector<std::string> args = {"sized.hpp", "-I", runtime_include_dir.string(), "-o",
                                         "model.json"};
  scan_output with_default = run_scan(args, dir_.path());
  EXPECT_EQ(with_default.exit_code, 0) << with_default.err;

  write_text(dir_.path() / "fake-resource" / "include" / "stddef.h",
             "#error \"stddef.h of the fake resource directory\"\n");
  std::vector<std::string> replaced = args;
  replaced.push_back("--resource-dir");
  replaced.push_back((dir_.path() / "fake-resource").string());
  scan_output run = run_scan(replaced, dir_.path());
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("fake-resource/include/stddef.h:1:2: error: \"stddef.h of the fake "
                         "resource directory\""),
            std::string::npos)
      << run.err;
}

}  // namespace
}  // namespace bsongen::scan_test
