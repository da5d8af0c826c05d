#!/usr/bin/python3
"""tools/wire.py, the tools' view of each kind on the wire: every kind of the catalogue has tags,
derived from the catalogue rather than listed (the tags' agreement with the C++ decoders is
tests/runtime/catalog_facts_test's), and the derivation gives what the tools rely on.
"""

import os
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "generator"))
from bsongen_gen import catalog  # noqa: E402
from bsongen_gen.model import TypeRef  # noqa: E402
from bsongen_gen.tools import wire  # noqa: E402


class WireTest(unittest.TestCase):
    def test_every_kind_of_the_catalogue_has_tags(self):
        refs = [TypeRef(kind) for kind in catalog.SCALARS]
        refs += [TypeRef(kind, element=TypeRef("int64"), size=2) for kind in catalog.CONTAINERS]
        refs += [TypeRef("struct", name="s")]
        for ref in refs:
            with self.subTest(kind=ref.kind):
                reads, writes = wire.value_tags(ref)
                self.assertTrue(writes, "an encoder writes some type")
                self.assertLessEqual(writes, reads, "a decoder reads what its encoder writes")
                self.assertLessEqual(reads, wire.ALL_TAGS)
        for storage in catalog.ENUM_STORAGES:
            with self.subTest(enum_storage=storage):
                reads, writes = wire.value_tags(TypeRef("enum", name="e"), storage)
                self.assertEqual(reads, writes)

    def test_tags_follow_the_catalogue(self):
        tags = {kind: (set(w.reads), set(w.writes)) for kind, w in wire.LEAVES.items()}
        self.assertEqual(tags["double"], ({"double", "int"}, {"double"}))
        self.assertEqual(tags["int64"], ({"long", "int"}, {"long"}))
        self.assertEqual(tags["uuid"], ({wire.UUID_TAG}, {wire.UUID_TAG}))
        self.assertEqual(tags["binary"], ({"binData", wire.UUID_TAG},) * 2)
        self.assertEqual(tags["raw_document"], ({"object"}, {"object"}))
        self.assertEqual(tags["any"], (set(wire.ALL_TAGS),) * 2)
        self.assertEqual(wire.UUID_TAG, "binData/uuid")
        self.assertEqual(len(wire.BSON_ALIASES), len(catalog.BSON_TYPES))


if __name__ == "__main__":
    unittest.main()
