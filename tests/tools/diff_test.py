#!/usr/bin/python3
"""`bsongen diff`, table-driven: one row per rule, each with the change it must report and its
verdict for readers (new code reading old data) and writers (old code reading new data). Then
the command line: text and JSON output, --for, exit codes."""

import json
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "generator"))

from bsongen_gen.diagnostics import SchemaError, SchemaErrors  # noqa: E402
from bsongen_gen.tools import diff, schemas  # noqa: E402
sys.path.insert(0, HERE)
import diff_pairs  # noqa: E402

BSONGEN = os.path.join(ROOT, "generator", "bsongen")

OK, BREAKS = False, True


def struct(fields: str, options: str = "", enums: str = "", extra: str = "") -> str:
    """A schema with struct `s` holding `fields` (one YAML line each, `;`-separated)."""
    lines = ["enums:", *("  " + e for e in enums.split(";") if e.strip())] if enums else []
    lines += ["structs:", "  s:", *("    " + o.strip() for o in options.split(";") if o.strip()),
              "    fields:", *("      " + f.strip() for f in fields.split(";") if f.strip())]
    if extra:
        lines += ["  " + line for line in textwrap.dedent(extra).splitlines()]
    return "\n".join(lines) + "\n"


# (name, old schema, new schema, path of the change, rules, readers break?, writers break?)
FIELD_ROWS = [
    ("added required field", struct("a: int32"), struct("a: int32; b: {type: int32, required: true}"),
     "s.b", ["field_added"], BREAKS, OK),
    ("added optional field", struct("a: int32"), struct("a: int32; b: int32?"),
     "s.b", ["field_added"], OK, OK),
    ("added field with a default", struct("a: int32"), struct("a: int32; b: {type: int32, default: 3}"),
     "s.b", ["field_added"], OK, OK),
    ("added field, old code rejects unknown fields", struct("a: int32", "unknown_fields: reject"),
     struct("a: int32; b: int32?", "unknown_fields: reject"), "s.b", ["field_added"], OK, BREAKS),
    ("removed required field", struct("a: int32; b: {type: int32, required: true}"),
     struct("a: int32"), "s.b", ["field_removed"], OK, BREAKS),
    ("removed optional field", struct("a: int32; b: int32?"), struct("a: int32"),
     "s.b", ["field_removed"], OK, OK),
    ("removed field, new code rejects unknown fields", struct("a: int32; b: int32?", "unknown_fields: reject"),
     struct("a: int32", "unknown_fields: reject"), "s.b", ["field_removed"], BREAKS, OK),
    ("int32 -> int64 widens", struct("a: int32"), struct("a: int64"),
     "s.a", ["type_widened"], OK, BREAKS),
    ("binary vector dtype changes", struct("a: binary_vector<float32>"),
     struct("a: binary_vector<int8>"), "s.a", ["vector_dtype_changed"], BREAKS, BREAKS),
    ("binary vector fixed dimension changes", struct('a: "binary_vector<float32, 3>"'),
     struct('a: "binary_vector<float32, 4>"'), "s.a", ["vector_dimension_changed"], BREAKS,
     BREAKS),
    ("binary vector fixed dimension dropped", struct('a: "binary_vector<int8, 3>"'),
     struct("a: binary_vector<int8>"), "s.a", ["vector_dimension_changed"], OK, BREAKS),
    ("binary vector fixed dimension added", struct("a: binary_vector<int8>"),
     struct('a: "binary_vector<int8, 3>"'), "s.a", ["vector_dimension_changed"], BREAKS, OK),
    ("binary -> binary vector narrows", struct("a: binary"), struct("a: binary_vector<packed_bit>"),
     "s.a", ["type_narrowed"], BREAKS, OK),
    ("binary vector -> binary widens", struct("a: binary_vector<float32>"), struct("a: binary"),
     "s.a", ["type_widened"], OK, BREAKS),
    ("int64 -> int32 narrows", struct("a: int64"), struct("a: int32"),
     "s.a", ["type_narrowed"], BREAKS, OK),
    ("int32 -> double widens", struct("a: int32"), struct("a: double"),
     "s.a", ["type_widened"], OK, BREAKS),
    ("int64 -> double changes", struct("a: int64"), struct("a: double"),
     "s.a", ["type_changed"], BREAKS, BREAKS),
    # An optional or nullable reader reads a null (as absent, or as null).
    ("null -> nullable<int32> widens", struct('a: "null"'), struct("a: nullable<int32>"),
     "s.a", ["nullable_added", "type_widened"], OK, BREAKS),
    ("null -> int32? widens", struct('a: "null"'), struct("a: int32?"),
     "s.a", ["type_widened", "presence_changed"], OK, BREAKS),
    # A raw document's values are of any type; a map's are its element type.
    ("raw_document -> map narrows", struct("a: raw_document"), struct("a: map<string, int32>"),
     "s.a", ["type_narrowed"], BREAKS, OK),
    ("map -> raw_document widens", struct("a: map<string, int32>"), struct("a: raw_document"),
     "s.a", ["type_widened"], OK, BREAKS),
    ("raw_document -> map of any", struct("a: raw_document"), struct("a: map<string, any>"),
     "s.a", ["type_changed"], OK, OK),
    ("string -> int32 changes", struct("a: string"), struct("a: int32"),
     "s.a", ["type_changed"], BREAKS, BREAKS),
    ("int32 -> number<int64> widens", struct("a: int32"), struct("a: number<int64>"),
     "s.a", ["type_widened"], OK, BREAKS),
    ("number<double> -> double narrows", struct("a: number<double>"), struct("a: double"),
     "s.a", ["type_narrowed"], BREAKS, OK),
    ("string -> any widens", struct("a: string"), struct("a: any"),
     "s.a", ["type_widened"], OK, BREAKS),
    ("any -> string narrows", struct("a: any"), struct("a: string"),
     "s.a", ["type_narrowed"], BREAKS, OK),
    ("binary -> uuid narrows", struct("a: binary"), struct("a: uuid"),
     "s.a", ["type_narrowed"], BREAKS, OK),
    ("uuid -> binary widens", struct("a: uuid"), struct("a: binary"),
     "s.a", ["type_widened"], OK, BREAKS),
    ("vector element widens", struct("a: vector<int32>"), struct("a: vector<int64>"),
     "s.a", ["type_widened"], OK, BREAKS),
    ("vector -> fixed array", struct("a: vector<int32>"), struct('a: "array<int32, 3>"'),
     "s.a", ["type_narrowed"], BREAKS, OK),
    ("array size change", struct('a: "array<int32, 3>"'), struct('a: "array<int32, 4>"'),
     "s.a", ["array_size_changed"], BREAKS, BREAKS),
    ("map value type change", struct("a: map<int32>"), struct("a: map<string>"),
     "s.a", ["type_changed"], BREAKS, BREAKS),
    ("string -> enum narrows", struct("a: string"), struct("a: e", enums="e: {storage: string, values: [x]}"),
     "s.a", ["type_narrowed"], BREAKS, OK),
    ("required -> optional", struct("a: {type: int32, required: true}"), struct("a: int32?"),
     "s.a", ["presence_changed"], OK, BREAKS),
    ("optional -> required", struct("a: int32?"), struct("a: {type: int32, required: true}"),
     "s.a", ["presence_changed"], BREAKS, OK),
    ("plain -> optional", struct("a: int32"), struct("a: int32?"),
     "s.a", ["presence_changed"], OK, OK),
    ("omit_empty on a field old code requires", struct("a: {type: string, required: true}"),
     struct("a: {type: string, omit_empty: true}"),
     "s.a", ["presence_changed"], OK, BREAKS),
    ("nullable added", struct("a: int32"), struct("a: nullable<int32>"),
     "s.a", ["nullable_added"], OK, BREAKS),
    ("nullable removed", struct("a: nullable<int32>"), struct("a: int32"),
     "s.a", ["nullable_removed"], BREAKS, OK),
    ("optional -> optional nullable (old code reads null as absent)", struct("a: int32?"),
     struct("a: optional<nullable<int32>>"), "s.a", ["nullable_added"], OK, OK),
    ("nullable -> any", struct("a: nullable<int32>"), struct("a: any"),
     "s.a", ["nullable_removed", "type_widened"], OK, BREAKS),
    ("key renamed", struct("a: {type: int32, key: old_key}"), struct("a: {type: int32, key: new_key}"),
     "s.a", ["key_renamed"], BREAKS, BREAKS),
    ("member renamed, same key", struct("a: {type: int32, key: k}"), struct("b: {type: int32, key: k}"),
     "s.b", ["member_renamed"], OK, OK),
    ("C++ spelling narrows the range", struct("a: int32"), struct("a: {type: int32, cpp: std::uint8_t}"),
     "s.a", ["cpp_changed"], BREAKS, OK),
    ("C++ spelling widens the range", struct("a: {type: int32, cpp: std::int16_t}"), struct("a: int32"),
     "s.a", ["cpp_changed"], OK, BREAKS),
    # A container's spelling holds its elements in the narrower type: the decoder refuses 300 there.
    ("C++ spelling narrows a vector's elements", struct("a: vector<int32>"),
     struct('a: {type: vector<int32>, cpp: "std::vector<std::uint8_t>"}'),
     "s.a", ["cpp_changed"], BREAKS, OK),
    ("C++ spelling narrows an optional", struct("a: int32?"),
     struct('a: {type: "optional<int32>", cpp: "std::optional<std::int8_t>"}'),
     "s.a", ["cpp_changed"], BREAKS, OK),
    # A double held in an integer refuses fractions; an int64 in std::uint64_t refuses negatives.
    ("C++ spelling holds a double in an integer", struct("a: double"),
     struct("a: {type: double, cpp: std::int16_t}"), "s.a", ["cpp_changed"], BREAKS, OK),
    ("C++ spelling holds an int64 unsigned", struct("a: int64"),
     struct("a: {type: int64, cpp: std::uint64_t}"), "s.a", ["cpp_changed"], BREAKS, OK),
    ("C++ spelling widens a map's values",
     struct('a: {type: "map<string, int64>", cpp: "std::vector<std::pair<std::string, std::uint16_t>>"}'),
     struct('a: {type: "map<string, int64>", cpp: "std::unordered_map<std::string, std::int64_t>"}'),
     "s.a", ["cpp_changed"], OK, BREAKS),
    ("default changed", struct("a: {type: int32, default: 1}"), struct("a: {type: int32, default: 2}"),
     "s.a", ["default_changed"], OK, OK),
]

