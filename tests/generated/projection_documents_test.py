#!/usr/bin/python3
"""The projection document of every struct of the schemas in schemas/ and bench/schemas/ asks for
exactly the keys the struct reads (docs/schema-format.md, "Projection documents").

  projection_documents_test.py --write-build-files DIR SCHEMA...
      generates each schema's header into DIR and writes a program (dump_<i>.cpp for the i-th
      schema, and main.cpp) that decodes bsongen::projection<T>() of every struct with the generic path and
      prints it as canonical Extended JSON, one line per struct: `<struct>\\t<json>`;
  projection_documents_test.py PROGRAM SCHEMA...
      runs it and checks each document against the struct's fields in the linked model, and
      against what `bsongen projection` prints.

The check does not recompute the document: it checks what any correct one satisfies. A struct
that captures unknown fields, or has a key no dotted path can name, asks for everything: {}. Any
other: int32 values; `_id` first with 0 when the struct has no `_id` field; a struct without
fields asks for `_id: 1` alone; every other entry is 1 and names a field through the model (keys
joined by dots, into structs held directly or in an optional, nullable, vector or array); no
entry is inside another; and every field of the struct is asked for, whole or through entries
for all the fields of the struct it holds, at every level an entry goes into.
"""

import json
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "generator"))

from bsongen_gen import linker, render, schema_reader  # noqa: E402

BSONGEN = os.path.join(ROOT, "generator", "bsongen")


def load(path: str):
    return linker.link(schema_reader.read_schema(path))


def qualified(model, name: str) -> str:
    return f"::{model.namespace}::{name}" if model.namespace else f"::{name}"


def write_build_files(out: str, schemas: list[str]) -> None:
    os.makedirs(out, exist_ok=True)
    calls = []
    for index, path in enumerate(schemas):
        model = load(path)
        # The light header: the projection is a constant of codec<T> there.
        header = f"{model.output_name}.bsongen.hpp"
        write_if_changed(os.path.join(out, header), render.render(model)[header])
        function = f"dump_{index}"
        calls.append(function)
        lines = [f'#include "{model.output_name}.bsongen.hpp"', '#include "dump_support.hpp"', "",
                 f"void {function}() {{"]
        for s in model.structs:
            lines.append(f'  dump<{qualified(model, s.name)}>("{qualified(model, s.name)}");')
        lines.append("}")
        write_if_changed(os.path.join(out, f"{function}.cpp"), "\n".join(lines) + "\n")
    main = ['#include "dump_support.hpp"', ""]
    main += [f"void {f}();" for f in calls]
    main += ["", "int main() {", *(f"  {f}();" for f in calls), "  return 0;", "}"]
    write_if_changed(os.path.join(out, "main.cpp"), "\n".join(main) + "\n")
    write_if_changed(os.path.join(out, "dump_support.hpp"), DUMP_SUPPORT)


DUMP_SUPPORT = """#pragma once
// Prints `<name>\\t<canonical Extended JSON>` of bsongen::projection<T>(), read by the generic
// path (decode_document): what the server would take.
#include <cstdio>
#include "bsongen/document.hpp"
#include "bsongen/extjson.hpp"
#include "bsongen/query.hpp"

template <class T>
void dump(const char* name) {
  const auto document = bsongen::decode_document(bsongen::projection<T>());
  if (!document) {
    std::printf("%s\\terror %s\\n", name, document.error().to_string().c_str());
    return;
  }
  std::printf("%s\\t%s\\n", name,
              bsongen::to_extjson(*document, bsongen::extjson_mode::canonical).c_str());
}
"""


def write_if_changed(path: str, text: str) -> None:
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


# --- The check. ---

def path_struct(field):
    """The struct a dotted path continues into from this (linked) field, or None."""
    t = field.type
    while t.kind in ("optional", "nullable"):
        t = t.element
    if t.kind in ("vector", "array"):
        t = t.element
        while t.kind in ("optional", "nullable"):
            t = t.element
    return t.definition if t.kind == "struct" else None


def nameable(key: str) -> bool:
    return "." not in key and not key.startswith("$")


