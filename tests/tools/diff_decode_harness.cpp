// `bsongen diff`'s verdicts against the generated decoders (tests/tools/diff_decode_test.py).
// Built once over diff_pairs.bsongen.hpp, the schema holding every conversion row of
// diff_pairs.py as two structs, `<row>_old` and `<row>_new` (diff_pairs_rows.inc lists the rows,
// both written at build time by diff_decode_test.py --write-build-files).
//
// usage: diff_decode_harness FILE.bson
//   Each document is {row: "r07", writer: "old" | "new", doc: {v: ...}}. `doc` is decoded as the
//   writer's struct and, when that decoder accepts it, encoded again by it: those bytes are what
//   the writer's encoder writes for the value. They are then decoded as the row's other struct.
//   One line per document: "unwritten" (the writer's decoder refuses the value), "accept" or
//   "reject <error>" (the reader's verdict), or "encode-failed <error>".
#include <cstdio>
#include <span>
#include <string>
#include <string_view>

#include "bsongen/codec.hpp"
#include "bsongen/document_stream.hpp"
#include "bsongen/document_view.hpp"
#include "diff_pairs.bsongen.hpp"

namespace {

template <class Writer, class Reader>
std::string trip(std::span<const std::uint8_t> doc) {
  auto written = bsongen::decode<Writer>(doc);
  if (!written) return "unwritten";
  auto bytes = bsongen::encode(*written);
  if (!bytes) return "encode-failed " + bytes.error().to_string();
  auto read = bsongen::decode<Reader>(bytes->span());
  return read ? std::string("accept") : "reject " + read.error().to_string();
}

using trip_function = std::string (*)(std::span<const std::uint8_t>);

struct pair_row {
  std::string_view name;
  trip_function old_writes;  // old struct writes, new struct reads (readers)
  trip_function new_writes;  // new struct writes, old struct reads (writers)
};

#define BSONGEN_DIFF_PAIR(row)                                        \
  pair_row{#row, &trip<diff_pairs::row##_old, diff_pairs::row##_new>, \
           &trip<diff_pairs::row##_new, diff_pairs::row##_old>},
constexpr pair_row rows[] = {
#include "diff_pairs_rows.inc"
};
#undef BSONGEN_DIFF_PAIR

std::string run(bsongen::document_view doc) {
  const bsongen::view_element row = doc["row"];
  const bsongen::view_element writer = doc["writer"];
  const bsongen::view_element value = doc["doc"];
  if (!row.is(bsongen::bson_type::string) || !writer.is(bsongen::bson_type::string) ||
      !value.is(bsongen::bson_type::document)) {
    return "bad-input {row: string, writer: string, doc: document} expected";
  }
  for (const pair_row& r : rows) {
    if (r.name != row.as_string()) continue;
    const std::span<const std::uint8_t> bytes = value.as_document().bytes();
    if (writer.as_string() == "old") return r.old_writes(bytes);
    if (writer.as_string() == "new") return r.new_writes(bytes);
    return "bad-input writer is neither old nor new";
  }
  return "bad-input unknown row " + std::string(row.as_string());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s FILE.bson\n", argv[0]);
    return 2;
  }
  std::FILE* in = std::fopen(argv[1], "rb");
  if (in == nullptr) {
    std::perror(argv[1]);
    return 1;
  }
  bsongen::document_stream_reader reader(in);
  bsongen::document_view doc;
  int status = 0;
  for (;;) {
    auto more = reader.next(doc);
    if (!more) {
      std::printf("%s: %s\n", argv[1], more.error().to_string().c_str());
      status = 1;
      break;
    }
    if (!*more) break;
    std::printf("%s\n", run(doc).c_str());
  }
  std::fclose(in);
  return status;
}
