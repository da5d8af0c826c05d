#!/usr/bin/python3
"""bson_reader, the tools' BSON reader: the values and types it gives for documents pymongo's
bson package (Debian python3-bson) writes, and its verdicts on corrupt input, which must be the
generic decoder's (through bsongen-dump, $BSONGEN_DUMP): the same documents accepted, the same
error code at the same byte for the rest.
"""

import datetime
import io
import os
import random
import re
import subprocess
import sys
import unittest
import uuid

import bson
from bson.binary import Binary
from bson.code import Code
from bson.decimal128 import Decimal128
from bson.int64 import Int64
from bson.max_key import MaxKey
from bson.min_key import MinKey
from bson.objectid import ObjectId
from bson.regex import Regex
from bson.son import SON
from bson.timestamp import Timestamp

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "generator"))

from bsongen_gen.tools import bson_reader as br  # noqa: E402

DUMP = os.environ.get("BSONGEN_DUMP", "")
OID = ObjectId("56e1fc72e0c917e9c4714161")
UUID = uuid.UUID("c8edabc3-f738-4ca3-b68d-ab92a91478a3")


def every_type() -> SON:
    return SON([
        ("double", 1.5), ("string", "x\u00e9\0y"), ("document", SON([("$oid", "zz")])),
        ("array", [1, [2, SON([("a", [])])]]), ("binary", Binary(b"abc", 0)),
        ("old_binary", Binary(b"xyz", 2)), ("uuid", Binary(UUID.bytes, 4)), ("oid", OID),
        ("true", True), ("false", False), ("date", datetime.datetime(2020, 1, 1)),
        ("null", None), ("regex", Regex("a.b", "i")), ("code", Code("f()")),
        ("scope", Code("g()", SON([("x", 1)]))), ("int32", -7), ("timestamp", Timestamp(5, 6)),
        ("int64", Int64(1 << 40)), ("decimal", Decimal128("1.5")), ("min", MinKey()),
        ("max", MaxKey()),
    ])


class ValuesTest(unittest.TestCase):
    def test_every_type_with_its_value(self):
        doc = br.decode_document(bson.encode(every_type()))
        got = dict(doc)
        self.assertEqual(list(got), list(every_type()))
        expected_types = {
            "double": 0x01, "string": 0x02, "document": 0x03, "array": 0x04, "binary": 0x05,
            "old_binary": 0x05, "uuid": 0x05, "oid": 0x07, "true": 0x08, "false": 0x08,
            "date": 0x09, "null": 0x0A, "regex": 0x0B, "code": 0x0D, "scope": 0x0F, "int32": 0x10,
            "timestamp": 0x11, "int64": 0x12, "decimal": 0x13, "min": 0xFF, "max": 0x7F,
        }
        for key, type_byte in expected_types.items():
            self.assertEqual(br.type_byte(got[key]), type_byte, key)
        self.assertEqual(got["string"], "x\u00e9\0y")
        self.assertEqual(got["document"], [("$oid", "zz")])   # a document, whatever its keys
        self.assertEqual(got["array"], [1, [2, [("a", [])]]])
        self.assertIsInstance(got["array"][1][1], br.Document)
        self.assertEqual(got["old_binary"], br.Binary(2, b"xyz"))  # without the inner length
        self.assertEqual(got["uuid"], br.Binary(4, UUID.bytes))
        self.assertEqual(got["oid"], br.ObjectId(OID.binary))
        self.assertIs(got["true"], True)
        self.assertEqual(got["date"], br.DateTime(1577836800000))
        self.assertEqual(got["regex"], br.Regex("a.b", "i"))
        self.assertEqual(got["scope"], br.CodeWithScope("g()", [("x", 1)]))
        self.assertEqual((got["timestamp"].time, got["timestamp"].increment), (5, 6))
        self.assertEqual(got["int64"], 1 << 40)
        self.assertIs(type(got["int32"]), int)
        self.assertEqual(got["decimal"], br.Decimal128(Decimal128("1.5").bid))
        self.assertIs(got["min"], br.MIN_KEY)

    def test_repeated_keys_and_order_are_kept(self):
        raw = b"\x10a\0\x01\0\0\0\x10b\0\x02\0\0\0\x10a\0\x03\0\0\0"
        data = (len(raw) + 5).to_bytes(4, "little") + raw + b"\0"
        self.assertEqual(br.decode_document(data), [("a", 1), ("b", 2), ("a", 3)])

    def test_stream_yields_each_document_then_stops(self):
        docs = [SON([("n", i)]) for i in range(3)]
        stream = io.BytesIO(b"".join(bson.encode(d) for d in docs))
        self.assertEqual(list(br.read_stream(stream)), [[("n", i)] for i in range(3)])
        self.assertEqual(list(br.read_stream(io.BytesIO(b""))), [])


class VerdictTest(unittest.TestCase):
    """Corrupted documents: bson_reader and the generic decoder agree."""

    def setUp(self):
        if not DUMP:
            self.skipTest("BSONGEN_DUMP is not set")

    @staticmethod
    def decoder_verdict(data: bytes):
        """(code, byte) of the generic decoder's error through bsongen-dump, or None."""
        # Relaxed: --canonical also refuses documents Extended JSON cannot represent ($oid keys).
        r = subprocess.run([DUMP, "--relaxed", "-"], input=data, capture_output=True)
        if r.returncode == 0:
            return None
        m = re.search(rb"^bsongen-dump: -: (\w+)(?: at .*?)? \(byte (\d+)\)", r.stderr, re.M)
        return (m.group(1).decode(), int(m.group(2))) if m else r.stderr.decode()

    @staticmethod
    def reader_verdict(data: bytes):
        try:
            for _ in br.read_stream(io.BytesIO(data)):
                pass
        except br.StreamError as e:
            return e.error.code, e.error.offset
        return None

    def test_mutations_get_the_decoders_verdict(self):
        good = bson.encode(SON([("first", 1)])) + bson.encode(every_type())
        rng = random.Random(35)
        corrupt = 0
        for trial in range(250):
            data = bytearray(good)
            for _ in range(rng.randint(1, 3)):
                data[rng.randrange(len(data))] = rng.choice(
                    [0x00, 0x01, 0x02, 0x7F, 0x80, 0xFF, rng.randrange(256)])
            data = bytes(data[:rng.randrange(len(data) + 1)] if trial % 10 == 0 else data)
            expected = self.decoder_verdict(data)
            corrupt += expected is not None
            self.assertEqual(self.reader_verdict(data), expected, data.hex())
        self.assertGreater(corrupt, 150)  # most mutations break something

    def test_nesting_limit(self):
        for levels in (100, 101):
            doc: dict = {}
            for _ in range(levels - 1):
                doc = {"a": doc}
            data = bson.encode(doc)
            self.assertEqual(self.reader_verdict(data), self.decoder_verdict(data), levels)


if __name__ == "__main__":
    unittest.main()
