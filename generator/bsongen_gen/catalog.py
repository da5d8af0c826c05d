"""What the generator knows about BSON types and each kind of type reference.

The one place that knows type bytes, value widths, integer ranges, the names of BSON types (the
spec's and `$jsonSchema`'s), C++ spellings, the headers those spellings need and which runtime
codec encodes each kind. Everything else (layout, the C++ view, templates, the tools in tools/)
reads these tables; templates never name a kind, a type byte or a codec. The runtime states the
same facts in C++ (bson_type.hpp's `value_rules`, the codecs): tests/runtime/catalog_facts_test
checks every one of them against this file, and catalog_json.py hands the tables to the scanner.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class BsonType:
    """One BSON element type: what the runtime's `bson_type`, `detail::value_rules` and Extended
    JSON writer say of it (tests/runtime/catalog_facts_test checks each fact against them), and
    MongoDB's `$jsonSchema` name for it (tests/tools/jsonschema_test checks that one)."""
    name: str                      # the bsongen::bson_type enumerator
    byte: int                      # the type byte
    spec_name: str                 # value_rules' name (bsongen::type_name): "objectId"
    json_schema: str               # the alias `$jsonSchema`'s bsonType and `$type` use: "objectId"
    # The key of the wrapper canonical Extended JSON writes a value in ({"$oid": ...}); None where
    # it writes plain JSON (strings, booleans, null, documents, arrays).
    extjson_key: Optional[str]
    fixed_width: Optional[int] = None  # value bytes when the type fixes them (0 for null)
    # The values of a two's complement integer of fixed_width bytes (int32, int64, datetime's
    # milliseconds), else None.
    integer_range: Optional[tuple[int, int]] = None


def _two_complement(width: int) -> tuple[int, int]:
    return -(1 << (8 * width - 1)), (1 << (8 * width - 1)) - 1


# The BSON element types (bsonspec.org/spec.html), by their `bsongen::bson_type` enumerator.
BSON_TYPES: dict[str, BsonType] = {t.name: t for t in [
    BsonType("double_", 0x01, "double", "double", "$numberDouble", 8),
    BsonType("string", 0x02, "string", "string", None),
    BsonType("document", 0x03, "document", "object", None),
    BsonType("array", 0x04, "array", "array", None),
    BsonType("binary", 0x05, "binary", "binData", "$binary"),
    BsonType("undefined", 0x06, "undefined", "undefined", "$undefined", 0),
    BsonType("object_id", 0x07, "objectId", "objectId", "$oid", 12),
    BsonType("boolean", 0x08, "bool", "bool", None, 1),
    BsonType("datetime", 0x09, "datetime", "date", "$date", 8, _two_complement(8)),
    BsonType("null", 0x0A, "null", "null", None, 0),
    BsonType("regex", 0x0B, "regex", "regex", "$regularExpression"),
    BsonType("db_pointer", 0x0C, "dbPointer", "dbPointer", "$dbPointer"),
    BsonType("javascript", 0x0D, "javascript", "javascript", "$code"),
    BsonType("symbol", 0x0E, "symbol", "symbol", "$symbol"),
    BsonType("javascript_with_scope", 0x0F, "javascriptWithScope", "javascriptWithScope",
             "$code"),  # then "$scope"
    BsonType("int32", 0x10, "int32", "int", "$numberInt", 4, _two_complement(4)),
    BsonType("timestamp", 0x11, "timestamp", "timestamp", "$timestamp", 8),
    BsonType("int64", 0x12, "int64", "long", "$numberLong", 8, _two_complement(8)),
    BsonType("decimal128", 0x13, "decimal128", "decimal", "$numberDecimal", 16),
    BsonType("min_key", 0xFF, "minKey", "minKey", "$minKey", 0),
    BsonType("max_key", 0x7F, "maxKey", "maxKey", "$maxKey", 0),
]}

