"""The typed intermediate model (docs/intermediate-model.md) and its JSON form.

Front ends build these classes; linker.link() resolves references and validates them, filling in
the few attributes marked "set by the linker". What the generated code looks like (layouts, C++
spellings, tables) is computed from the linked model by layout.py and cpp.py, not stored here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Optional

from . import MODEL_VERSION
from .diagnostics import Location, SchemaError


# The kind of a reference to a struct or enum by name before the linker resolves it to `struct` or
# `enum` (the schema reader cannot tell which a name is until every definition is read).
NAMED_KIND = "named"

# The values a struct's policies and a model's allocator take (the linker refuses others); the
# first of each is the default both front ends and the JSON form leave unsaid.
UNKNOWN_FIELD_POLICIES = ("skip", "reject", "capture")
DUPLICATE_KEY_POLICIES = ("last_wins", "reject")
ALLOCATORS = ("std", "pmr")
DEFAULT_UNKNOWN_FIELDS = UNKNOWN_FIELD_POLICIES[0]
DEFAULT_DUPLICATE_KEYS = DUPLICATE_KEY_POLICIES[0]
DEFAULT_ALLOCATOR = ALLOCATORS[0]
DEFAULT_ENUM_STORAGE = "int32"  # a catalog.ENUM_STORAGES name


@dataclass
class TypeRef:
    kind: str
    location: Optional[Location] = None
    name: Optional[str] = None          # struct / enum
    element: Optional["TypeRef"] = None  # vector / array / optional / map
    size: Optional[int] = None          # array; binary_vector's fixed dimension
    cpp: Optional[str] = None           # the member's C++ spelling where it differs
    dtype: Optional[str] = None         # binary_vector: float32, int8 or packed_bit

    # Set by the linker.
    definition: Any = None              # the Struct or Enum a `struct`/`enum` reference names

    def to_json(self) -> dict:
        out: dict = {"kind": self.kind}
        if self.name is not None:
            out["name"] = self.name
        if self.element is not None:
            out["element"] = self.element.to_json()
        if self.size is not None:
            out["size"] = self.size
        if self.dtype is not None:
            out["dtype"] = self.dtype
        if self.cpp is not None:
            out["cpp"] = self.cpp
        return out


@dataclass
class Field:
    name: str
    key: str
    type: TypeRef
    required: bool = False
    default: Any = None
    omit_empty: bool = False
    doc: str = ""
    location: Optional[Location] = None
    # Where the key is spelled when it is not the name (a schema's `key:`, a header's BSONGEN_KEY):
    # what the key's errors point at; None: at `location`.
    key_location: Optional[Location] = None
    # Header mode: the user's struct sets the member's initial value (a default member initializer
    # or its own default constructor); an absent field is reset to that member of `T()`.
    struct_default: bool = False

    # Set by the linker.
    index: int = 0
    value_type: Optional[TypeRef] = None   # the type after unwrapping a field-level optional
    is_optional: bool = False

    def to_json(self) -> dict:
        out = {"name": self.name, "key": self.key, "type": self.type.to_json(),
               "required": self.required, "default": self.default,
               "omit_empty": self.omit_empty, "doc": self.doc}
        if self.struct_default:
            out["struct_default"] = True
        if self.location:
            out["location"] = self.location.to_json()
        if self.key_location:
            out["key_location"] = self.key_location.to_json()
        return out


@dataclass
class ProjectionPath:
    """A kept field of a projection: member names joined by dots (`customer.name`)."""
    text: str
    location: Optional[Location] = None


@dataclass
class Projection:
    """A struct declared as keeping some of another struct's fields (`projection_of`)."""
    source: str                         # the struct it projects (projection.py: what may be)
    paths: list[ProjectionPath]
    # The struct's fields are filled in from the source (projection.expand, which the linker runs;
    # the JSON form holds them already unless its `fields` are empty).
    expanded: bool = False

    def to_json(self) -> dict:
        return {"struct": self.source, "paths": [p.text for p in self.paths]}


