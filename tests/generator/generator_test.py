#!/usr/bin/python3
"""Unit tests of the generator: diagnostics, validation, the model JSON and the CLI's exit codes."""

import json
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "generator"))

from bsongen_gen import linker, model, render, schema_reader  # noqa: E402
from bsongen_gen.diagnostics import SchemaError, SchemaErrors  # noqa: E402

BSONGEN = os.path.join(ROOT, "generator", "bsongen")


class SchemaCase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, text: str, name: str = "s.yaml") -> str:
        path = os.path.join(self.tmp.name, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(textwrap.dedent(text))
        return path

    def errors(self, text: str) -> list[str]:
        path = self.write(text)
        try:
            linker.link(schema_reader.read_schema(path, "s.yaml"))
        except SchemaErrors as e:
            return [str(x) for x in e.errors]
        except SchemaError as e:
            return [str(e)]
        self.fail("the schema was accepted")

    def run_cli(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, BSONGEN, *args], capture_output=True, text=True)


class DiagnosticsTest(SchemaCase):
    def test_unknown_type_names_position_and_suggests(self):
        errs = self.errors("""\
            structs:
              item:
                fields:
                  qty: in32
            """)
        self.assertEqual(len(errs), 1)
        self.assertIn("s.yaml:4:12: error: unknown type `in32`", errs[0])
        self.assertIn("did you mean `int32`?", errs[0])

    def test_unknown_struct_reference_suggests_defined_struct(self):
        errs = self.errors("""\
            structs:
              address:
                fields: {city: string}
              person:
                fields:
                  home: vector<adress>
            """)
        self.assertIn("unknown type `adress`", errs[0])
        self.assertIn("did you mean `address`?", errs[0])

    def test_unknown_option_suggests(self):
        errs = self.errors("""\
            structs:
              item:
                unknown_field: reject
                fields: {a: int32}
            """)
        self.assertIn("s.yaml:3:5: error: struct `item`: unknown option `unknown_field`", errs[0])
        self.assertIn("did you mean `unknown_fields`?", errs[0])

    def test_cycle_without_indirection_is_an_error(self):
        errs = self.errors("""\
            structs:
              a:
                fields: {b: b}
              b:
                fields: {a: optional<a>}
            """)
        self.assertEqual(len(errs), 1)
        self.assertIn("struct cycle without indirection: a -> b -> a", errs[0])
        self.assertIn("s.yaml:2:3", errs[0])

    def test_cycle_through_vector_is_accepted(self):
        path = self.write("""\
            structs:
              node:
                fields: {children: vector<node>, value: int32}
            """)
        m = linker.link(schema_reader.read_schema(path))
        self.assertEqual([s.name for s in m.structs], ["node"])

    def test_duplicate_keys(self):
        errs = self.errors("""\
            structs:
              item:
                fields:
                  quantity: {type: int32, key: qty}
                  qty: int64
            """)
        self.assertIn("s.yaml:5:7: error: struct `item`: duplicate key `qty`", errs[0])
        self.assertIn("`quantity` at s.yaml:4:7 already uses it", errs[0])

    def test_duplicate_yaml_keys(self):
        errs = self.errors("""\
            structs:
              item:
                fields:
                  a: int32
                  a: int64
            """)
        self.assertIn("s.yaml:5:7: error: `item` fields: `a` appears twice", errs[0])

    def test_invalid_identifiers(self):
        errs = self.errors("""\
            namespace: my-app
            structs:
              item:
                fields:
                  class: int32
                  2nd: int32
                  _Big: int32
            """)
        text = "\n".join(errs)
        self.assertIn("namespace `my-app`", text)
        self.assertIn("s.yaml:5:7: error: field name `class` is a C++ keyword", text)
        self.assertIn("field name `2nd` is not a C++ identifier", text)
        self.assertIn("field name `_Big` is reserved", text)

    def test_every_problem_is_reported_at_once(self):
        errs = self.errors("""\
            structs:
              item:
                fields:
                  a: in32
                  b: strng
            """)
        self.assertEqual(len(errs), 2)

    def test_option_conflicts(self):
        errs = self.errors("""\
            enums:
              color: {values: [red, red]}
            structs:
              item:
                fields:
                  a: {type: optional<int32>, required: true}
                  b: {type: int32, omit_empty: true}
                  c: {type: color, default: blue}
                  d: vector<optional<int32>>
            """)
        text = "\n".join(errs)
        self.assertIn("duplicate name `red`", text)
        self.assertIn("optional and required at once", text)
        self.assertIn("omit_empty needs a type that can be empty", text)
        self.assertIn("default `blue` is not an enumerator", text)
        self.assertIn("`optional` is only allowed as a field's outermost type", text)

    def test_invalid_yaml_names_position(self):
        errs = self.errors("structs: {a: [\n")
        self.assertIn("s.yaml:2:1: error: invalid YAML", errs[0])


