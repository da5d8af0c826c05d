#!/usr/bin/python3
"""How `bsongen infer` scales with the number of keys in one document.

Writes one document of N int32 fields (keys `k0`..`k<N-1>`, in order) per size, runs the whole
command on it (`bsongen infer FILE --max-fields N`: reading, statistics, the schema and its
validation) and prints a table of wall-clock seconds, CPU seconds (user + system of the command)
and CPU microseconds per key. Near-linear work keeps the last column flat; the quadratic version
this guards against (issue 35 item 10) took 5 s at 8k keys, 65 s at 32k and over 15 minutes at
100k.

    bench/infer_scale.py                      # 8k, 32k, 100k keys
    bench/infer_scale.py 1000 8000 --timeout 60

Each run first checks its own result (the schema has N fields) before its time is reported.
On a busy shared machine the wall clock includes waiting for a core: the CPU columns are the
ones to compare, across sizes rather than across runs.
"""

from __future__ import annotations

import argparse
import os
import resource
import struct
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BSONGEN = os.path.join(ROOT, "generator", "bsongen")


def wide_document(keys: int) -> bytes:
    """One BSON document {k0: 0, k1: 1, ...} of `keys` int32 elements."""
    body = b"".join(b"\x10" + f"k{i}".encode() + b"\0" + struct.pack("<i", i)
                    for i in range(keys))
    return struct.pack("<i", 4 + len(body) + 1) + body + b"\0"


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_infer(keys: int, scratch: str, timeout: float, extra: list[str]) -> tuple[float, float]:
    """(wall-clock, CPU) seconds `bsongen infer` took on a `keys`-field document (checked: every
    field typed)."""
    path = os.path.join(scratch, f"wide_{keys}.bson")
    with open(path, "wb") as f:
        f.write(wide_document(keys))
    command = [sys.executable, BSONGEN, "infer", path, "--name", "wide", "--max-fields",
               str(keys), "--no-progress", *extra]
    start, start_cpu = time.perf_counter(), children_cpu()
    r = subprocess.run(command, capture_output=True, timeout=timeout)
    seconds, cpu = time.perf_counter() - start, children_cpu() - start_cpu
    if r.returncode != 0:
        raise SystemExit(f"infer_scale: {keys} keys: bsongen infer failed:\n"
                         + r.stderr.decode(errors="replace"))
    fields = sum(1 for line in r.stdout.splitlines()
                 if line.startswith(b"      k") and b": {type: int32, required: true}" in line)
    if fields != keys:
        raise SystemExit(f"infer_scale: {keys} keys: the schema has {fields} int32 fields")
    return seconds, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[8000, 32000, 100000],
                        help="keys per document (default: 8000 32000 100000)")
    parser.add_argument("--timeout", type=float, default=1800,
                        help="seconds before one run is given up (default 1800)")
    parser.add_argument("--infer-arg", action="append", default=[], metavar="ARG",
                        help="an extra argument for bsongen infer (repeatable; e.g. "
                        "--infer-arg=--dump-tool=PATH for versions that read through it)")
    args = parser.parse_args()
    print(f"{'keys':>8}  {'wall s':>9}  {'CPU s':>9}  {'CPU us/key':>10}")
    with tempfile.TemporaryDirectory() as scratch:
        for keys in args.sizes:
            try:
                seconds, cpu = run_infer(keys, scratch, args.timeout, args.infer_arg)
            except subprocess.TimeoutExpired:  # a killed child's CPU time is not counted
                print(f"{keys:>8,}  {'>' + format(args.timeout, '.0f'):>9}", flush=True)
                continue
            print(f"{keys:>8,}  {seconds:>9.2f}  {cpu:>9.2f}  {cpu / keys * 1e6:>10.1f}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
