"""Reads a YAML schema file (docs/schema-format.md) into the model.

Works on PyYAML's composed node tree rather than loaded Python values so that every error can name
the file, line and column of the offending text. Names of structs and enums are left unresolved
(kind `named`): the linker resolves every reference.
"""

from __future__ import annotations

import os
import re
from typing import Optional

import yaml

from . import catalog
from .diagnostics import Location, SchemaError, SchemaErrors, did_you_mean
from .model import (DEFAULT_ALLOCATOR, DEFAULT_DUPLICATE_KEYS, DEFAULT_ENUM_STORAGE,
                    DEFAULT_UNKNOWN_FIELDS, NAMED_KIND, Enum, EnumValue, Field, Model, Projection,
                    ProjectionPath, Struct, TypeRef)

TOP_KEYS = ("namespace", "output", "doc", "allocator", "enums", "structs")
STRUCT_KEYS = ("doc", "fields", "unknown_fields", "capture_member", "duplicate_keys", "visit",
               "projection_of")
FIELD_KEYS = ("type", "key", "default", "required", "omit_empty", "doc", "cpp")
ENUM_KEYS = ("doc", "storage", "values")
ENUM_VALUE_KEYS = ("value", "bson_name", "doc")
YAML_NULL = "tag:yaml.org,2002:null"  # the tag of `~`, `null` and an empty value


def _resolved(node: yaml.ScalarNode):
    """A scalar's value as YAML resolves its tag. Constructed from the node itself: serializing an
    empty value (`doc:`) and loading it back fails in PyYAML ("expected the node content")."""
    return yaml.constructor.SafeConstructor().construct_object(node, deep=True)


_TOKEN = re.compile(r"\s*(?:(?P<name>[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*)|"
                    r"(?P<number>[0-9]+)|(?P<punct>[<>,?]))")
_CONTAINER_SPELLINGS = {"vector": "vector", "std::vector": "vector", "array": "array",
                        "std::array": "array", "optional": "optional", "std::optional": "optional",
                        "map": "map", "std::map": "map", "std::unordered_map": "map",
                        "nullable": "nullable", "bsongen::nullable": "nullable",
                        "number": "number", "bsongen::number": "number"}
_MAP_KEY_SPELLINGS = ("string", "std::string")


