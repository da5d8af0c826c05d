"""What the generator knows about each kind of type reference.

All type knowledge lives here, as data the templates read (C++ spelling, BSON type byte, fixed
width, which runtime codec helper to call); templates never branch on a kind's name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class ScalarKind:
    kind: str
    type_byte: Optional[int]       # None: decided by the value at run time (`any`)
    cpp_type: str                  # the default C++ spelling
    codec: str                     # the runtime codec helper (bsongen::detail)
    fixed_width: Optional[int]     # value bytes when every value encodes to the same size
    # Bytes of a fixed-width value that are the same for every value (checked on the fast path);
    # (offset within the value, byte).
    constant_bytes: tuple[tuple[int, int], ...] = ()
    emptiable: bool = False        # omit_empty applies
    needs_header: str = ""         # runtime header that declares cpp_type
    keeps_null: bool = False       # reads a null as a value: `optional` of it keeps null


SCALARS: dict[str, ScalarKind] = {k.kind: k for k in [
    ScalarKind("double", 0x01, "double", "::bsongen::detail::double_codec", 8),
    ScalarKind("string", 0x02, "std::string", "::bsongen::detail::string_codec", None,
               emptiable=True),
    ScalarKind("javascript", 0x0D, "std::string", "::bsongen::detail::javascript_codec", None,
               emptiable=True),
    ScalarKind("int32", 0x10, "std::int32_t", "::bsongen::detail::int32_codec", 4),
    ScalarKind("int64", 0x12, "std::int64_t", "::bsongen::detail::int64_codec", 8),
    ScalarKind("bool", 0x08, "bool", "::bsongen::detail::bool_codec", 1),
    ScalarKind("datetime", 0x09, "::bsongen::datetime", "::bsongen::detail::datetime_codec", 8),
    ScalarKind("object_id", 0x07, "::bsongen::object_id", "::bsongen::detail::object_id_codec", 12),
    ScalarKind("decimal128", 0x13, "::bsongen::decimal128",
               "::bsongen::detail::decimal128_codec", 16),
    ScalarKind("binary", 0x05, "::bsongen::binary", "::bsongen::detail::binary_codec", None,
               emptiable=True),
    ScalarKind("uuid", 0x05, "std::array<std::uint8_t, 16>", "::bsongen::detail::uuid_codec", 21,
               constant_bytes=((0, 16), (1, 0), (2, 0), (3, 0), (4, 4))),
    ScalarKind("timestamp", 0x11, "::bsongen::timestamp", "::bsongen::detail::timestamp_codec", 8),
    ScalarKind("regex", 0x0B, "::bsongen::regex", "::bsongen::detail::regex_codec", None),
    ScalarKind("null", 0x0A, "std::nullptr_t", "::bsongen::detail::null_codec", 0),
    ScalarKind("min_key", 0xFF, "::bsongen::min_key", "::bsongen::detail::min_key_codec", 0),
    ScalarKind("max_key", 0x7F, "::bsongen::max_key", "::bsongen::detail::max_key_codec", 0),
    ScalarKind("javascript_with_scope", 0x0F, "::bsongen::javascript_with_scope",
               "::bsongen::detail::javascript_with_scope_codec", None),
    ScalarKind("raw_document", 0x03, "::bsongen::raw_document",
               "::bsongen::detail::raw_document_codec", None, emptiable=True),
    # `any` holds a null as a value, so `optional<any>` keeps absent and null apart (decision 7).
    ScalarKind("any", None, "::bsongen::value", "::bsongen::detail::any_codec", None,
               needs_header="bsongen/value.hpp", keeps_null=True),
]}


@dataclass(frozen=True)
class ContainerKind:
    kind: str
    type_byte: Optional[int]            # None: decided by the value (or the element, optional)
    cpp_template: str
    cpp_leading_args: tuple[str, ...]   # template arguments before the element (map's key)
    codec_template: str
    has_size: bool = False
    emptiable: bool = False
    element_kinds: Optional[tuple[str, ...]] = None  # the only element kinds allowed
    # Element kinds refused, with the reason shown as the diagnostic's hint.
    refused_elements: tuple[tuple[str, str], ...] = ()
    keeps_null: bool = False            # reads a null element itself: `optional` of it keeps null


CONTAINERS: dict[str, ContainerKind] = {k.kind: k for k in [
    ContainerKind("vector", 0x04, "std::vector", (), "::bsongen::detail::vector_codec",
                  emptiable=True),
    ContainerKind("array", 0x04, "std::array", (), "::bsongen::detail::array_codec",
                  has_size=True),
    ContainerKind("map", 0x03, "std::map", ("std::string",), "::bsongen::detail::map_codec",
                  emptiable=True),
    ContainerKind("optional", None, "std::optional", (), ""),
    ContainerKind("nullable", None, "::bsongen::nullable", (), "::bsongen::detail::nullable_codec",
                  keeps_null=True, refused_elements=(
                      ("nullable", "a nullable is already null or a value"),
                      ("any", "`any` holds a null itself"),
                      ("null", "`null` is only null; use `nullable<T>` for a T or null"))),
    ContainerKind("number", None, "::bsongen::number", (), "::bsongen::detail::number_codec",
                  element_kinds=("int64", "double")),
]}

DEFINITION_KINDS = ("struct", "enum")

ALL_KINDS = sorted(list(SCALARS) + list(CONTAINERS) + list(DEFINITION_KINDS))

# Schema-file spellings accepted besides the model's kind names.
SCHEMA_ALIASES = {
    "objectid": "object_id", "ObjectId": "object_id", "oid": "object_id",
    "Decimal128": "decimal128", "decimal": "decimal128",
    "date": "datetime", "MinKey": "min_key", "MaxKey": "max_key", "minkey": "min_key",
    "maxkey": "max_key", "boolean": "bool", "int": "int32", "long": "int64",
    "document": "raw_document", "code": "javascript", "code_with_scope": "javascript_with_scope",
}

ENUM_STORAGE_TYPE_BYTE = {"int32": 0x10, "string": 0x02}
ENUM_STORAGE_FIXED_WIDTH = {"int32": 4, "string": None}
STRUCT_TYPE_BYTE = 0x03
NULL_TYPE_BYTE = 0x0A
# The largest std::array (`array` kind) size a model may give.
MAX_ARRAY_SIZE = 1 << 16
