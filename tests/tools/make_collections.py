#!/usr/bin/python3
"""Writes random collections as mongodump-style .bson files (concatenated documents), with
pymongo's bson package (Debian python3-bson) as an independent encoder. Deterministic: the same
seed writes the same bytes.

usage: make_collections.py OUT_DIR [--seed N]

Collections, and what each exercises in `bsongen infer` (tests/tools/infer_test.py checks the
types inferred for them):

  customers  no nullable or number forms: fields sometimes absent (never null), nested documents (one
             sometimes absent, one nested twice), arrays of strings, ints and documents, strings
             with few values (enums under --enums), ObjectIds, dates, decimals, UUIDs, int64,
             keys that are not C++ identifiers, a field of really mixed types (`any`, never
             null), and 2% of documents with two keys swapped (another key order).
  orders     absent and null: a date that is sometimes null (nullable<datetime>), a string that
             is absent, null or set (optional<nullable<string>>), a field that is absent or null
             only (optional<any>), null inside array element documents, a nullable sub-document.
  readings   mixed numbers: int32+int64 (number<int64>), int32+int64+double within 2^53
             (number<double>), double with int64 beyond 2^53 (any), arrays of mixed numbers,
             a sometimes-absent and a sometimes-null mixed number.
  events     everything at once: `any` payloads that are absent, null, strings, documents and
             arrays; arrays of arrays; documents in arrays with absent, null and mixed fields;
             the empty key (valid BSON, never a schema field: captured) in a tenth of the
             documents and of the array's documents, as their last key.
  lookalikes sub-documents whose keys are Extended JSON type wrappers' ({"$oid": "zz"},
             {"$numberInt": "5"}, {"$regex": "x", "$options": ""}, {"$code": ..., "$scope": ...},
             ...), some well-formed as wrappers, beside real values of those types: the schema
             must type them as the sub-documents they are (a reader of Extended JSON text
             cannot tell them apart).
  nested     arrays nested 30 deep (legal BSON), directly and under a sub-document in an array:
             the schema nests at most 16 containers in one type, so infer types the levels below
             as `any`, and the generated code compiles in seconds (30 deep would take minutes).
  vectors    BSON Binary Vectors (binary subtype 9, payloads built here: python3-bson predates
             BinaryVector): float32 of one dimension in every document (a fixed dimension),
             int8 and packed_bit of varying lengths (packed_bit with padding), a float32 vector
             that is sometimes absent, a packed_bit one that is sometimes null, a fixed-dimension
             int8 vector in array element documents; float32 elements include -0, infinities and
             subnormals, which must come back bit for bit.

Also customers_widened.bson, a negative control for the round-trip harness: customers whose
int64 `visits` is an int32. The customers schema decodes them (int64 reads int32) but writes an
int64 back, so the harness must report different bytes.
"""

import argparse
import datetime
import os
import random
import struct
import sys
import uuid

import bson
from bson.binary import Binary
from bson.code import Code
from bson.codec_options import CodecOptions
from bson.decimal128 import Decimal128
from bson.int64 import Int64
from bson.objectid import ObjectId
from bson.regex import Regex
from bson.son import SON

CODEC = CodecOptions(document_class=SON, tz_aware=True)
UTC = datetime.timezone.utc
EPOCH = datetime.datetime(2020, 1, 1, tzinfo=UTC)


class Maker:
    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def oid(self) -> ObjectId:
        return ObjectId(bytes(self.rng.getrandbits(8) for _ in range(12)))

    def date(self) -> datetime.datetime:
        # Whole milliseconds: BSON dates hold milliseconds.
        return EPOCH + datetime.timedelta(milliseconds=self.rng.randrange(0, 10**11))

    def word(self, n: int = 8) -> str:
        return "".join(self.rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(n))

    def text(self) -> str:
        words = [self.word(self.rng.randrange(1, 9)) for _ in range(self.rng.randrange(1, 6))]
        if self.chance(0.1):
            words.append("é☆\u00e5")  # multi-byte UTF-8
        return " ".join(words)

    def decimal(self) -> Decimal128:
        return Decimal128(f"{self.rng.randrange(0, 100000)}.{self.rng.randrange(0, 100):02d}")

    def int32(self) -> int:
        return self.rng.randrange(-(1 << 31), 1 << 31)

    def int64(self, limit: int = 1 << 62) -> Int64:
        return Int64(self.rng.randrange(-limit, limit))

    def double(self) -> float:
        return self.rng.choice([self.rng.uniform(-1e6, 1e6), float(self.rng.randrange(100)),
                                -0.0, 0.5, 1e300, 5e-324])