class _Reader:
    def __init__(self, path: str, display_path: str):
        self.path = path
        self.display = display_path
        self.errors: list[SchemaError] = []

    def loc(self, node: yaml.Node, column_offset: int = 0) -> Location:
        mark = node.start_mark
        return Location(self.display, mark.line + 1, mark.column + 1 + column_offset)

    def error(self, node: yaml.Node, message: str, hint: str = "", column_offset: int = 0):
        self.errors.append(SchemaError(self.loc(node, column_offset), message, hint))

    # --- Node helpers. ---

    def mapping(self, node: yaml.Node, what: str, allowed: Optional[tuple] = None) \
            -> list[tuple[str, yaml.Node, yaml.Node]]:
        if not isinstance(node, yaml.MappingNode):
            self.error(node, f"{what} must be a mapping")
            return []
        out = []
        seen: dict[str, yaml.Node] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                self.error(key_node, f"{what}: keys must be plain names")
                continue
            key = key_node.value
            if key in seen:
                self.error(key_node, f"{what}: `{key}` appears twice",
                           f"the first is at line {seen[key].start_mark.line + 1}")
                continue
            seen[key] = key_node
            if allowed is not None and key not in allowed:
                self.error(key_node, f"{what}: unknown option `{key}`",
                           did_you_mean(key, allowed) or "options are " + ", ".join(allowed))
                continue
            out.append((key, key_node, value_node))
        return out

    def scalar(self, node: yaml.Node, what: str) -> Optional[str]:
        if not isinstance(node, yaml.ScalarNode):
            self.error(node, f"{what} must be a scalar")
            return None
        return node.value

    def typed(self, node: yaml.Node, what: str, kind: type):
        """The node's value as YAML resolves it, checked against `kind`."""
        if not isinstance(node, yaml.ScalarNode):
            self.error(node, f"{what} must be a {kind.__name__}")
            return None
        value = _resolved(node)
        if kind is str and not isinstance(value, str):
            value = node.value
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            self.error(node, f"{what} must be a {kind.__name__}, not `{node.value}`")
            return None
        return value

    def stored_name(self, node: yaml.Node, what: str, name: str) -> str:
        """A `key` or `bson_name`: `name` when left empty (`key:`), the empty string when quoted
        (`bson_name: ""`, a stored value; the linker refuses an empty key)."""
        text = self.typed(node, what, str)
        if text is None or (text == "" and isinstance(node, yaml.ScalarNode) and node.style is None):
            return name
        return text

    def any_scalar(self, node: yaml.Node, what: str):
        if not isinstance(node, yaml.ScalarNode):
            self.error(node, f"{what} must be a scalar")
            return None
        return _resolved(node)

    # --- Type expressions: int32, vector<line_item>, array<double, 3>, map<string, int64>. ---

    def type_expr(self, node: yaml.Node, text: str) -> Optional[TypeRef]:
        tokens = []
        pos = 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if not m or m.end() == pos:
                if text[pos:].strip() == "":
                    break
                self.error(node, f"unexpected `{text[pos:].strip()[0]}` in type `{text}`",
                           column_offset=pos)
                return None
            kind = m.lastgroup
            tokens.append((kind, m.group(kind), m.start(kind)))
            pos = m.end()
        parser = _TypeParser(self, node, text, tokens)
        t = parser.parse()
        if t is not None and parser.index != len(tokens):
            self.error(node, f"unexpected `{tokens[parser.index][1]}` in type `{text}`",
                       column_offset=tokens[parser.index][2])
            return None
        return t

    # --- Sections. ---

    def read(self, root: yaml.Node) -> Model:
        namespace, output = "", os.path.splitext(os.path.basename(self.path))[0]
        allocator = DEFAULT_ALLOCATOR
        doc = ""
        enums: list[Enum] = []
        structs: list[Struct] = []
        for key, _, value in self.mapping(root, "schema", TOP_KEYS):
            if key == "namespace":
                namespace = self.typed(value, "namespace", str) or ""
            elif key == "output":
                output = self.typed(value, "output", str) or output
            elif key == "allocator":
                allocator = self.typed(value, "allocator", str) or allocator
            elif key == "doc":
                doc = self.typed(value, "doc", str) or ""
            elif key == "enums":
                for name, name_node, body in self.mapping(value, "enums"):
                    enums.append(self.enum(name, name_node, body))
            elif key == "structs":
                for name, name_node, body in self.mapping(value, "structs"):
                    structs.append(self.struct(name, name_node, body))
        return Model(origin_kind="schema", origin_path=self.display, output_name=output,
                     namespace=namespace, defines_types=True, structs=structs, enums=enums,
                     allocator=allocator, doc=doc)

    def enum(self, name: str, name_node: yaml.Node, body: yaml.Node) -> Enum:
        enum = Enum(name=name, storage=DEFAULT_ENUM_STORAGE, values=[],
                    location=self.loc(name_node))
        for key, _, value in self.mapping(body, f"enum `{name}`", ENUM_KEYS):
            if key == "doc":
                enum.doc = self.typed(value, "doc", str) or ""
            elif key == "storage":
                enum.storage = self.typed(value, "storage", str) or DEFAULT_ENUM_STORAGE
            elif key == "values":
                enum.values = self.enum_values(name, value)
        return enum

    def enum_values(self, enum_name: str, node: yaml.Node) -> list[EnumValue]:
        values: list[EnumValue] = []
        next_value = 0
        if isinstance(node, yaml.SequenceNode):
            for item in node.value:
                n = self.scalar(item, f"enum `{enum_name}` value")
                if n is not None:
                    values.append(EnumValue(n, next_value, n, location=self.loc(item)))
                    next_value += 1
            return values
        for n, n_node, v in self.mapping(node, f"enum `{enum_name}` values"):
            value = EnumValue(n, next_value, n, location=self.loc(n_node))
            # `name:`, `name: ~` and `name: null` all leave the value to the count.
            if isinstance(v, yaml.ScalarNode) and v.value != "" and v.tag != YAML_NULL:
                number = self.typed(v, f"value of `{n}`", int)
                value.value = number if number is not None else next_value
            elif isinstance(v, yaml.MappingNode):
                for key, _, option in self.mapping(v, f"enumerator `{n}`", ENUM_VALUE_KEYS):
                    if key == "value":
                        number = self.typed(option, "value", int)
                        value.value = number if number is not None else next_value
                    elif key == "bson_name":
                        value.bson_name = self.stored_name(option, "bson_name", n)
                    elif key == "doc":
                        value.doc = self.typed(option, "doc", str) or ""
            next_value = value.value + 1
            values.append(value)
        return values

    def struct(self, name: str, name_node: yaml.Node, body: yaml.Node) -> Struct:
        s = Struct(name=name, fields=[], location=self.loc(name_node))
        options = self.mapping(body, f"struct `{name}`", STRUCT_KEYS)
        for key, key_node, value in options:
            if key == "projection_of":
                source = self.typed(value, "projection_of", str)
                if source is not None:
                    s.projection = Projection(source, [])
        fields_node = next((value for key, _, value in options if key == "fields"), None)
        if s.projection is not None:
            # A projection lists the paths it keeps; the linker fills in the fields
            # (projection.py).
            if fields_node is None:
                self.error(name_node, f"projection `{name}` has no `fields`",
                           f"list the fields of `{s.projection.source}` it keeps: "
                           "`fields: [id, customer.name]`")
            else:
                s.projection.paths = self.projection_paths(name, fields_node)
        elif isinstance(fields_node, yaml.SequenceNode):
            self.error(fields_node, f"struct `{name}`: `fields` is a list, which only a projection "
                       "has", "map member names to types, or add `projection_of: STRUCT` to keep "
                       "these fields of STRUCT")
            fields_node = None
        for key, _, value in options:
            if key == "doc":
                s.doc = self.typed(value, "doc", str) or ""
            elif key == "unknown_fields":
                s.unknown_fields = self.typed(value, "unknown_fields", str) or \
                    DEFAULT_UNKNOWN_FIELDS
            elif key == "capture_member":
                s.capture_member = self.typed(value, "capture_member", str)
            elif key == "duplicate_keys":
                s.duplicate_keys = self.typed(value, "duplicate_keys", str) or \
                    DEFAULT_DUPLICATE_KEYS
            elif key == "visit":
                s.visit = bool(self.typed(value, "visit", bool))
            elif key == "fields" and s.projection is None and fields_node is not None:
                for field_name, field_node, field_body in self.mapping(value, f"`{name}` fields"):
                    f = self.field(field_name, field_node, field_body)
                    if f is not None:
                        s.fields.append(f)
        return s

    def projection_paths(self, name: str, node: yaml.Node) -> list[ProjectionPath]:
        """A projection's `fields`: a sequence of member paths (`customer.name`)."""
        if not isinstance(node, yaml.SequenceNode):
            self.error(node, f"projection `{name}`: `fields` must be a list of the source's member "
                       "paths", "e.g. `fields: [id, status, customer.name]`: the types, keys and "
                       "defaults come from the source")
            return []
        paths = []
        for item in node.value:
            text = self.typed(item, f"projection `{name}` path", str)
            if text is not None:
                paths.append(ProjectionPath(text, self.loc(item)))
        return paths

    def field(self, name: str, name_node: yaml.Node, body: yaml.Node) -> Optional[Field]:
        location = self.loc(name_node)
        if isinstance(body, yaml.ScalarNode):
            t = self.type_expr(body, body.value)
            return Field(name=name, key=name, type=t, location=location) if t else None
        f = Field(name=name, key=name, type=None, location=location)  # type: ignore[arg-type]
        cpp = None
        for key, key_node, value in self.mapping(body, f"field `{name}`", FIELD_KEYS):
            if key == "type":
                text = self.scalar(value, "type")
                if text is not None:
                    f.type = self.type_expr(value, text)
            elif key == "key":
                f.key = self.stored_name(value, "key", name)
                f.key_location = self.loc(value)
            elif key == "default":
                f.default = self.any_scalar(value, "default")
            elif key == "required":
                f.required = bool(self.typed(value, "required", bool))
            elif key == "omit_empty":
                f.omit_empty = bool(self.typed(value, "omit_empty", bool))
            elif key == "doc":
                f.doc = self.typed(value, "doc", str) or ""
            elif key == "cpp":
                cpp = self.typed(value, "cpp", str)
        if f.type is None:
            if not any(k == "type" for k, _, _ in self.mapping(body, "field")):
                self.error(name_node, f"field `{name}` has no type")
            return None
        if cpp is not None:
            f.type.cpp = cpp
        return f


