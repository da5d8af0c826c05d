#!/usr/bin/python3
"""Times pymongo's C-accelerated bson on one case that bsongen_bench wrote, for bench/compare.

    /usr/bin/python3 bench_case.py CASE.bson CASE.json [--min-time SECONDS] [--repetitions N]
                                   [--clock cpu|wall]

decode = bson.decode(bytes, codec_options); encode = bson.encode(document, codec_options) where
document = bson.json_util.loads(json) with canonical options. UUIDs stay Binary values
(UuidRepresentation.UNSPECIFIED, pymongo 4's default) so the bytes round-trip exactly.
Before timing, the script checks that encode reproduces the bytes exactly, that decode yields the
same typed values, and that bson.has_c() is true (the pure Python codec is a different contender);
on any mismatch it prints why to stderr and exits 1 without timing anything.
Prints one JSON object on stdout: per operation the median nanoseconds per call over the timed
repetitions and their median absolute deviation as a percentage of the median.
--clock cpu (the default) times with time.process_time, which a busy shared machine disturbs far
less than wall time; --clock wall uses time.perf_counter.
"""

import argparse
import json
import os
import statistics
import sys
import time
import timeit

import bson
from bson import json_util
from bson.binary import UuidRepresentation
from bson.codec_options import CodecOptions

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "generator"))
from bsongen_gen.catalog import BSON_TYPES  # noqa: E402

CODEC_OPTIONS = CodecOptions(uuid_representation=UuidRepresentation.UNSPECIFIED)
# JSONOptions.with_options returns a plain CodecOptions in pymongo 3.11, so build it directly.
JSON_OPTIONS = json_util.JSONOptions(json_mode=json_util.JSONMode.CANONICAL,
                                     uuid_representation=UuidRepresentation.UNSPECIFIED)


def fail(case_name, message):
    sys.stderr.write(f"pymongo check failed for {case_name}: {message}\n")
    sys.exit(1)


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


# Bytes after the type byte and key of each element type, as a function of the value's start:
# fixed sizes (the catalogue's), or read from the value's leading int32 plus the bytes it does not
# count (a string's length itself, a binary's length and subtype, a dbPointer's length and
# ObjectId; a document's and code with scope's count themselves), or two C strings (regex).
_FIXED_SIZE = {t.byte: t.fixed_width for t in BSON_TYPES.values() if t.fixed_width is not None}
_LENGTH_PREFIXED = {BSON_TYPES[name].byte: uncounted for name, uncounted in (
    ("string", 4), ("document", 0), ("array", 0), ("binary", 5),
    ("db_pointer", 4 + BSON_TYPES["object_id"].fixed_width), ("javascript", 4), ("symbol", 4),
    ("javascript_with_scope", 0))}
_REGEX = BSON_TYPES["regex"].byte


def _top_level_elements(case_name, data):
    """Yields (key, start, end) of each top-level element; the bytes were checked by libbson and
    js-bson already, so a malformed document here is a bug worth stopping for."""
    pos, end = 4, len(data) - 1
    while pos < end:
        start, kind = pos, data[pos]
        key_end = data.index(b"\0", pos + 1)
        value = key_end + 1
        if kind in _FIXED_SIZE:
            pos = value + _FIXED_SIZE[kind]
        elif kind in _LENGTH_PREFIXED:
            pos = value + _LENGTH_PREFIXED[kind] + int.from_bytes(data[value:value + 4], "little",
                                                                  signed=True)
        elif kind == _REGEX:
            pos = data.index(b"\0", data.index(b"\0", value) + 1) + 1
        else:
            fail(case_name, f"unknown element type 0x{kind:02x} at byte offset {start}")
        if pos > end:
            fail(case_name, f"element at byte offset {start} runs past the document's end")
        yield data[start + 1:key_end], start, pos


