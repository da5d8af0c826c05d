"""Projections: structs that keep some of another struct's fields (`projection_of`).

A projection names its source and the paths it keeps (`[id, status, customer.name]`, member
names joined by dots). expand() turns it into an ordinary struct: each kept field is a copy of the
source's (type, key, default, required, omit_empty, doc), in the source's order, and a path into
a nested struct (`customer.name`) keeps that field with its struct replaced by a generated
projection of it, named `<projection>_<member>` (`order_summary_customer`), which keeps only the
named members. The projection's own options (unknown_fields, capture_member, duplicate_keys,
visit) apply to the structs it generates too; nothing is taken from the source's options.

It works on names, before the linker resolves any reference, so the linker runs it first (its
errors join the linker's, with the path's file:line:column) and the tools run it on the unlinked
models they read (tools/schemas.py). Generated code has no special case for a projection but one:
decode steps over the source's other fields inline (cpp.py, `skipped` runs).
"""

from __future__ import annotations

import copy
from typing import Callable, Optional

from .diagnostics import Location, did_you_mean
from .model import NAMED_KIND, Model, Projection, ProjectionPath, Struct, TypeRef

# What a dotted path may step through to reach a struct's members: MongoDB's paths reach into an
# optional or nullable struct, and into every document of an array of them (one array: a path
# does not reach into arrays nested in arrays). A map's values sit under keys the schema does not
# name, so a path cannot go through one.
_WRAPPERS = ("optional", "nullable")
_ARRAYS = ("vector", "array")

ErrorSink = Callable[[Optional[Location], str, str], None]


def _unwrap(t: TypeRef) -> TypeRef:
    while t.kind in _WRAPPERS and t.element is not None:
        t = t.element
    return t


def inner_struct(t: TypeRef, struct_names) -> Optional[TypeRef]:
    """The reference to the struct whose members a dotted path through a value of type t names
    (through optional, nullable and one vector or array); None when there is none."""
    t = _unwrap(t)
    if t.kind in _ARRAYS and t.element is not None:
        t = _unwrap(t.element)
    if t.kind in (NAMED_KIND, "struct") and t.name in struct_names:
        return t
    return None


def nested_name(projection: str, member: str) -> str:
    """The generated projection struct that a path through `member` of `projection` keeps."""
    return f"{projection}_{member}"


class _Expander:
    def __init__(self, model: Model, error: ErrorSink):
        self.model = model
        self.error = error
        self.structs = {s.name: s for s in model.structs}
        self.taken = set(self.structs) | {e.name for e in model.enums}

    def run(self) -> None:
        for s in list(self.model.structs):
            if s.projection is not None and not s.projection.expanded:
                self.expand(s, s.name, "")

    def expand(self, s: Struct, root: str, prefix: str) -> None:
        """Expands projection s; `root` is the projection the schema declares and `prefix` the
        path to s within it (`customer.`), which messages show."""
        p = s.projection
        p.expanded = True
        source = self.structs.get(p.source)
        if source is None:
            enum = p.source in self.taken
            self.error(s.location, f"projection `{s.name}`: `{p.source}` is "
                       f"{'an enum' if enum else 'not a struct of this schema'}",
                       (None if enum else did_you_mean(p.source, [n for n in self.structs
                                                                  if n != s.name])) or
                       "projection_of names the struct whose fields it keeps")
            return
        if source.projection is not None:
            self.error(s.location, f"projection `{s.name}`: `{source.name}` is a projection itself",
                       f"project `{source.projection.source}` instead: a projection keeps "
                       "fields of an ordinary struct")
            return
        if not p.paths:
            self.error(s.location, f"projection `{s.name}` keeps no field",
                       f"list the fields of `{source.name}` it keeps: `fields: [id, name]`")
            return
        tree = self.path_tree(root, prefix, source, p.paths)
        for f in source.fields:
            if f.name not in tree:
                continue
            kept = copy.deepcopy(f)
            below = tree[f.name]
            if below:
                inner = inner_struct(kept.type, self.structs)
                name = nested_name(s.name, f.name)
                if name in self.taken:
                    self.error(below[0].location, f"projection `{root}`: the struct that keeps "
                               f"`{prefix}{below[0].text}` would be named `{name}`, which is taken",
                               "rename the projection or the other definition")
                    continue
                self.taken.add(name)
                nested = Struct(name=name, fields=[], doc=f"`{f.name}` of {s.name}: what it keeps "
                                f"of {inner.name}.", location=below[0].location,
                                unknown_fields=s.unknown_fields, capture_member=s.capture_member,
                                duplicate_keys=s.duplicate_keys, visit=s.visit,
                                projection=Projection(inner.name, [
                                    ProjectionPath(path.text.split(".", 1)[1], path.location)
                                    for path in below]))
                inner.name = name
                self.model.structs.append(nested)
                self.structs[name] = nested
                self.expand(nested, root, f"{prefix}{f.name}.")
            s.fields.append(kept)

    def path_tree(self, root: str, prefix: str, source: Struct,
                  paths: list[ProjectionPath]) -> dict:
        """Member name -> the paths below it ([] when it is kept whole), for the valid paths;
        reports the others."""
        members = {f.name: f for f in source.fields}
        keys = {f.key: f.name for f in source.fields}
        tree: dict[str, list[ProjectionPath]] = {}
        first: dict[str, ProjectionPath] = {}
        for path in paths:
            head, _, rest = path.text.partition(".")
            shown = f"projection `{root}`: `{prefix}{path.text}`"
            if not path.text or any(not part for part in path.text.split(".")):
                self.error(path.location, f"{shown} is not a path",
                           "member names joined by dots: `customer.name`")
                continue
            f = members.get(head)
            if f is None:
                hint = f"`{head}` is the key of member `{keys[head]}`: paths name members" \
                    if head in keys else did_you_mean(head, members) or \
                    f"members of `{source.name}`: {', '.join(members) or 'none'}"
                self.error(path.location, f"{shown}: struct `{source.name}` has no member "
                           f"`{head}`", hint)
                continue
            if rest and f.type is not None and inner_struct(f.type, self.structs) is None:
                why = "a map: its entries have no names a path can give" \
                    if _holds_map(f.type) else "not a struct, nor an optional, nullable, vector or " \
                    "array of one"
                self.error(path.location, f"{shown}: `{source.name}.{head}` is {why}",
                           f"keep `{prefix}{head}` whole")
                continue
            if head in tree and (not rest or not tree[head]):
                earlier = first[head]
                what = "twice" if earlier.text == path.text else \
                    f"both whole and in part (`{prefix}{earlier.text}` at {earlier.location})"
                self.error(path.location, f"projection `{root}`: `{prefix}{head}` is kept {what}",
                           "keep a member whole or name the parts it keeps, once each")
                continue
            first.setdefault(head, path)
            tree.setdefault(head, [])
            if rest:
                tree[head].append(path)
        return tree


def _holds_map(t: TypeRef) -> bool:
    t = _unwrap(t)
    if t.kind in _ARRAYS and t.element is not None:
        t = _unwrap(t.element)
    return t.kind == "map"


def expand(model: Model, error: ErrorSink) -> None:
    """Fills in the fields of every projection of `model` not expanded yet and adds the nested
    projection structs its paths need, reporting problems through `error(location, message,
    hint)`."""
    _Expander(model, error).run()
