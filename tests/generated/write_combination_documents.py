#!/usr/bin/python3
"""Writes the documents of combinations_test.cpp: for every struct of schemas/combinations_*.yaml,
random documents (fixed seed) encoded by pymongo (Debian python3-bson, UuidRepresentation
STANDARD), plus documents the generated decoder must refuse with the error path given here.

Usage: write_combination_documents.py OUTPUT SCHEMA...

The schemas are read from the YAML files themselves (the same files the C++ was generated from),
with a small parser of the type expressions they use, so the documents always match the compiled
structs. The files are read in the order given, structs in order of first appearance: a struct
defined in several files (make_combination_schema.py copies the leaf structs `fixed` and `texty`
into each file that uses them) must be the same in each, and gets documents once.

Output: one record after another, integers little-endian:
  u8 kind (0: decodes, 1: refused), u8 flags (1: holds a NaN, so compare values through their
  encodings; 2: `expected` follows, the bytes the generated encoder must write back when they
  differ from the input; 4: those bytes decode to another value), str struct, str note (why the bytes differ, or what was broken),
  str error path, str error code, u8 type byte at the error's offset (0: not checked),
  u32 size + the input document, [u32 size + the expected document]
where str is u16 size + UTF-8 bytes.

Where the input differs from what the generated encoder writes back (the schema's documented lossy
spots), the expected bytes are pymongo's encoding of the canonical form, and the note says why:
- `optional<T>` reads a null as absent (not for `optional<any>` or `optional<nullable<T>>`);
- an int32 read into a double or int64 member is written back as double / int64;
- `map<string, T>` is a std::map: keys are written back sorted (by their UTF-8 bytes);
- an absent vector, map or nullable member is written back as [], {} or null (its default);
- omit_empty leaves out an empty string, binary, vector, map or raw document (and an engaged
  but empty optional<vector<T>>, which then reads back as absent, and an empty binary whatever
  its subtype, which then reads back as subtype 0: other values);
- unknown keys are skipped (unknown_fields: skip, the default), or captured and written back
  after the struct's fields (unknown_fields: capture).
"""

import datetime
import math
import random
import re
import struct
import sys
import uuid

import bson
import yaml
from bson.binary import Binary, UuidRepresentation
from bson.code import Code
from bson.codec_options import CodecOptions
from bson.decimal128 import Decimal128
from bson.int64 import Int64
from bson.max_key import MaxKey
from bson.min_key import MinKey
from bson.objectid import ObjectId
from bson.regex import Regex
from bson.timestamp import Timestamp

OPTIONS = CodecOptions(uuid_representation=UuidRepresentation.STANDARD)
UTC = datetime.timezone.utc
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=UTC)
SEED = 20261201
OK_PER_STRUCT = 40
REFUSED_PER_STRUCT = 14

# --- Type expressions (the subset the combination schemas use). ---

_TOKEN = re.compile(r"\s*(?:([A-Za-z_][A-Za-z0-9_:]*)|([0-9]+)|([<>,?]))")
_CONTAINERS = {"vector", "std::vector", "array", "std::array", "map", "std::map",
               "optional", "std::optional", "nullable", "number"}


def parse_type(text: str):
    """A type as a tuple: (kind, ...) with kind vector/array/map/optional/nullable/number or
    ("name", name) for a scalar, enum or struct."""
    tokens = []
    at = 0
    while at < len(text):
        m = _TOKEN.match(text, at)
        if not m or m.end() == at:
            raise ValueError(f"cannot parse type {text!r}")
        tokens.append(m.group(1) or m.group(2) or m.group(3))
        at = m.end()
    pos = [0]

    def take():
        pos[0] += 1
        return tokens[pos[0] - 1]

    def peek():
        return tokens[pos[0]] if pos[0] < len(tokens) else None

    def one():
        name = take()
        if name in _CONTAINERS:
            kind = name.replace("std::", "")
            assert take() == "<"
            if kind == "map" and peek() in ("string", "std::string") and \
                    tokens[pos[0] + 1] == ",":
                pos[0] += 2
            if kind == "number":
                t = ("number", take())
            else:
                element = one()
                if kind == "array":
                    assert take() == ","
                    t = ("array", element, int(take()))
                else:
                    t = (kind, element)
            assert take() == ">"
        else:
            t = ("name", name)
        if peek() == "?":
            take()
            t = ("optional", t)
        return t

    t = one()
    assert pos[0] == len(tokens), text
    return t


