// Extended JSON text to BSON: RapidJSON's SAX reader tokenizes, detail::extjson_builder maps.
//
// Why RapidJSON (measured with bench/extjson_bench.cpp, rows <case>/extjson_<tokenizer>/decode,
// g++ 12 -O3, flat/deep/full bench-data documents; figures in bench/README.md and the commit
// that made this choice): all three Debian candidates drive the same builder, so the rows
// compare tokenizers alone.
//  * RapidJSON SAX streams tokens straight into the builder with no tree and no copy of the input,
//    reports the character offset of syntax errors, and lets the builder see the offset of every
//    token (Tell()), which our json_invalid errors need. It is header-only: the runtime gains no
//    link dependency.
//  * simdjson (On Demand) was measured at parity or slower here: the documents are small (2-8 KB),
//    so its SIMD stage 1 does not amortize, and it needs a padded copy of every input.
//  * nlohmann::json's SAX interface copies every key and string into a std::string and was the
//    slowest by a wide margin.
// Numbers arrive as raw text (kParseNumbersAsStringsFlag) and are converted by the builder with
// std::from_chars, which is correctly rounded, so no tokenizer-specific rounding leaks in.

#include <string>

#include "bsongen/detail/extjson_builder.hpp"
#include "bsongen/extjson.hpp"

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wold-style-cast"
#pragma GCC diagnostic ignored "-Wuseless-cast"
#endif
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace bsongen {
namespace {

constexpr unsigned whole_document_flags =
    rapidjson::kParseNumbersAsStringsFlag | rapidjson::kParseValidateEncodingFlag;
constexpr unsigned prefix_flags = whole_document_flags | rapidjson::kParseStopWhenDoneFlag;

// Forwards RapidJSON's SAX events to the builder with the stream position of each.
class sax_handler {
 public:
  sax_handler(detail::extjson_builder& builder, const rapidjson::MemoryStream& stream)
      : builder_(builder), stream_(stream) {}

  bool Null() { return builder_.null_value(at()); }
  bool Bool(bool b) { return builder_.bool_value(b, at()); }
  // kParseNumbersAsStringsFlag routes every number to RawNumber; these keep the interface whole.
  bool Int(int i) { return builder_.int64_value(i, at()); }
  bool Uint(unsigned u) { return builder_.int64_value(u, at()); }
  bool Int64(std::int64_t i) { return builder_.int64_value(i, at()); }
  bool Uint64(std::uint64_t u) { return builder_.uint64_value(u, at()); }
  bool Double(double d) { return builder_.double_value(d, at()); }
  bool RawNumber(const char* s, rapidjson::SizeType n, bool) { return builder_.number_text({s, n}, at()); }
  bool String(const char* s, rapidjson::SizeType n, bool) { return builder_.string_value({s, n}, at()); }
  bool StartObject() { return builder_.begin_object(at() - 1); }
  bool Key(const char* s, rapidjson::SizeType n, bool) { return builder_.key({s, n}, at()); }
  bool EndObject(rapidjson::SizeType) { return builder_.end_object(at()); }
  bool StartArray() { return builder_.begin_array(at() - 1); }
  bool EndArray(rapidjson::SizeType) { return builder_.end_array(at()); }

 private:
  [[nodiscard]] std::size_t at() const { return stream_.Tell(); }
  detail::extjson_builder& builder_;
  const rapidjson::MemoryStream& stream_;
};

// Runs one parse; returns the characters consumed.
template <unsigned Flags>
result<std::size_t> run(std::string_view json, writer& out, const extjson_parse_options& options) {
  const std::size_t start_size = out.size();
  detail::extjson_builder builder(out, options);
  rapidjson::MemoryStream stream(json.data(), json.size());
  sax_handler handler(builder, stream);
  rapidjson::Reader reader;
  const rapidjson::ParseResult parsed = reader.Parse<Flags>(stream, handler);
  if (parsed.IsError() || !builder.finished()) {
    out.truncate(start_size);
    if (builder.failure().code != error_code::ok) return builder.failure();
    if (parsed.IsError()) {
      builder.syntax_error(rapidjson::GetParseError_En(parsed.Code()),
                           parsed.Offset());
    } else {
      builder.syntax_error("no JSON document in the text", parsed.Offset());
    }
    return builder.failure();
  }
  return stream.Tell();
}

}  // namespace

result<void> extjson_to_bson(std::string_view json, writer& out, const extjson_parse_options& options) {
  auto r = run<whole_document_flags>(json, out, options);
  if (!r) return std::move(r).error();
  return {};
}

result<byte_buffer> extjson_to_bson(std::string_view json, const extjson_parse_options& options) {
  writer out;
  out.reserve(json.size());
  auto r = run<whole_document_flags>(json, out, options);
  if (!r) return std::move(r).error();
  return out.take();
}

result<std::size_t> extjson_to_bson_prefix(std::string_view json, writer& out, const extjson_parse_options& options) {
  return run<prefix_flags>(json, out, options);
}

result<document> parse_extjson(std::string_view json, const extjson_parse_options& options) {
  thread_local writer bytes;
  bytes.clear();
  auto r = run<whole_document_flags>(json, bytes, options);
  if (!r) return std::move(r).error();
  decode_options decode;
  decode.max_size = options.max_size;
  decode.max_depth = options.max_depth;  // JSON nesting bounds the BSON nesting it produced
  return decode_document(bytes.bytes(), decode);
}

}  // namespace bsongen
