"""What the generated code gives queries, computed from a linked model: each struct's MongoDB
`find` projection and the structure of its typed field paths.

The projection asks for exactly the keys the struct's decoder reads, so a query made with it
returns that and nothing more (docs/schema-format.md, "Projections and field paths"):

- every field by its stored key; a field holding a struct (through optional, nullable and one
  vector or array, as MongoDB's dotted paths reach: projection.inner_struct) by the paths of that
  struct's fields (`customer.name`), except where that struct cannot be named part by part: it
  captures unknown fields, has no fields, holds a key a path cannot spell (one with a `.` or
  starting with `$`), or is one the path is already inside (a recursive struct): the field is then
  asked for whole;
- `_id: 0` first when the struct has no `_id` field, since MongoDB returns `_id` unless told not
  to;
- a struct that captures unknown fields (`unknown_fields: capture`) wants every element, and so
  does one with a top-level key a path cannot spell: its projection is `{}` (everything);
- a struct with no fields asks for `_id` alone: `{_id: 1}`, the least an inclusion projection
  returns (`{_id: 0}` alone would exclude `_id` and return everything else);
- past MAX_EXPANDED_PATHS paths (shared structs nested deep multiply them), nested structs are
  asked for whole.

The paths follow the same steps: a field's path constant has members for the fields of the
struct it holds, unless that struct leads back to the struct the path started in (C++ would
instantiate the paths of a recursive struct without end): such a field's path has none.
"""

from __future__ import annotations

import json
import struct as binary_struct
from typing import Optional

from . import names, projection
from .model import Model, Struct

ID_KEY = "_id"
# The int32 value of an included and an excluded path.
INCLUDE, EXCLUDE = 1, 0
# The class template whose specializations hold the paths (bsongen/query.hpp), which no member
# may be named.
PATHS_TEMPLATE = "paths_of"


def paths_alias(struct_name: str) -> str:
    """The alias of a schema's struct's field paths in its namespace: `order_paths` for `order`.
    A name's trailing underscores go after the suffix (`log_` -> `log_paths_`), so the alias
    holds no `__` (reserved in C++) and differs from the alias of the name without them."""
    stem = struct_name.rstrip("_")
    return f"{stem}_paths{'_' * (len(struct_name) - len(stem))}"


def nameable(key: str) -> bool:
    """Whether a dotted path can name a key: MongoDB splits paths at `.` and reads a leading `$`
    as an operator."""
    return "." not in key and not key.startswith("$")


def path_struct(model: Model, t) -> Optional[Struct]:
    """The struct whose fields a path through a value of type t (linked) continues into."""
    inner = projection.inner_struct(t, {s.name for s in model.structs})
    return inner.definition if inner is not None else None


# The most paths a projection names by expanding nested structs: shared structs nested deep
# would otherwise multiply (18 levels of two fields of the level below: 2^18 paths). Past it,
# nested structs are asked for whole. Every struct's projection is a constant in the generated
# header, so this bounds what each struct adds to it: at 4096, bench/compile_cost's 100-struct
# schema (structs nesting the ones before them) had a 75 MB header of 1.4 million lines; at 256,
# 9,476 lines against 8,849 with no expansion, and including it costs what it did without
# projections (0.5 s of g++ -O2).
MAX_EXPANDED_PATHS = 256


class _TooMany(Exception):
    pass


def _paths(model: Model, s: Struct, prefix: str, inside: frozenset,
           budget: Optional[list]) -> Optional[list[str]]:
    """The paths that ask for every field s reads, below `prefix`; None when a key of s cannot be
    named by a path. Nested structs are expanded while `budget` ([paths left]) lasts (_TooMany
    when it runs out), not at all when it is None."""
    out = []
    for f in s.fields:
        if not nameable(f.key):
            return None
        path = prefix + f.key
        inner = path_struct(model, f.type)
        below = None
        if budget is not None and inner is not None and inner.name not in inside and \
                inner.fields and inner.unknown_fields != "capture":
            below = _paths(model, inner, path + ".", inside | {inner.name}, budget)
        if below is None:
            budget_left = budget is not None and budget[0] > 0
            if budget is not None:
                if not budget_left:
                    raise _TooMany()
                budget[0] -= 1
            out.append(path)
        else:
            out.extend(below)
    return out


def projection_entries(model: Model, s: Struct) -> list[tuple[str, int]]:
    """The projection document of struct s (linked) as (path, 1 or 0) pairs in order; empty for
    `{}`, which asks for every field."""
    if s.unknown_fields == "capture":
        return []
    try:
        paths = _paths(model, s, "", frozenset({s.name}), [MAX_EXPANDED_PATHS])
    except _TooMany:
        paths = _paths(model, s, "", frozenset({s.name}), None)
    if paths is None:
        return []
    if not paths:
        return [(ID_KEY, INCLUDE)]
    entries = [(p, INCLUDE) for p in paths]
    if ID_KEY not in {f.key for f in s.fields}:
        entries.insert(0, (ID_KEY, EXCLUDE))
    return entries


def entry_bytes(path: str, value: int) -> bytes:
    """One element of a projection document: int32 `value` under key `path`."""
    return b"\x10" + path.encode("utf-8") + b"\0" + binary_struct.pack("<i", value)


def document_bytes(entries: list[tuple[str, int]]) -> bytes:
    body = b"".join(entry_bytes(p, v) for p, v in entries)
    return binary_struct.pack("<i", len(body) + 5) + body + b"\0"


def extended_json(entries: list[tuple[str, int]]) -> str:
    """The projection as (relaxed) Extended JSON, as shells and drivers take it."""
    return json.dumps(dict(entries), ensure_ascii=False)


def recursive_fields(model: Model, s: Struct) -> set[str]:
    """Names of s's fields whose path leads (through the structs paths continue into) back to s:
    their path constants have no members."""
    out = set()
    for f in s.fields:
        inner = path_struct(model, f.type)
        if inner is not None and _leads_to(model, inner, s.name, set()):
            out.add(f.name)
    return out


def _leads_to(model: Model, start: Struct, target: str, seen: set) -> bool:
    if start.name == target:
        return True
    if start.name in seen:
        return False
    seen.add(start.name)
    for f in start.fields:
        inner = path_struct(model, f.type)
        if inner is not None and _leads_to(model, inner, target, seen):
            return True
    return False


def check_names(model: Model, error) -> None:
    """Names the generated paths need: a schema's struct `order` gets the alias `order_paths` in
    its namespace, which no definition may be named, and no member may be named like the class
    template holding the paths. `error(location, message, hint)` reports."""
    definitions = {d.name: d for d in [*model.enums, *model.structs]}
    for s in model.structs:
        for f in s.fields:
            if f.name == PATHS_TEMPLATE:
                error(f.location, f"struct `{s.name}`: member `{f.name}` has the name of the class "
                      f"template holding field paths (bsongen::{PATHS_TEMPLATE})",
                      "rename the member and give it its BSON name with `key:`")
        if not model.defines_types:
            continue
        alias = paths_alias(s.name)
        other = definitions.get(alias)
        if other is not None:
            error(other.location, f"`{alias}` is the name of struct `{s.name}`'s field paths "
                  f"(`{alias}::<member>`)", f"rename `{alias}` or `{s.name}`")
        else:
            problem = names.definition_problem(model.namespace, alias)
            if problem:
                error(s.location, f"struct `{s.name}`: its field paths `{alias}` {problem}",
                      "rename the struct, or choose another namespace")