def problems(s, entries: list) -> list[str]:
    """Why `entries` ([(key, value)] in order) is not a projection asking for exactly what struct
    s reads."""
    out = []
    if any(not isinstance(v, dict) or set(v) != {"$numberInt"} for _, v in entries):
        return [f"values are not all int32: {entries}"]
    values = [(k, int(v["$numberInt"])) for k, v in entries]
    everything = s.unknown_fields == "capture" or any(not nameable(f.key) for f in s.fields)
    if everything:
        return [] if not values else [f"should be {{}} (captures or unnameable key): {values}"]
    keys = {f.key for f in s.fields}
    if not s.fields:
        return [] if values == [("_id", 1)] else [f"a struct without fields: {values}"]
    if "_id" not in keys:
        if not values or values[0] != ("_id", 0):
            out.append(f"no `_id` field, so `_id: 0` first: {values}")
        values = values[1:]
    paths = []
    for k, v in values:
        if v != 1:
            out.append(f"`{k}` is {v}, not 1")
        paths.append(k)
    if len(set(paths)) != len(paths):
        out.append(f"a path twice: {paths}")
    for a in paths:
        for b in paths:
            if a != b and b.startswith(a + "."):
                out.append(f"`{b}` is inside `{a}`")
    out += coverage(s, "", paths)
    return out


def coverage(s, prefix: str, paths: list[str]) -> list[str]:
    """Every field of s (at `prefix`) asked for, whole or through all of its struct's fields;
    every path below `prefix` naming a field of s."""
    out = []
    mine = [p[len(prefix):] for p in paths if p.startswith(prefix)]
    by_head = {}
    for p in mine:
        head, _, rest = p.partition(".")
        by_head.setdefault(head, []).append(rest)
    fields = {f.key: f for f in s.fields}
    for head in by_head:
        if head not in fields:
            out.append(f"`{prefix}{head}` names no field of {s.name}")
    for key, f in fields.items():
        below = by_head.get(key)
        if below is None:
            out.append(f"`{prefix}{key}` ({s.name}.{f.name}) is not asked for")
        elif below != [""]:
            inner = path_struct(f)
            if inner is None:
                out.append(f"`{prefix}{key}` goes into a field holding no struct")
            else:
                out += coverage(inner, f"{prefix}{key}.", paths)
    return out


class ProjectionDocumentsTest(unittest.TestCase):
    program = ""
    schemas: list[str] = []

    def test_every_struct_asks_for_exactly_what_it_reads(self):
        run = subprocess.run([self.program], capture_output=True, text=True)
        self.assertEqual(run.returncode, 0, run.stderr)
        printed = dict(line.split("\t", 1) for line in run.stdout.splitlines())
        checked = 0
        for path in self.schemas:
            model = load(path)
            for s in model.structs:
                name = qualified(model, s.name)
                with self.subTest(struct=name, schema=path):
                    self.assertIn(name, printed)
                    self.assertFalse(printed[name].startswith("error"), printed[name])
                    entries = list(json.loads(printed[name]).items())
                    self.assertEqual(problems(s, entries), [])
                    # `bsongen projection` prints the same document (relaxed: plain numbers).
                    tool = subprocess.run([sys.executable, BSONGEN, "projection", path, s.name],
                                          capture_output=True, text=True)
                    self.assertEqual(tool.returncode, 0, tool.stderr)
                    self.assertEqual(json.loads(tool.stdout),
                                     {k: int(v["$numberInt"]) for k, v in entries})
                    checked += 1
        print(f"projection documents: {checked} structs checked", file=sys.stderr)
        self.assertGreater(checked, 0)

    def test_the_check_refuses_wrong_documents(self):
        """problems() is not vacuous: documents missing a field, with an extra one, with a field
        both whole and in part, or without `_id: 0` are refused."""
        model = load(os.path.join(ROOT, "schemas", "orders.yaml"))
        customer = next(s for s in model.structs if s.name == "customer")
        one = {"$numberInt": "1"}
        good = [("_id", one), ("name", one), ("email", one), ("shipping", one), ("billing", one)]
        self.assertEqual(problems(customer, good), [])
        self.assertTrue(problems(customer, good[:-1]))
        self.assertTrue(problems(customer, good + [("phone", one)]))
        self.assertTrue(problems(customer, good + [("shipping.city", one)]))
        self.assertTrue(problems(customer, good[:3] + [("shipping.city", one), ("billing", one)]))
        address = next(s for s in model.structs if s.name == "address")
        self.assertTrue(problems(address, [("street", one), ("city", one), ("postalCode", one),
                                           ("country", one)]))
        order = next(s for s in model.structs if s.name == "order")
        self.assertTrue(problems(order, [("_id", one)]))


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--write-build-files":
        write_build_files(sys.argv[2], sys.argv[3:])
        sys.exit(0)
    ProjectionDocumentsTest.program = sys.argv[1]
    ProjectionDocumentsTest.schemas = sys.argv[2:]
    unittest.main(argv=[sys.argv[0]])
