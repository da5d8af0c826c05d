#!/usr/bin/python3
"""The annotated-header examples of README.md and scanner/README.md compile as written.

usage: readme_headers_test.py COMPILER... [--scan BSONGEN_SCAN]

Takes the first cpp block holding BSONGEN_DOCUMENT from each file, saves it as a header and
compiles it with each COMPILER (-std=c++20 -Wall -Wextra -Werror, only the runtime's include
folders). With --scan it also runs bsongen-scan on it, generates code from the model and compiles
a translation unit that includes the generated header.

Prints "README header examples: N compiled" last.
"""

import glob
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# The runtime's public include folders: one per subsystem (runtime/<subsystem>/include).
RUNTIME_FOLDERS = sorted(glob.glob(os.path.join(ROOT, "runtime", "*", "include")))
RUNTIME_INCLUDES = [arg for folder in RUNTIME_FOLDERS for arg in ("-I", folder)]
SOURCES = ("README.md", os.path.join("scanner", "README.md"))
FLAGS = ["-std=c++20", "-Wall", "-Wextra", "-Wpedantic", "-Werror", *RUNTIME_INCLUDES]


def example(path: str) -> str:
    text = open(os.path.join(ROOT, path), encoding="utf-8").read()
    for block in re.findall(r"^```cpp\n(.*?)^```", text, flags=re.S | re.M):
        if "BSONGEN_DOCUMENT" in block:
            return block
    raise SystemExit(f"FAILED: {path} has no cpp block with BSONGEN_DOCUMENT")


def run(command: list, what: str, cwd=None) -> None:
    r = subprocess.run(command, capture_output=True, text=True, cwd=cwd)
    if r.returncode != 0:
        raise SystemExit(f"FAILED: {what}:\n{' '.join(command)}\n{r.stdout}{r.stderr}")


def main() -> int:
    args = sys.argv[1:]
    scan = None
    if "--scan" in args:
        i = args.index("--scan")
        scan = args[i + 1]
        del args[i:i + 2]
    compilers = args
    if not compilers:
        print(__doc__, file=sys.stderr)
        return 2
    compiled = 0
    with tempfile.TemporaryDirectory() as tmp:
        for number, source in enumerate(SOURCES):
            name = f"example{number}"
            header = os.path.join(tmp, name + ".hpp")
            with open(header, "w") as f:
                f.write(example(source))
            for compiler in compilers:
                run([compiler, *FLAGS, "-fsyntax-only", "-x", "c++", header],
                    f"{source}'s header example with {compiler}")
                compiled += 1
            if scan is None:
                continue
            model = os.path.join(tmp, name + ".model.json")
            run([scan, header, *RUNTIME_INCLUDES, "-I", tmp, "-o", model],
                f"bsongen-scan on {source}'s header example")
            run([sys.executable, os.path.join(ROOT, "generator", "bsongen"), "generate",
                 "--model", model, "--out", tmp], f"generating from {source}'s example")
            unit = os.path.join(tmp, name + ".cpp")
            with open(unit, "w") as f:
                f.write(f'#include "{name}.bsongen.hpp"\nint main() {{ return 0; }}\n')
            run([compilers[0], *FLAGS, "-I", tmp, "-fsyntax-only", unit],
                f"the code generated from {source}'s example")
            compiled += 1
    print(f"README header examples: {compiled} compiled")
    return 0


if __name__ == "__main__":
    sys.exit(main())
