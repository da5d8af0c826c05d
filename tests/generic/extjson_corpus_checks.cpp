#include "extjson_corpus_checks.hpp"

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "bsongen/decimal128.hpp"
#include "bsongen/document.hpp"
#include "bsongen/document_view.hpp"
#include "bsongen/extjson.hpp"

namespace bsongen::test {
namespace {

using ordered_json = nlohmann::ordered_json;

std::vector<std::uint8_t> from_hex(std::string_view hex) {
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return 0;
  };
  std::vector<std::uint8_t> bytes;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    bytes.push_back(static_cast<std::uint8_t>(digit(hex[i]) << 4 | digit(hex[i + 1])));
  }
  return bytes;
}

std::string to_hex(std::span<const std::uint8_t> bytes) {
  static constexpr char digits[] = "0123456789ABCDEF";
  std::string out;
  for (const std::uint8_t b : bytes) {
    out += digits[b >> 4];
    out += digits[b & 0xF];
  }
  return out;
}

// Structural equality that nlohmann's operator== is too lenient for: it equates 1 and 1.0 and
// ignores the sign of zero, both of which Extended JSON relies on.
bool same_json(const ordered_json& a, const ordered_json& b) {
  const bool a_int = a.is_number_integer();
  const bool b_int = b.is_number_integer();
  if (a_int || b_int) {
    if (!(a_int && b_int)) return false;
    if (a.is_number_unsigned() || b.is_number_unsigned())
      return a.get<std::uint64_t>() == b.get<std::uint64_t>();
    return a.get<std::int64_t>() == b.get<std::int64_t>();
  }
  if (a.type() != b.type()) return false;
  if (a.is_number_float()) {
    const double x = a.get<double>();
    const double y = b.get<double>();
    return x == y && std::signbit(x) == std::signbit(y);
  }
  if (a.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto i = a.begin(), j = b.begin(); i != a.end(); ++i, ++j) {
      if (i.key() != j.key() || !same_json(i.value(), j.value())) return false;
    }
    return true;
  }
  if (a.is_array()) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!same_json(a[i], b[i])) return false;
    }
    return true;
  }
  return a == b;
}

void expect_same_json(std::vector<std::string>& failures, const std::string& what,
                      std::string_view produced, std::string_view expected) {
  const ordered_json p = ordered_json::parse(produced, nullptr, false);
  const ordered_json e = ordered_json::parse(expected, nullptr, false);
  if (p.is_discarded()) {
    failures.push_back(what + ": produced text is not JSON: " + std::string(produced));
  } else if (!same_json(p, e)) {
    failures.push_back(what + ": produced " + std::string(produced) + ", expected " +
                       std::string(expected));
  }
}

// Parses Extended JSON to bytes; records a failure and returns nullopt when the parser rejects it.
std::optional<byte_buffer> parse(std::vector<std::string>& failures, const std::string& what,
                                 std::string_view json) {
  auto bytes = extjson_to_bson(json);
  if (!bytes) {
    failures.push_back(what + ": rejected: " + bytes.error().to_string());
    return std::nullopt;
  }
  return std::move(*bytes);
}

}  // namespace

