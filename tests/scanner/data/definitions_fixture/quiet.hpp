#pragma once

// A header scanned for a library whose compile definitions all evaluate to nothing
// (scanned_definitions_test).

#include <bsongen/annotate.hpp>
#include <cstddef>
#include <string>

namespace quiet {

struct BSONGEN_DOCUMENT note {
  std::string text;
#ifdef FLAGGED_NEVER
  int never = 0;
#endif
};

// The encoded size of `n` (quiet.cpp: the library uses the code generated for it).
std::size_t byte_count(const note& n);

}  // namespace quiet