class Schema:
    """The structs and enums of several schema files, as one schema."""

    def __init__(self, paths: list[str]):
        self.enums = {}
        self.structs = {}
        self.unknown_fields = {}  # skip | reject | capture
        self.duplicate_keys = {}  # last_wins | reject
        for path in paths:
            with open(path, encoding="utf-8") as f:
                self.read(path, yaml.safe_load(f))

    def read(self, path: str, doc) -> None:
        enums, structs = {}, {}
        for name, e in doc.get("enums", {}).items():
            values = e["values"]
            if e.get("storage") == "string":
                enums[name] = ("string", [
                    (v or {}).get("bson_name", k) if isinstance(v, dict) or v is None else k
                    for k, v in values.items()])
            else:
                enums[name] = ("int32", list(values.values()))
        for name, s in doc["structs"].items():
            fields = []
            for fname, spec in s["fields"].items():
                if not isinstance(spec, dict):
                    spec = {"type": spec}
                fields.append({
                    "name": fname, "key": spec.get("key", fname), "type": parse_type(spec["type"]),
                    "omit_empty": spec.get("omit_empty", False),
                    "required": spec.get("required", False),
                    "unordered": "unordered_map" in spec.get("cpp", ""),
                })
            structs[name] = (fields, s.get("unknown_fields", "skip"),
                             s.get("duplicate_keys", "last_wins"))
        for name, e in enums.items():
            if self.enums.setdefault(name, e) != e:
                raise SystemExit(f"{path}: enum {name} differs from the earlier file's")
        for name, (fields, unknown, duplicates) in structs.items():
            if name in self.structs:
                if (self.structs[name], self.unknown_fields[name], self.duplicate_keys[name]) != \
                        (fields, unknown, duplicates):
                    raise SystemExit(f"{path}: struct {name} differs from the earlier file's")
                continue
            self.structs[name] = fields
            self.unknown_fields[name] = unknown
            self.duplicate_keys[name] = duplicates


# --- Values. ---

KEYS = ["a", "b", "zz", "", "Z", "\u00e9", "\u65e5\u672c", "\U0001F600", "k" * 120, "$x",
        "a.b", "10", "2", "_id", "m" * 7]
STRINGS = ["", "a", "h\u00e9llo", "\u65e5\u672c\u8a9e", "\U0001F600 emoji", "nul\x00inside",
           "x" * 300, "line\nbreak", "\u00ff\u0100\u07ff\u0800\uffff"]
DOUBLES = [0.0, -0.0, 1.5, -2.25, 1e300, -1e-300, 5e-324, 2.0 ** 53, float("inf"), float("-inf"),
           float("nan"), struct.unpack("<d", bytes.fromhex("000000000000f8ff"))[0],
           1.7976931348623157e308]
INT32S = [0, -1, 1, 2 ** 31 - 1, -2 ** 31, 42]
INT64S = [0, -1, 2 ** 63 - 1, -2 ** 63, 2 ** 31, -2 ** 31 - 1, 1 << 53]
DECIMALS = ["0", "-0", "1.5", "-1.0E+10", "NaN", "-NaN", "Infinity", "-Infinity", "sNaN",
            "9.999999999999999999999999999999999E+6144", "1E-6176", "0E+6111", "123456789012345678"]
SUBTYPES = [0, 1, 2, 3, 5, 6, 7, 0x80, 0xFE]  # pymongo 3.11 fails to encode subtype 0xFF
MS_MIN = -62135596800000  # 0001-01-01
MS_MAX = 253402300799999  # 9999-12-31T23:59:59.999


