"""C++ type spellings (`cpp:` in a schema, what the header scanner records): parsed into a tree and
checked against the type expression they spell, so a spelling that cannot compile or cannot hold
the kind's values is refused at schema time with file:line:col, not by the C++ compiler later.

What each kind accepts is catalogue data (catalog.py: `ScalarKind.cpp_families`,
`ContainerKind.cpp_other_templates`, the integer and clock tables); this module only reads
spellings and matches them. The rules follow the runtime's codecs
(runtime/codec/include/bsongen/detail/value_codecs.hpp):

- a name of the standard library (`std::`), of bsongen (`bsongen::`) or a built-in type
  (`double`, `unsigned short`) must be one the kind's codec converts into exactly (or, for
  `float`, the documented rounding): `std::wstring` for a string, `double` for an int32,
  `std::optional<int>` for an int32 and a `double`-counted clock are refused;
- any other name (`my::id`) is the user's own alias or type, taken on trust: the generator cannot
  see what it names, and the C++ compiler checks it;
- `std::pmr` and `bsongen::pmr` spellings need `allocator: pmr` (elsewhere nothing passes the
  struct's resource to them, so they would allocate from the default resource unseen);
- pointers and references never hold a decoded value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Optional, Union

from . import catalog
from .model import TypeRef


@dataclass(frozen=True)
class Spelling:
    """One C++ type: a (possibly qualified) name and its template arguments, which are spellings
    or integers. Built-in types are names too (`unsigned short`, canonical word order)."""
    name: str
    args: tuple[Union["Spelling", int], ...] = ()
    indirect: bool = False      # a pointer or reference (`const char*`, `T&`)

    def __str__(self) -> str:
        text = self.name
        if self.args:
            text += "<" + ", ".join(str(a) for a in self.args) + ">"
        return text + ("*" if self.indirect else "")

    @property
    def ours(self) -> bool:
        """A name of the standard library, of bsongen, or a built-in type: one whose meaning the
        generator knows (any other name is the user's)."""
        return self.name in _BUILTIN_NAMES or self.name.split("::")[0] in ("std", "bsongen")


_TOKEN = re.compile(r"\s*(::|[A-Za-z_][A-Za-z0-9_]*|\d+[uUlL]*|[<>,*&])")
_BUILTIN_WORDS = {"unsigned", "signed", "short", "long", "int", "char", "double", "float", "bool",
                  "wchar_t", "char8_t", "char16_t", "char32_t", "__int128", "void"}
_BUILTIN_NAMES = {"signed char", "unsigned char", "char", "short", "unsigned short", "int",
                  "unsigned", "long", "unsigned long", "long long", "unsigned long long", "double",
                  "float", "long double", "bool", "wchar_t", "char8_t", "char16_t", "char32_t",
                  "__int128", "unsigned __int128", "void"}


def _builtin_name(words: list[str]) -> str:
    """The canonical spelling of a built-in type written as `words` (`long int` -> `long`,
    `signed` -> `int`, `unsigned int` -> `unsigned`)."""
    signed = "signed" in words
    unsigned = "unsigned" in words
    rest = [w for w in words if w not in ("signed", "unsigned")]
    if "int" in rest and len(rest) > 1:
        rest.remove("int")
    if not rest or rest == ["int"]:
        rest = [] if unsigned else ["int"]
    if rest == ["char"] and signed:
        return "signed char"
    return " ".join((["unsigned"] if unsigned else []) + rest)


class _Parser:
    def __init__(self, text: str):
        self.tokens: list[str] = []
        pos = 0
        text = text.strip()
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None:
                raise ValueError(text[pos:])
            self.tokens.append(m.group(1))
            pos = m.end()
        self.i = 0

    def peek(self) -> Optional[str]:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self, expected: Optional[str] = None) -> str:
        token = self.peek()
        if token is None or (expected is not None and token != expected):
            raise ValueError(token)
        self.i += 1
        return token

    def spelling(self) -> Spelling:
        words = []
        while self.peek() in ("const", "volatile"):
            self.take()
        if self.peek() in _BUILTIN_WORDS:
            while self.peek() in _BUILTIN_WORDS:
                words.append(self.take())
            name, args = _builtin_name(words), ()
        else:
            if self.peek() == "::":
                self.take()
            parts, args = [self.identifier()], ()
            while True:
                if self.peek() == "<":
                    args = self.arguments()
                if self.peek() != "::":
                    break
                self.take()
                if args:  # a member of a specialization (`std::vector<int>::size_type`)
                    parts[-1] += "<" + ", ".join(str(a) for a in args) + ">"
                    args = ()
                parts.append(self.identifier())
            name = "::".join(parts)
        while self.peek() in ("const", "volatile"):
            self.take()
        indirect = False
        while self.peek() in ("*", "&", "const"):
            indirect |= self.take() != "const"
        return Spelling(name, args, indirect)

    def identifier(self) -> str:
        token = self.take()
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", token):
            raise ValueError(token)
        return token

    def arguments(self) -> tuple[Union[Spelling, int], ...]:
        self.take("<")
        args: list[Union[Spelling, int]] = []
        if self.peek() == ">":  # `std::less<>`
            self.take()
            return ()
        while True:
            token = self.peek()
            if token is not None and token[0].isdigit():
                args.append(int(self.take().rstrip("uUlL")))
            else:
                args.append(self.spelling())
            if self.peek() == ">":
                self.take()
                return tuple(args)
            self.take(",")