def customers(m: Maker, n: int):
    tiers = ["free", "pro", "team", "enterprise"]
    for i in range(n):
        d = SON()
        d["_id"] = m.oid()
        d["name"] = m.text()
        if m.chance(0.8):
            d["email"] = m.word() + "@example.com"
        d["signup"] = m.date()
        d["tier"] = m.rng.choice(tiers)
        address = SON([("street", m.text()), ("city", m.word())])
        if m.chance(0.7):
            address["zip code"] = f"{m.rng.randrange(10000, 99999)}"
        if m.chance(0.5):
            address["geo"] = SON([("lat", m.rng.uniform(-90, 90)), ("lng", m.rng.uniform(-180, 180))])
        if m.chance(0.9):
            d["address"] = address
        d["tags"] = [m.word(4) for _ in range(m.rng.randrange(0, 5))]
        d["scores"] = [m.int32() for _ in range(m.rng.randrange(0, 4))]
        d["balance"] = m.decimal()
        d["visits"] = m.int64()
        d["orders"] = m.rng.randrange(0, 1000)
        d["first-name"] = m.word(5)
        d["class"] = m.rng.choice(["a", "b"])
        d["device"] = Binary(uuid.UUID(int=m.rng.getrandbits(128)).bytes, 4)
        contacts = []
        for _ in range(m.rng.randrange(0, 3)):
            contact = SON([("kind", m.rng.choice(["phone", "email", "post"])), ("value", m.text())])
            if m.chance(0.3):
                contact["primary"] = m.chance(0.5)
            contacts.append(contact)
        d["contacts"] = contacts
        d["metadata"] = m.rng.choice([m.word(), m.int32(), SON([("source", m.word())]),
                                      [m.word(), 1], True])
        if m.chance(0.5):
            d["notes"] = m.text()
        if m.chance(0.02):  # another key order: these decode to equal values, not equal bytes
            keys = list(d.keys())
            keys[1], keys[2] = keys[2], keys[1]  # not _id: pymongo always writes it first
            d = SON([(k, d[k]) for k in keys])
        yield d


def orders(m: Maker, n: int):
    for i in range(n):
        d = SON()
        d["_id"] = m.oid()
        d["customer"] = m.oid()
        d["status"] = m.rng.choice(["pending", "paid", "shipped", "cancelled"])
        d["created"] = m.date()
        d["shipped_at"] = m.date() if m.chance(0.6) else None
        r = m.rng.random()
        if r < 0.3:
            d["coupon"] = m.word(6).upper()
        elif r < 0.6:
            d["coupon"] = None
        if m.chance(0.5):
            d["legacy"] = None  # absent or null, never anything else
        items = []
        for _ in range(m.rng.randrange(1, 5)):
            item = SON([("sku", m.word(6)), ("qty", m.rng.randrange(1, 20)),
                        ("price", m.decimal())])
            r = m.rng.random()
            if r < 0.3:
                item["discount"] = m.decimal()
            elif r < 0.5:
                item["discount"] = None
            items.append(item)
        d["items"] = items
        d["total"] = m.decimal()
        d["gift"] = SON([("to", m.text()), ("message", m.text())]) if m.chance(0.2) else None
        yield d


def readings(m: Maker, n: int):
    for i in range(n):
        d = SON()
        d["_id"] = m.oid()
        d["sensor"] = m.word(4)
        d["at"] = m.date()
        d["count"] = m.rng.choice([m.rng.randrange(0, 1000), m.int64(1 << 40)])
        d["value"] = m.rng.choice([m.rng.randrange(-1000, 1000), m.int64(1 << 53),
                                   m.double()])
        d["big"] = m.rng.choice([m.double(), Int64((1 << 60) + m.rng.randrange(1000))])
        d["samples"] = [m.rng.choice([m.rng.randrange(100), m.double()])
                        for _ in range(m.rng.randrange(0, 6))]
        if m.chance(0.6):
            d["delta"] = m.rng.choice([m.rng.randrange(100), m.int64(1 << 40)])
        d["calibration"] = m.rng.choice([None, m.double(), m.rng.randrange(10)])
        yield d


def events(m: Maker, n: int):
    for i in range(n):
        d = SON()
        d["_id"] = m.oid()
        d["kind"] = m.rng.choice(["click", "view", "buy"])
        d["at"] = m.date()
        r = m.rng.random()
        if r < 0.2:
            pass  # payload absent
        elif r < 0.35:
            d["payload"] = None
        elif r < 0.6:
            d["payload"] = m.text()
        elif r < 0.8:
            d["payload"] = SON([("x", m.int32()), ("y", [m.word(), None])])
        else:
            d["payload"] = [m.int32(), m.word()]
        d["grid"] = [[m.rng.randrange(10) for _ in range(3)] for _ in range(m.rng.randrange(0, 3))]
        steps = []
        for _ in range(m.rng.randrange(0, 4)):
            step = SON([("name", m.word())])
            if m.chance(0.5):
                step["took"] = m.rng.choice([m.rng.randrange(100), m.int64(1 << 35), m.double()])
            if m.chance(0.3):
                step["error"] = m.rng.choice([None, m.text()])
            if m.chance(0.1):
                step[""] = m.word()  # last: captured, it is written back in place
            steps.append(step)
        d["steps"] = steps
        d["user"] = m.rng.choice([None, SON([("id", m.oid()), ("name", m.text())])])
        if m.chance(0.7):
            d["session"] = m.rng.choice([m.rng.randrange(1000), m.int64(1 << 50)])
        if m.chance(0.1):
            d[""] = m.rng.choice([m.int32(), m.word()])
        yield d


