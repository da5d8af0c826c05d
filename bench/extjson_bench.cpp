// Extended JSON rows, and the measurement behind the runtime's choice of JSON tokenizer.
//
// Rows for each driver benchmark document (flat_bson, deep_bson, full_bson: canonical Extended
// JSON files; throughput is counted in BSON bytes, like every other row, so MB/s compare across
// rows):
//  * `<case>/extjson_simdjson_ondemand/decode`: bsongen::extjson_to_bson, Extended JSON text to
//    BSON into a reused writer: simdjson On Demand feeding detail::extjson_builder, what the
//    runtime ships (its padded copy of the text included).
//  * `<case>/extjson_simdjson_dom/decode`, `<case>/extjson_rapidjson/decode`,
//    `<case>/extjson_nlohmann/decode`: the same builder driven by the other Debian JSON
//    tokenizers (simdjson's DOM parser, RapidJSON's SAX reader with numbers as raw text,
//    nlohmann::json's SAX interface), so the rows compare tokenizers with the Extended JSON
//    mapping held constant. Kept as the documented evidence for the choice (extjson_parse.cpp).
//  * `<case>/extjson_libbson/decode`: libbson's bson_init_from_json into a reused bson_t.
//  * `<case>/extjson_relaxed/encode`, `<case>/extjson_canonical/encode`: bsongen::append_extjson
//    from a validated document_view into a reused string;
//    `<case>/extjson_libbson/encode`: bson_as_relaxed_extended_json (it allocates the string).
// Every row checks its output before timing: decoders must produce exactly the BSON libbson
// produces from the same file (bench_data), encoders text that parses back to those bytes.

#include <bson/bson.h>

#include <fstream>
#include <nlohmann/json.hpp>
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wshadow"
#endif
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
#include <benchmark/benchmark.h>
#include <simdjson.h>

#include <sstream>
#include <string>

#include "bench_data.hpp"
#include "bsongen/detail/extjson_builder.hpp"
#include "bsongen/document_view.hpp"
#include "bsongen/extjson.hpp"
#include "seed_cases.hpp"