def pymongo_element_order(case_name, data):
    """The case bytes with a top-level "_id" element moved to the front: bson.encode always writes
    _id first (pymongo's documented behaviour for MongoDB documents), and nothing else differs."""
    for key, start, end in _top_level_elements(case_name, data):
        if key == b"_id":
            if start == 4:
                break
            return data[:4] + data[start:end] + data[4:start] + data[end:]
    return data


def check_case(case_name, data, document):
    if not bson.has_c():
        fail(case_name, "bson.has_c() is false: install python3-bson-ext for the C codec")
    encoded = bson.encode(document, codec_options=CODEC_OPTIONS)
    expected = pymongo_element_order(case_name, data)
    if encoded != expected:
        moved = " (after moving _id first)" if expected is not data else ""
        fail(case_name, f"bson.encode(json_util.loads(json)) differs from the case bytes{moved}: "
             f"{len(encoded)} vs {len(data)} bytes, first difference at byte offset "
             f"{first_difference(encoded, expected)}")
    want = json_util.dumps(document, json_options=JSON_OPTIONS)
    got = json_util.dumps(bson.decode(data, codec_options=CODEC_OPTIONS), json_options=JSON_OPTIONS)
    if got != want:
        at = first_difference(got, want)
        fail(case_name, f"bson.decode(bytes) differs from the EJSON at character {at}: "
             f"got {got[max(0, at - 40):at + 40]!r}, want {want[max(0, at - 40):at + 40]!r}")


CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def measure(operation, min_time, repetitions, clock):
    """timeit-style: grow the loop count until one batch takes min_time (which also warms up),
    then time `repetitions` batches of that size and report the median per call."""
    timer = timeit.Timer(operation, timer=CLOCKS[clock])
    number = 1
    while True:
        elapsed = timer.timeit(number)
        if elapsed >= min_time:
            break
        scale = min(10.0, max(2.0, 1.2 * min_time / elapsed)) if elapsed > 0 else 10.0
        number = int(number * scale) + 1
    per_call = [t / number for t in timer.repeat(repeat=repetitions, number=number)]
    mid = statistics.median(per_call)
    mad = statistics.median(abs(x - mid) for x in per_call)
    return {
        "ns_per_op": mid * 1e9,
        "mad_percent": 100.0 * mad / mid if mid > 0 else 0.0,
        "iterations": number,
        "repetitions": repetitions,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bson_path")
    parser.add_argument("json_path")
    parser.add_argument("--min-time", type=float, default=0.2,
                        help="seconds one timed batch lasts at least (default 0.2)")
    parser.add_argument("--repetitions", type=int, default=10,
                        help="timed batches per operation (default 10)")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu",
                        help="what to time with (default cpu: the process's CPU time)")
    args = parser.parse_args()
    if args.min_time <= 0 or args.repetitions <= 0:
        parser.error("--min-time and --repetitions must be positive")

    case_name = os.path.basename(args.bson_path).removesuffix(".bson")
    with open(args.bson_path, "rb") as f:
        data = f.read()
    with open(args.json_path, encoding="utf-8") as f:
        document = json_util.loads(f.read(), json_options=JSON_OPTIONS)
    check_case(case_name, data, document)

    decode = bson.decode
    encode = bson.encode
    options = CODEC_OPTIONS
    results = {
        "decode": measure(lambda: decode(data, codec_options=options),
                          args.min_time, args.repetitions, args.clock),
        "encode": measure(lambda: encode(document, codec_options=options),
                          args.min_time, args.repetitions, args.clock),
    }
    version = getattr(bson, "__version__", None)
    if version is None:
        import importlib.metadata
        try:
            version = importlib.metadata.version("pymongo")
        except importlib.metadata.PackageNotFoundError:
            version = "unknown"
    json.dump({
        "implementation": "pymongo",
        "version": f"bson {version} (C extension), python {sys.version.split()[0]}",
        "case": case_name,
        "bytes": len(data),
        "clock": args.clock,
        "results": results,
    }, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
