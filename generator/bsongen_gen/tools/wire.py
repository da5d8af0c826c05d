"""What each kind of type reference means on the wire, for the tools (infer, jsonschema, diff).

catalog.py says how the generator *generates* each kind. This module says which BSON types a
generated decoder of a kind accepts and which its encoder writes, under the names MongoDB's
`$jsonSchema` uses (`bsonType`). The scalar kinds' tags are derived from the catalogue (each
kind's BSON type, what it also reads, its constant bytes), so a new kind needs no entry here;
tests/tools/wire_test.py checks that every kind of the catalogue has tags.

Types are *tags*: a `$jsonSchema` alias, or `alias/detail` where the tools must tell more apart
than bsonType can (`binData/uuid`: binary subtype 4 of 16 bytes, what the `uuid` kind reads and
writes).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar, Optional, Union

from .. import catalog, spellings
from ..model import TypeRef

# Every BSON type by its type byte: the alias `$jsonSchema`'s bsonType uses (catalog.BSON_TYPES).
BSON_ALIASES: dict[int, str] = {t.byte: t.json_schema for t in catalog.BSON_TYPES.values()}


def _alias(bson_type: str) -> str:
    return catalog.BSON_TYPES[bson_type].json_schema


# A kind whose fixed shape has constant bytes (uuid: binary subtype 4 of 16 bytes) reads and writes
# only values of that shape: a tag of its own, `alias/kind`.
_SHAPED_TAGS = {s.kind: f"{_alias(s.bson_type)}/{s.kind}" for s in catalog.SCALARS.values()
                if s.bson_type is not None and s.constant_bytes}
# A binary vector (binary subtype 9) reads and writes only its own dtype: a tag per dtype,
# `binData/binary_vector<float32>`; its dimensions are the tag's values (Dimensions).
VECTOR_TAGS = {d: f"{_alias('binary')}/{catalog.VECTOR_KIND}<{d}>" for d in catalog.VECTOR_DTYPES}
ALL_TAGS = frozenset(BSON_ALIASES.values()) | frozenset(_SHAPED_TAGS.values()) | \
    frozenset(VECTOR_TAGS.values())
UUID_TAG = _SHAPED_TAGS["uuid"]

# The schema forms infer emits for mixed data (issue 13): `nullable<T>` (a T or null, null kept)
# and `number<int64>` / `number<double>` (a widened number that writes back the BSON type it was
# read as).
NULLABLE = "nullable"
NUMBER = "number"
NUMBER_ELEMENTS = ("int64", "double")


@dataclass(frozen=True)
class LeafWire:
    reads: frozenset      # tags a generated decoder accepts
    writes: frozenset     # tags its encoder can write


def _leaf(reads, writes=None) -> LeafWire:
    reads = frozenset(reads)
    return LeafWire(reads, frozenset(writes) if writes is not None else reads)


def bson_type(tag: str) -> str:
    """The `$jsonSchema` bsonType of a tag (`binData/uuid` -> `binData`)."""
    return tag.split("/", 1)[0]


def vector_value(subtype: int, data: bytes) -> Optional[tuple[str, int]]:
    """(dtype, dimension) of a binary value that a `binary_vector` decoder accepts (the spec's
    rules, as the runtime checks them: bsongen/binary_vector.hpp), else None. A packed_bit
    vector's dimension counts its bits."""
    if subtype != catalog.VECTOR_SUBTYPE or len(data) < catalog.VECTOR_HEADER_BYTES:
        return None
    dtype = next((d for d in catalog.VECTOR_DTYPES.values() if d.byte == data[0]), None)
    if dtype is None:
        return None
    padding, elements = data[1], len(data) - catalog.VECTOR_HEADER_BYTES
    if dtype.element_width is not None:  # padding is packed_bit's alone
        if padding != 0 or elements % dtype.element_width != 0:
            return None
        return dtype.dtype, elements // dtype.element_width
    if padding > 7 or (elements == 0 and padding != 0) or \
            (elements and data[-1] & ((1 << padding) - 1)):  # the ignored bits must be zero
        return None
    return dtype.dtype, elements * 8 - padding


