"""The C++ view of a linked model: what the templates print.

Spellings (member types, codec expressions, initializers), the headers a generated file needs,
per-struct tables (keys, bitmasks, member-pointer groups) and fixed layouts, all computed
here from the model, layout.py and the catalog, so templates only place text. Nothing here changes
the model.
"""

from __future__ import annotations

import enum
import math
import re
from dataclasses import dataclass, field
from typing import Optional

from . import catalog, linker, names
from .layout import Fixed, Layouts, element_bson_type
from .model import Enum, Field, Model, Struct, TypeRef
from .query_view import QueryView, query_view

CODEC_IMPL = "::bsongen::detail::codec_impl"

# Headers for standard names a `cpp:` spelling may use.
_STD_NAME_HEADERS = [
    (re.compile(r"\bstd::string_view\b"), "<string_view>"),
    (re.compile(r"\bstd::string\b"), "<string>"),
    (re.compile(r"\bstd::u?int\d+_t\b"), "<cstdint>"),
    (re.compile(r"\bstd::(size_t|nullptr_t)\b"), "<cstddef>"),
    (re.compile(r"\bstd::vector\b"), "<vector>"),
    (re.compile(r"\bstd::array\b"), "<array>"),
    (re.compile(r"\bstd::map\b"), "<map>"),
    (re.compile(r"\bstd::unordered_map\b"), "<unordered_map>"),
    (re.compile(r"\bstd::pair\b"), "<utility>"),
    (re.compile(r"\bstd::optional\b"), "<optional>"),
    (re.compile(r"\bstd::chrono\b"), "<chrono>"),
]


class AllocatorUse(enum.Enum):
    """How a member takes its struct's allocator (`allocator: pmr` schemas; templates compare
    against these, registered as a template global by render.py)."""
    MEMBER = enum.auto()   # a std::pmr container or allocator-aware struct: takes it itself
    ARRAY = enum.auto()    # a std::array of those: built and copied element by element on it
    REBUILT = enum.auto()  # an optional or nullable of one (or an array of those): its value
    # is rebuilt on the allocator when copied

    @property
    def holds_allocator(self) -> bool:
        """The member holds the allocator (the struct's get_allocator() may return it)."""
        return self in (AllocatorUse.MEMBER, AllocatorUse.ARRAY)


class Reset(enum.Enum):
    """How reset_absent restores a member (FieldView.reset; a template global like AllocatorUse)."""
    # detail::reset_value: value-initialized, with no copy from a defaults object, whose copy
    # assignments of nested structs, vectors and maps were a large share of the generated source.
    VALUE = enum.auto()
    DEFAULT = enum.auto()  # assigns default_value (as a default_constant_type)
    # Header mode: the user's struct sets the initial value (a default member initializer or
    # constructor), so it is copied from a new struct.
    INITIAL = enum.auto()


def qualified(model: Model, name: str) -> str:
    return names.qualified(model.namespace, name)


def scalar_cpp_type(model: Model, kind: str) -> str:
    """The C++ spelling of scalar kind `kind` in the model's allocator."""
    return _leaf_cpp_type(model, catalog.SCALARS[kind])


def _leaf_cpp_type(model: Model, scalar: catalog.ScalarKind) -> str:
    return scalar.pmr_cpp_type if model.allocator == "pmr" and scalar.pmr_cpp_type \
        else scalar.cpp_type


def cpp_type(model: Model, t: TypeRef) -> str:
    """The C++ spelling of a member of type t."""
    pmr = model.allocator == "pmr"
    if t.cpp:
        return t.cpp
    scalar = catalog.scalar_of(t)
    if scalar is not None:
        return _leaf_cpp_type(model, scalar)
    if t.kind in catalog.DEFINITION_KINDS:
        return qualified(model, t.definition.name)
    c = catalog.CONTAINERS[t.kind]
    template, leading = c.cpp_template, c.cpp_leading_args
    if pmr and c.pmr_cpp_template:
        template, leading = c.pmr_cpp_template, c.pmr_leading_args
    args = [*leading, cpp_type(model, t.element)]
    if t.size is not None:
        args.append(str(t.size))
    return f"{template}<{', '.join(args)}>"


