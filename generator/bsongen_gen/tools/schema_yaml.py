"""Writes a model back as a schema file (docs/schema-format.md): the render step of `bsongen
infer`. A small emitter rather than yaml.safe_dump, for the comments: each struct, field and enum
may carry comment lines (what infer saw), which PyYAML cannot write.

Every scalar is written plain only when YAML reads it back as the same string, else
double-quoted with escapes; render() checks its own output by loading it and comparing with the
structure it meant to write. Both steps cost the same per field however many fields there are
(issue 35 item 10): a plain scalar is checked by YAML's resolver alone (PyYAML's own rules for
which plain words are not strings), and the whole text loaded once, by libyaml when PyYAML has it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from .. import catalog
from ..model import DEFAULT_DUPLICATE_KEYS, DEFAULT_UNKNOWN_FIELDS, Field, Model, TypeRef
from . import wire

_PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9_<>?]*$")
_PLAIN_IN_FLOW = re.compile(r"^[A-Za-z_][A-Za-z0-9_<>]*$")  # `?` is an indicator inside {...}
_RESOLVER = yaml.resolver.Resolver()  # the safe loader's implicit tags for plain scalars
_STRING_TAG = "tag:yaml.org,2002:str"
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # the same tags, parsed by libyaml
# Characters YAML does not allow unescaped in a stream (PyYAML's reader rejects them).
_NON_PRINTABLE = re.compile("[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010FFFF]"
                            "|[\x85\u2028\u2029\uFEFF]")


def type_expression(t: TypeRef) -> str:
    """The schema-file spelling of a type reference: `vector<item>`, `string?`,
    `optional<nullable<int32>>`, `array<double, 3>`, `map<string, int64>`."""
    if t.kind in ("struct", "enum", "named"):
        return t.name or t.kind
    if t.kind == catalog.VECTOR_KIND:
        return f"{t.kind}<{t.dtype}{'' if t.size is None else f', {t.size}'}>"
    if t.element is None:
        return t.kind
    inner = type_expression(t.element)
    if t.kind == "optional":
        # `T?` reads well for a plain T; spelled out around nullable, where it is the point.
        return f"optional<{inner}>" if t.element.kind == wire.NULLABLE else f"{inner}?"
    if t.kind == "array":
        return f"array<{inner}, {t.size}>"
    if t.kind == "map":
        return f"map<string, {inner}>"
    return f"{t.kind}<{inner}>"


def _escape(text: str, quote: bool) -> str:
    def one(m: re.Match) -> str:
        c = m.group(0)
        return f"\\u{ord(c):04X}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08X}"
    if quote:
        text = text.replace("\\", "\\\\").replace('"', '\\"')
        text = text.replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r")
    return _NON_PRINTABLE.sub(one, text)


def scalar(value: Any, flow: bool = False) -> str:
    """One YAML scalar that loads back as `value` (str, bool or int); `flow`: for use inside a
    flow mapping ({...})."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    text = str(value)
    # One plain scalar (the pattern leaves out every indicator); plain only when it resolves to a
    # string, not to a bool (`yes`, `off`) or null (`null`, `Null`).
    if (_PLAIN_IN_FLOW if flow else _PLAIN).match(text) and \
            _RESOLVER.resolve(yaml.ScalarNode, text, (True, False)) == _STRING_TAG:
        return text
    return '"' + _escape(text, quote=True) + '"'


def _comment(line: str) -> str:
    return "# " + _escape(line.replace("\n", " "), quote=False) if line else "#"


@dataclass
class Notes:
    """Comment lines to write above the parts of a schema."""
    header: list[str] = field(default_factory=list)
    structs: dict[str, list[str]] = field(default_factory=dict)
    fields: dict[tuple[str, str], list[str]] = field(default_factory=dict)  # (struct, member)
    enums: dict[str, list[str]] = field(default_factory=dict)


class _Emitter:
    def __init__(self):
        self.lines: list[str] = []

    def comments(self, indent: int, lines: list[str]) -> None:
        self.lines.extend(" " * indent + _comment(line) for line in lines)

    def entry(self, indent: int, key: str, value: str = "") -> None:
        self.lines.append(" " * indent + scalar(key) + ":" + (" " + value if value else ""))


def _field_value(f: Field) -> tuple[str, Any]:
    """(the YAML text of a field's body, the value it loads as)."""
    expression = type_expression(f.type)
    options: list[tuple[str, Any]] = [("type", expression)]
    if f.key != f.name:
        options.append(("key", f.key))
    if f.required:
        options.append(("required", True))
    if f.omit_empty:
        options.append(("omit_empty", True))
    if f.doc:
        options.append(("doc", f.doc))
    if f.type.cpp:
        options.append(("cpp", f.type.cpp))
    if len(options) == 1:
        return scalar(expression), expression
    text = "{" + ", ".join(f"{k}: {scalar(v, flow=True)}" for k, v in options) + "}"
    return text, dict(options)


def render(model: Model, notes: Notes) -> str:
    """The schema file text of `model` with `notes` as comments."""
    out = _Emitter()
    expected: dict[str, Any] = {}
    out.comments(0, notes.header)
    if model.namespace:
        out.entry(0, "namespace", scalar(model.namespace))
        expected["namespace"] = model.namespace
    if model.enums:
        out.entry(0, "enums")
        expected["enums"] = {}
        for e in model.enums:
            out.comments(2, notes.enums.get(e.name, []))
            out.entry(2, e.name)
            body: dict[str, Any] = {}
            if e.doc:
                out.entry(4, "doc", scalar(e.doc))
                body["doc"] = e.doc
            out.entry(4, "storage", scalar(e.storage))
            body["storage"] = e.storage
            out.entry(4, "values")
            body["values"] = {}
            for number, v in enumerate(e.values):
                options = {}
                if v.bson_name != v.name:
                    options["bson_name"] = v.bson_name
                if v.value != number:
                    options["value"] = v.value
                text = "{" + ", ".join(f"{k}: {scalar(x, flow=True)}"
                                       for k, x in options.items()) + "}" \
                    if options else ""
                out.entry(6, v.name, text)
                body["values"][v.name] = options or None
            expected["enums"][e.name] = body
    if model.structs:
        out.entry(0, "structs")
        expected["structs"] = {}
        for s in model.structs:
            out.comments(2, notes.structs.get(s.name, []))
            out.entry(2, s.name)
            body = {}
            if s.doc:
                out.entry(4, "doc", scalar(s.doc))
                body["doc"] = s.doc
            for option, default in (("unknown_fields", DEFAULT_UNKNOWN_FIELDS),
                                    ("duplicate_keys", DEFAULT_DUPLICATE_KEYS)):
                value = getattr(s, option)
                if value != default:
                    out.entry(4, option, scalar(value))
                    body[option] = value
            if s.capture_member:
                out.entry(4, "capture_member", scalar(s.capture_member))
                body["capture_member"] = s.capture_member
            out.entry(4, "fields", "" if s.fields else "{}")
            body["fields"] = {}
            for f in s.fields:
                out.comments(6, notes.fields.get((s.name, f.name), []))
                text, loaded = _field_value(f)
                out.entry(6, f.name, text)
                body["fields"][f.name] = loaded
            expected["structs"][s.name] = body
    text = "\n".join(out.lines) + "\n"
    if yaml.load(text, Loader=_LOADER) != expected:
        raise AssertionError("schema_yaml: the emitted YAML does not load as the model it "
                             "describes (an emitter bug)")
    return text
