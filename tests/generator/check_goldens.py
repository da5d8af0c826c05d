#!/usr/bin/python3
"""Regenerates every example in schemas/ into a temporary folder and compares with generated/.

generated/ mirrors schemas/, one rule per kind of example:

  schemas/<name>.yaml              generated/<name>.bsongen.hpp and .cpp      bsongen generate
  schemas/header_only/<name>.yaml  generated/header_only/<name>.bsongen.hpp   ... --header-only
  schemas/<name>.hpp               generated/<name>_from_header.bsongen.hpp   bsongen-scan, then
                                   and .cpp                                    generate --model

`--part yaml` checks the first two rules, `--part headers` the third, which runs bsongen-scan
(`--scanner`, the build's; the scan includes the runtime's headers from runtime/*/include and the
examples' folder, as the header's own comment shows). Without `--scanner`, `--part headers` exits
77, which ctest reports as skipped, saying which goldens went unchecked: the build has no scanner
(LLVM/Clang 14 missing or BSONGEN_BUILD_SCANNER=OFF). A `--scanner` that does not run is a failure.

Fails, naming each stale, missing or orphaned file and printing the command that refreshes them;
`--refresh` rewrites them instead (and deletes orphans). The goldens are clang-format-14 output
(the generator formats with it), so this needs clang-format-14 (scripts/install-deps) and fails
with that message when the tool is missing rather than comparing unformatted text.
"""

import argparse
import filecmp
import glob
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GOLDEN_DIR = os.path.join(ROOT, "generated")
HEADER_ONLY = "header_only"  # the folder, under schemas/ and generated/, of header-only examples
SCANNED_SUFFIX = "_from_header"  # so orders.hpp's outputs do not collide with orders.yaml's
SKIPPED = 77  # ctest's SKIP_RETURN_CODE for this test


class Failed(Exception):
    pass


def _rel(path: str) -> str:
    return os.path.relpath(path, ROOT).replace(os.sep, "/")


def _run(command: list[str]) -> None:
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if run.returncode != 0:
        raise Failed(f"{' '.join(command)}\nfailed ({run.returncode}):\n{run.stdout}{run.stderr}")


def _generate(out: str, inputs: list[str], *options: str) -> None:
    _run([sys.executable, os.path.join(ROOT, "generator", "bsongen"), "generate", *inputs,
          "--out", out, "--source-root", ROOT, "--format", "always", *options])


def _scanned_headers() -> list[str]:
    return sorted(glob.glob(os.path.join(ROOT, "schemas", "*.hpp")))


def _scanned_name(header: str) -> str:
    return os.path.splitext(os.path.basename(header))[0] + SCANNED_SUFFIX


def _scanned_goldens() -> set[str]:
    """The goldens the headers part writes, known from the headers' names alone (so the yaml
    part tells them from orphans without running the scanner)."""
    return {f"{_scanned_name(h)}.bsongen.{ext}" for h in _scanned_headers() for ext in ("hpp", "cpp")}


def _write_yaml_part(out: str) -> None:
    schemas = sorted(glob.glob(os.path.join(ROOT, "schemas", "*.yaml")))
    if not schemas:
        raise Failed("no schemas found under schemas/")
    _generate(out, schemas)
    header_only = sorted(glob.glob(os.path.join(ROOT, "schemas", HEADER_ONLY, "*.yaml")))
    if header_only:
        _generate(os.path.join(out, HEADER_ONLY), header_only, "--header-only")


def _write_headers_part(out: str, scanner: str) -> None:
    includes = [arg for folder in sorted(glob.glob(os.path.join(ROOT, "runtime", "*", "include")))
                for arg in ("-I", _rel(folder))] + ["-I", "schemas"]
    for header in _scanned_headers():
        name = _scanned_name(header)
        model = os.path.join(out, f"{name}.model.json")
        # Relative to the root, where the scan runs: the model (and the banner) name the header as
        # "schemas/orders.hpp", not as this machine's path.
        _run([scanner, _rel(header), *includes, "--output-name", name, "-o", model])
        _generate(out, [], "--model", model)
        os.remove(model)