def allocator_aware(model: Model, t: TypeRef) -> bool:
    """Whether a member of type t takes its struct's allocator in its constructor (`allocator: pmr`
    schemas): a std::pmr string, vector or map, or a struct that is allocator-aware itself."""
    if model.allocator != "pmr" or t.cpp:
        return False
    scalar = catalog.scalar_of(t)
    if scalar is not None:
        return scalar.pmr_cpp_type is not None
    if t.kind == "struct":
        return _capture_takes_allocator(model, t.definition) or \
            any(use is not None and use.holds_allocator
                for use in (_allocator_use(model, f.type) for f in t.definition.fields))
    if t.kind in catalog.CONTAINERS:
        return catalog.CONTAINERS[t.kind].pmr_cpp_template is not None
    return False


def _capture_takes_allocator(model: Model, s: Struct) -> bool:
    """Whether struct s has a capture member (unknown_fields: capture) that takes its allocator."""
    return s.unknown_fields == "capture" and \
        catalog.SCALARS[catalog.CAPTURE_KIND].pmr_cpp_type is not None and model.allocator == "pmr"


def _default_constant_type(f: Field, view: FieldView) -> str:
    scalar = catalog.scalar_of(f.type)
    if scalar is not None and scalar.default_constant_type and not f.type.cpp:
        return scalar.default_constant_type
    return view.member_type


def _allocator_use(model: Model, t: TypeRef) -> Optional[AllocatorUse]:
    """How a member of type t gets its struct's allocator (FieldView.allocator_use). Fixed arrays,
    optionals and nullables are not allocator-aware but may hold values that are: arrays are built
    and copied element by element on the allocator (ARRAY), optionals and nullables copy their
    value onto it (REBUILT). Members that hold nothing allocator-aware (numbers, `any`, `cpp:`
    spellings) are copied as they are (None)."""
    if allocator_aware(model, t):
        return AllocatorUse.MEMBER
    if t.cpp or t.kind not in ("array", "optional", "nullable"):
        return None
    inner = _allocator_use(model, t.element)
    if inner is None:
        return None
    # An array whose elements (through nested arrays) take the allocator holds it; one of
    # optionals or nullables does not: its values are rebuilt when copied, as an optional's.
    return AllocatorUse.ARRAY if t.kind == "array" and inner.holds_allocator \
        else AllocatorUse.REBUILT


def _allocator_source(f: Field) -> str:
    """The expression (the member, or an array member's first element, nested arrays descended)
    whose get_allocator() a struct's get_allocator() returns."""
    expr, t = f.name, f.type
    while t.kind == "array":
        expr, t = expr + "[0]", t.element
    return expr


def _unused_name(wanted: str, taken: set) -> str:
    name = wanted
    while name in taken:
        name += "_"
    return name


def codec(model: Model, t: TypeRef) -> str:
    """The codec that encodes and decodes a value of type t (an optional's: its element's)."""
    scalar = catalog.scalar_of(t)
    if scalar is not None:
        return scalar.codec
    if t.kind in catalog.DEFINITION_KINDS:
        return f"{CODEC_IMPL}<{qualified(model, t.definition.name)}>"
    c = catalog.CONTAINERS[t.kind]
    if not c.codec_template:
        return codec(model, t.element)
    size = f", {t.size}" if t.size is not None else ""
    return f"{c.codec_template}<{codec(model, t.element)}{size}>"


def holds_null(t: TypeRef) -> bool:
    """Whether a value of t can be BSON null itself (so an optional keeps a null as a value)."""
    scalar = catalog.scalar_of(t)
    if scalar is not None:
        return scalar.holds_null
    if t.kind in catalog.CONTAINERS:
        return catalog.CONTAINERS[t.kind].holds_null
    return False