def parse(text: str) -> Optional[Spelling]:
    """The spelling `text` as a tree, or None when it is not one C++ type name."""
    try:
        p = _Parser(text)
        s = p.spelling()
        return s if p.peek() is None else None
    except ValueError:
        return None


def canonical(text: str) -> str:
    """`text` with one spelling of spaces, built-in names and no leading `::`
    (`::std::chrono::sys_time< T >` -> `std::chrono::sys_time<T>`); unparsable text as it is."""
    s = parse(text)
    return str(s) if s is not None else text


# --- The values a spelling holds (the tables are catalog.py's). ---

def integer_range(s: Spelling) -> Optional[tuple[int, int]]:
    """The values of an integer spelling of catalog.INTEGER_SPELLING_RANGES, else None."""
    return None if s.args or s.indirect else catalog.INTEGER_SPELLING_RANGES.get(s.name)


def integer_range_of(text: Optional[str]) -> Optional[tuple[int, int]]:
    """The values a member spelled `text` holds when that is an integer type of the table, else
    None (not an integer spelling, or None)."""
    s = parse(text) if text is not None else None
    return integer_range(s) if s is not None else None


_RATIOS = {"std::nano": (1, 10**9), "std::micro": (1, 10**6), "std::milli": (1, 1000),
           "std::centi": (1, 100), "std::deci": (1, 10), "std::deca": (10, 1),
           "std::hecto": (100, 1), "std::kilo": (1000, 1)}


def _duration_of(s: Spelling) -> Optional[Spelling]:
    """The duration of a std::chrono::system_clock time point spelling, else None."""
    named = catalog.CLOCK_TIME_POINTS.get(s.name)
    if named is not None and not s.args:
        return Spelling(named)
    if s.name == "std::chrono::sys_time" and len(s.args) == 1:
        duration = s.args[0]
    elif (s.name == "std::chrono::time_point" and len(s.args) == 2
          and s.args[0] == Spelling("std::chrono::system_clock")):
        duration = s.args[1]
    else:
        return None
    return duration if isinstance(duration, Spelling) else None


def clock(s: Spelling) -> Optional[tuple[Fraction, tuple[int, int]]]:
    """A datetime member's clock: (milliseconds per tick, the values its count holds), or None
    when `s` is not a std::chrono::system_clock time point of an integral count. (The period may
    still be one the codec refuses: neither a whole number of milliseconds nor a whole fraction of
    one; `clock_problem` says.)"""
    duration = _duration_of(s)
    if duration is None or duration.indirect:
        return None
    if duration.name in catalog.CLOCK_DURATIONS and not duration.args:
        return Fraction(*catalog.CLOCK_DURATIONS[duration.name]), catalog.INT64_RANGE
    if duration.name != "std::chrono::duration" or not 1 <= len(duration.args) <= 2:
        return None
    rep = duration.args[0]
    rep_range = integer_range(rep) if isinstance(rep, Spelling) else None
    if rep_range is None:
        return None
    period = duration.args[1] if len(duration.args) == 2 else Spelling("std::ratio", (1,))
    if not isinstance(period, Spelling):
        return None
    if period.name in _RATIOS and not period.args:
        num, den = _RATIOS[period.name]
    elif (period.name == "std::ratio" and 1 <= len(period.args) <= 2
          and all(isinstance(a, int) and a > 0 for a in period.args)):
        num, den = period.args[0], period.args[1] if len(period.args) == 2 else 1
    else:
        return None
    return Fraction(num * 1000, den), rep_range


