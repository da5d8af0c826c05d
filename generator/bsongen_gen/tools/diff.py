"""`bsongen diff`: the changes between two schemas, each classified for two directions:

  readers  new code reading data old code wrote (is old data still readable?)
  writers  old code reading data new code writes (can old programs still read new data?)

Structs are matched by name, fields by BSON key, enums by name. A struct or enum that a field
refers to under a new name, where the old name is gone, counts as renamed and is compared with
its new self.

Every verdict comes from one question asked of a (reader, writer) pair: can the reader's decoder
read everything the writer's encoder may write? For a field that means: is it present when the
reader requires it (a writer may leave out an `optional` or `omit_empty` field), is a key the
reader does not know allowed (`unknown_fields`), and does the reader's type read every value the
writer's type writes. Values are compared as the runtime's codecs convert them (wire.py's value
sets: which values of which BSON types a kind, held in its `cpp:` spelling, accepts and writes;
integer ranges, whole numbers, float's range, clock ticks, number<double>'s 2^53, enum values),
then element types and array sizes recursively. The rule names describe *what* changed; the
verdicts follow from that one question, so rules never disagree with each other.

Two changes are breaking whatever the wire says, because data is silently lost: a renamed key
(values under the old key are no longer read) and an enum value whose stored name changed.

A projection (`projection_of`) reads documents its source writes, so its fields are judged
against the source's (Differ.projection) rather than against what the projection itself would
write, and it is never a root. A field the old projection kept that the new source no longer
writes breaks old code (it reads the default in place of the value), like a renamed key.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Optional

from .. import catalog
from ..diagnostics import Location
from ..model import Enum, Field, Model, Struct, TypeRef
from . import schemas, wire
from .schema_yaml import type_expression


@dataclass
class Verdict:
    breaking: bool
    reason: str = ""

    def to_json(self) -> dict:
        return {"breaking": self.breaking, "reason": self.reason}


COMPATIBLE = Verdict(False)


@dataclass
class Change:
    path: str                       # `order.qty`, `order`, `order_status`
    rules: list[str]                # what changed: field_added, type_widened, ...
    summary: str                    # "type int32 -> int64"
    readers: Verdict                # new code reading old data
    writers: Verdict                # old code reading new data
    location: Optional[Location] = None
    key: Optional[str] = None       # the field's BSON key, for field changes

    def breaks(self, directions) -> bool:
        return any(getattr(self, d).breaking for d in directions)

    def to_json(self) -> dict:
        return {"path": self.path, "key": self.key, "rules": self.rules, "summary": self.summary,
                "readers": self.readers.to_json(), "writers": self.writers.to_json(),
                "location": str(self.location) if self.location else None}


def _verdict(reasons: list[str]) -> Verdict:
    return Verdict(True, "; ".join(reasons)) if reasons else COMPATIBLE


def _unwrap(t: TypeRef) -> tuple[TypeRef, bool, bool]:
    """(the value type inside optional/nullable, optional?, nullable?)."""
    optional = nullable = False
    if t.kind == "optional":
        optional, t = True, t.element
    if t.kind == wire.NULLABLE:
        nullable, t = True, t.element
    return t, optional, nullable


def _named(t: TypeRef) -> Optional[TypeRef]:
    """The struct or enum a type refers to (inside any containers), or None."""
    return next((x for x in schemas.walk(t) if x.kind in ("struct", "enum")), None)


def _stored(e: Enum) -> set:
    return {v.bson_name if e.storage == "string" else v.value for v in e.values}


class _Schemas:
    """The reader's and the writer's definitions, and which of their structs and enums pair up."""

    def __init__(self, reader: schemas.Definitions, writer: schemas.Definitions,
                 paired: dict[str, str]):
        self.reader, self.writer = reader, writer
        self.paired = paired   # writer's name -> reader's name, for every paired struct and enum
        self.assumed: set[tuple[str, str]] = set()  # struct pairs being compared (recursion)

    def same(self, reader_name: str, writer_name: str) -> bool:
        return self.paired.get(writer_name) == reader_name


def _shown(t: TypeRef) -> str:
    """A type for messages: `int32`, `enum level`, `double held as float`."""
    text = f"enum {t.name}" if t.kind == "enum" else type_expression(t)
    return f"{text} held as {t.cpp}" if t.cpp else text


def _spelled(t: TypeRef) -> list:
    return [(x.kind, x.name, x.size, x.dtype, x.cpp or "") for x in schemas.walk(t)]


def _value_sets(t: TypeRef, definitions: schemas.Definitions) -> tuple:
    """wire.value_sets of `t`, its enum's stored values and storage looked up."""
    if t.kind == "enum":
        e = definitions.enum(t)
        return wire.value_sets(t, frozenset(_stored(e)), e.storage)
    return wire.value_sets(t)


