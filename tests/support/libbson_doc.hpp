#pragma once

// A libbson document owned for a scope, for tests that write their input with libbson (the peer
// whose bytes the generated decoders must read).

#include <bson/bson.h>

#include <cstdint>
#include <vector>

namespace bsongen::test {

struct libbson_doc {
  bson_t* doc = bson_new();
  libbson_doc() = default;
  libbson_doc(const libbson_doc&) = delete;
  libbson_doc& operator=(const libbson_doc&) = delete;
  ~libbson_doc() { bson_destroy(doc); }
  // The document's bytes, copied.
  [[nodiscard]] std::vector<std::uint8_t> data() const {
    const std::uint8_t* p = bson_get_data(doc);
    return {p, p + doc->len};
  }
};

}  // namespace bsongen::test