namespace bsongen::bench {
namespace {

std::string read_text(const std::string& name) {
  const std::string path = std::string(BSONGEN_BENCH_DATA_DIR) + "/" + name + ".json";
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(name, "cannot read " + path + " (set BSONGEN_BENCH_DATA_DIR)");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// ---- simdjson DOM: parse to its tape, then walk it in document order. ----
bool walk_dom(simdjson::dom::element e, detail::extjson_builder& b) {
  using simdjson::dom::element_type;
  switch (e.type()) {
    case element_type::OBJECT: {
      if (!b.begin_object(0)) return false;
      for (simdjson::dom::key_value_pair field : simdjson::dom::object(e)) {
        if (!b.key(field.key, 0) || !walk_dom(field.value, b)) return false;
      }
      return b.end_object(0);
    }
    case element_type::ARRAY: {
      if (!b.begin_array(0)) return false;
      for (simdjson::dom::element item : simdjson::dom::array(e)) {
        if (!walk_dom(item, b)) return false;
      }
      return b.end_array(0);
    }
    case element_type::STRING:
      return b.string_value(std::string_view(e), 0);
    case element_type::INT64:
      return b.int64_value(std::int64_t(e), 0);
    case element_type::UINT64:
      return b.uint64_value(std::uint64_t(e), 0);
    case element_type::DOUBLE:
      return b.double_value(double(e), 0);
    case element_type::BOOL:
      return b.bool_value(bool(e), 0);
    case element_type::NULL_VALUE:
      return b.null_value(0);
  }
  return false;
}

// ---- RapidJSON SAX: numbers as raw text, converted by the builder. ----
class rapidjson_sax {
 public:
  rapidjson_sax(detail::extjson_builder& b, const rapidjson::MemoryStream& stream)
      : b_(b), stream_(stream) {}
  bool Null() { return b_.null_value(at()); }
  bool Bool(bool v) { return b_.bool_value(v, at()); }
  bool Int(int i) { return b_.int64_value(i, at()); }
  bool Uint(unsigned u) { return b_.int64_value(u, at()); }
  bool Int64(std::int64_t i) { return b_.int64_value(i, at()); }
  bool Uint64(std::uint64_t u) { return b_.uint64_value(u, at()); }
  bool Double(double d) { return b_.double_value(d, at()); }
  bool RawNumber(const char* s, rapidjson::SizeType n, bool) {
    return b_.number_text({s, n}, at());
  }
  bool String(const char* s, rapidjson::SizeType n, bool) { return b_.string_value({s, n}, at()); }
  bool StartObject() { return b_.begin_object(at()); }
  bool Key(const char* s, rapidjson::SizeType n, bool) { return b_.key({s, n}, at()); }
  bool EndObject(rapidjson::SizeType) { return b_.end_object(at()); }
  bool StartArray() { return b_.begin_array(at()); }
  bool EndArray(rapidjson::SizeType) { return b_.end_array(at()); }

 private:
  [[nodiscard]] std::size_t at() const { return stream_.Tell(); }
  detail::extjson_builder& b_;
  const rapidjson::MemoryStream& stream_;
};

// ---- nlohmann::json SAX: every key and string arrives as a std::string. ----
class nlohmann_sax : public nlohmann::json::json_sax_t {
 public:
  explicit nlohmann_sax(detail::extjson_builder& b) : b_(b) {}
  bool null() override { return b_.null_value(0); }
  bool boolean(bool v) override { return b_.bool_value(v, 0); }
  bool number_integer(number_integer_t v) override { return b_.int64_value(v, 0); }
  bool number_unsigned(number_unsigned_t v) override { return b_.uint64_value(v, 0); }
  bool number_float(number_float_t v, const string_t&) override { return b_.double_value(v, 0); }
  bool string(string_t& s) override { return b_.string_value(s, 0); }
  bool binary(binary_t&) override { return false; }
  bool start_object(std::size_t) override { return b_.begin_object(0); }
  bool key(string_t& k) override { return b_.key(k, 0); }
  bool end_object() override { return b_.end_object(0); }
  bool start_array(std::size_t) override { return b_.begin_array(0); }
  bool end_array() override { return b_.end_array(0); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

 private:
  detail::extjson_builder& b_;
};

// One decode candidate: appends the BSON of `json` to `out`; false on failure.
using decode_fn = std::function<bool(const std::string& json, writer& out)>;

void register_decode(const bench_document& d, const std::string& json, const std::string& impl,
                     decode_fn decode) {
  register_row(d.name, impl, "decode", [&d, &json, impl, decode](benchmark::State& state) {
    const std::string row = row_name(d.name, impl, "decode");
    writer out;
    if (!decode(json, out)) fail(row, "the candidate rejects the document");
    check_bytes(row, out.bytes(), d.bytes.span());
    for (auto _ : state) {
      out.clear();
      decode(json, out);
      benchmark::DoNotOptimize(out.data());
    }
    set_document_throughput(state, d.bytes.size());
  });
}

void register_extjson_rows() {
  static std::vector<std::string> texts;  // outlive the rows
  const std::vector<bench_document>& docs = get_bench_documents();
  texts.reserve(docs.size());
  for (const bench_document& d : docs) {
    texts.push_back(read_text(d.name));
    const std::string& json = texts.back();

    register_decode(d, json, "extjson_simdjson_ondemand", [](const std::string& text, writer& out) {
      return extjson_to_bson(text, out).has_value();
    });
    register_decode(d, json, "extjson_rapidjson", [](const std::string& text, writer& out) {
      const extjson_parse_options options;
      detail::extjson_builder builder(out, options);
      rapidjson::MemoryStream stream(text.data(), text.size());
      rapidjson_sax sax(builder, stream);
      rapidjson::Reader reader;
      constexpr unsigned flags =
          rapidjson::kParseNumbersAsStringsFlag | rapidjson::kParseValidateEncodingFlag;
      return !reader.Parse<flags>(stream, sax).IsError() && builder.finished();
    });
    register_decode(d, json, "extjson_simdjson_dom", [](const std::string& text, writer& out) {
      static simdjson::dom::parser parser;
      const extjson_parse_options options;
      detail::extjson_builder builder(out, options);
      simdjson::dom::element root;
      // Counted in the row: a caller's text has no simdjson padding, so the parser copies it.
      if (parser.parse(text.data(), text.size(), true).get(root) != simdjson::SUCCESS) return false;
      return walk_dom(root, builder) && builder.finished();
    });
    register_decode(d, json, "extjson_nlohmann", [](const std::string& text, writer& out) {
      const extjson_parse_options options;
      detail::extjson_builder builder(out, options);
      nlohmann_sax sax(builder);
      return nlohmann::json::sax_parse(text, &sax) && builder.finished();
    });
    register_decode(d, json, "extjson_libbson", [](const std::string& text, writer& out) {
      static bson_t doc = BSON_INITIALIZER;
      bson_reinit(&doc);
      bson_error_t err;
      if (!bson_init_from_json(&doc, text.data(), static_cast<ssize_t>(text.size()), &err))
        return false;
      out.put_bytes(bson_get_data(&doc), doc.len);
      return true;
    });

    for (const extjson_mode mode : {extjson_mode::relaxed, extjson_mode::canonical}) {
      const std::string impl =
          mode == extjson_mode::relaxed ? "extjson_relaxed" : "extjson_canonical";
      register_row(d.name, impl, "encode", [&d, impl, mode](benchmark::State& state) {
        const std::string row = row_name(d.name, impl, "encode");
        const auto view = document_view::from_bytes(d.bytes.span());
        if (!view) fail(row, view.error().to_string());
        std::string text;
        append_extjson(*view, text, mode);
        auto back = extjson_to_bson(text);
        if (!back) fail(row, "our text does not parse back: " + back.error().to_string());
        if (mode == extjson_mode::canonical) {
          check_bytes(row, back->span(), d.bytes.span());
        } else if (to_extjson(*document_view::from_bytes(back->span()), mode) != text) {
          fail(row, "relaxed text does not survive a round trip through BSON");
        }
        for (auto _ : state) {
          text.clear();
          append_extjson(*view, text, mode);
          benchmark::DoNotOptimize(text.data());
        }
        set_document_throughput(state, d.bytes.size());
      });
    }
    register_row(d.name, "extjson_libbson", "encode", [&d](benchmark::State& state) {
      const std::string row = row_name(d.name, "extjson_libbson", "encode");
      bson_t doc;
      if (!bson_init_static(&doc, d.bytes.data(), d.bytes.size()))
        fail(row, "libbson rejects the bytes");
      for (auto _ : state) {
        std::size_t length = 0;
        char* text = bson_as_relaxed_extended_json(&doc, &length);
        benchmark::DoNotOptimize(text);
        bson_free(text);
      }
      set_document_throughput(state, d.bytes.size());
    });
  }
}

const bool registered = [] {
  register_extjson_rows();
  return true;
}();

}  // namespace
}  // namespace bsongen::bench