def clock_problem(s: Spelling) -> Optional[str]:
    held = clock(s)
    if held is None:
        return "is not a std::chrono::system_clock time point of an integral count"
    per_tick = held[0]
    if per_tick.denominator != 1 and per_tick.numerator != 1:
        return "counts in a period that is neither a whole number of milliseconds nor a whole " \
               "fraction of one"
    return None


# --- Checking a spelling against the type it spells. ---

def _default_names(kind: catalog.ScalarKind, pmr: bool) -> set[str]:
    names = {canonical(kind.cpp_type)}
    if pmr and kind.pmr_cpp_type:
        names.add(canonical(kind.pmr_cpp_type))
    return names


def _is_pmr(s: Spelling) -> bool:
    return s.name.startswith(("std::pmr::", "bsongen::pmr::"))


_FAMILY_TEXT = {
    "integer": "an integer type (std::int8_t ... std::uint64_t, int, long, unsigned short, ...)",
    "bool": "bool",
    "floating": "float or double",
    "text_view": "std::string_view (a view into the decoded input)",
    "clock": "a std::chrono::system_clock time point of an integral count whose period is a whole "
             "number of milliseconds or a whole fraction of one (std::chrono::sys_seconds, "
             "std::chrono::sys_time<std::chrono::microseconds>, ...)",
    "bytes16": "std::array<std::uint8_t, 16>",
}


def _leaf_kind(t: TypeRef) -> Optional[catalog.ScalarKind]:
    """The catalogue facts of a leaf reference (a scalar kind, or a binary vector whose dtype and
    dimension are valid: the linker reports the others), else None."""
    if t.kind == catalog.VECTOR_KIND:
        dtype = catalog.VECTOR_DTYPES.get(t.dtype or "")
        if dtype is None or (t.size is not None and dtype.fixed_element is None):
            return None
        return catalog.vector_scalar(dtype.dtype, t.size if isinstance(t.size, int) else None)
    return catalog.SCALARS.get(t.kind)


def accepted_text(t: TypeRef, pmr: bool) -> str:
    """What a spelling of `t`'s kind may be, for a diagnostic's hint."""
    kind = _leaf_kind(t)
    if kind is not None:
        forms = [f"`{n}`" for n in sorted(_default_names(kind, pmr))]
        forms += [_FAMILY_TEXT[f] for f in kind.cpp_families]
    elif t.kind in catalog.CONTAINERS:
        c = catalog.CONTAINERS[t.kind]
        templates = [c.cpp_template, *c.cpp_other_templates]
        if pmr:
            templates += [x for x in (c.pmr_cpp_template, *c.pmr_other_templates) if x]
        forms = [f"`{canonical(x)}<...>`" for x in templates]
        if c.cpp_entry_sequences:
            forms += [f"`{canonical(x)}<std::pair<std::string, T>>`"
                      for x in c.cpp_entry_sequences]
    else:
        forms = [f"the {t.kind}'s name"]
    return "accepted: " + ", ".join(forms) + ", or a name of your own (an alias, checked by " \
           "the C++ compiler)"


def problem(t: TypeRef, text: str, pmr: bool) -> Optional[str]:
    """Why `text` cannot spell a member of type `t`, or None when it can. `pmr`: std::pmr
    spellings are allowed (an `allocator: pmr` schema, or scanned headers, whose structs allocate
    as their members say)."""
    s = parse(text)
    if s is None:
        return f"C++ spelling `{text}` is not a type name"
    why = _mismatch(t, s, pmr)
    if why is None:
        return None
    return f"C++ spelling `{text}` {why}"


