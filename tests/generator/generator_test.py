#!/usr/bin/python3
"""Unit tests of the generator: diagnostics, validation, the model JSON and the CLI's exit codes."""

import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "generator"))

from bsongen_gen import catalog, cpp, layout, linker, model, render, schema_reader  # noqa: E402
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

    def link(self, text: str):
        return linker.link(schema_reader.read_schema(self.write(text), "s.yaml"))

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

    def test_containers_nest_at_most_the_limit_in_one_type(self):
        def nested(depth: int, innermost: str = "int32") -> str:
            t = innermost
            for level in range(depth):
                t = [f"vector<{t}>", f"map<string, {t}>", f"array<{t}, 2>"][level % 3]
            return t
        limit = catalog.MAX_CONTAINER_NESTING
        errs = self.errors(f"""\
            structs:
              holder:
                fields:
                  fits: "{nested(limit)}?"
                  too_deep: "nullable<{nested(limit + 1)}>"
            """)
        self.assertEqual(len(errs), 1)
        self.assertIn(f"s.yaml:5:7: error: field `too_deep`: {limit + 1} containers nest in its "
                      f"type; the limit is {limit}", errs[0])
        self.assertIn("hold the inner levels in a struct of their own, or as `any`", errs[0])
        # A struct starts the count again: deeper data nests structs.
        path = self.write(f"""\
            structs:
              inner:
                fields: {{v: "{nested(limit)}"}}
              outer:
                fields: {{v: "{nested(limit, 'inner')}"}}
            """)
        m = linker.link(schema_reader.read_schema(path))
        self.assertEqual([s.name for s in m.structs], ["inner", "outer"])

    def test_allocator_must_be_known(self):
        errs = self.errors("""\
            allocator: pmrr
            structs:
              item:
                fields: {a: string}
            """)
        self.assertEqual(len(errs), 1)
        self.assertIn("`allocator` is `pmrr`; expected one of std, pmr", errs[0])
        self.assertIn("did you mean `pmr`?", errs[0])

    def test_allocator_aware_structs_reserve_their_members_names(self):
        errs = self.errors("""\
            allocator: pmr
            structs:
              item:
                fields: {item: string, get_allocator: int32, allocator_type: string}
            """)
        self.assertEqual(len(errs), 3, errs)
        for name, err in zip(("item", "get_allocator", "allocator_type"), errs):
            self.assertIn(f"struct `item`: member `{name}` would hide", err)
        errs = self.errors("""\
            allocator: pmr
            structs:
              item: {unknown_fields: capture, capture_member: get_allocator, fields: {a: int32}}
            """)
        self.assertEqual(len(errs), 1, errs)
        self.assertIn("struct `item`: capture member `get_allocator` would hide", errs[0])
        # Without `allocator: pmr` the same names are fine.
        path = self.write("""\
            structs:
              item:
                fields: {item: string, get_allocator: int32, allocator_type: string}
            """, "std.yaml")
        linker.link(schema_reader.read_schema(path))

    def test_allocator_applies_only_to_types_a_schema_defines(self):
        path = self.write("""\
            allocator: pmr
            structs:
              item:
                fields: {a: string}
            """)
        data = schema_reader.read_schema(path).to_json()
        self.assertEqual(data["allocator"], "pmr")
        data["defines_types"] = False
        with self.assertRaises(SchemaErrors) as caught:
            linker.link(model.load_json(json.dumps(data), "m.json"))
        self.assertIn("`allocator` applies to types a schema defines", str(caught.exception.errors[0]))

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

    def test_names_that_would_hide_std_or_the_runtime_namespace(self):
        # The generated code spells `std::string` from inside the schema's namespace and lives in
        # `bsongen`: a definition or namespace named so would make it fail to compile.
        errs = self.errors("""\
            enums:
              bsongen: {values: [a]}
            structs:
              std:
                fields: {x: int32}
            """)
        text = "\n".join(errs)
        self.assertIn("s.yaml:2:3: error: enum name `bsongen` collides with namespace `bsongen`",
                      text)
        self.assertIn("s.yaml:4:3: error: struct name `std` would hide the standard library's "
                      "namespace `std`", text)
        for namespace in ("std", "app::std", "bsongen", "bsongen::app"):
            errs = self.errors(f"namespace: \"{namespace}\"\n"
                               "structs: {p: {fields: {x: int32}}}\n")
            self.assertIn(f"namespace `{namespace}`", errs[0])
        # Elsewhere the generated code spells the runtime `::bsongen`: these compile.
        for text in ("namespace: app::bsongen\nstructs: {p: {fields: {x: int32}}}\n",
                     "namespace: app\nstructs: {bsongen: {fields: {x: int32}}}\n"):
            linker.link(schema_reader.read_schema(self.write(text), "s.yaml"))

    def test_global_names_of_the_c_library_are_refused_without_a_namespace(self):
        # A global struct `log` is hidden by the function ::log in the generated code's `::log`,
        # and a global `tm` redefines a C type: neither compiles. In a namespace both are fine.
        errs = self.errors("""\
            enums:
              time: {values: [a]}
            structs:
              log:
                fields: {x: int32}
              tm:
                fields: {x: int32}
              entry:
                fields: {x: int32}
            """)
        text = "\n".join(errs)
        self.assertEqual(len(errs), 3, text)
        self.assertIn("s.yaml:2:3: error: enum name `time` collides with `::time`, declared in the "
                      "global namespace by the C library headers", text)
        self.assertIn("s.yaml:4:3: error: struct name `log` collides with `::log`", text)
        self.assertIn("struct name `tm` collides with `::tm`", text)
        errs = self.errors("namespace: index::app\nstructs: {p: {fields: {x: int32}}}\n")
        self.assertIn("namespace `index::app`: part `index` collides with `::index`", errs[0])
        linker.link(schema_reader.read_schema(self.write(
            "namespace: app::log\nenums: {time: {values: [a]}}\nstructs: {log: {fields: {x: time}}}\n"),
            "s.yaml"))

    def test_macros_of_the_c_library_are_refused_in_any_namespace(self):
        # The preprocessor replaces `NULL` or `errno` wherever the generated code spells the name
        # (a member `std::int32_t NULL{};` reads `std::int32_t __null{};`); `linux` and `unix` are
        # macros in GNU mode, CMake's default. Function-like macros (`offsetof`) are names still.
        errs = self.errors("""\
            namespace: unix::app
            enums:
              os: {storage: string, values: [linux, windows, EOF]}
            structs:
              stdin:
                fields:
                  errno: int32
                  NULL: os
                  offsetof: int32
            """)
        text = "\n".join(errs)
        self.assertEqual(len(errs), 6, text)
        self.assertIn("namespace `unix::app`: part `unix` is a macro the C library headers the "
                      "generated code includes define", text)
        self.assertIn("s.yaml:3:34: error: enumerator of `os` `linux` is a macro", text)
        self.assertIn("s.yaml:3:50: error: enumerator of `os` `EOF` is a macro", text)
        self.assertIn("s.yaml:5:3: error: struct name `stdin` is a macro", text)
        self.assertIn("s.yaml:7:7: error: field name `errno` is a macro", text)
        self.assertIn("s.yaml:8:7: error: field name `NULL` is a macro", text)

    def test_empty_stored_name_is_kept(self):
        path = self.write("""\
            enums:
              e:
                storage: string
                values:
                  blank: {bson_name: ""}
                  plain: {bson_name: }
                  tilde: {bson_name: "~"}
            structs: {s: {fields: {x: e}}}
            """)
        m = linker.link(schema_reader.read_schema(path))
        self.assertEqual([v.bson_name for v in m.enums[0].values], ["", "plain", "~"])

    def test_empty_option_values_read_as_not_given(self):
        # `doc:` and the like once stopped the reader with a PyYAML traceback.
        path = self.write("""\
            enums:
              e: {storage: int32, values: {a: {doc: }}}
            structs:
              s:
                doc:
                fields:
                  x: {type: int32, key: , default: , doc: }
                  y: e
            """)
        m = linker.link(schema_reader.read_schema(path))
        x = m.structs[0].fields[0]
        self.assertEqual((x.key, x.default, x.doc, m.structs[0].doc), ("x", None, "", ""))
        self.assertEqual(m.enums[0].values[0].value, 0)
        errs = self.errors('structs: {s: {fields: {x: {type: int32, key: ""}}}}\n')
        # At the key's text, not the field's name (the scanner points at BSONGEN_KEY likewise).
        self.assertIn("s.yaml:1:46: error: field `x`: key '' must be a non-empty string", errs[0])
        errs = self.errors("enums: {e: {values: {a: {value: }}}}\nstructs: {s: {fields: {x: e}}}\n")
        self.assertIn("value must be a int, not ``", errs[0])

    def test_required_with_omit_empty_is_refused(self):
        # The encoder left an empty `v` out and the decoder refused that document: missing_field.
        errs = self.errors("""\
            structs:
              s:
                fields:
                  v: {type: vector<int32>, required: true, omit_empty: true}
                  w: {type: string, omit_empty: true}
            """)
        self.assertEqual(len(errs), 1, errs)
        self.assertIn("s.yaml:4:7: error: field `v` is omit_empty and required at once", errs[0])

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

    def test_numeric_defaults_must_fit_their_type(self):
        errs = self.errors("""\
            structs:
              item:
                fields:
                  a: {type: int32, default: 2147483648}
                  b: {type: int64, default: -9223372036854775809}
                  c: {type: "number<int64>", default: 9223372036854775808}
                  d: {type: double, default: 9007199254740993}
                  e: {type: int32, default: -2147483648}
                  f: {type: double, default: 9007199254740992}
            """)
        text = "\n".join(errs)
        self.assertEqual(len(errs), 4, text)
        self.assertIn("s.yaml:4:7: error: field `a`: default 2147483648 does not fit in int32", text)
        self.assertIn("field `b`: default -9223372036854775809 does not fit in int64", text)
        self.assertIn("field `c`: default 9223372036854775808 does not fit in int64", text)
        self.assertIn("field `d`: default 9007199254740993 is not exactly a double", text)

    def test_numeric_defaults_must_fit_an_integer_cpp_spelling(self):
        errs = self.errors("""\
            structs:
              item:
                fields:
                  a: {type: int32, cpp: std::uint8_t, default: 300}
                  b: {type: int32, cpp: "unsigned  short", default: -1}
                  c: {type: int64, cpp: std::uint32_t, default: 4294967296}
                  d: {type: int32, cpp: std::uint8_t, default: 255}
                  e: {type: int64, cpp: std::uint64_t, default: 9223372036854775807}
                  f: {type: int32, cpp: my::id, default: 300}
            """)
        text = "\n".join(errs)
        self.assertEqual(len(errs), 3, text)
        self.assertIn("field `a`: default 300 does not fit in `std::uint8_t`", text)
        self.assertIn("field `b`: default -1 does not fit in `unsigned  short`", text)
        self.assertIn("field `c`: default 4294967296 does not fit in `std::uint32_t`", text)

    def test_cpp_spellings_that_cannot_hold_the_kind_are_refused_where_written(self):
        # Each compiled to an error or a wrong program before (g++ 12, -fsyntax-only), or names
        # a resource the struct never passes.
        refused = {
            "i_double": ("int32", "double", "cannot hold `int32` values"),
            "i_float": ("int64", "float", "cannot hold `int64` values"),
            "i_long_double": ("int32", "long double", "cannot hold `int32` values"),
            "i_char": ("int32", "char", "cannot hold `int32` values"),
            "i_optional": ("int32", "std::optional<int>", "cannot hold `int32` values"),
            "d_long_double": ("double", "long double", "cannot hold `double` values"),
            "b_int": ("bool", "int", "cannot hold `bool` values"),
            "s_wide": ("string", "std::wstring", "cannot hold `string` values"),
            "s_pmr": ("string", "std::pmr::string", "only an `allocator: pmr` schema passes"),
            "s_pointer": ("string", "const char*", "is a pointer or reference"),
            "t_double": ("datetime", "std::chrono::time_point<std::chrono::system_clock, "
                         "std::chrono::duration<double>>", "of an integral count"),
            "t_steady": ("datetime", "std::chrono::steady_clock::time_point",
                         "cannot hold `datetime` values"),
            "t_thirds": ("datetime", "std::chrono::sys_time<std::chrono::duration<long, "
                         "std::ratio<1, 3>>>", "neither a whole number of milliseconds"),
            "u_signed": ("uuid", "std::array<std::int8_t, 16>", "cannot hold `uuid` values"),
            "v_deque": ("vector<int32>", "std::deque<int>", "cannot hold `vector` values"),
            "v_doubles": ("vector<int32>", "std::vector<double>",
                          "has the element `double`, which cannot hold `int32` values"),
            "a_size": ("array<int32, 2>", "std::array<int, 3>", "holds 3 elements; the type says 2"),
            "m_view_key": ("map<int32>", "std::map<std::string_view, int>",
                           "has the key type `std::string_view`"),
            "n_optional": ("nullable<int32>", "std::optional<int>",
                           "cannot hold `nullable` values"),
            "w_int": ("number<int64>", "bsongen::number<int>", "a number's element is spelled"),
            "o_plain": ("int32?", "std::int16_t", "cannot hold `optional` values"),
        }
        fields = "\n".join(f'      {name}: {{type: "{kind}", cpp: "{spelling}"}}'
                           for name, (kind, spelling, _) in refused.items())
        errs = self.errors("structs:\n  p:\n    fields:\n" + fields + "\n")
        self.assertEqual(len(errs), len(refused), "\n".join(errs))
        for line, (name, (kind, spelling, why)) in enumerate(refused.items(), start=4):
            error = next(e for e in errs if e.startswith(f"s.yaml:{line}:"))
            self.assertIn(f"`{spelling}` {why}" if why.startswith("cannot") else why, error)
            self.assertIn(f"`{spelling}`", error)
            self.assertIn("accepted: ", error)  # the hint says what would work
        # What is accepted instead, in the hint: the kind's families and an alias of one's own.
        self.assertIn("an integer type", next(e for e in errs if "C++ spelling `double`" in e))
        self.assertIn("or a name of your own", errs[0])

    def test_cpp_spellings_of_other_names_and_of_scanned_headers_are_taken_on_trust(self):
        # A name the generator does not know is the user's alias (checked by the C++ compiler);
        # std::pmr members are fine in an `allocator: pmr` schema and in scanned headers.
        self.link("""\
            structs:
              p:
                fields:
                  id: {type: int32, cpp: "my::id"}
                  tags: {type: "vector<string>", cpp: "my::small_vector<std::string, 4>"}
            """)
        self.link("""\
            allocator: pmr
            structs:
              p:
                fields:
                  s: {type: string, cpp: "std::pmr::string"}
                  v: {type: "map<int32>", cpp: "std::pmr::unordered_map<std::pmr::string, int>"}
            """)
        data = schema_reader.read_schema(self.write("""\
            structs: {p: {fields: {s: {type: string, cpp: "std::pmr::string"}}}}
            """)).to_json()
        data["defines_types"] = False  # as bsongen-scan writes it
        linker.link(model.load_json(json.dumps(data), "m.json"))

    def test_enumerator_without_a_value_in_any_null_spelling_counts_on(self):
        path = self.write("""\
            enums:
              e:
                values:
                  a:
                  b: ~
                  c: null
                  d: 7
                  e: NULL
            structs: {p: {fields: {x: e}}}
            """)
        m = linker.link(schema_reader.read_schema(path, "s.yaml"))
        self.assertEqual([(v.name, v.value) for v in m.enums[0].values],
                         [("a", 0), ("b", 1), ("c", 2), ("d", 7), ("e", 8)])

    def test_invalid_yaml_names_position(self):
        errs = self.errors("structs: {a: [\n")
        self.assertIn("s.yaml:2:1: error: invalid YAML", errs[0])