def headers_of(t: TypeRef, out: set, pmr: bool = False) -> None:
    """The headers a member of type t needs (in an `allocator: pmr` schema when pmr)."""
    if t.cpp:
        out.update(h for pattern, h in _STD_NAME_HEADERS if pattern.search(t.cpp))
    scalar = catalog.scalar_of(t)
    if scalar is not None and not t.cpp:
        out.update(scalar.pmr_headers if pmr and scalar.pmr_headers else scalar.headers)
    elif t.kind in catalog.CONTAINERS and not t.cpp:
        out.update(catalog.CONTAINERS[t.kind].headers)
    if t.element is not None:
        headers_of(t.element, out, pmr)


def codec_headers_of(t: TypeRef, out: set) -> None:
    """What the codec definitions include for the codec of a member of type t (its containers',
    its leaf's or enum's); a struct's codec is generated."""
    scalar = catalog.scalar_of(t)
    if scalar is not None:
        out.update(scalar.codec_headers)
    elif t.kind in catalog.CONTAINERS:
        out.update(catalog.CONTAINERS[t.kind].codec_headers)
    elif t.kind == "enum":
        out.update(catalog.ENUM_STORAGES[t.definition.storage].codec_headers)
    if t.element is not None:
        codec_headers_of(t.element, out)


INT64_MIN = catalog.INTEGER_SPELLING_RANGES["std::int64_t"][0]


def cpp_number(value) -> str:
    if value == INT64_MIN and isinstance(value, int):
        # 9223372036854775808 is too large for any signed literal, so `-9223372036854775808` is
        # an unsigned (or __int128) negation: spell the minimum as arithmetic on int64 literals.
        return f"{INT64_MIN + 1} - 1"
    if isinstance(value, float) and not math.isfinite(value):
        if math.isnan(value):
            return "std::numeric_limits<double>::quiet_NaN()"
        sign = "-" if value < 0 else ""
        return f"{sign}std::numeric_limits<double>::infinity()"
    return repr(value)


@dataclass
class EnumValueView:
    name: str
    value: int
    bson_name: str
    doc: str


@dataclass
class EnumView:
    name: str
    qualified_name: str
    doc: str
    cpp_underlying: str
    values: list[EnumValueView]
    base: str                   # the runtime codec the traits complete
    stored_as_name: bool        # name_of / from_name (else is_valid of a raw int32)
    by_size: list[tuple[int, list[EnumValueView]]]  # by the stored name's UTF-8 length


@dataclass
class FieldView:
    name: str
    key: str
    index: int
    doc: str
    member_type: str            # the member's C++ type (std::optional<...> for optional fields)
    initializer: str            # " = x" or "{}"
    codec: str                  # of the value (an optional's element)
    is_optional: bool
    omit_empty: bool
    null_is_value: bool         # an optional keeps a null as a value
    bson_type: Optional[str]    # bson_type enumerator of the prefix; None: the value decides
    word: int                   # the field's bit in the `seen` bitset: word and mask
    mask: str
    fixed_offset: Optional[int] = None
    # How the member takes the struct's allocator (StructView.allocator_aware); None: it is
    # copied as it is.
    allocator_use: Optional[AllocatorUse] = None
    default_value: Optional[str] = None  # the initializer's value, when it has one
    reset: Reset = Reset.VALUE  # how reset_absent restores the member
    default_constant_type: str = ""


@dataclass
class GroupView:
    """Fields sharing a codec and member type: one member-pointer table, one dispatch case."""
    index: int
    member_type: str
    codec: str
    is_optional: bool
    null_is_value: bool
    members: list[str] = field(default_factory=list)


@dataclass
class MemberInit:
    """A member as an allocator-aware struct's constructors initialize it (a mem-initializer)."""
    name: str
    member_type: str
    use: Optional[AllocatorUse]
    default_value: Optional[str] = None


