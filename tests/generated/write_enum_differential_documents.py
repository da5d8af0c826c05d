#!/usr/bin/python3
"""Writes the documents of enum_differential_test.cpp: for every struct of
schemas/enum_differential.yaml, random documents (fixed seed) encoded by pymongo (Debian
python3-bson), most of them then changed in one way, named by a category:

  valid          every field, in schema order
  out_of_order   the keys of the struct, and of nested structs, shuffled: mostly in one order
                 per struct (the generated decoders learn an order), else at random
  missing_keys   some fields left out (strict's required `_id` among them, at times)
  unknown_keys   keys the schema does not have, anywhere among the fields (their values at times
                 repeating a key inside)
  duplicate_key  a field's element repeated with another value (spliced in: a dict cannot), in
                 the outer struct or a nested one, the keys at times in the learned order
  map_duplicate  a key repeated inside a map, with another value
  array_keys     a vector or fixed array whose elements have keys other than 0, 1, ...
  enum_noise     an enum value replaced by a near miss: the enumerator's C++ name instead of its
                 `bson_name`, another case, another Unicode normalization, a prefix, an int32
                 no enumerator has, an int64 or a double of a valid int32 value
  wrong_type     a value replaced by one of another BSON type (null among them)
  wrong_length   a fixed array given one element more or one less
  truncated      the bytes of a valid document cut, as is or framed again (length and NUL fixed)
  mutated        bytes of a valid document flipped

A document with nothing of the kind to change is written as it is, as `valid`. The script states
no verdict: the test's oracle reads each document the generic path accepts
against the schema's rules. The schema is read from the YAML file itself (the same file the C++ was
generated from), with write_combination_documents.py's reader.

Usage: write_enum_differential_documents.py OUTPUT SCHEMA

Output: one record after another: str struct, str category, u32 size + the document's bytes, where
str is u16 size + UTF-8 bytes, integers little-endian.
"""

import os
import random
import struct
import sys
import unicodedata

import bson
from bson.int64 import Int64
from bson.raw_bson import RawBSONDocument

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from write_combination_documents import Schema  # noqa: E402

SEED = 20261210
DOCUMENTS_PER_STRUCT = {"fixed_tones": 1500, "pair": 1000, "mixed": 3000, "strict": 2500}
CATEGORIES = ["valid", "out_of_order", "missing_keys", "unknown_keys", "duplicate_key",
              "map_duplicate", "array_keys", "enum_noise", "wrong_type", "wrong_length",
              "truncated", "mutated"]
# How often each category is drawn (valid documents also seed truncated and mutated ones).
WEIGHTS = [3, 3, 2, 1, 2, 1, 1, 3, 2, 1, 2, 2]
MAP_KEYS = ["", "a", "b", "zz", "\u00e9", "\u65e5\u672c", "\U0001F600", "a.b", "0", "_id", "Mon"]
STRINGS = ["", "x", "h\u00e9llo", "\u65e5\u672c\u8a9e", "nul\x00inside", "\U0001F600"]
INT32S = [0, -1, 1, 7, 2 ** 31 - 1, -2 ** 31, 42]
WRONG_VALUES = [None, True, "zz", 1.5, 7, Int64(7), [], {}, [1, "x"], {"a": 1}, b"\x01"]
# An unknown value that repeats a key inside (decode_options::duplicate_keys = reject refuses it).
REPEATING = RawBSONDocument(bytes.fromhex("13000000106b000100000010" "6b000200000000"))


