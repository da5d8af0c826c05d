#!/usr/bin/python3
"""bsongen-dump against pymongo's bson package (Debian python3-bson), run by CTest.

usage: bsongen_dump_test.py BSONGEN_DUMP BENCH_DATA_DIR

1. A multi-document .bson file written by pymongo's bson.encode, with every type pymongo writes:
   dumped to canonical Extended JSON lines, converted back with --from-json, the bytes must equal
   the original file; each canonical line must load in bson.json_util to the value pymongo decodes
   from the original; the default (relaxed) dump must round-trip through --from-json too.
   --from-json with --canonical prints the canonical lines straight from the JSON; a JSON array of
   documents (mongoexport --jsonArray) reads like the same documents one per line.
2. Sub-documents whose keys Extended JSON reads as a type wrapper ({"$oid": "zz"}, a legacy
   {"$regex": "x", "$options": ""}): --canonical refuses them by index and key path (exit 1) and
   prints every other document, which still round-trips; relaxed prints them and warns. A real
   regex still dumps and reads back as a regex, and $ref/$id, query operators stay documents.
3. A corrupt document in the middle: the documents before it are printed, stderr names its index
   and byte offset, the exit status is 1. A truncated file likewise. Usage errors exit 2.
4. Interop on the driver benchmark documents: pymongo decodes our --from-json BSON of each file
   to exactly what json_util.loads reads from the same text (types and key order included), and
   our canonical and relaxed dumps load in json_util to values equal to those.

Prints "bsongen-dump test: N checks passed" last; exits non-zero on the first failure.
"""

import datetime
import os
import subprocess
import sys
import tempfile
import uuid

try:
    import bson
except ImportError:
    print("pymongo's bson package not found (Debian python3-bson); skipping")
    sys.exit(0)
from bson import json_util
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

CODEC = CodecOptions(document_class=SON, tz_aware=True,
                     uuid_representation=UuidRepresentation.STANDARD)
JSON_OPTIONS = json_util.JSONOptions(json_mode=json_util.JSONMode.CANONICAL, document_class=SON,
                                     tz_aware=True, uuid_representation=UuidRepresentation.STANDARD)

checks = 0


def check(condition, what):
    global checks
    if not condition:
        print("FAILED:", what, file=sys.stderr)
        sys.exit(1)
    checks += 1


def run(*args, stdin=None):
    return subprocess.run([DUMP, *args], input=stdin, capture_output=True)


def sample_documents():
    utc = datetime.timezone.utc
    return [
        SON([("_id", ObjectId("56e1fc72e0c917e9c4714161")), ("name", "ada"), ("n", 1)]),
        SON([("int32", 2147483647), ("int64", Int64(-9223372036854775808)),
             ("small_int64", Int64(5)),
             ("double", 1.0), ("neg_zero", -0.0), ("tiny", 5e-324), ("big", 1.2345678921232e18),
             ("third", 1 / 3), ("nan", float("nan")), ("inf", float("-inf"))]),
        SON([("text", "é ☆ \u0000 \"quoted\" \\ \n\t"), ("empty", ""), ("bool", True),
             ("null", None)]),
        SON([("date", datetime.datetime(2012, 12, 24, 12, 15, 30, 501000, tzinfo=utc)),
             ("old_date", datetime.datetime(1900, 1, 1, tzinfo=utc)),
             ("ts", Timestamp(4294967295, 42)), ("dec", Decimal128("-1.23E+4000")),
             ("dec_nan", Decimal128("NaN"))]),
        SON([("bin", Binary(b"\x00\xff\x10", 0)), ("old_bin", Binary(b"\x01\x02", 2)),
             ("uuid", Binary(uuid.UUID("73ffd264-44b3-4c69-90e8-e7d1dfc035d4").bytes, 4)),
             ("user", Binary(b"user", 0x80)), ("empty_bin", Binary(b"", 0))]),
        SON([("re", Regex("^a.*b$", "im")), ("code", Code("function() {}")),
             ("scope", Code("x + 1", SON([("x", 1)]))), ("min", MinKey()), ("max", MaxKey())]),
        SON([("nested", SON([("a", [1, SON([("b", [[], SON()])]), "c"]),
                             ("$key", "dollar-prefixed")])),
             ("array", list(range(20)))]),
    ]


