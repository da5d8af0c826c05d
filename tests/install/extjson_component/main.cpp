// A generated struct to Extended JSON and back: encode app::person (generated code), print the
// document as canonical Extended JSON, parse that text back to BSON and decode it again.
#include <bsongen/document_view.hpp>
#include <bsongen/extjson.hpp>
#include <cstdio>
#include <string>

#include "person.bsongen.hpp"

int main() {
  app::person ada;
  ada.id = bsongen::object_id::from_hex("56e1fc72e0c917e9c4714161").value();
  ada.name = "Ada";
  ada.age = 36;
  ada.role = app::role::admin;
  ada.emails = {"ada@example.com"};

  bsongen::result<bsongen::byte_buffer> bytes = bsongen::encode(ada);
  if (!bytes) return std::fprintf(stderr, "encode: %s\n", bytes.error().to_string().c_str()), 1;
  auto view = bsongen::document_view::from_bytes(bytes->span());
  if (!view) return std::fprintf(stderr, "view: %s\n", view.error().to_string().c_str()), 1;
  const std::string json = bsongen::to_extjson(*view, bsongen::extjson_mode::canonical);
  if (json.find(R"("_id":{"$oid":"56e1fc72e0c917e9c4714161"})") == std::string::npos ||
      json.find(R"("age":{"$numberInt":"36"})") == std::string::npos)
    return std::fprintf(stderr, "unexpected Extended JSON: %s\n", json.c_str()), 1;

  bsongen::result<bsongen::byte_buffer> again = bsongen::extjson_to_bson(json);
  if (!again) return std::fprintf(stderr, "parse: %s\n", again.error().to_string().c_str()), 1;
  bsongen::result<app::person> back = bsongen::decode<app::person>(again->span());
  if (!back || !(*back == ada)) return std::fprintf(stderr, "round trip through JSON failed\n"), 1;
  std::printf("%s\n", json.c_str());
  return 0;
}
