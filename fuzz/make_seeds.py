#!/usr/bin/python3
"""Writes the fuzzers' seed corpora from the shared read-only data, at test time.

    make_seeds.py --corpus-dir DIR --bench-data-dir DIR --out DIR

Creates OUT/<target>/ for every fuzz target, one file per seed named by its SHA-1, from:
- the BSON corpus (BSONGEN_CORPUS_DIR): canonical, degenerate and decode-error BSON; Extended
  JSON texts and parse errors; Decimal128 strings; ObjectId hex strings;
- the driver benchmark documents (BSONGEN_BENCH_DATA_DIR), converted from canonical Extended
  JSON to BSON with Debian's python3-bson when it is importable;
- one order built here for the orders schema (there is no shared data for it).

Nothing is copied into the repository: the seeds live in the build tree. Missing data folders
are reported and skipped, so fuzzing still runs (from fewer seeds).
"""

import argparse
import datetime
import glob
import hashlib
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "generator"))
from bsongen_gen.catalog import BSON_TYPES  # noqa: E402

# The Extended JSON wrappers whose strings the two text parsers' targets read.
DECIMAL128_KEY = BSON_TYPES["decimal128"].extjson_key
OBJECT_ID_KEY = BSON_TYPES["object_id"].extjson_key

BSON_TARGETS = ("generic_decode", "document_view", "any_decode")
# generated_verdict reads one options byte (max_depth in the low four bits, 0x40: decode onto a pmr
# pool resource) before the document.
VERDICT_TARGET = "generated_verdict"
VERDICT_OPTION_BYTES = (b"\x02", b"\x0f", b"\x4f")
TARGETS = BSON_TARGETS + (
    "decimal128_from_string",
    "object_id_hex",
    "extjson_parse",
    "flat_bson_decode",
    "full_bson_decode",
    "orders_decode",
    "projection_decode",
    VERDICT_TARGET,
)


class seed_writer:
    def __init__(self, out_dir):
        self.out_dir = out_dir
        self.counts = {t: 0 for t in TARGETS}
        for target in TARGETS:
            os.makedirs(os.path.join(out_dir, target), exist_ok=True)

    def add(self, target, data):
        if isinstance(data, str):
            data = data.encode("utf-8")
        if target == "generic_decode":  # every BSON seed also seeds the verdict target
            for option in VERDICT_OPTION_BYTES:
                self.add(VERDICT_TARGET, option + data)
        name = hashlib.sha1(data).hexdigest()
        path = os.path.join(self.out_dir, target, name)
        if not os.path.exists(path):
            with open(path, "wb") as f:
                f.write(data)
            self.counts[target] += 1


def corpus_seeds(corpus_dir, seeds):
    files = sorted(glob.glob(os.path.join(corpus_dir, "*.json")))
    if not files:
        print(f"fuzz seeds: BSON corpus not found at {corpus_dir}; no corpus seeds")
        return
    for path in files:
        with open(path, encoding="utf-8") as f:
            suite = json.load(f)
        for case in suite.get("valid", []):
            for field in ("canonical_bson", "degenerate_bson", "converted_bson"):
                if field in case:
                    for target in BSON_TARGETS:
                        seeds.add(target, bytes.fromhex(case[field]))
            for field in ("canonical_extjson", "relaxed_extjson", "degenerate_extjson", "converted_extjson"):
                if field in case:
                    seeds.add("extjson_parse", case[field])
                    scalar_seeds(json.loads(case[field]), seeds)
        for case in suite.get("decodeErrors", []):
            for target in BSON_TARGETS:
                seeds.add(target, bytes.fromhex(case["bson"]))
        for case in suite.get("parseErrors", []):
            text = case["string"]
            seeds.add("extjson_parse", text)
            if os.path.basename(path).startswith("decimal128"):
                seeds.add("decimal128_from_string", text)