class Gen:
    """Random values for one type: `make` returns (input value, canonical value) where the
    canonical value is what the generated encoder writes back; notes collect why they differ."""

    def __init__(self, schema: Schema, rng: random.Random):
        self.schema = schema
        self.rng = rng
        self.notes = set()
        self.nan = False
        # Documents with lossy spots are a minority (40%), so that most come back byte for byte.
        self.lossy = rng.random() < 0.4
        self.changes_value = False  # the canonical form decodes to another value

    def size(self, depth: int) -> int:
        r = self.rng.random()
        if depth > 5:
            return 0  # recursive structs end here
        if depth > 2:
            return 0 if r < 0.75 else 1
        return 0 if r < 0.2 else (1 if r < 0.5 else self.rng.randint(2, 4))

    def key_order(self, n: int):
        keys = self.rng.sample(KEYS, n)
        if not self.lossy or self.rng.random() < 0.7:
            keys.sort(key=lambda k: k.encode("utf-8"))
        return keys

    def double(self, in_any: bool):
        r = self.rng.random()
        if r < 0.45:
            v = self.rng.choice(DOUBLES)
        elif r < 0.9:
            v = self.rng.uniform(-1e6, 1e6)
        else:
            v = self.rng.choice(INT32S) if self.lossy and not in_any else 3.0
        if isinstance(v, float) and math.isnan(v):
            self.nan = True
        if isinstance(v, int):
            self.notes.add("int32 in a double member is written back as double")
            return v, float(v)
        return v, v

    def scalar(self, kind: str, in_any: bool = False):
        rng = self.rng
        if kind == "double":
            return self.double(in_any)
        if kind == "int32":
            v = rng.choice(INT32S) if rng.random() < 0.5 else rng.randint(-2 ** 31, 2 ** 31 - 1)
            return v, v
        if kind == "int64":
            if self.lossy and rng.random() < 0.1:
                v = rng.choice(INT32S)
                self.notes.add("int32 in an int64 member is written back as int64")
                return v, Int64(v)
            v = Int64(rng.choice(INT64S) if rng.random() < 0.5 else rng.randint(-2 ** 63, 2 ** 63 - 1))
            return v, v
        if kind == "bool":
            v = rng.random() < 0.5
            return v, v
        if kind == "string":
            v = rng.choice(STRINGS)
            return v, v
        if kind == "javascript":
            v = Code(rng.choice(STRINGS))
            return v, v
        if kind == "datetime":
            ms = rng.choice([0, -1, MS_MIN, MS_MAX, 1715949015123]) if rng.random() < 0.4 \
                else rng.randint(MS_MIN, MS_MAX)
            v = EPOCH + datetime.timedelta(milliseconds=ms)
            return v, v
        if kind == "object_id":
            v = ObjectId(bytes(rng.getrandbits(8) for _ in range(12)))
            return v, v
        if kind == "decimal128":
            if rng.random() < 0.7:
                v = Decimal128(rng.choice(DECIMALS))
            else:
                v = Decimal128.from_bid(bytes(rng.getrandbits(8) for _ in range(16)))
            return v, v
        if kind == "binary":
            subtype = rng.choice(SUBTYPES)
            n = rng.choice([0, 1, 5, 16, 40])
            v = Binary(bytes(rng.getrandbits(8) for _ in range(n)), subtype)
            return v, v
        if kind == "uuid":
            v = uuid.UUID(int=rng.getrandbits(128))
            return v, v
        if kind == "timestamp":
            v = Timestamp(rng.choice([0, 1, 2 ** 32 - 1, rng.getrandbits(32)]),
                          rng.choice([0, 2 ** 32 - 1, rng.getrandbits(32)]))
            return v, v
        if kind == "regex":
            flags = "".join(rng.sample("ilmsux", rng.randint(0, 6)))
            v = Regex(rng.choice(["", "^a.*b$", "\u00e9+", "[0-9]{3}", "x" * 50]), flags)
            return v, v
        if kind == "null":
            return None, None
        if kind == "min_key":
            return MinKey(), MinKey()
        if kind == "max_key":
            return MaxKey(), MaxKey()
        if kind == "javascript_with_scope":
            scope = self.any_document(2)
            v = Code(rng.choice(STRINGS), scope)
            return v, v
        if kind == "raw_document":
            v = self.any_document(2)
            return v, v
        if kind == "any":
            v = self.any_value(2)
            return v, v
        raise ValueError(kind)

    def any_value(self, depth: int):
        rng = self.rng
        r = rng.random()
        if depth > 0 and r < 0.15:
            return self.any_document(depth - 1)
        if depth > 0 and r < 0.3:
            return [self.any_value(depth - 1) for _ in range(self.size(2))]
        if r < 0.4:
            return rng.choice(INT32S + [1 << 40])  # pymongo: int32 when it fits, else int64
        kind = rng.choice(["double", "int32", "int64", "bool", "string", "javascript", "datetime",
                           "object_id", "decimal128", "binary", "uuid", "timestamp", "regex",
                           "null", "min_key", "max_key", "javascript_with_scope"])
        if kind == "javascript_with_scope" and depth == 0:
            kind = "javascript"
        return self.scalar(kind, in_any=True)[0]

    def any_document(self, depth: int):
        return {k: self.any_value(depth) for k in self.key_order(self.size(2))}

    def make(self, t, depth: int = 0):
        kind = t[0]
        rng = self.rng
        if kind == "name":
            name = t[1]
            if name in self.schema.enums:
                storage, values = self.schema.enums[name]
                v = rng.choice(values)
                return v, v
            if name in self.schema.structs:
                return self.struct(name, depth + 1)
            return self.scalar(name)
        if kind == "vector":
            pairs = [self.make(t[1], depth + 1) for _ in range(self.size(depth))]
            return [p[0] for p in pairs], [p[1] for p in pairs]
        if kind == "array":
            pairs = [self.make(t[1], depth + 1) for _ in range(t[2])]
            return [p[0] for p in pairs], [p[1] for p in pairs]
        if kind == "map":
            keys = self.key_order(self.size(depth))
            pairs = {k: self.make(t[1], depth + 1) for k in keys}
            canonical = {k: pairs[k][1] for k in sorted(keys, key=lambda k: k.encode("utf-8"))}
            if list(canonical) != keys:
                self.notes.add("map keys are written back sorted")
            return {k: pairs[k][0] for k in keys}, canonical
        if kind == "nullable":
            if rng.random() < 0.3:
                return None, None
            return self.make(t[1], depth)
        if kind == "number":
            if t[1] == "int64":
                v = rng.choice([rng.choice(INT32S), Int64(rng.choice(INT64S)), Int64(5)])
            else:
                v = rng.choice([rng.choice(INT32S), Int64(rng.choice([0, -(1 << 53), 1 << 53, 7])),
                                rng.choice(DOUBLES), rng.uniform(-10, 10)])
                if isinstance(v, float) and math.isnan(v):
                    self.nan = True
            return v, v
        raise ValueError(t)

    def struct(self, name: str, depth: int):
        doc, canonical = {}, {}
        for f in self.schema.structs[name]:
            t, key = f["type"], f["key"]
            r = self.rng.random()
            if t[0] == "optional":
                inner = t[1]
                if r < 0.2:
                    continue  # absent: written back absent
                if r < 0.3 and (self.lossy or holds_null(self.schema, inner)):
                    doc[key] = None
                    if holds_null(self.schema, inner):
                        canonical[key] = None
                    else:
                        self.notes.add("optional<T> reads a null as absent")
                    continue
                v, c = self.make(inner, depth)
            elif not f["required"] and t[0] in ("vector", "map", "nullable") and r < 0.05 and \
                    (self.lossy or f["omit_empty"]):
                if not f["omit_empty"]:
                    canonical[key] = {"vector": [], "map": {}, "nullable": None}[t[0]]
                    self.notes.add("an absent vector, map or nullable is written back as its "
                                   "default")
                continue
            else:
                v, c = self.make(t, depth)
                if f["unordered"] and len(v) > 1:  # std::unordered_map: order unknown, keep one
                    k = next(iter(v))
                    v, c = {k: v[k]}, {k: c[k]}
            doc[key] = v
            if f["omit_empty"] and is_empty(c):
                if not self.lossy or r < 0.5:
                    del doc[key]
                else:
                    self.notes.add("omit_empty leaves out an empty value")
                    if t[0] == "optional":
                        # Written back absent, it reads back as absent: another value.
                        self.notes.add("omit_empty leaves out an empty optional<T>")
                        self.changes_value = True
                    if isinstance(c, Binary) and c.subtype != 0:
                        # Emptiness is the bytes': the subtype goes too (reads back as 0).
                        self.notes.add("omit_empty leaves out an empty binary of any subtype")
                        self.changes_value = True
                continue
            canonical[key] = c
        policy = self.schema.unknown_fields[name]
        if policy == "skip" and self.lossy and self.rng.random() < 0.05:
            doc["unknown key"] = [1, "skipped"]
            self.notes.add("unknown keys are skipped")
        elif policy == "capture" and self.rng.random() < 0.4:
            unknown = {f"unknown {k}": self.any_value(2) for k in self.key_order(self.size(0) + 1)}
            canonical.update(unknown)
            if self.lossy and self.rng.random() < 0.5:
                doc = {**unknown, **doc}
                self.notes.add("captured unknown keys are written back after the fields")
            else:
                doc.update(unknown)
        return doc, canonical


