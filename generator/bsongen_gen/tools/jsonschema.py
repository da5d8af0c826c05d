"""`bsongen jsonschema`: a struct of a schema as a MongoDB `$jsonSchema` validator.

The contract (tests/tools/jsonschema_test.py checks it against the generated decoder): every
document the decoder accepts satisfies the validator, and documents of the wrong shape fail it:
wrong BSON types, missing required fields, unknown fields under `unknown_fields: reject`, values
an enum does not name, arrays of the wrong size, integers outside a narrower C++ spelling
(and fractions, for a double held in an integer).

What `$jsonSchema` cannot say, so the validator accepts although the decoder rejects: a binary
subtype (`uuid` and `binary_vector` are any binData here, whatever the vector's dtype and
dimension), a repeated key under `duplicate_keys: reject`, nesting
deeper than a recursive struct's first level (MongoDB has no $ref; the repeated struct is
`bsonType: object` without properties), a long beyond 2^53 read into `number<double>` (not
exact as a double), a double beyond float's range for a `cpp: float` member, and a datetime that
is not whole seconds for a `std::chrono::sys_seconds` member.

Without $ref, a struct used in several places is written out in each: a schema of shared
structs nested deep can expand past MongoDB's 16 MiB document limit (18 levels of two shared
fields each: over 300 MB). Shared parts are built once (the dicts are shared, so building is
linear in the schema), the validator's BSON size is computed from them, and one over the limit
is refused, naming the struct expanded most, before anything is written.

Per type: each kind's bsonType is what its decoder accepts (wire.py): `double` accepts int too,
`int64` accepts int, `number<int64>` int and long, `number<double>` int, long and double; `any`
has no bsonType. `optional<T>` adds null (the decoder reads a null as absent), `nullable<T>`
adds null. Enums give `enum` with the stored names (string storage) or values (int32 storage).
"""

from __future__ import annotations

import json
from typing import Any

from .. import catalog
from ..diagnostics import Location, SchemaError, did_you_mean
from ..model import Field, Model, Struct, TypeRef
from . import schemas, wire

# bsonType lists in this order: the order of the BSON type bytes.
_ORDER = {t.json_schema: t.byte for t in catalog.BSON_TYPES.values()}


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


# MongoDB refuses a command document (and so a validator) larger than this.
MAX_VALIDATOR_BYTES = 16 * 1024 * 1024


class _Writer:
    def __init__(self, model: Model):
        self.definitions = schemas.Definitions(model)
        # struct(s, expanding) depends on `expanding` only through the structs s reaches (the
        # recursion check): one result per struct and such subset, shared by every use.
        self._built: dict[tuple, dict] = {}
        self._reaches: dict[str, frozenset] = {}

    def reaches(self, name: str) -> frozenset:
        """The structs reachable from struct `name` through its fields (itself included)."""
        found = self._reaches.get(name)
        if found is None:
            seen = {name}
            pending = [name]
            while pending:
                for f in self.definitions.structs[pending.pop()].fields:
                    for t in _types_in(f.type):
                        if t.kind == "struct" and t.name not in seen:
                            seen.add(t.name)
                            pending.append(t.name)
            found = self._reaches[name] = frozenset(seen)
        return found

    def struct(self, s: Struct, expanding: tuple) -> dict:
        key = (s.name, frozenset(expanding) & self.reaches(s.name))
        built = self._built.get(key)
        if built is None:
            built = self._built[key] = self._struct(s, expanding)
        return built

    def _struct(self, s: Struct, expanding: tuple) -> dict:
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
        if t.kind == catalog.VECTOR_KIND:
            # $jsonSchema tells no binary subtypes apart (nor a vector's dtype or dimension).
            dimension = f", dimension {t.size}" if t.size is not None else ""
            return {"bsonType": wire.bson_type(wire.VECTOR_TAGS[t.dtype]),
                    "description": f"binary vector: binary subtype {catalog.VECTOR_SUBTYPE}, "
                                   f"dtype {t.dtype}{dimension}"}
        out = {"bsonType": _bson_types(wire.LEAVES[t.kind].reads)}
        if t.kind == "uuid":
            out["description"] = f"UUID: binary subtype {catalog.UUID_SUBTYPE}, " \
                f"{catalog.UUID_BYTES} bytes"
        limits = wire.integer_range(t)
        if limits is not None and limits != wire.KIND_RANGES.get(t.kind):
            out["minimum"], out["maximum"] = limits
        if wire.holds_whole_numbers(t):
            out["multipleOf"] = 1
        return out


def _types_in(t: TypeRef):
    """t and the types it holds (a container's element, through every level)."""
    while t is not None:
        yield t
        t = t.element


def _scalar_width(value: Any) -> int:
    """Value bytes of a JSON scalar (bool, null, int, float) written as BSON: an int is an int32
    where it fits, as drivers write one, else an int64."""
    if isinstance(value, bool):
        bson_type = "boolean"
    elif value is None:
        bson_type = "null"
    elif isinstance(value, int):
        low, high = catalog.BSON_TYPES["int32"].integer_range
        bson_type = "int32" if low <= value <= high else "int64"
    else:
        bson_type = "double_"
    return catalog.BSON_TYPES[bson_type].fixed_width


def _bson_sizes(value: Any, memo: dict[int, tuple[int, dict]]) -> tuple[int, dict]:
    """(BSON size of `value` written out, {struct title: times written}); memo by id, since the
    shared parts of a validator are the same objects."""
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = ((str(i), v) for i, v in enumerate(value))
    else:
        raise TypeError(value)
    known = memo.get(id(value))
    if known is not None:
        return known
    size, counts = 5, {}
    for key, element in items:
        size += 2 + len(key.encode())
        if isinstance(element, (dict, list)):
            inner, inner_counts = _bson_sizes(element, memo)
            size += inner
            for title, n in inner_counts.items():
                counts[title] = counts.get(title, 0) + n
        elif isinstance(element, str):
            size += 5 + len(element.encode())
        else:
            size += _scalar_width(element)
    if isinstance(value, dict) and value.get("bsonType") == "object" and "title" in value:
        counts[value["title"]] = counts.get(value["title"], 0) + 1
    memo[id(value)] = (size, counts)
    return size, counts


def validator(model: Model, struct_name: str) -> tuple[dict, list[str]]:
    """({"$jsonSchema": ...} for `struct_name`, warnings). Raises SchemaError naming the schema
    when the struct does not exist, or when the validator would exceed MongoDB's document limit
    (MAX_VALIDATOR_BYTES)."""
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
    document = {"$jsonSchema": writer.struct(s, ())}
    size, counts = _bson_sizes(document, {})
    if size > MAX_VALIDATOR_BYTES:
        most = max(sorted(counts), key=counts.__getitem__)
        raise SchemaError(
            Location(model.origin_path),
            f"the validator for `{struct_name}` would be {size:,} bytes of BSON, over MongoDB's "
            f"{MAX_VALIDATOR_BYTES:,}-byte document limit: $jsonSchema has no references, so "
            f"each use of a struct is written out in full (`{most}` {counts[most]:,} times)",
            "validate a struct nearer the leaves, or share less nesting")
    return document, warnings


def dumps(document: dict) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