def _mismatch(t: TypeRef, s: Spelling, pmr: bool) -> Optional[str]:
    if s.indirect:
        return "is a pointer or reference, which cannot hold a decoded value"
    if not s.ours:
        return None
    if _is_pmr(s) and not pmr:
        return "allocates from a std::pmr::memory_resource, which only an `allocator: pmr` " \
               "schema passes to its members (elsewhere it would use the default resource)"
    kind = _leaf_kind(t)
    if kind is not None:
        return _scalar_mismatch(t, kind, s, pmr)
    if t.kind == catalog.VECTOR_KIND:
        return None  # a dtype or dimension the linker refuses itself
    if t.kind in catalog.CONTAINERS:
        return _container_mismatch(t, catalog.CONTAINERS[t.kind], s, pmr)
    return f"names no {t.kind} (a {t.kind} is spelled by its own name or an alias of it)"


def _scalar_mismatch(t: TypeRef, kind: catalog.ScalarKind, s: Spelling,
                     pmr: bool) -> Optional[str]:
    if str(s) in _default_names(kind, pmr):
        return None
    families = kind.cpp_families
    if "integer" in families and integer_range(s) is not None:
        return None
    if "bool" in families and s == Spelling("bool"):
        return None
    if "floating" in families and s.name in catalog.FLOAT_SPELLING_MAX and not s.args:
        return None
    if "text_view" in families and s == Spelling("std::string_view"):
        return None
    if "bytes16" in families and s.name == "std::array" and s.args in (
            (Spelling("std::uint8_t"), 16), (Spelling("unsigned char"), 16),
            (Spelling("uint8_t"), 16)):
        return None
    if "clock" in families and _duration_of(s) is not None:
        return clock_problem(s)
    return f"cannot hold `{t.kind}` values"


def _container_mismatch(t: TypeRef, c: catalog.ContainerKind, s: Spelling,
                        pmr: bool) -> Optional[str]:
    templates = {canonical(x) for x in (c.cpp_template, *c.cpp_other_templates)}
    sequences = {canonical(x) for x in c.cpp_entry_sequences}
    keys = {canonical(k) for k in c.cpp_leading_args}
    if pmr:
        templates |= {canonical(x) for x in (c.pmr_cpp_template, *c.pmr_other_templates) if x}
        sequences |= {canonical(x) for x in c.pmr_entry_sequences}
        keys |= {canonical(k) for k in c.pmr_leading_args}
    element = s
    if s.name in sequences and len(s.args) == 1 and isinstance(s.args[0], Spelling) \
            and s.args[0].name == "std::pair":
        element = s.args[0]  # a sequence of (key, value) pairs: the key may be a view
        keys = keys | {"std::string_view"}
    elif s.name not in templates:
        return f"cannot hold `{t.kind}` values"
    leading = len(c.cpp_leading_args)
    wanted = leading + 1 + (1 if c.has_size else 0)
    if len(element.args) < wanted:
        return f"gives `{element.name}` {len(element.args)} template argument(s); a {t.kind} " \
               f"needs {wanted}"
    for key in element.args[:leading]:
        if not isinstance(key, Spelling) or str(key) not in keys:
            return f"has the key type `{key}`; a {t.kind}'s keys are " + \
                   " or ".join(f"`{k}`" for k in sorted(keys))
    value = element.args[leading]
    if c.has_size and element.args[leading + 1] != t.size:
        return f"holds {element.args[leading + 1]} elements; the type says {t.size}"
    if not isinstance(value, Spelling) or t.element is None:
        return f"has the element `{value}`, which is not a type"
    element_kind = _leaf_kind(t.element)
    if c.cpp_element_exact and element_kind is not None:
        names = _default_names(element_kind, pmr)
        if str(value) not in names:
            return f"has the element `{value}`; a {t.kind}'s element is spelled " + \
                   " or ".join(f"`{n}`" for n in sorted(names))
        return None
    why = _mismatch(t.element, value, pmr)
    return None if why is None else f"has the element `{value}`, which {why}"


def element_spelling(t: TypeRef) -> Optional[str]:
    """How the elements of container `t` are held when `t` has a `cpp:` spelling: its element
    template argument (a map's value, also in `std::vector<std::pair<std::string, T>>`), or None."""
    s = parse(t.cpp or "")
    if s is None or not s.args:
        return None
    c = catalog.CONTAINERS.get(t.kind)
    leading = len(c.cpp_leading_args) if c else 0
    if leading and len(s.args) == 1 and isinstance(s.args[0], Spelling) \
            and s.args[0].name == "std::pair":
        s = s.args[0]  # a sequence of (key, value) pairs
    if len(s.args) <= leading or not isinstance(s.args[leading], Spelling):
        return None
    return str(s.args[leading])