# Headers every generated header includes, and where the runtime types are declared.
CODEC_HEADER = "bsongen/codec.hpp"
VERSION_HEADER = "bsongen/version.hpp"
# Typed field paths and projection documents (bsongen::paths_of, bsongen::projection): every
# generated header includes it.
QUERY_HEADER = "bsongen/query.hpp"
FILLED_ARRAY_HEADER = "bsongen/filled_array.hpp"  # fixed arrays of enums start at an enumerator
BSON_TYPE_HEADER = "bsongen/bson_type.hpp"
CAPTURE_KIND = "raw_document"  # the kind of a struct's capture member (unknown_fields: capture)
PMR_HEADER = "<memory_resource>"   # std::pmr::polymorphic_allocator, for `allocator: pmr` schemas
PMR_TYPES_HEADER = "bsongen/pmr_types.hpp"  # bsongen::pmr::binary, regex, raw_document...
ALLOCATOR_AWARE_HEADER = "bsongen/detail/allocator_aware.hpp"  # what their constructors call
# The runtime's codec headers (runtime/codec/include/bsongen/detail/), each one concern: what the
# codec definitions include (the generated source, or the header after its declarations with
# --header-only), by what the model uses (cpp.view's source_headers): a schema without maps does
# not compile map_codec, one without fixed-shape structs not the fixed-shape matcher.
VALUE_CODEC_HEADER = "bsongen/detail/value_codecs.hpp"  # the leaf codecs, enums, nullable, number
# What every struct's codec calls: element prefixes and key compares, the member decode calls
# (optionals, resets), the struct table with its out-of-order loop.
STRUCT_CODEC_HEADERS = ("bsongen/detail/element_prefix.hpp", "bsongen/detail/member_decode.hpp",
                        "bsongen/detail/struct_table.hpp")
FIXED_SHAPE_HEADER = "bsongen/detail/fixed_shape.hpp"  # fixed-shape structs' fast path
ARRAY_CODEC_HEADER = "bsongen/detail/array_codec.hpp"  # vector_codec, array_codec, array keys
MAP_CODEC_HEADER = "bsongen/detail/map_codec.hpp"
# What a projection's decoder steps over its source's other fields with (skip runs).
PROJECTION_SUPPORT_HEADER = "bsongen/detail/projection_support.hpp"
# The BSON types whose values have one width (bson_type.hpp's value_rules, layout `fixed`): a
# projection steps over consecutive source fields of these together (detail::skip_fixed_run,
# whose static_assert holds this list to the table).
FIXED_WIDTH_BSON_TYPES = ("double_", "undefined", "object_id", "boolean", "datetime", "null",
                          "int32", "timestamp", "int64", "decimal128", "min_key", "max_key")


# A binary value: its int32 length and subtype byte, then the payload.
BINARY_PREFIX_BYTES = 5
# Binary subtype 4 (bsongen::binary_subtype::uuid) of 16 bytes: what the `uuid` kind reads and
# writes.
UUID_SUBTYPE = 0x04
UUID_BYTES = 16


def binary_prefix(length: int, subtype: int) -> tuple[tuple[int, int], ...]:
    """The (offset, byte) pairs of a binary value's prefix: the payload `length` (int32, little
    endian) and the subtype: the constant bytes of a binary of fixed length and subtype."""
    return (*enumerate(length.to_bytes(4, "little")), (4, subtype))


@dataclass(frozen=True)
class ScalarKind:
    kind: str
    bson_type: Optional[str]       # BSON_TYPES name; None: decided by the value at run time (`any`)
    cpp_type: str                  # the default C++ spelling
    codec: str                     # the runtime codec (bsongen::detail)
    fixed_width: Optional[int]     # value bytes when every value encodes to the same size
    # Bytes of a fixed-width value that are the same for every value (checked on the fast path);
    # (offset within the value, byte).
    constant_bytes: tuple[tuple[int, int], ...] = ()
    emptiable: bool = False        # omit_empty applies
    headers: tuple[str, ...] = ()  # what the default C++ spelling needs (<...> or "bsongen/...")
    holds_null: bool = False       # a value can be BSON null: an optional of it keeps nulls
    # The spelling in an `allocator: pmr` schema, where it differs: a type that allocates from the
    # struct's std::pmr::memory_resource.
    pmr_cpp_type: Optional[str] = None
    pmr_headers: tuple[str, ...] = ()  # what the `allocator: pmr` spelling needs, where it differs
    # The type of the static constants absent members reset from, where not the member's own: a
    # string's are views, which hold no allocator (a static std::pmr::string would keep whatever
    # resource was the default when it was first built).
    default_constant_type: Optional[str] = None
    # BSON_TYPES names the decoder also accepts, converting them (widening); encode writes only
    # bson_type.
    also_reads: tuple[str, ...] = ()
    # The `cpp:` spellings the codec converts into besides the default (and pmr) one, by family
    # (spellings.py matches them): "integer" (INTEGER_SPELLING_RANGES), "bool", "floating"
    # (FLOAT_SPELLING_MAX), "text_view" (std::string_view into the input), "clock" (system_clock
    # time points, CLOCK_*), "bytes16" (a std::array of 16 unsigned bytes).
    cpp_families: tuple[str, ...] = ()
    # What the codec definitions include for `codec`.
    codec_headers: tuple[str, ...] = (VALUE_CODEC_HEADER,)


