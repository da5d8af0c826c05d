// bsongen-dump: BSON document streams to Extended JSON lines, and back.
//
// Exit status: 0 on success, 1 when the input is corrupt or a file cannot be read or written
// (the documents before a bad one are still output) or --canonical refused a document, 2 on a
// usage error.
//
// Extended JSON cannot represent a document holding a type wrapper's key ({"$oid": "zz"} as a
// sub-document): the specification has no escape for a leading '$', so its text would read back
// as another type or fail. --canonical promises a round trip and refuses such a document (stderr
// names it and the key, the others are printed); the relaxed default, lossy by design, prints it
// and warns.

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bsongen/document_stream.hpp"
#include "bsongen/extjson.hpp"

namespace {

constexpr int exit_ok = 0;
constexpr int exit_data_error = 1;
constexpr int exit_usage = 2;

constexpr std::string_view usage_text =
    "usage: bsongen-dump [--relaxed | --canonical] FILE.bson\n"
    "       bsongen-dump --from-json FILE.json [-o OUT.bson]\n"
    "       bsongen-dump --from-json FILE.json --relaxed | --canonical\n"
    "\n"
    "Prints each document of a BSON file (concatenated documents, as mongodump writes them) as\n"
    "one line of MongoDB Extended JSON v2, or converts Extended JSON documents (one per line,\n"
    "simply concatenated, or the elements of one JSON array as mongoexport --jsonArray writes)\n"
    "to such a BSON file. FILE '-' reads standard input.\n"
    "\n"
    "  --relaxed      relaxed Extended JSON: plain JSON numbers and ISO dates (the default)\n"
    "  --canonical    canonical Extended JSON: every BSON type kept; a document Extended JSON\n"
    "                 cannot represent (a sub-document with a key such as $oid or $numberInt)\n"
    "                 is refused, not printed\n"
    "  --from-json    read Extended JSON, write BSON; with --relaxed or --canonical, print each\n"
    "                 document as one line of that Extended JSON instead (the types the BSON\n"
    "                 conversion chose, e.g. 1 -> int32, 3000000000 -> int64, 1.0 -> double)\n"
    "  -o OUT.bson    where --from-json writes BSON (default: standard output)\n"
    "  -h, --help     this text\n"
    "\n"
    "Exit status: 0 success, 1 corrupt input or I/O failure (documents before the bad one are\n"
    "still written) or a document --canonical refused, 2 usage error.\n";

struct options {
  bsongen::extjson_mode mode = bsongen::extjson_mode::relaxed;
  bool mode_given = false;  // with --from-json: print Extended JSON lines instead of BSON
  bool from_json = false;
  std::string input;
  std::string output;
};

int usage_error(std::string_view message) {
  const std::string shown = bsongen::printable(message);
  std::fprintf(stderr, "bsongen-dump: %s\n%.*s", shown.c_str(), static_cast<int>(usage_text.size()),
               usage_text.data());
  return exit_usage;
}

// Everything that reaches stderr from the data or the command line goes through
// bsongen::printable (error::to_string() already does): keys and file names may hold terminal
// escape sequences.
void report(const std::string& source, const bsongen::error& e) {
  std::fprintf(stderr, "bsongen-dump: %s: %s\n", bsongen::printable(source).c_str(),
               e.to_string().c_str());
}

// Closes an owned FILE* on scope exit; standard streams are borrowed.
class file_handle {
 public:
  file_handle(std::FILE* f, bool owned) noexcept : file_(f), owned_(owned) {}
  file_handle(const file_handle&) = delete;
  file_handle& operator=(const file_handle&) = delete;
  ~file_handle() {
    if (owned_ && file_ != nullptr) std::fclose(file_);
  }
  [[nodiscard]] std::FILE* get() const noexcept { return file_; }
  // Closes now and reports whether buffered writes reached the file.
  bool close() noexcept {
    if (!owned_ || file_ == nullptr) return file_ == nullptr || std::fflush(file_) == 0;
    const bool ok = std::fclose(file_) == 0;
    file_ = nullptr;
    return ok;
  }

