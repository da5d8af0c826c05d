#!/usr/bin/python3
"""The installed commands: `cmake --install` into a scratch prefix, then bin/bsongen run from
there with a PATH holding none of the build tree, finding its generator package under
share/bsongen/generator and bsongen-dump / bsongen-scan beside it; the same after the prefix is
moved elsewhere.

usage: install_test.py BUILD_DIR [--with-scanner]

Prints "installed bsongen: N checks passed" last.
"""

import os
import shutil
import subprocess
import sys
import tempfile

import bson

checks = 0


def check(condition: bool, what: str) -> None:
    global checks
    if not condition:
        print("FAILED:", what, file=sys.stderr)
        sys.exit(1)
    checks += 1


def main() -> int:
    args = sys.argv[1:]
    with_scanner = "--with-scanner" in args
    args = [a for a in args if a != "--with-scanner"]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    build_dir = args[0]
    with tempfile.TemporaryDirectory() as scratch:
        prefix = os.path.join(scratch, "prefix")
        r = subprocess.run(["cmake", "--install", build_dir, "--prefix", prefix],
                           capture_output=True, text=True)
        check(r.returncode == 0, "cmake --install: " + r.stderr)
        programs = ["bsongen", "bsongen-dump"] + (["bsongen-scan"] if with_scanner else [])
        for program in programs:
            path = os.path.join(prefix, "bin", program)
            check(os.access(path, os.X_OK), f"bin/{program} is installed and executable")
        sample = os.path.join(scratch, "sample.bson")
        with open(sample, "wb") as f:
            f.write(bson.encode({"n": 1, "s": "x"}) + bson.encode({"n": 2}))
        schema = os.path.join(scratch, "sample.yaml")
        env = {"PATH": "/usr/bin:/bin", "HOME": scratch}

        def bsongen(where: str, *command: str) -> subprocess.CompletedProcess:
            return subprocess.run([os.path.join(where, "bin", "bsongen"), *command],
                                  capture_output=True, text=True, env=env, cwd=scratch)

        for where in (prefix, os.path.join(scratch, "moved")):
            if where != prefix:
                shutil.move(prefix, where)  # a relocated prefix still works
            r = bsongen(where, "--version")
            check(r.returncode == 0 and r.stdout.startswith("bsongen "), "--version: " + r.stderr)
            r = bsongen(where, "dump", sample)
            check(r.returncode == 0 and r.stdout == '{"n":1,"s":"x"}\n{"n":2}\n',
                  "bsongen dump finds bin/bsongen-dump: " + r.stderr)
            r = bsongen(where, "infer", sample, "-o", schema)
            check(r.returncode == 0, "bsongen infer: " + r.stderr)
            r = bsongen(where, "generate", schema, "--out", os.path.join(scratch, "gen"))
            check(r.returncode == 0 and os.path.exists(os.path.join(scratch, "gen",
                                                                    "sample.bsongen.hpp")),
                  "bsongen generate finds its templates: " + r.stderr)
            r = bsongen(where, "jsonschema", schema, "sample")
            check(r.returncode == 0 and '"bsonType": "object"' in r.stdout, "bsongen jsonschema")
            r = bsongen(where, "diff", schema, schema)
            check(r.returncode == 0, "bsongen diff")
            if with_scanner:
                r = bsongen(where, "scan", "--help")
                check(r.returncode == 0 and "bsongen-scan" in r.stdout,
                      "bsongen scan finds bin/bsongen-scan: " + r.stderr)
    print(f"installed bsongen: {checks} checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