SCALARS: dict[str, ScalarKind] = {k.kind: k for k in [
    ScalarKind("double", "double_", "double", "::bsongen::detail::double_codec", 8,
               also_reads=("int32",), cpp_families=("integer", "bool", "floating")),
    ScalarKind("string", "string", "std::string", "::bsongen::detail::string_codec", None,
               emptiable=True, headers=("<string>",), pmr_cpp_type="std::pmr::string",
               default_constant_type="std::string_view", cpp_families=("text_view",)),
    ScalarKind("javascript", "javascript", "std::string", "::bsongen::detail::javascript_codec",
               None, emptiable=True, headers=("<string>",), pmr_cpp_type="std::pmr::string",
               default_constant_type="std::string_view", cpp_families=("text_view",)),
    ScalarKind("int32", "int32", "std::int32_t", "::bsongen::detail::int32_codec", 4,
               headers=("<cstdint>",), cpp_families=("integer", "bool")),
    ScalarKind("int64", "int64", "std::int64_t", "::bsongen::detail::int64_codec", 8,
               headers=("<cstdint>",), also_reads=("int32",), cpp_families=("integer", "bool")),
    ScalarKind("bool", "boolean", "bool", "::bsongen::detail::bool_codec", 1),
    ScalarKind("datetime", "datetime", "::bsongen::datetime", "::bsongen::detail::datetime_codec",
               8, headers=("bsongen/types.hpp",), cpp_families=("clock",)),
    ScalarKind("object_id", "object_id", "::bsongen::object_id",
               "::bsongen::detail::object_id_codec", 12, headers=("bsongen/object_id.hpp",)),
    ScalarKind("decimal128", "decimal128", "::bsongen::decimal128",
               "::bsongen::detail::decimal128_codec", 16, headers=("bsongen/decimal128.hpp",)),
    ScalarKind("binary", "binary", "::bsongen::binary", "::bsongen::detail::binary_codec", None,
               emptiable=True, headers=("bsongen/types.hpp",),
               pmr_cpp_type="::bsongen::pmr::binary", pmr_headers=(PMR_TYPES_HEADER,)),
    ScalarKind("uuid", "binary", f"std::array<std::uint8_t, {UUID_BYTES}>",
               "::bsongen::detail::uuid_codec", BINARY_PREFIX_BYTES + UUID_BYTES,
               constant_bytes=binary_prefix(UUID_BYTES, UUID_SUBTYPE),
               headers=("<array>", "<cstdint>"), cpp_families=("bytes16",)),
    ScalarKind("timestamp", "timestamp", "::bsongen::timestamp",
               "::bsongen::detail::timestamp_codec", 8, headers=("bsongen/types.hpp",)),
    ScalarKind("regex", "regex", "::bsongen::regex", "::bsongen::detail::regex_codec", None,
               headers=("bsongen/types.hpp",), pmr_cpp_type="::bsongen::pmr::regex",
               pmr_headers=(PMR_TYPES_HEADER,)),
    ScalarKind("null", "null", "std::nullptr_t", "::bsongen::detail::null_codec", 0,
               headers=("<cstddef>",), holds_null=True),
    ScalarKind("min_key", "min_key", "::bsongen::min_key", "::bsongen::detail::min_key_codec", 0,
               headers=("bsongen/types.hpp",)),
    ScalarKind("max_key", "max_key", "::bsongen::max_key", "::bsongen::detail::max_key_codec", 0,
               headers=("bsongen/types.hpp",)),
    ScalarKind("javascript_with_scope", "javascript_with_scope",
               "::bsongen::javascript_with_scope", "::bsongen::detail::javascript_with_scope_codec",
               None, headers=("bsongen/raw_document.hpp",),
               pmr_cpp_type="::bsongen::pmr::javascript_with_scope",
               pmr_headers=(PMR_TYPES_HEADER,)),
    ScalarKind("raw_document", "document", "::bsongen::raw_document",
               "::bsongen::detail::raw_document_codec", None, emptiable=True,
               headers=("bsongen/raw_document.hpp",),
               pmr_cpp_type="::bsongen::pmr::raw_document", pmr_headers=(PMR_TYPES_HEADER,)),
    # `any` holds a null as a value, so `optional<any>` keeps absent and null apart (decision 7).
    # In an `allocator: pmr` schema it is allocator-aware too: its parts follow the struct's
    # resource, and a move onto another resource copies them as every other member's are.
    ScalarKind("any", None, "::bsongen::value", "::bsongen::detail::any_codec", None,
               headers=("bsongen/value.hpp",), holds_null=True,
               pmr_cpp_type="::bsongen::pmr::value", pmr_headers=("bsongen/pmr_value.hpp",)),
]}


