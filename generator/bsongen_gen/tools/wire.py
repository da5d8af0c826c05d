"""What each kind of type reference means on the wire, for the tools (infer, jsonschema, diff).

catalog.py says how the generator *generates* each kind. This module says which BSON types a
generated decoder of a kind accepts and which its encoder writes, under the names MongoDB's
`$jsonSchema` uses (`bsonType`). tests/tools/tools_unit_test.py checks that every kind in the
catalog has an entry here, so a new kind cannot be forgotten.

Types are *tags*: a `$jsonSchema` alias, or `alias/detail` where the tools must tell more apart
than bsonType can (`binData/uuid`: binary subtype 4 of 16 bytes, what the `uuid` kind reads and
writes).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .. import catalog
from ..model import TypeRef

# Every BSON type by its type byte: the alias `$jsonSchema`'s bsonType uses.
BSON_ALIASES: dict[int, str] = {
    0x01: "double", 0x02: "string", 0x03: "object", 0x04: "array", 0x05: "binData",
    0x06: "undefined", 0x07: "objectId", 0x08: "bool", 0x09: "date", 0x0A: "null", 0x0B: "regex",
    0x0C: "dbPointer", 0x0D: "javascript", 0x0E: "symbol", 0x0F: "javascriptWithScope",
    0x10: "int", 0x11: "timestamp", 0x12: "long", 0x13: "decimal", 0xFF: "minKey", 0x7F: "maxKey",
}
ALL_TAGS = frozenset(BSON_ALIASES.values()) | {"binData/uuid"}
UUID_TAG = "binData/uuid"

# The schema forms infer emits for mixed data (issue 13): `nullable<T>` (a T or null, null kept)
# and `number<int64>` / `number<double>` (a widened number that writes back the BSON type it was
# read as).
NULLABLE = "nullable"
NUMBER = "number"
NUMBER_ELEMENTS = ("int64", "double")


@dataclass(frozen=True)
class LeafWire:
    reads: frozenset      # tags a generated decoder accepts
    writes: frozenset     # tags its encoder can write


def _leaf(reads, writes=None) -> LeafWire:
    reads = frozenset(reads)
    return LeafWire(reads, frozenset(writes) if writes is not None else reads)


# Scalar kinds (catalog.SCALARS) on the wire. `double` and `int64` decode an int32 too (widening)
# but always encode their own type; `binary` reads and writes every subtype, uuid among them.
LEAVES: dict[str, LeafWire] = {
    "double": _leaf({"double", "int"}, {"double"}),
    "string": _leaf({"string"}),
    "javascript": _leaf({"javascript"}),
    "int32": _leaf({"int"}),
    "int64": _leaf({"long", "int"}, {"long"}),
    "bool": _leaf({"bool"}),
    "datetime": _leaf({"date"}),
    "object_id": _leaf({"objectId"}),
    "decimal128": _leaf({"decimal"}),
    "binary": _leaf({"binData", UUID_TAG}),
    "uuid": _leaf({UUID_TAG}),
    "timestamp": _leaf({"timestamp"}),
    "regex": _leaf({"regex"}),
    "null": _leaf({"null"}),
    "min_key": _leaf({"minKey"}),
    "max_key": _leaf({"maxKey"}),
    "javascript_with_scope": _leaf({"javascriptWithScope"}),
    "raw_document": _leaf({"object"}),
    "any": _leaf(ALL_TAGS),
}

# number<int64> reads int32 and int64; number<double> reads int32, int64 and double. Each writes
# back the type it read, so it may write any of them.
NUMBER_WIRE: dict[str, LeafWire] = {
    "int64": _leaf({"int", "long"}),
    "double": _leaf({"int", "long", "double"}),
}

ENUM_STORAGE_TAG = {"int32": "int", "string": "string"}
CONTAINER_TAG = {"vector": "array", "array": "array", "map": "object", "struct": "object"}


def bson_type(tag: str) -> str:
    """The `$jsonSchema` bsonType of a tag (`binData/uuid` -> `binData`)."""
    return tag.split("/", 1)[0]


def value_tags(t: TypeRef, enum_storage: Optional[str] = None) -> tuple[frozenset, frozenset]:
    """(reads, writes) of the outermost level of a value type: which BSON types its decoder
    accepts and its encoder writes. Element types of containers are not looked at; `optional`
    adds null to what is read (a null reads as absent); `nullable` adds null to both.
    `enum_storage` is the storage of the enum `t` names, when it is an enum."""
    if t.kind == "optional":
        reads, writes = value_tags(t.element, enum_storage)
        return reads | {"null"}, writes
    if t.kind == NULLABLE:
        reads, writes = value_tags(t.element, enum_storage)
        return reads | {"null"}, writes | {"null"}
    if t.kind == NUMBER:
        wire = NUMBER_WIRE.get(t.element.kind if t.element else "")
        if wire is None:
            raise KeyError(f"number<{t.element.kind if t.element else ''}>")
        return wire.reads, wire.writes
    if t.kind == "enum":
        tag = ENUM_STORAGE_TAG[enum_storage or "int32"]
        return frozenset({tag}), frozenset({tag})
    if t.kind in CONTAINER_TAG:
        tag = CONTAINER_TAG[t.kind]
        return frozenset({tag}), frozenset({tag})
    wire = LEAVES[t.kind]
    return wire.reads, wire.writes


KIND_RANGES = {"int32": catalog.INTEGER_SPELLING_RANGES["std::int32_t"],
               "int64": catalog.INTEGER_SPELLING_RANGES["std::int64_t"]}


def integer_range(t: TypeRef) -> Optional[tuple[int, int]]:
    """The values an int32/int64 member holds: its C++ spelling's range where that is narrower
    than the BSON type's, else the BSON type's. A double held in an integer spelling holds that
    spelling's range, and whole numbers only (see holds_whole_numbers). None for other kinds."""
    spelled = catalog.integer_spelling_range(t.cpp)
    if t.kind == "double":
        return spelled
    if t.kind not in KIND_RANGES:
        return None
    kind_range = KIND_RANGES[t.kind]
    if spelled is None:
        return kind_range
    return max(spelled[0], kind_range[0]), min(spelled[1], kind_range[1])


