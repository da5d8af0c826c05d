// decimal128 against the official BSON corpus (decimal128-1.json .. decimal128-7.json).
//
// One test per corpus case, Decimal128Corpus.<file>/<section>/<index> (decimal128-3/valid/41), so
// ctest lists each. They are registered with ::testing::RegisterTest rather than TEST_P: a
// parameterized test's listing carries a "# GetParam() = ..." dump that CMake 3.25's
// gtest_discover_tests copies into the ctest name when the instantiation names its cases.
//
// Valid cases: the 16 bytes of canonical_bson convert to the canonical $numberDecimal string and
// back to the same bytes; the canonical and degenerate strings parse to those bits (to a value
// printing as the canonical string for `lossy` cases, whose bits the string cannot carry).
// parseErrors: the string is rejected, with error_code::inexact when the corpus says the value
// needs rounding (Inexact/Overflow) and error_code::invalid_value for bad syntax.
//
// A run of the whole binary ends with "decimal128 corpus: N passed, M failed", counting the cases
// executed; ctest's decimal128_corpus_test_summary checks that line.

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "bsongen/decimal128.hpp"
#include "hex.hpp"

namespace {

namespace fs = std::filesystem;

struct corpus_case {
  std::string name;  // decimal128-3/valid/41
  std::string description;
  bool parse_error = false;
  std::string canonical_bson_hex;  // valid cases
  std::string canonical_string;    // valid cases: the canonical $numberDecimal
  std::string degenerate_string;   // valid cases, when the corpus gives one
  bool has_degenerate = false;
  bool lossy = false;
  std::string parse_error_string;  // parseErrors
};

fs::path corpus_dir() { return fs::path(BSONGEN_CORPUS_DIR); }

std::string skip_message() {
  return "decimal128 corpus not found at " + corpus_dir().string() +
         " (set the BSONGEN_CORPUS_DIR CMake cache variable); skipping";
}

std::string number_decimal_of(const std::string& extjson) {
  return nlohmann::json::parse(extjson).at("d").at("$numberDecimal").get<std::string>();
}

std::vector<corpus_case> load_cases() {
  std::vector<corpus_case> cases;
  for (int file_number = 1; file_number <= 7; ++file_number) {
    const std::string stem = "decimal128-" + std::to_string(file_number);
    std::ifstream in(corpus_dir() / (stem + ".json"));
    if (!in) return {};  // an incomplete corpus counts as absent, never as a partial pass
    const nlohmann::json file = nlohmann::json::parse(in);
    const std::string prefix = stem + "/";
    if (file.contains("valid")) {
      std::size_t index = 0;
      for (const auto& entry : file.at("valid")) {
        corpus_case c;
        c.name = prefix + "valid/" + std::to_string(index++);
        c.description = entry.at("description").get<std::string>();
        c.canonical_bson_hex = entry.at("canonical_bson").get<std::string>();
        c.canonical_string = number_decimal_of(entry.at("canonical_extjson").get<std::string>());
        if (entry.contains("degenerate_extjson")) {
          c.has_degenerate = true;
          c.degenerate_string =
              number_decimal_of(entry.at("degenerate_extjson").get<std::string>());
        }
        c.lossy = entry.value("lossy", false);
        cases.push_back(std::move(c));
      }
    }
    if (file.contains("parseErrors")) {
      std::size_t index = 0;
      for (const auto& entry : file.at("parseErrors")) {
        corpus_case c;
        c.name = prefix + "parseErrors/" + std::to_string(index++);
        c.description = entry.at("description").get<std::string>();
        c.parse_error = true;
        c.parse_error_string = entry.at("string").get<std::string>();
        cases.push_back(std::move(c));
      }
    }
  }
  return cases;
}

using bsongen::test::from_hex;

std::string bits_of(const bsongen::decimal128& d) {
  char text[40];
  std::snprintf(text, sizeof text, "%016llX%016llX", static_cast<unsigned long long>(d.high_bits()),
                static_cast<unsigned long long>(d.low_bits()));
  return text;
}

// Counts cases, not assertions: a case passes when it ran to its end with no failure.
struct corpus_tally {
  int passed = 0;
  int failed = 0;
};
corpus_tally tally;

// Prints the closing line from OnTestProgramEnd, which runs after GoogleTest's own summary, so
// the line is the last thing the binary writes.
class closing_line_printer : public ::testing::EmptyTestEventListener {
  void OnTestProgramEnd(const ::testing::UnitTest&) override {
    std::printf("decimal128 corpus: %d passed, %d failed\n", tally.passed, tally.failed);
    std::fflush(stdout);
  }
};
[[maybe_unused]] const bool closing_line_registered = [] {
  ::testing::UnitTest::GetInstance()->listeners().Append(new closing_line_printer);
  return true;
}();

void check_valid(const corpus_case& c) {
  const std::vector<std::uint8_t> document = from_hex(c.canonical_bson_hex);
  // {"d": <decimal128>}: int32 length, type byte 0x13, key "d\0", 16 value bytes, terminator.
  ASSERT_EQ(document.size(), 24u);
  ASSERT_EQ(document[4], 0x13);
  ASSERT_EQ(document[5], 'd');
  ASSERT_EQ(document[6], 0);
  const std::uint8_t* value_bytes = document.data() + 7;

  const bsongen::decimal128 decoded = bsongen::decimal128::from_bytes(value_bytes);
  EXPECT_EQ(decoded.to_string(), c.canonical_string);
  std::array<std::uint8_t, 16> reencoded{};
  decoded.to_bytes(reencoded.data());
  EXPECT_TRUE(std::equal(reencoded.begin(), reencoded.end(), value_bytes));

  const auto check_parses = [&](const std::string& text) {
    const auto parsed = bsongen::decimal128::from_string(text);
    ASSERT_TRUE(parsed.has_value()) << '"' << text << "\": " << parsed.error().to_string();
    if (c.lossy) {
      EXPECT_EQ(parsed->to_string(), c.canonical_string) << '"' << text << '"';
    } else {
      EXPECT_EQ(bits_of(*parsed), bits_of(decoded)) << '"' << text << '"';
    }
  };
  check_parses(c.canonical_string);
  if (c.has_degenerate) check_parses(c.degenerate_string);
}

void check_parse_error(const corpus_case& c) {
  const auto parsed = bsongen::decimal128::from_string(c.parse_error_string);
  ASSERT_FALSE(parsed.has_value())
      << '"' << c.parse_error_string << "\" parsed as " << parsed->to_string();
  const bool needs_rounding = c.description.find("Inexact") != std::string::npos ||
                              c.description.find("Overflow") != std::string::npos;
  EXPECT_EQ(parsed.error().code,
            needs_rounding ? bsongen::error_code::inexact : bsongen::error_code::invalid_value)
      << parsed.error().to_string();
  EXPECT_NE(parsed.error().message.find("decimal128"), std::string::npos)
      << parsed.error().to_string();
}

class corpus_case_test : public ::testing::Test {
 public:
  explicit corpus_case_test(corpus_case c) : case_(std::move(c)) {}

  void TestBody() override {
    SCOPED_TRACE(case_.description);
    if (case_.parse_error) {
      check_parse_error(case_);
    } else {
      check_valid(case_);
    }
    ++(HasFailure() ? tally.failed : tally.passed);
  }

 private:
  corpus_case case_;
};

class corpus_missing_test : public ::testing::Test {
 public:
  void TestBody() override { GTEST_SKIP() << skip_message(); }
};

// Registration happens during static initialization, like TEST()'s, so --gtest_list_tests (and
// with it ctest's discovery) sees every case.
[[maybe_unused]] const bool cases_registered = [] {
  std::vector<corpus_case> cases = load_cases();
  if (cases.empty()) {
    ::testing::RegisterTest("Decimal128Corpus", "corpus_not_found", nullptr, nullptr, __FILE__,
                            __LINE__, []() -> ::testing::Test* { return new corpus_missing_test; });
    return true;
  }
  for (corpus_case& c : cases) {
    const std::string name = c.name;
    ::testing::RegisterTest(
        "Decimal128Corpus", name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
        [c = std::move(c)]() -> ::testing::Test* { return new corpus_case_test(c); });
  }
  return true;
}();

}  // namespace