@dataclass(frozen=True)
class ContainerKind:
    kind: str
    bson_type: Optional[str]            # None: the element's (optional)
    cpp_template: str
    cpp_leading_args: tuple[str, ...]   # template arguments before the element (map's key)
    codec_template: str                 # "": no codec of its own (optional is the field's presence)
    has_size: bool = False
    emptiable: bool = False
    headers: tuple[str, ...] = ()
    element_kinds: Optional[tuple[str, ...]] = None  # the only element kinds allowed
    # Element kinds refused, with the reason shown as the diagnostic's hint.
    refused_elements: tuple[tuple[str, str], ...] = ()
    holds_null: bool = False            # reads a null itself: an optional of it keeps nulls
    # The template and leading arguments in an `allocator: pmr` schema, where they differ.
    pmr_cpp_template: Optional[str] = None
    pmr_leading_args: tuple[str, ...] = ()
    # Other templates a `cpp:` spelling may name (the codec is generic over them), and sequences
    # of (key, value) std::pairs that may spell a map (keeping document order and repeats).
    cpp_other_templates: tuple[str, ...] = ()
    pmr_other_templates: tuple[str, ...] = ()
    cpp_entry_sequences: tuple[str, ...] = ()
    pmr_entry_sequences: tuple[str, ...] = ()
    cpp_element_exact: bool = False     # the element must be spelled as its kind's default
    codec_headers: tuple[str, ...] = ()  # what the codec definitions include for codec_template


CONTAINERS: dict[str, ContainerKind] = {k.kind: k for k in [
    ContainerKind("vector", "array", "std::vector", (), "::bsongen::detail::vector_codec",
                  emptiable=True, headers=("<vector>",), pmr_cpp_template="std::pmr::vector",
                  codec_headers=(ARRAY_CODEC_HEADER,)),
    ContainerKind("array", "array", "std::array", (), "::bsongen::detail::array_codec",
                  has_size=True, headers=("<array>",), codec_headers=(ARRAY_CODEC_HEADER,)),
    ContainerKind("map", "document", "std::map", ("std::string",), "::bsongen::detail::map_codec",
                  emptiable=True, headers=("<map>", "<string>"), pmr_cpp_template="std::pmr::map",
                  pmr_leading_args=("std::pmr::string",),
                  cpp_other_templates=("std::unordered_map",),
                  pmr_other_templates=("std::pmr::unordered_map",),
                  cpp_entry_sequences=("std::vector",), pmr_entry_sequences=("std::pmr::vector",),
                  codec_headers=(MAP_CODEC_HEADER,)),
    # Its decode (detail::decode_optional_member) is in STRUCT_CODEC_HEADERS.
    ContainerKind("optional", None, "std::optional", (), "", headers=("<optional>",)),
    # A T or null (decision 7); its type byte is the value's (null or T's).
    ContainerKind("nullable", None, "::bsongen::nullable", (), "::bsongen::detail::nullable_codec",
                  headers=("bsongen/nullable.hpp",), holds_null=True, refused_elements=(
                      ("nullable", "a nullable is already null or a value"),
                      ("any", "`any` holds a null itself"),
                      ("null", "`null` is only null; use `nullable<T>` for a T or null")),
                  codec_headers=(VALUE_CODEC_HEADER,)),
    # A widened number that writes back the BSON type it was read as (decision 7).
    ContainerKind("number", None, "::bsongen::number", (), "::bsongen::detail::number_codec",
                  headers=("bsongen/number.hpp",), element_kinds=("int64", "double"),
                  cpp_element_exact=True, codec_headers=(VALUE_CODEC_HEADER,)),
]}


