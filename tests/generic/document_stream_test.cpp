// Streams of concatenated documents: reading several, a corrupt one in the middle, truncation,
// a huge declared size, and the writer.

#include "bsongen/document_stream.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

namespace bsongen {
namespace {

std::string bytes_of(const document& d) {
  const byte_buffer b = encode_document(d.ref());
  return {reinterpret_cast<const char*>(b.data()), b.size()};
}

// Reads until the end or an error; returns the values of key "n" delivered before it stopped.
std::vector<int> read_all(document_stream_reader& reader, result<bool>& last) {
  std::vector<int> seen;
  document_view doc;
  for (;;) {
    last = reader.next(doc);
    if (!last || !*last) return seen;
    seen.push_back(doc["n"].as_int32());
  }
}

TEST(document_stream, reads_every_document_in_order_then_ends_cleanly) {
  std::string data;
  for (int i = 0; i < 50; ++i)
    data +=
        bytes_of(document{{"n", i}, {"pad", std::string(static_cast<std::size_t>(i * 7), 'x')}});
  std::istringstream in(data);
  document_stream_reader reader(in);
  result<bool> last = false;
  const std::vector<int> seen = read_all(reader, last);
  ASSERT_TRUE(last) << last.error().to_string();
  EXPECT_FALSE(*last);
  ASSERT_EQ(seen.size(), 50u);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(seen[static_cast<std::size_t>(i)], i);
  EXPECT_EQ(reader.documents_read(), 50u);
  EXPECT_EQ(reader.offset(), data.size());
  // The end is sticky.
  document_view doc;
  auto again = reader.next(doc);
  ASSERT_TRUE(again);
  EXPECT_FALSE(*again);
}

TEST(document_stream, an_empty_stream_has_no_documents) {
  std::istringstream in("");
  document_stream_reader reader(in);
  document_view doc;
  auto r = reader.next(doc);
  ASSERT_TRUE(r);
  EXPECT_FALSE(*r);
}

TEST(document_stream, a_corrupt_document_in_the_middle_reports_its_index_and_offset) {
  const std::string first = bytes_of(document{{"n", 0}});
  const std::string second = bytes_of(document{{"n", 1}});
  std::string corrupt = bytes_of(document{{"n", 2}});
  corrupt[4] = 0x55;  // an undefined element type byte
  const std::string data = first + second + corrupt + bytes_of(document{{"n", 3}});
  std::istringstream in(data);
  document_stream_reader reader(in);
  result<bool> last = false;
  const std::vector<int> seen = read_all(reader, last);
  EXPECT_EQ(seen, (std::vector<int>{0, 1}));
  ASSERT_FALSE(last);
  EXPECT_EQ(last.error().code, error_code::invalid_type);
  EXPECT_NE(last.error().message.find("document 2"), std::string::npos) << last.error().to_string();
  EXPECT_EQ(last.error().offset, first.size() + second.size() + 4);
  // The reader stays failed.
  document_view doc;
  auto again = reader.next(doc);
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().code, error_code::invalid_type);
}

TEST(document_stream, truncation_inside_a_body_or_a_length_says_so) {
  const std::string one = bytes_of(document{{"n", 0}, {"s", "text"}});
  for (const std::size_t cut : {one.size() + 2, one.size() * 2 - 3}) {
    const std::string data = (one + one).substr(0, cut);
    std::istringstream in(data);
    document_stream_reader reader(in);
    result<bool> last = false;
    const std::vector<int> seen = read_all(reader, last);
    EXPECT_EQ(seen.size(), 1u);
    ASSERT_FALSE(last);
    EXPECT_EQ(last.error().code, error_code::truncated);
    EXPECT_NE(last.error().message.find("stream ends inside"), std::string::npos)
        << last.error().to_string();
    EXPECT_NE(last.error().message.find("document 1"), std::string::npos);
    EXPECT_EQ(last.error().offset, cut);
  }
}

TEST(document_stream, a_huge_declared_size_is_refused_before_reading) {
  std::string data = bytes_of(document{{"n", 0}});
  const char huge[4] = {'\xff', '\xff', '\xff', '\x7f'};  // 2 GiB - 1
  data.append(huge, 4);
  data += "only a few bytes follow";
  std::istringstream in(data);
  decode_options options;
  options.max_size = 1024;
  document_stream_reader reader(in, options);
  result<bool> last = false;
  EXPECT_EQ(read_all(reader, last).size(), 1u);
  ASSERT_FALSE(last);
  EXPECT_EQ(last.error().code, error_code::too_large);
  EXPECT_NE(last.error().message.find("2147483647"), std::string::npos);

  const char tiny[4] = {3, 0, 0, 0};
  std::istringstream small_in(std::string(tiny, 4));
  document_stream_reader small_reader(small_in);
  document_view doc;
  auto r = small_reader.next(doc);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, error_code::invalid_length);
}

TEST(document_stream, reads_from_a_file_and_the_writer_round_trips) {
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  document_stream_writer out(file);
  const document built{{"n", 7}, {"nested", document{{"a", array{1, 2}}}}};
  ASSERT_TRUE(out.write(built.ref()));
  const byte_buffer encoded = encode_document(document{{"n", 8}}.ref());
  ASSERT_TRUE(out.write(*document_view::from_bytes(encoded)));
  EXPECT_EQ(out.documents_written(), 2u);
  EXPECT_EQ(out.bytes_written(), encoded_size(built.ref()) + encoded.size());
  std::rewind(file);

  document_stream_reader reader(file);
  result<bool> last = false;
  EXPECT_EQ(read_all(reader, last), (std::vector<int>{7, 8}));
  ASSERT_TRUE(last);
  std::fclose(file);
}

}  // namespace
}  // namespace bsongen
