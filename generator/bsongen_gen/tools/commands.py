"""The `bsongen` subcommands beyond generate/model: scan, dump, infer, jsonschema, projection,
diff.

Exit codes, as for every bsongen command: 0 success; 1 a problem in the input (a corrupt
document, a schema error, an unknown struct) or, for diff, a breaking change; 2 a usage error (or
a helper program that cannot be found). diff exits 2 on schema errors, like `buf breaking`, so
that 1 always means "breaking".

`scan` and `dump` run the C++ programs bsongen-scan and bsongen-dump with the rest of the command
line; they are found through an environment variable (BSONGEN_SCAN, BSONGEN_DUMP), then beside
the `bsongen` being run (an installed prefix's bin/), then on PATH.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from typing import Optional

from ..diagnostics import SchemaError, SchemaErrors

EXIT_OK, EXIT_INPUT_ERROR, EXIT_USAGE = 0, 1, 2

# Subcommand -> (program, environment variable naming it).
HELPERS = {"scan": ("bsongen-scan", "BSONGEN_SCAN"), "dump": ("bsongen-dump", "BSONGEN_DUMP")}
COMMANDS = ("infer", "jsonschema", "projection", "diff")


def find_helper(program: str, env_var: str, explicit: Optional[str] = None) \
        -> tuple[Optional[str], list[str]]:
    """(the path of `program`, or None; the places looked at, for the error message)."""
    looked = []
    for source, candidate in (("option", explicit), (env_var, os.environ.get(env_var))):
        if candidate:
            looked.append(f"{candidate} ({source})")
            if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
                return candidate, looked
            return None, looked  # an explicit choice that fails is not silently replaced
    beside = os.path.join(os.path.dirname(os.path.realpath(sys.argv[0] or ".")), program)
    looked.append(beside)
    if os.path.isfile(beside) and os.access(beside, os.X_OK):
        return beside, looked
    looked.append("PATH")
    return shutil.which(program), looked


def _missing(program: str, env_var: str, looked: list[str]) -> str:
    return (f"bsongen: {program} not found (looked at: {', '.join(looked)}); install it next to "
            f"bsongen, put it on PATH, or set {env_var}")


def delegated(argv: list[str]) -> Optional[int]:
    """Runs `bsongen scan ...` / `bsongen dump ...` (the helper's own command line, passed on
    untouched); None when argv is some other command."""
    if not argv or argv[0] not in HELPERS:
        return None
    command, rest = argv[0], argv[1:]
    program, env_var = HELPERS[command]
    path, looked = find_helper(program, env_var)
    if rest[:1] in (["-h"], ["--help"]):
        print(f"usage: bsongen {command} [{program} arguments]\n\n"
              f"Runs {program} with the arguments given; its own help follows.\n"
              f"{program} is found through ${env_var}, then beside bsongen, then on PATH.\n")
        sys.stdout.flush()
        if path is None:
            print(_missing(program, env_var, looked))
            return EXIT_OK
    if path is None:
        print(_missing(program, env_var, looked), file=sys.stderr)
        return EXIT_USAGE
    status = subprocess.call([path, *rest])
    return status if status >= 0 else EXIT_INPUT_ERROR  # killed by a signal


def add_parsers(sub) -> None:
    """Registers the tool subcommands on the `bsongen` parser's subparsers."""
    for command, (program, env_var) in HELPERS.items():
        # Parsed by delegated() before argparse runs; registered for `bsongen --help`.
        sub.add_parser(command, help=f"run {program} (its own arguments; ${env_var} overrides "
                       "where it is found)", add_help=False)

    infer = sub.add_parser(
        "infer", help="infer a schema from documents (mongodump .bson, Extended JSON)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Reads documents and writes a schema (YAML) that decodes every one of them "
        "and re-encodes each byte for byte when its key order is the schema's.\n\n"
        "Inputs: mongodump .bson files (concatenated documents) and Extended JSON (one document "
        "per line, concatenated, or a JSON array; relaxed or canonical), converted to BSON by "
        "bsongen-dump. BSON is read as BSON: every value's type is its type byte. All inputs are "
        "one collection.\n\n"
        "Types: one BSON type -> its kind; sub-documents -> nested structs named from their "
        "path; arrays -> vector<T> over all their elements; int32 with int64 -> number<int64>; "
        "doubles with int32/int64 -> number<double> (any when an int64 exceeds 2^53); other "
        "mixes -> any. Fields: required when every document has them non-null; T? when "
        "sometimes absent; nullable<T> when sometimes null; optional<nullable<T>> for both. "
        "Field order: the key order seen most often. Each field's comment in the schema says "
        "what the documents held there.\n\n"
        "Memory does not grow with the number of documents: per place, the key orders, the "
        "distinct strings and the distinct keys kept are capped (see the options).")
    infer.add_argument("inputs", nargs="+", metavar="INPUT",
                       help="a .bson or Extended JSON file; - reads BSON from standard input")
    infer.add_argument("--name", help="the top-level struct (default: the first input's name)")
    infer.add_argument("--namespace", default="", help="C++ namespace of the schema")
    infer.add_argument("-o", "--output", metavar="SCHEMA.yaml",
                       help="write the schema here (default: standard output)")
    infer.add_argument("--enums", action="store_true",
                       help="string fields with few distinct values, each seen repeatedly and none "
                       "shaped like an id, URL, email or date, become enums")
    infer.add_argument("--enum-max-values", type=int, default=16, metavar="N",
                       help="most distinct values an inferred enum may have (default 16)")
    infer.add_argument("--max-fields", type=int, default=512, metavar="N",
                       help="distinct keys a sub-document may have before it counts as a map "
                       "(default 512)")
    infer.add_argument("--format", choices=("auto", "bson", "json"), default="auto",
                       help="input format (default: by extension, else by the first byte)")
    infer.add_argument("--report", action="store_true",
                       help="print what was seen at every field, and the type chosen, on stderr")
    infer.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                       help="show a document count on stderr while reading (default: when "
                       "stderr is a terminal)")
    infer.add_argument("--dump-tool", metavar="PATH",
                       help="the bsongen-dump that converts Extended JSON inputs (default: "
                       "$BSONGEN_DUMP, beside bsongen, PATH; .bson inputs do not need it)")

    js = sub.add_parser(
        "jsonschema", help="print a MongoDB $jsonSchema validator for a struct",
        description="Prints {\"$jsonSchema\": ...} for STRUCT of SCHEMA: the validator a "
        "collection of documents the generated decoder accepts can use (db.createCollection(name, "
        "{validator: ...})). Every document the decoder accepts satisfies it; documents of the "
        "wrong shape (types, required fields, unknown fields under unknown_fields: reject, enum "
        "values, array sizes) fail it.")
    js.add_argument("schema", metavar="SCHEMA.yaml")
    js.add_argument("struct", metavar="STRUCT")
    js.add_argument("-o", "--output", metavar="FILE", help="write here (default: stdout)")

    proj = sub.add_parser(
        "projection", help="print the MongoDB find projection of a struct (Extended JSON)",
        description="Prints the MongoDB find projection asking for exactly the fields STRUCT of "
        "SCHEMA decodes (what bsongen::projection<T>() holds as BSON), as Extended JSON: "
        "{\"_id\": 1, \"status\": 1, \"customer.name\": 1}. Nested structs are asked for by "
        "their fields' paths; a struct without an _id field says \"_id\": 0; a struct that "
        "captures unknown fields asks for everything, {} (docs/schema-format.md, \"Projection "
        "documents\").")
    proj.add_argument("schema", metavar="SCHEMA.yaml")
    proj.add_argument("struct", metavar="STRUCT")
    proj.add_argument("-o", "--output", metavar="FILE", help="write here (default: stdout)")

    diff = sub.add_parser(
        "diff", help="classify the changes between two schemas as compatible or breaking",
        description="Compares OLD and NEW struct by struct (by struct name, fields by BSON key) "
        "and classifies each change for readers (new code reading data old code wrote) and for "
        "writers (old code reading data new code writes). Two root structs of different names "
        "are compared when each schema has one, or as --struct pairs them. Exit status: 1 when a change breaks "
        "the directions --for selects, 0 otherwise, 2 on a usage or schema error.")
    diff.add_argument("old", metavar="OLD.yaml")
    diff.add_argument("new", metavar="NEW.yaml")
    diff.add_argument("--json", action="store_true", help="print the changes as JSON")
    diff.add_argument("--for", dest="direction", choices=("readers", "writers", "both"),
                      default="both", help="which breaks fail the check (default: both)")
    diff.add_argument("--struct", dest="pairs", action="append", default=[],
                      metavar="OLD=NEW", help="compare struct OLD of the old schema with NEW of "
                      "the new one (repeatable; without it, when each schema has one root struct "
                      "the two roots are compared)")


