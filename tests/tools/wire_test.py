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
        refs += [TypeRef(catalog.VECTOR_KIND, dtype=d) for d in catalog.VECTOR_DTYPES]
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
        vectors = set(wire.VECTOR_TAGS.values())
        self.assertEqual(tags["binary"], ({"binData", wire.UUID_TAG} | vectors,) * 2)
        self.assertEqual(tags["raw_document"], ({"object"}, {"object"}))
        self.assertEqual(tags["any"], (set(wire.ALL_TAGS),) * 2)
        self.assertEqual(wire.UUID_TAG, "binData/uuid")
        self.assertEqual(len(wire.BSON_ALIASES), len(catalog.BSON_TYPES))


    def test_binary_vectors_read_their_own_dtype_and_dimension(self):
        float32 = TypeRef(catalog.VECTOR_KIND, dtype="float32")
        fixed = TypeRef(catalog.VECTOR_KIND, dtype="float32", size=3)
        tag = "binData/binary_vector<float32>"
        self.assertEqual(wire.value_tags(float32), ({tag}, {tag}))
        accepted, written = wire.value_sets(fixed)
        self.assertEqual(accepted.domains, {tag: wire.Dimensions(3)})
        self.assertEqual(wire.uncovered(wire.value_sets(fixed)[0], wire.value_sets(float32)[1]),
                         [(tag, None, wire.Dimensions(3), True)])
        self.assertEqual(wire.uncovered(wire.value_sets(float32)[0], written), [])

    def test_vector_payload_rules(self):
        self.assertEqual(wire.vector_value(9, b"\x27\x00" + bytes(8)), ("float32", 2))
        self.assertEqual(wire.vector_value(9, b"\x03\x00\x01"), ("int8", 1))
        self.assertEqual(wire.vector_value(9, b"\x10\x03\xf8"), ("packed_bit", 5))
        self.assertEqual(wire.vector_value(9, b"\x10\x00"), ("packed_bit", 0))
        for bad in (b"", b"\x27", b"\x27\x00\x00", b"\x27\x01" + bytes(4), b"\x03\x01\x00",
                    b"\x10\x08\x00", b"\x10\x01", b"\x10\x03\xfc", b"\x11\x00"):
            self.assertIsNone(wire.vector_value(9, bad), bad)
        self.assertIsNone(wire.vector_value(0, b"\x03\x00\x01"))


if __name__ == "__main__":
    unittest.main()