@dataclass
class FixedView:
    width: int
    depth: int
    skeleton_lines: list[bytes]
    # detail::fixed_shape's contents, computed here and written out: a consteval function built
    # them at a cost per byte that compilers bound (clang's steps ran out near 39 KB). The skeleton
    # as little-endian 8-byte words with masks of their constant bytes (0xFF; 0x00 where a value
    # goes), then the same per byte for the last width % 8 bytes.
    # Only the words decode compares: `word_runs` (first word, count) lists them in order and the
    # two lists hold just those words; words that hold nothing but value bytes are left out when
    # SKIPPED_WORDS or more of them come in a row (detail::fixed_shape).
    skeleton_words: list[int]
    constant_words: list[int]
    tail_skeleton: list[int]
    tail_constant: list[int]
    word_runs: list[tuple[int, int]]
    # The skeleton's (offset, length) stretches that encode copies before store_fixed stores the
    # values: all of it but stretches of SKIPPED_WORDS * 8 or more value bytes, which store_fixed
    # writes whole (the codec contract: it stores every byte of its value).
    copied: list[tuple[int, int]]
    checked: bool               # encode must check values (see layout.Fixed)

    @property
    def dense(self) -> bool:
        """One run over every whole word: fixed_shape's defaults, nothing more to write out."""
        words = self.width // 8
        return self.word_runs == ([(0, words)] if words else [])

    @property
    def copied_whole(self) -> bool:
        return self.copied == [(0, self.width)]


@dataclass
class StructView:
    name: str
    qualified_name: str
    doc: str
    fields: list[FieldView]
    capture_member: Optional[str]
    capture_type: str           # the capture member's C++ spelling, when there is one
    unknown_policy: str         # detail::unknown_policy enumerator
    reject_duplicates: bool
    visit: bool
    seen_words: int
    required_words: list[int]
    all_words: list[int]
    groups: list[GroupView]
    slots: list[tuple[int, int]]
    fixed: Optional[FixedView]
    # `allocator: pmr` schemas, when a member allocates: the struct is allocator-aware (an
    # allocator_type, constructors that take one, get_allocator() from allocator_source), with
    # constructor parameters named so that no member hides them.
    allocator_aware: bool = False
    allocator_source: str = ""
    # The mem-initializers of the allocator-extended copy and move constructors (every field, then
    # the capture member) and of the constructor taking an allocator (the members that hold it).
    copied_members: list[MemberInit] = field(default_factory=list)
    allocated_members: list[MemberInit] = field(default_factory=list)
    memory_param: str = "memory"
    other_param: str = "other"
    # Its projection document, field paths and (projections) skip runs.
    queries: Optional[QueryView] = None

    @property
    def has_chain(self) -> bool:
        """Decode runs the unrolled in-order chain; fixed-shape and empty structs decode every
        element that missed their fast path through the table alone, but a fixed-shape projection,
        whose skip runs step over the source's other fields in the chain."""
        return bool(self.fields) and (self.fixed is None or
                                      (self.queries is not None and self.queries.skip_runs))


@dataclass
class ModelView:
    origin_kind: str
    origin_path: str
    output_name: str
    namespace: str
    defines_types: bool
    doc: str                    # the schema's, repeated under the header's banner
    user_includes: list[str]
    std_headers: list[str]      # <...> the type definitions need
    runtime_headers: list[str]  # "bsongen/..." the light header includes
    source_headers: list[str]   # what the codec definitions include (source, or header-only)
    enums: list[EnumView]
    structs: list[StructView]


def _enum(model: Model, e: Enum) -> EnumView:
    storage = catalog.ENUM_STORAGES[e.storage]
    values = [EnumValueView(v.name, v.value, v.bson_name, v.doc) for v in e.values]
    return EnumView(
        name=e.name, qualified_name=qualified(model, e.name), doc=e.doc,
        cpp_underlying=e.cpp_underlying, values=values, base=storage.codec_template,
        stored_as_name=storage.stored_as_name,
        by_size=_by_size(values))


