"""C++ names: what makes an identifier or namespace usable, and how a definition is qualified."""

from __future__ import annotations

import re

CPP_KEYWORDS = frozenset("""
alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t
char32_t class compl concept const consteval constexpr constinit const_cast continue co_await
co_return co_yield decltype default delete do double dynamic_cast else enum explicit export
extern false float for friend goto if inline int long mutable namespace new noexcept not not_eq
nullptr operator or or_eq private protected public register reinterpret_cast requires return
short signed sizeof static static_assert static_cast struct switch template this thread_local
throw true try typedef typeid typename union unsigned using virtual void volatile wchar_t while
xor xor_eq
""".split())

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def identifier_problem(name: str) -> str:
    """Why `name` cannot be a C++ identifier, or "" when it can."""
    if not isinstance(name, str) or not _IDENTIFIER.match(name):
        return "is not a C++ identifier (letters, digits and _, not starting with a digit)"
    if name in CPP_KEYWORDS:
        return "is a C++ keyword"
    if "__" in name or re.match(r"^_[A-Z]", name):
        return "is reserved for the C++ implementation (contains __ or starts with _ and a capital)"
    return ""


def qualified(namespace: str, name: str) -> str:
    """`::ns::name` (fully qualified, as generated code spells user types)."""
    return f"::{namespace}::{name}" if namespace else f"::{name}"


def namespace_problem(namespace: str) -> str:
    if namespace == "":
        return ""
    for part in namespace.split("::"):
        problem = identifier_problem(part)
        if problem:
            return f"part `{part}` {problem}"
    return ""
