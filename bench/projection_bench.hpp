#pragma once

// The projection cases' rows (projection_bench.cpp). order_summary_1 reads order_1's document,
// which orders_bench.cpp builds: it registers the rows once that document exists.

#include <cstdint>
#include <span>

namespace bsongen::bench {

// Registers the rows of case order_summary_1 over `order_bytes` (one shop::order document, which
// must outlive the run) and registers the case's bytes.
void register_order_summary_rows(std::span<const std::uint8_t> order_bytes);

}  // namespace bsongen::bench