def _values_read(r: TypeRef, w: TypeRef, s: _Schemas) -> Optional[str]:
    """Why the decoder of `r` refuses some value the encoder of `w` may write at the outermost
    level (BSON types, and the values of each: integer ranges, whole numbers, float's range,
    clock ticks, enum values), or None. Both are unwrapped; null is judged by the caller."""
    accepted, _ = _value_sets(r, s.reader)
    _, written = _value_sets(w, s.writer)
    for side in (accepted, written):
        if side.unknown:
            return side.unknown
    gaps = [g for g in wire.uncovered(accepted, written) if g[0] != "null"]
    if not gaps:
        return None
    unread = [tag for tag, _, _, read in gaps if not read]
    if unread:
        shown = ", ".join(sorted({wire.tag_text(t) for t in unread}))
        return f"{_shown(w)} writes {shown}, which {_shown(r)} does not read"
    tag, written_domain, accepted_domain, _ = gaps[0]
    alias = wire.tag_text(tag)
    what = f"any {alias}" if written_domain in (None, wire.FULL.get(tag)) else \
        f"{alias} {written_domain.describe()}"
    refusal = f"`{accepted_domain.refusal}`"
    return (f"{_shown(w)} writes {what}, and {_shown(r)} reads only {alias} "
            f"{accepted_domain.describe()} (others fail decode: {refusal})")


def can_read(r: TypeRef, w: TypeRef, s: _Schemas) -> Optional[str]:
    """Why a decoder of type `r` cannot read every value an encoder of type `w` writes, or None.
    Structs and enums of the same name (or renamed) count as readable here: their own changes
    are reported, and judged, on their own lines. The values are compared as the runtime's
    codecs convert them (wire.value_sets)."""
    if _spelled(r) == _spelled(w) and not any(x.kind in ("struct", "enum")
                                                for x in schemas.walk(r)):
        return None  # the same codec reads what it writes
    r, r_optional, r_nullable = _unwrap(r)
    w, _, w_nullable = _unwrap(w)  # an optional writer leaves the key out; it never writes null
    if w_nullable and not (r_optional or r_nullable or r.kind in ("any", "null")):
        return f"null is written and {type_expression(r)} does not read null"
    if r.kind == "any":
        return None
    if w.kind == "any":
        return f"any value may be written and {type_expression(r)} reads only its own type"
    if r.kind == w.kind == "enum" and s.same(r.name, w.name):
        return None
    if r.kind == "struct" and w.kind == "struct":
        if s.same(r.name, w.name):
            return None
        return _struct_reads_struct(s.reader.struct(r), s.writer.struct(w), s)
    if r.kind == "map" and w.kind == "struct":
        for f in s.writer.struct(w).fields:
            reason = can_read(r.element, f.type, s)
            if reason:
                return f"{w.name}.{f.name}: {reason}"
        return None
    if r.kind == "struct" and w.kind in ("map", "raw_document"):
        return (f"{type_expression(w)} may write any keys, which struct {r.name} does not "
                "read as its fields")
    if r.kind == "map" and w.kind == "raw_document" and r.element.kind != "any":
        return (f"raw_document may write values of any type, which {type_expression(r)} reads "
                f"only as {type_expression(r.element)}")
    reason = _values_read(r, w, s)
    if reason:
        return reason
    if r.kind in ("vector", "array") and w.kind in ("vector", "array"):
        if r.kind == "array" and (w.kind != "array" or w.size != r.size):
            written = f"{w.size} elements" if w.kind == "array" else "any number of elements"
            return f"{written} may be written and {type_expression(r)} reads exactly {r.size}"
        reason = can_read(r.element, w.element, s)
        return f"elements: {reason}" if reason else None
    if r.kind == "map" and w.kind == "map":
        reason = can_read(r.element, w.element, s)
        return f"values: {reason}" if reason else None
    return None


