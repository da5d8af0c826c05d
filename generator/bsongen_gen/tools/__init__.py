"""bsongen's tools beyond code generation, one module per command:

  infer       documents (mongodump .bson, Extended JSON) -> a schema file
  jsonschema  a schema's struct -> a MongoDB $jsonSchema validator
  diff        two schemas -> each change, compatible or breaking for readers and writers
  commands    the `bsongen` subcommands for these and for bsongen-scan / bsongen-dump

They read schemas with the generator's own front end (schemas.py) and describe BSON types with
wire.py. Nothing here is an input of generated code, so editing a tool regenerates nothing.
"""