# --- BSON Binary Vector (binary subtype 9, the spec "BSON Binary Subtype 9 - Vector"). ---
#
# The schema spelling `binary_vector<dtype>` (`binary_vector<dtype, N>`: a fixed dimension) is the
# model kind VECTOR_KIND with `dtype` (and `size`). The payload is [dtype byte][padding byte]
# [elements]; the runtime's bsongen/binary_vector.hpp holds the types and the spec's rules, the
# codecs (VECTOR_CODEC_HEADER) build on them. vector_scalar() turns one such reference into the
# ScalarKind every other stage reads, so no stage branches on the dtype.
VECTOR_KIND = "binary_vector"
VECTOR_SPELLINGS = ("binary_vector", "bsongen::binary_vector")
VECTOR_SUBTYPE = 0x09
VECTOR_HEADER = "bsongen/binary_vector.hpp"
VECTOR_CODEC_HEADER = "bsongen/detail/vector_codecs.hpp"
VECTOR_HEADER_BYTES = 2  # the dtype and padding bytes before the elements


@dataclass(frozen=True)
class VectorDtype:
    dtype: str                     # schema and model spelling; `bsongen::vector_dtype` enumerator
    byte: int                      # the dtype byte the payload starts with
    cpp_type: str                  # variable dimension: the member's default C++ spelling
    pmr_cpp_type: str              # ... in an `allocator: pmr` schema
    # Fixed dimension N (`binary_vector<dtype, N>`): the element type of std::array<element, N>,
    # and each element's bytes on the wire; None: no fixed form (packed_bit counts bits, and its
    # last byte's padding is part of the value).
    fixed_element: Optional[str]
    element_width: Optional[int]
    headers: tuple[str, ...]
    pmr_headers: tuple[str, ...]
    fixed_headers: tuple[str, ...] = ("<array>",)


VECTOR_DTYPES: dict[str, VectorDtype] = {d.dtype: d for d in [
    VectorDtype("float32", 0x27, "std::vector<float>", "std::pmr::vector<float>", "float", 4,
                ("<vector>",), ("<vector>",)),
    VectorDtype("int8", 0x03, "std::vector<std::int8_t>", "std::pmr::vector<std::int8_t>",
                "std::int8_t", 1, ("<vector>", "<cstdint>"), ("<vector>", "<cstdint>"),
                ("<array>", "<cstdint>")),
    VectorDtype("packed_bit", 0x10, "::bsongen::packed_bits", "::bsongen::pmr::packed_bits", None,
                None, (VECTOR_HEADER,), (PMR_TYPES_HEADER,)),
]}
VECTOR_CODEC = "::bsongen::detail::binary_vector_codec<::bsongen::vector_dtype::{dtype}>"
VECTOR_FIXED_CODEC = \
    "::bsongen::detail::fixed_binary_vector_codec<::bsongen::vector_dtype::{dtype}, {size}>"
# The largest fixed dimension: a std::array member of this many elements.
MAX_VECTOR_DIMENSION = 1 << 16


def vector_fixed_width(dtype: VectorDtype, size: int) -> int:
    """Bytes of a fixed-dimension vector's value: binary length, subtype, dtype, padding, elements."""
    assert dtype.element_width is not None
    return BINARY_PREFIX_BYTES + VECTOR_HEADER_BYTES + dtype.element_width * size


def vector_scalar(dtype_name: str, size: Optional[int]) -> ScalarKind:
    """The facts of `binary_vector<dtype_name[, size]>` (a linked reference: the dtype is known,
    and a size only where the dtype has a fixed form)."""
    d = VECTOR_DTYPES[dtype_name]
    if size is None:
        return ScalarKind(VECTOR_KIND, "binary", d.cpp_type, VECTOR_CODEC.format(dtype=d.dtype),
                          None, emptiable=True, headers=d.headers, pmr_cpp_type=d.pmr_cpp_type,
                          pmr_headers=d.pmr_headers, codec_headers=(VECTOR_CODEC_HEADER,))
    width = vector_fixed_width(d, size)
    dtype_at = BINARY_PREFIX_BYTES  # the payload's first bytes: dtype, then padding (0)
    constant = (*binary_prefix(width - BINARY_PREFIX_BYTES, VECTOR_SUBTYPE), (dtype_at, d.byte),
                (dtype_at + 1, 0))
    return ScalarKind(VECTOR_KIND, "binary", f"std::array<{d.fixed_element}, {size}>",
                      VECTOR_FIXED_CODEC.format(dtype=d.dtype, size=size), width,
                      constant_bytes=constant, headers=d.fixed_headers,
                      codec_headers=(VECTOR_CODEC_HEADER,))