ENUM = "e: {storage: string, values: [a, b]}"
STRUCT_ROWS = [
    ("unknown_fields skip -> reject", struct("a: int32"), struct("a: int32", "unknown_fields: reject"),
     "s", ["unknown_fields_changed"], BREAKS, OK),
    ("unknown_fields reject -> skip", struct("a: int32", "unknown_fields: reject"), struct("a: int32"),
     "s", ["unknown_fields_changed"], OK, OK),
    ("unknown_fields reject -> capture", struct("a: int32", "unknown_fields: reject"),
     struct("a: int32", "unknown_fields: capture; capture_member: extra"),
     "s", ["unknown_fields_changed"], OK, BREAKS),
    ("duplicate_keys last_wins -> reject", struct("a: int32"), struct("a: int32", "duplicate_keys: reject"),
     "s", ["duplicate_keys_changed"], BREAKS, OK),
    ("struct added", struct("a: int32"), struct("a: int32", extra="t:\n  fields:\n    x: int32"),
     "t", ["struct_added"], OK, OK),
    # A root struct (no other refers to it) is what documents are stored as: removed, they have no
    # struct to be read as. One only read inside a field is judged on that field.
    ("root struct removed", struct("a: int32", extra="t:\n  fields:\n    x: int32"), struct("a: int32"),
     "t", ["struct_removed"], BREAKS, OK),
    ("struct removed, no field refers to it now", struct("a: t", extra="t:\n  fields:\n    x: int32"),
     struct("a: int32"), "t", ["struct_removed"], OK, OK),
    ("nested struct field change", struct("a: t", extra="t:\n  fields:\n    x: int32"),
     struct("a: t", extra="t:\n  fields:\n    x: int64"), "t.x", ["type_widened"], OK, BREAKS),
    ("struct renamed", struct("a: t", extra="t:\n  fields:\n    x: int32"),
     struct("a: u", extra="u:\n  fields:\n    x: int32"), "u", ["struct_renamed"], OK, OK),
    ("renamed struct compared with its new self", struct("a: t", extra="t:\n  fields:\n    x: int32"),
     struct("a: u", extra="u:\n  fields:\n    x: string"), "u.x", ["type_changed"], BREAKS, BREAKS),
    ("enum value removed", struct("a: e", enums=ENUM), struct("a: e", enums="e: {storage: string, values: [a]}"),
     "e.b", ["enum_value_removed"], BREAKS, OK),
    ("enum value added", struct("a: e", enums=ENUM), struct("a: e", enums="e: {storage: string, values: [a, b, c]}"),
     "e.c", ["enum_value_added"], OK, BREAKS),
    ("enum stored name changed", struct("a: e", enums=ENUM),
     struct("a: e", enums="e: {storage: string, values: {a: , b: {bson_name: B}}}"),
     "e.b", ["enum_value_renamed"], BREAKS, BREAKS),
    ("int32 enum value renumbered", struct("a: e", enums="e: {values: {a: 1, b: 2}}"),
     struct("a: e", enums="e: {values: {a: 1, b: 3}}"), "e.b", ["enum_value_renamed"], BREAKS, BREAKS),
    ("enum storage changed", struct("a: e", enums=ENUM), struct("a: e", enums="e: {storage: int32, values: [a, b]}"),
     "e", ["enum_storage_changed"], BREAKS, BREAKS),
    ("enum renamed", struct("a: e", enums=ENUM), struct("a: f", enums="f: {storage: string, values: [a, b]}"),
     "f", ["enum_renamed"], OK, OK),
]


class RulesTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def load(self, name: str, text: str):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(text)
        return schemas.load(path)

    def check_rows(self, rows):
        for name, old, new, path, rules, readers, writers in rows:
            with self.subTest(name):
                changes = diff.compare(self.load("old.yaml", old), self.load("new.yaml", new))
                found = [c for c in changes if c.path == path]
                self.assertEqual(len(found), 1, f"{name}: {[(c.path, c.rules) for c in changes]}")
                change = found[0]
                if rules is not None:
                    self.assertEqual(change.rules, rules, name)
                self.assertEqual(change.readers.breaking, readers, f"{name}: {change.readers}")
                self.assertEqual(change.writers.breaking, writers, f"{name}: {change.writers}")
                for verdict in (change.readers, change.writers):
                    self.assertEqual(bool(verdict.reason), verdict.breaking,
                                     "a breaking verdict says why, a compatible one does not")

    def test_field_rules(self):
        self.check_rows(FIELD_ROWS)

    def test_struct_and_enum_rules(self):
        self.check_rows(STRUCT_ROWS)

    def refused(self, row) -> bool:
        """Whether the generator refuses one of a row's schemas (a spelling its code cannot
        compile, once the linker checks spellings)."""
        try:
            for t in (row.old, row.new):
                self.load("probe.yaml", struct("v: " + diff_pairs.field_type(t, "e"),
                                                enums=f"e: {row.enum}" if row.enum else ""))
        except (SchemaError, SchemaErrors):
            return True
        return False

    def conversion_rows(self, swapped: bool = False):
        """diff_pairs.ROWS as rows of check_rows (field `s.v`). Swapped, NEW -> OLD: readers'
        verdict is the other way's writers' and the reverse (rules aside: widened reads
        narrowed)."""
        for row in diff_pairs.ROWS:
            if not row.decodes and self.refused(row):
                continue  # the generator refuses the spelling: diff exits 2 on it
            old, new = (struct("v: " + diff_pairs.field_type(t, "e"),
                               enums=f"e: {row.enum}" if row.enum else "")
                        for t in ((row.new, row.old) if swapped else (row.old, row.new)))
            if swapped:
                yield (f"{row.name}, swapped", old, new, "s.v", None, row.writers, row.readers)
            else:
                yield (row.name, old, new, "s.v", row.rules, row.readers, row.writers)

    def test_conversions(self):
        self.check_rows(self.conversion_rows())

    def test_conversions_swapped(self):
        self.check_rows(self.conversion_rows(swapped=True))

    def test_no_changes_and_no_wire_changes(self):
        same = struct("a: int32; b: {type: string, doc: words}")
        self.assertEqual(diff.compare(self.load("o.yaml", same), self.load("n.yaml", same)), [])
        # A doc comment or a C++ enumerator name with the same stored name changes no bytes.
        old = struct("a: e; b: int32", enums="e: {storage: string, values: {x: {bson_name: X}}}")
        new = struct("a: e; b: {type: int32, doc: now documented}",
                     enums="e: {storage: string, values: {y: {bson_name: X}}}")
        self.assertEqual(diff.compare(self.load("o.yaml", old), self.load("n.yaml", new)), [])

    def test_field_order_alone_is_no_change(self):
        changes = diff.compare(self.load("o.yaml", struct("a: int32; b: int32")),
                               self.load("n.yaml", struct("b: int32; a: int32")))
        self.assertEqual(changes, [])

    def test_recursive_renamed_struct_terminates(self):
        old = struct("a: t", extra="t:\n  fields:\n    kids: vector<t>\n    v: int32")
        new = struct("a: u", extra="u:\n  fields:\n    kids: vector<u>\n    v: int64")
        changes = diff.compare(self.load("o.yaml", old), self.load("n.yaml", new))
        self.assertEqual({c.path: c.rules for c in changes},
                         {"u": ["struct_renamed"], "s.a": ["type_changed"],
                          "u.kids": ["type_changed"], "u.v": ["type_widened"]})
        renamed_field = next(c for c in changes if c.path == "s.a")
        self.assertFalse(renamed_field.readers.breaking or renamed_field.writers.breaking)


