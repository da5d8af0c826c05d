// A generated decoder run over a stream of BSON documents (a mongodump .bson file), built once per
// schema by tests/tools/CMakeLists.txt with
//   BSONGEN_HARNESS_HEADER  the generated header, e.g. "orders.bsongen.hpp"
//   BSONGEN_HARNESS_TYPE    the struct to decode, e.g. infer_test::orders
//
// usage: decode_harness round-trip FILE.bson
//   Decodes each document, encodes it again and compares bytes. A document whose keys (at every
//   level) come back in the same order must come back byte for byte; one whose key order differs
//   from the schema's must come back with the same keys and decode to the same value again from
//   the re-encoded bytes. Prints "infer round trip: N of M documents identical" and exits 0 only
//   when every document decodes, keeps its keys, and every one in schema order is identical.
// usage: decode_harness accepts FILE.bson
//   Prints one line per document: "accept", or "reject <error>" (what the decoder said).
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "bsongen/codec.hpp"
#include "bsongen/document_stream.hpp"
#include "bsongen/document_view.hpp"
#include BSONGEN_HARNESS_HEADER

namespace {

using decoded_type = BSONGEN_HARNESS_TYPE;

// The keys of a document in order, descending into sub-documents and arrays, with brackets marking
// the levels: equal sequences mean the same key order everywhere.
void key_order(bsongen::document_view doc, std::vector<std::string>& out) {
  out.emplace_back("{");
  for (bsongen::view_element e : doc) {
    out.emplace_back(e.key());
    if (e.type() == bsongen::bson_type::document) {
      key_order(e.as_document(), out);
    } else if (e.type() == bsongen::bson_type::array) {
      key_order(bsongen::document_view::from_trusted_bytes(e.value_bytes()), out);
    }
  }
  out.emplace_back("}");
}

bool same_key_order(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) {
  std::vector<std::string> ka;
  std::vector<std::string> kb;
  key_order(bsongen::document_view::from_trusted_bytes(a), ka);
  key_order(bsongen::document_view::from_trusted_bytes(b), kb);
  return ka == kb;
}

// The keys of a document at every level, each level's in sorted order: equal when two documents
// hold the same keys, in whatever order. Each key is written with its length before it (a key may
// hold any character but NUL).
std::string key_set(bsongen::document_view doc) {
  std::vector<std::string> entries;
  for (bsongen::view_element e : doc) {
    std::string entry = std::to_string(e.key().size()) + ':' + std::string(e.key());
    if (e.type() == bsongen::bson_type::document) {
      entry += key_set(e.as_document());
    } else if (e.type() == bsongen::bson_type::array) {
      entry += key_set(bsongen::document_view::from_trusted_bytes(e.value_bytes()));
    }
    entries.push_back(std::move(entry));
  }
  std::sort(entries.begin(), entries.end());
  std::string out = "{";
  for (const std::string& entry : entries) out += entry;
  return out + '}';
}

// The first byte where two encodings differ, for the failure message.
std::size_t first_difference(std::span<const std::uint8_t> a, std::span<const std::uint8_t> b) {
  std::size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  return i;
}

int round_trip(std::FILE* in, const char* path) {
  bsongen::document_stream_reader reader(in);
  bsongen::document_view doc;
  std::size_t total = 0, in_order = 0, identical = 0, reordered = 0, failed = 0;
  for (;;) {
    const std::size_t offset = reader.offset();
    auto more = reader.next(doc);
    if (!more) {
      std::printf("%s: %s\n", path, more.error().to_string().c_str());
      return 1;
    }
    if (!*more) break;
    const std::size_t index = total++;
    auto value = bsongen::decode<decoded_type>(doc.bytes());
    if (!value) {
      std::printf("document %zu (byte %zu): decode failed: %s\n", index, offset,
                  value.error().to_string().c_str());
      ++failed;
      continue;
    }
    auto bytes = bsongen::encode(*value);
    if (!bytes) {
      std::printf("document %zu (byte %zu): encode failed: %s\n", index, offset,
                  bytes.error().to_string().c_str());
      ++failed;
      continue;
    }
    const std::span<const std::uint8_t> input = doc.bytes();
    const std::span<const std::uint8_t> output = bytes->span();
    if (same_key_order(input, output)) {
      ++in_order;
      if (input.size() == output.size() &&
          std::memcmp(input.data(), output.data(), input.size()) == 0) {
        ++identical;
      } else {
        std::printf(
            "document %zu (byte %zu): re-encoded bytes differ at byte %zu of %zu (got %zu)\n",
            index, offset, first_difference(input, output), input.size(), output.size());
        ++failed;
      }
      continue;
    }
    // Another key order: the same keys must come back (an inferred schema keeps every key it
    // saw), and the value must survive a second trip.
    if (key_set(bsongen::document_view::from_trusted_bytes(input)) !=
        key_set(bsongen::document_view::from_trusted_bytes(output))) {
      std::printf("document %zu (byte %zu): re-encoded with other keys than it had\n", index,
                  offset);
      ++failed;
      continue;
    }
    auto again = bsongen::decode<decoded_type>(output);
    if (!again || !(*again == *value)) {
      std::printf(
          "document %zu (byte %zu): in another key order, and its value does not survive a "
          "second round trip\n",
          index, offset);
      ++failed;
    } else {
      ++reordered;
    }
  }
  std::printf("infer round trip: %zu of %zu documents identical", identical, in_order);
  if (reordered != 0) std::printf(" (%zu more in another key order: values equal)", reordered);
  std::printf("\n");
  if (total == 0) std::printf("no documents in %s\n", path);
  return failed == 0 && total != 0 ? 0 : 1;
}

int accepts(std::FILE* in, const char* path) {
  bsongen::document_stream_reader reader(in);
  bsongen::document_view doc;
  for (;;) {
    auto more = reader.next(doc);
    if (!more) {
      std::printf("%s: %s\n", path, more.error().to_string().c_str());
      return 1;
    }
    if (!*more) return 0;
    auto value = bsongen::decode<decoded_type>(doc.bytes());
    if (value) {
      std::printf("accept\n");
    } else {
      std::printf("reject %s\n", value.error().to_string().c_str());
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 ||
      (std::strcmp(argv[1], "round-trip") != 0 && std::strcmp(argv[1], "accepts") != 0)) {
    std::fprintf(stderr, "usage: %s round-trip|accepts FILE.bson\n", argv[0]);
    return 2;
  }
  std::FILE* in = std::fopen(argv[2], "rb");
  if (in == nullptr) {
    std::perror(argv[2]);
    return 1;
  }
  const int status =
      std::strcmp(argv[1], "round-trip") == 0 ? round_trip(in, argv[2]) : accepts(in, argv[2]);
  std::fclose(in);
  return status;
}