def scalar_of(t) -> Optional[ScalarKind]:
    """The ScalarKind of a linked type reference that is a leaf value (a scalar kind or a binary
    vector), else None."""
    if t.kind == VECTOR_KIND:
        return vector_scalar(t.dtype, t.size)
    return SCALARS.get(t.kind)


@dataclass(frozen=True)
class EnumStorage:
    storage: str
    bson_type: str
    fixed_width: Optional[int]
    codec_template: str     # takes the enum and its traits (the generated codec_impl<E>)
    stored_as_name: bool    # traits give name_of and from_name (else is_valid(raw))
    codec_headers: tuple[str, ...] = (VALUE_CODEC_HEADER,)  # what codec_template needs


ENUM_STORAGES: dict[str, EnumStorage] = {s.storage: s for s in [
    EnumStorage("int32", "int32", 4, "::bsongen::detail::enum_int32_codec", False),
    EnumStorage("string", "string", None, "::bsongen::detail::enum_string_codec", True),
]}
ENUM_UNDERLYING_HEADER = "<cstdint>"

STRUCT_BSON_TYPE = "document"
# What `optional` fields read as absent.
NULL_BSON_TYPE = "null"

DEFINITION_KINDS = ("struct", "enum")

ALL_KINDS = sorted(list(SCALARS) + list(CONTAINERS) + list(DEFINITION_KINDS) + [VECTOR_KIND])

# Schema-file spellings accepted besides the model's kind names.
SCHEMA_ALIASES = {
    "objectid": "object_id", "ObjectId": "object_id", "oid": "object_id",
    "Decimal128": "decimal128", "decimal": "decimal128",
    "date": "datetime", "MinKey": "min_key", "MaxKey": "max_key", "minkey": "min_key",
    "maxkey": "max_key", "boolean": "bool", "int": "int32", "long": "int64",
    "document": "raw_document", "code": "javascript", "code_with_scope": "javascript_with_scope",
}


def default_kind(bson_type: str) -> Optional[str]:
    """The scalar kind that reads and writes values of BSON type `bson_type` (a BSON_TYPES name)
    as they are: the first of SCALARS with that type and no constant bytes (so `binary`, not
    `uuid`; `string`, not the view spellings); None when no kind has the type (undefined,
    dbPointer, symbol: only `any` holds them)."""
    return next((s.kind for s in SCALARS.values()
                 if s.bson_type == bson_type and not s.constant_bytes), None)


# Integer C++ spellings (`cpp:` on a number field, or what the header scanner records) and the
# values they hold: decode refuses a value outside them (`inexact`), a default must fit them, and
# the tools bound such fields by them. long is 64 bits on the LP64 targets the runtime supports.
INTEGER_SPELLING_RANGES: dict[str, tuple[int, int]] = {
    **{f"{prefix}{sign}int{bits}_t": ((0, (1 << bits) - 1) if sign else
                                      (-(1 << (bits - 1)), (1 << (bits - 1)) - 1))
       for prefix in ("std::", "") for sign in ("u", "") for bits in (8, 16, 32, 64)},
    "signed char": (-(1 << 7), (1 << 7) - 1), "unsigned char": (0, (1 << 8) - 1),
    "short": (-(1 << 15), (1 << 15) - 1), "unsigned short": (0, (1 << 16) - 1),
    "int": (-(1 << 31), (1 << 31) - 1), "unsigned": (0, (1 << 32) - 1),
    "unsigned int": (0, (1 << 32) - 1), "long long": (-(1 << 63), (1 << 63) - 1),
    "long": (-(1 << 63), (1 << 63) - 1), "unsigned long": (0, (1 << 64) - 1),
    "unsigned long long": (0, (1 << 64) - 1),
    **{f"{prefix}{name}": bounds for prefix in ("std::", "") for name, bounds in (
        ("size_t", (0, (1 << 64) - 1)), ("ptrdiff_t", (-(1 << 63), (1 << 63) - 1)),
        ("intmax_t", (-(1 << 63), (1 << 63) - 1)), ("uintmax_t", (0, (1 << 64) - 1)))},
}
INT64_RANGE = INTEGER_SPELLING_RANGES["std::int64_t"]
# The scalar kinds whose values are integers of their BSON type (int32, int64), and those values:
# what a default must fit, what `number<double>` and the tools bound them by.
INTEGER_KIND_RANGES: dict[str, tuple[int, int]] = {
    s.kind: BSON_TYPES[s.bson_type].integer_range for s in SCALARS.values()
    if s.bson_type is not None and "integer" in s.cpp_families and
    BSON_TYPES[s.bson_type].integer_range is not None}


