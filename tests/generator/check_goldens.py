#!/usr/bin/python3
"""Regenerates every schema in schemas/ into a temporary folder and compares with generated/.

Fails, naming each stale or missing file and printing the command that refreshes them, when the
committed goldens no longer match what the generator produces. The goldens are clang-format-14
output (the generator formats with it), so this test needs clang-format-14 (scripts/install-deps);
it fails with that message when the tool is missing rather than comparing unformatted text.
"""

import filecmp
import glob
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REFRESH = "generator/bsongen generate schemas/*.yaml --out generated --source-root . --format always"


def main() -> int:
    schemas = sorted(glob.glob(os.path.join(ROOT, "schemas", "*.yaml")))
    if not schemas:
        print("check_goldens: no schemas found under schemas/", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as out:
        run = subprocess.run([sys.executable, os.path.join(ROOT, "generator", "bsongen"), "generate",
                              *schemas, "--out", out, "--source-root", ROOT, "--format", "always"],
                             capture_output=True, text=True)
        if run.returncode != 0:
            print(run.stderr, file=sys.stderr)
            return 1
        fresh = sorted(os.listdir(out))
        golden_dir = os.path.join(ROOT, "generated")
        goldens = sorted(f for f in os.listdir(golden_dir)
                         if f.endswith(".bsongen.hpp") or f.endswith(".bsongen.cpp"))
        problems = []
        for name in fresh:
            golden = os.path.join(golden_dir, name)
            if not os.path.exists(golden):
                problems.append(f"missing: generated/{name}")
            elif not filecmp.cmp(os.path.join(out, name), golden, shallow=False):
                problems.append(f"stale: generated/{name}")
        for name in goldens:
            if name not in fresh:
                problems.append(f"no schema produces generated/{name} any more; delete it")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        print(f"refresh with (from {ROOT}):\n  {REFRESH}", file=sys.stderr)
        return 1
    print(f"check_goldens: {len(fresh)} generated files match")
    return 0


if __name__ == "__main__":
    sys.exit(main())
