#pragma once

// A header whose document depends on the target's compile definitions (scanned_definitions_test).

#include <bsongen/annotate.hpp>
#include <cstdint>

namespace flagged {

struct BSONGEN_DOCUMENT settings {
  std::int32_t always = 0;
#ifdef FLAGGED_WITH_EXTRA
  std::int32_t extra = FLAGGED_EXTRA_DEFAULT;
#endif
#ifdef FLAGGED_NEVER
  std::int32_t never = 0;
#endif
};

}  // namespace flagged