def tag_text(tag: str) -> str:
    """A tag for messages: its bsonType, and a binary vector's subtype and dtype."""
    dtype = next((d for d, t in VECTOR_TAGS.items() if t == tag), None)
    if dtype is not None:
        return f"{bson_type(tag)} subtype {catalog.VECTOR_SUBTYPE} {dtype}"
    return bson_type(tag)


def _scalar_wire(s: catalog.ScalarKind) -> LeafWire:
    """A scalar kind on the wire: its BSON type's tags (only its own shape's when it has constant
    bytes; every shape of the type otherwise, so `binary` reads and writes uuids too), and what it
    also reads (`double` and `int64` decode an int32 too, but encode their own type)."""
    if s.bson_type is None:  # decided by the value: any type
        return _leaf(ALL_TAGS)
    if s.kind in _SHAPED_TAGS:
        own = {_SHAPED_TAGS[s.kind]}
    else:
        own = {t for t in ALL_TAGS if bson_type(t) == _alias(s.bson_type)}
    return _leaf(own | {_alias(t) for t in s.also_reads}, own)


# Scalar kinds (catalog.SCALARS) on the wire.
LEAVES: dict[str, LeafWire] = {kind: _scalar_wire(s) for kind, s in catalog.SCALARS.items()}

# number<int64> reads int32 and int64; number<double> reads int32, int64 and double. Each writes
# back the type it read, so it may write any of them.
NUMBER_WIRE: dict[str, LeafWire] = {
    "int64": _leaf({_alias("int32"), _alias("int64")}),
    "double": _leaf({_alias("int32"), _alias("int64"), _alias("double_")}),
}

ENUM_STORAGE_TAG = {e.storage: _alias(e.bson_type) for e in catalog.ENUM_STORAGES.values()}
# The containers that are a BSON array or document themselves, and structs.
CONTAINER_TAG = {**{c.kind: _alias(c.bson_type) for c in catalog.CONTAINERS.values()
                    if c.bson_type is not None},
                 "struct": _alias(catalog.STRUCT_BSON_TYPE)}


def value_tags(t: TypeRef, enum_storage: Optional[str] = None) -> tuple[frozenset, frozenset]:
    """(reads, writes) of the outermost level of a value type: which BSON types its decoder
    accepts and its encoder writes. Element types of containers are not looked at; `optional`
    adds null to what is read (a null reads as absent); `nullable` adds null to both.
    `enum_storage` is the storage of the enum `t` names, when it is an enum."""
    if t.kind == "optional":
        reads, writes = value_tags(t.element, enum_storage)
        return reads | {"null"}, writes
    if t.kind == NULLABLE:
        reads, writes = value_tags(t.element, enum_storage)
        return reads | {"null"}, writes | {"null"}
    if t.kind == NUMBER:
        wire = NUMBER_WIRE.get(t.element.kind if t.element else "")
        if wire is None:
            raise KeyError(f"number<{t.element.kind if t.element else ''}>")
        return wire.reads, wire.writes
    if t.kind == "enum":
        tag = ENUM_STORAGE_TAG[enum_storage or "int32"]
        return frozenset({tag}), frozenset({tag})
    if t.kind in CONTAINER_TAG:
        tag = CONTAINER_TAG[t.kind]
        return frozenset({tag}), frozenset({tag})
    if t.kind == catalog.VECTOR_KIND:
        tag = VECTOR_TAGS[t.dtype or ""]
        return frozenset({tag}), frozenset({tag})
    wire = LEAVES[t.kind]
    return wire.reads, wire.writes


KIND_RANGES = catalog.INTEGER_KIND_RANGES


def integer_range(t: TypeRef) -> Optional[tuple[int, int]]:
    """The values an int32/int64 member holds: its C++ spelling's range where that is narrower
    than the BSON type's, else the BSON type's. A double held in an integer spelling holds that
    spelling's range, and whole numbers only (see holds_whole_numbers). None for other kinds."""
    spelled = spellings.integer_range_of(t.cpp)
    if t.kind == "double":
        return spelled
    if t.kind not in KIND_RANGES:
        return None
    kind_range = KIND_RANGES[t.kind]
    if spelled is None:
        return kind_range
    return max(spelled[0], kind_range[0]), min(spelled[1], kind_range[1])