def _produced(out: str) -> list[str]:
    """Every file under out, relative to it with '/' separators, sorted."""
    found = []
    for folder, _, files in os.walk(out):
        found += [_rel_to(os.path.join(folder, f), out) for f in files]
    return sorted(found)


def _rel_to(path: str, base: str) -> str:
    return os.path.relpath(path, base).replace(os.sep, "/")


def _goldens(part: str) -> list[str]:
    """The committed goldens a part owns, relative to generated/."""
    scanned = _scanned_goldens()
    out = []
    for name in _produced(GOLDEN_DIR):
        if not (name.endswith(".bsongen.hpp") or name.endswith(".bsongen.cpp")):
            continue
        if (name in scanned) == (part == "headers"):
            out.append(name)
    return out


def _refresh_command(part: str, scanner: str | None) -> str:
    command = "tests/generator/check_goldens.py --refresh"
    if part == "headers":
        command += f" --part headers --scanner {scanner}"
    return command


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", choices=("yaml", "headers"), default="yaml",
                        help="which goldens: from the YAML schemas (default) or scanned headers")
    parser.add_argument("--scanner", metavar="EXE",
                        help="bsongen-scan, for --part headers (skipped without it)")
    parser.add_argument("--refresh", action="store_true",
                        help="rewrite the goldens instead of comparing them")
    args = parser.parse_args()
    if args.scanner:
        args.scanner = os.path.abspath(args.scanner)  # the scan runs in ROOT
    if args.part == "headers" and not args.scanner:
        goldens = ", ".join(f"generated/{g}" for g in sorted(_scanned_goldens()))
        print(f"check_goldens: skipped: this build has no bsongen-scan (it needs LLVM/Clang 14: "
              f"llvm-14-dev, libclang-14-dev; BSONGEN_BUILD_SCANNER), so the goldens of scanned "
              f"headers ({goldens}) are not checked")
        return SKIPPED
    if args.scanner and not os.path.isfile(args.scanner):
        print(f"check_goldens: the scanner {args.scanner} does not exist (build the target "
              "bsongen_scan first)", file=sys.stderr)
        return 1

    with tempfile.TemporaryDirectory() as out:
        try:
            if args.part == "yaml":
                _write_yaml_part(out)
            else:
                _write_headers_part(out, args.scanner)
        except Failed as e:
            print(f"check_goldens: {e}", file=sys.stderr)
            return 1
        fresh = _produced(out)
        goldens = _goldens(args.part)
        if args.refresh:
            for name in fresh:
                os.makedirs(os.path.dirname(os.path.join(GOLDEN_DIR, name)), exist_ok=True)
                shutil.copyfile(os.path.join(out, name), os.path.join(GOLDEN_DIR, name))
            for name in goldens:
                if name not in fresh:
                    os.remove(os.path.join(GOLDEN_DIR, name))
                    print(f"check_goldens: deleted generated/{name} (no example produces it)")
            print(f"check_goldens: wrote {len(fresh)} files under generated/")
            return 0
        problems = []
        for name in fresh:
            golden = os.path.join(GOLDEN_DIR, name)
            if not os.path.exists(golden):
                problems.append(f"missing: generated/{name}")
            elif not filecmp.cmp(os.path.join(out, name), golden, shallow=False):
                problems.append(f"stale: generated/{name}")
        for name in goldens:
            if name not in fresh:
                problems.append(f"no example produces generated/{name} any more; delete it")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        print(f"refresh with (from {ROOT}):\n  {_refresh_command(args.part, args.scanner)}",
              file=sys.stderr)
        return 1
    print(f"check_goldens: {len(fresh)} generated files match ({args.part} part)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
