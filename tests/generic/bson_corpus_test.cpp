// The official BSON corpus, one GoogleTest per case (suite bson_corpus_<file>, test <section>_<i>).
//
// Checked now (BSON side): every `valid` case (canonical_bson decodes and re-encodes byte for
// byte, degenerate_bson re-encodes to canonical_bson, the zero-copy view and validate-only path
// accept it) and every `decodeErrors` case (decode, validate and view all reject it): 728 + 75
// = 803 cases. The Extended JSON checks (canonical/relaxed extjson both ways, in
// extjson_corpus_checks.cpp) run inside each valid case, and the 180 `parseErrors` are cases of
// their own, at the two places marked EXTJSON below: 983 cases in all.
//
// The binary prints `bson corpus: N passed, M failed` last when run whole.

#include "bson_corpus.hpp"

#include <gtest/gtest.h>

#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "bsongen/document.hpp"
#include "bsongen/document_view.hpp"
#include "corpus_summary.hpp"
#include "extjson_corpus_checks.hpp"

namespace bsongen::test {
namespace {

void check_valid_bson(const corpus_case& c) {
  const std::vector<std::uint8_t> canonical =
      from_hex(c.spec.at("canonical_bson").get<std::string>());

  result<document> decoded = decode_document(canonical);
  ASSERT_TRUE(decoded) << decoded.error().to_string();
  const byte_buffer encoded = encode_document(*decoded);
  EXPECT_EQ(to_hex(encoded.data(), encoded.size()), to_hex(canonical.data(), canonical.size()))
      << "canonical_bson must re-encode byte for byte";
  EXPECT_EQ(encoded_size(*decoded), canonical.size());

  EXPECT_TRUE(validate_document(canonical)) << "validate-only path rejects what decode accepts";
  result<document_view> view = document_view::from_bytes(canonical);
  ASSERT_TRUE(view) << view.error().to_string();
  EXPECT_EQ(view->count(), decoded->size());

  if (c.spec.contains("degenerate_bson")) {
    const std::vector<std::uint8_t> degenerate =
        from_hex(c.spec["degenerate_bson"].get<std::string>());
    result<document> from_degenerate = decode_document(degenerate);
    ASSERT_TRUE(from_degenerate) << from_degenerate.error().to_string();
    const byte_buffer reencoded = encode_document(*from_degenerate);
    EXPECT_EQ(to_hex(reencoded.data(), reencoded.size()),
              to_hex(canonical.data(), canonical.size()))
        << "degenerate_bson must re-encode to canonical_bson";
    EXPECT_EQ(*from_degenerate, *decoded);
  }

  // EXTJSON: canonical_extjson / relaxed_extjson / degenerate_extjson (extjson_corpus_checks.hpp).
  auto text = [&](const char* key) -> std::optional<std::string> {
    if (!c.spec.contains(key)) return std::nullopt;
    return c.spec[key].get<std::string>();
  };
  const std::string canonical_bson = c.spec.at("canonical_bson").get<std::string>();
  const std::string canonical_extjson = c.spec.at("canonical_extjson").get<std::string>();
  const std::optional<std::string> relaxed = text("relaxed_extjson");
  const std::optional<std::string> degenerate = text("degenerate_extjson");
  extjson_valid_case ej{canonical_bson, canonical_extjson, std::nullopt, std::nullopt,
                        c.spec.value("lossy", false)};
  if (relaxed) ej.relaxed_extjson = *relaxed;
  if (degenerate) ej.degenerate_extjson = *degenerate;
  for (const std::string& failure : check_extjson_valid(ej)) ADD_FAILURE() << failure;
}

void check_decode_error(const corpus_case& c) {
  const std::vector<std::uint8_t> bytes = from_hex(c.spec.at("bson").get<std::string>());
  result<document> decoded = decode_document(bytes);
  ASSERT_FALSE(decoded) << "decoded although the corpus says: " << c.description;
  EXPECT_NE(decoded.error().code, error_code::ok);
  EXPECT_FALSE(decoded.error().message.empty());
  EXPECT_LE(decoded.error().offset, bytes.size());
  EXPECT_FALSE(validate_document(bytes)) << "validate-only path accepts what decode rejects";
  EXPECT_FALSE(document_view::from_bytes(bytes)) << "document_view accepts what decode rejects";
}

// The one place each case is dispatched; a failure anywhere inside counts the case as failed.
void check_case(const corpus_case& c) {
  if (c.section == "valid") {
    check_valid_bson(c);
  } else if (c.section == "decodeErrors") {
    check_decode_error(c);
  }
  // EXTJSON: `parseErrors` cases; the decimal128-* files (bson_type 0x13) hold decimal strings.
  if (c.section == "parseErrors") {
    const std::string bson_type = c.file.starts_with("decimal128") ? "0x13" : "";
    const std::string text = c.spec.at("string").get<std::string>();
    for (const std::string& failure : check_extjson_parse_error(bson_type, text))
      ADD_FAILURE() << failure;
  }
}

std::string test_name_part(std::string s) {
  for (char& ch : s) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return s;
}

void register_corpus_tests() {
  static const std::vector<corpus_case> cases =
      load_corpus({"valid", "decodeErrors", "parseErrors"});
  for (const corpus_case& c : cases) {
    testing::RegisterTest(("bson_corpus_" + test_name_part(c.file)).c_str(),
                          (c.section + "_" + std::to_string(c.index)).c_str(), nullptr,
                          c.description.c_str(), __FILE__, __LINE__, [&c]() -> testing::Test* {
                            struct corpus_test : testing::Test {
                              explicit corpus_test(const corpus_case& cc) : case_(cc) {}
                              void TestBody() override { check_case(case_); }
                              const corpus_case& case_;
                            };
                            return new corpus_test(c);
                          });
  }
}

TEST(bson_corpus, present) {
  const std::string missing = corpus_missing_message();
  if (!missing.empty()) GTEST_SKIP() << missing;
  EXPECT_EQ(load_corpus({"valid"}).size(), 728u);
  EXPECT_EQ(load_corpus({"decodeErrors"}).size(), 75u);
  EXPECT_EQ(load_corpus({"parseErrors"}).size(), 180u);
}

}  // namespace
}  // namespace bsongen::test

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  bsongen::test::register_corpus_tests();
  testing::UnitTest::GetInstance()->listeners().Append(new bsongen::test::corpus_summary(
      "bson_corpus_", "bson corpus", bsongen::test::corpus_missing_message));
  return RUN_ALL_TESTS();
}