def holds_whole_numbers(t: TypeRef) -> bool:
    """A double held in an integer spelling: its decoder refuses fractions, NaN and infinities."""
    return t.kind == "double" and integer_range(t) is not None


def spell_elements(t: TypeRef) -> None:
    """Gives the element types inside `t` the spellings its `cpp:` implies, in place. The decoder
    converts into those (`cpp: std::vector<std::uint8_t>` for a `vector<int32>` refuses 300 in
    an element, as `cpp: std::uint8_t` does for an `int32`), so the tools must see them too."""
    while t.element is not None:
        if t.cpp and not t.element.cpp:
            t.element.cpp = spellings.element_spelling(t)
        t = t.element



# --- Value sets: which values of each BSON type a decoder accepts exactly, and which its encoder
# may write. The same conversion rules as the runtime's codecs (runtime/codec/include/bsongen/
# detail/value_codecs.hpp, docs/schema-format.md's `cpp` and `number<T>`): a member's `cpp:`
# spelling narrows the integers it holds (`inexact` beyond), a double held in an integer holds
# whole numbers, in float magnitudes up to float's largest, a datetime in a coarser clock whole
# ticks, number<double> int64 values up to 2^53 in magnitude, an enum its values. diff compares
# what the writer's side writes with what the reader's side accepts. ---

INT32_RANGE = catalog.BSON_TYPES["int32"].integer_range
INT64_RANGE = catalog.BSON_TYPES["int64"].integer_range
DATETIME_RANGE = catalog.BSON_TYPES["datetime"].integer_range  # milliseconds
# number<double> reads int64 values within +-DOUBLE_EXACT_LIMIT, and writes them back so.
DOUBLE_EXACT_LIMIT = catalog.DOUBLE_EXACT_LIMIT


@dataclass(frozen=True)
class Integers:
    """The multiples of `step` in lo..hi: int32 or int64 values, or a datetime's milliseconds."""
    lo: int
    hi: int
    step: int = 1
    refusal: ClassVar[str] = "inexact"  # the error a decoder gives a value outside the set

    def within(self, other: "Domain") -> bool:
        if self.lo > self.hi:
            return True
        if isinstance(other, Among):
            count = (self.hi - self.lo) // self.step + 1
            return count <= len(other.values) and \
                all(v in other.values for v in range(self.lo, self.hi + 1, self.step))
        return isinstance(other, Integers) and other.lo <= self.lo and self.hi <= other.hi and \
            (self.step % other.step == 0 or (self.lo == self.hi and self.lo % other.step == 0))

    def describe(self) -> str:
        span = f"{_number(self.lo)}..{_number(self.hi)}"
        return f"multiples of {self.step} in {span}" if self.step != 1 else f"in {span}"


@dataclass(frozen=True)
class Doubles:
    """Doubles in lo..hi; `whole`: integers only (no fractions, no -0.0); `special`: NaN and the
    infinities too."""
    lo: float
    hi: float
    whole: bool = False
    special: bool = True
    refusal: ClassVar[str] = "inexact"

    def within(self, other: "Domain") -> bool:
        return isinstance(other, Doubles) and other.lo <= self.lo and self.hi <= other.hi and \
            (self.whole or not other.whole) and (other.special or not self.special)

    def describe(self) -> str:
        if self.whole:
            return f"holding whole numbers in {_number(self.lo)}..{_number(self.hi)}"
        return f"up to {self.hi:g} in magnitude" + (" (and NaN, infinities)" if self.special
                                                     else "")


@dataclass(frozen=True)
class Among:
    """Exactly these values (an enum's stored values)."""
    values: frozenset
    refusal: ClassVar[str] = "invalid_value"

    def within(self, other: "Domain") -> bool:
        if isinstance(other, Among):
            return self.values <= other.values
        if isinstance(other, Integers):
            return all(isinstance(v, int) and other.lo <= v <= other.hi and v % other.step == 0
                       for v in self.values)
        return False

    def describe(self) -> str:
        return ", ".join(f"`{v}`" for v in sorted(self.values, key=lambda v: (str(type(v)), v)))


