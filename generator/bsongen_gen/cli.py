"""Command line: bsongen generate | model | inputs, and the tools (tools/commands.py: scan, dump,
infer, jsonschema, projection, diff). Exit codes: 0 ok, 1 error in the input, 2 usage."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Optional

from . import GENERATOR_VERSION, linker, model as model_module, render, schema_reader
from .diagnostics import SchemaError, SchemaErrors
from .tools import commands as tool_commands

EXIT_OK, EXIT_SCHEMA_ERROR, EXIT_USAGE = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse's own exit code is also 2; say so explicitly
        self.print_usage(sys.stderr)
        print(f"{self.prog}: error: {message}", file=sys.stderr)
        sys.exit(EXIT_USAGE)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="bsongen", description="Generates specialized C++ BSON encoders and "
                "decoders from schema files (YAML) or a model JSON (docs/intermediate-model.md).")
    p.add_argument("--version", action="version", version=f"bsongen {GENERATOR_VERSION}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    gen = sub.add_parser("generate", help="write <output>.bsongen.hpp and <output>.bsongen.cpp "
                         "for each schema or model")
    gen.add_argument("schemas", nargs="*", metavar="SCHEMA", help="YAML schema files")
    gen.add_argument("--model", action="append", default=[], metavar="FILE",
                     help="a model JSON file (e.g. from the header scanner); repeatable")
    gen.add_argument("--out", required=True, metavar="DIR", help="output directory")
    gen.add_argument("--source-root", metavar="DIR",
                     help="show input paths relative to DIR in banners and diagnostics")
    gen.add_argument("--header-only", action="store_true",
                     help="write one header holding the codec definitions too (inline), "
                          "instead of a header and a source to compile once")
    gen.add_argument("--format", choices=("auto", "always", "never"), default="auto",
                     help=f"run {render.CLANG_FORMAT} (or $BSONGEN_CLANG_FORMAT) over the output: "
                          "when found (auto, the default), always (fail when it is missing) "
                          "or never")
    gen.add_argument("--stamp", metavar="FILE",
                     help="touch FILE after writing (the build's record that generation ran; "
                          "unchanged outputs keep their times so nothing recompiles)")
    mod = sub.add_parser("model", help="print the linked model JSON of one schema")
    mod.add_argument("schema", metavar="SCHEMA")
    mod.add_argument("--source-root", metavar="DIR")
    sub.add_parser("inputs", help="list the generator's own files (build dependencies)")
    tool_commands.add_parsers(sub)
    return p


def _display(path: str, root: Optional[str]) -> str:
    if root:
        rel = os.path.relpath(os.path.abspath(path), os.path.abspath(root))
        if not rel.startswith(".."):
            return rel.replace(os.sep, "/")
    return path


def _load(path: str, root: Optional[str], is_model: bool):
    display = _display(path, root)
    if is_model:
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            raise SchemaError(None, f"{display}: cannot read model: {e.strerror}")
        return linker.link(model_module.load_json(text, display))
    return linker.link(schema_reader.read_schema(path, display))


def _write_if_changed(path: str, text: str) -> None:
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main(argv: Optional[list[str]] = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    status = tool_commands.delegated(argv)  # scan / dump: the helper's own command line
    if status is not None:
        return status
    args = _parser().parse_args(argv)
    if args.command is None:
        _parser().print_help(sys.stderr)
        return EXIT_USAGE
    if args.command in tool_commands.COMMANDS:
        return tool_commands.run(args)
    if args.command == "inputs":
        package = os.path.dirname(os.path.abspath(__file__))
        files = sorted(os.path.join(package, f) for f in os.listdir(package) if f.endswith(".py"))
        files.append(os.path.join(os.path.dirname(package), "bsongen"))
        for f in files + render.template_files():
            print(f)
        return EXIT_OK
    try:
        if args.command == "model":
            print(model_module.dump_json(_load(args.schema, args.source_root, False)), end="")
            return EXIT_OK
        if not args.schemas and not args.model:
            print("bsongen generate: give at least one SCHEMA or --model FILE", file=sys.stderr)
            return EXIT_USAGE
        inputs = [(s, False) for s in args.schemas] + [(m, True) for m in args.model]
        models = [_load(path, args.source_root, is_model) for path, is_model in inputs]
        seen: dict[str, str] = {}
        for m in models:
            if m.output_name in seen:
                raise SchemaError(None, f"{m.origin_path} and {seen[m.output_name]} both write "
                                        f"{m.output_name}.bsongen.hpp; set `output` in one")
            seen[m.output_name] = m.origin_path
        formatter = None
        if args.format != "never":
            formatter = render.find_clang_format()
            if formatter is None and args.format == "always":
                print(f"bsongen generate: --format always, but {render.CLANG_FORMAT} is not on "
                      "PATH (set BSONGEN_CLANG_FORMAT)", file=sys.stderr)
                return EXIT_USAGE
        os.makedirs(args.out, exist_ok=True)
        for m in models:
            for name, text in render.render(m, args.header_only, formatter).items():
                _write_if_changed(os.path.join(args.out, name), text)
        if args.stamp:
            with open(args.stamp, "w", encoding="utf-8") as f:
                f.write("")
        return EXIT_OK
    except SchemaErrors as e:
        for err in e.errors:
            print(err, file=sys.stderr)
        return EXIT_SCHEMA_ERROR
    except SchemaError as e:
        print(e, file=sys.stderr)
        return EXIT_SCHEMA_ERROR