def _struct_reads_struct(rs: Struct, ws: Struct, s: _Schemas) -> Optional[str]:
    """Differently named structs, compared field by field (assumed readable while recursing)."""
    pair = (rs.name, ws.name)
    if pair in s.assumed:
        return None
    s.assumed.add(pair)
    try:
        writer_fields = {f.key: f for f in ws.fields}
        reader_fields = {f.key: f for f in rs.fields}
        for key in [*reader_fields, *(k for k in writer_fields if k not in reader_fields)]:
            reasons = field_reasons(reader_fields.get(key), rs, writer_fields.get(key), s)
            if reasons:
                return f"struct {ws.name} -> {rs.name}: {reasons[0]}"
        return None
    finally:
        s.assumed.discard(pair)


def field_reasons(reader: Optional[Field], reader_struct: Struct, writer: Optional[Field],
                  s: _Schemas) -> list[str]:
    """Why the reader's struct cannot read this field as the writer's struct writes it (empty:
    it can). `reader` or `writer` is None when that side has no field with this key."""
    if writer is None:
        if reader is not None and reader.required:
            return [f"`{reader.key}` is required and never written"]
        return []
    if reader is None:
        if reader_struct.unknown_fields == "reject":
            return [f"`{writer.key}` is written and struct {reader_struct.name} rejects unknown "
                    "fields"]
        return []
    reasons = []
    _, writer_may_omit = schemas.presence(writer)
    if reader.required and writer_may_omit:
        reasons.append(f"`{reader.key}` is required and may be left out")
    reason = can_read(reader.type, writer.type, s)
    if reason:
        reasons.append(reason)
    return reasons


# --- Describing what changed. ---

def _presence(f: Field) -> str:
    state = "required" if f.required else "optional" if f.type.kind == "optional" else \
        "not required (absent reads the default)"
    return state + (", omit_empty" if f.omit_empty else "")


def _type_rules(old: Field, new: Field, for_readers: _Schemas, for_writers: _Schemas) \
        -> tuple[list, list]:
    """(rules, summary parts) for the differences of a matched field."""
    rules, parts = [], []
    old_value, _, old_null = _unwrap(old.type)
    new_value, _, new_null = _unwrap(new.type)
    if old_null != new_null:
        rules.append("nullable_added" if new_null else "nullable_removed")
        parts.append("now nullable" if new_null else "no longer nullable")
    old_text, new_text = type_expression(old_value), type_expression(new_value)
    if old_text != new_text:
        if old_value.kind == new_value.kind == "array" and \
                type_expression(old_value.element) == type_expression(new_value.element):
            rules.append("array_size_changed")
            parts.append(f"type {old_text} -> {new_text}")
        elif old_value.kind == new_value.kind == catalog.VECTOR_KIND:
            # A binary vector's dtype or fixed dimension: each reads only its own (wire.py).
            rules.append("vector_dtype_changed" if old_value.dtype != new_value.dtype
                         else "vector_dimension_changed")
            parts.append(f"type {old_text} -> {new_text}")
        else:
            # Widened: the new type reads all the old one wrote, and writes what it could not.
            readers_ok = can_read(new.type, old.type, for_readers) is None
            writers_ok = can_read(old.type, new.type, for_writers) is None
            rule = "type_changed" if readers_ok == writers_ok else \
                "type_widened" if readers_ok else "type_narrowed"
            rules.append(rule)
            parts.append(f"type {old_text} -> {new_text}" +
                         {"type_widened": " (widened)", "type_narrowed": " (narrowed)"}.get(rule, ""))
    elif (old_value.cpp or "") != (new_value.cpp or ""):
        rules.append("cpp_changed")
        parts.append(f"C++ spelling {old_value.cpp or 'default'} -> {new_value.cpp or 'default'}")
    if _presence(old) != _presence(new):
        rules.append("presence_changed")
        parts.append(f"{_presence(old)} -> {_presence(new)}")
    if old.name != new.name:
        rules.append("member_renamed")
        parts.append(f"member {old.name} -> {new.name} (C++ code using it changes)")
    if old.default != new.default:
        rules.append("default_changed")
        parts.append(f"default {old.default!r} -> {new.default!r} (absent fields read it)")
    return rules, parts


