#pragma once

// A document declared in a header the scanned one includes: the model gains it because a scanned
// struct contains it.

#include <optional>
#include <string>

#include "bsongen/annotate.hpp"

namespace scan_fixture {

/// A postal address.
struct BSONGEN_DOCUMENT address {
  std::string street;
  std::optional<std::string> postcode;
};

}  // namespace scan_fixture
