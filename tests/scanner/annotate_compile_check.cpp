// Compiled with -fsyntax-only and -Werror by ctest (annotate_compile_check_*): headers annotated
// with bsongen/annotate.hpp must stay warning-free both where the markers expand to nothing (g++,
// which would warn about unknown `clang::` attributes) and where they are attributes (clang).

#include "orders.hpp"
#include "scan_fixture/all_types.hpp"

int main() {
  shop_header::order order;
  scan_fixture::options options;
  return static_cast<int>(order.number) + static_cast<int>(options.level);
}
