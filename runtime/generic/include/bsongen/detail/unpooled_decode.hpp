#pragma once

// The benchmark's `generic_nopool` baseline, kept out of the public API: decode_document without
// the bump arena, every element array and the input copy its own call to options.memory (default:
// the runtime's block resource). It shows what the arena saves; nothing else needs it.

#include <cstdint>
#include <span>

#include "bsongen/document.hpp"

namespace bsongen::detail {

// As decode_document, with every arena allocation its own upstream call.
[[nodiscard]] result<document> decode_document_unpooled(std::span<const std::uint8_t> bytes,
                                                        const decode_options& options = {});

}  // namespace bsongen::detail