def same(a, b):
    """Equality that also tells 1 from 1.0, -0.0 from 0.0 and NaN from NaN."""
    if isinstance(a, float) and isinstance(b, float):
        if a != a and b != b:
            return True
        return a == b and str(a) == str(b)
    if type(a) is not type(b) and not (isinstance(a, dict) and isinstance(b, dict)):
        return False
    if isinstance(a, dict):
        return list(a.keys()) == list(b.keys()) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, Decimal128):
        return a.bid == b.bid
    return a == b


def round_trip_pymongo_file(tmp):
    docs = sample_documents()
    original = b"".join(bson.encode(d, codec_options=CODEC) for d in docs)
    path = os.path.join(tmp, "sample.bson")
    with open(path, "wb") as f:
        f.write(original)

    canonical = run("--canonical", path)
    check(canonical.returncode == 0, "dump --canonical: " + canonical.stderr.decode())
    lines = canonical.stdout.decode().splitlines()
    check(len(lines) == len(docs), "one line per document")
    for line, doc in zip(lines, bson.decode_all(original, CODEC)):
        check(same(json_util.loads(line, json_options=JSON_OPTIONS), doc),
              "json_util reads our canonical line as pymongo's value: " + line)

    json_path = os.path.join(tmp, "sample.json")
    with open(json_path, "wb") as f:
        f.write(canonical.stdout)
    out_path = os.path.join(tmp, "back.bson")
    back = run("--from-json", json_path, "-o", out_path)
    check(back.returncode == 0, "--from-json: " + back.stderr.decode())
    with open(out_path, "rb") as f:
        check(f.read() == original, "canonical JSON converts back to pymongo's exact bytes")

    # Relaxed (the default) through standard input and output: values survive, types may widen
    # (relaxed Int64 5 reads back as int32), so compare the relaxed text of both instead.
    relaxed = run("-", stdin=original)
    check(relaxed.returncode == 0, "dump - (relaxed): " + relaxed.stderr.decode())
    rebuilt = run("--from-json", "-", stdin=relaxed.stdout)
    check(rebuilt.returncode == 0, "--from-json - : " + rebuilt.stderr.decode())
    again = run("-", stdin=rebuilt.stdout)
    check(again.stdout == relaxed.stdout, "relaxed JSON -> BSON -> relaxed JSON is stable")

    # Concatenated JSON, not one per line, reads the same.
    concatenated = run("--from-json", "-", stdin=canonical.stdout.replace(b"\n", b" "))
    check(concatenated.returncode == 0 and concatenated.stdout == original,
          "concatenated JSON documents")


def json_to_json_lines_and_arrays(tmp):
    docs = sample_documents()
    original = b"".join(bson.encode(d, codec_options=CODEC) for d in docs)
    path = os.path.join(tmp, "lines.bson")
    with open(path, "wb") as f:
        f.write(original)
    canonical = run("--canonical", path).stdout
    relaxed = run("--relaxed", path).stdout

    # Relaxed text in, canonical lines out: the types the BSON conversion chose, in one step.
    direct = run("--from-json", "-", "--canonical", stdin=relaxed)
    via_bson = run("--canonical", "-", stdin=run("--from-json", "-", stdin=relaxed).stdout)
    check(direct.returncode == 0 and direct.stdout == via_bson.stdout,
          "--from-json --canonical equals --from-json then --canonical: " + direct.stderr.decode())
    check(run("--from-json", "-", "--canonical", stdin=canonical).stdout == canonical,
          "canonical lines are a fixed point of --from-json --canonical")
    check(run("--from-json", "-", "--relaxed", stdin=canonical).stdout == relaxed,
          "--from-json --relaxed prints the relaxed lines")

    # A JSON array of the same documents, with white space around its parts.
    array = b"[\n  " + b",\n  ".join(canonical.splitlines()) + b"\n]\n"
    as_bson = run("--from-json", "-", stdin=array)
    check(as_bson.returncode == 0 and as_bson.stdout == original,
          "a JSON array converts to the documents' exact bytes: " + as_bson.stderr.decode())
    check(run("--from-json", "-", "--canonical", stdin=array).stdout == canonical,
          "a JSON array prints one line per element")
    empty = run("--from-json", "-", stdin=b" [ ] ")
    check(empty.returncode == 0 and empty.stdout == b"", "an empty JSON array is no documents")

    for text, offset, what in ((b'[{"a": 1} {"b": 2}]', 10, "expected , or ]"),
                               (b'[{"a": 1},', 10, "not closed"),
                               (b'[{"a": 1}] {"b": 2}', 11, "text after the JSON array")):
        r = run("--from-json", "-", stdin=text)
        err = r.stderr.decode()
        check(r.returncode == 1 and r.stdout == bson.encode({"a": 1}),
              "bad array %r: exit 1 after the first document" % text)
        check(what in err and "byte %d" % offset in err and "document 1" in err,
              "bad array %r explained with index and offset: %s" % (text, err))


