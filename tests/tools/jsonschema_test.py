#!/usr/bin/python3
"""`bsongen jsonschema` against the generated decoder.

Documents (a valid one, then one mutation each) are written with pymongo's bson package and
decoded by the decoder generated from data/jsonschema_types.yaml ($BSONGEN_JSONSCHEMA_DECODER,
decode_harness in `accepts` mode). The same documents, decoded by pymongo, are checked against
the `$jsonSchema` bsongen prints by a small independent validator below (the keywords bsongen
emits, with MongoDB's semantics). Every document the decoder accepts must satisfy the validator;
every document it rejects must fail it, except the cases $jsonSchema cannot express (listed in
KNOWN_LIMITS, which must stay exactly those: the validator accepts, the decoder rejects).
"""

import copy
import datetime
import json
import math
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest
import uuid

import bson
from bson.binary import Binary, UuidRepresentation
from bson.code import Code
from bson.codec_options import CodecOptions
from bson.decimal128 import Decimal128
from bson.int64 import Int64
from bson.max_key import MaxKey
from bson.min_key import MinKey
from bson.objectid import ObjectId
from bson.regex import Regex
from bson.son import SON
from bson.timestamp import Timestamp

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "generator"))
from bsongen_gen import catalog  # noqa: E402
BSONGEN = os.path.join(ROOT, "generator", "bsongen")
SCHEMA = os.path.join(HERE, "data", "jsonschema_types.yaml")
DECODER = os.environ.get("BSONGEN_JSONSCHEMA_DECODER", "")
# UNSPECIFIED: every binary stays a Binary (a 15-byte "UUID" must not fail to decode here).
CODEC = CodecOptions(document_class=SON, uuid_representation=UuidRepresentation.UNSPECIFIED)


# --- An independent $jsonSchema validator (the keywords bsongen emits). ---