@dataclass
class Struct:
    name: str
    fields: list[Field]
    doc: str = ""
    location: Optional[Location] = None
    unknown_fields: str = DEFAULT_UNKNOWN_FIELDS
    capture_member: Optional[str] = None
    duplicate_keys: str = DEFAULT_DUPLICATE_KEYS
    visit: bool = False                 # generate codec<T>::visit (a reflection hook)
    projection: Optional[Projection] = None  # `projection_of`: the fields come from another struct

    def to_json(self) -> dict:
        out = {"name": self.name, "doc": self.doc, "unknown_fields": self.unknown_fields,
               "capture_member": self.capture_member, "duplicate_keys": self.duplicate_keys,
               "fields": [f.to_json() for f in self.fields]}
        if self.visit:
            out["visit"] = True
        if self.projection is not None:
            out["projection_of"] = self.projection.to_json()
        if self.location:
            out["location"] = self.location.to_json()
        return out


@dataclass
class EnumValue:
    name: str
    value: int
    bson_name: str
    doc: str = ""
    location: Optional[Location] = None

    def to_json(self) -> dict:
        out = {"name": self.name, "value": self.value, "bson_name": self.bson_name,
               "doc": self.doc}
        if self.location:
            out["location"] = self.location.to_json()
        return out


@dataclass
class Enum:
    name: str
    storage: str
    values: list[EnumValue]
    doc: str = ""
    cpp_underlying: str = "std::int32_t"
    location: Optional[Location] = None

    def to_json(self) -> dict:
        out = {"name": self.name, "storage": self.storage, "doc": self.doc,
               "cpp_underlying": self.cpp_underlying,
               "values": [v.to_json() for v in self.values]}
        if self.location:
            out["location"] = self.location.to_json()
        return out


@dataclass
class Model:
    origin_kind: str
    origin_path: str
    output_name: str
    namespace: str
    defines_types: bool
    structs: list[Struct]
    enums: list[Enum]
    includes: list[str] = field(default_factory=list)
    # How the defined structs' strings, vectors and maps allocate: "std" (std::allocator) or "pmr"
    # (std::pmr containers, and structs that take a std::pmr::polymorphic_allocator).
    allocator: str = DEFAULT_ALLOCATOR
    # What the schema is about (its top-level `doc:`): the generated header repeats it under its
    # banner.
    doc: str = ""

    def to_json(self) -> dict:
        return {
            "bsongen_model": MODEL_VERSION,
            "origin": {"kind": self.origin_kind, "path": self.origin_path},
            "output_name": self.output_name,
            "namespace": self.namespace,
            "defines_types": self.defines_types,
            "includes": list(self.includes),
            "allocator": self.allocator,
            "doc": self.doc,
            "enums": [e.to_json() for e in self.enums],
            "structs": [s.to_json() for s in self.structs],
        }


# --- Reading the JSON form (the header scanner's output). ---

