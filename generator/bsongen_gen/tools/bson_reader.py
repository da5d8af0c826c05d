"""Reading BSON as BSON, for the tools: documents from raw bytes, each value typed by the type
byte of its element.

`bsongen infer` reads its .bson inputs here rather than through Extended JSON text: Extended JSON
has no way to escape a sub-document whose keys look like a type wrapper, so text such as
`{"$oid": "zz"}` cannot say whether it was an ObjectId or a sub-document with the key `$oid`.
The type byte always says.

The checks are the generic decoder's (runtime/generic/src/decode.cpp) under the default
decode_options: every length and terminator, UTF-8 keys and strings, booleans 0 or 1, binary
subtype 2's inner length, the lengths of code with scope, at most 100 levels of nesting and 16 MiB
per document. So a document read here is one the generated decoders' framing accepts, and a corrupt
one is a BsonError with the decoder's error code, the path, the byte offset and the document.

Values: a document is a Document (its (key, value) pairs, in order, repeated keys kept), an
array an Array; double, string, bool, null and int32 are float, str, bool, None and int; the other
types are the small classes below (Int64 is an int).
"""

from __future__ import annotations

import struct
from typing import BinaryIO, Iterator, NamedTuple, Optional

from .. import catalog

MAX_SIZE = 16 * 1024 * 1024   # decode_options::max_size: MongoDB's document limit
MAX_DEPTH = 100               # decode_options::max_depth: documents/arrays on one path


class Document(list):
    """A BSON document: its (key, value) pairs in order, repeated keys kept."""


class Array(list):
    """A BSON array: its values in order (the keys "0", "1", ... are not kept)."""


class Int64(int):
    """A BSON int64 (a plain int is an int32)."""


class Binary(NamedTuple):
    subtype: int
    data: bytes      # the payload; subtype 2's inner length prefix is not part of it


class ObjectId(NamedTuple):
    raw: bytes       # 12 bytes


class DateTime(NamedTuple):
    millis: int      # since the Unix epoch


class Regex(NamedTuple):
    pattern: str
    options: str


class DBPointer(NamedTuple):
    namespace: str
    id: bytes        # 12 bytes


class Code(NamedTuple):
    code: str


class Symbol(NamedTuple):
    text: str


class CodeWithScope(NamedTuple):
    code: str
    scope: Document


class Timestamp(NamedTuple):
    time: int
    increment: int


class Decimal128(NamedTuple):
    raw: bytes       # 16 bytes, little-endian


class _Marker:
    """The value of a type that holds no data (one instance each)."""
    __slots__ = ()

    def __repr__(self) -> str:
        return type(self).__name__


class Undefined(_Marker):
    pass


class MinKey(_Marker):
    pass


class MaxKey(_Marker):
    pass


UNDEFINED, MIN_KEY, MAX_KEY = Undefined(), MinKey(), MaxKey()

# The BSON type (catalog.BSON_TYPES) of each value class, and so its type byte.
TYPE_OF: dict[type, str] = {
    float: "double_", str: "string", Document: "document", Array: "array", Binary: "binary",
    Undefined: "undefined", ObjectId: "object_id", bool: "boolean", DateTime: "datetime",
    type(None): "null", Regex: "regex", DBPointer: "db_pointer", Code: "javascript",
    Symbol: "symbol", CodeWithScope: "javascript_with_scope", int: "int32", Timestamp: "timestamp",
    Int64: "int64", Decimal128: "decimal128", MinKey: "min_key", MaxKey: "max_key",
}
TYPE_BYTE_OF: dict[type, int] = {cls: catalog.BSON_TYPES[name].byte
                                 for cls, name in TYPE_OF.items()}


def type_byte(value) -> int:
    """The BSON type byte of a value this module read."""
    return TYPE_BYTE_OF[type(value)]


