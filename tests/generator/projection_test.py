#!/usr/bin/python3
"""Unit tests of projections (projection.py) and of what structs give queries (queries.py,
query_view.py): expansion, diagnostics, the model JSON, projection documents, field paths and
skip runs."""

import json
import os
import sys
import tempfile
import textwrap
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "generator"))

from bsongen_gen import linker, model, queries, query_view, render, schema_reader  # noqa: E402
from bsongen_gen.diagnostics import SchemaError, SchemaErrors  # noqa: E402

SHOP = """\
    namespace: shop
    enums:
      status: {storage: string, values: [pending, paid]}
    structs:
      address:
        fields:
          street: {type: string, required: true}
          city: {type: string, default: Berlin}
      customer:
        fields:
          id: {type: object_id, key: _id, required: true}
          name: {type: string, required: true, doc: Full name.}
          shipping: address
          billing: address?
      order:
        unknown_fields: capture
        capture_member: extra
        duplicate_keys: reject
        fields:
          id: {type: object_id, key: _id, required: true}
          state: {type: status, default: paid, key: st}
          customer: customer
          items: vector<customer>
          tags: map<string, customer>
          total: decimal128
"""


class Case(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, text: str) -> str:
        path = os.path.join(self.tmp.name, "s.yaml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(textwrap.dedent(text))
        return path

    def link(self, text: str) -> model.Model:
        return linker.link(schema_reader.read_schema(self.write(text), "s.yaml"))

    def errors(self, text: str) -> list[str]:
        try:
            self.link(text)
        except SchemaErrors as e:
            return [str(x) for x in e.errors]
        except SchemaError as e:
            return [str(e)]
        self.fail("the schema was accepted")

    @staticmethod
    def struct(m: model.Model, name: str) -> model.Struct:
        return next(s for s in m.structs if s.name == name)


def projection(fields: str, options: str = "") -> str:
    return SHOP + textwrap.indent(textwrap.dedent(f"""\
        summary:
          projection_of: order
          fields: {fields}
        """) + textwrap.indent(textwrap.dedent(options), "  "), "      ")


class ExpansionTest(Case):
    def test_kept_fields_are_the_sources_in_its_order(self):
        m = self.link(projection("[total, customer.name, id, state]"))
        s = self.struct(m, "summary")
        self.assertEqual([f.name for f in s.fields], ["id", "state", "customer", "total"])
        state = s.fields[1]
        self.assertEqual((state.key, state.default, state.type.kind, state.type.name),
                         ("st", "paid", "enum", "status"))
        self.assertTrue(s.fields[0].required)
        self.assertEqual(s.fields[2].type.name, "summary_customer")
        nested = self.struct(m, "summary_customer")
        self.assertEqual([(f.name, f.key, f.required, f.doc) for f in nested.fields],
                         [("name", "name", True, "Full name.")])
        self.assertEqual(nested.projection.source, "customer")
        # The source's options are its own: the projection skips unknown fields (the source's
        # other fields) and keeps the default duplicate_keys.
        self.assertEqual((s.unknown_fields, s.duplicate_keys), ("skip", "last_wins"))

    def test_paths_reach_through_vectors_and_optionals_and_nest(self):
        m = self.link(projection("[items.name, customer.billing.city, customer.id]"))
        s = self.struct(m, "summary")
        items = next(f for f in s.fields if f.name == "items")
        self.assertEqual((items.type.kind, items.type.element.name), ("vector", "summary_items"))
        customer = self.struct(m, "summary_customer")
        self.assertEqual([f.name for f in customer.fields], ["id", "billing"])
        billing = customer.fields[1]
        self.assertEqual((billing.type.kind, billing.type.element.name),
                         ("optional", "summary_customer_billing"))
        self.assertEqual([f.name for f in self.struct(m, "summary_customer_billing").fields],
                         ["city"])

    def test_generated_structs_take_the_projections_options(self):
        m = self.link(projection("[customer.name]", """\
              unknown_fields: reject
              duplicate_keys: reject
              visit: true
            """))
        nested = self.struct(m, "summary_customer")
        self.assertEqual((nested.unknown_fields, nested.duplicate_keys, nested.visit),
                         ("reject", "reject", True))

    def test_the_source_stays_as_it_was(self):
        plain = self.link(SHOP)
        projected = self.link(projection("[customer.name]"))
        self.assertEqual(self.struct(plain, "order").to_json(),
                         self.struct(projected, "order").to_json())
        self.assertEqual(self.struct(plain, "customer").to_json(),
                         self.struct(projected, "customer").to_json())


class DiagnosticsTest(Case):
    def assert_error(self, fields_or_text: str, *expected: str, options: str = ""):
        text = fields_or_text if "\n" in fields_or_text else projection(fields_or_text, options)
        errs = "\n".join(self.errors(text))
        for e in expected:
            self.assertIn(e, errs)

    def test_every_path_must_name_members(self):
        self.assert_error("[totl]", "s.yaml:28:14: error: projection `summary`: `totl`: struct "
                          "`order` has no member `totl`", "did you mean `total`?")
        self.assert_error("[_id]", "`_id` is the key of member `id`: paths name members")
        self.assert_error("[id, customer.nme]", "s.yaml:28:18: error: projection `summary`: "
                          "`customer.nme`: struct `customer` has no member `nme`",
                          "did you mean `name`?")
        self.assert_error("[customer..name]", "`customer..name` is not a path")

    def test_paths_go_only_into_structs(self):
        self.assert_error("[state.x]", "`state.x`: `order.state` is not a struct",
                          "keep `state` whole")
        self.assert_error("[tags.a]", "`order.tags` is a map: its entries have no names")

    def test_a_member_is_kept_once(self):
        self.assert_error("[id, id]", "s.yaml:28:18: error: projection `summary`: `id` is kept "
                          "twice")
        self.assert_error("[customer.name, customer]", "`customer` is kept both whole and in part "
                          "(`customer.name` at s.yaml:28:14)")

    def test_the_source_must_be_an_ordinary_struct_of_the_schema(self):
        self.assert_error(SHOP + textwrap.indent(textwrap.dedent("""\
            a: {projection_of: ordr, fields: [id]}
            b: {projection_of: status, fields: [id]}
            c: {projection_of: order, fields: [id]}
            d: {projection_of: c, fields: [id]}
            e: {projection_of: order, fields: []}
            """), "      "),
            "s.yaml:26:3: error: projection `a`: `ordr` is not a struct of this schema",
            "did you mean `order`?", "projection `b`: `status` is an enum",
            "projection `d`: `c` is a projection itself", "project `order` instead",
            "projection `e` keeps no field")

    def test_fields_are_a_list_exactly_for_projections(self):
        self.assert_error(SHOP + "      a: {projection_of: order}\n",
                          "s.yaml:26:3: error: projection `a` has no `fields`")
        self.assert_error(SHOP + "      a: {projection_of: order, fields: {id: int32}}\n",
                          "projection `a`: `fields` must be a list of the source's member paths")
        self.assert_error(SHOP + "      a: {fields: [id]}\n",
                          "s.yaml:26:15: error: struct `a`: `fields` is a list, which only a "
                          "projection has")

    def test_generated_names_must_be_free(self):
        self.assert_error(projection("[customer.name]") +
                          "      summary_customer: {fields: {x: int32}}\n",
                          "the struct that keeps `customer.name` would be named "
                          "`summary_customer`, which is taken")
        self.assert_error(SHOP + "      order_paths: {fields: {x: int32}}\n",
                          "`order_paths` is the name of struct `order`'s field paths")
        self.assert_error(SHOP + "      thing: {fields: {paths_of: int32}}\n",
                          "member `paths_of` has the name of the class template holding field "
                          "paths")


class PathsAliasTest(Case):
    def test_aliases_never_hold_a_double_underscore(self):
        self.assertEqual(queries.paths_alias("order"), "order_paths")
        self.assertEqual(queries.paths_alias("log_"), "log_paths_")
        self.assertEqual(queries.paths_alias("class__"[:-1]), "class_paths_")
        out = render.render(self.link("structs:\n  log_: {fields: {a: int32}}\n"))["s.bsongen.hpp"]
        self.assertIn("using log_paths_ = ::bsongen::paths<::log_>;", out)


class ModelJsonTest(Case):
    def test_the_model_records_the_projection_and_generates_alike_from_json(self):
        m = self.link(projection("[id, customer.name]"))
        data = json.loads(model.dump_json(m))
        summary = next(s for s in data["structs"] if s["name"] == "summary")
        self.assertEqual(summary["projection_of"], {"struct": "order",
                                                    "paths": ["id", "customer.name"]})
        self.assertEqual([f["name"] for f in summary["fields"]], ["id", "customer"])
        again = linker.link(model.load_json(model.dump_json(m), "s.json"))
        self.assertEqual(render.render(again), render.render(m))

    def test_a_model_may_leave_a_projections_fields_to_the_generator(self):
        data = json.loads(model.dump_json(self.link(SHOP)))
        data["structs"].append({"name": "summary", "projection_of": {
            "struct": "order", "paths": ["id", "customer.name"]}})
        m = linker.link(model.load_json(json.dumps(data), "s.json"))
        self.assertEqual([f.name for f in self.struct(m, "summary").fields], ["id", "customer"])
        self.assertEqual([f.name for f in self.struct(m, "summary_customer").fields], ["name"])


def projection_of(m: model.Model, name: str) -> dict:
    return dict(queries.projection_entries(m, Case.struct(m, name)))


class ProjectionDocumentTest(Case):
    def test_paths_of_every_field_nested_structs_by_their_fields(self):
        m = self.link(projection("[id, customer.name, customer.shipping, items.billing.city]"))
        self.assertEqual(queries.projection_entries(m, self.struct(m, "summary")), [
            ("_id", 1), ("customer.name", 1), ("customer.shipping.street", 1),
            ("customer.shipping.city", 1), ("items.billing.city", 1)])

    def test_a_struct_without_an_id_field_excludes_it(self):
        m = self.link(projection("[customer.name, total]"))
        self.assertEqual(queries.projection_entries(m, self.struct(m, "summary")),
                         [("_id", 0), ("customer.name", 1), ("total", 1)])
        self.assertEqual(projection_of(m, "address"), {"_id": 0, "street": 1, "city": 1})

    def test_capturing_structs_and_unnameable_keys_ask_for_everything(self):
        m = self.link(SHOP + textwrap.indent(textwrap.dedent("""\
            dotted: {fields: {a: {type: int32, key: "a.b"}}}
            dollar: {fields: {a: {type: int32, key: "$a"}}}
            holder:
              fields:
                x: captures
                y: dotted
                z: int32
            captures: {unknown_fields: capture, capture_member: rest, fields: {a: int32}}
            """), "      "))
        self.assertEqual(queries.projection_entries(m, self.struct(m, "order")), [])
        self.assertEqual(queries.projection_entries(m, self.struct(m, "dotted")), [])
        self.assertEqual(queries.projection_entries(m, self.struct(m, "dollar")), [])
        # Nested, such structs are asked for whole.
        self.assertEqual(projection_of(m, "holder"), {"_id": 0, "x": 1, "y": 1, "z": 1})
        self.assertEqual(queries.document_bytes([]), b"\x05\x00\x00\x00\x00")

    def test_recursion_empty_structs_and_nested_arrays_stop_at_the_field(self):
        m = self.link("""\
            structs:
              node:
                fields:
                  value: int32
                  children: vector<node>
                  grid: vector<vector<leaf>>
                  nothing: empty
              leaf: {fields: {v: int32}}
              empty: {fields: {}}
            """)
        self.assertEqual(projection_of(m, "node"), {"_id": 0, "value": 1, "children": 1,
                                                    "grid": 1, "nothing": 1})
        self.assertEqual(projection_of(m, "empty"), {"_id": 1})
        self.assertEqual(queries.recursive_fields(m, self.struct(m, "node")), {"children"})

    def test_shared_structs_nested_deep_are_asked_for_whole_past_the_limit(self):
        levels = ["structs:", "  l0: {fields: {a: int32, b: int32}}"]
        for i in range(1, 14):
            levels.append(f"  l{i}: {{fields: {{a: l{i - 1}, b: l{i - 1}}}}}")
        m = self.link("\n".join(levels) + "\n")
        self.assertEqual(queries.MAX_EXPANDED_PATHS, 2 ** 8)
        for deep in ("l8", "l12"):  # 2^9 and 2^13 paths expanded: past the limit
            self.assertEqual(projection_of(m, deep), {"_id": 0, "a": 1, "b": 1})
        self.assertEqual(len(projection_of(m, "l7")), 1 + 2 ** 8)  # the limit, expanded

    def test_bytes_and_extended_json(self):
        entries = [("_id", 0), ("a.b", 1)]
        self.assertEqual(queries.document_bytes(entries),
                         b"\x17\x00\x00\x00\x10_id\x00\x00\x00\x00\x00\x10a.b\x00\x01\x00\x00\x00"
                         b"\x00")
        self.assertEqual(queries.extended_json(entries), '{"_id": 0, "a.b": 1}')


class SkipRunTest(Case):
    def test_the_sources_other_fields_around_each_kept_one(self):
        m = self.link(projection("[state, items.name]"))
        view = query_view.query_view(m, self.struct(m, "summary"))
        before = [[(k.key, k.bson_type) for k in run] for run in view.skipped_before]
        self.assertEqual(before, [[("_id", "object_id")], [("customer", "document")]])
        self.assertEqual([(k.key, k.bson_type) for k in view.skipped_after],
                         [("tags", "document"), ("total", "decimal128")])
        nested = query_view.query_view(m, self.struct(m, "summary_items"))
        self.assertEqual([[k.key for k in run] for run in nested.skipped_before], [["_id"]])
        self.assertEqual([k.key for k in nested.skipped_after], ["shipping", "billing"])
        self.assertFalse(query_view.query_view(m, self.struct(m, "order")).skip_runs)

    def test_none_where_the_general_path_must_see_every_element(self):
        for options in ("unknown_fields: reject\n", "duplicate_keys: reject\n",
                        "unknown_fields: capture\ncapture_member: rest\n"):
            m = self.link(projection("[state]", options))
            self.assertFalse(query_view.query_view(m, self.struct(m, "summary")).skip_runs,
                             options)

    def test_a_fixed_shape_projection_decodes_through_the_chain(self):
        m = self.link(projection("[id, total]"))
        out = render.render(m)["s.bsongen.cpp"]
        self.assertIn("skip_2", out)  # customer, between id and total
        self.assertIn("chain_cursor", out.split("codec_impl<::shop::summary>::decode_document")[1])


if __name__ == "__main__":
    unittest.main()
