"""Fixed layouts: which values always encode to the same bytes but for their values.

A fixed-shape struct (every field of fixed width, none optional or omit_empty, no captured unknown
fields, at most catalog.MAX_FIXED_WIDTH bytes) encodes by copying a precomputed skeleton of the
whole document and storing values at known offsets, and decodes by comparing the skeleton's
constant bytes and loading values at those offsets. This module computes those skeletons from a
linked model and the catalog.
"""

from __future__ import annotations

import dataclasses
import struct as binary_struct
from dataclasses import dataclass, field
from typing import Optional

from . import catalog
from .model import Enum, Model, Struct, TypeRef


@dataclass
class Fixed:
    """The encoding of every value of a fixed-width type: `skeleton` holds the bytes of a zero
    value; `value_runs` the (offset, length) ranges that vary with the value; `depth` the
    documents and arrays the value opens (0 for scalars); `checked` whether encoding must check a
    value before writing it (an enum value may name no enumerator, a `cpp:` member may hold what
    the BSON type cannot), so only unchecked layouts encode without a size pass."""
    width: int
    skeleton: bytes
    value_runs: list = field(default_factory=list)
    depth: int = 0
    checked: bool = False


@dataclass
class StructLayout:
    fixed: Optional[Fixed] = None
    offsets: dict = field(default_factory=dict)   # field index -> value offset in the document
    element_starts: list = field(default_factory=list)  # each element's type byte, in order


class Layouts:
    def __init__(self, model: Model):
        self.structs: dict[str, StructLayout] = {}
        for s in model.structs:  # dependency order: what a struct holds by value comes first
            self.structs[s.name] = self._struct(s)

    def fixed(self, t: TypeRef) -> Optional[Fixed]:
        """The fixed layout of a value of type t, or None when its size depends on the value."""
        out = self._fixed(t)
        if out is not None and t.cpp is not None:
            # A `cpp:` spelling may narrow, and narrowed members are checked both ways.
            out = dataclasses.replace(out, checked=True)
        return out

    def _fixed(self, t: TypeRef) -> Optional[Fixed]:
        k = catalog.scalar_of(t)
        if k is not None:
            if k.fixed_width is None or k.bson_type is None:
                return None
            skeleton = bytearray(k.fixed_width)
            constant = set()
            for offset, byte in k.constant_bytes:
                skeleton[offset] = byte
                constant.add(offset)
            return Fixed(k.fixed_width, bytes(skeleton),
                         _runs(i for i in range(k.fixed_width) if i not in constant))
        if t.kind == "enum" and isinstance(t.definition, Enum):
            width = catalog.ENUM_STORAGES[t.definition.storage].fixed_width
            return None if width is None else Fixed(width, bytes(width), [(0, width)], checked=True)
        if t.kind == "struct" and isinstance(t.definition, Struct):
            laid_out = self.structs.get(t.definition.name)
            return laid_out.fixed if laid_out else None
        if t.kind == "array":
            e = self.fixed(t.element)
            bson_type = element_bson_type(t.element)
            if e is None or bson_type is None:
                return None
            body = bytearray()
            runs = []
            for i in range(t.size):
                body += bytes([catalog.BSON_TYPES[bson_type].byte]) + str(i).encode() + b"\0"
                runs += [(4 + len(body) + o, n) for o, n in e.value_runs]
                body += e.skeleton
            skeleton = _document(body)
            if len(skeleton) > catalog.MAX_FIXED_WIDTH:
                return None
            return Fixed(len(skeleton), skeleton, _merge(runs), 1 + e.depth, e.checked)
        return None

    def _struct(self, s: Struct) -> StructLayout:
        out = StructLayout()
        if s.unknown_fields == "capture":
            return out  # captured elements make the size depend on the value
        parts = []
        for f in s.fields:
            fixed = self.fixed(f.value_type) if f.value_type is not None else None
            bson_type = element_bson_type(f.value_type) if f.value_type is not None else None
            if f.is_optional or f.omit_empty or fixed is None or bson_type is None:
                return out
            parts.append((f, bson_type, fixed))
        body = bytearray()
        runs = []
        depth = 0
        checked = False
        for f, bson_type, fixed in parts:
            out.element_starts.append(4 + len(body))
            body += bytes([catalog.BSON_TYPES[bson_type].byte]) + f.key.encode() + b"\0"
            out.offsets[f.index] = 4 + len(body)
            runs += [(out.offsets[f.index] + o, n) for o, n in fixed.value_runs]
            body += fixed.skeleton
            depth = max(depth, fixed.depth)
            checked = checked or fixed.checked
        skeleton = _document(body)
        if len(skeleton) > catalog.MAX_FIXED_WIDTH:
            return StructLayout()
        out.fixed = Fixed(len(skeleton), skeleton, _merge(runs), 1 + depth, checked)
        return out


def element_bson_type(t: TypeRef) -> Optional[str]:
    """The BSON type a value of t is written as (a `bson_type` enumerator name), or None when
    the value decides (`any`, `nullable`, `number`). An optional's is its element's."""
    scalar = catalog.scalar_of(t)
    if scalar is not None:
        return scalar.bson_type
    if t.kind == "enum" and isinstance(t.definition, Enum):
        return catalog.ENUM_STORAGES[t.definition.storage].bson_type
    if t.kind == "struct":
        return catalog.STRUCT_BSON_TYPE
    if t.kind == "optional":
        return element_bson_type(t.element)
    # None for nullable and number too: the value decides (null or T; the type it was read as).
    return catalog.CONTAINERS[t.kind].bson_type


def _document(body: bytes) -> bytes:
    return binary_struct.pack("<i", len(body) + 5) + bytes(body) + b"\0"


def _runs(offsets) -> list:
    return _merge([(o, 1) for o in offsets])


def _merge(runs: list) -> list:
    merged: list = []
    for offset, length in sorted(runs):
        if length == 0:
            continue
        if merged and merged[-1][0] + merged[-1][1] == offset:
            merged[-1] = (merged[-1][0], merged[-1][1] + length)
        else:
            merged.append((offset, length))
    return merged