class PairingError(ValueError):
    """A --struct pairing that names no struct, or a struct twice."""


def roots(model: Model) -> list[str]:
    """The structs no other struct's field refers to: what documents are stored as. Not
    projections, which read documents stored as their source."""
    referred = {t.name for s in model.structs for f in s.fields for t in schemas.walk(f.type)
                if t.kind == "struct" and t.name != s.name}
    return [s.name for s in model.structs if s.name not in referred and s.projection is None]


# How an old struct was paired with a differently named new one, for the struct_renamed line.
PAIRED_BY = {
    "--struct": "paired by --struct",
    "root": "paired as the one root struct of each schema (--struct OLD=NEW pairs others)",
    "reference": "a field refers to it under the new name",
}


class _Differ:
    def __init__(self, old: Model, new: Model, pairs: Optional[dict[str, str]] = None):
        self.old, self.new = schemas.Definitions(old), schemas.Definitions(new)
        self.old_roots = roots(old)
        self.changes: list[Change] = []
        # old name -> new name for every struct and enum compared with another, and for those
        # of different names how they were paired.
        self.structs: dict[str, str] = {}
        self.enums: dict[str, str] = {}
        self.paired_by: dict[str, str] = {}  # old struct name -> PAIRED_BY key
        self._pair(old, new, pairs or {})
        paired = {**self.structs, **self.enums}
        # readers: new code (reader: new) reads old data (writer: old); writers: the reverse.
        self.for_readers = _Schemas(self.new, self.old, paired)
        self.for_writers = _Schemas(self.old, self.new, {v: k for k, v in paired.items()})

    def _pair(self, old: Model, new: Model, explicit: dict[str, str]) -> None:
        """Pairs structs: --struct's first, else the two roots when each schema has one root and
        neither name is in the other schema; then by name; then, from the pairs so far, each
        definition a field (matched by key) refers to under a new name, when the old name is not
        paired yet and the new one is not paired either."""
        for old_name, new_name in explicit.items():
            if old_name not in self.old.structs:
                raise PairingError(f"--struct {old_name}={new_name}: the old schema has no "
                                   f"struct `{old_name}`")
            if new_name not in self.new.structs:
                raise PairingError(f"--struct {old_name}={new_name}: the new schema has no "
                                   f"struct `{new_name}`")
            if new_name in self.structs.values():
                raise PairingError(f"--struct: struct `{new_name}` is paired twice")
            self.structs[old_name] = new_name
            self.paired_by[old_name] = "--struct"
        new_roots = roots(new)
        if not explicit and len(self.old_roots) == 1 and len(new_roots) == 1:
            old_root, new_root = self.old_roots[0], new_roots[0]
            if old_root not in self.new.structs and new_root not in self.old.structs:
                self.structs[old_root] = new_root
                self.paired_by[old_root] = "root"
        taken = set(self.structs.values())
        for name in self.old.structs:
            if name in self.new.structs and name not in self.structs and name not in taken:
                self.structs[name] = name
        self.enums = {name: name for name in self.old.enums if name in self.new.enums}
        pairs = list(self.structs.items())
        for old_name, new_name in pairs:  # grows while renamed structs are found
            old_fields = {f.key: f for f in self.old.structs[old_name].fields}
            for f in self.new.structs[new_name].fields:
                if f.key not in old_fields:
                    continue
                a = _named(old_fields[f.key].type)
                b = _named(f.type)
                if a is None or b is None or a.kind != b.kind or a.name == b.name:
                    continue
                found = self.structs if a.kind == "struct" else self.enums
                if a.name in found or b.name in found.values():
                    continue
                found[a.name] = b.name
                if a.kind == "struct":
                    self.paired_by[a.name] = "reference"
                    pairs.append((a.name, b.name))

    def add(self, change: Change) -> None:
        self.changes.append(change)

    def pairings(self) -> list[dict]:
        """The structs compared under another name: old, new, and how they were paired."""
        return [{"old": o, "new": self.structs[o], "by": by} for o, by in self.paired_by.items()]

    def removed_struct(self, name: str) -> Verdict:
        """A root struct is what documents are stored as: with nothing to read them as, new code
        cannot read them. Other structs are read inside fields, which are judged on their own."""
        if name not in self.old_roots:
            return COMPATIBLE
        return Verdict(True, f"documents stored as `{name}` have no struct to be read as in the "
                       f"new schema (--struct {name}=NEW compares it with one)")

    def run(self) -> list[Change]:
        for old_name, by in self.paired_by.items():
            new_name = self.structs[old_name]
            self.add(Change(new_name, ["struct_renamed"], f"struct {old_name} renamed to "
                            f"{new_name}: {PAIRED_BY[by]} (compared below as {new_name})",
                            COMPATIBLE, COMPATIBLE, self.new.structs[new_name].location))
        for old_name, new_name in self.enums.items():
            if old_name != new_name:
                self.add(Change(new_name, ["enum_renamed"], f"enum {old_name} renamed to "
                                f"{new_name}", COMPATIBLE, COMPATIBLE,
                                self.new.enums[new_name].location))
        old_of = {n: o for o, n in self.structs.items()}
        for name, new_s in self.new.structs.items():
            if name not in old_of:
                self.add(Change(name, ["struct_added"], "struct added", COMPATIBLE, COMPATIBLE,
                                new_s.location))
        for name, old_s in self.old.structs.items():
            if name not in self.structs:
                readers = self.removed_struct(name)
                self.add(Change(name, ["struct_removed"], "struct removed" + (
                    " (a root struct)" if readers.breaking else ""), readers, COMPATIBLE,
                    old_s.location))
        for old_name, new_name in self.structs.items():
            self.struct(self.old.structs[old_name], self.new.structs[new_name])
        old_of = {n: o for o, n in self.enums.items()}
        for name, new_e in self.new.enums.items():
            if name not in old_of:
                self.add(Change(name, ["enum_added"], "enum added", COMPATIBLE, COMPATIBLE,
                                new_e.location))
            else:
                self.enum(self.old.enums[old_of[name]], new_e)
        for name, old_e in self.old.enums.items():
            if name not in self.enums:
                self.add(Change(name, ["enum_removed"], "enum removed", COMPATIBLE, COMPATIBLE,
                                old_e.location))
        return self.changes

    def struct(self, old: Struct, new: Struct) -> None:
        if old.projection is not None and new.projection is not None and \
                old.projection.source in self.old.structs and \
                new.projection.source in self.new.structs:
            self.projection(old, new)
            return
        if old.unknown_fields != new.unknown_fields:
            readers = _verdict(["documents with fields the struct does not know are now rejected"]
                               if new.unknown_fields == "reject" else [])
            writers = _verdict(["captured unknown fields are written back and old code rejects "
                                "unknown fields"]
                               if new.unknown_fields == "capture" and old.unknown_fields ==
                               "reject" else [])
            self.add(Change(new.name, ["unknown_fields_changed"], f"unknown_fields "
                            f"{old.unknown_fields} -> {new.unknown_fields}", readers, writers,
                            new.location))
        if old.duplicate_keys != new.duplicate_keys:
            readers = _verdict(["documents that repeat a key are now rejected"]
                               if new.duplicate_keys == "reject" else [])
            self.add(Change(new.name, ["duplicate_keys_changed"], f"duplicate_keys "
                            f"{old.duplicate_keys} -> {new.duplicate_keys}", readers, COMPATIBLE,
                            new.location))
        old_fields = {f.key: f for f in old.fields}
        new_fields = {f.key: f for f in new.fields}
        renamed_keys = {}
        for key, f in new_fields.items():
            if key in old_fields:
                continue
            twin = next((o for o in old.fields if o.name == f.name and o.key not in new_fields),
                        None)
            if twin is not None:
                renamed_keys[twin.key] = key
        for key, f in new_fields.items():
            path = f"{new.name}.{f.name}"
            old_key = next((o for o, n in renamed_keys.items() if n == key), None)
            if old_key is not None:
                self.key_renamed(old, new, old_fields[old_key], f)
            elif key not in old_fields:
                what = "required field" if f.required else "optional field" \
                    if f.type.kind == "optional" else "field"
                self.add(Change(path, ["field_added"], f"{what} `{key}` added "
                                f"({type_expression(f.type)})",
                                _verdict(field_reasons(f, new, None, self.for_readers)),
                                _verdict(field_reasons(None, old, f, self.for_writers)),
                                f.location, key))
            else:
                self.field(old, new, old_fields[key], f)
        for key, f in old_fields.items():
            if key not in new_fields and key not in renamed_keys:
                self.add(Change(f"{new.name}.{f.name}", ["field_removed"],
                                f"field `{key}` removed ({type_expression(f.type)})",
                                _verdict(field_reasons(None, new, f, self.for_readers)),
                                _verdict(field_reasons(f, old, None, self.for_writers)),
                                new.location, key))

    def projection(self, old: Struct, new: Struct) -> None:
        """A projection reads documents its source writes: each kept field is judged against the
        source's field of that key (new code: the new projection reading what the old source
        wrote; old code: the old projection reading what the new source writes), and a field the
        old projection kept that the new source no longer writes breaks old code, which then
        reads the field's default where it read the value (data silently lost, as for a renamed
        key)."""
        old_source = self.old.structs[old.projection.source]
        new_source = self.new.structs[new.projection.source]
        written_before = {f.key: f for f in old_source.fields}
        written_now = {f.key: f for f in new_source.fields}
        old_kept = {f.key: f for f in old.fields}
        new_kept = {f.key: f for f in new.fields}
        for key in [*new_kept, *(k for k in old_kept if k not in new_kept)]:
            was, now = old_kept.get(key), new_kept.get(key)
            readers = field_reasons(now, new, written_before.get(key), self.for_readers) \
                if now is not None else []
            writers = field_reasons(was, old, written_now.get(key), self.for_writers) \
                if was is not None else []
            shown = now or was
            path = f"{new.name}.{shown.name}"
            if was is not None and key not in written_now:
                writers.append(f"old code reading documents as {old.name} keeps `{key}`, which "
                               f"{new_source.name} no longer writes: it reads the default "
                               "instead of the value")
                self.add(Change(path, ["kept_field_dropped_by_source"],
                                f"`{key}` kept from {old_source.name}, which no longer has it" +
                                ("" if now is None else " (still kept)"),
                                _verdict(readers), _verdict(writers), new.location, key))
            elif now is None:
                self.add(Change(path, ["field_removed"], f"no longer keeps `{key}` of "
                                f"{new_source.name}", _verdict(readers), _verdict(writers),
                                new.location, key))
            elif was is None:
                self.add(Change(path, ["field_added"], f"keeps `{key}` of {new_source.name} "
                                f"({type_expression(now.type)})", _verdict(readers),
                                _verdict(writers), now.location, key))
            else:
                rules, parts = _type_rules(was, now, self.for_readers, self.for_writers)
                if rules or readers or writers:
                    self.add(Change(path, rules or ["source_changed"], "; ".join(parts) or
                                    f"`{key}` as {new_source.name} writes it changed",
                                    _verdict(readers), _verdict(writers), now.location, key))

    def key_renamed(self, old_s: Struct, new_s: Struct, old: Field, new: Field) -> None:
        readers = [f"values stored under `{old.key}` are no longer read"] + \
            field_reasons(new, new_s, None, self.for_readers) + \
            field_reasons(None, new_s, old, self.for_readers)
        writers = [f"old code reads `{old.key}`, new code writes `{new.key}`"] + \
            field_reasons(old, old_s, None, self.for_writers) + \
            field_reasons(None, old_s, new, self.for_writers)
        self.add(Change(f"{new_s.name}.{new.name}", ["key_renamed"],
                        f"key `{old.key}` renamed to `{new.key}`", _verdict(readers),
                        _verdict(writers), new.location, new.key))

    def field(self, old_s: Struct, new_s: Struct, old: Field, new: Field) -> None:
        readers = _verdict(field_reasons(new, new_s, old, self.for_readers))
        writers = _verdict(field_reasons(old, old_s, new, self.for_writers))
        rules, parts = _type_rules(old, new, self.for_readers, self.for_writers)
        if not rules:
            return
        self.add(Change(f"{new_s.name}.{new.name}", rules, "; ".join(parts), readers, writers,
                        new.location, new.key))

    def enum(self, old: Enum, new: Enum) -> None:
        if old.storage != new.storage:
            reason = f"stored as {old.storage} before, {new.storage} now"
            self.add(Change(new.name, ["enum_storage_changed"], f"storage {old.storage} -> "
                            f"{new.storage}", Verdict(True, reason), Verdict(True, reason),
                            new.location))
            return
        def stored(v):
            return v.bson_name if new.storage == "string" else v.value
        old_by_name = {v.name: v for v in old.values}
        new_stored = {stored(v) for v in new.values}
        old_stored = {stored(v) for v in old.values}
        renamed = set()
        for v in new.values:
            before = old_by_name.get(v.name)
            if before is not None and stored(before) != stored(v) and \
                    stored(before) not in new_stored and stored(v) not in old_stored:
                renamed.add(stored(before))
                self.add(Change(f"{new.name}.{v.name}", ["enum_value_renamed"],
                                f"`{v.name}` stored as `{stored(before)}` -> `{stored(v)}`",
                                Verdict(True, f"old data holds `{stored(before)}`, which new "
                                        "code rejects"),
                                Verdict(True, f"new code writes `{stored(v)}`, which old code "
                                        "rejects"), v.location))
            elif stored(v) not in old_stored:
                self.add(Change(f"{new.name}.{v.name}", ["enum_value_added"],
                                f"value `{stored(v)}` added", COMPATIBLE,
                                Verdict(True, f"new code may write `{stored(v)}`, which old code "
                                        "rejects"), v.location))
        for v in old.values:
            if stored(v) not in new_stored and stored(v) not in renamed:
                self.add(Change(f"{new.name}.{v.name}", ["enum_value_removed"],
                                f"value `{stored(v)}` removed",
                                Verdict(True, f"old data may hold `{stored(v)}`, which new code "
                                        "rejects"), COMPATIBLE, new.location))


