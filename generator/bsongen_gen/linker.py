"""Resolves and validates a model, then computes what templates need (layouts, lookups).

link() collects every problem it can before raising SchemaErrors, so one run reports them all.
"""

from __future__ import annotations

import re
import struct as binary_struct
from typing import Optional, Union

from . import catalog, names
from .diagnostics import Location, SchemaError, SchemaErrors, did_you_mean
from .model import Enum, EnumValue, Field, Model, Struct, TypeRef

UNKNOWN_FIELD_POLICIES = ("skip", "reject", "capture")
DUPLICATE_KEY_POLICIES = ("last_wins", "reject")
ENUM_STORAGES = ("int32", "string")
MAX_ARRAY_SIZE = catalog.MAX_ARRAY_SIZE
INT32_RANGE = (-(1 << 31), (1 << 31) - 1)
_CPP_SPELLING = re.compile(r"^[A-Za-z0-9_:<>, *&]+$")


class _Linker:
    def __init__(self, model: Model):
        self.model = model
        self.errors: list[SchemaError] = []
        self.definitions: dict[str, Union[Struct, Enum]] = {}
        self.model_location = Location(model.origin_path)

    def error(self, location: Optional[Location], message: str, hint: str = "") -> None:
        self.errors.append(SchemaError(location or self.model_location, message, hint))

    # --- Names and definitions. ---

    def check_identifier(self, name: str, what: str, location: Optional[Location]) -> None:
        problem = names.identifier_problem(name)
        if problem:
            self.error(location, f"{what} `{name}` {problem}")

    def collect_definitions(self) -> None:
        m = self.model
        problem = names.namespace_problem(m.namespace)
        if problem:
            self.error(self.model_location, f"namespace `{m.namespace}`: {problem}")
        if not re.match(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$", m.output_name):
            self.error(self.model_location, f"output name `{m.output_name}` is not a file name")
        for definition in [*m.enums, *m.structs]:
            what = "enum" if isinstance(definition, Enum) else "struct"
            self.check_identifier(definition.name, f"{what} name", definition.location)
            previous = self.definitions.get(definition.name)
            if previous is not None:
                self.error(definition.location, f"`{definition.name}` is defined twice",
                           f"the first definition is at {previous.location}")
                continue
            self.definitions[definition.name] = definition
            definition.qualified_name = names.qualified(m.namespace, definition.name)

    # --- Enums. ---

    def link_enum(self, enum: Enum) -> None:
        if enum.storage not in ENUM_STORAGES:
            self.error(enum.location, f"enum `{enum.name}`: storage `{enum.storage}` is not one "
                       f"of {', '.join(ENUM_STORAGES)}", did_you_mean(enum.storage, ENUM_STORAGES))
        if not enum.values:
            self.error(enum.location, f"enum `{enum.name}` has no values")
        seen_names: dict[str, EnumValue] = {}
        seen_values: dict[int, EnumValue] = {}
        seen_bson: dict[str, EnumValue] = {}
        for v in enum.values:
            self.check_identifier(v.name, f"enumerator of `{enum.name}`", v.location)
            if not INT32_RANGE[0] <= v.value <= INT32_RANGE[1]:
                self.error(v.location, f"enumerator `{v.name}`: {v.value} does not fit in int32")
            for table, key, what in ((seen_names, v.name, "name"), (seen_values, v.value, "value"),
                                     (seen_bson, v.bson_name, "stored name")):
                if key in table:
                    self.error(v.location, f"enum `{enum.name}`: duplicate {what} `{key}`",
                               f"also used by `{table[key].name}` at {table[key].location}")
                table[key] = v
            if "\0" in v.bson_name:
                self.error(v.location, f"enumerator `{v.name}`: stored name contains NUL")
        enum.lookup = sorted(enum.values, key=lambda v: v.bson_name.encode())

    # --- Type references. ---

    def link_type(self, t: TypeRef, location: Optional[Location], top_level: bool) -> bool:
        """Fills in t's derived attributes; False when t is unusable (an error was recorded)."""
        location = t.location or location
        if t.cpp is not None and (not isinstance(t.cpp, str) or not _CPP_SPELLING.match(t.cpp)):
            self.error(location, f"C++ spelling `{t.cpp}` is not a type name")
            return False
        if t.kind in catalog.SCALARS:
            k = catalog.SCALARS[t.kind]
            t.type_byte, t.fixed_width = k.type_byte, k.fixed_width
            t.cpp_name, t.codec_name, t.emptiable = k.cpp_type, k.codec, k.emptiable
            t.keeps_null = k.keeps_null
            # A member of another C++ type is range-checked by the codec's size().
            t.checked_on_encode = t.cpp is not None
            if k.fixed_width is not None:
                skeleton = bytearray(k.fixed_width)
                constant = set()
                for offset, byte in k.constant_bytes:
                    skeleton[offset] = byte
                    constant.add(offset)
                t.skeleton = bytes(skeleton)
                t.value_runs = _runs(i for i in range(k.fixed_width) if i not in constant)
            if k.needs_header and k.needs_header not in self.model.runtime_includes:
                self.model.runtime_includes.append(k.needs_header)
            return True
        if t.kind in catalog.DEFINITION_KINDS:
            definition = self.definitions.get(t.name or "")
            wanted = Struct if t.kind == "struct" else Enum
            if not isinstance(definition, wanted):
                candidates = [n for n, d in self.definitions.items() if isinstance(d, wanted)]
                self.error(location, f"unknown {t.kind} `{t.name}`", did_you_mean(t.name or "",
                                                                                  candidates))
                return False
            t.definition = definition
            t.cpp_name = definition.qualified_name
            t.checked_on_encode = True
            if isinstance(definition, Enum):
                t.type_byte = catalog.ENUM_STORAGE_TYPE_BYTE.get(definition.storage)
                t.fixed_width = catalog.ENUM_STORAGE_FIXED_WIDTH.get(definition.storage)
                if t.fixed_width is not None:
                    t.skeleton = bytes(t.fixed_width)
                    t.value_runs = [(0, t.fixed_width)]
            else:
                t.type_byte = catalog.STRUCT_TYPE_BYTE
                # Layout is filled in once the struct is laid out (structs are laid out in
                # dependency order).
            return True
        if t.kind in catalog.CONTAINERS:
            c = catalog.CONTAINERS[t.kind]
            if t.kind == "optional" and not top_level:
                self.error(location, "`optional` is only allowed as a field's outermost type",
                           "a vector or map element cannot be absent; use `nullable<T>` for a T or "
                           "null, `any` for mixed values")
                return False
            if t.element is None:
                self.error(location, f"`{t.kind}` needs an element type")
                return False
            if c.has_size:
                if not isinstance(t.size, int) or isinstance(t.size, bool) or \
                        not 0 < t.size <= MAX_ARRAY_SIZE:
                    self.error(location, f"`array` size must be an integer in 1..{MAX_ARRAY_SIZE}")
                    return False
            elif t.size is not None:
                self.error(location, f"`{t.kind}` takes no size")
                return False
            t.cpp_template, t.cpp_leading_args = c.cpp_template, c.cpp_leading_args
            t.codec_template, t.emptiable = c.codec_template, c.emptiable
            t.keeps_null = c.keeps_null
            if not self.link_type(t.element, location, top_level=False):
                return False
            if c.element_kinds is not None and t.element.kind not in c.element_kinds:
                self.error(location, f"`{t.kind}` takes {' or '.join(c.element_kinds)}, not "
                           f"`{t.element.name or t.element.kind}`",
                           did_you_mean(t.element.kind, c.element_kinds))
                return False
            refused = dict(c.refused_elements)
            if t.element.kind in refused:
                self.error(location, f"`{t.kind}<{t.element.kind}>` is not allowed",
                           refused[t.element.kind])
                return False
            t.type_byte = c.type_byte if t.kind != "optional" else t.element.type_byte
            t.checked_on_encode = t.cpp is not None or t.element.checked_on_encode
            return True
        self.error(location, f"unknown type `{t.kind}`",
                   did_you_mean(t.kind, [*catalog.ALL_KINDS, *self.definitions]))
        return False

    # --- Structs. ---

    def link_struct(self, s: Struct) -> None:
        if s.unknown_fields not in UNKNOWN_FIELD_POLICIES:
            self.error(s.location, f"struct `{s.name}`: unknown_fields `{s.unknown_fields}` is not "
                       f"one of {', '.join(UNKNOWN_FIELD_POLICIES)}",
                       did_you_mean(s.unknown_fields, UNKNOWN_FIELD_POLICIES))
        if s.duplicate_keys not in DUPLICATE_KEY_POLICIES:
            self.error(s.location, f"struct `{s.name}`: duplicate_keys `{s.duplicate_keys}` is not "
                       f"one of {', '.join(DUPLICATE_KEY_POLICIES)}",
                       did_you_mean(s.duplicate_keys, DUPLICATE_KEY_POLICIES))
        if s.unknown_fields == "capture":
            if not s.capture_member:
                self.error(s.location, f"struct `{s.name}`: unknown_fields `capture` needs "
                           "capture_member (the bsongen::raw_document member receiving them)")
            else:
                self.check_identifier(s.capture_member, "capture member", s.location)
        elif s.capture_member:
            self.error(s.location, f"struct `{s.name}`: capture_member is set but unknown_fields "
                       f"is `{s.unknown_fields}`", "set unknown_fields: capture")
        member_names: dict[str, Field] = {}
        keys: dict[str, Field] = {}
        for index, f in enumerate(s.fields):
            f.index = index
            self.check_identifier(f.name, "field name", f.location)
            if f.name in member_names:
                self.error(f.location, f"struct `{s.name}`: member `{f.name}` is declared twice",
                           f"the first is at {member_names[f.name].location}")
            member_names[f.name] = f
            if f.name == s.capture_member:
                self.error(f.location, f"struct `{s.name}`: `{f.name}` is also the capture member")
            if not isinstance(f.key, str) or "\0" in f.key or f.key == "":
                self.error(f.location, f"field `{f.name}`: key {f.key!r} must be a non-empty "
                           "string without NUL")
            elif f.key in keys:
                self.error(f.location, f"struct `{s.name}`: duplicate key `{f.key}`",
                           f"`{keys[f.key].name}` at {keys[f.key].location} already uses it; "
                           "set a different `key`")
            else:
                keys[f.key] = f
            if not self.link_type(f.type, f.location, top_level=True):
                continue
            f.is_optional = f.type.kind == "optional"
            f.value_type = f.type.element if f.is_optional else f.type
            if f.is_optional and f.required:
                self.error(f.location, f"field `{f.name}` is optional and required at once",
                           "drop `required`, or make the type non-optional")
            if f.omit_empty and not f.value_type.emptiable:
                self.error(f.location, f"field `{f.name}`: omit_empty needs a type that can be "
                           f"empty (string, binary, vector, map, raw_document), not "
                           f"`{f.value_type.kind}`", "use an optional type to leave it out")
            self.link_default(f)
            type_prefix = bytes([f.value_type.type_byte]) if f.value_type.type_byte is not None \
                else b""
            f.prefix = type_prefix + (f.key.encode() if isinstance(f.key, str) else b"")
        # The leading fields whose type byte is known: decode's in-order fast path.
        s.in_order_fields = []
        for f in s.fields:
            if f.value_type is None or f.value_type.type_byte is None:
                break
            s.in_order_fields.append(f)
        s.lookup = sorted((f for f in s.fields if isinstance(f.key, str)),
                          key=lambda f: f.key.encode())
        s.seen_words = max(1, (len(s.fields) + 63) // 64)
        words = [0] * s.seen_words
        for f in s.fields:
            if f.required:
                words[f.index // 64] |= 1 << (f.index % 64)
        s.required_words = words
        s.all_words = [(1 << 64) - 1] * s.seen_words
        if len(s.fields) % 64:
            s.all_words[-1] = (1 << (len(s.fields) % 64)) - 1
        if not s.fields:
            s.all_words = [0]

    def link_default(self, f: Field) -> None:
        d = f.default
        vt = f.value_type
        if d is None:
            if vt.kind == "enum" and not f.is_optional and isinstance(vt.definition, Enum) \
                    and vt.definition.values:
                # Zero may name no enumerator; start from the first one so a default-constructed
                # struct always encodes.
                f.default, f.default_kind = vt.definition.values[0].name, "enumerator"
            return
        if vt.kind == "enum" and isinstance(d, str) and isinstance(vt.definition, Enum):
            enumerators = [v.name for v in vt.definition.values]
            if d not in enumerators:
                self.error(f.location, f"field `{f.name}`: default `{d}` is not an enumerator of "
                           f"`{vt.definition.name}`", did_you_mean(d, enumerators))
            f.default_kind = "enumerator"
        elif vt.kind == "bool" and isinstance(d, bool):
            f.default_kind = "bool"
        elif vt.kind in ("int32", "int64", "double", "number") and \
                isinstance(d, (int, float)) and not isinstance(d, bool):
            numeric = vt.element.kind if vt.kind == "number" and vt.element else vt.kind
            if numeric != "double" and not isinstance(d, int):
                self.error(f.location, f"field `{f.name}`: default {d} is not an integer")
            f.default_kind = "number"
        elif vt.kind in ("string", "javascript") and isinstance(d, str):
            f.default_kind = "string"
        else:
            self.error(f.location, f"field `{f.name}`: default {d!r} does not suit type "
                       f"`{vt.kind}`", "defaults are numbers, booleans, strings and enumerators")

    # --- Cycles and order. ---

    def order_structs(self) -> list[Struct]:
        """Structs in dependency order; reports cycles that have no indirection."""
        by_value: dict[str, list[str]] = {}
        any_ref: dict[str, list[str]] = {}
        for s in self.model.structs:
            by_value[s.name], any_ref[s.name] = [], []
            for f in s.fields:
                _collect_struct_refs(f.type, False, by_value[s.name], any_ref[s.name])

        reported: set[str] = set()
        state: dict[str, int] = {}

        def visit_by_value(name: str, stack: list[str]) -> None:
            state[name] = 1
            stack.append(name)
            for dep in by_value.get(name, []):
                if state.get(dep) == 1:
                    cycle = stack[stack.index(dep):] + [dep]
                    if dep not in reported:
                        reported.update(cycle)
                        s = self.definitions[dep]
                        self.error(s.location, "struct cycle without indirection: " +
                                   " -> ".join(cycle),
                                   "a struct cannot contain itself by value; hold it in a "
                                   "`vector` or `map`")
                elif state.get(dep) is None:
                    visit_by_value(dep, stack)
            stack.pop()
            state[name] = 2

        for s in self.model.structs:
            if state.get(s.name) is None:
                visit_by_value(s.name, [])

        ordered: list[Struct] = []
        placed: set[str] = set()
        visiting: set[str] = set()

        def place(name: str) -> None:
            if name in placed or name in visiting:
                return
            visiting.add(name)
            for dep in by_value.get(name, []) + any_ref.get(name, []):
                place(dep)
            visiting.discard(name)
            placed.add(name)
            ordered.append(self.definitions[name])

        for s in self.model.structs:
            place(s.name)
        return ordered

    # --- Fixed layouts. ---

    def layout_type(self, t: TypeRef) -> None:
        if t.element is not None:
            self.layout_type(t.element)
        if t.kind == "struct" and isinstance(t.definition, Struct):
            d = t.definition
            t.fixed_width, t.skeleton, t.value_runs = d.fixed_width, d.skeleton, d.value_runs
        elif t.kind == "array":
            e = t.element
            if e.fixed_width is None or e.type_byte is None:
                return
            body = bytearray()
            runs = []
            for i in range(t.size):
                body += bytes([e.type_byte]) + str(i).encode() + b"\0"
                runs += [(4 + len(body) + o, n) for o, n in e.value_runs]
                body += e.skeleton
            skeleton = _document(body)
            t.fixed_width, t.skeleton, t.value_runs = len(skeleton), skeleton, _merge(runs)

    def layout_struct(self, s: Struct) -> None:
        fixed = True
        for f in s.fields:
            if f.value_type is None:
                return
            self.layout_type(f.type)
            vt = f.value_type
            if f.is_optional or f.omit_empty or vt.fixed_width is None or vt.type_byte is None:
                fixed = False
        if not fixed:
            return
        body = bytearray()
        runs = []
        for f in s.fields:
            body += f.prefix + b"\0"
            f.fixed_offset = 4 + len(body)
            runs += [(f.fixed_offset + o, n) for o, n in f.value_type.value_runs]
            body += f.value_type.skeleton
        s.skeleton = _document(body)
        # One line per element in the generated literal, for a reviewable diff.
        s.skeleton_lines = [s.skeleton[:4]]
        for f in s.fields:
            s.skeleton_lines.append(f.prefix + b"\0" + f.value_type.skeleton)
        s.skeleton_lines.append(b"\0")
        s.fixed_width = len(s.skeleton)
        s.value_runs = _merge(runs)

    def run(self) -> Model:
        self.collect_definitions()
        for e in self.model.enums:
            self.link_enum(e)
        for s in self.model.structs:
            self.link_struct(s)
        if self.errors:
            raise SchemaErrors(self.errors)
        ordered = self.order_structs()
        if self.errors:
            raise SchemaErrors(self.errors)
        self.model.structs = ordered
        for s in ordered:
            self.layout_struct(s)
        return self.model


def _collect_struct_refs(t: TypeRef, indirect: bool, by_value: list, any_ref: list) -> None:
    if t.kind == "struct" and t.name:
        (any_ref if indirect else by_value).append(t.name)
    if t.element is not None:
        _collect_struct_refs(t.element, indirect or t.kind in ("vector", "map"), by_value, any_ref)


def _document(body: bytes) -> bytes:
    return binary_struct.pack("<i", len(body) + 5) + bytes(body) + b"\0"


def _runs(offsets) -> list:
    return _merge([(o, 1) for o in offsets])


def _merge(runs: list) -> list:
    merged: list = []
    for offset, length in sorted(runs):
        if length == 0:
            continue
        if merged and merged[-1][0] + merged[-1][1] == offset:
            merged[-1] = (merged[-1][0], merged[-1][1] + length)
        else:
            merged.append((offset, length))
    return merged


def link(model: Model) -> Model:
    """Resolves and validates `model` in place; raises SchemaErrors listing every problem."""
    return _Linker(model).run()