@dataclass(frozen=True)
class Dimensions:
    """Binary vectors of exactly `size` elements (a fixed dimension, `binary_vector<T, N>`)."""
    size: int
    refusal: ClassVar[str] = "invalid_length"

    def within(self, other: "Domain") -> bool:
        return isinstance(other, Dimensions) and other.size == self.size

    def describe(self) -> str:
        return f"of dimension {self.size}"


Domain = Union[Integers, Doubles, Among, Dimensions, None]  # None: every value of the BSON type

# Every value of the types whose values the sets tell apart.
FULL: dict[str, Domain] = {
    "int": Integers(*INT32_RANGE), "long": Integers(*INT64_RANGE),
    "date": Integers(*DATETIME_RANGE),
    "double": Doubles(-catalog.FLOAT_SPELLING_MAX["double"], catalog.FLOAT_SPELLING_MAX["double"]),
}


def _number(n) -> str:
    """n, powers of two (and one less) from 2^16 up shown as such: -2^63..2^63-1."""
    if isinstance(n, float) and not n.is_integer():
        return f"{n:g}"
    n = int(n)
    magnitude = abs(n)
    for k in range(16, 65):
        if magnitude == 1 << k:
            return f"{'-' if n < 0 else ''}2^{k}"
        if n > 0 and magnitude == (1 << k) - 1:
            return f"2^{k}-1"
    return str(n)


@dataclass
class ValueSet:
    """Per BSON type (tag), which of its values (a Domain); `unknown` says why the set cannot be
    told (a `cpp:` spelling the codecs do not convert into)."""
    domains: dict[str, Domain]
    unknown: Optional[str] = None


def _domains(tags, narrowed: Optional[dict] = None) -> dict[str, Domain]:
    narrowed = narrowed or {}
    return {tag: narrowed.get(tag, FULL.get(tag)) for tag in tags}


def _clip(lo: int, hi: int, bounds: tuple[int, int]) -> Integers:
    return Integers(max(lo, bounds[0]), min(hi, bounds[1]))


def _integral_range(cpp: Optional[str]) -> Optional[tuple[int, int]]:
    s = spellings.parse(cpp) if cpp is not None else None
    if s == spellings.Spelling("bool"):
        return catalog.BOOL_SPELLING_RANGE
    return spellings.integer_range(s) if s is not None else None


def clock(cpp: Optional[str]) -> Optional[tuple[Fraction, tuple[int, int]]]:
    """A datetime member's clock: (milliseconds per tick, the values its count holds), or None
    when `cpp` is not a std::chrono::system_clock time point of an integral count."""
    if cpp is None:
        return Fraction(1), INT64_RANGE
    s = spellings.parse(cpp)
    return spellings.clock(s) if s is not None else None


def _unsupported(t: TypeRef, what: str) -> ValueSet:
    """The set of a spelling the tables above do not describe (an alias of the user's, whose
    values are unknown: diff counts it as breaking). Spellings the codecs cannot convert into at
    all never get here: the linker refuses them (spellings.py)."""
    return ValueSet({}, f"{t.kind} held as {t.cpp}: not a spelling whose values bsongen knows "
                        f"(the {t.kind} codec converts into {what}; catalog.py lists the "
                        "spellings it knows)")


