"""Renders a linked model through the Jinja2 templates in ../templates, then clang-format.

Two files per model: `<output>.bsongen.hpp` (the types and codec declarations, cheap to include)
and `<output>.bsongen.cpp` (the codec definitions), or the header alone with everything in it
(header_only). The templates print already-indented code; when clang-format is available the
output goes through it with the project's style (.clang-format beside the generator), so what
the generator writes is what a reviewer of generated/ reads.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from typing import Optional

import jinja2

from . import GENERATOR_VERSION, RUNTIME_ABI, catalog, cpp
from .model import Model

GENERATOR_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEMPLATE_DIR = os.path.join(GENERATOR_DIR, "templates")
STYLE_FILE = os.path.join(GENERATOR_DIR, "clang-format.yaml")
# The clang-format whose output the goldens in generated/ hold; others format slightly
# differently, so only this one (or BSONGEN_CLANG_FORMAT) is used.
CLANG_FORMAT = "clang-format-14"


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATE_DIR),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters["cpp_bytes"] = cpp.cpp_bytes
    env.filters["cpp_string"] = cpp.cpp_string
    env.filters["hex64"] = lambda n: f"0x{n:016X}ULL"
    env.filters["hex8"] = lambda n: f"0x{n:02X}"
    # The view's enumerations, which templates compare fields against.
    env.globals["AllocatorUse"] = cpp.AllocatorUse
    env.globals["Reset"] = cpp.Reset
    return env


def output_files(model: Model, header_only: bool = False) -> list[str]:
    header = f"{model.output_name}.bsongen.hpp"
    return [header] if header_only else [header, f"{model.output_name}.bsongen.cpp"]


def find_clang_format() -> Optional[str]:
    return os.environ.get("BSONGEN_CLANG_FORMAT") or shutil.which(CLANG_FORMAT)


def clang_format(text: str, file_name: str, tool: str) -> str:
    result = subprocess.run([tool, f"--style=file:{STYLE_FILE}", f"--assume-filename={file_name}"],
                            input=text, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"{tool} failed on {file_name}: {result.stderr.strip()}")
    return result.stdout


def render(model: Model, header_only: bool = False, formatter: Optional[str] = None) \
        -> dict[str, str]:
    """File name -> contents for one linked model. `formatter`: a clang-format to run, or None."""
    env = environment()
    v = cpp.view(model, header_only)
    context = dict(
        v=v,
        header_only=header_only,
        support_headers=v.source_headers,
        generator_version=GENERATOR_VERSION,
        runtime_abi=RUNTIME_ABI,
        struct_bson_type=catalog.STRUCT_BSON_TYPE,
    )
    names = output_files(model, header_only)
    out = {names[0]: env.get_template("header.hpp.j2").render(**context)}
    if not header_only:
        out[names[1]] = env.get_template("source.cpp.j2").render(**context)
    if formatter:
        out = {name: clang_format(text, name, formatter) for name, text in out.items()}
    return out


def template_files() -> list[str]:
    return sorted(os.path.join(TEMPLATE_DIR, f) for f in os.listdir(TEMPLATE_DIR)
                  if f.endswith(".j2")) + [STYLE_FILE]