def wrapper_lookalike_keys(tmp):
    docs = [
        SON([("n", 0)]),
        SON([("n", 1), ("a", SON([("$oid", "zz")]))]),
        SON([("n", 2), ("re", Regex("x", "i")),
             ("query", SON([("$regex", Regex("p", "")), ("$options", "i")])),
             ("ref", SON([("$ref", "c"), ("$id", 1)])), ("op", SON([("$type", "string")]))]),
        SON([("n", 3), ("list", [SON([("$regex", "x"), ("$options", "")])])]),
        SON([("n", 4), ("d", SON([("$numberInt", "5")]))]),
    ]
    path = os.path.join(tmp, "lookalike.bson")
    with open(path, "wb") as f:
        f.write(b"".join(bson.encode(d, codec_options=CODEC) for d in docs))
    r = run("--canonical", path)
    err = r.stderr.decode()
    check(r.returncode == 1, "--canonical exits 1 when it refused a document: %d" % r.returncode)
    lines = r.stdout.decode().splitlines()
    check([json_util.loads(line, json_options=JSON_OPTIONS)["n"] for line in lines] == [0, 2],
          "--canonical prints the documents Extended JSON can represent: %r" % lines)
    for index, key_path in ((1, "a.$oid"), (3, "list.0.$regex"), (4, "d.$numberInt")):
        check("document %d" % index in err and key_path in err,
              "stderr names document %d and %s: %s" % (index, key_path, err))
    check("3 document(s) not printed" in err, "stderr counts the refused documents: " + err)
    printed = os.path.join(tmp, "printed.json")
    with open(printed, "wb") as f:
        f.write(r.stdout)
    back = run("--from-json", printed)
    expected = bson.encode(docs[0], codec_options=CODEC) + bson.encode(docs[2], codec_options=CODEC)
    check(back.returncode == 0 and back.stdout == expected,
          "what --canonical printed converts back to the same bytes (a regex stays a regex)")
    relaxed = run(path)
    check(relaxed.returncode == 0 and len(relaxed.stdout.decode().splitlines()) == 5,
          "relaxed prints every document")
    check("printed as it is (relaxed)" in relaxed.stderr.decode(), "and warns about the three")