def is_empty(v) -> bool:
    if isinstance(v, Binary):
        return len(v) == 0
    return isinstance(v, (str, list, dict)) and len(v) == 0


def holds_null(schema: Schema, t) -> bool:
    """Whether `optional` of t keeps a null (catalog.py's holds_null): nullable, any and null."""
    return t[0] == "nullable" or t in (("name", "any"), ("name", "null"))


# --- Documents to refuse: one value broken at a known path. ---

BAD = [(True, 0x08), ("zz", 0x02), (1.5, 0x01), (7, 0x10), (Int64(7), 0x12), ([], 0x04),
       ({}, 0x03), (None, 0x0A), (MinKey(), 0xFF)]
SCALAR_BYTES = {"double": {0x01, 0x10}, "int64": {0x12, 0x10}, "int32": {0x10}, "bool": {0x08},
                "string": {0x02}, "javascript": {0x0D}, "datetime": {0x09}, "object_id": {0x07},
                "decimal128": {0x13}, "binary": {0x05}, "uuid": {0x05}, "timestamp": {0x11},
                "regex": {0x0B}, "null": {0x0A}, "min_key": {0xFF}, "max_key": {0x7F},
                "javascript_with_scope": {0x0F}, "raw_document": {0x03}}


def accepted(schema: Schema, t):
    """The BSON type bytes a decoder of t accepts (None: every type)."""
    kind = t[0]
    if kind == "name":
        name = t[1]
        if name == "any":
            return None
        if name in schema.enums:
            return {0x02} if schema.enums[name][0] == "string" else {0x10}
        if name in schema.structs:
            return {0x03}
        return SCALAR_BYTES[name]
    if kind in ("vector", "array"):
        return {0x04}
    if kind == "map":
        return {0x03}
    if kind in ("nullable", "optional"):
        inner = accepted(schema, t[1])
        return None if inner is None else inner | {0x0A}
    if kind == "number":
        return {0x10, 0x12} if t[1] == "int64" else {0x01, 0x10, 0x12}
    raise ValueError(t)


