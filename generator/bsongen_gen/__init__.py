"""bsongen's code generator: schema files or scanned headers -> specialized BSON codecs.

Pipeline, one module per stage (HACKING.md, "The pipeline"):
  schema_reader (YAML -> model) or model.load_json (model JSON, e.g. bsongen-scan's -> model)
  -> linker (resolve references, check every schema rule for both front ends, order the structs)
  -> layout (fixed-shape skeletons and offsets) and cpp (the C++ view: spellings, tables)
  -> render (Jinja2 templates in ../templates, then clang-format)
catalog holds what every stage knows of BSON types and kinds; tools/ the other subcommands.
"""

GENERATOR_VERSION = "0.1.0"
MODEL_VERSION = 1
# Must equal BSONGEN_RUNTIME_ABI in runtime/core/include/bsongen/version.hpp; the generated header
# static_asserts on it.
RUNTIME_ABI = 2
