"""Reading schema files for the tools: the generator's own reader and linker, so a schema the
tools accept is one `bsongen generate` accepts, with the same file:line:column errors.
"""

from __future__ import annotations

import copy
from typing import Iterator, Optional, Union

from .. import linker, projection, schema_reader
from ..model import NAMED_KIND, Enum, Field, Model, Struct, TypeRef
from . import wire


def walk(t: TypeRef) -> Iterator[TypeRef]:
    """`t` and every type reference inside it, outermost first."""
    yield t
    if t.element is not None:
        yield from walk(t.element)


def load(path: str, display: Optional[str] = None) -> Model:
    """Reads and validates one schema file. Returns the model as read (not linked: the tools
    look at kinds, names and keys, never at what the linker derives); raises SchemaErrors or
    SchemaError exactly as `bsongen generate` would."""
    model = schema_reader.read_schema(path, display)
    linker.link(copy.deepcopy(model))  # the linker's verdict; it fills in what it derives
    # Projections are structs with the source's fields (the linker accepted every path).
    projection.expand(model, lambda *problem: None)
    # The reader leaves a reference to a struct or enum `named` (the linker resolves it); the tools
    # look at the unlinked model, so name the kind here as the linker would.
    kinds = {s.name: "struct" for s in model.structs} | {e.name: "enum" for e in model.enums}
    for s in model.structs:
        for f in s.fields:
            for t in walk(f.type):
                if t.kind == NAMED_KIND:
                    t.kind = kinds[t.name or ""]
            wire.spell_elements(f.type)
    return model


class Definitions:
    """A model's structs and enums by name."""

    def __init__(self, model: Model):
        self.model = model
        self.structs: dict[str, Struct] = {s.name: s for s in model.structs}
        self.enums: dict[str, Enum] = {e.name: e for e in model.enums}

    def struct(self, t: TypeRef) -> Struct:
        return self.structs[t.name]

    def enum(self, t: TypeRef) -> Enum:
        return self.enums[t.name]

    def find(self, name: str) -> Union[Struct, Enum, None]:
        return self.structs.get(name) or self.enums.get(name)

    def enum_storage(self, t: TypeRef) -> Optional[str]:
        return self.enums[t.name].storage if t.kind == "enum" and t.name in self.enums else None


def presence(f: Field) -> tuple[TypeRef, bool]:
    """(the value type, whether the field may be absent on the wire): an `optional` field is
    left out when empty, so is an `omit_empty` one."""
    if f.type.kind == "optional" and f.type.element is not None:
        return f.type.element, True
    return f.type, f.omit_empty
