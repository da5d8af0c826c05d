// The owning generic document: construction, lookup, order, duplicates, equality, mutation.

#include "bsongen/document.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace bsongen {
namespace {

TEST(document, initializer_list_builds_every_kind_of_field_in_order) {
  document d{{"a", 1},
             {"b", "x"},
             {"c", array{1, 2.5}},
             {"d", document{{"e", true}, {"f", nullptr}}},
             {"g", std::int64_t{1} << 40}};
  ASSERT_EQ(d.size(), 5u);
  std::vector<std::string> keys;
  for (element e : d) keys.emplace_back(e.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"a", "b", "c", "d", "g"}));
  EXPECT_EQ(d["a"].as_int32(), 1);
  EXPECT_EQ(d["b"].as_string(), "x");
  EXPECT_EQ(d["c"][0].as_int32(), 1);
  EXPECT_EQ(d["c"][1].as_double(), 2.5);
  EXPECT_EQ(d["c"].as_array().size(), 2u);
  EXPECT_TRUE(d["d"]["e"].as_bool());
  EXPECT_TRUE(d["d"]["f"].is_null());
  EXPECT_EQ(d["g"].as_int64(), std::int64_t{1} << 40);
}

TEST(document, missing_keys_are_falsy_and_accessors_say_why) {
  document d{{"a", 1}};
  EXPECT_FALSE(d["zz"]);
  EXPECT_FALSE(d["a"]["b"]);  // not a document
  EXPECT_FALSE(d["a"][0]);    // not an array
  EXPECT_FALSE(d.contains("zz"));
  try {
    (void)d["a"].as_string();
    FAIL() << "expected a type mismatch";
  } catch (const exception& e) {
    EXPECT_EQ(e.error().code, error_code::type_mismatch);
    EXPECT_EQ(e.error().path, "a");
    EXPECT_NE(e.error().message.find("found int32"), std::string::npos);
  }
  try {
    (void)d["zz"].as_int32();
    FAIL() << "expected missing_field";
  } catch (const exception& e) {
    EXPECT_EQ(e.error().code, error_code::missing_field);
  }
}

TEST(document, duplicate_keys_are_kept_and_lookups_return_the_last) {
  document d;
  d.append("k", 1).append("other", 0).append("k", 2);
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d["k"].as_int32(), 2);
  EXPECT_EQ(d.find("k").as_int32(), 2);
  EXPECT_EQ(d.ref()["k"].as_int32(), 2);   // document_ref
  EXPECT_EQ(value(d)["k"].as_int32(), 2);  // value_access
  EXPECT_EQ(d.at(0).as_int32(), 1);        // iteration shows both, in order
  std::vector<int> seen;
  for (element e : d) {
    if (e.key() == "k") seen.push_back(e.as_int32());
  }
  EXPECT_EQ(seen, (std::vector<int>{1, 2}));
}

TEST(document, set_replaces_the_last_match_or_appends) {
  document d{{"a", 1}, {"b", 2}};
  d.set("a", "now a string");
  d.set("c", 3.5);
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d["a"].as_string(), "now a string");
  EXPECT_EQ(d.at(0).key(), "a");
  EXPECT_EQ(d["c"].as_double(), 3.5);
  // With a repeated key, set() changes the element lookups see.
  document dup;
  dup.append("k", 1).append("k", 2);
  dup.set("k", 3);
  EXPECT_EQ(dup.at(0).as_int32(), 1);
  EXPECT_EQ(dup.at(1).as_int32(), 3);
  EXPECT_EQ(dup["k"].as_int32(), 3);
}

TEST(document, equality_compares_keys_order_types_and_values) {
  const document a{{"x", 1}, {"y", array{"p", "q"}}};
  document same{{"x", 1}, {"y", array{"p", "q"}}};
  EXPECT_EQ(a, same);
  EXPECT_NE(a, (document{{"y", array{"p", "q"}}, {"x", 1}}));                // order matters
  EXPECT_NE(a, (document{{"x", std::int64_t{1}}, {"y", array{"p", "q"}}}));  // int32 vs int64
  EXPECT_NE(a, (document{{"x", 1}, {"y", array{"p", "r"}}}));
  EXPECT_NE(a, (document{{"x", 1}}));
}

TEST(document, copies_are_deep_and_moves_keep_views_valid) {
  document original{{"s", "text"}, {"n", document{{"inner", "deep"}}}};
  document copy = original;
  std::string_view inner = original["n"]["inner"].as_string();
  document moved = std::move(original);
  EXPECT_EQ(inner, "deep");  // views survive a move
  EXPECT_EQ(moved["n"]["inner"].as_string().data(), inner.data());
  EXPECT_EQ(copy, moved);
  EXPECT_NE(copy["n"]["inner"].as_string().data(), inner.data());  // the copy owns its bytes
}

TEST(document, keys_with_nul_are_rejected) {
  document d;
  EXPECT_THROW(d.append(std::string_view("a\0b", 3), 1), exception);
}

TEST(document, copy_from_a_nested_reference_makes_an_independent_document) {
  document outer{{"n", document{{"a", 1}, {"b", "two"}}}};
  document inner(outer["n"].as_document());
  outer.clear();
  EXPECT_EQ(inner, (document{{"a", 1}, {"b", "two"}}));
}

// ---- depth: the generic path does not recurse (decision 2) ----

// `levels` documents and arrays alternating below the returned one, built by moving each level
// into the next (no copies): {"d": [{"d": [... {"leaf": leaf} ...]}]}.
document deep_chain(std::size_t levels, int leaf) {
  value inner = document{{"leaf", leaf}};
  for (std::size_t i = 0; i < levels; ++i) {
    if (i % 2 == 0) {
      inner = array{std::move(inner)};
    } else {
      inner = document{{"d", std::move(inner)}};
    }
  }
  return document{{"d", std::move(inner)}};
}

TEST(document_hostile, two_hundred_thousand_levels_copy_compare_and_destroy_without_recursion) {
  const document a = deep_chain(200'000, 1);
  const document same = deep_chain(200'000, 1);
  const document other = deep_chain(200'000, 2);  // differs only at the bottom
  EXPECT_TRUE(a == same);
  EXPECT_FALSE(a == other);
  const document copy = a;  // deep copy
  EXPECT_TRUE(copy == a);
  const value as_value = copy["d"];  // value_ref -> owning value: a deep copy of 200,000 levels
  EXPECT_TRUE(as_value == a["d"]);
  EXPECT_FALSE(as_value == other["d"]);
  document assigned;
  assigned = other;
  EXPECT_TRUE(assigned == other);
  // Encoding agrees with equality: equal documents, equal bytes.
  EXPECT_EQ(encode_document(copy).to_vector(), encode_document(a).to_vector());
  // Destruction of all of them (end of scope) must not recurse either.
}

TEST(document_hostile, copies_and_comparisons_walk_through_code_with_scope_scopes) {
  // Each level copies its scope (javascript_with_scope holds its scope as bytes), so this stays
  // at a depth where building is cheap; it checks that the walks enter scopes and come back.
  auto chain = [](int leaf) {
    document scope{{"x", leaf}};
    for (int i = 0; i < 1'000; ++i) {
      document next{{"before", i}};
      next.append("s", javascript_with_scope{"f()", to_raw_document(scope)});
      next.append("after", i);
      scope = std::move(next);
    }
    return scope;
  };
  const document a = chain(1);
  const document copy = a;
  EXPECT_TRUE(copy == a);
  EXPECT_FALSE(copy == chain(2));
  EXPECT_EQ(encode_document(copy).to_vector(), encode_document(a).to_vector());
}

}  // namespace
}  // namespace bsongen
