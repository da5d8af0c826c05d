"""What bench/compile_cost's scripts share: generating a schema's code and timing one compile."""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BSONGEN = os.path.join(ROOT, "generator", "bsongen")
INCLUDES = [os.path.join(ROOT, "runtime", s, "include") for s in ("core", "generic", "codec")]


def timed_compile(compiler: str, source: str, include_dir: str, opt: str) -> tuple[float, float]:
    """(CPU seconds, peak RSS MiB) of compiling `source` to an object file once."""
    obj = source + ".o"
    cmd = ["/usr/bin/time", "-f", "%U %S %M", compiler, "-std=c++20", opt, "-c", source, "-o", obj,
           "-I", include_dir] + [f"-I{d}" for d in INCLUDES]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"compile failed: {' '.join(cmd[4:])}\n{r.stderr[-4000:]}")
    user, system, rss_kib = r.stderr.strip().splitlines()[-1].split()
    return float(user) + float(system), int(rss_kib) / 1024


def generate(schema: str, out: str, *extra: str) -> None:
    subprocess.run([sys.executable, BSONGEN, "generate", schema, "--out", out, "--format", "never",
                    *extra], check=True)