def holds_whole_numbers(t: TypeRef) -> bool:
    """A double held in an integer spelling: its decoder refuses fractions, NaN and infinities."""
    return t.kind == "double" and integer_range(t) is not None


def _template_arguments(spelling: str) -> Optional[list[str]]:
    """The top-level template arguments of a spelling (`std::map<std::string, T>` -> [`std::string`,
    `T`]), or None when it is not a template."""
    start, end = spelling.find("<"), spelling.rfind(">")
    if start < 0 or end < start:
        return None
    args, depth, begin = [], 0, start + 1
    for i in range(start + 1, end):
        c = spelling[i]
        if c in "<([":
            depth += 1
        elif c in ">)]":
            depth -= 1
        elif c == "," and depth == 0:
            args.append(spelling[begin:i].strip())
            begin = i + 1
    args.append(spelling[begin:end].strip())
    return args


def element_spelling(t: TypeRef) -> Optional[str]:
    """How the elements of container `t` are held when `t` has a `cpp:` spelling: its element
    template argument (a map's value, also in `std::vector<std::pair<std::string, T>>`), or None."""
    args = _template_arguments(t.cpp or "")
    if not args:
        return None
    if t.kind == "map":
        if len(args) == 1:  # a sequence of pairs
            args = _template_arguments(args[0]) or []
        return args[1] if len(args) >= 2 else None
    return args[0]


def spell_elements(t: TypeRef) -> None:
    """Gives the element types inside `t` the spellings its `cpp:` implies, in place. The decoder
    converts into those (`cpp: std::vector<std::uint8_t>` for a `vector<int32>` refuses 300 in
    an element, as `cpp: std::uint8_t` does for an `int32`), so the tools must see them too."""
    while t.element is not None:
        if t.cpp and not t.element.cpp:
            t.element.cpp = element_spelling(t)
        t = t.element

