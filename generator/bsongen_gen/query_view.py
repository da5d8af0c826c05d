"""The C++ view of what a struct gives queries (queries.py): its projection document as lines of
bytes, its field paths, and, for a projection, the source's other fields that decode steps over
inline. cpp.py attaches one to every StructView; templates place the text (queries.j2, and the
skip runs in codecs.j2).
"""

from __future__ import annotations

import json
import struct as binary_struct
from dataclasses import dataclass, field
from typing import Optional

from . import catalog, names, queries
from .layout import element_bson_type
from .model import Model, Struct


@dataclass
class SkipView:
    """A field of a projection's source that the projection leaves out: decode steps over an
    element with its type byte (when the type decides it) and key without a lookup."""
    index: int                  # the source field's index: its constant is skip_<index>
    key: str
    bson_type: Optional[str]    # bson_type enumerator, or None when the value decides


@dataclass
class SkipGroup:
    """Skipped source fields stepped over by one call: consecutive fixed-width ones together
    (detail::skip_fixed_run), any other alone (detail::skip_known)."""
    fixed: bool
    skips: list[SkipView]


@dataclass
class FieldPathView:
    name: str                   # the member: the path constant's name
    key: str
    # The qualified struct whose fields the path continues into (`order_paths::customer.name`),
    # or None for a path without members.
    struct: Optional[str] = None


@dataclass
class QueryView:
    projection_width: int
    # The projection document as (bytes, Extended JSON of that part) lines: length, entries,
    # terminator.
    projection_lines: list[tuple[bytes, str]]
    projection_json: str
    paths: list[FieldPathView]
    paths_param: str            # the template parameter of its paths_of specialization
    paths_alias: Optional[str]  # `<struct>_paths` in the schema's namespace (schema mode)
    # Projections decoded with skip runs: per kept field (by index) the source fields just before
    # it, and those after the last one.
    skipped_before: list[list[SkipView]] = field(default_factory=list)
    skipped_after: list[SkipView] = field(default_factory=list)

    @property
    def skip_runs(self) -> bool:
        return bool(self.skipped_after) or any(self.skipped_before)

    @property
    def groups_before(self) -> list[list[SkipGroup]]:
        return [_groups(run) for run in self.skipped_before]

    @property
    def groups_after(self) -> list[SkipGroup]:
        return _groups(self.skipped_after)


def _groups(run: list[SkipView]) -> list[SkipGroup]:
    out: list[SkipGroup] = []
    for k in run:
        fixed = k.bson_type in catalog.FIXED_WIDTH_BSON_TYPES
        if fixed and out and out[-1].fixed:
            out[-1].skips.append(k)
        else:
            out.append(SkipGroup(fixed, [k]))
    return out


def _skips(model: Model, s: Struct) -> tuple[list[list[SkipView]], list[SkipView]]:
    """The skip runs of projection s, or none. Only where skipping inline is what the general path
    would do with those elements: unknown fields skipped (not captured or refused) and no
    duplicate keys refused (which must record every unknown key)."""
    if s.projection is None or s.unknown_fields != "skip" or s.duplicate_keys == "reject":
        return [[] for _ in s.fields], []
    source = next((x for x in model.structs if x.name == s.projection.source), None)
    if source is None:
        return [[] for _ in s.fields], []
    kept = {f.key: f.index for f in s.fields}
    before: list[list[SkipView]] = [[] for _ in s.fields]
    pending: list[SkipView] = []
    for f in source.fields:
        if f.key in kept:
            before[kept[f.key]] = pending
            pending = []
        else:
            pending.append(SkipView(f.index, f.key, element_bson_type(f.value_type)))
    return before, pending


def query_view(model: Model, s: Struct) -> QueryView:
    entries = queries.projection_entries(model, s)
    # The comments are JSON text, so a key's line breaks and backslashes stay inside them.
    lines = [(queries.entry_bytes(path, value), f"{json.dumps(path)}: {value}")
             for path, value in entries]
    width = 4 + sum(len(b) for b, _ in lines) + 1
    lines = [(binary_struct.pack("<i", width), f"{width} bytes"), *lines, (b"\0", "")]
    recursive = queries.recursive_fields(model, s)
    paths = []
    for f in s.fields:
        inner = queries.path_struct(model, f.type)
        shown = names.qualified(model.namespace, inner.name) \
            if inner is not None and f.name not in recursive else None
        paths.append(FieldPathView(f.name, f.key, shown))
    before, after = _skips(model, s)
    member_names = {f.name for f in s.fields}
    return QueryView(
        projection_width=width, projection_lines=lines,
        projection_json=queries.extended_json(entries), paths=paths,
        paths_param=_unused("Path", member_names),
        paths_alias=queries.paths_alias(s.name) if model.defines_types else None,
        skipped_before=before, skipped_after=after)


def _unused(wanted: str, taken: set) -> str:
    name = wanted
    while name in taken:
        name += "_"
    return name
