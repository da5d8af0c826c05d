#pragma once

// The runtime's version. Generated code static_asserts on BSONGEN_RUNTIME_ABI so that output from
// one generator version never silently links against a runtime it was not written for.
#define BSONGEN_VERSION_MAJOR 0
#define BSONGEN_VERSION_MINOR 1
#define BSONGEN_VERSION_PATCH 0
#define BSONGEN_RUNTIME_ABI 2

namespace bsongen {
inline constexpr int runtime_abi = BSONGEN_RUNTIME_ABI;
}  // namespace bsongen