class ValueFormsTest(SchemaCase):
    """nullable<T>, number<T>, the javascript_with_scope kind and narrowed `cpp` members."""

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
        self.assertIsNone(layout.element_bson_type(fields["a"].type))  # the value decides
        self.assertTrue(fields["b"].is_optional)
        self.assertTrue(cpp.holds_null(fields["b"].value_type))
        self.assertEqual(fields["f"].type.kind, "number")
        out = render.render(m)
        header, source = out["s.bsongen.hpp"], out["s.bsongen.cpp"]
        self.assertIn("::bsongen::nullable<std::int32_t> a{};", header)
        self.assertIn("std::optional<::bsongen::nullable<std::string>> b{};", header)
        self.assertIn("::bsongen::number<std::int64_t> e = 3;", header)
        self.assertIn('#include "bsongen/nullable.hpp"', header)
        self.assertIn('#include "bsongen/number.hpp"', header)
        self.assertIn("::bsongen::detail::number_codec<::bsongen::detail::double_codec>", source)

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
        self.assertIsNotNone(layout.Layouts(m).structs["s"].fixed)
        # A fixed struct's size() still calls every member's size(): the narrowed ones check the
        # range there, the others fold to their constant width.
        source = render.render(m)["s.bsongen.cpp"]
        self.assertIn("::bsongen::detail::int32_codec::size(v.a, es)", source)
        self.assertIn("::bsongen::detail::array_codec<::bsongen::detail::int32_codec, 2>::size(v.c, es)",
                      source)