class ValueFormsTest(SchemaCase):
    """nullable<T>, number<T>, the javascript_with_scope kind and narrowed `cpp` members."""

    def link(self, text: str):
        return linker.link(schema_reader.read_schema(self.write(text), "s.yaml"))

    def test_nullable_and_number_are_accepted_where_documented(self):
        m = self.link("""\
            structs:
              p: {fields: {x: int32}}
              s:
                fields:
                  a: nullable<int32>
                  b: nullable<string>?
                  c: vector<nullable<p>>
                  d: map<nullable<number<double>>>
                  e: {type: "number<int64>", default: 3}
                  f: bsongen::number<double>
                  g: "array<nullable<bool>, 2>"
            """)
        fields = {f.name: f for f in m.structs[-1].fields}
        self.assertEqual(fields["a"].type.kind, "nullable")
        self.assertIsNone(fields["a"].type.type_byte)  # the value decides: null or int32
        self.assertTrue(fields["b"].is_optional)
        self.assertTrue(fields["b"].value_type.keeps_null)
        self.assertEqual(fields["f"].type.kind, "number")
        header = render.render(m)["s.bsongen.hpp"]
        self.assertIn("::bsongen::nullable<std::int32_t> a{};", header)
        self.assertIn("std::optional<::bsongen::nullable<std::string>> b{};", header)
        self.assertIn("::bsongen::number<std::int64_t> e = 3;", header)
        self.assertIn("::bsongen::detail::number_codec<::bsongen::detail::double_codec>", header)

    def test_nullable_and_number_misuse_is_diagnosed(self):
        errs = self.errors("""\
            structs:
              s:
                fields:
                  a: nullable<any>
                  b: number<int32>
                  c: nullable<nullable<int32>>
                  d: "nullable<null>"
                  e: {type: "number<int64>", default: 1.5}
                  f: {type: nullable<string>, omit_empty: true}
            """)
        text = "\n".join(errs)
        self.assertIn("s.yaml:4:10: error: `nullable<any>` is not allowed", text)
        self.assertIn("`any` holds a null itself", text)
        self.assertIn("s.yaml:5:10: error: `number` takes int64 or double, not `int32`", text)
        self.assertIn("`nullable<nullable>` is not allowed", text)
        self.assertIn("`nullable<null>` is not allowed", text)
        self.assertIn("default 1.5 is not an integer", text)
        self.assertIn("omit_empty needs a type that can be empty", text)
        self.assertEqual(len(errs), 6)

    def test_code_with_scope_is_an_alias_of_javascript_with_scope(self):
        m = self.link("structs: {s: {fields: {a: code_with_scope, b: javascript_with_scope}}}\n")
        kinds = [f.type.kind for f in m.structs[0].fields]
        self.assertEqual(kinds, ["javascript_with_scope", "javascript_with_scope"])
        header = render.render(m)["s.bsongen.hpp"]
        self.assertIn("::bsongen::javascript_with_scope a{};", header)
        self.assertNotIn("code_with_scope", header)

    def test_narrowed_members_of_fixed_structs_are_checked_on_encode(self):
        m = self.link("""\
            structs:
              s:
                fields:
                  a: {type: int32, cpp: std::int64_t}
                  b: int32
                  c: {type: "array<int32, 2>", cpp: "std::array<std::uint32_t, 2>"}
            """)
        s = m.structs[0]
        self.assertIsNotNone(s.fixed_width)
        self.assertEqual([f.type.checked_on_encode for f in s.fields], [True, False, True])
        header = render.render(m)["s.bsongen.hpp"]
        self.assertIn("::bsongen::detail::int32_codec::size(v.a, es));  // rejects", header)
        self.assertNotIn("::bsongen::detail::int32_codec::size(v.b, es)", header)


