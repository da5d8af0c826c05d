#!/usr/bin/python3
"""Writes BSON documents encoded by pymongo's `bson` package (Debian python3-bson), one after
another, for generated_interop_test.cpp to decode. The values here and the expectations there are
the same data written twice on purpose: the test checks what pymongo wrote, not what we wrote.
"""

import datetime
import sys
import uuid
from collections import OrderedDict

import bson
from bson.binary import Binary, UuidRepresentation
from bson.codec_options import CodecOptions
from bson.decimal128 import Decimal128
from bson.objectid import ObjectId
from bson.timestamp import Timestamp

OPTIONS = CodecOptions(uuid_representation=UuidRepresentation.STANDARD)


def order(n: int) -> OrderedDict:
    doc = OrderedDict()
    doc["_id"] = ObjectId("5f1d7c3e9a8b7c6d5e4f3a2b")
    doc["number"] = 1000 + n
    doc["status"] = "shipped" if n % 2 else "canceled"
    doc["payment"] = 7
    doc["customer"] = OrderedDict([
        ("_id", ObjectId("000000000000000000000001")),
        ("name", "Zoë Müller"),
        ("shipping", OrderedDict([("street", "Hauptstraße 1"), ("city", "Köln"),
                                  ("postalCode", "50667"), ("country", "DE")])),
    ])
    doc["items"] = [OrderedDict([("sku", f"sku-{i}"), ("qty", i + 1),
                                 ("unitPrice", Decimal128(f"{i}.99"))]) for i in range(n)]
    doc["total"] = Decimal128("123.45")
    doc["createdAt"] = datetime.datetime(2024, 5, 17, 12, 30, 15, 123000,
                                         tzinfo=datetime.timezone.utc)
    doc["tags"] = OrderedDict([("gift", "yes"), ("prio", "high")])
    doc["_v"] = Timestamp(1700000000, 5)
    doc["tracking"] = uuid.UUID("12345678-1234-5678-1234-567812345678")
    doc["dimensions"] = [10.5, 20, 30.25]  # pymongo writes 20 as int32: decode widens it
    if n % 2:
        doc["shippedAt"] = None  # null decodes to an empty optional
        doc["legacyField"] = {"kept": True}  # unknown: captured into `extra`
    return doc


def main() -> None:
    with open(sys.argv[1], "wb") as out:
        for n in range(4):
            out.write(bson.encode(order(n), codec_options=OPTIONS))


if __name__ == "__main__":
    main()