std::vector<std::string> check_extjson_valid(const extjson_valid_case& c) {
  std::vector<std::string> failures;
  const std::vector<std::uint8_t> canonical_bson = from_hex(c.canonical_bson_hex);
  const auto view = document_view::from_bytes(canonical_bson);
  if (!view) {
    failures.push_back("canonical_bson does not decode: " + view.error().to_string());
    return failures;
  }
  const auto doc = decode_document(canonical_bson);
  if (!doc) {
    failures.push_back("canonical_bson does not decode to a document: " + doc.error().to_string());
    return failures;
  }

  expect_same_json(failures, "cB -> canonical (view)", to_extjson(*view, extjson_mode::canonical),
                   c.canonical_extjson);
  expect_same_json(failures, "cB -> canonical (document)",
                   to_extjson(doc->ref(), extjson_mode::canonical), c.canonical_extjson);
  if (c.relaxed_extjson) {
    expect_same_json(failures, "cB -> relaxed (view)", to_extjson(*view, extjson_mode::relaxed),
                     *c.relaxed_extjson);
    expect_same_json(failures, "cB -> relaxed (document)",
                     to_extjson(doc->ref(), extjson_mode::relaxed), *c.relaxed_extjson);
  }

  if (auto bytes = parse(failures, "canonical_extjson", c.canonical_extjson)) {
    const auto parsed = document_view::from_bytes(*bytes);
    if (!parsed) {
      failures.push_back("canonical_extjson parsed to invalid BSON: " + parsed.error().to_string());
    } else {
      expect_same_json(failures, "cEJ -> BSON -> canonical",
                       to_extjson(*parsed, extjson_mode::canonical), c.canonical_extjson);
    }
    if (!c.lossy && to_hex(*bytes) != to_hex(canonical_bson)) {
      failures.push_back("cEJ -> BSON: produced " + to_hex(*bytes) + ", expected " +
                         to_hex(canonical_bson));
    }
  }
  if (!c.lossy) {
    if (auto parsed = parse_extjson(c.canonical_extjson); !parsed) {
      failures.push_back("parse_extjson(canonical_extjson) rejected: " +
                         parsed.error().to_string());
    } else if (const byte_buffer encoded = encode_document(parsed->ref());
               to_hex(encoded) != to_hex(canonical_bson)) {
      failures.push_back("parse_extjson(cEJ) -> encode: produced " + to_hex(encoded));
    }
  }

  if (c.relaxed_extjson) {
    if (auto bytes = parse(failures, "relaxed_extjson", *c.relaxed_extjson)) {
      const auto parsed = document_view::from_bytes(*bytes);
      if (!parsed) {
        failures.push_back("relaxed_extjson parsed to invalid BSON: " + parsed.error().to_string());
      } else {
        expect_same_json(failures, "rEJ -> BSON -> relaxed",
                         to_extjson(*parsed, extjson_mode::relaxed), *c.relaxed_extjson);
      }
    }
  }

  if (c.degenerate_extjson) {
    if (auto bytes = parse(failures, "degenerate_extjson", *c.degenerate_extjson)) {
      const auto parsed = document_view::from_bytes(*bytes);
      if (!parsed) {
        failures.push_back("degenerate_extjson parsed to invalid BSON: " +
                           parsed.error().to_string());
      } else {
        expect_same_json(failures, "dEJ -> BSON -> canonical",
                         to_extjson(*parsed, extjson_mode::canonical), c.canonical_extjson);
      }
      if (!c.lossy && to_hex(*bytes) != to_hex(canonical_bson)) {
        failures.push_back("dEJ -> BSON: produced " + to_hex(*bytes) + ", expected " +
                           to_hex(canonical_bson));
      }
    }
  }
  return failures;
}

std::vector<std::string> check_extjson_parse_error(std::string_view bson_type,
                                                   std::string_view text) {
  std::vector<std::string> failures;
  auto expect_rejected = [&](const std::string& what, std::string_view json) {
    auto r = extjson_to_bson(json);
    if (r) {
      failures.push_back(what + ": accepted " + std::string(json) + " as BSON " + to_hex(*r));
    } else if (r.error().code != error_code::json_syntax &&
               r.error().code != error_code::json_invalid) {
      failures.push_back(what + ": rejected with " + std::string(name(r.error().code)) +
                         ", expected json_syntax or json_invalid: " + r.error().to_string());
    } else if (r.error().message.empty()) {
      failures.push_back(what + ": rejected without a message");
    }
  };
  if (bson_type == "0x13") {
    if (auto d = decimal128::from_string(text)) {
      failures.push_back("decimal128::from_string accepted " + std::string(text) + " as " +
                         d->to_string());
    }
    const std::string json = R"({"d": {"$numberDecimal": )" +
                             ordered_json(std::string(text))
                                 .dump(-1, ' ', false, ordered_json::error_handler_t::replace) +
                             "}}";
    expect_rejected("$numberDecimal", json);
  } else {
    expect_rejected("Extended JSON parser", text);
  }
  return failures;
}

}  // namespace bsongen::test
