#pragma once

// A document from another header of the application, reached only through members of the scanned
// header's structs.

#include <optional>
#include <string>

#include "bsongen/annotate.hpp"

namespace corp::rw {
inline namespace v2 {

struct BSONGEN_DOCUMENT geo_point {
  double lat;  // no initializers: a value-initialized geo_point is all zero
  double lon;
  std::optional<std::string> label;
};

}  // namespace v2
}  // namespace corp::rw
