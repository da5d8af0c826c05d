#!/usr/bin/python3
"""`bsongen diff`'s verdicts against real decodes.

Every row of diff_pairs.py (a field `v` changing type) is generated, at build time, into one
schema as two structs `<row>_old` and `<row>_new` (`--write-build-files DIR` writes the schema and
the harness's row list), compiled once into diff_decode_harness ($BSONGEN_DIFF_DECODE_HARNESS).
Here, values at the edges the codecs care about (int32 and int64 limits, 255/256/300, 2^53 and
one past it, -0.0, fractions, float's largest, 1e300, NaN and the infinities, 1500 ms, a day,
the nanosecond clock's reach, enum names) are offered to each row's writer: what its decoder
accepts its encoder writes back, and those bytes go to the other struct's decoder. For readers
the writer is the old struct, for writers the new one. A direction diff calls breaking must have a
written value the reader refuses; one it calls compatible must have none.
"""

import json
import math
import os
import struct
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "generator"))
sys.path.insert(0, HERE)

import diff_pairs  # noqa: E402
from bsongen_gen.diagnostics import SchemaError, SchemaErrors  # noqa: E402
from bsongen_gen.tools import diff, schemas  # noqa: E402

HARNESS = os.environ.get("BSONGEN_DIFF_DECODE_HARNESS", "")
NAMESPACE = "diff_pairs"


def row_id(index: int) -> str:
    return f"r{index:02d}"


def decoded_rows():
    return [(row_id(i), row) for i, row in enumerate(diff_pairs.ROWS) if row.decodes]


def shared_schema() -> str:
    """One schema with every decodable row's two structs (and its enum)."""
    enums, structs = [], []
    for name, row in decoded_rows():
        enum = f"{name}_e"
        if row.enum:
            enums.append(f"  {enum}: {row.enum}")
        for side, spec in (("old", row.old), ("new", row.new)):
            structs += [f"  {name}_{side}:", f"    doc: {json.dumps(f'{row.name} ({side})')}", "    fields:",
                        f"      v: {diff_pairs.field_type(spec, enum)}"]
    lines = [f"namespace: {NAMESPACE}"]
    if enums:
        lines += ["enums:", *enums]
    return "\n".join(lines + ["structs:", *structs]) + "\n"


def write_build_files(directory: str) -> None:
    os.makedirs(directory, exist_ok=True)
    files = {"diff_pairs.yaml": shared_schema(),
             "diff_pairs_rows.inc": "".join(f"BSONGEN_DIFF_PAIR({name})\n"
                                            for name, _ in decoded_rows())}
    for file_name, text in files.items():
        path = os.path.join(directory, file_name)
        old = open(path).read() if os.path.exists(path) else None
        if old != text:  # rewritten only when changed: nothing rebuilds otherwise
            with open(path, "w") as f:
                f.write(text)
    with open(os.path.join(directory, "diff_pairs.stamp"), "w") as f:  # the build's output
        f.write("written by diff_decode_test.py --write-build-files\n")


# --- BSON, by hand (no driver needed): a document of elements (type byte, key, value bytes). ---

def _element(type_byte: int, key: str, value: bytes) -> bytes:
    return bytes([type_byte]) + key.encode() + b"\0" + value


def _string(s: str) -> bytes:
    data = s.encode() + b"\0"
    return struct.pack("<i", len(data)) + data


def document(*elements: bytes) -> bytes:
    body = b"".join(elements)
    return struct.pack("<i", len(body) + 5) + body + b"\0"


def value_element(key: str, tag: str, value) -> bytes:
    if tag == "int":
        return _element(0x10, key, struct.pack("<i", value))
    if tag == "long":
        return _element(0x12, key, struct.pack("<q", value))
    if tag == "double":
        return _element(0x01, key, struct.pack("<d", value))
    if tag == "date":
        return _element(0x09, key, struct.pack("<q", value))
    if tag == "string":
        return _element(0x02, key, _string(value))
    if tag == "bool":
        return _element(0x08, key, bytes([value]))
    if tag == "null":
        return _element(0x0A, key, b"")
    raise ValueError(tag)


