"""Reading schema files for the tools: the generator's own reader and linker, so a schema the
tools accept is one `bsongen generate` accepts, with the same file:line:column errors.

The tools also read the two forms the code generator is gaining (wire.NULLABLE, wire.NUMBER).
While the generator's catalog does not know a form, the linker would call it an unknown type, so
it links a copy of the model with the form replaced by its element (`nullable<T>` -> `T`,
`number<int64>` -> `int64`), after checking the form's own rules here. Once the catalog knows a
form, the copy keeps it and the linker's rules apply instead.
"""

from __future__ import annotations

import copy
from typing import Iterator, Optional, Union

from .. import catalog, linker, schema_reader
from ..diagnostics import SchemaError, SchemaErrors
from ..model import NAMED_KIND, Enum, Field, Model, Struct, TypeRef
from . import wire


def generator_knows(kind: str) -> bool:
    """True when the code generator (its catalog) can generate `kind`."""
    return kind in catalog.SCALARS or kind in catalog.CONTAINERS or \
        kind in catalog.DEFINITION_KINDS


def walk(t: TypeRef) -> Iterator[TypeRef]:
    """`t` and every type reference inside it, outermost first."""
    yield t
    if t.element is not None:
        yield from walk(t.element)


def _check_forms(model: Model) -> list[SchemaError]:
    """The rules of the forms the generator does not know yet (it checks them once it does)."""
    errors = []
    for s in model.structs:
        for f in s.fields:
            outer = f.type.element if f.type.kind == "optional" and f.type.element else f.type
            for t in walk(f.type):
                where = t.location or f.location
                if t.kind == wire.NUMBER and not generator_knows(wire.NUMBER):
                    if t.element is None or t.element.kind not in wire.NUMBER_ELEMENTS:
                        errors.append(SchemaError(where, "`number` takes int64 or double: "
                                                  "number<int64> or number<double>"))
                if t.kind == wire.NULLABLE and not generator_knows(wire.NULLABLE):
                    if t is not outer:
                        errors.append(SchemaError(where, "`nullable` is only allowed as a "
                                                  "field's outermost type or inside `optional`",
                                                  "a vector or map element that may be null "
                                                  "is `any`"))
                    elif t.element is None or t.element.kind in ("optional", wire.NULLABLE):
                        errors.append(SchemaError(where, "`nullable` needs a non-optional "
                                                  "element type", "optional<nullable<T>> keeps "
                                                  "absent, null and a value apart"))
    return errors


def _without_unknown_forms(t: TypeRef) -> TypeRef:
    if t.kind in (wire.NULLABLE, wire.NUMBER) and not generator_knows(t.kind) and t.element:
        return _without_unknown_forms(t.element)
    if t.element is not None:
        t.element = _without_unknown_forms(t.element)
    return t


def load(path: str, display: Optional[str] = None) -> Model:
    """Reads and validates one schema file. Returns the model as read (not linked: the tools
    look at kinds, names and keys, never at what the linker derives); raises SchemaErrors or
    SchemaError exactly as `bsongen generate` would."""
    model = schema_reader.read_schema(path, display)
    errors = _check_forms(model)
    if errors:
        raise SchemaErrors(errors)
    probe = copy.deepcopy(model)
    for s in probe.structs:
        for f in s.fields:
            f.type = _without_unknown_forms(f.type)
    linker.link(probe)
    # The reader leaves a reference to a struct or enum `named` (the linker resolves it); the tools
    # look at the unlinked model, so name the kind here as the linker would.
    kinds = {s.name: "struct" for s in model.structs} | {e.name: "enum" for e in model.enums}
    for s in model.structs:
        for f in s.fields:
            for t in walk(f.type):
                if t.kind == NAMED_KIND:
                    t.kind = kinds[t.name or ""]
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