class ModelTest(SchemaCase):
    def test_fixed_layout_of_a_fixed_struct(self):
        path = self.write("""\
            structs:
              point:
                fields: {x: double, y: {type: int32, key: Y}}
            """)
        m = linker.link(schema_reader.read_schema(path))
        fixed = layout.Layouts(m).structs["point"].fixed
        # {x: double, Y: int32}: 4 + (1+2+8) + (1+2+4) + 1
        self.assertEqual(fixed.width, 23)
        self.assertEqual(fixed.skeleton,
                         b"\x17\0\0\0\x01x\0" + bytes(8) + b"\x10Y\0" + bytes(4) + b"\0")
        self.assertEqual(fixed.value_runs, [(7, 8), (18, 4)])
        self.assertEqual(fixed.depth, 1)
        # detail::fixed_shape as written out: little-endian words of the skeleton and masks of
        # their constant bytes, then the last 23 % 8 bytes one by one.
        source = next(text for name, text in render.render(m).items() if name.endswith(".cpp"))
        self.assertIn(".skeleton = {{0x0000780100000017ULL, 0x1000000000000000ULL}}", source)
        self.assertIn(".constant_mask = {{0x00FFFFFFFFFFFFFFULL, 0xFF00000000000000ULL}}", source)
        self.assertIn(".tail_skeleton = {{0x59, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00}}", source)
        self.assertIn(".tail_constant = {{0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF}}", source)

    def test_fixed_layouts_stop_at_the_width_limit(self):
        # A fixed struct's skeleton and shape are written into the generated source: structs (and
        # arrays) wider than 64 KiB take the general path. 1000 scalar fields stay fixed.
        thousand = "".join(f"                  f{i}: double\n" for i in range(1000))
        m = linker.link(schema_reader.read_schema(self.write(f"""\
            structs:
              thousand:
                fields:
{thousand}
              edge: {{fields: {{a: "array<double, 4096>", b: int32}}}}
              wide: {{fields: {{a: "array<double, 4800>", b: int32}}}}
              outer: {{fields: {{w: wide}}}}
            """), "s.yaml"))
        layouts = layout.Layouts(m)
        self.assertEqual(layouts.structs["thousand"].fixed.width, 5 + 10 * 12 + 90 * 13 + 900 * 14)
        self.assertLessEqual(layouts.structs["edge"].fixed.width, 64 * 1024)
        self.assertIsNone(layouts.structs["wide"].fixed)
        self.assertIsNone(layouts.structs["outer"].fixed)
        wide = next(s for s in m.structs if s.name == "wide")
        self.assertIsNone(layouts.fixed(wide.fields[0].type))

    def test_variable_struct_has_no_fixed_layout(self):
        path = self.write("structs: {p: {fields: {name: string}}}\n")
        m = linker.link(schema_reader.read_schema(path))
        self.assertIsNone(layout.Layouts(m).structs["p"].fixed)

    def test_captured_unknown_fields_rule_out_a_fixed_layout(self):
        # Issue 11 item 1: a fixed-shape encode would drop the captured elements.
        path = self.write("""\
            structs:
              p:
                unknown_fields: capture
                capture_member: rest
                fields: {x: double}
            """)
        m = linker.link(schema_reader.read_schema(path))
        self.assertIsNone(layout.Layouts(m).structs["p"].fixed)

    def test_fixed_depth_counts_nested_documents_and_arrays(self):
        path = self.write("""\
            structs:
              inner: {fields: {x: int32}}
              outer: {fields: {a: inner, b: "array<inner, 2>"}}
            """)
        m = linker.link(schema_reader.read_schema(path))
        self.assertEqual(layout.Layouts(m).structs["outer"].fixed.depth, 3)

    def test_only_fixed_structs_without_checked_values_encode_without_a_size_pass(self):
        # encode() of a struct whose header says encode_always_succeeds skips size(), where
        # enums and narrowed members are checked: those must keep it false, also when nested.
        path = self.write("""\
            enums:
              e: {storage: int32, values: {a: 1}}
            structs:
              plain: {fields: {x: double, y: int64, when: datetime}}
              with_enum: {fields: {x: double, k: e}}
              narrowed: {fields: {x: {type: int32, cpp: std::int64_t}}}
              narrowed_array: {fields: {x: {type: "array<int32, 2>", cpp: "std::array<std::uint32_t, 2>"}}}
              enum_array: {fields: {x: "array<e, 2>"}}
              holds_plain: {fields: {p: plain, ps: "array<plain, 2>"}}
              holds_enum: {fields: {p: plain, w: with_enum}}
            """)
        m = linker.link(schema_reader.read_schema(path))
        checked = {name: s.fixed.checked for name, s in layout.Layouts(m).structs.items()}
        self.assertEqual(checked, {"plain": False, "with_enum": True, "narrowed": True,
                                   "narrowed_array": True, "enum_array": True,
                                   "holds_plain": False, "holds_enum": True})
        header = render.render(m)["s.bsongen.hpp"]
        self.assertEqual(header.count("encode_always_succeeds = true;"), 2)
        self.assertEqual(header.count("encode_always_succeeds = false;"), 5)

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


