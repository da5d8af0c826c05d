"""`bsongen infer`: documents in, a schema out.

Three stages, like the generator's parse -> link -> render:

1. read: BSON inputs are read by bson_reader, which checks them as the generic decoder does and
   types every value by its type byte (never by what its Extended JSON looks like: a
   sub-document `{"$oid": "zz"}` is a sub-document). Extended JSON inputs are converted to BSON by
   `bsongen-dump --from-json` and read the same way. Key order and repeated keys are kept.
2. collect: each document updates bounded statistics, one node per place in the documents (a
   field, the elements of an array); no document is kept. Per place: counts per BSON type,
   absent and null counts, the key orders seen (capped), distinct short strings (capped),
   whether int64 values stay within 2^53. A sub-document with more distinct keys than
   `max_fields` becomes a map node (one value node for all its keys).
3. build: statistics -> the generator's model classes (Struct, Field, TypeRef, Enum), which
   schema_yaml renders with what was seen as comments.

Type rules (docs/schema-format.md, "Inferring a schema"): one BSON type -> its kind; int32 with
int64 -> number<int64>; double with int32/int64 -> number<double> when every int64 is within
2^53, else any; other mixes -> any. Per field: required when every document has it non-null,
T? when sometimes absent, nullable<T> when sometimes null, optional<nullable<T>> for both.
"""

from __future__ import annotations

import heapq
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import BinaryIO, Iterator, Optional, TextIO

from .. import catalog, names, queries
from ..model import Enum, EnumValue, Field, Model, Struct, TypeRef
from . import bson_reader, schema_yaml, schemas, wire

DOUBLE_EXACT_LIMIT = catalog.DOUBLE_EXACT_LIMIT  # integers up to this magnitude are exact doubles


class InputError(Exception):
    """A document that cannot be read; str() names the file, the index and the byte offset."""


@dataclass
class Limits:
    """The bounds that keep memory independent of the number of documents."""
    max_fields: int = 512        # distinct keys of one sub-document before it is a map
    max_orders: int = 256        # distinct key orders counted per sub-document
    max_strings: int = 64        # distinct string values remembered per place
    max_string_length: int = 64  # longer strings are not remembered (never enum values)


@dataclass
class Options:
    name: str = ""               # the top-level struct; default: the first input's stem
    namespace: str = ""
    enums: bool = False          # string fields with few distinct, repeating values become enums
    enum_max_values: int = 16
    enum_min_count: int = 2      # times each value must be seen
    enum_values_per_name: int = 3  # values seen per distinct one, at least (on average)
    limits: Limits = field(default_factory=Limits)


# --- 1. Reading: BSON, typed by its type bytes. ---

# The BSON type (its $jsonSchema alias) of each value class bson_reader gives.
_TAG_OF_CLASS = {cls: wire.BSON_ALIASES[byte] for cls, byte in bson_reader.TYPE_BYTE_OF.items()}


def bson_tag(value) -> str:
    """The BSON type (its $jsonSchema alias) of one value bson_reader read."""
    return _TAG_OF_CLASS[type(value)]


def input_format(path: str, forced: str) -> str:
    """"bson" or "json": `forced` unless "auto"; else by extension; else by the first byte
    (JSON starts with `{` or `[`, a BSON document with its little-endian length)."""
    if forced != "auto":
        return forced
    ext = os.path.splitext(path)[1].lower()
    if ext == ".bson" or path == "-":
        return "bson"
    if ext in (".json", ".jsonl", ".ndjson"):
        return "json"
    try:
        with open(path, "rb") as f:
            head = f.read(64).lstrip(b" \t\r\n")
    except OSError:
        return "bson"  # reading it reports the missing file
    return "json" if head[:1] in (b"{", b"[") else "bson"


def _bson_documents(stream: BinaryIO, display: str) -> Iterator[bson_reader.Document]:
    try:
        yield from bson_reader.read_stream(stream)
    except bson_reader.StreamError as e:
        raise InputError(f"{display}: {e} ({e.index} document(s) read before it)")


def read_documents(path: str, fmt: str, dump_tool: Optional[str]) \
        -> Iterator[bson_reader.Document]:
    """Yields each document of `path`. Raises InputError naming the file, the document's index
    and the byte offset of what is wrong in a corrupt document.

    BSON is read here, by bson_reader. Extended JSON is converted to BSON by `bsongen-dump
    --from-json` (the project's parser: a JSON number gets the BSON type its conversion gives it)
    and that BSON read the same way, so the type of every value comes from a type byte."""
    display = "standard input" if path == "-" else path
    if fmt == "bson":
        if path == "-":
            yield from _bson_documents(sys.stdin.buffer, display)
            return
        try:
            stream = open(path, "rb")
        except OSError as e:
            raise InputError(f"cannot open {display}: {e.strerror}")
        with stream:
            yield from _bson_documents(stream, display)
        return
    if dump_tool is None:
        raise InputError(f"{display}: reading Extended JSON needs bsongen-dump")
    # stderr to a file, not a pipe: a pipe nobody reads could fill and stall the tool.
    with tempfile.TemporaryFile() as errors:
        try:
            proc = subprocess.Popen([dump_tool, "--from-json", path], stdout=subprocess.PIPE,
                                    stderr=errors,
                                    stdin=None if path == "-" else subprocess.DEVNULL)
        except OSError as e:
            raise InputError(f"cannot run {dump_tool}: {e.strerror}")
        index = 0
        try:
            for document in bson_reader.read_stream(proc.stdout):
                yield document
                index += 1
        except bson_reader.StreamError as e:  # the tool writes only valid BSON; say so if not
            raise InputError(f"{display}: document {index}: {dump_tool} wrote BSON that does "
                             f"not read back ({e})")
        finally:
            proc.stdout.close()
            status = proc.wait()
        if status != 0:
            errors.seek(0)
            text = errors.read().decode("utf-8", "replace").strip()
            lines = [ln.removeprefix("bsongen-dump: ") for ln in text.splitlines()
                     if not ln.endswith("before the error")]
            detail = "; ".join(lines) or f"{dump_tool} exited with status {status}"
            raise InputError(f"{detail} ({index} document(s) read before it)")