def compare(old: Model, new: Model, pairs: Optional[dict[str, str]] = None) -> list[Change]:
    """Every change from `old` to `new`, classified for readers and writers. `pairs`: old struct
    name -> new struct name, compared whatever their names (--struct); raises PairingError."""
    return _Differ(old, new, pairs).run()


def compare_paired(old: Model, new: Model, pairs: Optional[dict[str, str]] = None) \
        -> tuple[list[Change], list[dict]]:
    """compare(), and the structs compared under another name (`pairings`: old, new, by)."""
    differ = _Differ(old, new, pairs)
    return differ.run(), differ.pairings()


def breaking(changes: list[Change], directions) -> bool:
    return any(c.breaks(directions) for c in changes)


def _status(c: Change) -> str:
    broken = [d for d in ("readers", "writers") if getattr(c, d).breaking]
    return "breaking for " + " and ".join(broken) if broken else "compatible"


def to_text(changes: list[Change], directions, pairings: Optional[list[dict]] = None) -> str:
    """One line per change: `location: status: path: what changed; why it breaks`, then a
    summary line, which names the structs compared under another name and how they were paired."""
    lines = []
    for c in changes:
        why = "; ".join(f"{d}: {getattr(c, d).reason}" for d in ("readers", "writers")
                        if getattr(c, d).breaking)
        where = f"{c.location}: " if c.location else ""
        lines.append(f"{where}{_status(c)}: {c.path}: {c.summary}" + (f" -- {why}" if why else ""))
    counts = {d: sum(getattr(c, d).breaking for c in changes) for d in ("readers", "writers")}
    if not changes:
        lines.append("bsongen diff: no changes")
    else:
        paired = ", ".join(f"{p['old']} -> {p['new']} ({p['by']})" for p in pairings or [])
        lines.append(f"bsongen diff: {len(changes)} change(s), {counts['readers']} breaking for "
                     f"readers (new code, old data), {counts['writers']} breaking for writers "
                     f"(old code, new data); checked: {' and '.join(directions)}" +
                     (f"; structs paired: {paired}" if paired else ""))
    return "\n".join(lines) + "\n"


def to_json(changes: list[Change], directions, pairings: Optional[list[dict]] = None) -> str:
    return json.dumps({
        "changes": [c.to_json() for c in changes],
        "breaking": {d: sum(getattr(c, d).breaking for c in changes)
                     for d in ("readers", "writers")},
        "checked": list(directions),
        "fails": breaking(changes, directions),
        "paired": pairings or [],
    }, indent=2) + "\n"