class HostileSchemaTest(SchemaCase):
    """Issue 11 item 15: schema text that once broke the generator's output or the generator."""

    def test_doc_line_ending_in_a_backslash_is_a_diagnostic(self):
        # `// C:\` would continue the comment onto the generated line below it.
        errs = self.errors("""\
            structs:
              p:
                doc: "Stored under C:\\\\"
                fields: {x: {type: int32, doc: "ends with \\\\"}}
            """)
        self.assertEqual(len(errs), 2, errs)
        self.assertIn("s.yaml:2:3: error: doc of struct `p`: line 1 ends with a backslash", errs[0])
        self.assertIn("field `x`", errs[1])
        # The schema's own doc opens the header, right above `#pragma once`.
        errs = self.errors('doc: "Stored under C:\\\\"\nstructs: {}\n')
        self.assertEqual(len(errs), 1, errs)
        self.assertIn("error: doc of the schema: line 1 ends with a backslash", errs[0])

    def test_lone_surrogate_key_is_a_diagnostic_not_a_traceback(self):
        path = self.write('structs: {p: {fields: {x: {type: int32, key: "\\ud800"}}}}\n')
        out = os.path.join(self.tmp.name, "out")
        r = self.run_cli("generate", path, "--out", out)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertNotIn("Traceback", r.stderr)
        self.assertIn("key holds '\\ud800' at position 0", r.stderr)
        self.assertIn("lone surrogate", r.stderr)

    def test_bytes_that_are_not_utf8_are_a_diagnostic_not_a_traceback(self):
        path = os.path.join(self.tmp.name, "s.yaml")
        with open(path, "wb") as f:
            f.write(b'structs:\n  p: {fields: {x: {type: int32, key: "caf\xe9"}}}\n')
        r = self.run_cli("model", path)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertNotIn("Traceback", r.stderr)
        self.assertIn(":2:42: error: byte 0xE9 is not UTF-8: a schema is UTF-8 text", r.stderr)

    def test_lone_surrogates_elsewhere_are_diagnostics(self):
        errs = self.errors("""\
            enums:
              e: {storage: string, values: {a: {bson_name: "\\udfff"}}}
            structs:
              p: {fields: {s: {type: string, default: "\\ud83d"}}}
            """)
        self.assertEqual(len(errs), 2, errs)
        self.assertIn("stored name holds", errs[0])
        self.assertIn("default holds", errs[1])