class _TypeParser:
    def __init__(self, reader: _Reader, node: yaml.Node, text: str, tokens: list):
        self.reader, self.node, self.text, self.tokens, self.index = reader, node, text, tokens, 0

    def peek(self):
        return self.tokens[self.index] if self.index < len(self.tokens) else (None, None, len(self.text))

    def take(self, kind: str, value: Optional[str] = None):
        tok = self.peek()
        if tok[0] != kind or (value is not None and tok[1] != value):
            wanted = f"`{value}`" if value else kind
            found = f"`{tok[1]}`" if tok[1] is not None else "the end"
            self.reader.error(self.node, f"expected {wanted} in type `{self.text}`, found {found}",
                              column_offset=tok[2])
            return None
        self.index += 1
        return tok

    def parse(self) -> Optional[TypeRef]:
        tok = self.take("name")
        if tok is None:
            return None
        spelled, column = tok[1], tok[2]
        loc = self.reader.loc(self.node, column)
        if spelled in catalog.VECTOR_SPELLINGS:
            return self.binary_vector(loc)
        container = _CONTAINER_SPELLINGS.get(spelled)
        if container is None:
            if self.peek()[1] == "<":
                self.reader.error(self.node, f"`{spelled}` takes no template arguments",
                                  did_you_mean(spelled, _CONTAINER_SPELLINGS), column_offset=column)
                return None
            kind = catalog.SCHEMA_ALIASES.get(spelled, spelled)
            t = TypeRef(kind=kind, location=loc)
            if kind not in catalog.SCALARS:
                # A struct or enum name (or a mistake): the linker resolves it.
                t = TypeRef(kind=NAMED_KIND, name=spelled, location=loc)
            return self.optional_suffix(t)
        if self.take("punct", "<") is None:
            return None
        if container == "map" and self.peek()[1] in _MAP_KEY_SPELLINGS and \
                self.index + 1 < len(self.tokens) and self.tokens[self.index + 1][1] == ",":
            self.index += 2
        element = self.parse()
        if element is None:
            return None
        size = None
        if container == "array":
            if self.take("punct", ",") is None:
                return None
            number = self.take("number")
            if number is None:
                return None
            size = int(number[1])
        if self.take("punct", ">") is None:
            return None
        cpp = None
        if spelled == "std::unordered_map":
            cpp = None  # spelled through the field's `cpp` option; the codec accepts any map
        return self.optional_suffix(TypeRef(kind=container, element=element, size=size,
                                            location=loc, cpp=cpp))

    def binary_vector(self, loc: Location) -> Optional[TypeRef]:
        """`binary_vector<dtype>` or `binary_vector<dtype, N>`; the linker checks the dtype and N."""
        if self.take("punct", "<") is None:
            return None
        dtype = self.take("name")
        if dtype is None:
            return None
        size = None
        if self.peek()[1] == ",":
            self.index += 1
            number = self.take("number")
            if number is None:
                return None
            size = int(number[1])
        if self.take("punct", ">") is None:
            return None
        return self.optional_suffix(TypeRef(kind=catalog.VECTOR_KIND, dtype=dtype[1], size=size,
                                            location=loc))

    def optional_suffix(self, t: TypeRef) -> TypeRef:
        # `T?` is shorthand for optional<T>.
        if self.peek()[1] == "?":
            self.index += 1
            return TypeRef(kind="optional", element=t, location=t.location)
        return t


def read_schema(path: str, display_path: Optional[str] = None) -> Model:
    """Parses one schema file; raises SchemaErrors (every problem found) or SchemaError."""
    display = display_path or path
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise SchemaError(Location(display), f"cannot read schema: {e.strerror}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line_start = data.rfind(b"\n", 0, e.start) + 1
        line = data.count(b"\n", 0, e.start) + 1
        column = len(data[line_start:e.start].decode("utf-8", "replace")) + 1  # characters
        raise SchemaError(Location(display, line, column),
                          f"byte 0x{data[e.start]:02X} is not UTF-8: a schema is UTF-8 text",
                          "save the file as UTF-8")
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark
        where = Location(display, mark.line + 1, mark.column + 1) if mark else Location(display)
        raise SchemaError(where, f"invalid YAML: {e.problem}")
    if root is None:
        raise SchemaError(Location(display), "the schema is empty")
    reader = _Reader(path, display)
    model = reader.read(root)
    if reader.errors:
        raise SchemaErrors(reader.errors)
    return model