class ModelTest(SchemaCase):
    def test_fixed_layout_of_a_fixed_struct(self):
        path = self.write("""\
            structs:
              point:
                fields: {x: double, y: {type: int32, key: Y}}
            """)
        s = linker.link(schema_reader.read_schema(path)).structs[0]
        # {x: double, Y: int32}: 4 + (1+2+8) + (1+2+4) + 1
        self.assertEqual(s.fixed_width, 23)
        self.assertEqual(s.skeleton, b"\x17\0\0\0\x01x\0" + bytes(8) + b"\x10Y\0" + bytes(4) + b"\0")
        self.assertEqual(s.value_runs, [(7, 8), (18, 4)])

    def test_variable_struct_has_no_fixed_layout(self):
        path = self.write("structs: {p: {fields: {name: string}}}\n")
        self.assertIsNone(linker.link(schema_reader.read_schema(path)).structs[0].fixed_width)

    def test_structs_are_ordered_by_dependency(self):
        path = self.write("""\
            structs:
              outer: {fields: {inner: inner}}
              inner: {fields: {x: int32}}
            """)
        m = linker.link(schema_reader.read_schema(path))
        self.assertEqual([s.name for s in m.structs], ["inner", "outer"])

    def test_model_json_round_trip_generates_the_same_header(self):
        path = os.path.join(ROOT, "schemas", "orders.yaml")
        direct = linker.link(schema_reader.read_schema(path, "schemas/orders.yaml"))
        text = model.dump_json(direct)
        again = linker.link(model.load_json(text, "orders.json"))
        self.assertEqual(render.render(direct), render.render(again))
        data = json.loads(text)
        self.assertEqual(data["bsongen_model"], 1)
        self.assertTrue(data["defines_types"])

    def test_header_mode_model_includes_the_users_header(self):
        data = {"bsongen_model": 1, "origin": {"kind": "header", "path": "app/point.hpp"},
                "output_name": "point", "namespace": "app", "defines_types": False,
                "includes": ["app/point.hpp"],
                "structs": [{"name": "point", "fields": [
                    {"name": "x", "type": {"kind": "int32", "cpp": "std::uint16_t"}}]}]}
        m = linker.link(model.load_json(json.dumps(data), "point.json"))
        header = render.render(m)["point.bsongen.hpp"]
        self.assertIn("#include <app/point.hpp>", header)
        self.assertNotIn("struct point {", header)
        self.assertIn("struct codec<::app::point>", header)

    def test_model_json_errors_name_the_file(self):
        with self.assertRaises(SchemaError) as ctx:
            model.load_json('{"bsongen_model": 2}', "m.json")
        self.assertIn("m.json", str(ctx.exception))


class CliTest(SchemaCase):
    def test_exit_codes(self):
        good = self.write("structs: {p: {fields: {x: int32}}}\n", "good.yaml")
        bad = self.write("structs: {p: {fields: {x: in32}}}\n", "bad.yaml")
        out = os.path.join(self.tmp.name, "out")
        ok = self.run_cli("generate", good, "--out", out)
        self.assertEqual(ok.returncode, 0, ok.stderr)
        self.assertTrue(os.path.exists(os.path.join(out, "good.bsongen.hpp")))
        schema_error = self.run_cli("generate", bad, "--out", out)
        self.assertEqual(schema_error.returncode, 1)
        self.assertIn("did you mean `int32`?", schema_error.stderr)
        self.assertEqual(self.run_cli("generate", good).returncode, 2)      # no --out
        self.assertEqual(self.run_cli("frobnicate").returncode, 2)
        self.assertEqual(self.run_cli().returncode, 2)
        self.assertEqual(self.run_cli("--help").returncode, 0)

    def test_generate_from_model(self):
        good = self.write("namespace: a\nstructs: {p: {fields: {x: int32}}}\n", "good.yaml")
        printed = self.run_cli("model", good)
        self.assertEqual(printed.returncode, 0, printed.stderr)
        model_path = os.path.join(self.tmp.name, "good.json")
        with open(model_path, "w", encoding="utf-8") as f:
            f.write(printed.stdout)
        out = os.path.join(self.tmp.name, "out")
        r = self.run_cli("generate", "--model", model_path, "--out", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out, "good.bsongen.hpp"), encoding="utf-8") as f:
            self.assertIn("struct codec<::a::p>", f.read())

    def test_banner_and_abi_check(self):
        good = self.write("structs: {p: {fields: {x: int32}}}\n", "good.yaml")
        out = os.path.join(self.tmp.name, "out")
        self.run_cli("generate", good, "--out", out, "--source-root", self.tmp.name)
        with open(os.path.join(out, "good.bsongen.hpp"), encoding="utf-8") as f:
            text = f.read()
        self.assertTrue(text.startswith("// Generated by bsongen"))
        self.assertIn("from good.yaml", text)
        self.assertIn("DO NOT EDIT", text)
        self.assertIn("static_assert(BSONGEN_RUNTIME_ABI == 1", text)


if __name__ == "__main__":
    unittest.main()