class Gen:
    def __init__(self, schema: Schema, rng: random.Random):
        self.schema = schema
        self.rng = rng
        # One order of the keys per struct, for out-of-order documents that repeat it.
        self.orders = {name: rng.sample([f["key"] for f in fields], len(fields))
                       for name, fields in schema.structs.items()}

    def value(self, t, depth=0):
        """A random valid value of type t."""
        rng = self.rng
        kind = t[0]
        if kind == "name":
            name = t[1]
            if name in self.schema.enums:
                return rng.choice(self.schema.enums[name][1])
            if name in self.schema.structs:
                return self.struct(name, depth + 1)
            if name == "int32":
                return rng.choice(INT32S) if rng.random() < 0.5 else rng.randint(-2 ** 31, 2 ** 31 - 1)
            if name == "double":
                return rng.choice([0.0, -0.0, 1.5, -2.25, 1e300, float("inf"), rng.uniform(-1e6, 1e6),
                                   3])  # an int32 into a double member is exact
            if name == "string":
                return rng.choice(STRINGS)
            raise ValueError(name)
        if kind == "vector":
            return [self.value(t[1], depth + 1) for _ in range(rng.choice([0, 1, 1, 2, 3, 5]))]
        if kind == "array":
            return [self.value(t[1], depth + 1) for _ in range(t[2])]
        if kind == "map":
            keys = rng.sample(MAP_KEYS, rng.choice([0, 1, 2, 3]))
            return {k: self.value(t[1], depth + 1) for k in keys}
        if kind in ("nullable", "optional"):
            return None if rng.random() < 0.3 else self.value(t[1], depth)
        raise ValueError(t)

    def struct(self, name: str, depth: int = 0):
        return {f["key"]: self.value(f["type"], depth) for f in self.schema.structs[name]}

    def slots(self, t, value, parent, key, out):
        """Every replaceable place in value (of type t): (type, parent, key)."""
        kind = t[0]
        if parent is not None:
            out.append((t, parent, key))
        if kind in ("optional", "nullable"):
            if value is not None:
                self.slots(t[1], value, None, None, out)
        elif kind == "name" and t[1] in self.schema.structs:
            for f in self.schema.structs[t[1]]:
                if f["key"] in value:
                    self.slots(f["type"], value[f["key"]], value, f["key"], out)
        elif kind in ("vector", "array"):
            for i, v in enumerate(value):
                self.slots(t[1], v, value, i, out)
        elif kind == "map":
            for k, v in value.items():
                self.slots(t[1], v, value, k, out)

    def near_miss(self, enum: str):
        rng = self.rng
        storage, values = self.schema.enums[enum]
        if storage == "int32":
            v = rng.choice(values)
            return rng.choice([rng.choice([1, 8, -1, 6, -2 ** 31 + 1, 2 ** 31 - 2]), Int64(v),
                               float(v)])
        names = self.schema.enum_names[enum]
        i = rng.randrange(len(values))
        stored, cpp = values[i], names[i]
        misses = [cpp, stored.upper(), stored.lower(), stored + " ", stored[:-1], stored + "\x00",
                  unicodedata.normalize("NFD", stored), "nope", 7]
        miss = rng.choice(misses)
        return miss if miss not in values else "nope"


def structs_in(schema: Schema, t, value, out):
    """Every struct value inside value (of type t), as (struct name, dict)."""
    kind = t[0]
    if value is None:
        return
    if kind == "name" and t[1] in schema.structs:
        out.append((t[1], value))
        for f in schema.structs[t[1]]:
            if f["key"] in value:
                structs_in(schema, f["type"], value[f["key"]], out)
    elif kind in ("vector", "array"):
        for v in value:
            structs_in(schema, t[1], v, out)
    elif kind == "map":
        for v in value.values():
            structs_in(schema, t[1], v, out)
    elif kind in ("optional", "nullable"):
        structs_in(schema, t[1], value, out)


def shuffled(rng, d: dict) -> dict:
    keys = list(d)
    rng.shuffle(keys)
    return {k: d[k] for k in keys}