def lookalikes(m: Maker, n: int):
    for i in range(n):
        d = SON()
        d["_id"] = m.oid()
        # A well-formed $oid payload in half of them, 24 hex digits that are only a string.
        d["ref"] = SON([("$oid", str(m.oid()) if m.chance(0.5) else m.word(2))])
        d["count"] = SON([("$numberInt", str(m.rng.randrange(100)))])
        d["long"] = SON([("$numberLong", str(m.int64()))])
        d["when"] = SON([("$date", SON([("$numberLong", str(m.rng.randrange(10**12)))]))])
        d["at"] = m.date()
        d["pattern"] = SON([("$regex", m.word(3)), ("$options", m.rng.choice(["", "i"]))])
        d["regex"] = Regex(m.word(3), m.rng.choice(["", "i"]))
        d["expression"] = SON([("$regularExpression",
                                SON([("pattern", m.word(3)), ("options", "")]))])
        d["code"] = SON([("$code", "f()"), ("$scope", SON([("x", m.int32())]))])
        d["real_code"] = Code("f()", {"x": m.int32()})
        d["binary"] = SON([("$binary", SON([("base64", "AAE="), ("subType", "00")]))])
        d["uuid"] = SON([("$uuid", str(uuid.UUID(int=m.rng.getrandbits(128))))])
        d["key"] = SON([("$minKey", 1)])
        d["decimal"] = SON([("$numberDecimal", "1.5")])
        d["escaped"] = SON([("$escape", SON([("$oid", m.word(2))]))])
        if m.chance(0.5):
            d["nested"] = [SON([("$date", m.rng.randrange(1000)), ("x", 1)]),
                           SON([("$undefined", True)])]
        yield d


def nested(m: Maker, n: int):
    def deep(levels: int):
        value = [m.int32() for _ in range(m.rng.randrange(0, 4))]
        for _ in range(levels - 1):
            value = [value] if m.chance(0.9) else [value, []]
        return value
    for _ in range(n):
        d = SON()
        d["_id"] = m.oid()
        d["deep"] = deep(30)
        d["rows"] = [[SON([("cells", deep(m.rng.randrange(20, 31)))])]]
        yield d


def vectors(m: Maker, n: int):
    def float32(dimension: int) -> Binary:
        values = [m.rng.choice([m.rng.uniform(-1, 1), -0.0, float("inf"), 1e-45, 3.4e38])
                  for _ in range(dimension)]
        return Binary(b"\x27\x00" + struct.pack(f"<{dimension}f", *values), 9)

    def int8(dimension: int) -> Binary:
        values = [m.rng.randrange(-128, 128) for _ in range(dimension)]
        return Binary(b"\x03\x00" + struct.pack(f"<{dimension}b", *values), 9)

    def packed_bits() -> Binary:
        bits = m.rng.randrange(0, 21)
        data = bytearray(m.rng.getrandbits(8) for _ in range((bits + 7) // 8))
        padding = 8 * len(data) - bits
        if data:
            data[-1] &= 0xFF ^ ((1 << padding) - 1)  # the ignored bits are zero
        return Binary(bytes([0x10, padding]) + bytes(data), 9)

    for _ in range(n):
        d = SON()
        d["_id"] = m.oid()
        d["embedding"] = float32(6)
        d["quantized"] = int8(m.rng.randrange(0, 7))
        d["bits"] = packed_bits()
        if m.chance(0.7):
            d["maybe"] = float32(m.rng.randrange(1, 4))
        d["flags"] = packed_bits() if m.chance(0.6) else None
        d["chunks"] = [SON([("at", m.rng.randrange(1000)), ("code", int8(3))])
                       for _ in range(m.rng.randrange(0, 3))]
        yield d


COLLECTIONS = {"customers": (customers, 500), "orders": (orders, 400),
               "readings": (readings, 600), "events": (events, 300),
               "lookalikes": (lookalikes, 40), "nested": (nested, 20),
               "vectors": (vectors, 200)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir")
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    os.makedirs(args.out_dir, exist_ok=True)
    for number, (name, (make, count)) in enumerate(COLLECTIONS.items()):
        maker = Maker(args.seed * 1000 + number)
        data = b"".join(bson.encode(doc, codec_options=CODEC) for doc in make(maker, count))
        with open(os.path.join(args.out_dir, name + ".bson"), "wb") as f:
            f.write(data)
    widened = list(customers(Maker(args.seed * 1000 + 99), 3))
    for doc in widened:
        doc["visits"] = 7
    with open(os.path.join(args.out_dir, "customers_widened.bson"), "wb") as f:
        f.write(b"".join(bson.encode(doc, codec_options=CODEC) for doc in widened))
    return 0


if __name__ == "__main__":
    sys.exit(main())
