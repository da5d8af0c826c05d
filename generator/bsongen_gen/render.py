"""Renders a linked model through the Jinja2 templates in ../templates."""

from __future__ import annotations

import os

import jinja2

from . import GENERATOR_VERSION, RUNTIME_ABI, catalog
from .model import Model

TEMPLATE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                            "templates")


def _escape_byte(b: int, previous_was_escape: bool) -> str:
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
    return '"' + "".join(_escape_byte(b, False) for b in data) + '"'


def cpp_string(text: str) -> str:
    return cpp_bytes(text.encode("utf-8"))


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATE_DIR),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters["cpp_bytes"] = cpp_bytes
    env.filters["cpp_string"] = cpp_string
    env.filters["hex8"] = lambda n: f"0x{n:02X}"
    env.filters["hex64"] = lambda n: f"0x{n:016X}ULL"
    return env


def output_files(model: Model) -> list[str]:
    return [f"{model.output_name}.bsongen.hpp"]


def render(model: Model) -> dict[str, str]:
    """File name -> contents for one linked model."""
    env = environment()
    header = env.get_template("header.hpp.j2").render(
        model=model,
        generator_version=GENERATOR_VERSION,
        runtime_abi=RUNTIME_ABI,
        null_type_byte=catalog.NULL_TYPE_BYTE,
    )
    return {output_files(model)[0]: header}


def template_files() -> list[str]:
    return sorted(os.path.join(TEMPLATE_DIR, f) for f in os.listdir(TEMPLATE_DIR)
                  if f.endswith(".j2"))