 private:
  std::FILE* file_;
  bool owned_;
};

file_handle open_input(const std::string& path) {
  if (path == "-") return {stdin, false};
  return {std::fopen(path.c_str(), "rb"), true};
}

int dump(const options& opts) {
  file_handle in = open_input(opts.input);
  if (in.get() == nullptr) {
    std::fprintf(stderr, "bsongen-dump: cannot open %s: %s\n",
                 bsongen::printable(opts.input).c_str(), std::strerror(errno));
    return exit_data_error;
  }
  bsongen::document_stream_reader reader(in.get());
  bsongen::document_view doc;
  std::string line;
  std::size_t refused = 0;
  const bool canonical = opts.mode == bsongen::extjson_mode::canonical;
  for (;;) {
    auto more = reader.next(doc);
    if (!more) {
      std::fflush(stdout);
      report(opts.input, more.error());
      std::fprintf(stderr, "bsongen-dump: %zu document(s) printed before the error\n",
                   reader.documents_read());
      return exit_data_error;
    }
    if (!*more) break;
    if (auto exact = bsongen::check_extjson_round_trip(doc); !exact) [[unlikely]] {
      bsongen::error e = std::move(exact).error();
      e.offset += reader.offset() - doc.bytes().size();
      e.message = "document " + std::to_string(reader.documents_read() - 1) + ": " + e.message +
                  (canonical ? "; not printed" : "; printed as it is (relaxed)");
      std::fflush(stdout);
      report(opts.input, e);
      if (canonical) {
        ++refused;
        continue;
      }
    }
    line.clear();
    bsongen::append_extjson(doc, line, opts.mode);
    line += '\n';
    if (std::fwrite(line.data(), 1, line.size(), stdout) != line.size()) {
      std::fprintf(stderr, "bsongen-dump: writing standard output failed: %s\n",
                   std::strerror(errno));
      return exit_data_error;
    }
  }
  if (std::fflush(stdout) != 0) {
    std::fprintf(stderr, "bsongen-dump: writing standard output failed: %s\n",
                 std::strerror(errno));
    return exit_data_error;
  }
  if (refused != 0) {
    std::fprintf(stderr,
                 "bsongen-dump: %zu document(s) not printed: canonical Extended JSON cannot "
                 "represent them\n",
                 refused);
    return exit_data_error;
  }
  return exit_ok;
}

// JSON input is read whole: Extended JSON files are text exports, and the parser needs each
// document contiguous.
bool read_all(std::FILE* f, std::string& text) {
  char chunk[1 << 16];
  for (;;) {
    const std::size_t n = std::fread(chunk, 1, sizeof chunk, f);
    text.append(chunk, n);
    if (n < sizeof chunk) return std::ferror(f) == 0;
  }
}

bool is_json_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::size_t skip_json_space(std::string_view text, std::size_t pos) noexcept {
  while (pos < text.size() && is_json_space(text[pos])) ++pos;
  return pos;
}

// Where --from-json sends each converted document: a BSON stream (the file, or standard output),
// or one Extended JSON line per document on standard output.
class json_input_sink {
 public:
  explicit json_input_sink(const options& opts)
      : opts_(opts),
        json_lines_(opts.mode_given),
        to_stdout_(json_lines_ || opts.output.empty() || opts.output == "-"),
        out_(to_stdout_ ? stdout : std::fopen(opts.output.c_str(), "wb"), !to_stdout_),
        stream_(out_.get()) {}

  [[nodiscard]] bool opened() const noexcept { return out_.get() != nullptr; }
  [[nodiscard]] std::string name() const {
    return to_stdout_ ? std::string("standard output") : opts_.output;
  }

  // Writes one converted document; false (after reporting) when the output fails.
  bool put(std::span<const std::uint8_t> bson) {
    if (!json_lines_) {
      if (auto w = stream_.write_bytes(bson); !w) {
        report(name(), w.error());
        return false;
      }
      return true;
    }
    // The bytes come from the converter, which only produces valid BSON.
    auto view = bsongen::document_view::from_bytes(bson);
    if (!view) {
      report(opts_.input, view.error());
      return false;
    }
    line_.clear();
    bsongen::append_extjson(*view, line_, opts_.mode);
    line_ += '\n';
    if (std::fwrite(line_.data(), 1, line_.size(), out_.get()) != line_.size()) {
      std::fprintf(stderr, "bsongen-dump: writing standard output failed: %s\n",
                   std::strerror(errno));
      return false;
    }
    return true;
  }

  bool close() noexcept { return out_.close(); }

