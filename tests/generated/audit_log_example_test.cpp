// schemas/audit_log.yaml, the example of enums, nullable, any and `unknown_fields: capture`: an
// event round-trips, absent, null and a value stay apart, keys a newer writer added come back
// out unchanged, and a stored action no enumerator names is refused with its path and offset.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "audit_log.bsongen.hpp"
#include "bsongen/codec.hpp"
#include "bsongen/document.hpp"
#include "codec_helpers.hpp"

namespace {

using bsongen::test::bytes;
using bsongen::test::decode_error;
using bsongen::test::decode_generic;
using bsongen::test::decode_ok;
using bsongen::test::encode_ok;
using bsongen::test::expect_round_trip;
using bsongen::test::generic_encoding;

const bsongen::object_id event_id = *bsongen::object_id::from_hex("6570c0ffee00112233445566");

audit::event sample() {
  audit::event e;
  e.id = event_id;
  e.at = bsongen::datetime(std::chrono::milliseconds(1'701'993'600'123));
  e.action = audit::action::remove;
  e.severity = audit::severity::warning;
  e.actor.user_id = *bsongen::object_id::from_hex("5f00000000000000000000aa");
  e.actor.name = "ann";
  e.actor.address = "203.0.113.7";
  e.collection = "invoices";
  e.document_id = std::int64_t{2023'000'417};  // this collection's ids are int64
  audit::change total;
  total.path = "total";
  total.before = bsongen::decimal128::from_string("118.00").value();
  total.after = bsongen::decimal128::from_string("0").value();
  audit::change lines;
  lines.path = "lines";
  lines.before = bsongen::array{bsongen::document{{"sku", "A-1"}, {"qty", 2}}};
  // lines.after stays absent: the field was removed.
  audit::change note;
  note.path = "note";
  note.before = bsongen::value(nullptr);  // the field existed and held null
  note.after = "refunded in full";
  e.changes = {total, lines, note};
  e.reason = bsongen::nullable<std::string>("customer request");
  e.context = {
      {"requestId", "req-7f3a"}, {"retries", 2}, {"client", bsongen::document{{"app", "web"}}}};
  return e;
}

TEST(audit_log_example, round_trips) {
  expect_round_trip(sample());
  expect_round_trip(audit::event{});
}

TEST(audit_log_example, absent_null_and_a_value_stay_apart) {
  audit::event e = sample();
  e.actor.user_id = nullptr;                    // the system acted: userId written as null
  e.reason = bsongen::nullable<std::string>();  // asked, none given: null
  const bsongen::document written = decode_generic(encode_ok(e));
  EXPECT_TRUE(written["actor"]["userId"].is_null());
  EXPECT_TRUE(written["reason"].is_null());
  EXPECT_TRUE(written["changes"][2]["before"].is_null());
  EXPECT_FALSE(written["changes"][1]["after"].exists());
  const audit::event back = decode_ok<audit::event>(encode_ok(e));
  EXPECT_TRUE(back == e);
  ASSERT_TRUE(back.reason.has_value());
  EXPECT_TRUE(back.reason->is_null());
  ASSERT_TRUE(back.changes[2].before.has_value());
  EXPECT_TRUE(back.changes[2].before->is_null());
  EXPECT_FALSE(back.changes[1].after.has_value());

  e.reason.reset();  // not asked: absent
  EXPECT_FALSE(decode_generic(encode_ok(e)).contains("reason"));
}

TEST(audit_log_example, keys_a_newer_writer_added_come_back_out) {
  // A newer service writes two keys this struct does not know, after the known ones.
  bsongen::document newer = decode_generic(encode_ok(sample()));
  newer.append("schemaVersion", 3);
  newer.append("geo", bsongen::document{{"country", "DE"}});
  const bytes newer_bytes = generic_encoding(newer);
  const audit::event read = decode_ok<audit::event>(newer_bytes);
  EXPECT_FALSE(read.extra.empty());
  EXPECT_EQ(encode_ok(read), newer_bytes);
}

TEST(audit_log_example, an_action_no_enumerator_names_is_refused) {
  bsongen::document d = decode_generic(encode_ok(sample()));
  d.set("action", "archive");
  const bytes b = generic_encoding(d);
  const bsongen::error e = decode_error<audit::event>(b);
  EXPECT_EQ(e.code, bsongen::error_code::invalid_value);
  EXPECT_EQ(e.path, "action");
  const std::string element(
      "\x02"
      "action",
      7);
  const auto at = std::search(b.begin(), b.end(), element.begin(), element.end());
  EXPECT_EQ(e.offset, static_cast<std::size_t>(at - b.begin()));
}

}  // namespace