def reorder_all(schema, name, doc, rng, orders=None):
    """doc with its keys and every nested struct's keys shuffled (maps keep their order), in
    orders[struct] (a list of keys) when given, else at random."""
    def reorder(struct_name, d):
        if orders is None:
            return shuffled(rng, d)
        rank = {k: i for i, k in enumerate(orders[struct_name])}
        return {k: d[k] for k in sorted(d, key=lambda k: rank.get(k, -1))}

    inner = []
    structs_in(schema, ("name", name), doc, inner)
    for sub_name, d in inner[1:]:
        items = list(reorder(sub_name, d).items())
        d.clear()
        d.update(items)
    return reorder(name, doc)


def encode(doc) -> bytes:
    return bson.encode(doc)


def splice_repeat(gen: Gen, name: str, doc: dict) -> bytes:
    """doc's bytes with one field's element repeated (another value, valid or not), right after
    the first occurrence or at the end. Element by element, in doc's order (pymongo would move a
    top-level `_id` to the front)."""
    rng = gen.rng
    elements = [encode({k: v})[4:-1] for k, v in doc.items()]
    fields = [f for f in gen.schema.structs[name] if f["key"] in doc]
    if fields:
        f = rng.choice(fields)
        again = gen.value(f["type"]) if rng.random() < 0.8 else rng.choice(WRONG_VALUES)
        at = list(doc).index(f["key"]) + 1 if rng.random() < 0.5 else len(elements)
        elements.insert(at, encode({f["key"]: again})[4:-1])
    body = b"".join(elements)
    return struct.pack("<i", len(body) + 5) + body + b"\0"


def document(gen: Gen, name: str, category: str) -> bytes:
    rng = gen.rng
    schema = gen.schema
    doc = gen.struct(name)
    if category == "out_of_order":
        return encode(reorder_all(schema, name, doc, rng,
                                  gen.orders if rng.random() < 0.7 else None))
    if category == "missing_keys":
        inner = []
        structs_in(schema, ("name", name), doc, inner)
        for _, d in inner:
            for k in list(d):
                if rng.random() < 0.3:
                    del d[k]
        return encode(doc)
    if category == "unknown_keys":
        inner = []
        structs_in(schema, ("name", name), doc, inner)
        _, d = rng.choice(inner)
        items = list(d.items())
        for _ in range(rng.randint(1, 3)):
            items.insert(rng.randint(0, len(items)),
                         (rng.choice(["unknown", "T", "d\u00f6\u00f6", "_ID"]),
                          rng.choice(WRONG_VALUES + [REPEATING])))
        d.clear()
        d.update(items)  # a repeated unknown key keeps its first place, with the last value
        return encode(doc)
    if category == "duplicate_key":
        if rng.random() < 0.3:
            doc = reorder_all(schema, name, doc, rng, gen.orders)
        inner = []
        structs_in(schema, ("name", name), doc, inner)
        if rng.random() < 0.6 or len(inner) == 1:
            return splice_repeat(gen, name, doc)
        # In a nested struct: its bytes, spliced, embedded as they are (RawBSONDocument).
        found = []
        gen.slots(("name", name), doc, None, None, found)
        nested = [(struct_of(schema, t), parent, key) for t, parent, key in found
                  if struct_of(schema, t) and parent[key] is not None]
        if not nested:
            return splice_repeat(gen, name, doc)
        sub_name, parent, key = rng.choice(nested)
        parent[key] = RawBSONDocument(splice_repeat(gen, sub_name, parent[key]))
        return encode(doc)
    if category in ("map_duplicate", "array_keys"):
        found = []
        gen.slots(("name", name), doc, None, None, found)
        kind = "map" if category == "map_duplicate" else ("vector", "array")
        found = [s for s in found if s[0][0] in kind and s[1][s[2]]]
        if not found:
            gen.unchanged = True
            return encode(doc)
        t, parent, key = rng.choice(found)
        value = parent[key]
        if category == "map_duplicate":
            keys = list(value)
            again = rng.choice(keys)
            element = encode({again: gen.value(t[1]) if rng.random() < 0.8
                              else rng.choice(WRONG_VALUES)})[4:-1]
            at = rng.randint(keys.index(again) + 1, len(keys))
            elements = [encode({k: value[k]})[4:-1] for k in keys]
            body = b"".join(elements[:at]) + element + b"".join(elements[at:])
            parent[key] = RawBSONDocument(struct.pack("<i", len(body) + 5) + body + b"\0")
            return encode(doc)
        # The elements under other keys, the first a marker that finds them in the bytes; then
        # the element's type byte (document) made array's.
        odd = ["\uE001"] + [rng.choice(["0", "1", "7", "x", "", "00"]) for _ in value[1:]]
        inner = encode(dict(zip(odd, value)) if len(set(odd)) == len(odd) else
                       {odd[0]: value[0]})
        parent[key] = RawBSONDocument(inner)
        data = bytearray(encode(doc))
        at = bytes(data).find(inner)
        label = (str(key) if isinstance(key, int) else key).encode("utf-8") + b"\0"
        type_at = at - len(label) - 1
        assert data[type_at] == 0x03 and bytes(data[type_at + 1:at]) == label
        data[type_at] = 0x04
        return bytes(data)
    if category in ("enum_noise", "wrong_type", "wrong_length"):
        found = []
        gen.slots(("name", name), doc, None, None, found)
        wanted = {"enum_noise": lambda t: t[0] == "name" and t[1] in schema.enums,
                  "wrong_length": lambda t: t[0] == "array",
                  "wrong_type": lambda t: True}[category]
        found = [s for s in found if wanted(s[0])]
        if found:
            t, parent, key = rng.choice(found)
            if category == "enum_noise":
                parent[key] = gen.near_miss(t[1])
            elif category == "wrong_length":
                n = t[2] + rng.choice([-1, 1])
                parent[key] = [gen.value(t[1]) for _ in range(n)]
            else:
                parent[key] = rng.choice(WRONG_VALUES)
        else:
            gen.unchanged = True
        return encode(doc)
    data = encode(reorder_all(schema, name, doc, rng) if rng.random() < 0.3 else doc)
    if category == "truncated":
        cut = rng.randint(0, len(data) - 1)
        cut_bytes = data[:cut]
        if cut >= 5 and rng.random() < 0.6:
            cut_bytes = struct.pack("<i", cut) + cut_bytes[4:-1] + b"\0"
        return cut_bytes
    if category == "mutated":
        out = bytearray(data)
        for _ in range(rng.randint(1, 3)):
            out[rng.randrange(4, len(out))] ^= rng.randint(1, 255)
        return bytes(out)
    return data