def scalar_seeds(value, seeds):
    """Decimal128 strings and ObjectId hex found anywhere in an Extended JSON value."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if key == DECIMAL128_KEY and isinstance(inner, str):
                seeds.add("decimal128_from_string", inner)
            elif key == OBJECT_ID_KEY and isinstance(inner, str):
                seeds.add("object_id_hex", inner)
                seeds.add("object_id_hex", inner.upper())
            else:
                scalar_seeds(inner, seeds)
    elif isinstance(value, list):
        for inner in value:
            scalar_seeds(inner, seeds)


def bench_seeds(bench_dir, seeds):
    files = sorted(glob.glob(os.path.join(bench_dir, "*_bson.json")))
    if not files:
        print(f"fuzz seeds: benchmark documents not found at {bench_dir}; no benchmark seeds")
        return
    for path in files:
        with open(path, encoding="utf-8") as f:
            seeds.add("extjson_parse", f.read())
    try:
        import bson
        from bson import json_util
    except ImportError:
        print("fuzz seeds: python3-bson is not importable; benchmark documents seed Extended JSON only")
        return
    options = json_util.JSONOptions(json_mode=json_util.JSONMode.CANONICAL, tz_aware=True)
    for path in files:
        with open(path, encoding="utf-8") as f:
            document = json_util.loads(f.read(), json_options=options)
        data = bson.encode(document)
        stem = os.path.basename(path)[: -len(".json")]
        for target in BSON_TARGETS:
            seeds.add(target, data)
        if stem in ("flat_bson", "full_bson"):
            seeds.add(stem + "_decode", data)
        if stem == "flat_bson":
            seeds.add("projection_decode", data)


def order_seed(seeds):
    """One order of schemas/orders.yaml, with every optional member present."""
    try:
        import bson
        from bson.decimal128 import Decimal128
        from bson.int64 import Int64
        from bson.objectid import ObjectId
        from bson.timestamp import Timestamp
    except ImportError:
        print("fuzz seeds: python3-bson is not importable; no orders seed")
        return
    when = datetime.datetime(2024, 5, 17, 9, 30, tzinfo=datetime.timezone.utc)
    order = {
        "_id": ObjectId("665f1c2e8a1b2c3d4e5f6071"),
        "number": Int64(100042),
        "status": "canceled",
        "payment": 2,
        "customer": {
            "_id": ObjectId("665f1c2e8a1b2c3d4e5f6072"),
            "name": "Ada",
            "email": "ada@example.org",
            "shipping": {"street": "Main St 1", "city": "Berlin", "postalCode": "10115", "country": "DE"},
            "billing": {"street": "Side St 2", "city": "Bonn", "postalCode": "53111", "country": "DE"},
        },
        "items": [
            {"sku": "A-1", "qty": 2, "unitPrice": Decimal128("12.50"), "discount": Decimal128("1.00")},
            {"sku": "B-2", "qty": 1, "unitPrice": Decimal128("3.99")},
        ],
        "total": Decimal128("28.99"),
        "createdAt": when,
        "shippedAt": when,
        "tags": {"channel": "web", "priority": "high"},
        "notes": "leave at the door",
        "gift": True,
        "_v": Timestamp(1715938200, 7),
        "attachment": bson.Binary(b"\x00\x01\x02", 0),
        "tracking": bson.Binary(bytes(range(16)), 4),
        "dimensions": [30.0, 20.5, 10.25],
        "unknownExtra": {"kept": True},
    }
    data = bson.encode(order)
    seeds.add("orders_decode", data)
    seeds.add("projection_decode", data)
    for target in BSON_TARGETS:
        seeds.add(target, data)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus-dir", required=True)
    parser.add_argument("--bench-data-dir", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    seeds = seed_writer(args.out)
    corpus_seeds(args.corpus_dir, seeds)
    bench_seeds(args.bench_data_dir, seeds)
    order_seed(seeds)
    for text in ("0", "-0", "1E+6144", "9999999999999999999999999999999999E+6111", "Infinity", "-nan", ".5e-6176"):
        seeds.add("decimal128_from_string", text)
    summary = ", ".join(f"{t} {n}" for t, n in seeds.counts.items())
    print(f"fuzz seeds written to {args.out}: {summary} new files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