class _JsonReader:
    def __init__(self, path: str):
        self.path = path

    def location(self, obj: dict, fallback: Optional[Location],
                 key: str = "location") -> Optional[Location]:
        loc = obj.get(key)
        if isinstance(loc, dict) and "file" in loc:
            return Location(str(loc["file"]), int(loc.get("line", 0)), int(loc.get("column", 0)))
        return fallback

    def require(self, obj: dict, key: str, kind: type, where: Optional[Location]):
        if key not in obj:
            raise SchemaError(where, f"model: missing key `{key}`")
        value = obj[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise SchemaError(where, f"model: `{key}` must be a {kind.__name__}")
        return value

    def type_ref(self, obj: Any, where: Optional[Location]) -> TypeRef:
        if not isinstance(obj, dict):
            raise SchemaError(where, "model: a type reference must be an object")
        element = obj.get("element")
        return TypeRef(kind=self.require(obj, "kind", str, where), location=where,
                       name=obj.get("name"),
                       element=self.type_ref(element, where) if element is not None else None,
                       size=obj.get("size"), cpp=obj.get("cpp"), dtype=obj.get("dtype"))

    def field(self, obj: dict, where: Optional[Location]) -> Field:
        loc = self.location(obj, where)
        name = self.require(obj, "name", str, loc)
        return Field(name=name, key=obj.get("key", name),
                     type=self.type_ref(self.require(obj, "type", dict, loc), loc),
                     required=bool(obj.get("required", False)), default=obj.get("default"),
                     omit_empty=bool(obj.get("omit_empty", False)), doc=obj.get("doc", ""),
                     location=loc, key_location=self.location(obj, None, "key_location"),
                     struct_default=bool(obj.get("struct_default", False)))

    def struct(self, obj: dict, where: Location) -> Struct:
        loc = self.location(obj, where)
        projection = None
        if "projection_of" in obj:
            spec = self.require(obj, "projection_of", dict, loc)
            paths = self.require(spec, "paths", list, loc)
            if not all(isinstance(p, str) for p in paths):
                raise SchemaError(loc, "model: `projection_of.paths` must be strings")
            projection = Projection(self.require(spec, "struct", str, loc),
                                    [ProjectionPath(p, loc) for p in paths])
        fields = [self.field(f, loc) for f in obj.get("fields", [])] if projection else \
            [self.field(f, loc) for f in self.require(obj, "fields", list, loc)]
        if projection is not None:
            # Fields given are the projection's, resolved by the front end; none: resolve them.
            projection.expanded = bool(fields)
        return Struct(name=self.require(obj, "name", str, loc), fields=fields,
                      doc=obj.get("doc", ""), location=loc,
                      unknown_fields=obj.get("unknown_fields", DEFAULT_UNKNOWN_FIELDS),
                      capture_member=obj.get("capture_member"),
                      duplicate_keys=obj.get("duplicate_keys", DEFAULT_DUPLICATE_KEYS),
                      visit=bool(obj.get("visit", False)), projection=projection)

    def enum(self, obj: dict, where: Location) -> Enum:
        loc = self.location(obj, where)
        values = []
        for v in self.require(obj, "values", list, loc):
            vloc = self.location(v, loc)
            name = self.require(v, "name", str, vloc)
            values.append(EnumValue(name=name, value=self.require(v, "value", int, vloc),
                                    bson_name=v.get("bson_name", name), doc=v.get("doc", ""),
                                    location=vloc))
        return Enum(name=self.require(obj, "name", str, loc),
                    storage=self.require(obj, "storage", str, loc), values=values,
                    doc=obj.get("doc", ""),
                    cpp_underlying=obj.get("cpp_underlying", "std::int32_t"), location=loc)


def load_json(text: str, path: str) -> Model:
    """Parses model JSON; structural problems raise SchemaError naming `path`."""
    where = Location(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise SchemaError(Location(path, e.lineno, e.colno), f"model: invalid JSON: {e.msg}")
    reader = _JsonReader(path)
    if not isinstance(data, dict):
        raise SchemaError(where, "model: the top level must be an object")
    version = data.get("bsongen_model")
    if version != MODEL_VERSION:
        raise SchemaError(where, f"model: `bsongen_model` is {version!r}, this generator reads "
                                 f"version {MODEL_VERSION}")
    origin = reader.require(data, "origin", dict, where)
    return Model(
        origin_kind=reader.require(origin, "kind", str, where),
        origin_path=reader.require(origin, "path", str, where),
        output_name=reader.require(data, "output_name", str, where),
        namespace=data.get("namespace", ""),
        defines_types=bool(reader.require(data, "defines_types", bool, where)),
        includes=list(data.get("includes", [])),
        allocator=str(data.get("allocator", DEFAULT_ALLOCATOR)),
        doc=str(data.get("doc", "")),
        enums=[reader.enum(e, where) for e in data.get("enums", [])],
        structs=[reader.struct(s, where) for s in data.get("structs", [])],
    )


def dump_json(model: Model) -> str:
    return json.dumps(model.to_json(), indent=2, ensure_ascii=False) + "\n"