class OutputTest(SchemaCase):
    """What the generated files contain: the split, readable spellings, nothing unasked for."""

    def render(self, text: str, **kwargs) -> dict:
        path = self.write(text)
        return render.render(linker.link(schema_reader.read_schema(path, "s.yaml")), **kwargs)

    def test_header_declares_and_source_defines(self):
        files = self.render("namespace: a\nstructs: {p: {fields: {x: int32, s: string}}}\n")
        self.assertEqual(sorted(files), ["s.bsongen.cpp", "s.bsongen.hpp"])
        header, source = files["s.bsongen.hpp"], files["s.bsongen.cpp"]
        self.assertIn("struct codec<::a::p> {", header)
        self.assertNotIn("bsongen/detail/", header)
        self.assertNotIn("codec_impl", header)
        self.assertIn('#include "s.bsongen.hpp"', source)
        self.assertIn('#include "bsongen/detail/struct_table.hpp"', source)
        self.assertIn("struct codec_impl<::a::p>", source)

    def test_schema_doc_is_repeated_under_the_header_banner(self):
        files = self.render("doc: |\n  A shop's orders.\n\n  Second paragraph.\n"
                            "structs: {p: {fields: {x: int32}}}\n")
        header = files["s.bsongen.hpp"]
        banner_end = header.index("#pragma once")
        self.assertIn("//\n// A shop's orders.\n//\n// Second paragraph.\n", header[:banner_end])
        self.assertNotIn("A shop's orders.", files["s.bsongen.cpp"])
        # And through the model's JSON form (what the scanner writes and --model reads back).
        m = linker.link(schema_reader.read_schema(self.write("doc: About.\nstructs: {}\n"), "s.yaml"))
        self.assertEqual(model.load_json(model.dump_json(m), "m.json").doc, "About.")

    def test_sources_include_the_codec_headers_their_model_uses(self):
        def included(text: str) -> list:
            files = self.render(text)
            self.assertNotIn("bsongen/detail/", files["s.bsongen.hpp"])
            return [line.split('"')[1].removeprefix("bsongen/detail/")
                    for line in files["s.bsongen.cpp"].splitlines()
                    if line.startswith('#include "bsongen/detail/')]
        every_struct = ["element_prefix.hpp", "member_decode.hpp", "struct_table.hpp",
                        "value_codecs.hpp"]
        # A struct of strings and optionals: no container, no fixed shape.
        self.assertEqual(included("structs: {p: {fields: {s: string, o: \"int64?\"}}}\n"),
                         every_struct)
        # Fixed-width fields only: the fixed-shape matcher too.
        self.assertEqual(included("structs: {p: {fields: {x: int32, y: double}}}\n"),
                         sorted(every_struct + ["fixed_shape.hpp"]))
        # Each container its own, found through other containers and wrappers.
        self.assertEqual(included("structs: {p: {fields: {v: vector<string>}}}\n"),
                         sorted(every_struct + ["array_codec.hpp"]))
        self.assertEqual(included("structs: {p: {fields: {a: \"array<string, 2>\"}}}\n"),
                         sorted(every_struct + ["array_codec.hpp"]))
        self.assertEqual(included("structs: {p: {fields: {m: \"nullable<map<string, string>>?\"}}}\n"),
                         sorted(every_struct + ["map_codec.hpp"]))
        self.assertEqual(included("structs: {p: {fields: {m: \"map<string, vector<string>>\"}}}\n"),
                         sorted(every_struct + ["array_codec.hpp", "map_codec.hpp"]))
        # Enums alone: their codecs, no struct support.
        self.assertEqual(included("enums: {e: {storage: int32, values: [a, b]}}\n"),
                         ["value_codecs.hpp"])

    def test_allocator_reaches_values_inside_arrays_optionals_and_nullables(self):
        header = self.render("""\
            allocator: pmr
            structs:
              only_array:
                fields: {labels: "array<string, 2>", grid: "array<array<string, 2>, 2>"}
              only_wrapped:
                fields: {note: nullable<string>, spare: "optional<array<string, 2>>"}
              plain:
                fields: {x: int32, id: uuid, when: datetime}
              with_any:
                fields: {payload: any}
            """)["s.bsongen.hpp"]
        # A struct whose only allocator-aware members sit in fixed arrays takes the allocator:
        # its constructor builds the elements on it, and get_allocator() reads the first one.
        self.assertIn("explicit only_array(const allocator_type& memory)\n"
                      "      : labels(::bsongen::detail::new_with_allocator<"
                      "std::array<std::pmr::string, 2>>(memory))", header)
        self.assertIn("return labels[0].get_allocator();", header)
        self.assertIn("grid(::bsongen::detail::with_allocator(other.grid, memory))", header)
        # Optionals and nullables hold no allocator, so a struct of only those takes none; and
        # neither does one with nothing allocator-aware.
        only_wrapped = header[header.index("struct only_wrapped {"):header.index("struct plain {")]
        self.assertNotIn("allocator_type", only_wrapped)
        self.assertNotIn("allocator_type",
                         header[header.index("struct plain {"):header.index("struct with_any {")])
        # An `any` member is a bsongen::pmr::value, allocator-aware like every other member.
        with_any = header[header.index("struct with_any {"):]
        self.assertIn("::bsongen::pmr::value payload{};", with_any)
        self.assertIn("explicit with_any(const allocator_type& memory)\n      : payload(memory) {}",
                      with_any)

    def test_allocator_reaches_binaries_and_regular_expressions(self):
        header = self.render("""\
            allocator: pmr
            structs:
              blob:
                fields: {raw: binary, blobs: vector<binary>, pattern: regex}
            """)["s.bsongen.hpp"]
        self.assertIn('#include "bsongen/pmr_types.hpp"', header)
        self.assertNotIn('#include "bsongen/types.hpp"', header)
        self.assertIn("::bsongen::pmr::binary raw{};", header)
        self.assertIn("std::pmr::vector<::bsongen::pmr::binary> blobs{};", header)
        self.assertIn("::bsongen::pmr::regex pattern{};", header)
        # Built on the struct's allocator, and rebuilt on a new one by its extended constructors.
        for member in ("raw", "blobs", "pattern"):
            self.assertIn(f"{member}(memory)", header)
            self.assertIn(f"{member}(other.{member}, memory)", header)
        # Without `allocator: pmr`: the plain types, from the light header.
        plain = self.render("structs: {blob: {fields: {raw: binary, pattern: regex}}}\n")
        self.assertIn("::bsongen::binary raw{};", plain["s.bsongen.hpp"])
        self.assertIn('#include "bsongen/types.hpp"', plain["s.bsongen.hpp"])
        self.assertNotIn("pmr_types.hpp", plain["s.bsongen.hpp"])

    def test_allocator_reaches_raw_documents_and_captured_elements(self):
        header = self.render("""\
            allocator: pmr
            structs:
              kept:
                unknown_fields: capture
                capture_member: rest
                fields: {count: int32, shape: raw_document, code: javascript_with_scope}
              counted:
                unknown_fields: capture
                capture_member: rest
                fields: {count: int32}
            """)["s.bsongen.hpp"]
        self.assertIn('#include "bsongen/pmr_types.hpp"', header)
        self.assertNotIn('#include "bsongen/raw_document.hpp"', header)
        self.assertIn("::bsongen::pmr::raw_document shape{};", header)
        self.assertIn("::bsongen::pmr::javascript_with_scope code{};", header)
        self.assertIn("::bsongen::pmr::raw_document rest;", header)
        for member in ("shape", "code", "rest"):
            self.assertIn(f"{member}(memory)", header)
            self.assertIn(f"{member}(other.{member}, memory)", header)
        # A struct whose capture is its one allocating member takes the allocator for it.
        self.assertIn("explicit counted(const allocator_type& memory)\n      : rest(memory) {}", header)
        self.assertIn("return rest.get_allocator();", header)
        # Without `allocator: pmr`: the plain types.
        plain = self.render("structs: {kept: {unknown_fields: capture, capture_member: rest, "
                            "fields: {count: int32}}}\n")["s.bsongen.hpp"]
        self.assertIn("::bsongen::raw_document rest;", plain)
        self.assertIn('#include "bsongen/raw_document.hpp"', plain)
        self.assertNotIn("allocator_type", plain)

    def test_header_only_holds_everything_inline(self):
        files = self.render("structs: {p: {fields: {x: int32}}}\n", header_only=True)
        self.assertEqual(list(files), ["s.bsongen.hpp"])
        header = files["s.bsongen.hpp"]
        self.assertIn('#include "bsongen/detail/struct_table.hpp"', header)
        self.assertIn('#include "bsongen/detail/fixed_shape.hpp"', header)
        self.assertNotIn("map_codec.hpp", header)
        self.assertIn("inline std::size_t codec_impl<::p>::size(", header)

    def test_numeric_defaults_are_valid_literals_of_their_type(self):
        # -9223372036854775808 is the negation of a literal no signed type holds, and an integer
        # default of a double may exceed every integer literal's type.
        header = self.render("""\
            structs:
              p:
                fields:
                  a: {type: int64, default: -9223372036854775808}
                  b: {type: double, default: 18446744073709551616}
                  c: {type: double, default: 3}
            """)["s.bsongen.hpp"]
        self.assertIn("std::int64_t a = -9223372036854775807 - 1;", header)
        self.assertIn("double b = 1.8446744073709552e+19;", header)
        self.assertIn("double c = 3.0;", header)

    def test_visit_only_when_asked(self):
        plain = self.render("structs: {p: {fields: {x: int32}}}\n")["s.bsongen.hpp"]
        self.assertNotIn("visit", plain)
        asked = self.render("structs: {p: {visit: true, fields: {x: int32}}}\n")["s.bsongen.hpp"]
        self.assertIn("static void visit(", asked)
        self.assertIn('f(std::string_view("x"), v.x);', asked)

    def test_enums_carry_only_what_their_storage_uses(self):
        source = self.render("""\
            enums:
              by_name: {storage: string, values: [a, b]}
              by_number: {storage: int32, values: [c, d]}
            structs:
              p: {fields: {n: by_name, i: by_number}}
            """)["s.bsongen.cpp"]
        by_name = source[source.index("codec_impl<::by_name>"):source.index("codec_impl<::by_number>")]
        by_number = source[source.index("codec_impl<::by_number>"):source.index("codec_impl<::p>")]
        self.assertIn("from_name", by_name)
        self.assertNotIn("is_valid", by_name)
        self.assertIn("is_valid", by_number)
        self.assertNotIn("from_name", by_number)
        self.assertNotIn("name_of", by_number)

    def test_type_bytes_are_spelled_by_name(self):
        source = self.render("""\
            structs:
              p: {fields: {id: {type: object_id, key: _id}, n: int64, any_value: any}}
            """)["s.bsongen.cpp"]
        self.assertIn("element_prefix prefix_id{::bsongen::bson_type::object_id, \"_id\"}", source)
        self.assertIn("element_prefix prefix_n{::bsongen::bson_type::int64, \"n\"}", source)
        self.assertIn("key_suffix prefix_any_value{\"any_value\"}", source)

    def test_templates_take_type_knowledge_from_the_catalog(self):
        # No type bytes, widths or codec names written into a template.
        for path in render.template_files():
            if not path.endswith(".j2"):
                continue
            with open(path, encoding="utf-8") as f:
                text = f.read()
            name = os.path.basename(path)
            self.assertNotRegex(text, r"0x[0-9A-Fa-f]{2}\b", name)
            self.assertNotRegex(text, r"\b(double|int32|string|bool)_codec\b", name)
            self.assertNotRegex(text, r"bson_type::(?!{{)[a-z]", name)


