"""C++ names: what makes an identifier or namespace usable, and how a definition is qualified."""

from __future__ import annotations

import re

from .c_library_names import C_LIBRARY_MACROS, C_LIBRARY_NAMES

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
    # Whatever the namespace: the preprocessor replaces the name before the compiler sees it.
    if name in C_LIBRARY_MACROS:
        return "is a macro the C library headers the generated code includes define"
    return ""


def qualified(namespace: str, name: str) -> str:
    """`::ns::name` (fully qualified, as generated code spells user types)."""
    return f"::{namespace}::{name}" if namespace else f"::{name}"


# Names the generated code relies on finding: it spells standard types `std::string` (as do `cpp:`
# spellings), found from the schema's namespace, and the runtime owns namespace `bsongen`.
STD_NAMESPACE = "std"
RUNTIME_NAMESPACE = "bsongen"
_HIDES_STD = "would hide the standard library's namespace `std` from the generated code"


def namespace_problem(namespace: str) -> str:
    if namespace == "":
        return ""
    parts = namespace.split("::")
    for part in parts:
        problem = identifier_problem(part)
        if problem:
            return f"part `{part}` {problem}"
        if part == STD_NAMESPACE:
            return f"part `{part}` {_HIDES_STD}"
    if parts[0] == RUNTIME_NAMESPACE:
        return f"is inside `{RUNTIME_NAMESPACE}`, the runtime's namespace, whose names it would " \
               "collide with"
    if parts[0] in C_LIBRARY_NAMES:
        return f"part `{parts[0]}` {_C_LIBRARY_CLASH.format(name=parts[0])}"
    return ""


def definition_problem(namespace: str, name: str) -> str:
    """Why a struct or enum `name` in `namespace` would break the generated code, or ""."""
    if name == STD_NAMESPACE:
        return _HIDES_STD
    if name == RUNTIME_NAMESPACE and namespace == "":
        return f"collides with namespace `{RUNTIME_NAMESPACE}` (the runtime's) in the global " \
               "namespace"
    if name in C_LIBRARY_NAMES and namespace == "":
        return _C_LIBRARY_CLASH.format(name=name)
    return ""


# A struct `log` in the global namespace is hidden by the function `::log` (the generated code's
# `::log` names the function), and a struct `tm` or `size_t` redefines a type.
_C_LIBRARY_CLASH = "collides with `::{name}`, declared in the global namespace by the C library " \
                   "headers the generated code includes"