class BsonError(Exception):
    """Input that is not valid BSON. `code` is the runtime's error_code name (invalid_length,
    truncated, ...), `offset` the byte (from the start of the input) where it is wrong, `path`
    the keys leading to the element."""

    def __init__(self, code: str, message: str, offset: int, path: Optional[list] = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.offset = offset
        self.path: list[str] = path if path is not None else []

    def __str__(self) -> str:
        where = f" at {'.'.join(self.path)}" if self.path else ""
        return f"{self.code}{where} (byte {self.offset}): {self.message}"


_INT32 = struct.Struct("<i")
_UINT32_PAIR = struct.Struct("<II")
_INT64 = struct.Struct("<q")
_DOUBLE = struct.Struct("<d")
_OLD_BINARY = 0x02   # binary subtype 2: the payload starts with its own int32 length
_WIDTH = {name: t.fixed_width for name, t in catalog.BSON_TYPES.items()}  # None: not fixed

def _plural(n: int, what: str) -> str:
    return f"{n} {what}" if n != 1 else f"1 {what.rstrip('s')}"


class _Decoder:
    """Reads one whole document held in `data`; offsets in errors are `base` + the index."""

    def __init__(self, data: bytes, base: int, max_depth: int):
        self.data = data
        self.base = base
        self.max_depth = max_depth

    def fail(self, code: str, message: str, at: int) -> BsonError:
        return BsonError(code, message, self.base + at)

    def text(self, start: int, end: int, what: str, element: int) -> str:
        try:
            return self.data[start:end].decode("utf-8")
        except UnicodeDecodeError:
            raise self.fail("invalid_utf8", f"{what} is not valid UTF-8", element) from None

    def elements(self, pos: int, end: int, depth: int, into: list, is_array: bool) -> list:
        """Reads the elements from `pos` to `end` (the index of the document's terminating NUL)
        into `into`: (key, value) pairs, or the values alone for an array."""
        data = self.data
        readers = _READERS
        while pos < end:
            element = pos
            kind = data[pos]
            reader = readers.get(kind)
            if reader is None:
                if kind == 0:
                    raise self.fail("invalid_length", "document ends (NUL type byte) before its "
                                    "declared length", element)
                raise self.fail("invalid_type", f"unknown element type byte 0x{kind:02x}", element)
            key_end = data.find(b"\0", pos + 1, end)
            if key_end < 0:
                raise self.fail("missing_terminator", "key has no NUL before the end of its "
                                "document", element)
            raw_key = data[pos + 1:key_end]
            try:
                key = raw_key.decode("utf-8")
            except UnicodeDecodeError:
                raise self.fail("invalid_utf8", "key is not valid UTF-8", element) from None
            try:
                value, pos = reader(self, key_end + 1, end, depth, element)
            except BsonError as e:
                e.path.insert(0, key)
                raise
            into.append(value if is_array else (key, value))
        return into

    # Each reader, read_<BSON_TYPES name>, takes the value's first byte, the enclosing
    # document's end, the depth and the element's type byte (where errors point) and returns
    # (the value, the byte after it).

    def need(self, width: int, pos: int, end: int, element: int) -> None:
        if end - pos < width:
            raise self.fail("truncated", f"value needs {_plural(width, 'bytes')} but its "
                            "document ends first", element)

    def fixed(self, bson_type: str, pos: int, end: int, element: int) -> int:
        """The byte after the value of fixed-width type `bson_type` at `pos`, checked to fit."""
        width = _WIDTH[bson_type]
        self.need(width, pos, end, element)
        return pos + width

    def read_double_(self, pos, end, depth, element):
        stop = self.fixed("double_", pos, end, element)
        return _DOUBLE.unpack_from(self.data, pos)[0], stop

    def string_span(self, pos: int, end: int, element: int) -> tuple[int, int]:
        """(start, end) of the text of the BSON string at `pos`, checked."""
        self.need(4, pos, end, element)
        length = _INT32.unpack_from(self.data, pos)[0]
        if length < 1:
            raise self.fail("invalid_length", f"string length {length} is below 1", element)
        if length > end - pos - 4:
            raise self.fail("invalid_length", f"string length {length} runs past the end of its "
                            "document", element)
        if self.data[pos + 4 + length - 1] != 0:
            raise self.fail("missing_terminator", "string does not end with a NUL byte", element)
        return pos + 4, pos + 4 + length - 1

    def read_string(self, pos, end, depth, element):
        start, stop = self.string_span(pos, end, element)
        return self.text(start, stop, "string", element), stop + 1

    def read_javascript(self, pos, end, depth, element):
        text, pos = self.read_string(pos, end, depth, element)
        return Code(text), pos

    def read_symbol(self, pos, end, depth, element):
        text, pos = self.read_string(pos, end, depth, element)
        return Symbol(text), pos

    def nested(self, pos: int, end: int, depth: int, element: int, is_array: bool) -> tuple:
        """The document or array whose length field is at `pos`, and the byte after it."""
        self.need(4, pos, end, element)
        length = _INT32.unpack_from(self.data, pos)[0]
        if length < 5:
            raise self.fail("invalid_length", f"embedded document length {length} is below the "
                            "minimum of 5", element)
        if length > end - pos:
            raise self.fail("invalid_length", f"embedded document length {length} runs past the "
                            "end of its parent", element)
        if self.data[pos + length - 1] != 0:
            raise self.fail("missing_terminator", "embedded document does not end with a NUL "
                            "byte", element)
        if depth >= self.max_depth:
            raise self.fail("too_deep", f"nesting exceeds the depth limit of {self.max_depth}",
                            element)
        into = Array() if is_array else Document()
        self.elements(pos + 4, pos + length - 1, depth + 1, into, is_array)
        return into, pos + length

    def read_document(self, pos, end, depth, element):
        return self.nested(pos, end, depth, element, False)

    def read_array(self, pos, end, depth, element):
        return self.nested(pos, end, depth, element, True)

    def read_binary(self, pos, end, depth, element):
        self.need(5, pos, end, element)
        length = _INT32.unpack_from(self.data, pos)[0]
        if length < 0:
            raise self.fail("invalid_length", f"binary length {length} is negative", element)
        if length > end - pos - 5:
            raise self.fail("invalid_length", f"binary length {length} runs past the end of its "
                            "document", element)
        subtype = self.data[pos + 4]
        start, stop = pos + 5, pos + 5 + length
        if subtype == _OLD_BINARY:
            if length < 4 or _INT32.unpack_from(self.data, start)[0] != length - 4:
                raise self.fail("invalid_length", "binary subtype 0x02 inner length disagrees "
                                f"with its outer length {length}", element)
            start += 4
        return Binary(subtype, bytes(self.data[start:stop])), stop

    def read_undefined(self, pos, end, depth, element):
        return UNDEFINED, pos

    def read_null(self, pos, end, depth, element):
        return None, pos

    def read_min_key(self, pos, end, depth, element):
        return MIN_KEY, pos

    def read_max_key(self, pos, end, depth, element):
        return MAX_KEY, pos

    def read_object_id(self, pos, end, depth, element):
        stop = self.fixed("object_id", pos, end, element)
        return ObjectId(bytes(self.data[pos:stop])), stop

    def read_boolean(self, pos, end, depth, element):
        stop = self.fixed("boolean", pos, end, element)
        byte = self.data[pos]
        if byte > 1:
            raise self.fail("invalid_bool", f"boolean byte is 0x{byte:02x}, not 0 or 1", element)
        return byte == 1, stop

    def read_datetime(self, pos, end, depth, element):
        stop = self.fixed("datetime", pos, end, element)
        return DateTime(_INT64.unpack_from(self.data, pos)[0]), stop

    def read_regex(self, pos, end, depth, element):
        pattern_end = self.data.find(b"\0", pos, end)
        options_end = self.data.find(b"\0", pattern_end + 1, end) if pattern_end >= 0 else -1
        if options_end < 0:
            raise self.fail("missing_terminator", "regex pattern or options lack a NUL before the "
                            "end of the document", element)
        return Regex(self.text(pos, pattern_end, "regex", element),
                     self.text(pattern_end + 1, options_end, "regex", element)), options_end + 1

    def read_db_pointer(self, pos, end, depth, element):
        start, stop = self.string_span(pos, end, element)
        namespace = self.text(start, stop, "string", element)
        id_end = self.fixed("object_id", stop + 1, end, element)
        return DBPointer(namespace, bytes(self.data[stop + 1:id_end])), id_end

    def read_javascript_with_scope(self, pos, end, depth, element):
        self.need(4, pos, end, element)
        total = _INT32.unpack_from(self.data, pos)[0]
        # int32 total, a string (int32 length >= 1, bytes, NUL), a document (>= 5 bytes).
        if total < 14 or total > end - pos:
            raise self.fail("invalid_length", f"code with scope length {total} is below 14 or "
                            "past its document", element)
        start, stop = self.string_span(pos + 4, pos + total, element)
        code = self.text(start, stop, "string", element)
        scope = stop + 1
        room = pos + total - scope
        if room < 5 or _INT32.unpack_from(self.data, scope)[0] != room:
            raise self.fail("invalid_length", f"code with scope length {total} disagrees with its "
                            "code and scope lengths", element)
        if self.data[scope + room - 1] != 0:
            raise self.fail("missing_terminator", "scope document does not end with a NUL byte",
                            element)
        if depth >= self.max_depth:
            raise self.fail("too_deep", f"nesting exceeds the depth limit of {self.max_depth}",
                            element)
        variables = self.elements(scope + 4, scope + room - 1, depth + 1, Document(), False)
        return CodeWithScope(code, variables), pos + total

    def read_int32(self, pos, end, depth, element):
        stop = self.fixed("int32", pos, end, element)
        return _INT32.unpack_from(self.data, pos)[0], stop

    def read_timestamp(self, pos, end, depth, element):
        stop = self.fixed("timestamp", pos, end, element)
        increment, time = _UINT32_PAIR.unpack_from(self.data, pos)
        return Timestamp(time, increment), stop

    def read_int64(self, pos, end, depth, element):
        stop = self.fixed("int64", pos, end, element)
        return Int64(_INT64.unpack_from(self.data, pos)[0]), stop

    def read_decimal128(self, pos, end, depth, element):
        stop = self.fixed("decimal128", pos, end, element)
        return Decimal128(bytes(self.data[pos:stop])), stop


# Every type byte of the catalogue and its reader (a type the catalogue gains without a reader
# here stops the import, naming the method to write).
_READERS = {t.byte: getattr(_Decoder, f"read_{t.name}") for t in catalog.BSON_TYPES.values()}


def decode_document(data: bytes, base: int = 0, max_depth: int = MAX_DEPTH) -> Document:
    """The document that is all of `data` (its declared length, terminator and elements
    checked); raises BsonError, with offsets counted from `base`."""
    size = len(data)
    if size < 5:
        raise BsonError("truncated", f"input has {size} bytes, a document needs at least 5",
                        base)
    length = _INT32.unpack_from(data, 0)[0]
    if length < 5:
        raise BsonError("invalid_length", f"document length {length} is below the minimum of 5",
                        base)
    if length > size:
        raise BsonError("truncated", f"document declares {length} bytes but the input has "
                        f"{size}", base + size)
    if length < size:
        raise BsonError("trailing_bytes", f"{size - length} bytes follow the document's "
                        "declared end", base + length)
    if data[length - 1] != 0:
        raise BsonError("missing_terminator", "document does not end with a NUL byte",
                        base + length - 1)
    if max_depth < 1:
        raise BsonError("too_deep", f"nesting exceeds the depth limit of {max_depth}", base)
    return _Decoder(data, base, max_depth).elements(4, length - 1, 1, Document(), False)


class StreamError(Exception):
    """A document of a stream that cannot be read: `index` documents came before it, which
    starts at byte `start`; `error` says what is wrong (offsets from the stream's start)."""

    def __init__(self, index: int, start: int, error: BsonError):
        super().__init__(str(error))
        self.index = index
        self.start = start
        self.error = error

    def __str__(self) -> str:
        e = self.error
        where = f" at {'.'.join(e.path)}" if e.path else ""
        return (f"{e.code}{where} (byte {e.offset}): document {self.index} (at byte "
                f"{self.start}): {e.message}")


def read_stream(stream: BinaryIO, max_size: int = MAX_SIZE,
                max_depth: int = MAX_DEPTH) -> Iterator[Document]:
    """Yields each document of a stream of concatenated documents (a mongodump .bson file) as
    it is read, holding one document's bytes at a time. Raises StreamError at the first document
    that is truncated, too large or invalid; the documents before it have been yielded."""
    index = 0
    start = 0
    while True:
        prefix = stream.read(4)
        if not prefix:
            return
        if len(prefix) < 4:
            raise StreamError(index, start, BsonError(
                "truncated", f"stream ends inside the length of the document: {len(prefix)} of "
                "4 bytes", start + len(prefix)))
        length = _INT32.unpack(prefix)[0]
        if length < 5:
            raise StreamError(index, start, BsonError(
                "invalid_length", f"the document declares {length} bytes, below the minimum of 5",
                start))
        if length > max_size:
            raise StreamError(index, start, BsonError(
                "too_large", f"the document declares {length} bytes, beyond the limit of "
                f"{max_size}", start))
        body = stream.read(length - 4)
        if len(body) < length - 4:
            have = 4 + len(body)
            raise StreamError(index, start, BsonError(
                "truncated", f"stream ends inside the document: {have} of its {length} bytes",
                start + have))
        try:
            document = decode_document(prefix + body, start, max_depth)
        except BsonError as e:
            raise StreamError(index, start, e) from None
        yield document
        start += length
        index += 1