class BinaryVectorTest(SchemaCase):
    """`binary_vector<dtype[, N]>` (BSON binary subtype 9): spellings, checks, layouts, C++."""

    def render(self, text: str, **kwargs) -> dict:
        path = self.write(text)
        return render.render(linker.link(schema_reader.read_schema(path, "s.yaml")), **kwargs)

    def test_each_dtype_and_dimension_has_its_member_type_and_codec(self):
        files = self.render("""\
            structs:
              p:
                fields:
                  f: binary_vector<float32>
                  i: bsongen::binary_vector<int8>
                  b: binary_vector<packed_bit>
                  ff: {type: "binary_vector<float32, 1536>"}
                  fi: {type: "binary_vector<int8, 3>"}
                  o: binary_vector<float32>?
                  n: nullable<binary_vector<packed_bit>>
                  v: vector<binary_vector<int8>>
                  m: map<string, binary_vector<float32, 2>>
            """)
        header, source = files["s.bsongen.hpp"], files["s.bsongen.cpp"]
        for member in ("std::vector<float> f{};", "std::vector<std::int8_t> i{};",
                       "::bsongen::packed_bits b{};", "std::array<float, 1536> ff{};",
                       "std::array<std::int8_t, 3> fi{};", "std::optional<std::vector<float>> o{};",
                       "::bsongen::nullable<::bsongen::packed_bits> n{};",
                       "std::vector<std::vector<std::int8_t>> v{};",
                       "std::map<std::string, std::array<float, 2>> m{};"):
            self.assertIn(member, header)
        self.assertIn('#include "bsongen/binary_vector.hpp"', header)
        self.assertIn('#include "bsongen/detail/vector_codecs.hpp"', source)
        flat = " ".join(source.split())
        self.assertIn("binary_vector_codec<::bsongen::vector_dtype::float32>", flat)
        self.assertIn("binary_vector_codec<::bsongen::vector_dtype::packed_bit>", flat)
        self.assertIn("fixed_binary_vector_codec<::bsongen::vector_dtype::float32, 1536>", flat)
        self.assertIn("element_prefix prefix_f{::bsongen::bson_type::binary, \"f\"}", flat)

    def test_schemas_without_vectors_include_no_vector_header(self):
        files = self.render("structs: {p: {fields: {x: int32, b: binary}}}\n")
        self.assertNotIn("vector_codecs.hpp", files["s.bsongen.cpp"])
        self.assertNotIn("binary_vector.hpp", files["s.bsongen.hpp"])

    def test_pmr_spellings(self):
        header = self.render("""\
            allocator: pmr
            structs:
              p:
                fields:
                  f: binary_vector<float32>
                  b: binary_vector<packed_bit>
                  ff: {type: "binary_vector<int8, 4>"}
            """)["s.bsongen.hpp"]
        self.assertIn("std::pmr::vector<float> f{};", header)
        self.assertIn("::bsongen::pmr::packed_bits b{};", header)
        self.assertIn("std::array<std::int8_t, 4> ff{};", header)
        self.assertIn("f(memory)", header)
        self.assertIn("ff(other.ff)", header)

    def test_fixed_dimension_has_a_fixed_layout(self):
        path = self.write("""\
            structs:
              row: {fields: {v: {type: "binary_vector<float32, 2>"}, x: int32}}
              loose: {fields: {v: binary_vector<float32>}}
            """)
        m = linker.link(schema_reader.read_schema(path))
        layouts = layout.Layouts(m)
        fixed = layouts.structs["row"].fixed
        # {v: binary(10 bytes: dtype, padding, 2 floats) subtype 9, x: int32}
        value = b"\x0a\0\0\0\x09\x27\0" + bytes(8)
        self.assertEqual(fixed.skeleton, b"\x1e\0\0\0\x05v\0" + value + b"\x10x\0" + bytes(4) + b"\0")
        self.assertEqual(fixed.value_runs, [(14, 8), (25, 4)])
        self.assertFalse(fixed.checked)
        self.assertIsNone(layouts.structs["loose"].fixed)

    def test_long_value_stretches_are_neither_compared_nor_copied(self):
        m = linker.link(schema_reader.read_schema(self.write("""\
            structs:
              wide: {fields: {a: int32, v: {type: "binary_vector<float32, 32>"}, b: int32}}
              narrow: {fields: {a: int32, v: {type: "binary_vector<float32, 14>"}, b: int32}}
            """)))
        source = next(text for name, text in render.render(m).items() if name.endswith(".cpp"))

        def part(begin, name):  # the struct's codec_impl definition, or its write()
            at = source.index(begin.format(name))
            return source[at:source.index("\n}", at)]
        # {a: int32 at 7, v: constants 14-20, 128 bytes of elements at 21, b: int32 at 152}, 157
        # bytes: words 3-17 (bytes 24-143) hold elements only, so decode compares words 0-2 and
        # 18, encode copies bytes 0-20 and 149-156 of the skeleton.
        codec, write = "struct codec_impl<::{}> {{", "codec_impl<::{}>::write("
        self.assertIn("fixed_shape<fixed_size, 4, 2> shape", part(codec, "wide"))
        self.assertIn(".runs = {{{0, 3}, {18, 1}}}", part(codec, "wide"))
        self.assertIn("std::memcpy(out + 0, skeleton + 0, 21);\n"
                      "  std::memcpy(out + 149, skeleton + 149, 8);\n"
                      "  store_fixed(v, out);", part(write, "wide"))
        # 56 bytes of elements leave fewer than cpp.SKIPPED_WORDS words: one run, one copy, as
        # for scalar fields.
        self.assertIn("fixed_shape<fixed_size> shape", part(codec, "narrow"))
        self.assertNotIn(".runs", part(codec, "narrow"))
        self.assertIn("std::memcpy(out, skeleton, fixed_size);", part(write, "narrow"))

    def test_misuse_is_diagnosed(self):
        errs = self.errors("""\
            structs:
              p:
                fields:
                  a: binary_vector<float>
                  b: {type: "binary_vector<packed_bit, 8>"}
                  c: {type: "binary_vector<int8, 0>"}
                  d: {type: "binary_vector<float32, 70000>"}
                  e: {type: "binary_vector<int8, 2>", omit_empty: true}
                  f: {type: binary_vector<float32>, default: 1}
            """)
        text = "\n".join(errs)
        self.assertIn("s.yaml:4:10: error: `binary_vector` dtype `float` is not one of "
                      "float32, int8, packed_bit", text)
        self.assertIn("did you mean `float32`?", text)
        self.assertIn("`binary_vector<packed_bit>` has no fixed dimension", text)
        self.assertIn("`binary_vector` dimension must be an integer in 1..65536", text)
        self.assertIn("omit_empty needs a type that can be empty", text)
        self.assertIn("not `binary_vector<int8, 2>`", text)
        self.assertIn("field `f`: default 1 does not suit type `binary_vector`", text)
        self.assertEqual(len(errs), 6, text)

    def test_spelling_errors_name_their_column(self):
        errs = self.errors("""\
            structs:
              p:
                fields:
                  g: binary_vector<vector<int8>>
                  h: binary_vector
                  i: "binary_vector<int8, x>"
            """)
        text = "\n".join(errs)
        self.assertIn("s.yaml:4:30: error: expected `>` in type `binary_vector<vector<int8>>`, "
                      "found `<`", text)
        self.assertIn("s.yaml:5:23: error: expected `<` in type `binary_vector`, found the end", text)
        self.assertIn("expected number in type `binary_vector<int8, x>`, found `x`", text)

    def test_omit_empty_and_optional_forms_are_accepted(self):
        path = self.write("""\
            structs:
              p:
                fields:
                  a: {type: binary_vector<float32>, omit_empty: true}
                  b: {type: binary_vector<packed_bit>, omit_empty: true}
                  c: {type: "binary_vector<int8, 2>?"}
                  d: nullable<binary_vector<int8>>?
                  e: {type: "array<binary_vector<float32>, 2>"}
            """)
        linker.link(schema_reader.read_schema(path))

    def test_model_json_carries_the_dtype(self):
        path = self.write("structs: {p: {fields: {v: {type: \"binary_vector<int8, 3>\"}}}}\n")
        direct = linker.link(schema_reader.read_schema(path, "s.yaml"))
        text = model.dump_json(direct)
        self.assertEqual(json.loads(text)["structs"][0]["fields"][0]["type"],
                         {"kind": "binary_vector", "dtype": "int8", "size": 3})
        again = linker.link(model.load_json(text, "s.json"))
        self.assertEqual(render.render(direct), render.render(again))

    def test_the_catalog_states_the_dtype_bytes_of_the_spec(self):
        self.assertEqual({d.dtype: d.byte for d in catalog.VECTOR_DTYPES.values()},
                         {"float32": 0x27, "int8": 0x03, "packed_bit": 0x10})
        self.assertEqual(catalog.vector_fixed_width(catalog.VECTOR_DTYPES["float32"], 1536),
                         5 + 2 + 4 * 1536)


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
        self.assertIn("static_assert(BSONGEN_RUNTIME_ABI == 2", text)


