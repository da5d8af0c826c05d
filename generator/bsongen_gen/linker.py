"""Resolves and validates a model: the only stage that looks names up.

link() resolves every struct/enum reference, checks the whole model and orders the structs so
each follows the structs it holds by value. It collects every problem it can before raising
SchemaErrors, so one run reports them all. It computes nothing about the generated code: fixed
layouts are layout.py's, C++ spellings and tables cpp.py's.
"""

from __future__ import annotations

import re
from typing import Optional, Union

from . import catalog, names, projection, queries, spellings
from .diagnostics import Location, SchemaError, SchemaErrors, did_you_mean
from .model import (ALLOCATORS, DEFAULT_ALLOCATOR, DUPLICATE_KEY_POLICIES, NAMED_KIND,
                    UNKNOWN_FIELD_POLICIES, Enum, EnumValue, Field, Model, Struct, TypeRef)

ALLOCATOR_AWARE_NAMES = ("allocator_type", "get_allocator")  # what such a struct declares
MAX_ARRAY_SIZE = catalog.MAX_ARRAY_SIZE
# An enum's values: int32 when stored as one (and schema mode declares enums over std::int32_t).
ENUM_VALUE_RANGE = catalog.BSON_TYPES[catalog.ENUM_STORAGES["int32"].bson_type].integer_range