 private:
  const options& opts_;
  bool json_lines_;
  bool to_stdout_;
  file_handle out_;
  bsongen::document_stream_writer stream_;
  std::string line_;
};

// Reports a problem in the JSON text at `offset` (characters from its start) for document `index`.
void report_json(const options& opts, std::size_t index, std::size_t offset, std::string message,
                 bsongen::error_code code = bsongen::error_code::json_syntax) {
  bsongen::error e(code, "document " + std::to_string(index) + ": " + std::move(message), offset);
  report(opts.input, e);
}

int from_json(const options& opts) {
  file_handle in = open_input(opts.input);
  if (in.get() == nullptr) {
    std::fprintf(stderr, "bsongen-dump: cannot open %s: %s\n",
                 bsongen::printable(opts.input).c_str(), std::strerror(errno));
    return exit_data_error;
  }
  std::string text;
  if (!read_all(in.get(), text)) {
    std::fprintf(stderr, "bsongen-dump: reading %s failed: %s\n",
                 bsongen::printable(opts.input).c_str(), std::strerror(errno));
    return exit_data_error;
  }
  json_input_sink sink(opts);
  if (!sink.opened()) {
    std::fprintf(stderr, "bsongen-dump: cannot create %s: %s\n",
                 bsongen::printable(opts.output).c_str(), std::strerror(errno));
    return exit_data_error;
  }
  const std::string_view json(text);
  bsongen::writer bson;
  std::size_t pos = skip_json_space(json, 0);
  // A JSON array holds the documents as its elements (mongoexport --jsonArray); otherwise they
  // follow one another, separated by white space only.
  const bool in_array = pos < json.size() && json[pos] == '[';
  if (in_array) pos = skip_json_space(json, pos + 1);
  bool array_closed = false;
  int status = exit_ok;
  std::size_t index = 0;
  for (;; ++index) {
    if (in_array && pos < json.size() && json[pos] == ']' && index == 0) {
      array_closed = true;
      pos = skip_json_space(json, pos + 1);
    }
    if (array_closed || pos == json.size()) break;
    bson.clear();
    auto end = bsongen::extjson_to_bson_prefix(json, pos, bson);
    if (!end) {
      bsongen::error e = std::move(end).error();  // offsets count from the file's first byte
      e.message = "document " + std::to_string(index) + ": " + e.message;
      report(opts.input, e);
      status = exit_data_error;
      break;
    }
    if (!sink.put(bson.bytes())) return exit_data_error;
    pos = skip_json_space(json, *end);
    if (!in_array) continue;
    if (pos < json.size() && json[pos] == ',') {
      pos = skip_json_space(json, pos + 1);
    } else if (pos < json.size() && json[pos] == ']') {
      array_closed = true;
      pos = skip_json_space(json, pos + 1);
      ++index;
      break;
    } else {
      report_json(opts, index + 1, pos, "expected , or ] after a document in the JSON array");
      ++index;
      status = exit_data_error;
      break;
    }
  }
  if (status == exit_ok && in_array && !array_closed) {
    report_json(opts, index, pos, "the JSON array is not closed with ]");
    status = exit_data_error;
  } else if (status == exit_ok && pos != json.size()) {
    report_json(opts, index, pos, "text after the JSON array");
    status = exit_data_error;
  }
  if (status != exit_ok) {
    std::fprintf(stderr, "bsongen-dump: %zu document(s) written before the error\n", index);
  }
  if (!sink.close()) {
    std::fprintf(stderr, "bsongen-dump: writing %s failed: %s\n",
                 bsongen::printable(sink.name()).c_str(), std::strerror(errno));
    return exit_data_error;
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  options opts;
  bool mode_given = false;
  std::vector<std::string_view> args(argv + 1, argv + argc);
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view a = args[i];
    if (a == "-h" || a == "--help") {
      std::fwrite(usage_text.data(), 1, usage_text.size(), stdout);
      return exit_ok;
    } else if (a == "--relaxed" || a == "--canonical") {
      opts.mode =
          a == "--relaxed" ? bsongen::extjson_mode::relaxed : bsongen::extjson_mode::canonical;
      mode_given = true;
    } else if (a == "--from-json") {
      opts.from_json = true;
    } else if (a == "-o") {
      if (i + 1 == args.size()) return usage_error("-o needs a file name");
      opts.output = args[++i];
    } else if (a.size() > 1 && a[0] == '-') {
      return usage_error("unknown option " + std::string(a));
    } else if (!opts.input.empty()) {
      return usage_error("more than one input file");
    } else {
      opts.input = a;
    }
  }
  if (opts.input.empty()) return usage_error("no input file (use - for standard input)");
  opts.mode_given = mode_given;
  if (opts.from_json && mode_given && !opts.output.empty())
    return usage_error("-o writes BSON; --from-json with --relaxed/--canonical prints JSON lines");
  if (!opts.from_json && !opts.output.empty()) return usage_error("-o applies to --from-json only");
  return opts.from_json ? from_json(opts) : dump(opts);
}