def _number_sets(t: TypeRef) -> tuple[ValueSet, ValueSet]:
    """(accepted, written) of an int32, int64, double or datetime member, by its spelling."""
    if t.kind in ("int32", "int64"):
        spelled = _integral_range(t.cpp) if t.cpp else KIND_RANGES[t.kind]
        if spelled is None:
            unknown = _unsupported(t, "integer members")
            return unknown, unknown
        ints, longs = _clip(*spelled, INT32_RANGE), _clip(*spelled, INT64_RANGE)
        if t.kind == "int32":
            both = ValueSet({"int": ints})
            return both, both
        return ValueSet({"int": ints, "long": longs}), ValueSet({"long": longs})
    if t.kind == "double":
        spelled = _integral_range(t.cpp)
        if spelled is not None:  # whole numbers of the integer type; no NaN, infinities, -0.0
            doubles = Doubles(spelled[0], spelled[1], whole=True, special=False)
            return ValueSet({"double": doubles, "int": _clip(*spelled, INT32_RANGE)}), \
                ValueSet({"double": doubles})
        largest = catalog.FLOAT_SPELLING_MAX.get(spellings.canonical(t.cpp) if t.cpp else "double")
        if largest is None:
            unknown = _unsupported(t, "integer and floating-point members")
            return unknown, unknown
        doubles = Doubles(-largest, largest)  # float rounds, and refuses only beyond its range
        return ValueSet({"double": doubles, "int": FULL["int"]}), ValueSet({"double": doubles})
    held = clock(t.cpp)
    if held is None:
        unknown = _unsupported(t, "std::chrono::system_clock time points of an integral count")
        return unknown, unknown
    per_tick, (rep_lo, rep_hi) = held
    low, high = INT64_RANGE
    if per_tick.denominator == 1:  # coarser (or milliseconds): whole ticks only
        k = per_tick.numerator
        ticks = (max(rep_lo, -(-low // k)), min(rep_hi, high // k))
        both = ValueSet({"date": Integers(ticks[0] * k, ticks[1] * k, k)})
        return both, both
    if per_tick.numerator != 1:
        unknown = _unsupported(t, "clocks whose period is a whole number of milliseconds or a "
                               "whole fraction of one")
        return unknown, unknown
    f = per_tick.denominator  # finer: decode refuses milliseconds beyond the count, encode floors
    count = (max(rep_lo, low), min(rep_hi, high))
    return ValueSet({"date": Integers(-(-count[0] // f), count[1] // f)}), \
        ValueSet({"date": Integers(count[0] // f, count[1] // f)})


def value_sets(t: TypeRef, enum_values: Optional[frozenset] = None,
               enum_storage: Optional[str] = None) -> tuple[ValueSet, ValueSet]:
    """(accepted, written): the values of each BSON type the decoder of `t` accepts, and those its
    encoder may write, at the outermost level (containers' elements are their own types).
    `optional` adds null to what is read, `nullable` to both. For an enum, its stored values and
    storage."""
    if t.kind in ("optional", NULLABLE):
        reads, writes = value_sets(t.element, enum_values, enum_storage)
        null = {"null": None}
        return ValueSet({**reads.domains, **null}, reads.unknown), \
            ValueSet({**writes.domains, **(null if t.kind == NULLABLE else {})}, writes.unknown)
    if t.kind == NUMBER:
        element = t.element.kind if t.element else ""
        wire = NUMBER_WIRE[element]
        narrowed = {"long": Integers(-DOUBLE_EXACT_LIMIT, DOUBLE_EXACT_LIMIT)} \
            if element == "double" else {}
        return ValueSet(_domains(wire.reads, narrowed)), ValueSet(_domains(wire.writes, narrowed))
    if t.kind == "enum":
        tag = ENUM_STORAGE_TAG[enum_storage or "int32"]
        both = ValueSet({tag: Among(frozenset(enum_values or ()))})
        return both, both
    if t.kind in ("int32", "int64", "double", "datetime"):
        return _number_sets(t)
    if t.kind == catalog.VECTOR_KIND and t.size is not None:
        both = ValueSet({VECTOR_TAGS[t.dtype or ""]: Dimensions(t.size)})
        return both, both
    reads, writes = value_tags(t)
    return ValueSet(_domains(reads)), ValueSet(_domains(writes))


def uncovered(accepted: ValueSet, written: ValueSet) -> list[tuple[str, Domain, Domain, bool]]:
    """The written values that are not accepted, per tag: (tag, written domain, accepted domain,
    whether the tag is accepted at all). Empty: every written value is accepted."""
    out = []
    for tag, domain in sorted(written.domains.items()):
        if tag not in accepted.domains:
            out.append((tag, domain, None, False))
            continue
        reader = accepted.domains[tag]
        if reader is None or (domain is not None and domain.within(reader)):
            continue
        out.append((tag, domain, reader, True))
    return out