def slots(schema: Schema, t, value, path, parent, key, out):
    """Every place of `value` (of type t) that can be replaced: (path, type, parent, key)."""
    kind = t[0]
    if kind in ("optional", "nullable"):
        out.append((path, t, parent, key))
        if value is not None:
            slots(schema, t[1], value, path, None, None, out)  # the inner one: same place
        return
    if parent is not None:
        out.append((path, t, parent, key))
    if kind == "name" and t[1] in schema.structs:
        for f in schema.structs[t[1]]:
            if f["key"] in value:
                slots(schema, f["type"], value[f["key"]], path + [f["key"]], value, f["key"], out)
    elif kind in ("vector", "array"):
        for i, v in enumerate(value):
            slots(schema, t[1], v, path + [str(i)], value, i, out)
    elif kind == "map":
        for k, v in value.items():
            slots(schema, t[1], v, path + [k], value, k, out)


def encode(doc) -> bytes:
    return bson.encode(doc, codec_options=OPTIONS)


def break_document(gen: Gen, name: str):
    """A document of struct `name` with one value broken: (bytes, path, code, type byte, note)."""
    broken = break_value(gen, name)
    if broken is None:
        return None
    doc, path, code, type_byte, note = broken
    return encode(doc), path, code, type_byte, note


def break_struct(gen: Gen, name: str):
    """For structs that reject unknown fields or duplicate keys: a document with one, else None."""
    rng = gen.rng
    doc, _ = gen.struct(name, 0)
    if gen.schema.unknown_fields[name] == "reject" and rng.random() < 0.4:
        value, type_byte = rng.choice(BAD)
        keys = list(doc)
        at = rng.randint(0, len(keys))
        doc = {**{k: doc[k] for k in keys[:at]}, "stranger": value,
               **{k: doc[k] for k in keys[at:]}}
        return encode(doc), "stranger", "unknown_field", type_byte, "unknown field"
    if gen.schema.duplicate_keys[name] == "reject" and doc and rng.random() < 0.4:
        # pymongo writes a dict, which cannot repeat a key: splice a second element in.
        key = rng.choice([f["key"] for f in gen.schema.structs[name] if f["key"] in doc])
        data = encode(doc)
        element = encode({key: doc[key]})[4:-1]
        spliced = data[:-1] + element + b"\0"
        spliced = struct.pack("<i", len(spliced)) + spliced[4:]
        return spliced, key, "duplicate_field", element[0], "key repeated"
    return None


