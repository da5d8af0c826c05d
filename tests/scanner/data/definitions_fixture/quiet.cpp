#include "quiet.hpp"

#include "quiet.bsongen.hpp"

namespace quiet {

std::size_t byte_count(const note& n) {
  auto bytes = bsongen::encode(n);
  return bytes ? bytes->size() : 0;
}

}  // namespace quiet