def _by_size(values: list[EnumValueView]) -> list[tuple[int, list[EnumValueView]]]:
    sizes: dict[int, list[EnumValueView]] = {}
    for v in values:
        sizes.setdefault(len(v.bson_name.encode()), []).append(v)
    return sorted(sizes.items())


def _first_valid_value(model: Model, t: TypeRef) -> Optional[str]:
    """The initial value of a member of type t where value-initialization gives none that encodes:
    an enum starts at its first enumerator (zero may name none), a fixed array of them (through
    nested fixed arrays) with every element there. None where `T{}` is a value."""
    if t.cpp:
        return None
    if t.kind == "enum" and t.definition.values:
        return f"{qualified(model, t.definition.name)}::{t.definition.values[0].name}"
    if t.kind == "array":
        element = _first_valid_value(model, t.element)
        if element is not None:
            return f"::bsongen::filled_array<{cpp_type(model, t.element)}, {t.size}>({element})"
    return None


def _initializer(model: Model, f: Field) -> str:
    if not model.defines_types:
        # The user's struct (header mode): a member starts as `T()` leaves it; `default` and the
        # first enumerator below are schema mode's initializers, which that struct does not have.
        return "{}"
    d = f.default
    vt = f.value_type
    if d is None:
        if f.is_optional:
            return "{}"
        start = _first_valid_value(model, f.type)
        return "{}" if start is None else f" = {start}"
    if vt.kind == "enum":
        return f" = {qualified(model, vt.definition.name)}::{d}"
    if isinstance(d, bool):
        return " = true" if d else " = false"
    if isinstance(d, int) and linker.numeric_kind(vt) == "double":
        # An integer default of a double (exact: the linker checked) may exceed every integer
        # literal's type.
        d = float(d)
    if isinstance(d, str):
        return f" = {cpp_string(d)}"
    return f" = {cpp_number(d)}"