def _print_schema_errors(e: Exception) -> None:
    errors = e.errors if isinstance(e, SchemaErrors) else [e]
    for err in errors:
        print(err, file=sys.stderr)


def _write_output(path: Optional[str], text: str) -> None:
    if path is None or path == "-":
        sys.stdout.write(text)
        return
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def run(args: argparse.Namespace) -> int:
    if args.command == "infer":
        return _infer(args)
    if args.command == "jsonschema":
        return _jsonschema(args)
    if args.command == "projection":
        return _projection(args)
    return _diff(args)


def _infer(args: argparse.Namespace) -> int:
    from . import infer, schemas

    for number, what in ((args.enum_max_values, "--enum-max-values"),
                         (args.max_fields, "--max-fields")):
        if number < 1:
            print(f"bsongen infer: {what} must be at least 1", file=sys.stderr)
            return EXIT_USAGE
    from .. import names

    problem = names.namespace_problem(args.namespace)
    if problem:
        print(f"bsongen infer: --namespace {args.namespace}: {problem}", file=sys.stderr)
        return EXIT_USAGE
    if args.inputs.count("-") > 1:
        print("bsongen infer: standard input (-) can be read once", file=sys.stderr)
        return EXIT_USAGE
    # BSON is read in Python; bsongen-dump converts Extended JSON inputs to BSON. A --dump-tool
    # given explicitly is checked whatever the inputs, so a mistyped path is not silently unused.
    needs_dump = args.dump_tool is not None or any(
        infer.input_format(path, args.format) == "json" for path in args.inputs)
    dump_tool = None
    if needs_dump:
        dump_tool, looked = find_helper("bsongen-dump", "BSONGEN_DUMP", args.dump_tool)
        if dump_tool is None:
            print(_missing("bsongen-dump", "BSONGEN_DUMP", looked) + " (Extended JSON inputs "
                  "are read through it)", file=sys.stderr)
            return EXIT_USAGE
    options = infer.Options(name=args.name or "", namespace=args.namespace, enums=args.enums,
                            enum_max_values=args.enum_max_values,
                            limits=infer.Limits(max_fields=args.max_fields))
    progress = infer.Progress(sys.stderr, args.progress if args.progress is not None
                              else sys.stderr.isatty())
    try:
        inferred, text, collector = infer.infer(args.inputs, dump_tool, options, args.format,
                                                progress)
    except infer.InputError as e:
        print(f"bsongen infer: {e}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    # The schema must be one the generator reads: check the text itself before writing it.
    display = args.output if args.output and args.output != "-" else "<inferred schema>"
    with tempfile.TemporaryDirectory() as scratch:
        probe = os.path.join(scratch, f"{inferred.model.output_name}.yaml")
        with open(probe, "w", encoding="utf-8") as f:
            f.write(text)
        try:
            schemas.load(probe, display)
        except (SchemaError, SchemaErrors) as e:
            print("bsongen infer: internal error: the inferred schema does not validate:",
                  file=sys.stderr)
            _print_schema_errors(e)
            return EXIT_INPUT_ERROR
    try:
        _write_output(args.output, text)
    except OSError as e:
        print(f"bsongen infer: cannot write {args.output}: {e.strerror}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    for warning in inferred.warnings:
        print(f"bsongen infer: warning: {warning}", file=sys.stderr)
    if args.report:
        sys.stderr.write(infer.report_text(inferred, collector.files))
    return EXIT_OK


def _jsonschema(args: argparse.Namespace) -> int:
    from . import jsonschema, schemas

    try:
        model = schemas.load(args.schema)
        validator, warnings = jsonschema.validator(model, args.struct)
    except (SchemaError, SchemaErrors) as e:
        _print_schema_errors(e)
        return EXIT_INPUT_ERROR
    for warning in warnings:
        print(f"bsongen jsonschema: warning: {warning}", file=sys.stderr)
    try:
        _write_output(args.output, jsonschema.dumps(validator))
    except OSError as e:
        print(f"bsongen jsonschema: cannot write {args.output}: {e.strerror}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    return EXIT_OK


def _projection(args: argparse.Namespace) -> int:
    from .. import linker, queries, schema_reader
    from ..diagnostics import Location, did_you_mean

    try:
        model = linker.link(schema_reader.read_schema(args.schema))
        structs = {s.name: s for s in model.structs}
        s = structs.get(args.struct)
        if s is None:
            raise SchemaError(Location(model.origin_path), f"no struct `{args.struct}` in the "
                              "schema", did_you_mean(args.struct, structs) or
                              "structs: " + ", ".join(structs))
    except (SchemaError, SchemaErrors) as e:
        _print_schema_errors(e)
        return EXIT_INPUT_ERROR
    try:
        _write_output(args.output, queries.extended_json(queries.projection_entries(model, s)) +
                      "\n")
    except OSError as e:
        print(f"bsongen projection: cannot write {args.output}: {e.strerror}", file=sys.stderr)
        return EXIT_INPUT_ERROR
    return EXIT_OK


def _diff(args: argparse.Namespace) -> int:
    from . import diff, schemas

    pairs = {}
    for pair in args.pairs:
        old_name, sep, new_name = pair.partition("=")
        if not sep or not old_name or not new_name or "=" in new_name:
            print(f"bsongen diff: --struct {pair}: expected OLD=NEW (two struct names)",
                  file=sys.stderr)
            return EXIT_USAGE
        if old_name in pairs:
            print(f"bsongen diff: --struct: struct `{old_name}` is paired twice", file=sys.stderr)
            return EXIT_USAGE
        pairs[old_name] = new_name
    try:
        old = schemas.load(args.old)
        new = schemas.load(args.new)
    except (SchemaError, SchemaErrors) as e:
        _print_schema_errors(e)
        return EXIT_USAGE
    try:
        changes, pairings = diff.compare_paired(old, new, pairs)
    except diff.PairingError as e:
        print(f"bsongen diff: {e}", file=sys.stderr)
        return EXIT_USAGE
    directions = ("readers", "writers") if args.direction == "both" else (args.direction,)
    if args.json:
        sys.stdout.write(diff.to_json(changes, directions, pairings))
    else:
        sys.stdout.write(diff.to_text(changes, directions, pairings))
    return EXIT_INPUT_ERROR if diff.breaking(changes, directions) else EXIT_OK