def bson_alias(value) -> str:
    """The bsonType alias of a value as pymongo decodes it."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, Code):  # before str: Code is a str
        return "javascriptWithScope" if value.scope is not None else "javascript"
    if isinstance(value, Int64):
        return "long"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "double"
    if isinstance(value, str):
        return "string"
    if value is None:
        return "null"
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    if isinstance(value, (bytes, Binary, uuid.UUID)):
        return "binData"
    for kind, alias in ((ObjectId, "objectId"), (datetime.datetime, "date"), (Regex, "regex"),
                        (Timestamp, "timestamp"), (Decimal128, "decimal"), (MinKey, "minKey"),
                        (MaxKey, "maxKey")):
        if isinstance(value, kind):
            return alias
    raise TypeError(f"no alias for {type(value)}")


def enum_equal(a, b) -> bool:
    """MongoDB compares numbers by value across int, long and double; nothing else converts."""
    numeric = (int, float)
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, numeric) and isinstance(b, numeric):
        return a == b
    return bson_alias(a) == bson_alias(b) and a == b


def violations(schema: dict, value, path: str = "$") -> list[str]:
    out = []
    alias = bson_alias(value)
    if "bsonType" in schema:
        allowed = schema["bsonType"] if isinstance(schema["bsonType"], list) else [schema["bsonType"]]
        if alias not in allowed:
            out.append(f"{path}: {alias} is not {allowed}")
            return out
    if "enum" in schema and not any(enum_equal(value, e) for e in schema["enum"]):
        out.append(f"{path}: {value!r} not in enum")
    if alias == "object":
        for key in schema.get("required", []):
            if key not in value:
                out.append(f"{path}: required {key} missing")
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in properties:
                out += violations(properties[key], item, f"{path}.{key}")
            elif extra is False:
                out.append(f"{path}: additional property {key}")
            elif isinstance(extra, dict):
                out += violations(extra, item, f"{path}.{key}")
    if alias == "array":
        if "items" in schema:
            for i, item in enumerate(value):
                out += violations(schema["items"], item, f"{path}.{i}")
        if len(value) < schema.get("minItems", 0) or len(value) > schema.get("maxItems", len(value)):
            out.append(f"{path}: {len(value)} items")
    if alias in ("int", "long", "double"):
        if value < schema.get("minimum", value) or value > schema.get("maximum", value):
            out.append(f"{path}: {value} out of range")
        if "multipleOf" in schema and not (math.isfinite(value) and
                                           value % schema["multipleOf"] == 0):
            out.append(f"{path}: {value} is not a multiple of {schema['multipleOf']}")
    return out


# --- The documents. ---

def valid_thing() -> SON:
    return SON([
        ("_id", ObjectId("56e1fc72e0c917e9c4714161")), ("i32", 1), ("i64", Int64(2)),
        ("small", 200), ("bytes", [0, 255]), ("tiny", -128),
        ("counts", SON([("n", Int64(65535))])), ("whole", -32768.0),
        ("natural", Int64(2**63 - 1)), ("d", 1.5), ("s", "text"), ("b", True),
        ("when", datetime.datetime(2020, 1, 1)), ("dec", Decimal128("1.25")),
        ("bin", Binary(b"\x01\x02", 0)), ("uid", Binary(uuid.UUID(int=7).bytes, 4)),
        ("ts", Timestamp(1, 2)), ("re", Regex("^a", "i")), ("js", Code("f()")),
        ("cws", Code("g()", {"x": 1})), ("nil", None), ("lo", MinKey()), ("hi", MaxKey()),
        ("raw", SON([("any", "thing")])), ("anything", [1, "two"]), ("color", "dark green"),
        ("level", 5), ("where", SON([("x", 1.0), ("y", 2.0)])),
        ("path", [SON([("x", 0.0), ("y", 0.0)])]), ("box", [1, 2]),
        ("labels", SON([("k", "v")])),
        ("tree", SON([("name", "root"), ("children", [SON([("name", "leaf"), ("children", [])])])])),
        ("loose", ""),
    ])


def setter(path: str, value):
    def mutate(doc):
        *parents, last = path.split(".")
        target = doc
        for p in parents:
            target = target[int(p)] if isinstance(target, list) else target[p]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value
    return mutate


def remover(path: str):
    def mutate(doc):
        *parents, last = path.split(".")
        target = doc
        for p in parents:
            target = target[int(p)] if isinstance(target, list) else target[p]
        del target[last]
    return mutate


MUTATIONS = [("valid", lambda d: None)]
for optional in ("i64", "small", "bytes", "tiny", "counts", "whole", "natural", "d", "s", "b", "when", "dec", "bin", "uid", "ts", "re", "js",
                 "cws", "nil", "lo", "hi", "raw", "anything", "color", "level", "where", "path",
                 "box", "labels", "tree", "loose", "tree.children"):
    MUTATIONS.append((f"{optional} absent", remover(optional)))
for required in ("_id", "i32", "where.x", "path.0.y", "tree.name"):
    MUTATIONS.append((f"required {required} absent", remover(required)))
for field in ("s", "level", "where", "anything", "nil"):
    MUTATIONS.append((f"{field} null (accepted)", setter(field, None)))
for field in ("_id", "i32", "i64", "d", "b", "when", "color", "path", "box", "labels", "tree",
              "raw", "where.x", "tree.name", "bin", "uid"):
    MUTATIONS.append((f"{field} null (rejected)", setter(field, None)))
MUTATIONS += [
    ("i32 as string", setter("i32", "1")),
    ("i32 as int64", setter("i32", Int64(1))),
    ("i32 as double", setter("i32", 1.0)),
    ("i64 as int32 (widened)", setter("i64", 3)),
    ("i64 as double", setter("i64", 3.0)),
    ("d as int32 (widened)", setter("d", 3)),
    ("d as int64", setter("d", Int64(3))),
    ("b as int", setter("b", 1)),
    ("when as string", setter("when", "2020-01-01")),
    ("dec as double", setter("dec", 1.25)),
    ("bin as string", setter("bin", "x")),
    ("ts as date", setter("ts", datetime.datetime(2020, 1, 1))),
    ("re as string", setter("re", "^a")),
    ("js with scope", setter("js", Code("f()", {"y": 2}))),
    ("cws without scope", setter("cws", Code("g()"))),
    ("nil as int", setter("nil", 0)),
    ("lo as max key", setter("lo", MaxKey())),
    ("hi as min key", setter("hi", MinKey())),
    ("raw as string", setter("raw", "doc")),
    ("raw empty", setter("raw", SON())),
    ("anything as date", setter("anything", datetime.datetime(2021, 1, 1))),
    ("anything as document", setter("anything", SON([("a", [None])]))),
    ("color red", setter("color", "red")),
    ("color stored name differs", setter("color", "dark_green")),
    ("color unknown", setter("color", "blue")),
    ("color as int", setter("color", 0)),
    ("level low", setter("level", 1)),
    ("level unknown", setter("level", 3)),
    ("level as string", setter("level", "low")),
    ("level as double", setter("level", 5.0)),
    ("small at most 255", setter("small", 255)),
    ("small above its uint8_t", setter("small", 256)),
    ("small negative", setter("small", -1)),
    ("bytes element above its uint8_t", setter("bytes.1", 256)),
    ("bytes element negative", setter("bytes.0", -1)),
    ("tiny above its int8_t", setter("tiny", 128)),
    ("tiny null (accepted)", setter("tiny", None)),
    ("counts value above its uint16_t", setter("counts.n", Int64(65536))),
    ("counts value as int32 (widened)", setter("counts.n", 7)),
    ("whole fractional", setter("whole", 1.5)),
    ("whole above its int16_t", setter("whole", 32768.0)),
    ("whole NaN", setter("whole", float("nan"))),
    ("whole infinite", setter("whole", float("-inf"))),
    ("whole as int32 (widened)", setter("whole", 32767)),
    ("whole int32 above its int16_t", setter("whole", 32768)),
    ("natural negative", setter("natural", Int64(-1))),
    ("natural as int32 (widened)", setter("natural", 0)),
    ("where unknown field (reject)", setter("where.z", 3.0)),
    ("where.x as string", setter("where.x", "1")),
    ("where as array", setter("where", [1.0, 2.0])),
    ("path element as int", setter("path.0", 1)),
    ("path empty", setter("path", [])),
    ("box too short", setter("box", [1])),
    ("box too long", setter("box", [1, 2, 3])),
    ("box element as string", setter("box.0", "1")),
    ("labels value as int", setter("labels.k", 1)),
    ("labels any key", setter("labels.other key", "v")),
    ("unknown top-level field (reject)", setter("extra", 1)),
    ("tree unknown field (skip)", setter("tree.extra", 1)),
    ("tree.name as int", setter("tree.name", 1)),
    ("tree.children as document", setter("tree.children", SON())),
    ("loose as int", setter("loose", 1)),
    ("_id as string", setter("_id", "56e1fc72e0c917e9c4714161")),
    # What $jsonSchema cannot express (KNOWN_LIMITS):
    ("uid of subtype 0", setter("uid", Binary(b"\x00" * 16, 0))),
    ("tree.children.0.name as int (recursion depth)", setter("tree.children.0.name", 1)),
]
KNOWN_LIMITS = {"uid of subtype 0", "tree.children.0.name as int (recursion depth)"}


class JsonSchemaTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def run_bsongen(self, *args, timeout=None) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, BSONGEN, *args], capture_output=True, text=True,
                              timeout=timeout)

    def validator(self, schema: str, struct: str) -> dict:
        r = self.run_bsongen("jsonschema", schema, struct)
        self.assertEqual(r.returncode, 0, r.stderr)
        return json.loads(r.stdout)

    def test_decoder_and_validator_agree(self):
        if not DECODER:
            self.skipTest("BSONGEN_JSONSCHEMA_DECODER is not set")
        docs = []
        for _, mutate in MUTATIONS:
            doc = copy.deepcopy(valid_thing())
            mutate(doc)
            docs.append(doc)
        path = os.path.join(self.tmp.name, "things.bson")
        with open(path, "wb") as f:
            f.write(b"".join(bson.encode(d, codec_options=CODEC) for d in docs))
        decoded = subprocess.run([DECODER, "accepts", path], capture_output=True, text=True)
        self.assertEqual(decoded.returncode, 0, decoded.stdout + decoded.stderr)
        verdicts = decoded.stdout.splitlines()
        self.assertEqual(len(verdicts), len(docs))
        schema = self.validator(SCHEMA, "thing")["$jsonSchema"]
        with open(path, "rb") as f:
            values = bson.decode_all(f.read(), CODEC)
        accepted = rejected = 0
        for (name, _), verdict, value in zip(MUTATIONS, verdicts, values):
            problems = violations(schema, value)
            with self.subTest(name):
                if verdict == "accept":
                    accepted += 1
                    self.assertEqual(problems, [], f"the decoder accepts {name}")
                elif name in KNOWN_LIMITS:
                    self.assertEqual(problems, [], f"{name}: expected to be beyond $jsonSchema")
                else:
                    rejected += 1
                    self.assertNotEqual(problems, [], f"the decoder rejects {name}: {verdict}")
                if name.endswith("(accepted)") or name.endswith("(widened)") or name == "valid":
                    self.assertEqual(verdict, "accept", name)
        # The table exercises both sides.
        self.assertGreater(accepted, 30)
        self.assertGreater(rejected, 50)

    def test_forms_for_null_and_mixed_numbers(self):
        path = os.path.join(self.tmp.name, "forms.yaml")
        with open(path, "w") as f:
            f.write(textwrap.dedent("""\
                enums:
                  e: {storage: string, values: [a, b]}
                structs:
                  forms:
                    fields:
                      n: nullable<int32>
                      on: optional<nullable<e>>
                      i: number<int64>
                      d: {type: number<double>, required: true}
                      v: vector<number<double>>
                      a: any?
                """))
        props = self.validator(path, "forms")["$jsonSchema"]["properties"]
        self.assertEqual(props["n"], {"bsonType": ["null", "int"]})
        self.assertEqual(props["on"], {"bsonType": ["string", "null"], "enum": ["a", "b", None]})
        self.assertEqual(props["i"], {"bsonType": ["int", "long"]})
        self.assertEqual(props["d"], {"bsonType": ["double", "int", "long"]})
        self.assertEqual(props["v"], {"bsonType": "array",
                                      "items": {"bsonType": ["double", "int", "long"]}})
        self.assertEqual(props["a"], {})
        self.assertEqual(self.validator(path, "forms")["$jsonSchema"]["required"], ["d"])

    def test_the_catalogue_names_each_type_as_the_validator_does(self):
        # catalog.BSON_TYPES' `$jsonSchema` aliases (what bsongen's bsonType lists say) against
        # the independent validator above: every value of valid_thing(), written by pymongo, has
        # a type byte whose catalogue alias is the one the validator gives that value.
        alias_of_byte = {t.byte: t.json_schema for t in catalog.BSON_TYPES.values()}
        bytes_seen = set()
        for key, value in valid_thing().items():
            type_byte = bson.encode(SON([("v", value)]), codec_options=CODEC)[4]
            bytes_seen.add(type_byte)
            with self.subTest(key, type_byte=hex(type_byte)):
                self.assertEqual(alias_of_byte[type_byte], bson_alias(value),
                                 f"catalog.BSON_TYPES: the `$jsonSchema` alias of type byte "
                                 f"{type_byte:#04x} differs from the validator's")
        # Every type but the deprecated undefined, dbPointer and symbol.
        self.assertEqual(len(bytes_seen), len(catalog.BSON_TYPES) - 3)

    def test_binary_vectors_are_bindata(self):
        # $jsonSchema tells no subtypes apart: a vector of any dtype or dimension is binData.
        path = os.path.join(self.tmp.name, "vectors.yaml")
        with open(path, "w") as f:
            f.write(textwrap.dedent("""\
                structs:
                  vectors:
                    fields:
                      e: {type: "binary_vector<float32, 3>", required: true}
                      q: binary_vector<int8>?
                      b: nullable<binary_vector<packed_bit>>
                      many: vector<binary_vector<float32>>
                """))
        schema = self.validator(path, "vectors")["$jsonSchema"]
        props = schema["properties"]
        self.assertEqual(props["e"], {"bsonType": "binData", "description":
                                      "binary vector: binary subtype 9, dtype float32, dimension 3"})
        self.assertEqual(props["q"]["bsonType"], ["binData", "null"])
        self.assertEqual(props["b"]["bsonType"], ["binData", "null"])
        self.assertEqual(props["many"]["items"]["bsonType"], "binData")
        self.assertEqual(schema["required"], ["e"])

    def test_recursive_struct_stops_at_the_repeat(self):
        tree = self.validator(SCHEMA, "node")["$jsonSchema"]
        child = tree["properties"]["children"]["items"]
        self.assertEqual(child, {"bsonType": "object",
                                 "description": "node (recursive: not expanded further)"})

    def test_shared_structs_past_the_document_limit_are_refused(self):
        # 18 levels of two fields of the level below: 2^18 copies of the leaf when written out.
        lines = ["structs:", "  l0:", "    fields: {x: int32, name: string}"]
        for level in range(1, 19):
            lines += [f"  l{level}:", f"    fields: {{a: l{level - 1}, b: l{level - 1}}}"]
        path = os.path.join(self.tmp.name, "shared.yaml")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        small = self.validator(path, "l3")["$jsonSchema"]
        self.assertEqual(small["properties"]["a"], small["properties"]["b"])
        self.assertEqual(small["properties"]["a"]["properties"]["a"]["properties"]["b"]["title"],
                         "l0")
        r = self.run_bsongen("jsonschema", path, "l18", timeout=60)
        self.assertEqual((r.returncode, r.stdout), (1, ""))
        self.assertIn("over MongoDB's 16,777,216-byte document limit", r.stderr)
        self.assertIn("`l0` 262,144 times", r.stderr)

    def test_command_line(self):
        r = self.run_bsongen("jsonschema", SCHEMA, "thng")
        self.assertEqual(r.returncode, 1)
        self.assertIn("no struct `thng`", r.stderr)
        self.assertIn("did you mean `thing`?", r.stderr)
        self.assertEqual(self.run_bsongen("jsonschema", SCHEMA).returncode, 2)
        bad = os.path.join(self.tmp.name, "bad.yaml")
        with open(bad, "w") as f:
            f.write("structs:\n  s:\n    fields:\n      a: in32\n")
        r = self.run_bsongen("jsonschema", bad, "s")
        self.assertEqual(r.returncode, 1)
        self.assertIn("bad.yaml:4:10: error: unknown type `in32`", r.stderr)
        out = os.path.join(self.tmp.name, "v.json")
        r = self.run_bsongen("jsonschema", SCHEMA, "point", "-o", out)
        self.assertEqual((r.returncode, r.stdout), (0, ""))
        with open(out) as f:
            point = json.load(f)["$jsonSchema"]
        self.assertEqual(point["additionalProperties"], False)
        self.assertEqual(point["required"], ["x", "y"])
        # `point` rejects unknown fields and has no _id: MongoDB's own _id would fail it.
        self.assertIn("warning: struct `point` rejects unknown fields and has no `_id`", r.stderr)
        self.assertNotIn("warning", self.run_bsongen("jsonschema", SCHEMA, "thing").stderr)


class ValidatorSelfTest(unittest.TestCase):
    """The test's validator itself: it must be able to fail."""

    def test_validator_rejects(self):
        schema = {"bsonType": "object", "required": ["a"], "additionalProperties": False,
                  "properties": {"a": {"bsonType": "int", "enum": [1]},
                                 "l": {"bsonType": "array", "items": {"bsonType": "string"},
                                       "minItems": 1, "maxItems": 1}}}
        self.assertEqual(violations(schema, SON([("a", 1), ("l", ["x"])])), [])
        for bad in (SON(), SON([("a", 2)]), SON([("a", 1.0)]), SON([("a", 1), ("z", 1)]),
                    SON([("a", 1), ("l", [])]), SON([("a", 1), ("l", [1])]), SON([("a", True)])):
            self.assertNotEqual(violations(schema, bad), [], bad)


if __name__ == "__main__":
    unittest.main()