I32 = (-(1 << 31), (1 << 31) - 1)
I64 = (-(1 << 63), (1 << 63) - 1)
FLOAT_MAX = 3.4028234663852886e38
NS_REACH = I64[1] // 1_000_000  # the milliseconds a nanosecond count reaches
CANDIDATES = [
    *(("int", v) for v in (I32[0], -300, -1, 0, 1, 2, 255, 256, 300, 1500, I32[1])),
    *(("long", v) for v in (I64[0], -(1 << 53) - 1, -(1 << 53), -1, 0, 1, 255, 300, 1 << 31,
                            1 << 53, (1 << 53) + 1, 1 << 62, I64[1])),
    *(("double", v) for v in (0.0, -0.0, 1.0, -1.0, 0.5, 255.0, 256.0, 300.0, 1500.5,
                              float(1 << 31), float(1 << 53), float((1 << 53) + 2),
                              float(1 << 63), FLOAT_MAX, 3.5e38, 1e300, -1e300, 1e-300,
                              math.nan, math.inf, -math.inf)),
    *(("date", v) for v in (0, 1000, 1500, -1000, -1500, 86_400_000, 86_400_000 * 3 + 1000,
                            NS_REACH, NS_REACH + 1, -NS_REACH, -NS_REACH - 1,
                            I64[1] // 1000 * 1000, I64[0], I64[1])),
    *(("string", v) for v in ("a", "b", "x")),
    ("bool", 1),
    ("null", None),
]


def _shown(tag: str, value) -> str:
    return f"{tag} {value!r}"


class DecodeTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def verdicts(self, row) -> dict:
        """diff's verdicts for one row, {direction: Verdict}; raises SchemaError(s) when the
        generator refuses a schema."""
        models = []
        for side, spec in (("old", row.old), ("new", row.new)):
            path = os.path.join(self.tmp.name, f"{side}.yaml")
            with open(path, "w") as f:
                enums = f"enums:\n  e: {row.enum}\n" if row.enum else ""
                f.write(f"{enums}structs:\n  s:\n    fields:\n"
                        f"      v: {diff_pairs.field_type(spec, 'e')}\n")
            models.append(schemas.load(path))
        (change,) = [c for c in diff.compare(*models) if c.path == "s.v"]
        return {"readers": change.readers, "writers": change.writers}

    def test_verdicts_match_decodes(self):
        if not HARNESS:
            self.skipTest("BSONGEN_DIFF_DECODE_HARNESS is not set (ctest -R tools_diff_decode "
                          "sets it)")
        cases = []  # (row id, writer side, tag, value)
        for name, _ in decoded_rows():
            for writer in ("old", "new"):
                cases += [(name, writer, tag, value) for tag, value in CANDIDATES]
        path = os.path.join(self.tmp.name, "cases.bson")
        with open(path, "wb") as f:
            for name, writer, tag, value in cases:
                f.write(document(value_element("row", "string", name),
                                 value_element("writer", "string", writer),
                                 _element(0x03, "doc", document(value_element("v", tag, value)))))
        run = subprocess.run([HARNESS, path], capture_output=True, text=True)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        lines = run.stdout.splitlines()
        self.assertEqual(len(lines), len(cases), run.stdout[-2000:])
        outcomes = {}
        for (name, writer, tag, value), line in zip(cases, lines):
            self.assertFalse(line.startswith(("bad-input", "encode-failed")),
                             f"{name} {writer} {_shown(tag, value)}: {line}")
            outcomes.setdefault((name, writer), []).append((tag, value, line))
        checked = 0
        for name, row in decoded_rows():
            verdicts = self.verdicts(row)
            for direction, writer in (("readers", "old"), ("writers", "new")):
                with self.subTest(row=row.name, direction=direction):
                    results = outcomes[(name, writer)]
                    written = [r for r in results if r[2] != "unwritten"]
                    refused = [r for r in written if r[2].startswith("reject")]
                    self.assertTrue(written, f"{row.name}: the {writer} struct decodes none of the "
                                    "candidate values")
                    shown = "; ".join(f"{_shown(t, v)}: {line}" for t, v, line in refused[:3])
                    if verdicts[direction].breaking:
                        self.assertTrue(refused, f"{row.name}: diff says {direction} break "
                                        f"({verdicts[direction].reason}), yet the reader accepts "
                                        f"all {len(written)} values the writer wrote")
                    else:
                        self.assertFalse(refused, f"{row.name}: diff says compatible for "
                                         f"{direction}, yet {len(refused)} written values are "
                                         f"refused: {shown}")
                    checked += len(written)
        print(f"diff decode: {len(decoded_rows())} rows, {checked} written values decoded, "
              "verdicts match")

    def test_undecodable_rows_break_both_ways(self):
        """A spelling the generated code cannot compile is refused by the generator, or never
        called compatible."""
        for row in diff_pairs.ROWS:
            if not row.decodes:
                try:
                    verdicts = self.verdicts(row)
                except (SchemaError, SchemaErrors):
                    continue
                self.assertTrue(verdicts["readers"].breaking and verdicts["writers"].breaking,
                                row.name)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--write-build-files":
        write_build_files(sys.argv[2])
        sys.exit(0)
    unittest.main()
