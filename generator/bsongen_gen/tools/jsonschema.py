"""`bsongen jsonschema`: a struct of a schema as a MongoDB `$jsonSchema` validator.

The contract (tests/tools/jsonschema_test.py checks it against the generated decoder): every
document the decoder accepts satisfies the validator, and documents of the wrong shape fail it:
wrong BSON types, missing required fields, unknown fields under `unknown_fields: reject`, values
an enum does not name, arrays of the wrong size, integers outside a narrower C++ spelling
(and fractions, for a double held in an integer).

What `$jsonSchema` cannot say, so the validator accepts although the decoder rejects: a binary
subtype (`uuid` is any binData here), a repeated key under `duplicate_keys: reject`, and nesting
deeper than a recursive struct's first level (MongoDB has no $ref; the repeated struct is
`bsonType: object` without properties).

Per type: each kind's bsonType is what its decoder accepts (wire.py): `double` accepts int too,
`int64` accepts int, `number<int64>` int and long, `number<double>` int, long and double; `any`
has no bsonType. `optional<T>` adds null (the decoder reads a null as absent), `nullable<T>`
adds null. Enums give `enum` with the stored names (string storage) or values (int32 storage).
"""

from __future__ import annotations

import json
from typing import Any

from ..diagnostics import Location, SchemaError, did_you_mean
from ..model import Field, Model, Struct, TypeRef
from . import schemas, wire

# bsonType lists in this order: the order of the BSON type bytes.
_ORDER = {alias: index for index, alias in enumerate(sorted(
    wire.BSON_ALIASES.values(),
    key=lambda alias: next(b for b, a in wire.BSON_ALIASES.items() if a == alias)))}


def _bson_types(tags) -> Any:
    aliases = sorted({wire.bson_type(tag) for tag in tags}, key=_ORDER.__getitem__)
    return aliases[0] if len(aliases) == 1 else aliases


def _with_null(schema: dict) -> dict:
    """`schema` that also admits null (for optional and nullable)."""
    if "bsonType" not in schema:  # any: admits null already
        return schema
    types = schema["bsonType"] if isinstance(schema["bsonType"], list) else [schema["bsonType"]]
    out = dict(schema)
    out["bsonType"] = _bson_types([*types, "null"])
    if "enum" in out and None not in out["enum"]:
        out["enum"] = [*out["enum"], None]
    return out


class _Writer:
    def __init__(self, model: Model):
        self.definitions = schemas.Definitions(model)

    def struct(self, s: Struct, expanding: tuple) -> dict:
        out: dict[str, Any] = {"bsonType": "object", "title": s.name}
        if s.doc:
            out["description"] = s.doc
        required = [f.key for f in s.fields if f.required]
        if required:
            out["required"] = required
        out["properties"] = {f.key: self.field(f, expanding + (s.name,)) for f in s.fields}
        if s.unknown_fields == "reject":
            out["additionalProperties"] = False
        return out

    def field(self, f: Field, expanding: tuple) -> dict:
        out = self.type(f.type, expanding)
        if f.doc and "description" not in out:
            out = {**out, "description": f.doc}
        return out

    def type(self, t: TypeRef, expanding: tuple) -> dict:
        if t.kind in ("optional", wire.NULLABLE):
            return _with_null(self.type(t.element, expanding))
        if t.kind == wire.NUMBER:
            return {"bsonType": _bson_types(wire.NUMBER_WIRE[t.element.kind].reads)}
        if t.kind == "struct":
            if t.name in expanding:
                return {"bsonType": "object",
                        "description": f"{t.name} (recursive: not expanded further)"}
            return self.struct(self.definitions.struct(t), expanding)
        if t.kind == "enum":
            e = self.definitions.enum(t)
            if e.storage == "string":
                return {"bsonType": "string", "enum": [v.bson_name for v in e.values]}
            return {"bsonType": "int", "enum": [v.value for v in e.values]}
        if t.kind in ("vector", "array"):
            out: dict[str, Any] = {"bsonType": "array", "items": self.type(t.element, expanding)}
            if t.kind == "array":
                out["minItems"] = out["maxItems"] = t.size
            return out
        if t.kind == "map":
            return {"bsonType": "object", "additionalProperties": self.type(t.element, expanding)}
        if t.kind == "any":
            return {}
        out = {"bsonType": _bson_types(wire.LEAVES[t.kind].reads)}
        if t.kind == "uuid":
            out["description"] = "UUID: binary subtype 4, 16 bytes"
        limits = wire.integer_range(t)
        if limits is not None and limits != wire.KIND_RANGES.get(t.kind):
            out["minimum"], out["maximum"] = limits
        if wire.holds_whole_numbers(t):
            out["multipleOf"] = 1
        return out


def validator(model: Model, struct_name: str) -> tuple[dict, list[str]]:
    """({"$jsonSchema": ...} for `struct_name`, warnings). Raises SchemaError naming the schema
    when the struct does not exist."""
    writer = _Writer(model)
    s = writer.definitions.structs.get(struct_name)
    if s is None:
        raise SchemaError(Location(model.origin_path), f"no struct `{struct_name}` in the schema",
                          did_you_mean(struct_name, writer.definitions.structs) or
                          "structs: " + ", ".join(writer.definitions.structs))
    warnings = []
    if s.unknown_fields == "reject" and not any(f.key == "_id" for f in s.fields):
        warnings.append(f"struct `{s.name}` rejects unknown fields and has no `_id` field: "
                        "MongoDB adds `_id` to every inserted document, so this validator would "
                        "reject every insert into a collection; add an `_id` field")
    return {"$jsonSchema": writer.struct(s, ())}, warnings


def dumps(document: dict) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
