"""bsongen's code generator: schema files or scanned headers -> specialized BSON codecs.

Pipeline, one module per stage:
  schema_reader (YAML -> model) or model.load_json (model JSON -> model)
  -> linker (resolve references, validate, compute layouts)
  -> render (Jinja2 templates in ../templates)
"""

GENERATOR_VERSION = "0.1.0"
MODEL_VERSION = 1
# Must equal BSONGEN_RUNTIME_ABI in runtime/core/include/bsongen/version.hpp; the generated header
# static_asserts on it.
RUNTIME_ABI = 2
