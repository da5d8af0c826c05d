#!/usr/bin/python3
"""Renders catalog_facts_test.cpp.j2 with generator/bsongen_gen/catalog.py's facts.

  render_catalog_facts.py OUT.cpp

The catalogue states what the generator and the tools assume of the runtime: type bytes, the
spec's names, value widths and integer ranges of the BSON types, each scalar kind's codec and fixed
width, the constant bytes of fixed shapes and the binary subtypes they hold, the ranges of integer
spellings, float's largest value and double's exact integers, the clocks' tick lengths. The rendered test checks each against
the C++ runtime and the standard library, mostly at compile time, so a catalogue entry that
disagrees with the C++ side fails the build of the test (naming the entry) instead of generating
code that is wrong.
"""

import os
import sys

import jinja2

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "generator"))
from bsongen_gen import catalog  # noqa: E402


def facts() -> dict:
    return {
        "bson_types": sorted(catalog.BSON_TYPES.values(), key=lambda t: t.byte),
        "integer_kinds": sorted(catalog.INTEGER_KIND_RANGES.items()),
        "double_exact_limit": catalog.DOUBLE_EXACT_LIMIT,
        "binary_prefix_bytes": catalog.BINARY_PREFIX_BYTES,
        "uuid_subtype": catalog.UUID_SUBTYPE,
        "vector_subtype": catalog.VECTOR_SUBTYPE,
        "scalars": [s for s in catalog.SCALARS.values() if s.bson_type is not None],
        "scalars_by_kind": catalog.SCALARS,
        "integer_ranges": sorted(catalog.INTEGER_SPELLING_RANGES.items()),
        "bool_range": catalog.BOOL_SPELLING_RANGE,
        "float_max": sorted(catalog.FLOAT_SPELLING_MAX.items()),
        "clock_durations": sorted(catalog.CLOCK_DURATIONS.items()),
        "clock_time_points": sorted(catalog.CLOCK_TIME_POINTS.items()),
        "enum_storages": list(catalog.ENUM_STORAGES.values()),
        "vector_dtypes": list(catalog.VECTOR_DTYPES.values()),
        # binary_vector<dtype> and, where the dtype has one, a fixed dimension (3), by test name.
        "vector_scalars": [(d.dtype, catalog.vector_scalar(d.dtype, None))
                           for d in catalog.VECTOR_DTYPES.values()] +
                          [(f"{d.dtype}_3", catalog.vector_scalar(d.dtype, 3))
                           for d in catalog.VECTOR_DTYPES.values() if d.element_width is not None],
    }


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(HERE), undefined=jinja2.StrictUndefined,
                             keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True)
    text = env.get_template("catalog_facts_test.cpp.j2").render(**facts())
    with open(sys.argv[1], "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