# --- 2. Collecting bounded statistics. ---

# Strings shaped like data rather than a closed set of labels never become enums, however few
# distinct values a small dump holds (issue 34 item 3): the shape and how --report names it.
_DATA_SHAPES = (
    ("ObjectId hex strings", re.compile(r"[0-9a-fA-F]{24}")),
    ("UUIDs", re.compile(r"[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?"
                         r"[0-9a-fA-F]{12}")),
    ("URLs", re.compile(r"(?:[A-Za-z][A-Za-z0-9+.-]*://|www\.)\S+")),
    ("email addresses", re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")),
    ("dates or timestamps", re.compile(
        r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?"
        r"|\d{4}/\d{2}/\d{2}|\d{1,2}/\d{1,2}/\d{4}|\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?")),
)


def data_shape(values) -> str:
    """How --report names the data shape most of `values` (strings) have; "" when none has one."""
    counts: dict[str, int] = {}
    for value in values:
        for what, pattern in _DATA_SHAPES:
            if pattern.fullmatch(value):
                counts[what] = counts.get(what, 0) + 1
                break
    return max(counts, key=counts.__getitem__) if counts else ""


def _too_many(strings, limits: Limits, why: str = "") -> str:
    shape = data_shape(strings)
    if shape:
        return f"values look like {shape}"
    return why or f"more than {limits.max_strings} distinct values"


class ValueStats:
    """Every value seen at one place: a field's values, or the elements of arrays there."""

    __slots__ = ("counts", "document", "elements", "strings", "strings_lost", "long_beyond_double",
                 "binary_uuid_only", "vectors", "min_length", "max_length")

    def __init__(self):
        self.counts: dict[str, int] = {}          # BSON type alias -> values seen (null too)
        self.document: Optional[DocumentStats] = None   # the sub-documents
        self.elements: Optional[ValueStats] = None      # the elements of the arrays
        self.strings: Optional[dict[str, int]] = {}     # distinct strings; None past the cap
        self.strings_lost = ""                    # why `strings` is None (what --report says)
        self.long_beyond_double = False           # an int64 of magnitude above 2^53
        self.binary_uuid_only = True              # every binary is subtype 4 of 16 bytes
        # Every binary a valid binary vector of one dtype: (dtype, fewest and most elements);
        # False once one is not (wire.vector_value).
        self.vectors: Optional[tuple[str, int, int]] | bool = None
        self.min_length: Optional[int] = None     # array lengths
        self.max_length = 0

    def add(self, value, limits: Limits) -> None:
        tag = bson_tag(value)
        self.counts[tag] = self.counts.get(tag, 0) + 1
        if tag == "object":
            if self.document is None:
                self.document = DocumentStats()
            self.document.add(value, limits)
        elif tag == "array":
            if self.elements is None:
                self.elements = ValueStats()
            n = len(value)
            self.min_length = n if self.min_length is None else min(self.min_length, n)
            self.max_length = max(self.max_length, n)
            for element in value:
                self.elements.add(element, limits)
        elif tag == "string":
            strings = self.strings
            if strings is not None:
                if value in strings:
                    strings[value] += 1
                elif len(strings) < limits.max_strings and \
                        len(value) <= limits.max_string_length and "\0" not in value:
                    strings[value] = 1
                else:
                    self._forget_strings(value, limits)
        elif tag == "long":
            if abs(value) > DOUBLE_EXACT_LIMIT:
                self.long_beyond_double = True
        elif tag == "binData":
            if self.binary_uuid_only:
                self.binary_uuid_only = value.subtype == catalog.UUID_SUBTYPE and \
                    len(value.data) == catalog.UUID_BYTES
            if self.vectors is not False:
                vector = wire.vector_value(value.subtype, value.data)
                self.vectors = False if vector is None else \
                    _merge_vectors(self.vectors, (vector[0], vector[1], vector[1]))

    def merge(self, other: "ValueStats", limits: Limits) -> None:
        for tag, n in other.counts.items():
            self.counts[tag] = self.counts.get(tag, 0) + n
        if other.document is not None:
            if self.document is None:
                self.document = DocumentStats()
            self.document.merge(other.document, limits)
        if other.elements is not None:
            if self.elements is None:
                self.elements = ValueStats()
            self.elements.merge(other.elements, limits)
        if self.strings is not None and other.strings is not None:
            for s, n in other.strings.items():
                self.strings[s] = self.strings.get(s, 0) + n
            if len(self.strings) > limits.max_strings:
                self.strings_lost = _too_many(self.strings, limits)
                self.strings = None
        elif self.strings is not None and other.counts.get("string"):
            self.strings, self.strings_lost = None, other.strings_lost
        self.long_beyond_double |= other.long_beyond_double
        self.binary_uuid_only &= other.binary_uuid_only
        if other.vectors is False or self.vectors is False:
            self.vectors = False
        elif other.vectors is not None:
            self.vectors = _merge_vectors(self.vectors, other.vectors)
        if other.min_length is not None:
            self.min_length = other.min_length if self.min_length is None \
                else min(self.min_length, other.min_length)
        self.max_length = max(self.max_length, other.max_length)

    def _forget_strings(self, value: str, limits: Limits) -> None:
        """Past the cap: the strings are no longer kept; say why, naming their shape (looked at
        once, over the ones kept and this one) when they have one."""
        if len(value) > limits.max_string_length:
            why = f"a value is longer than {limits.max_string_length} characters"
        elif "\0" in value:
            why = "a value holds NUL"
        else:
            why = ""
        self.strings_lost = _too_many([*self.strings, value], limits, why)
        self.strings = None

    def non_null(self) -> dict[str, int]:
        return {t: n for t, n in self.counts.items() if t != "null" and n}


def _merge_vectors(seen, more: tuple[str, int, int]):
    """The vectors of `seen` ((dtype, fewest, most) or None) and `more`; False when the dtypes
    differ (no one binary_vector type reads both)."""
    if seen is None:
        return more
    if seen[0] != more[0]:
        return False
    return seen[0], min(seen[1], more[1]), max(seen[2], more[2])


class FieldStats:
    __slots__ = ("present", "values", "anchor", "last_document")

    def __init__(self, anchor: Optional[str]):
        self.present = 0                  # documents holding the key (null values included)
        self.values = ValueStats()
        self.anchor = anchor              # the key before it when first seen (for ordering)
        self.last_document = 0            # the last document counted in `present`


class DocumentStats:
    """Every document seen at one place: the top level, a field's sub-documents, the documents
    in arrays there."""

    def __init__(self):
        self.documents = 0
        self.fields: dict[str, FieldStats] = {}   # by key, in first-seen order
        self.orders: dict[tuple, int] = {}        # key sequence -> documents with it (capped)
        self.orders_not_counted = 0               # documents whose order was past the cap
        self.documents_with_repeated_keys = 0
        self.keys_ascending = True                # every document's keys in strictly ascending order
        self.map_values: Optional[ValueStats] = None  # set once this place counts as a map
        self.map_keys_seen = 0                    # distinct keys when it became a map

    def add(self, pairs: bson_reader.Document, limits: Limits) -> None:
        self.documents += 1
        document = self.documents
        keys = []
        previous = None
        repeated = False
        for key, value in pairs:
            keys.append(key)
            if self.map_values is not None:
                self.map_values.add(value, limits)
                continue
            stats = self.fields.get(key)
            if stats is None:
                if len(self.fields) >= limits.max_fields:
                    self._become_map(limits)
                    self.map_values.add(value, limits)
                    continue
                stats = self.fields[key] = FieldStats(previous)
            if stats.last_document == document:
                repeated = True
            else:
                stats.present += 1
                stats.last_document = document
            stats.values.add(value, limits)
            previous = key
        if repeated:
            self.documents_with_repeated_keys += 1
        if self.keys_ascending and any(a >= b for a, b in zip(keys, keys[1:])):
            self.keys_ascending = False
        if self.map_values is None:
            order = tuple(keys)
            if order in self.orders:
                self.orders[order] += 1
            elif len(self.orders) < limits.max_orders:
                self.orders[order] = 1
            else:
                self.orders_not_counted += 1

    def _become_map(self, limits: Limits) -> None:
        self.map_keys_seen = len(self.fields)
        self.map_values = ValueStats()
        for stats in self.fields.values():
            self.map_values.merge(stats.values, limits)
        self.fields = {}
        self.orders = {}

    def merge(self, other: "DocumentStats", limits: Limits) -> None:
        self.documents += other.documents
        self.documents_with_repeated_keys += other.documents_with_repeated_keys
        self.keys_ascending &= other.keys_ascending
        self.orders_not_counted += other.orders_not_counted
        if other.map_values is not None and self.map_values is None:
            self._become_map(limits)
        if self.map_values is not None:
            self.map_keys_seen = max(self.map_keys_seen, other.map_keys_seen)
            sources = [other.map_values] if other.map_values is not None else \
                [s.values for s in other.fields.values()]
            for values in sources:
                self.map_values.merge(values, limits)
            return
        new_keys = sum(1 for key in other.fields if key not in self.fields)
        if len(self.fields) + new_keys > limits.max_fields:
            self._become_map(limits)
            for stats in other.fields.values():
                self.map_values.merge(stats.values, limits)
            return
        for key, stats in other.fields.items():
            mine = self.fields.get(key)
            if mine is None:
                mine = self.fields[key] = FieldStats(stats.anchor)
            mine.present += stats.present
            mine.values.merge(stats.values, limits)
        for order, n in other.orders.items():
            if order in self.orders or len(self.orders) < limits.max_orders:
                self.orders[order] = self.orders.get(order, 0) + n
            else:
                self.orders_not_counted += n

    def field_order(self) -> list[str]:
        """The keys in the order seen most often.

        Each counted key sequence adds its adjacent pairs (a before b) as edges weighted by the
        documents that had it, and the keys are sorted topologically. Among keys free to come
        next, the one ranking first wins: by its position in the most frequent sequence holding
        it (keys only in uncounted documents: first seen, after the key they followed). Where
        documents disagree (a cycle), the key the fewest documents put later comes first.
        Documents written by one program with some fields left out give back that program's
        order exactly."""
        sequences = sorted(self.orders.items(), key=lambda item: -item[1])  # stable: ties by first seen
        rank: dict[str, tuple] = {}
        for number, (sequence, _) in enumerate(sequences):
            for position, key in enumerate(sequence):
                rank.setdefault(key, (number, position))
        successors: dict[str, dict[str, int]] = {key: {} for key in self.fields}
        incoming = dict.fromkeys(self.fields, 0)

        def edge(a: str, b: str, weight: int) -> None:
            if a != b and a in successors and b in successors:
                successors[a][b] = successors[a].get(b, 0) + weight
                incoming[b] += weight

        for sequence, count in sequences:
            for a, b in zip(sequence, sequence[1:]):
                edge(a, b, count)
        for index, (key, stats) in enumerate(self.fields.items()):
            if key not in rank:
                rank[key] = (len(sequences), index)
                if stats.anchor is not None:
                    edge(stats.anchor, key, 1)
        # Kahn's algorithm with two heaps, so each key costs log n rather than a scan of the
        # keys left (quadratic: issue 35 item 10). `free`: keys nothing left must precede, by
        # rank. `stuck`: every key left by (incoming weight, rank), for a cycle; entries whose
        # weight has since dropped are stale and skipped (weights only drop).
        free = [(rank[key], key) for key in self.fields if incoming[key] == 0]
        stuck = [(incoming[key], rank[key], key) for key in self.fields if incoming[key]]
        heapq.heapify(free)
        heapq.heapify(stuck)
        placed: set[str] = set()
        order: list[str] = []
        while len(order) < len(self.fields):
            if free:
                _, pick = heapq.heappop(free)
            else:
                while True:
                    weight, _, pick = heapq.heappop(stuck)
                    if pick not in placed and weight == incoming[pick]:
                        break
            placed.add(pick)
            order.append(pick)
            for successor, weight in successors[pick].items():
                if successor not in placed:
                    incoming[successor] -= weight
                    if incoming[successor] == 0:
                        heapq.heappush(free, (rank[successor], successor))
                    else:
                        heapq.heappush(stuck, (incoming[successor], rank[successor], successor))
        return order

    def documents_in_other_orders(self, order: list[str]) -> int:
        """Counted documents whose keys do not follow `order` (they re-encode reordered)."""
        position = {key: i for i, key in enumerate(order)}
        other = 0
        for sequence, count in self.orders.items():
            places = [position[key] for key in sequence if key in position]
            if any(a >= b for a, b in zip(places, places[1:])):
                other += count
        return other


class Collector:
    """Statistics of one collection, fed one document at a time."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.root = DocumentStats()
        self.files: list[tuple[str, int]] = []   # (path, documents)

    def add(self, document: bson_reader.Document) -> None:
        self.root.add(document, self.limits)


class Progress:
    """A count of documents read, on stderr: one line rewritten in place on a terminal (cleared
    at the end); on anything else (with --progress) a line every few seconds and one per file
    read, so a log shows where a long run is."""

    def __init__(self, stream: TextIO, enabled: bool, clock=time.monotonic):
        self.stream = stream
        self.enabled = enabled
        self.tty = enabled and stream.isatty()
        self.clock = clock
        self.started = clock()
        self.shown = self.started
        self.interval = 0.5 if self.tty else 5.0
        self.width = 0

    def _line(self, path: str, documents: int, total: int) -> str:
        rate = total / max(self.clock() - self.started, 1e-9)
        return (f"bsongen infer: {path}: {documents:,} documents ({total:,} in all, "
                f"{rate:,.0f}/s)")

    def update(self, path: str, documents: int, total: int) -> None:
        if not self.enabled or self.clock() - self.shown < self.interval:
            return
        self.shown = self.clock()
        self._show(self._line(path, documents, total))

    def file_done(self, path: str, documents: int, total: int) -> None:
        if self.enabled and not self.tty:
            self._show(self._line(path, documents, total))

    def _show(self, text: str) -> None:
        if self.tty:
            self.stream.write("\r" + text.ljust(self.width))
            self.width = len(text)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def done(self) -> None:
        if self.tty and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()


def collect(inputs: list[tuple[str, str]], dump_tool: Optional[str], limits: Limits,
            progress: Progress) -> Collector:
    """Reads every (path, format) input into one Collector."""
    collector = Collector(limits)
    total = 0
    for path, fmt in inputs:
        documents = 0
        for document in read_documents(path, fmt, dump_tool):
            collector.add(document)
            documents += 1
            total += 1
            if documents & 1023 == 0:
                progress.update(path, documents, total)
        progress.file_done(path, documents, total)
        collector.files.append((path, documents))
    progress.done()
    return collector


# --- 3. Building the model. ---

# A single BSON type -> the kind that reads and writes it exactly (catalog.default_kind; documents,
# arrays and binaries are typed by what they hold before this is asked).
_KIND_OF_TAG = {t.json_schema: kind for t in catalog.BSON_TYPES.values()
                if (kind := catalog.default_kind(t.name)) is not None}


def identifier(text: str, fallback: str) -> str:
    """`text` itself when it is a usable C++ identifier, else a sanitized one: other characters
    become `_`, runs of `_` collapse (`__` is reserved), a leading digit gets `_`, a keyword
    gets a trailing `_`, and so does a macro of the C library (`NULL`, `errno`, `linux`)."""
    if not names.identifier_problem(text):
        return text
    out = "".join(c if c.isascii() and (c.isalnum() or c == "_") else "_" for c in text)
    while "__" in out:
        out = out.replace("__", "_")
    out = out.strip("_") or fallback
    if out[0].isdigit():
        out = "_" + out
    if out in names.CPP_KEYWORDS or out in names.C_LIBRARY_MACROS:
        out += "_"
    return out


class _Names:
    """The names taken in one scope (the schema's structs and enums, one struct's members, one
    enum's enumerators), chosen by the generator's own rules (names.py): a name is usable when
    `identifier_problem` and, for a definition, `definition_problem` find nothing and the scope
    does not hold it yet."""

    def __init__(self, namespace: Optional[str] = None, reserved=()):
        self.namespace = namespace      # a definition scope when not None
        self.taken: set[str] = set(reserved)
        self.aliases: set[str] = set()          # definition scopes: field paths aliases (queries)
        self.next_suffix: dict[str, int] = {}   # stem -> the first `_<n>` not yet tried

    def rule_problem(self, name: str) -> str:
        """Why the generator refuses `name` here, whatever the scope holds ("" when it does not)."""
        problem = names.identifier_problem(name)
        if not problem and self.namespace is not None:
            problem = names.definition_problem(self.namespace, name)
        return problem

    def why_not(self, name: str) -> str:
        """Why `name` itself cannot be taken ("" when it can). A definition also may not be the
        field paths alias of another (`user_paths` of `user`), nor have one that another is."""
        why = self.rule_problem(name) or ("is taken" if name in self.taken else "")
        if not why and self.namespace is not None:
            if name in self.aliases:
                why = "is the name of another struct's field paths"
            elif queries.paths_alias(name) in self.taken:
                why = f"would have its field paths named `{queries.paths_alias(name)}`, which is taken"
        return why

    def take(self, name: str) -> tuple[str, str]:
        """(`name`, or when the rules refuse it `name_`, or when that is refused or taken too the
        first free `<stem>_<n>` from n = 2, the stem without trailing `_` so never a `__`;
        why `name` itself was not taken, "" when it was)."""
        why = self.why_not(name)
        if not why:
            self.add(name)
            return name, ""
        if name not in self.taken and not self.why_not(name + "_"):  # like class_: log_, std_
            self.add(name + "_")
            return name + "_", why
        stem = name.rstrip("_")
        n = self.next_suffix.get(stem, 2)
        while self.why_not(candidate := f"{stem}_{n}" if stem else f"_{n}"):
            n += 1
        self.next_suffix[stem] = n + 1
        self.add(candidate)
        return candidate, why

    def add(self, name: str) -> None:
        self.taken.add(name)
        if self.namespace is not None:
            self.aliases.add(queries.paths_alias(name))

    def release(self, name: str) -> None:
        self.taken.discard(name)
        self.aliases.discard(queries.paths_alias(name))


def _renamed(path: str, what: str, text: str, base: str, name: str, why: str) -> Optional[str]:
    """The --report line saying that `text` (a key, a string value, a name) is spelled `name`:
    `base` is identifier(text), `why` what kept `base` from being taken. None when unchanged."""
    if name == text:
        return None
    reasons = []
    if base != text:
        problem = names.identifier_problem(text) or "is not a usable name"
        reasons.append(f"{_quoted(text)} {problem}")
    if name != base:
        reasons.append(f"`{base}` {why}")
    return f"{path}: {what} `{name}`: " + "; ".join(reasons)


def _quoted(text: str) -> str:
    """A string value as comments and --report show it: JSON-quoted, so that an empty string,
    spaces and ", " inside it cannot run into the text around it."""
    return json.dumps(text, ensure_ascii=False)


def _values_text(strings: dict[str, int]) -> str:
    """Each string value and its count, most frequent first, as one JSON object: quoted, the
    empty string shows as "" and a value holding ", " cannot run into the separators (the counts
    go without thousands separators for the same reason)."""
    ordered = dict(sorted(strings.items(), key=lambda kv: -kv[1]))
    return json.dumps(ordered, ensure_ascii=False)


def _vector_type(vectors: tuple[str, int, int], count: int) -> tuple[TypeRef, str]:
    """binary_vector<dtype> for binary vectors of one dtype; <dtype, N> when all `count` have
    dimension N and the dtype has a fixed form."""
    dtype, fewest, most = vectors
    fixed = catalog.VECTOR_DTYPES[dtype].element_width is not None and fewest == most and \
        0 < most <= catalog.MAX_VECTOR_DIMENSION
    if fixed:
        return TypeRef(catalog.VECTOR_KIND, dtype=dtype, size=most), \
            f"binary vector ({dtype}), dimension {most} in all {count:,}"
    unit = " bits" if catalog.VECTOR_DTYPES[dtype].element_width is None else ""
    span = f"{fewest}" if fewest == most else f"{fewest}..{most}"
    return TypeRef(catalog.VECTOR_KIND, dtype=dtype), \
        f"binary vector ({dtype}), dimension {span}{unit} in {count:,}"


def _counts_text(counts: dict[str, int]) -> str:
    return ", ".join(f"{tag} {n:,}" for tag, n in sorted(counts.items(), key=lambda kv: -kv[1]))


@dataclass
class ReportRow:
    path: str          # users.items[].qty
    type: str          # the type expression, `(required)` appended when required
    seen: str          # what the documents held there


@dataclass
class Inferred:
    model: Model
    notes: schema_yaml.Notes
    rows: list[ReportRow]
    documents: int
    warnings: list[str]
    renames: list[str] = field(default_factory=list)  # each name infer chose apart from its text
    strings_kept: list[str] = field(default_factory=list)  # --enums: strings left strings, why


class _Builder:
    def __init__(self, options: Options):
        self.options = options
        self.structs: dict[str, Struct] = {}
        self.enums: list[Enum] = []
        self.definitions = _Names(namespace=options.namespace)  # struct and enum names
        self.renames: list[str] = []
        self.strings_kept: list[str] = []  # under --enums: each string place left a string, why
        self.shapes: dict[tuple, str] = {}        # a struct's rendered fields -> its name
        self.notes = schema_yaml.Notes()
        self.rows: list[ReportRow] = []
        self.warnings: list[str] = []
        # Arrays and maps around the value being typed, up to the nearest struct: a schema holds
        # at most catalog.MAX_CONTAINER_NESTING of them in one type; deeper values become `any`.
        self.nesting = 0

    def reserve(self, hint: str, path: str, what: str, renames: list[str]) -> str:
        """A struct or enum name from `hint`; a line in `renames` when it is not `hint`."""
        # A hint from a member like `class_` ends in `_`; the type name needs no such suffix.
        text = hint.rstrip("_") or hint
        base = identifier(text, "document")
        name, why = self.definitions.take(base)
        line = _renamed(path, what, text, base, name, why)
        if line:
            renames.append(line)
        return name

    # Type of the non-null values at one place; None when there are none.
    def value_type(self, values: ValueStats, hint: str, path: str) -> tuple[Optional[TypeRef], str]:
        types = values.non_null()
        if not types:
            return None, ""
        if len(types) == 1:
            (tag,) = types
            if tag == "object":
                return self.document_type(values.document, hint, path)
            if tag == "array":
                return self.array_type(values, hint, path)
            if tag == "binData":
                if values.binary_uuid_only:
                    return TypeRef("uuid"), ""
                if values.vectors:
                    return _vector_type(values.vectors, values.counts[tag])
                return TypeRef("binary"), ""
            if tag == "string" and self.options.enums:
                why_not = self.why_no_enum(values)
                if not why_not:
                    return self.enum_for(values, hint, path), \
                        f"enum of {len(values.strings)} value(s)"
                self.strings_kept.append(f"{path}: left a string: {why_not}")
            if tag in _KIND_OF_TAG:
                return TypeRef(_KIND_OF_TAG[tag]), ""
            return TypeRef("any"), f"{tag} is a deprecated type only `any` holds"
        if set(types) <= {"int", "long", "double"}:
            if "double" not in types:
                return TypeRef(wire.NUMBER, element=TypeRef("int64")), \
                    "int32 and int64 mixed: number<int64> writes each back as it was"
            if not values.long_beyond_double:
                return TypeRef(wire.NUMBER, element=TypeRef("double")), \
                    "numbers mixed: number<double> writes each back as it was"
            return TypeRef("any"), ("double mixed with int64 values beyond 2^53, which a "
                                    "double does not hold exactly")
        return TypeRef("any"), "types vary"

    def too_deep(self) -> Optional[tuple[TypeRef, str]]:
        """`any` and why, where one more array or map would nest too many in one type."""
        if self.nesting < catalog.MAX_CONTAINER_NESTING:
            return None
        return TypeRef("any"), (f"below {catalog.MAX_CONTAINER_NESTING} nested arrays and maps: "
                                "`any` (a schema type nests at most that many)")

    def nested_element_type(self, values: ValueStats, hint: str, path: str) \
            -> tuple[TypeRef, str]:
        """element_type one array or map deeper."""
        self.nesting += 1
        try:
            return self.element_type(values, hint, path)
        finally:
            self.nesting -= 1

    def document_type(self, document: DocumentStats, hint: str, path: str) \
            -> tuple[TypeRef, str]:
        if document.map_values is not None:
            deep = self.too_deep()
            if deep:
                return deep
            element, note = self.nested_element_type(document.map_values, hint, path + ".*")
            if document.keys_ascending:
                return TypeRef("map", element=element), (
                    f"{document.map_keys_seen}+ distinct keys: a map (keys always ascending, "
                    f"as std::map writes them)")
            return TypeRef("any"), (f"{document.map_keys_seen}+ distinct keys in varying "
                                    "order: `any` keeps the order (map<string, T> would sort "
                                    "the keys)")
        if not document.fields:
            return TypeRef("raw_document"), "always an empty document"
        outer, self.nesting = self.nesting, 0  # a struct's fields nest from zero
        try:
            return TypeRef("struct", name=self.struct(document, hint, path)), ""
        finally:
            self.nesting = outer

    def array_type(self, values: ValueStats, hint: str, path: str) -> tuple[TypeRef, str]:
        deep = self.too_deep()
        if deep:
            return deep
        lengths = f"{values.min_length}..{values.max_length} elements"
        if values.elements is None or not values.elements.counts:
            return TypeRef("vector", element=TypeRef("any")), "always empty: element type unknown"
        element, note = self.nested_element_type(values.elements, hint, path + "[]")
        return TypeRef("vector", element=element), "; ".join(x for x in (lengths, note) if x)

    def element_type(self, values: ValueStats, hint: str, path: str) -> tuple[TypeRef, str]:
        """Array elements and map values: no absence, and null only through `null` or `any`."""
        row = len(self.rows)
        element, note = self.value_type(values, hint, path)
        nulls = values.counts.get("null", 0)
        if element is None:
            element, note = TypeRef("null"), "always null"
        elif nulls and element.kind != "any":
            element, note = TypeRef("any"), "null among other types: any"
        self.rows.insert(row, ReportRow(path, schema_yaml.type_expression(element),
                                        _counts_text(values.counts)
                                        + (f"; {note}" if note else "")))
        return element, note

    def why_no_enum(self, values: ValueStats) -> str:
        """Why the strings at one place stay a string under --enums; "" when they make an enum.
        An enum is a closed set of labels: few distinct values, each seen repeatedly, none
        shaped like data (ids, URLs, emails, dates), which a small dump would otherwise turn
        into enums of whatever values it happened to hold."""
        strings = values.strings
        if strings is None:
            return values.strings_lost
        shape = data_shape(strings)
        if shape:
            return f"values look like {shape}"
        distinct, seen = len(strings), values.counts["string"]
        o = self.options
        if distinct > o.enum_max_values:
            return f"{distinct} distinct values, more than --enum-max-values ({o.enum_max_values})"
        rare = sorted(text for text, n in strings.items() if n < o.enum_min_count)
        if rare:
            times = "only once" if o.enum_min_count == 2 else f"fewer than {o.enum_min_count} times"
            return f"{len(rare)} of {distinct} distinct values seen {times} (such as " \
                f"{_quoted(rare[0])})"
        if distinct * o.enum_values_per_name > seen:
            return (f"{distinct} distinct values in {seen:,}: an enum needs at least "
                    f"{o.enum_values_per_name} values seen per distinct one")
        return ""

    def enum_for(self, values: ValueStats, hint: str, path: str) -> TypeRef:
        strings = values.strings
        name = self.reserve(hint, path, "enum", self.renames)
        enumerators: list[EnumValue] = []
        used = _Names()
        # In stored-string order: the same values give the same enum whatever order they came in.
        for number, text in enumerate(sorted(strings)):
            base = identifier(text, "empty")
            member, why = used.take(base)
            line = _renamed(f"{path}: {_quoted(text)}", "enumerator", text, base, member, why)
            if line:
                self.renames.append(line)
            enumerators.append(EnumValue(member, number, text))
        self.enums.append(Enum(name=name, storage="string", values=enumerators))
        self.notes.enums[name] = [f"{path}: " + _values_text(strings)]
        return TypeRef("enum", name=name)

    def struct(self, document: DocumentStats, hint: str, path: str) -> str:
        renames: list[str] = []  # kept with the struct: a shape met again adds none
        name = self.reserve(hint, path, "struct", renames)
        fields: list[Field] = []
        # Not the struct's own name: C++ forbids some members named like their class.
        members = _Names(reserved={name})
        notes: dict[str, list[str]] = {}
        order = document.field_order()
        for key in order:
            if key == "":
                continue  # not a field: captured, below
            stats = document.fields[key]
            base = identifier(key, "field")
            member, why = members.take(base)
            line = _renamed(f"{path}.{key}", "member", key, base, member, why)
            if line:
                renames.append(line)
            f, lines = self.field(name, member, key, stats, document.documents,
                                  f"{path}.{key}")
            fields.append(f)
            notes[member] = lines
        struct_notes = []
        # The empty key is valid BSON but cannot be a schema field: the struct captures unknown
        # elements so that its values survive a round trip (written back after the fields).
        capture_member = None
        if "" in document.fields:
            capture_member, _ = members.take("extra")
            holding = document.fields[""].present
            self.warnings.append(f"{path}: the empty key cannot be a schema field; its values are "
                                 f"kept in the captured member `{capture_member}`")
            struct_notes.append(f"{holding:,} document(s) hold the empty key: unknown_fields: "
                                f"capture keeps it in `{capture_member}`, written back after "
                                "the fields")
            order = [key for key in order if key != ""] + [""]
        if document.documents_with_repeated_keys:
            struct_notes.append(f"{document.documents_with_repeated_keys:,} document(s) repeat a "
                                "key: the last value wins, so they do not re-encode identically")
        reordered = document.documents_in_other_orders(order)
        if reordered:
            struct_notes.append(f"{reordered:,} document(s) have their keys in another order: they "
                                "decode, and re-encode in this order")
        if document.orders_not_counted:
            struct_notes.append(f"key orders of {document.orders_not_counted:,} document(s) not "
                                f"counted (more than {len(document.orders)} distinct orders)")
        shape = (tuple((f.name, f.key, schema_yaml.type_expression(f.type), f.required)
                       for f in fields), capture_member)
        existing = self.shapes.get(shape)
        if existing is not None:
            self.definitions.release(name)
            self.notes.structs.setdefault(existing, []).append(f"also the shape of {path}")
            return existing
        self.shapes[shape] = name
        self.renames.extend(renames)
        self.structs[name] = Struct(name=name, fields=fields, capture_member=capture_member,
                                    unknown_fields="capture" if capture_member else "skip")
        self.notes.structs[name] = [f"{path}: {document.documents:,} document(s)"] + struct_notes
        for member, lines in notes.items():
            self.notes.fields[(name, member)] = lines
        return name

    def field(self, struct_name: str, member: str, key: str, stats: FieldStats, documents: int,
              path: str) -> tuple[Field, list[str]]:
        values = stats.values
        nulls = values.counts.get("null", 0)
        always = stats.present == documents
        row = len(self.rows)
        value_type, note = self.value_type(values, f"{struct_name}_{member}", path)
        if value_type is None:
            if always:
                t, note = TypeRef("null"), "always null"
            else:
                t, note = TypeRef("optional", element=TypeRef("any")), \
                    "null whenever present: optional<any> keeps absent and null apart"
        elif value_type.kind == "any":
            t = value_type if always else TypeRef("optional", element=value_type)
            if nulls and not always:
                note = "; ".join(x for x in (note, "optional<any> keeps absent and null apart")
                                 if x)
        else:
            t = value_type
            if nulls:
                t = TypeRef(wire.NULLABLE, element=t)
            if not always:
                t = TypeRef("optional", element=t)
        required = always and nulls == 0
        where = f"in all {documents:,}" if always else \
            f"in {stats.present:,} of {documents:,} (absent from {documents - stats.present:,})"
        seen = f"{where}: {_counts_text(values.counts)}"
        if values.strings and values.counts.get("string") and len(values.strings) <= 8 \
                and values.counts["string"] >= 2 * len(values.strings):
            seen += f" ({len(values.strings)} distinct)"
        expression = schema_yaml.type_expression(t) + (" (required)" if required else "")
        self.rows.insert(row, ReportRow(path, expression, seen + (f"; {note}" if note else "")))
        lines = [seen] + ([note] if note else [])
        return Field(name=member, key=key, type=t, required=required), lines

    def ordered_structs(self, root: str) -> list[Struct]:
        """The root first, then each struct where it is first referenced (depth first)."""
        out: list[Struct] = []
        seen: set[str] = set()

        def visit(name: str) -> None:
            if name in seen or name not in self.structs:
                return
            seen.add(name)
            s = self.structs[name]
            out.append(s)
            for f in s.fields:
                for t in schemas.walk(f.type):
                    if t.kind == "struct":
                        visit(t.name)

        visit(root)
        return out


def build(collector: Collector, options: Options, sources: str) -> Inferred:
    """The schema for everything `collector` saw. `sources` names the inputs for the header."""
    root_hint = options.name or "document"
    builder = _Builder(options)
    documents = collector.root.documents
    if documents == 0:
        raise InputError("no documents: nothing to infer a schema from")
    if collector.root.map_values is not None:
        raise InputError(f"the documents have more than {options.limits.max_fields} distinct "
                         "top-level keys; raise --max-fields to type them as one struct")
    root = builder.struct(collector.root, root_hint, identifier(root_hint, "document"))
    builder.structs[root].doc = f"Inferred by bsongen infer from {sources}."
    model = Model(origin_kind="schema", origin_path="<inferred>", output_name=root,
                  namespace=options.namespace, defines_types=True,
                  structs=builder.ordered_structs(root), enums=builder.enums)
    builder.notes.header = [
        f"Inferred by `bsongen infer` from {sources}: {documents:,} document(s).",
        "Above each field: how many documents held it and its BSON types (null included),",
        "then why its type was chosen. Review it: rename structs, tighten `any`, add defaults.",
    ]
    return Inferred(model, builder.notes, builder.rows, documents,
                    builder.warnings, builder.renames, builder.strings_kept)


def report_text(inferred: Inferred, files: list[tuple[str, int]]) -> str:
    """The --report table: one row per field and element place."""
    # Per file counts only where there are several files: one file's count is the total.
    lines = [f"bsongen infer: {inferred.documents:,} document(s) from "
             + (", ".join(f"{path} ({n:,})" for path, n in files) if len(files) > 1
                else ", ".join(path for path, _ in files))]
    rows = [ReportRow("path", "type", "seen")] + inferred.rows
    width_path = max(len(r.path) for r in rows)
    width_type = max(len(r.type) for r in rows)
    for r in rows:
        lines.append(f"{r.path.ljust(width_path)}  {r.type.ljust(width_type)}  {r.seen}")
    # Names the generator would refuse, or taken twice, were changed: each change and why.
    lines.extend(f"renamed: {line}" for line in inferred.renames)
    lines.extend(inferred.strings_kept)
    return "\n".join(lines) + "\n"


def infer(inputs: list[str], dump_tool: Optional[str], options: Options, fmt: str = "auto",
          progress: Optional[Progress] = None) -> tuple[Inferred, str, Collector]:
    """Reads `inputs`, builds the schema and renders it; returns (what was inferred, the schema
    text, the statistics). Raises InputError for unreadable input. `dump_tool` (bsongen-dump)
    converts the Extended JSON inputs; BSON inputs do not need it."""
    if not options.name:
        options.name = identifier(os.path.splitext(os.path.basename(inputs[0]))[0]
                                  if inputs[0] != "-" else "document", "document")
    progress = progress or Progress(sys.stderr, False)
    collector = collect([(path, input_format(path, fmt)) for path in inputs], dump_tool,
                        options.limits, progress)
    sources = ", ".join("standard input" if p == "-" else os.path.basename(p) for p in inputs)
    inferred = build(collector, options, sources)
    return inferred, schema_yaml.render(inferred.model, inferred.notes), collector