def _struct(model: Model, s: Struct, layouts: Layouts) -> StructView:
    layout = layouts.structs[s.name]
    fields: list[FieldView] = []
    groups: dict[tuple, GroupView] = {}
    slots: list[tuple[int, int]] = []
    for f in s.fields:
        vt = f.value_type
        view = FieldView(
            name=f.name, key=f.key, index=f.index, doc=f.doc,
            member_type=cpp_type(model, f.type), initializer=_initializer(model, f),
            codec=codec(model, vt), is_optional=f.is_optional, omit_empty=f.omit_empty,
            null_is_value=holds_null(vt),
            bson_type=element_bson_type(vt), word=f.index // 64,
            mask=f"std::uint64_t{{1}} << {f.index % 64}",
            fixed_offset=layout.offsets.get(f.index),
            allocator_use=_allocator_use(model, f.type))
        if view.initializer != "{}":
            view.default_value = view.initializer.removeprefix(" = ")
        fields.append(view)
        group_key = (view.member_type, view.codec, view.is_optional, view.null_is_value)
        group = groups.get(group_key)
        if group is None:
            group = GroupView(len(groups), view.member_type, view.codec, view.is_optional,
                              view.null_is_value)
            groups[group_key] = group
        slots.append((group.index, len(group.members)))
        group.members.append(f.name)
        if f.struct_default:
            view.reset = Reset.INITIAL
        elif view.default_value is not None:
            view.reset = Reset.DEFAULT
            view.default_constant_type = _default_constant_type(f, view)
    seen_words = max(1, (len(s.fields) + 63) // 64)
    required = [0] * seen_words
    every = [0] * seen_words
    for f in s.fields:
        every[f.index // 64] |= 1 << (f.index % 64)
        if f.required:
            required[f.index // 64] |= 1 << (f.index % 64)
    fixed = None
    if layout.fixed is not None:
        fixed = _fixed_view(layout.element_starts, layout.fixed)
    member_names = {f.name for f in s.fields} | {s.capture_member or ""}
    aware = [f for f, view in zip(s.fields, fields)
             if view.allocator_use is not None and view.allocator_use.holds_allocator]
    captures = s.unknown_fields == "capture"
    capture_aware = _capture_takes_allocator(model, s)
    if aware:
        allocator_source = _allocator_source(aware[0])
    else:
        allocator_source = s.capture_member if capture_aware else ""
    copied = [MemberInit(v.name, v.member_type, v.allocator_use, v.default_value) for v in fields]
    if captures:
        copied.append(MemberInit(s.capture_member, scalar_cpp_type(model, catalog.CAPTURE_KIND),
                                 AllocatorUse.MEMBER if capture_aware else None))
    return StructView(
        name=s.name, qualified_name=qualified(model, s.name), doc=s.doc, fields=fields,
        capture_member=s.capture_member if captures else None,
        capture_type=scalar_cpp_type(model, catalog.CAPTURE_KIND) if captures else "",
        unknown_policy=s.unknown_fields, reject_duplicates=s.duplicate_keys == "reject",
        visit=s.visit, seen_words=seen_words, required_words=required, all_words=every,
        groups=list(groups.values()), slots=slots, fixed=fixed,
        allocator_aware=bool(aware) or capture_aware,
        allocator_source=allocator_source,
        copied_members=copied,
        allocated_members=[m for m in copied if m.use is not None and m.use.holds_allocator],
        memory_param=_unused_name("memory", member_names),
        other_param=_unused_name("other", member_names),
        queries=query_view(model, s))


# Values that fill this many whole words in a row (64 bytes) are not compared by decode nor copied
# from the skeleton by encode. Shorter stretches are, as part of the run around them: a run of its
# own costs a loop of its own, about what comparing a few words does. Only fixed-dimension binary
# vectors reach it; every other fixed-width value is at most 16 bytes.
SKIPPED_WORDS = 8


def _word_runs(masks: list[int]) -> list[tuple[int, int]]:
    """(first, count) of the words decode compares: all but SKIPPED_WORDS or more value-only
    words in a row (at the start, between constants or at the end)."""
    runs: list[tuple[int, int]] = []
    start = None   # the current run's first word
    last = -1      # the last word with a constant byte
    for i, mask in enumerate(masks):
        if mask == 0:
            continue
        if start is None:
            start = i if i >= SKIPPED_WORDS else 0
        elif i - last - 1 >= SKIPPED_WORDS:
            runs.append((start, last + 1 - start))
            start = i
        last = i
    if start is not None:
        end = len(masks) if len(masks) - last - 1 < SKIPPED_WORDS else last + 1
        runs.append((start, end - start))
    return runs


def _copied(width: int, value_runs: list) -> list[tuple[int, int]]:
    """The skeleton's stretches encode copies: all but SKIPPED_WORDS * 8 or more value bytes."""
    out: list[tuple[int, int]] = []
    at = 0
    for offset, length in value_runs:
        if length >= SKIPPED_WORDS * 8:
            if offset > at:
                out.append((at, offset - at))
            at = offset + length
    if at < width:
        out.append((at, width - at))
    return out


def _fixed_view(starts: list[int], fixed: Fixed) -> FixedView:
    # One literal line per element, for a reviewable diff.
    bounds = [0, *starts, fixed.width - 1, fixed.width]
    lines = [fixed.skeleton[a:b] for a, b in zip(bounds, bounds[1:])]
    constant = bytearray(b"\xff" * fixed.width)
    for offset, length in fixed.value_runs:
        constant[offset:offset + length] = bytes(length)
    whole = fixed.width - fixed.width % 8
    words = [int.from_bytes(fixed.skeleton[i:i + 8], "little") for i in range(0, whole, 8)]
    masks = [int.from_bytes(constant[i:i + 8], "little") for i in range(0, whole, 8)]
    runs = _word_runs(masks)
    compared = [i for first, count in runs for i in range(first, first + count)]
    return FixedView(fixed.width, fixed.depth, lines, [words[i] for i in compared],
                     [masks[i] for i in compared], list(fixed.skeleton[whole:]),
                     list(constant[whole:]), runs, _copied(fixed.width, fixed.value_runs),
                     fixed.checked)


def view(model: Model, header_only: bool = False) -> ModelView:
    layouts = Layouts(model)
    std_headers: set[str] = set()
    runtime_headers = {catalog.CODEC_HEADER, catalog.VERSION_HEADER, catalog.QUERY_HEADER}
    if model.enums and model.defines_types:
        std_headers.add(catalog.ENUM_UNDERLYING_HEADER)
    if any(_allocator_use(model, f.type) for s in model.structs for f in s.fields) or \
            any(_capture_takes_allocator(model, s) for s in model.structs):
        std_headers.update((catalog.PMR_HEADER, "<utility>"))  # polymorphic_allocator, std::move
        runtime_headers.add(catalog.ALLOCATOR_AWARE_HEADER)
    for s in model.structs:
        if s.visit:
            std_headers.add("<string_view>")
        if model.defines_types and any(
                f.type.kind == "array" and _first_valid_value(model, f.type) for f in s.fields):
            runtime_headers.add(catalog.FILLED_ARRAY_HEADER)
        members = [f.type for f in s.fields]
        if s.unknown_fields == "capture":
            members.append(TypeRef(catalog.CAPTURE_KIND))
        for t in members:
            found: set = set()
            headers_of(t, found, model.allocator == "pmr")
            for h in found:
                (std_headers if h.startswith("<") else runtime_headers).add(h)
        if any(isinstance(f.default, float) and not math.isfinite(f.default) for f in s.fields):
            std_headers.add("<limits>")
    if not model.defines_types:
        # The user's headers define the types (and include what they need); the generated
        # header still spells member types in its tables only in the source.
        std_headers = set()
    # The codec definitions' headers (the generated source's, or the header's after its
    # declarations with --header-only): the parts of the runtime's codec support the model uses.
    codec_headers: set[str] = set()
    for e in model.enums:
        codec_headers.update(catalog.ENUM_STORAGES[e.storage].codec_headers)
    for s in model.structs:
        codec_headers.update(catalog.STRUCT_CODEC_HEADERS)
        if layouts.structs[s.name].fixed is not None:
            codec_headers.add(catalog.FIXED_SHAPE_HEADER)
        for f in s.fields:
            codec_headers_of(f.type, codec_headers)
    if any(s.projection is not None for s in model.structs):
        codec_headers.add(catalog.PROJECTION_SUPPORT_HEADER)  # skip runs (query_view.py)
    return ModelView(
        origin_kind=model.origin_kind, origin_path=model.origin_path,
        output_name=model.output_name, namespace=model.namespace,
        defines_types=model.defines_types, doc=model.doc, user_includes=list(model.includes),
        std_headers=sorted(std_headers), runtime_headers=sorted(runtime_headers),
        source_headers=sorted(codec_headers),
        enums=[_enum(model, e) for e in model.enums],
        structs=[_struct(model, s, layouts) for s in model.structs])


# --- Literals. ---

def _escape_byte(b: int) -> str:
    if b == 0x22:
        return '\\"'
    if b == 0x5C:
        return "\\\\"
    if 0x20 <= b < 0x7F and b != 0x3F:
        return chr(b)
    # Three-digit octal escapes end by themselves, so a following digit is never absorbed.
    return f"\\{b:03o}"


def cpp_bytes(data: bytes) -> str:
    """A C++ string literal holding exactly `data` (plus the implicit terminator)."""
    return '"' + "".join(_escape_byte(b) for b in data) + '"'


def cpp_string(text: str) -> str:
    return cpp_bytes(text.encode("utf-8"))