class CombinationTest(SchemaCase):
    """The grammar's refusals as tests/generated/make_combination_schema.py states them (the
    combination schemas leave them out): bsongen refuses each with that reason, and accepts the
    schemas the script writes."""

    def setUp(self):
        super().setUp()
        sys.path.insert(0, os.path.join(ROOT, "tests", "generated"))
        import make_combination_schema  # noqa: E402
        self.combinations = make_combination_schema

    def test_every_refused_combination_is_refused_with_its_reason(self):
        refused = self.combinations.refused_combinations()
        self.assertGreater(len(refused), 20)
        for expr, why in refused:
            with self.subTest(expr=expr):
                errs = self.errors(f"""\
                    enums:
                      mood: {{storage: string, values: [calm]}}
                    structs:
                      fixed: {{fields: {{x: double}}}}
                      texty: {{fields: {{name: string}}}}
                      s:
                        fields:
                          f: "{expr}"
                    """)
                self.assertEqual(len(errs), 1, errs)
                self.assertIn("s.yaml:8:", errs[0])
                self.assertIn(why, errs[0])

    def test_the_combination_schemas_are_accepted(self):
        self.assertGreater(len(self.combinations.OUTPUTS), 1)
        fields = {}  # a struct defined in several files (a copied leaf struct) counts once
        for path in self.combinations.OUTPUTS:
            with self.subTest(schema=os.path.basename(path)):
                m = linker.link(schema_reader.read_schema(path))
                fields.update({s.name: len(s.fields) for s in m.structs})
        self.assertGreater(sum(fields.values()), 300)

    def test_the_build_uses_every_combination_schema(self):
        # tests/generated/CMakeLists.txt lists the files (generation and documents) in order.
        with open(os.path.join(ROOT, "tests", "generated", "CMakeLists.txt"),
                  encoding="utf-8") as f:
            listed = re.findall(r"schemas/(combinations[^/\s]*\.yaml)", f.read())
        self.assertEqual(listed, [os.path.basename(p) for p in self.combinations.OUTPUTS])

    def test_struct_cycles_need_a_vector_or_map(self):
        for by_value in ["self?", "nullable<self>", "array<self, 2>", "optional<nullable<self>>"]:
            with self.subTest(type=by_value):
                errs = self.errors(f'structs: {{self: {{fields: {{me: "{by_value}"}}}}}}\n')
                self.assertEqual(len(errs), 1, errs)
                self.assertIn("struct cycle without indirection: self -> self", errs[0])
        for indirect in ["vector<self>", "map<self>", "vector<nullable<self>>",
                         "map<string, vector<self>>", "array<vector<self>, 2>", "vector<self>?"]:
            with self.subTest(type=indirect):
                path = self.write(f'structs: {{self: {{fields: {{me: "{indirect}"}}}}}}\n')
                linker.link(schema_reader.read_schema(path))


if __name__ == "__main__":
    unittest.main()