def corrupt_and_truncated(tmp):
    docs = [bson.encode({"n": i}) for i in range(4)]
    corrupt = bytearray(docs[2])
    corrupt[4] = 0x55  # an undefined element type
    offset = len(docs[0]) + len(docs[1])
    path = os.path.join(tmp, "corrupt.bson")
    with open(path, "wb") as f:
        f.write(docs[0] + docs[1] + bytes(corrupt) + docs[3])
    r = run(path)
    check(r.returncode == 1, "corrupt middle exits 1, got %d" % r.returncode)
    check(r.stdout.decode().splitlines() == ['{"n":0}', '{"n":1}'],
          "documents before the bad one printed")
    err = r.stderr.decode()
    check("document 2" in err and "byte %d" % (offset + 4) in err,
          "stderr names index and offset: " + err)

    truncated = os.path.join(tmp, "truncated.bson")
    with open(truncated, "wb") as f:
        f.write(docs[0] + docs[1][:-3])
    r = run(truncated)
    check(r.returncode == 1 and r.stdout.decode().splitlines() == ['{"n":0}'], "truncated file")
    check("stream ends inside document 1" in r.stderr.decode(),
          "truncation explained: " + r.stderr.decode())

    bad_json = run("--from-json", "-", stdin=b'{"a": 1}\n{"b": {"$numberInt": 2}}\n{"c": 3}\n')
    check(bad_json.returncode == 1 and bad_json.stdout == bson.encode({"a": 1}),
          "bad JSON document in the middle")
    check("document 1" in bad_json.stderr.decode() and "at b" in bad_json.stderr.decode(),
          "JSON error names index and path: " + bad_json.stderr.decode())

    # Issue 11 item 10: --from-json writes only BSON the library reads back with its default
    # limits: 100 levels, counted alike in text and bytes.
    def nested(levels, inner=b"1"):
        return b'{"a":' * levels + inner + b"}" * levels

    hundred = run("--from-json", "-", stdin=nested(99, b'{"$date":{"$numberLong":"1"}}'))
    check(hundred.returncode == 0, "100 levels convert: " + hundred.stderr.decode())
    back = run("-", stdin=hundred.stdout)
    check(back.returncode == 0, "and dump back: " + back.stderr.decode())
    too_deep = run("--from-json", "-", stdin=nested(101))
    check(too_deep.returncode == 1 and b"too_deep" in too_deep.stderr
          and b"(byte 500)" in too_deep.stderr,
          "101 levels are refused when converting: " + too_deep.stderr.decode())

    # Issue 11 item 14: key bytes reach stderr escaped; offsets count from the start of the input.
    hostile = (b'{"ok": 1}\n'
               b'{"\\u001b]0;owned\\u0007\\u001b[2J": {"$numberInt": 5}}\n')
    r = run("--from-json", "-", stdin=hostile)
    err = r.stderr
    check(r.returncode == 1, "hostile key rejected")
    check(all(b >= 0x20 or b == 0x0A for b in err), "no raw control byte on stderr: %r" % err)
    check(b"\\x1b]0;owned\\x07\\x1b[2J" in err, "the key is shown escaped: %r" % err)
    check(b"document 1" in err and b"(byte %d)" % (hostile.index(b'{"$numberInt"')) in err,
          "offset of the wrapper in the whole input: %r" % err)
    # A later document's unclosed container: the message names where it opens in the whole input.
    unclosed = b'{"a": 1}\n{"b": [1, 2'
    r = run("--from-json", "-", stdin=unclosed)
    check(r.returncode == 1 and b"document 1" in r.stderr
          and b"array that opens at byte %d" % unclosed.index(b"[") in r.stderr
          and b"(byte %d)" % len(unclosed) in r.stderr,
          "an unclosed array in a later document is located in the whole input: %r" % r.stderr)
    trailing = run("--from-json", "-", stdin=b'{"a": 1} x')
    check(trailing.returncode == 1 and b"(byte 9)" in trailing.stderr,
          "trailing text reported at its offset: " + trailing.stderr.decode())

    check(run("--help").returncode == 0, "--help exits 0")
    check(run().returncode == 2, "no arguments exit 2")
    check(run("--nonsense", path).returncode == 2, "unknown option exits 2")
    check(run("--canonical", "--from-json", path, "-o", os.path.join(tmp, "x.bson")).returncode
          == 2, "-o with a JSON output mode exits 2")
    check(run(os.path.join(tmp, "missing.bson")).returncode == 1, "missing file exits 1")


def bench_data_interop(tmp):
    for name in ("flat_bson", "deep_bson", "full_bson"):
        source = os.path.join(BENCH_DATA, name + ".json")
        with open(source, "rb") as f:
            text = f.read()
        expected = json_util.loads(text, json_options=JSON_OPTIONS)
        ours = run("--from-json", source)
        check(ours.returncode == 0, name + ": --from-json: " + ours.stderr.decode())
        # Compared as decoded values, in order: bson.encode would move _id to the front.
        check(same(bson.decode(ours.stdout, CODEC), expected),
              name + ": pymongo decodes our BSON to what json_util reads from the same text")
        bson_path = os.path.join(tmp, name + ".bson")
        with open(bson_path, "wb") as f:
            f.write(ours.stdout)
        for mode in ("--canonical", "--relaxed"):
            dumped = run(mode, bson_path)
            check(dumped.returncode == 0, name + " " + mode)
            value = json_util.loads(dumped.stdout, json_options=JSON_OPTIONS)
            if mode == "--canonical":
                check(same(value, expected),
                      name + ": json_util reads our canonical dump as the original")
            else:
                # Relaxed loses only int64-vs-int32 typing; the values are equal.
                check(value == expected,
                      name + ": json_util reads our relaxed dump to equal values")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    DUMP, BENCH_DATA = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        round_trip_pymongo_file(tmp)
        json_to_json_lines_and_arrays(tmp)
        wrapper_lookalike_keys(tmp)
        corrupt_and_truncated(tmp)
        if os.path.isdir(BENCH_DATA):
            bench_data_interop(tmp)
        else:
            print("bench data not found at %s; interop part skipped" % BENCH_DATA)
    print("bsongen-dump test: %d checks passed" % checks)
