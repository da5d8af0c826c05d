// Hostile streams for document_stream_reader: cut inside a length or a body, lying lengths, a bad
// document between good ones, trailing garbage. The reader delivers every document before the bad
// one, then reports the error (code, path, offset from the start of the stream) and repeats it.

#include <gtest/gtest.h>

#include <cstdio>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "bson_builder.hpp"
#include "bsongen/document_stream.hpp"

namespace bsongen {
namespace {

using test::bson_builder;
using test::document_of;

struct read_result {
  std::vector<std::vector<std::uint8_t>> documents;  // copies of what the reader delivered
  bool clean_end = false;
  error failure;
};

read_result read_all(document_stream_reader& reader) {
  read_result out;
  for (int guard = 0; guard < 1000; ++guard) {
    document_view doc;
    result<bool> more = reader.next(doc);
    if (!more) {
      out.failure = more.error();
      // A failed reader stays failed and repeats its error.
      result<bool> again = reader.next(doc);
      EXPECT_FALSE(again.has_value());
      if (!again.has_value()) {
        EXPECT_EQ(again.error().code, out.failure.code);
        EXPECT_EQ(again.error().offset, out.failure.offset);
      }
      return out;
    }
    if (!*more) {
      out.clean_end = true;
      return out;
    }
    out.documents.emplace_back(doc.bytes().begin(), doc.bytes().end());
  }
  ADD_FAILURE() << "the reader never ended";
  return out;
}

read_result read_stream(const std::vector<std::uint8_t>& bytes,
                        const decode_options& options = {}) {
  std::istringstream in(std::string(bytes.begin(), bytes.end()));
  document_stream_reader reader(in, options);
  return read_all(reader);
}

std::vector<std::uint8_t> concat(std::initializer_list<std::vector<std::uint8_t>> parts) {
  std::vector<std::uint8_t> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

const std::vector<std::uint8_t> first = document_of(bson_builder().u8(0x10).cstr("i").i32(1));
const std::vector<std::uint8_t> second = document_of(bson_builder().u8(0x02).cstr("s").str("two"));

TEST(hostile_document_stream, empty_stream_ends_cleanly) {
  const read_result r = read_stream({});
  EXPECT_TRUE(r.clean_end);
  EXPECT_TRUE(r.documents.empty());
}

TEST(hostile_document_stream, cut_inside_a_body_keeps_the_earlier_documents) {
  auto bytes = concat({first, second, second});
  const std::size_t third = first.size() + second.size();
  bytes.resize(third + 7);  // 7 of the third document's bytes
  const read_result r = read_stream(bytes);
  ASSERT_EQ(r.documents.size(), 2u);
  EXPECT_EQ(r.documents[0], first);
  EXPECT_EQ(r.documents[1], second);
  EXPECT_EQ(r.failure.code, error_code::truncated);
  EXPECT_EQ(r.failure.offset, bytes.size());
  EXPECT_NE(r.failure.message.find("document 2"), std::string::npos) << r.failure.message;
}

TEST(hostile_document_stream, cut_inside_a_length_prefix_is_truncated_there) {
  auto bytes = concat({first, {0x10, 0x00}});
  const read_result r = read_stream(bytes);
  ASSERT_EQ(r.documents.size(), 1u);
  EXPECT_EQ(r.failure.code, error_code::truncated);
  EXPECT_EQ(r.failure.offset, bytes.size());
}

TEST(hostile_document_stream, trailing_garbage_after_the_last_document_is_an_error_not_an_end) {
  const auto bytes = concat({first, second, {0xDE, 0xAD, 0xBE}});
  const read_result r = read_stream(bytes);
  EXPECT_EQ(r.documents.size(), 2u);
  EXPECT_FALSE(r.clean_end);
  EXPECT_EQ(r.failure.code, error_code::truncated);
  EXPECT_EQ(r.failure.offset, bytes.size());
}

TEST(hostile_document_stream, negative_and_tiny_lengths_are_rejected_at_the_document) {
  for (std::int32_t length : {-1, std::numeric_limits<std::int32_t>::min(), 0, 4}) {
    SCOPED_TRACE(length);
    const auto bytes = concat({first, bson_builder().i32(length).u8s({0, 0, 0, 0, 0}).bytes()});
    const read_result r = read_stream(bytes);
    ASSERT_EQ(r.documents.size(), 1u);
    EXPECT_EQ(r.failure.code, error_code::invalid_length);
    EXPECT_EQ(r.failure.offset, first.size());
  }
}

TEST(hostile_document_stream, a_2_gib_length_is_too_large_before_any_read) {
  const auto bytes =
      concat({first, bson_builder().i32(std::numeric_limits<std::int32_t>::max()).bytes()});
  const read_result r = read_stream(bytes);
  ASSERT_EQ(r.documents.size(), 1u);
  EXPECT_EQ(r.failure.code, error_code::too_large);
  EXPECT_EQ(r.failure.offset, first.size());
}

TEST(hostile_document_stream,
     an_invalid_document_between_good_ones_reports_its_path_and_stream_offset) {
  const auto bad = document_of(
      bson_builder().u8(0x10).cstr("ok").i32(7).u8(0x02).cstr("s").i32(2).u8(0xFF).u8(0));
  const auto bytes = concat({first, second, bad, first});
  const read_result r = read_stream(bytes);
  ASSERT_EQ(r.documents.size(), 2u);
  EXPECT_EQ(r.failure.code, error_code::invalid_utf8);
  EXPECT_EQ(r.failure.path, "s");
  // The bad element sits 4 + 8 bytes into the third document.
  EXPECT_EQ(r.failure.offset, first.size() + second.size() + 12);
  EXPECT_NE(r.failure.message.find("document 2"), std::string::npos) << r.failure.message;
}

TEST(hostile_document_stream, nesting_beyond_the_limit_inside_a_stream_is_too_deep) {
  const auto deep = test::nested_documents(200);
  const auto bytes = concat({first, deep});
  const read_result r = read_stream(bytes);
  ASSERT_EQ(r.documents.size(), 1u);
  EXPECT_EQ(r.failure.code, error_code::too_deep);
  EXPECT_EQ(r.failure.offset, first.size() + 7 * 99 + 4);
}

TEST(hostile_document_stream,
     every_cut_of_a_three_document_stream_keeps_the_whole_documents_before_it) {
  const auto bytes = concat({first, second, first});
  for (std::size_t n = 0; n <= bytes.size(); ++n) {
    SCOPED_TRACE(n);
    const read_result r = read_stream(
        std::vector<std::uint8_t>(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n)));
    std::size_t whole = 0;
    std::size_t boundary = 0;
    for (std::size_t size : {first.size(), second.size(), first.size()}) {
      if (boundary + size > n) break;
      boundary += size;
      ++whole;
    }
    EXPECT_EQ(r.documents.size(), whole);
    if (boundary == n) {
      EXPECT_TRUE(r.clean_end);
    } else {
      EXPECT_EQ(r.failure.code, error_code::truncated);
      EXPECT_EQ(r.failure.offset, n);
    }
  }
}

TEST(hostile_document_stream, a_file_source_behaves_like_an_istream) {
  auto bytes = concat({first, second});
  bytes.resize(bytes.size() - 1);
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  ASSERT_EQ(std::fwrite(bytes.data(), 1, bytes.size(), file), bytes.size());
  std::rewind(file);
  document_stream_reader reader(file);
  const read_result r = read_all(reader);
  std::fclose(file);
  ASSERT_EQ(r.documents.size(), 1u);
  EXPECT_EQ(r.failure.code, error_code::truncated);
  EXPECT_EQ(r.failure.offset, bytes.size());
}

}  // namespace
}  // namespace bsongen