def struct_of(schema: Schema, t):
    """The struct a slot of type t holds (through nullable), or None."""
    if t[0] == "nullable":
        t = t[1]
    return t[1] if t[0] == "name" and t[1] in schema.structs else None


def main() -> None:
    if len(sys.argv) != 3:
        raise SystemExit("usage: write_enum_differential_documents.py OUTPUT SCHEMA")
    schema = Schema([sys.argv[2]])
    schema.enum_names = enum_names(sys.argv[2])
    rng = random.Random(SEED)
    gen = Gen(schema, rng)
    out = bytearray()

    def text(s: str) -> bytes:
        b = s.encode("utf-8")
        return struct.pack("<H", len(b)) + b

    for name in schema.structs:
        for _ in range(DOCUMENTS_PER_STRUCT[name]):
            category = rng.choices(CATEGORIES, WEIGHTS)[0]
            gen.unchanged = False
            data = document(gen, name, category)
            if gen.unchanged:
                category = "valid"  # nothing of that kind to change
            out.extend(text(name) + text(category) + struct.pack("<I", len(data)) + data)
    with open(sys.argv[1], "wb") as f:
        f.write(out)


def enum_names(path: str):
    """Each enum's C++ enumerator names, in the order Schema lists its stored values."""
    import yaml
    with open(path, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    return {name: list(e["values"]) for name, e in doc.get("enums", {}).items()}


if __name__ == "__main__":
    main()