# The largest std::array (`array` kind) size a model may give.
MAX_ARRAY_SIZE = 1 << 16

# The most containers that nest one value (vector, array and map: the kinds that are a BSON array or
# document) within one member type. A std::vector<T> names T twice (the element and
# std::allocator<T>), a std::map its value type twice too, so the type of an anonymous nest doubles
# in size per level, and g++ 12 and clang 14 both spend time exponential in that size on overload
# resolution: a TU that only calls emplace_back and copies std::vector nested 28 deep takes 29 s
# with g++ (0.4 s at 20), clang 94 s at 24. The codecs of 16 levels compile in 3.6 s (-O2, 2.3 s at
# 8); a struct resets the count (its name is one leaf of the type), so deeper data nests structs
# or ends in `any`. bench/compile_cost/nesting measures both.
MAX_CONTAINER_NESTING = 16


def container_nesting(t) -> int:
    """How many containers of MAX_CONTAINER_NESTING's kinds nest in the type expression `t`."""
    depth = 0
    while t is not None and t.kind in CONTAINERS:
        depth += CONTAINERS[t.kind].bson_type is not None
        t = t.element
    return depth


# The widest value given a fixed layout (layout.py). A fixed struct's skeleton and shape are written
# into the generated source, about 7 characters per byte, so wider structs and arrays take the
# general path rather than make a source of megabytes. (A fixed array's own fast path builds its
# shape at compile time and stops far earlier: detail::max_fixed_shape_size.)
MAX_FIXED_WIDTH = 64 * 1024


# Other C++ spellings the runtime's number and datetime codecs convert into (value_codecs.hpp), for
# the tools' value sets (tools/wire.py). `bool` is integral to the codecs (std::is_integral): an
# int32, int64 or double member spelled bool holds 0 and 1. A double member spelled `float` holds
# magnitudes up to float's largest (decode refuses finite doubles beyond it; NaN and infinities
# pass, other values round); spelled `double`, every double.
BOOL_SPELLING_RANGE = (0, 1)
FLOAT_SPELLING_MAX: dict[str, float] = {"float": 3.4028234663852886e38,
                                        "double": 1.7976931348623157e308}
# Every integer of magnitude up to this is exact in a double (2 ** its 53 significand bits):
# number<double> reads int64 values within it, infer mixes doubles with such int64s.
DOUBLE_EXACT_LIMIT = 1 << 53
# A datetime member is any std::chrono::system_clock time point (datetime_codec): its duration's
# period in milliseconds per tick (numerator, denominator). The named durations count in 64 bits
# in libstdc++, as does system_clock's own (nanoseconds).
CLOCK_DURATIONS: dict[str, tuple[int, int]] = {
    "std::chrono::nanoseconds": (1, 1_000_000), "std::chrono::microseconds": (1, 1000),
    "std::chrono::milliseconds": (1, 1), "std::chrono::seconds": (1000, 1),
    "std::chrono::minutes": (60_000, 1), "std::chrono::hours": (3_600_000, 1),
    "std::chrono::days": (86_400_000, 1), "std::chrono::weeks": (604_800_000, 1),
}
# Time point spellings that name their duration.
CLOCK_TIME_POINTS: dict[str, str] = {
    "bsongen::datetime": "std::chrono::milliseconds",
    "std::chrono::sys_seconds": "std::chrono::seconds",
    "std::chrono::sys_days": "std::chrono::days",
    "std::chrono::system_clock::time_point": "std::chrono::nanoseconds",
}
