// Typed field paths turn a wrong path into a compile error (field_paths_compile_test.py compiles
// this with every compiler, once per mode). As is, it names real paths and must compile; with
// BSONGEN_MISSPELLED it names `customer.nmae`, with BSONGEN_NOT_KEPT a member the projection
// order_summary does not keep (`customer.email`), and neither may compile. The same file both
// ways, so the failing modes cannot fail for some other reason unnoticed.

#include <string_view>

#include "orders.bsongen.hpp"

#if defined(BSONGEN_MISSPELLED)
constexpr std::string_view name_path = shop::order_paths::customer.nmae;
#elif defined(BSONGEN_NOT_KEPT)
constexpr std::string_view name_path = shop::order_summary_paths::customer.email;
#else
constexpr std::string_view name_path = shop::order_summary_paths::customer.name;
#endif
static_assert(name_path == "customer.name" || name_path == "customer.email");

int main() { return name_path.empty() ? 1 : 0; }
