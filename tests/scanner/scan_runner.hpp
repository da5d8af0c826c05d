#pragma once

// Runs the real bsongen-scan binary (built by this project) the way a build does, alone or followed
// by the generator, and captures the exit status, stderr and the model written. Shared by the
// scanner's tests.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace bsongen::scan_test {

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_text(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

// A directory of its own for the running test, removed afterwards.
class scratch_dir {
 public:
  // Named after the running test, or `name` outside of one (SetUpTestSuite).
  explicit scratch_dir(std::string name = {}) {
    if (name.empty()) {
      const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
      name = std::string(info->test_suite_name()) + "." + info->name();
    }
    for (char& c : name)
      if (c == '/') c = '_';
    path_ = std::filesystem::temp_directory_path() /
            ("bsongen_scan_" + std::to_string(::getpid()) + "_" + name);
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~scratch_dir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  scratch_dir(const scratch_dir&) = delete;
  scratch_dir& operator=(const scratch_dir&) = delete;
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

struct scan_output {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string shell_quote(const std::string& arg) {
  std::string quoted = "'";
  for (char c : arg) {
    if (c == '\'')
      quoted += "'\\''";
    else
      quoted += c;
  }
  return quoted + "'";
}

// Runs `program` with `args` in `work_dir`.
inline scan_output run_program(const std::string& program, const std::vector<std::string>& args,
                               const std::filesystem::path& work_dir) {
  const std::filesystem::path out_file = work_dir / "scan.stdout";
  const std::filesystem::path err_file = work_dir / "scan.stderr";
  // Built by appending: g++ 12 -O3 warns falsely (-Wrestrict) on `"literal" + std::string&&`.
  std::string command = "cd ";
  command += shell_quote(work_dir.string());
  command += " && ";
  command += shell_quote(program);
  for (const auto& arg : args) {
    command += ' ';
    command += shell_quote(arg);
  }
  command += " >";
  command += shell_quote(out_file.string());
  command += " 2>";
  command += shell_quote(err_file.string());
  const int status = std::system(command.c_str());
  scan_output result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = read_text(out_file);
  result.err = read_text(err_file);
  return result;
}

// Runs bsongen-scan with `args` in `work_dir`.
inline scan_output run_scan(const std::vector<std::string>& args,
                            const std::filesystem::path& work_dir) {
  return run_program(BSONGEN_SCAN_EXECUTABLE, args, work_dir);
}

// The model file and the generated code's folder run_pipeline writes in its work_dir.
inline constexpr const char* pipeline_model = "pipeline.model.json";
inline constexpr const char* pipeline_output = "generated";

// What bsongen_generate(HEADERS) runs: bsongen-scan with `args` writes the model
// (pipeline_model), then `bsongen generate --model` links it, checking the schema rules the
// scanner leaves to the generator, and renders it (into pipeline_output). The exit status is the
// first failing step's (the generator's when the scan succeeded); stderr is both steps'.
inline scan_output run_pipeline(std::vector<std::string> args,
                                const std::filesystem::path& work_dir) {
  args.insert(args.end(), {"-o", pipeline_model});
  scan_output scanned = run_scan(args, work_dir);
  if (scanned.exit_code != 0) return scanned;
  scan_output generated = run_program(BSONGEN_PYTHON,
                                      {BSONGEN_GENERATOR, "generate", "--model", pipeline_model,
                                       "--out", pipeline_output, "--format", "never"},
                                      work_dir);
  generated.err = scanned.err + generated.err;
  return generated;
}

inline const std::filesystem::path data_dir{BSONGEN_SCAN_TEST_DATA};
inline const std::filesystem::path runtime_include_dir{BSONGEN_RUNTIME_INCLUDE_DIR};

}  // namespace bsongen::scan_test
