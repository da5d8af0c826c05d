// Fuzz target: document_view::from_bytes on arbitrary bytes, then a full walk of the view.
//
// Properties: the view accepts exactly what decode_document accepts, with the same error; the
// walk (iteration, every typed accessor, nested documents, arrays and scopes, lookup) reads the
// same keys, types and values as the decoded document, and every key, string, binary and nested
// span the view hands out lies inside the input.

#include <cstdint>
#include <span>

#include "bsongen/document.hpp"
#include "bsongen/document_view.hpp"
#include "fuzz_support.hpp"

using namespace bsongen;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> input(data, size);
  result<document_view> view = document_view::from_bytes(input);
  result<document> decoded = decode_document(input);
  BSONGEN_FUZZ_REQUIRE(view.has_value() == decoded.has_value(),
                       "view and decode disagree on validity");
  if (!view) {
    fuzz::require_sane_error(view.error(), size);
    BSONGEN_FUZZ_REQUIRE(fuzz::same_error(view.error(), decoded.error()),
                         "view and decode report different errors");
    return 0;
  }
  BSONGEN_FUZZ_REQUIRE(fuzz::same_bytes(view->bytes(), input), "the view does not span the input");
  fuzz::require_view_matches(*view, *decoded, false, input);
  return 0;
}
