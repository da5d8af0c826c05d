#pragma once

// A corpus runner's closing line, the one its `_summary` ctest checks: "<label>: N passed, M
// failed" over the tests of the suites whose names start with the runner's prefix (skipped ones
// aside), or, when the corpus is absent, the message saying where it was looked for.

#include <gtest/gtest.h>

#include <iostream>
#include <string>
#include <string_view>
#include <utility>

namespace bsongen::test {

class corpus_summary : public testing::EmptyTestEventListener {
 public:
  // `missing_message` is called at the end: "" when the corpus was found.
  corpus_summary(std::string suite_prefix, std::string label, std::string (*missing_message)())
      : suite_prefix_(std::move(suite_prefix)),
        label_(std::move(label)),
        missing_message_(missing_message) {}

  void OnTestEnd(const testing::TestInfo& info) override {
    if (std::string_view(info.test_suite_name()).starts_with(suite_prefix_) &&
        !info.result()->Skipped()) {
      (info.result()->Passed() ? passed_ : failed_) += 1;
    }
  }
  void OnTestProgramEnd(const testing::UnitTest&) override {
    const std::string missing = missing_message_();
    if (!missing.empty()) {
      std::cout << missing << std::endl;
      return;
    }
    std::cout << label_ << ": " << passed_ << " passed, " << failed_ << " failed" << std::endl;
  }

 private:
  std::string suite_prefix_;
  std::string label_;
  std::string (*missing_message_)();
  int passed_ = 0;
  int failed_ = 0;
};

}  // namespace bsongen::test
