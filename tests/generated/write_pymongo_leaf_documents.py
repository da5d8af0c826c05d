#!/usr/bin/python3
"""Writes BSON documents encoded by pymongo's `bson` package (Debian python3-bson), one after
another, for value_codecs_test.cpp: documents of the struct `vc::leaves` (schemas/value_codecs.yaml)
with every leaf kind, keys in the schema's order so the generated encoder must reproduce pymongo's
bytes exactly. The values here and the expectations there are the same data written twice on
purpose: the test checks what pymongo wrote, not what we wrote.
"""

import datetime
import sys
import uuid
from collections import OrderedDict

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
from bson.timestamp import Timestamp

OPTIONS = CodecOptions(uuid_representation=UuidRepresentation.STANDARD)
UTC = datetime.timezone.utc


def leaves(n: int) -> OrderedDict:
    """Document n (0, 1, 2): 0 holds values, 1 nulls and the other wire types, 2 leaves the
    optional field out."""
    d = OrderedDict()
    d["d"] = [2.5, -0.0, 1e300][n]
    d["s"] = ["h\u00e9llo", "", "\u65e5\u672c"][n]
    d["raw"] = OrderedDict([("k", 1), ("nested", OrderedDict([("a", [1, "x"])]))]) if n != 1 \
        else OrderedDict()
    d["bin"] = Binary(bytes([0, 1, 2, 255]), [0, 128, 5][n])
    d["old"] = Binary([b"old payload", b"", b"\x00\x00\x00\x00"][n], 2)  # subtype 2: inner length
    d["id"] = uuid.UUID("12345678-1234-5678-1234-567812345678")
    d["oid"] = ObjectId("5f1d7c3e9a8b7c6d5e4f3a2b")
    d["b"] = n == 0
    d["when"] = datetime.datetime(2024, 5, 17, 12, 30, 15, 123000, tzinfo=UTC)
    d["nothing"] = None
    d["re"] = [Regex("^a.*b$", "xmi"), Regex("", ""), Regex("\u00e9+", "s")][n]
    d["js"] = Code("function() { return 1; }")
    d["cws"] = Code("f(x)", {"x": 1}) if n != 1 else Code("", {})
    d["i32"] = [-7, 2147483647, -2147483648][n]
    d["ts"] = Timestamp(1700000000, 7)
    d["i64"] = Int64([1 << 40, -1, 0][n])
    d["dec"] = Decimal128(["1.5", "-0", "NaN"][n])
    d["lo"] = MinKey()
    d["hi"] = MaxKey()
    d["a"] = [OrderedDict([("x", [1, 2.5, "three"])]), None, [True, Int64(4)]][n]
    d["lv"] = [1, 2, 1][n]
    d["md"] = ["calm", "busy", "calm"][n]
    d["n"] = [5, None, -1][n]
    d["ns"] = ["x", None, ""][n]
    if n != 2:
        d["maybe"] = [2.5, None][n]
    d["wide"] = [7, Int64(1 << 40), -3][n]               # number<int64>: int32, int64, int32
    d["real"] = [3, Int64(1 << 53), 0.1][n]              # number<double>: int32, int64, double
    d["nums"] = [[1.5, None, 2, Int64(3)], [], [None]][n]
    d["by_key"] = [OrderedDict([("a", Int64(1)), ("b", None)]), OrderedDict(),
                   OrderedDict([("z", None)])][n]
    d["pt"] = [OrderedDict([("x", 1), ("y", 2)]), None, OrderedDict([("x", -1), ("y", 0)])][n]
    return d


def main() -> None:
    with open(sys.argv[1], "wb") as out:
        for n in range(3):
            out.write(bson.encode(leaves(n), codec_options=OPTIONS))


if __name__ == "__main__":
    main()
