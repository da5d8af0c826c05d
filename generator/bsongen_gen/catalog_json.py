"""The type catalogue (catalog.py) as JSON, for the parts of bsongen that are not Python.

    python3 -m bsongen_gen.catalog_json [--out FILE]      (with generator/ on PYTHONPATH)

The build runs this and compiles the JSON into bsongen-scan (scanner/README.md), so the scanner
knows the kinds, C++ spellings and limits the generator knows without a copy of its own. Every public upper-case constant of catalog.py is emitted, named in lower case, so what the
catalogue gains the JSON gains:

- a dict whose values are dataclasses (SCALARS, CONTAINERS) becomes an array of objects in the
  catalogue's order (each object names its own kind; the order matters: the first scalar kind
  with a given C++ type is that type's default kind);
- other dataclasses become objects, tuples and sets become arrays, other dicts stay objects.

A constant that JSON cannot hold stops the build with its name.

What bsongen-scan reads (scanner/src/type_catalog.cpp; renaming one of these stops every scan with
a message naming it, and tests/scanner/scan_catalog_test.cpp fails):
  scalars[]:    kind, cpp_type, pmr_cpp_type (null where none)
  containers[]: kind, cpp_template, cpp_leading_args, has_size
  definition_kinds, max_array_size
  vector_kind, max_vector_dimension,
  vector_dtypes[]: dtype, cpp_type, pmr_cpp_type, fixed_element (null where none)
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from typing import Any, Optional

from . import catalog


def _plain(value: Any, where: str) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name), f"{where}.{f.name}")
                for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        if value and all(dataclasses.is_dataclass(v) for v in value.values()):
            return [_plain(v, f"{where}[{k!r}]") for k, v in value.items()]
        out = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise TypeError(f"{where}: key {k!r} is not a string")
            out[k] = _plain(v, f"{where}[{k!r}]")
        return out
    if isinstance(value, (list, tuple)):
        return [_plain(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, (set, frozenset)):
        return sorted(_plain(v, f"{where}[]") for v in value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"{where}: {type(value).__name__} has no JSON form")


def catalog_dict() -> dict[str, Any]:
    """Every public constant of catalog.py, in definition order."""
    out: dict[str, Any] = {}
    for name, value in vars(catalog).items():
        if name.startswith("_") or not name.isupper() or isinstance(value, type) or \
                callable(value):
            continue
        out[name.lower()] = _plain(value, f"catalog.{name}")
    return out


def dumps() -> str:
    return json.dumps(catalog_dict(), indent=1) + "\n"


def main(argv: Optional[list[str]] = None) -> int:
    p = argparse.ArgumentParser(prog="python3 -m bsongen_gen.catalog_json",
                                description="Print the type catalogue as JSON.")
    p.add_argument("--out", metavar="FILE", help="write FILE (only when it changes) "
                   "instead of printing")
    args = p.parse_args(argv)
    try:
        text = dumps()
    except TypeError as e:
        print(f"bsongen catalog: {e}", file=sys.stderr)
        return 1
    if args.out is None:
        sys.stdout.write(text)
        return 0
    try:
        with open(args.out, encoding="utf-8") as f:
            if f.read() == text:
                return 0  # unchanged: what depends on the file is not rebuilt
    except OSError:
        pass
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    temporary = args.out + ".tmp"
    with open(temporary, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(temporary, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
