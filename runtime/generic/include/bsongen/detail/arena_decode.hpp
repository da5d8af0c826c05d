#pragma once

// decode_document into arenas other than its pooled one, kept out of the public API:
//  * decode_document_unpooled: the benchmark's `generic_nopool` baseline, every element array and
//    the input copy its own call to options.memory (default: the runtime's block resource). It
//    shows what the arena saves.
//  * decode_document_shared: the document's arena drawn from shared_arena_memory, as the `any`
//    values of one generated decode are (value_wire.cpp).

#include <cstdint>
#include <span>

#include "bsongen/detail/arena.hpp"
#include "bsongen/document.hpp"

namespace bsongen::detail {

// As decode_document, with every arena allocation its own upstream call.
[[nodiscard]] result<document> decode_document_unpooled(std::span<const std::uint8_t> bytes,
                                                        const decode_options& options = {});

// As decode_document, with the arena and all its parts in `memory` (options.memory is not used).
// The document holds `memory` until it is destroyed.
[[nodiscard]] result<document> decode_document_shared(std::span<const std::uint8_t> bytes,
                                                      const decode_options& options,
                                                      shared_arena_memory& memory);

}  // namespace bsongen::detail