def schema(**structs: str) -> str:
    """A schema of structs given as `name="field: type; field: type"`."""
    lines = ["structs:"]
    for name, fields in structs.items():
        lines += [f"  {name}:", "    fields:", *("      " + f.strip() for f in fields.split(";"))]
    return "\n".join(lines) + "\n"


class PairingTest(unittest.TestCase):
    """Structs of different names: the two roots (what `infer` names after two collections), or
    the pairs --struct gives."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def compare(self, old: str, new: str, pairs=None):
        models = []
        for name, text in (("old.yaml", old), ("new.yaml", new)):
            path = os.path.join(self.tmp.name, name)
            with open(path, "w") as f:
                f.write(text)
            models.append(schemas.load(path))
        changes, pairings = diff.compare_paired(*models, pairs)
        return {c.path: c for c in changes}, pairings

    def test_roots_of_different_names_are_compared(self):
        changes, pairings = self.compare(schema(orders_2023="id: int32; qty: int32"),
                                         schema(orders_2024="id: int64; qty: int32"))
        self.assertEqual(sorted(changes), ["orders_2024", "orders_2024.id"])
        self.assertEqual(changes["orders_2024"].rules, ["struct_renamed"])
        self.assertIn("one root struct of each schema", changes["orders_2024"].summary)
        self.assertEqual(changes["orders_2024.id"].rules, ["type_widened"])
        self.assertTrue(changes["orders_2024.id"].writers.breaking)
        self.assertEqual(pairings, [{"old": "orders_2023", "new": "orders_2024", "by": "root"}])

    def test_roots_pair_their_nested_structs(self):
        old = schema(orders_a="items: vector<orders_a_items>", orders_a_items="x: int32")
        new = schema(orders_b="items: vector<orders_b_items>", orders_b_items="x: string")
        changes, pairings = self.compare(old, new)
        self.assertEqual({p["new"]: p["by"] for p in pairings},
                         {"orders_b": "root", "orders_b_items": "reference"})
        self.assertEqual(changes["orders_b_items.x"].rules, ["type_changed"])
        self.assertTrue(changes["orders_b_items.x"].readers.breaking)
        self.assertFalse(any("struct_added" in c.rules or "struct_removed" in c.rules
                             for c in changes.values()))

    def test_several_roots_are_not_paired(self):
        old = schema(a="x: int32", b="y: int32")
        new = schema(a="x: int32", c="y: int64")
        changes, pairings = self.compare(old, new)
        self.assertEqual(pairings, [])
        self.assertEqual(changes["b"].rules, ["struct_removed"])
        self.assertTrue(changes["b"].readers.breaking)
        self.assertIn("--struct b=NEW", changes["b"].readers.reason)
        self.assertFalse(changes["b"].writers.breaking)
        self.assertEqual(changes["c"].rules, ["struct_added"])
        self.assertFalse(changes["c"].readers.breaking or changes["c"].writers.breaking)

    def test_struct_pairs_explicitly(self):
        old = schema(a="x: int32", b="y: int32")
        new = schema(a="x: int32", c="y: int64")
        changes, pairings = self.compare(old, new, {"b": "c"})
        self.assertEqual(pairings, [{"old": "b", "new": "c", "by": "--struct"}])
        self.assertIn("paired by --struct", changes["c"].summary)
        self.assertEqual(changes["c.y"].rules, ["type_widened"])
        self.assertNotIn("b", changes)
        # A pairing overrides names: old `a` against new `c`, new `a` is then added.
        changes, _ = self.compare(old, new, {"a": "c"})
        self.assertEqual(changes["a"].rules, ["struct_added"])
        self.assertEqual(changes["b"].rules, ["struct_removed"])
        with self.assertRaises(diff.PairingError):
            self.compare(old, new, {"a": "nothing"})
        with self.assertRaises(diff.PairingError):
            self.compare(old, new, {"nothing": "a"})
        with self.assertRaises(diff.PairingError):
            self.compare(old, new, {"a": "c", "b": "c"})


class CommandLineTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def write(self, name: str, text: str) -> str:
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def run_diff(self, *args) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, BSONGEN, "diff", *args], capture_output=True,
                              text=True)

    def test_exit_codes_and_directions(self):
        old = self.write("old.yaml", struct("a: int32"))
        widened = self.write("widened.yaml", struct("a: int64"))          # breaks writers only
        optional = self.write("optional.yaml", struct("a: int32; b: int32?"))  # compatible
        cases = [((old, old), 0), ((old, optional), 0), ((old, widened), 1),
                 ((old, widened, "--for", "readers"), 0), ((old, widened, "--for", "writers"), 1),
                 ((old, widened, "--for", "both"), 1), ((widened, old, "--for", "readers"), 1),
                 ((old,), 2), ((old, widened, "--for", "nobody"), 2),
                 ((old, os.path.join(self.tmp.name, "missing.yaml")), 2)]
        for args, status in cases:
            self.assertEqual(self.run_diff(*args).returncode, status, args)

    def test_schema_error_exits_2_with_location(self):
        old = self.write("old.yaml", struct("a: int32"))
        bad = self.write("bad.yaml", struct("a: in32"))
        r = self.run_diff(old, bad)
        self.assertEqual(r.returncode, 2)
        self.assertIn("bad.yaml:4:10: error: unknown type `in32`", r.stderr)

    def test_text_output(self):
        old = self.write("old.yaml", struct("a: int32; b: {type: string, key: k}"))
        new = self.write("new.yaml", struct("a: int64; b: {type: string, key: K}; c: bool?"))
        r = self.run_diff(old, new)
        lines = r.stdout.splitlines()
        self.assertEqual(len(lines), 4, r.stdout)
        self.assertTrue(lines[0].startswith(new + ":4:7: breaking for writers: s.a: type int32 -> "
                                            "int64 (widened) -- writers: int64 writes long, "
                                            "which int32 does not read"), lines[0])
        self.assertIn("breaking for readers and writers: s.b: key `k` renamed to `K`", lines[1])
        self.assertIn("compatible: s.c: optional field `c` added (bool?)", lines[2])
        self.assertEqual(lines[3], "bsongen diff: 3 change(s), 1 breaking for readers (new "
                         "code, old data), 2 breaking for writers (old code, new data); "
                         "checked: readers and writers")

    def test_struct_pairing(self):
        old = self.write("old.yaml", schema(orders_2023="id: int32"))
        new = self.write("new.yaml", schema(orders_2024="id: int64"))
        r = self.run_diff(old, new, "--for", "readers")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("compatible: orders_2024: struct orders_2023 renamed to orders_2024: paired "
                      "as the one root struct of each schema", r.stdout)
        self.assertIn("; structs paired: orders_2023 -> orders_2024 (root)", r.stdout)
        self.assertEqual(self.run_diff(old, new).returncode, 1)  # id widened: breaks writers
        two = self.write("two.yaml", schema(orders_2023="id: int32", audit="at: int32"))
        r = self.run_diff(two, new, "--struct", "orders_2023=orders_2024", "--json")
        data = json.loads(r.stdout)
        self.assertEqual(data["paired"], [{"old": "orders_2023", "new": "orders_2024",
                                           "by": "--struct"}])
        self.assertEqual(r.returncode, 1)
        r = self.run_diff(two, new)  # two roots: nothing paired; both old structs removed
        self.assertEqual(r.returncode, 1)
        self.assertIn("breaking for readers: orders_2023: struct removed (a root struct)", r.stdout)
        for bad in ("orders_2023", "=orders_2024", "orders_2023=", "nothing=orders_2024",
                    "orders_2023=nothing"):
            r = self.run_diff(two, new, "--struct", bad)
            self.assertEqual(r.returncode, 2, bad)
            self.assertIn("--struct", r.stderr, bad)

    def test_json_output(self):
        old = self.write("old.yaml", struct("a: int32"))
        new = self.write("new.yaml", struct("a: int64"))
        r = self.run_diff(old, new, "--json", "--for", "readers")
        self.assertEqual(r.returncode, 0)
        data = json.loads(r.stdout)
        self.assertEqual(data["checked"], ["readers"])
        self.assertFalse(data["fails"])
        self.assertEqual(data["breaking"], {"readers": 0, "writers": 1})
        (change,) = data["changes"]
        self.assertEqual(change["path"], "s.a")
        self.assertEqual(change["key"], "a")
        self.assertEqual(change["rules"], ["type_widened"])
        self.assertEqual(change["writers"]["breaking"], True)
        self.assertEqual(change["location"], new + ":4:7")


def shop(order_fields: str, kept: str, customer_name: str = "string") -> str:
    """A schema of an order, its customer, and a projection `summary` keeping `kept`."""
    lines = ["structs:", "  customer:", "    fields:",
             f"      name: {{type: {customer_name}, required: true}}", "      email: string",
             "  order:", "    fields:", *("      " + f.strip() for f in order_fields.split(";")),
             "  summary:", "    projection_of: order", f"    fields: [{kept}]"]
    return "\n".join(lines) + "\n"


ORDER = "id: {type: object_id, key: _id, required: true}; total: decimal128; customer: customer"


class ProjectionTest(unittest.TestCase):
    """A projection reads documents its source writes: its fields are judged against the
    source's, and a kept field the source drops breaks old code."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def write(self, name: str, text: str) -> str:
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def changes(self, old: str, new: str) -> dict:
        models = [schemas.load(self.write(n, t)) for n, t in (("old.yaml", old), ("new.yaml", new))]
        return {c.path: c for c in diff.compare(*models)}

    def test_a_kept_field_the_source_drops_breaks_old_code(self):
        found = self.changes(shop(ORDER, "id, total"), shop(ORDER.replace("; total: decimal128", ""),
                                                           "id"))
        change = found["summary.total"]
        self.assertEqual(change.rules, ["kept_field_dropped_by_source"])
        self.assertFalse(change.readers.breaking)
        self.assertTrue(change.writers.breaking)
        self.assertIn("old code reading documents as summary keeps `total`, which order no longer "
                      "writes: it reads the default", change.writers.reason)
        # The source's own line: removing an optional field of a struct is compatible.
        self.assertFalse(found["order.total"].writers.breaking)

    def test_a_projection_that_stops_keeping_a_field_the_source_writes_is_compatible(self):
        found = self.changes(shop(ORDER, "id, total"), shop(ORDER, "id"))
        change = found["summary.total"]
        self.assertEqual(change.rules, ["field_removed"])
        self.assertFalse(change.readers.breaking or change.writers.breaking)

    def test_a_kept_field_the_source_retypes_breaks_both_ways(self):
        found = self.changes(shop(ORDER, "id, customer.name"),
                             shop(ORDER, "id, customer.name", customer_name="int64"))
        for path in ("summary.customer", "summary_customer.name", "customer.name"):
            self.assertTrue(found[path].readers.breaking and found[path].writers.breaking, path)
        self.assertIn("struct customer -> summary_customer", found["summary.customer"].readers.reason)

    def test_projections_are_not_roots(self):
        self.assertEqual(diff.roots(schemas.load(self.write("s.yaml", shop(ORDER, "id")))),
                         ["order"])

    def test_a_source_dropping_a_field_its_projection_keeps_is_a_schema_error(self):
        old = self.write("old.yaml", shop(ORDER, "id, total"))
        new = self.write("new.yaml", shop(ORDER.replace("; total: decimal128", ""), "id, total"))
        r = subprocess.run([sys.executable, BSONGEN, "diff", old, new], capture_output=True,
                           text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("new.yaml:12:18: error: projection `summary`: `total`: struct `order` has no "
                      "member `total`", r.stderr)


if __name__ == "__main__":
    unittest.main()