def break_value(gen: Gen, name: str):
    """A document of struct `name` with one value broken: (doc, path, code, type byte, note)."""
    rng = gen.rng
    schema = gen.schema
    for _ in range(100):
        doc, _ = gen.struct(name, 0)
        found = []
        slots(schema, ("name", name), doc, [], None, None, found)
        found = [s for s in found if s[2] is not None]
        if not found:
            continue
        path, t, parent, key = rng.choice(found)
        base = t[1] if t[0] in ("optional", "nullable") else t
        choice = rng.random()
        if base[0] == "array" and choice < 0.5:
            n = base[2] + rng.choice([-1, 1])
            parent[key] = [gen.make(base[1], 1)[0] for _ in range(n)]
            return doc, path, "invalid_length", 0x04, f"array of {n} for {base[2]}"
        if base[0] == "name" and base[1] == "uuid" and choice < 0.5:
            parent[key] = Binary(b"\x01" * 16, 0)
            return doc, path, "invalid_value", 0x05, "uuid of subtype 0"
        if base[0] == "name" and base[1] in schema.enums and choice < 0.5:
            storage, _ = schema.enums[base[1]]
            parent[key] = "nope" if storage == "string" else 1
            return doc, path, "invalid_value", 0x02 if storage == "string" else 0x10, \
                "no such enumerator"
        if base == ("number", "double") and choice < 0.3:
            parent[key] = Int64((1 << 53) + 1)
            return doc, path, "inexact", 0x12, "int64 beyond 2^53 for number<double>"
        ok = accepted(schema, t)
        if ok is None:
            continue
        bad = [b for b in BAD if b[1] not in ok]
        value, type_byte = rng.choice(bad)
        parent[key] = value
        return doc, path, "type_mismatch", type_byte, f"type {type_byte:#04x} here"
    return None


def error_path(segments) -> str:
    """An error path as bsongen writes it: segments joined by '.', empty segments (the key "")
    after the last non-empty one dropped (error::prepend_path; the generic decoder joins the same
    way), so an error under a trailing key "" names the enclosing container."""
    while segments and segments[-1] == "":
        segments = segments[:-1]
    return ".".join(segments)


def main() -> None:
    if len(sys.argv) < 3:
        raise SystemExit("usage: write_combination_documents.py OUTPUT SCHEMA...")
    schema = Schema(sys.argv[2:])
    rng = random.Random(SEED)
    out = bytearray()

    def text(s: str) -> bytes:
        b = s.encode("utf-8")
        return struct.pack("<H", len(b)) + b

    def record(kind, flags, name, note, path, code, type_byte, data, expected=None):
        out.extend(struct.pack("<BB", kind, flags | (2 if expected is not None else 0)))
        out.extend(text(name) + text(note) + text(path) + text(code))
        out.extend(struct.pack("<BI", type_byte, len(data)) + data)
        if expected is not None:
            out.extend(struct.pack("<I", len(expected)) + expected)

    for name in schema.structs:
        for _ in range(OK_PER_STRUCT):
            gen = Gen(schema, rng)
            doc, canonical = gen.struct(name, 0)
            data = bson.encode(doc, codec_options=OPTIONS)
            expected = bson.encode(canonical, codec_options=OPTIONS)
            note = "; ".join(sorted(gen.notes))
            if expected == data:
                expected = None
            elif not note:
                raise SystemExit(f"{name}: bytes differ without a reason: {doc!r}")
            flags = (1 if gen.nan else 0) | (4 if gen.changes_value else 0)
            record(0, flags, name, note, "", "", 0, data, expected)
        for _ in range(REFUSED_PER_STRUCT):
            gen = Gen(schema, rng)
            broken = break_struct(gen, name)
            if broken is not None:
                data, path, code, type_byte, note = broken
                record(1, 0, name, note, path, code, type_byte, data)
                continue
            broken = break_document(gen, name)
            if broken is None:
                continue
            data, path, code, type_byte, note = broken
            record(1, 0, name, note, error_path(path), code, type_byte, data)
    with open(sys.argv[1], "wb") as f:
        f.write(out)


if __name__ == "__main__":
    main()