def text_problem(text: str) -> str:
    """Why `text` cannot be written as UTF-8 (a lone surrogate such as "\\ud800"), or ""."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        return f"holds {text[e.start]!r} at position {e.start}, which is not a Unicode scalar " \
               "value (a lone surrogate) and has no UTF-8 form"
    return ""


def doc_problem(doc: str) -> str:
    """Why a doc comment cannot be copied into C++ `//` comments, or ""."""
    problem = text_problem(doc)
    if problem:
        return problem
    for number, line in enumerate(doc.splitlines(), 1):
        if line.rstrip().endswith("\\"):
            return f"line {number} ends with a backslash, which would continue the generated " \
                   "C++ comment onto the code below it"
    return ""


class _Linker:
    def __init__(self, model: Model):
        self.model = model
        self.errors: list[SchemaError] = []
        self.reported: set[str] = set()
        self.definitions: dict[str, Union[Struct, Enum]] = {}
        self.model_location = Location(model.origin_path)

    def error(self, location: Optional[Location], message: str, hint: str = "") -> None:
        e = SchemaError(location or self.model_location, message, hint)
        # A projection's fields are copies of its source's, with their locations: a problem
        # with one is reported once.
        if str(e) not in self.reported:
            self.reported.add(str(e))
            self.errors.append(e)

    def check_allocator(self) -> None:
        allocator = self.model.allocator
        if allocator not in ALLOCATORS:
            self.error(None, f"`allocator` is `{allocator}`; expected one of {', '.join(ALLOCATORS)}",
                       did_you_mean(allocator, ALLOCATORS))
        elif allocator != DEFAULT_ALLOCATOR and not self.model.defines_types:
            self.error(None, "`allocator` applies to types a schema defines; a scanned header's "
                             "structs allocate as their members say")

    # --- Names and definitions. ---

    def check_identifier(self, name: str, what: str, location: Optional[Location]) -> None:
        problem = names.identifier_problem(name)
        if problem:
            self.error(location, f"{what} `{name}` {problem}")

    def check_doc(self, doc: str, what: str, location: Optional[Location]) -> None:
        problem = doc_problem(doc) if isinstance(doc, str) else "is not a string"
        if problem:
            self.error(location, f"doc of {what}: {problem}",
                       "end the line with another character" if "backslash" in problem else "")

    def collect_definitions(self) -> None:
        m = self.model
        problem = names.namespace_problem(m.namespace)
        if problem:
            self.error(self.model_location, f"namespace `{m.namespace}`: {problem}")
        if not re.match(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$", m.output_name):
            self.error(self.model_location, f"output name `{m.output_name}` is not a file name")
        self.check_doc(m.doc, "the schema", self.model_location)
        for definition in [*m.enums, *m.structs]:
            what = "enum" if isinstance(definition, Enum) else "struct"
            self.check_identifier(definition.name, f"{what} name", definition.location)
            problem = names.definition_problem(m.namespace, definition.name)
            if problem:
                self.error(definition.location, f"{what} name `{definition.name}` {problem}",
                           "rename it, or choose another namespace")
            self.check_doc(definition.doc, f"{what} `{definition.name}`", definition.location)
            previous = self.definitions.get(definition.name)
            if previous is not None:
                self.error(definition.location, f"`{definition.name}` is defined twice",
                           f"the first definition is at {previous.location}")
                continue
            self.definitions[definition.name] = definition

    # --- Enums. ---

    def link_enum(self, enum: Enum) -> None:
        if enum.storage not in catalog.ENUM_STORAGES:
            self.error(enum.location, f"enum `{enum.name}`: storage `{enum.storage}` is not one "
                       f"of {', '.join(catalog.ENUM_STORAGES)}",
                       did_you_mean(enum.storage, catalog.ENUM_STORAGES))
        if not enum.values:
            self.error(enum.location, f"enum `{enum.name}` has no values")
        seen_names: dict[str, EnumValue] = {}
        seen_values: dict[int, EnumValue] = {}
        seen_bson: dict[str, EnumValue] = {}
        for v in enum.values:
            self.check_identifier(v.name, f"enumerator of `{enum.name}`", v.location)
            self.check_doc(v.doc, f"enumerator `{v.name}`", v.location)
            # The value is the element when stored as int32, and schema mode declares the enum
            # over std::int32_t; a scanned enum stored as a name keeps the user's underlying type.
            in_int32 = _fits(v.value, ENUM_VALUE_RANGE)
            if not in_int32 and (enum.storage == "int32" or self.model.defines_types):
                self.error(v.location, f"enumerator `{v.name}`: {v.value} does not fit in int32",
                           "use smaller values" if self.model.defines_types else
                           "store the enum as a string (BSONGEN_ENUM_AS_STRING), or use smaller "
                           "values")
            for table, key, what in ((seen_names, v.name, "name"), (seen_values, v.value, "value"),
                                     (seen_bson, v.bson_name, "stored name")):
                if key in table:
                    self.error(v.location, f"enum `{enum.name}`: duplicate {what} `{key}`",
                               f"also used by `{table[key].name}` at {table[key].location}")
                table[key] = v
            if "\0" in v.bson_name:
                self.error(v.location, f"enumerator `{v.name}`: stored name contains NUL")
            problem = text_problem(v.bson_name)
            if problem:
                self.error(v.location, f"enumerator `{v.name}`: stored name {problem}")

    # --- Type references. ---

    def resolve(self, t: TypeRef, location: Optional[Location]) -> bool:
        """Turns a `named` reference into `struct` or `enum` and links `definition`."""
        definition = self.definitions.get(t.name or "")
        if t.kind == NAMED_KIND:
            if definition is None:
                self.error(location, f"unknown type `{t.name}`",
                           did_you_mean(t.name or "", [*catalog.ALL_KINDS, *self.definitions]))
                return False
            t.kind = "enum" if isinstance(definition, Enum) else "struct"
        wanted = Struct if t.kind == "struct" else Enum
        if not isinstance(definition, wanted):
            candidates = [n for n, d in self.definitions.items() if isinstance(d, wanted)]
            self.error(location, f"unknown {t.kind} `{t.name}`",
                       did_you_mean(t.name or "", candidates))
            return False
        t.definition = definition
        return True

    def link_type(self, t: TypeRef, location: Optional[Location], top_level: bool) -> bool:
        """Resolves and checks t; False when t is unusable (an error was recorded)."""
        location = t.location or location
        if t.cpp is not None:
            pmr = self.model.allocator == "pmr" or not self.model.defines_types
            why = spellings.problem(t, t.cpp, pmr) if isinstance(t.cpp, str) \
                else f"C++ spelling `{t.cpp}` is not a type name"
            if why is not None:
                self.error(location, why, spellings.accepted_text(t, pmr))
                return False
        if t.kind in catalog.SCALARS:
            return True
        if t.kind == catalog.VECTOR_KIND:
            return self.link_vector(t, location)
        if t.kind == NAMED_KIND or t.kind in catalog.DEFINITION_KINDS:
            return self.resolve(t, location)
        if t.kind in catalog.CONTAINERS:
            c = catalog.CONTAINERS[t.kind]
            if t.kind == "optional" and not top_level:
                self.error(location, "`optional` is only allowed as a field's outermost type",
                           "a vector or map element cannot be absent; use `nullable<T>` for a T or "
                           "null, `any` for mixed values")
                return False
            if t.element is None:
                self.error(location, f"`{t.kind}` needs an element type")
                return False
            if c.has_size:
                if not isinstance(t.size, int) or isinstance(t.size, bool) or \
                        not 0 < t.size <= MAX_ARRAY_SIZE:
                    self.error(location, f"`array` size must be an integer in 1..{MAX_ARRAY_SIZE}")
                    return False
            elif t.size is not None:
                self.error(location, f"`{t.kind}` takes no size")
                return False
            if not self.link_type(t.element, location, top_level=False):
                return False
            if c.element_kinds is not None and t.element.kind not in c.element_kinds:
                self.error(location, f"`{t.kind}` takes {' or '.join(c.element_kinds)}, not "
                           f"`{t.element.name or t.element.kind}`",
                           did_you_mean(t.element.kind, c.element_kinds))
                return False
            refused = dict(c.refused_elements)
            if t.element.kind in refused:
                self.error(location, f"`{t.kind}<{t.element.kind}>` is not allowed",
                           refused[t.element.kind])
                return False
            return True
        self.error(location, f"unknown type `{t.kind}`",
                   did_you_mean(t.kind, [*catalog.ALL_KINDS, *self.definitions]))
        return False

    def link_vector(self, t: TypeRef, location: Optional[Location]) -> bool:
        """`binary_vector<dtype[, N]>`: a known dtype, and a dimension only where it has a fixed
        form (catalog.VECTOR_DTYPES)."""
        dtypes = catalog.VECTOR_DTYPES
        dtype = dtypes.get(t.dtype or "")
        if dtype is None:
            self.error(location, f"`binary_vector` dtype `{t.dtype}` is not one of "
                       f"{', '.join(dtypes)}", did_you_mean(t.dtype or "", dtypes))
            return False
        if t.element is not None:
            self.error(location, "`binary_vector` takes a dtype, not an element type")
            return False
        if t.size is None:
            return True
        if dtype.element_width is None:
            self.error(location, f"`binary_vector<{t.dtype}>` has no fixed dimension",
                       f"its value is `{dtype.cpp_type}` (bytes and padding); drop the size")
            return False
        if not isinstance(t.size, int) or isinstance(t.size, bool) or \
                not 0 < t.size <= catalog.MAX_VECTOR_DIMENSION:
            self.error(location, "`binary_vector` dimension must be an integer in "
                       f"1..{catalog.MAX_VECTOR_DIMENSION}",
                       f"`binary_vector<{t.dtype}>` (no size) holds any dimension")
            return False
        return True

    # --- Structs. ---

    def link_struct(self, s: Struct) -> None:
        if s.unknown_fields not in UNKNOWN_FIELD_POLICIES:
            self.error(s.location, f"struct `{s.name}`: unknown_fields `{s.unknown_fields}` is not "
                       f"one of {', '.join(UNKNOWN_FIELD_POLICIES)}",
                       did_you_mean(s.unknown_fields, UNKNOWN_FIELD_POLICIES))
        if s.duplicate_keys not in DUPLICATE_KEY_POLICIES:
            self.error(s.location, f"struct `{s.name}`: duplicate_keys `{s.duplicate_keys}` is not "
                       f"one of {', '.join(DUPLICATE_KEY_POLICIES)}",
                       did_you_mean(s.duplicate_keys, DUPLICATE_KEY_POLICIES))
        if s.unknown_fields == "capture":
            if not s.capture_member:
                self.error(s.location, f"struct `{s.name}`: unknown_fields `capture` needs "
                           "capture_member (the raw_document member receiving them)")
            else:
                self.check_identifier(s.capture_member, "capture member", s.location)
                if self.model.allocator == "pmr" and \
                        s.capture_member in (s.name, *ALLOCATOR_AWARE_NAMES):
                    self.error(s.location, f"struct `{s.name}`: capture member "
                               f"`{s.capture_member}` would hide what an allocator-aware struct "
                               "declares (`allocator: pmr`: constructors, allocator_type, "
                               "get_allocator)", "rename the capture member")
        elif s.capture_member:
            self.error(s.location, f"struct `{s.name}`: capture_member is set but unknown_fields "
                       f"is `{s.unknown_fields}`", "set unknown_fields: capture")
        member_names: dict[str, Field] = {}
        keys: dict[str, Field] = {}
        for index, f in enumerate(s.fields):
            f.index = index
            self.check_identifier(f.name, "field name", f.location)
            self.check_doc(f.doc, f"field `{f.name}`", f.location)
            if f.name in member_names:
                self.error(f.location, f"struct `{s.name}`: member `{f.name}` is declared twice",
                           f"the first is at {member_names[f.name].location}")
            member_names[f.name] = f
            if f.name == s.capture_member:
                self.error(f.location, f"struct `{s.name}`: `{f.name}` is also the capture member")
            if self.model.allocator == "pmr" and f.name in (s.name, *ALLOCATOR_AWARE_NAMES):
                self.error(f.location, f"struct `{s.name}`: member `{f.name}` would hide "
                           "what an allocator-aware struct declares (`allocator: pmr`: "
                           "constructors, allocator_type, get_allocator)",
                           "rename the member and give it its BSON name with `key:`")
            key_location = f.key_location or f.location
            if not isinstance(f.key, str) or "\0" in f.key or f.key == "":
                self.error(key_location, f"field `{f.name}`: key {f.key!r} must be a non-empty "
                           "string without NUL")
            elif text_problem(f.key):
                self.error(key_location, f"field `{f.name}`: key {text_problem(f.key)}",
                           "keys are UTF-8 text; write the character itself or a valid escape")
            elif f.key in keys:
                self.error(f.location, f"struct `{s.name}`: duplicate key `{f.key}`",
                           f"`{keys[f.key].name}` at {keys[f.key].location} already uses it; "
                           + ("set a different `key`" if self.model.defines_types else
                              "give one of them a different BSONGEN_KEY"))
            else:
                keys[f.key] = f
            if not self.link_type(f.type, f.location, top_level=True):
                continue
            nesting = catalog.container_nesting(f.type)
            if nesting > catalog.MAX_CONTAINER_NESTING:
                self.error(f.location, f"field `{f.name}`: {nesting} containers nest in its type; "
                           f"the limit is {catalog.MAX_CONTAINER_NESTING}",
                           "compilers take time exponential in the depth of nested std::vector "
                           "and std::map types; hold the inner levels in a struct of their own, "
                           "or as `any`")
                continue
            f.is_optional = f.type.kind == "optional"
            f.value_type = f.type.element if f.is_optional else f.type
            if f.is_optional and f.required:
                self.error(f.location, f"field `{f.name}` is optional and required at once",
                           "drop `required`, or make the type non-optional")
            if f.omit_empty and f.required:
                # The encoder would leave out an empty value, and the decoder then refuse the
                # document it wrote with missing_field.
                self.error(f.location, f"field `{f.name}` is omit_empty and required at once: an "
                           "empty value would be left out, and then fail to decode",
                           "drop `required`: an absent field reads its default, the empty value")
            if f.omit_empty and not _emptiable(f.value_type):
                self.error(f.location, f"field `{f.name}`: omit_empty needs a type that can be "
                           f"empty ({_EMPTIABLE_KINDS}), not `{_spelled(f.value_type)}`",
                           "use an optional type to leave it out")
            self.link_default(f)

    def link_default(self, f: Field) -> None:
        d = f.default
        vt = f.value_type
        if d is None:
            return
        if vt.kind == "enum" and isinstance(d, str) and isinstance(vt.definition, Enum):
            enumerators = [v.name for v in vt.definition.values]
            if d not in enumerators:
                self.error(f.location, f"field `{f.name}`: default `{d}` is not an enumerator of "
                           f"`{vt.definition.name}`", did_you_mean(d, enumerators))
        elif vt.kind == "bool" and isinstance(d, bool):
            pass
        elif numeric_kind(vt) and isinstance(d, (int, float)) and not isinstance(d, bool):
            numeric = numeric_kind(vt)
            if numeric != "double" and not isinstance(d, int):
                self.error(f.location, f"field `{f.name}`: default {d} is not an integer")
            elif numeric != "double" and not _fits(d, catalog.INTEGER_KIND_RANGES[numeric]):
                self.error(f.location, f"field `{f.name}`: default {d} does not fit in {numeric}")
            elif numeric != "double" and not _fits(d, spellings.integer_range_of(vt.cpp)
                                                   or catalog.INTEGER_KIND_RANGES[numeric]):
                self.error(f.location, f"field `{f.name}`: default {d} does not fit in "
                           f"`{vt.cpp}`")
            elif numeric == "double" and isinstance(d, int) and not _exact_double(d):
                self.error(f.location, f"field `{f.name}`: default {d} is not exactly a double",
                           f"the nearest double is {_nearest_double(d)}")
        elif vt.kind in ("string", "javascript") and isinstance(d, str):
            if text_problem(d):
                self.error(f.location, f"field `{f.name}`: default {text_problem(d)}")
        else:
            self.error(f.location, f"field `{f.name}`: default {d!r} does not suit type "
                       f"`{vt.kind}`", "defaults are numbers, booleans, strings and enumerators")

    # --- Cycles and order. ---

    def order_structs(self) -> list[Struct]:
        """Structs in dependency order; reports cycles that have no indirection."""
        by_value: dict[str, list[str]] = {}
        any_ref: dict[str, list[str]] = {}
        for s in self.model.structs:
            by_value[s.name], any_ref[s.name] = [], []
            for f in s.fields:
                _collect_struct_refs(f.type, False, by_value[s.name], any_ref[s.name])

        reported: set[str] = set()
        state: dict[str, int] = {}

        def visit_by_value(name: str, stack: list[str]) -> None:
            state[name] = 1
            stack.append(name)
            for dep in by_value.get(name, []):
                if state.get(dep) == 1:
                    cycle = stack[stack.index(dep):] + [dep]
                    if dep not in reported:
                        reported.update(cycle)
                        s = self.definitions[dep]
                        self.error(s.location, "struct cycle without indirection: " +
                                   " -> ".join(cycle),
                                   "a struct cannot contain itself by value; hold it in a "
                                   "`vector` or `map`")
                elif state.get(dep) is None:
                    visit_by_value(dep, stack)
            stack.pop()
            state[name] = 2

        for s in self.model.structs:
            if state.get(s.name) is None:
                visit_by_value(s.name, [])

        ordered: list[Struct] = []
        placed: set[str] = set()
        visiting: set[str] = set()

        def place(name: str) -> None:
            if name in placed or name in visiting:
                return
            visiting.add(name)
            for dep in by_value.get(name, []) + any_ref.get(name, []):
                place(dep)
            visiting.discard(name)
            placed.add(name)
            ordered.append(self.definitions[name])

        for s in self.model.structs:
            place(s.name)
        return ordered

    def run(self) -> Model:
        self.check_allocator()
        projection.expand(self.model, self.error)
        self.collect_definitions()
        queries.check_names(self.model, self.error)
        for e in self.model.enums:
            self.link_enum(e)
        for s in self.model.structs:
            self.link_struct(s)
        if self.errors:
            raise SchemaErrors(self.errors)
        ordered = self.order_structs()
        if self.errors:
            raise SchemaErrors(self.errors)
        self.model.structs = ordered
        return self.model


def numeric_kind(t: TypeRef) -> str:
    """"int32", "int64" or "double": the number a value of t holds (`number<T>`: T's), else ""."""
    kind = t.element.kind if t.kind == "number" and t.element is not None else t.kind
    # A numeric default must fit an integer kind's range; a double takes any number it holds
    # exactly.
    return kind if kind in (*catalog.INTEGER_KIND_RANGES, "double") else ""


def _fits(n: int, bounds: tuple[int, int]) -> bool:
    return bounds[0] <= n <= bounds[1]


def _nearest_double(n: int) -> str:
    try:
        return repr(float(n))
    except OverflowError:
        return "beyond the largest double"


def _exact_double(n: int) -> bool:
    try:
        return float(n) == n
    except OverflowError:
        return False


# The kinds omit_empty applies to, for messages (a binary vector's own emptiability depends on
# whether it has a fixed dimension).
_EMPTIABLE_KINDS = ", ".join(
    [k.kind for k in (*catalog.SCALARS.values(), *catalog.CONTAINERS.values()) if k.emptiable] +
    [f"{catalog.VECTOR_KIND} without a fixed dimension"])


def _emptiable(t: TypeRef) -> bool:
    scalar = catalog.scalar_of(t)
    if scalar is not None:
        return scalar.emptiable
    return t.kind in catalog.CONTAINERS and catalog.CONTAINERS[t.kind].emptiable


def _spelled(t: TypeRef) -> str:
    """A type reference as a schema spells its kind (a binary vector with its dtype and size)."""
    if t.kind == catalog.VECTOR_KIND:
        size = f", {t.size}" if t.size is not None else ""
        return f"{t.kind}<{t.dtype}{size}>"
    return t.kind


def _collect_struct_refs(t: TypeRef, indirect: bool, by_value: list, any_ref: list) -> None:
    if t.kind == "struct" and t.name:
        (any_ref if indirect else by_value).append(t.name)
    if t.element is not None:
        _collect_struct_refs(t.element, indirect or t.kind in ("vector", "map"), by_value, any_ref)


def link(model: Model) -> Model:
    """Resolves and validates `model` in place; raises SchemaErrors listing every problem."""
    return _Linker(model).run()
