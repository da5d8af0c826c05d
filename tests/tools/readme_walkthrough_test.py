#!/usr/bin/python3
"""Runs README.md's install step and walk-through (mongodump -> bsongen infer -> generate ->
decode) exactly as written, against this build.

usage: readme_walkthrough_test.py BUILD_DIR [--sanitize=LIST]

--sanitize=LIST: BUILD_DIR was built with -fsanitize=LIST (BSONGEN_SANITIZE), so its installed
libraries need the sanitizer runtimes: the compilers a run block calls by hand (g++, c++,
clang++) get -fsanitize=LIST added, as a user of an instrumented build would add it.

README blocks are picked by the HTML comment before them:

  <!-- test: install -->        a sh block: its `cmake --install ...` lines run from a checkout
                                whose `build` is BUILD_DIR (configuring and building are what
                                this build already did), with HOME a scratch folder
  <!-- test: run -->            a sh block: run with bash -e in the project folder
                                ($HOME/users-app), PATH=/usr/bin:/bin plus what the block adds;
                                `mongodump` lines are skipped: the test writes a sample dump in
                                their place (dump/shop/users.bson, as mongodump --out dump does)
  <!-- test: file NAME -->      the block is written to the project folder as NAME
  <!-- test: excerpt NAME -->   the block's lines appear in the file NAME, in this order
  <!-- test: output -->         the block equals the standard output of the run block before it

Prints "README walk-through: N blocks run" last.
"""

import datetime
import os
import re
import subprocess
import sys
import tempfile

import bson
from bson.codec_options import CodecOptions
from bson.objectid import ObjectId
from bson.son import SON

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MARKER = re.compile(r"^<!-- test: (install|run|file|excerpt|output)\s*(\S*)\s*-->$")


def readme_blocks(path: str) -> list[tuple[str, str, str]]:
    """(kind, argument, text) of every marked fenced block, in order."""
    lines = open(path, encoding="utf-8").read().splitlines()
    blocks = []
    i = 0
    while i < len(lines):
        m = MARKER.match(lines[i].strip())
        i += 1
        if not m:
            continue
        while i < len(lines) and not lines[i].startswith("```"):
            i += 1
        start = i + 1
        end = start
        while end < len(lines) and not lines[end].startswith("```"):
            end += 1
        blocks.append((m.group(1), m.group(2), "\n".join(lines[start:end]) + "\n"))
        i = end + 1
    return blocks


CITIES = ["Amsterdam", "Athens", "Berlin", "Bern", "Brussels", "Budapest", "Copenhagen", "Dublin",
          "Helsinki", "Lisbon", "Ljubljana", "London", "Madrid", "Oslo", "Paris", "Prague",
          "Reykjavik", "Riga", "Rome", "Stockholm", "Tallinn", "Valletta", "Vienna", "Vilnius",
          "Warsaw", "Zagreb"]


def write_sample_dump(path: str) -> None:
    """200 users, as `mongodump --db shop --collection users` might find them."""
    import random
    rng = random.Random(2024)
    docs = []
    for i in range(200):
        d = SON()
        d["_id"] = ObjectId(bytes(rng.getrandbits(8) for _ in range(12)))
        d["name"] = rng.choice(["Ada", "Grace", "Alan", "Edsger", "Barbara"]) + f" {i}"
        if rng.random() < 0.8:
            d["email"] = f"user{i}@example.com"
        d["role"] = rng.choice(["viewer"] * 5 + ["editor"] * 3 + ["admin"])
        d["age"] = rng.randrange(18, 90)
        d["joinedAt"] = datetime.datetime(2020, 1, 1) + datetime.timedelta(minutes=rng.randrange(10**6))
        if rng.random() < 0.9:
            address = SON([("city", rng.choice(CITIES))])
            if rng.random() < 0.5:
                address["zip"] = str(rng.randrange(10000, 99999))
            d["address"] = address
        d["tags"] = rng.sample(["beta", "staff", "vip", "new"], rng.randrange(0, 3))
        docs.append(d)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(b"".join(bson.encode(d, codec_options=CodecOptions(document_class=SON))
                         for d in docs))


def fail(message: str) -> None:
    print("FAILED:", message, file=sys.stderr)
    sys.exit(1)


def sanitizing_compilers(folder: str, sanitize: str) -> str:
    """Wrappers in `folder` for the compilers on /usr/bin that add -fsanitize=`sanitize`."""
    os.makedirs(folder)
    for name in ("g++", "c++", "clang++"):
        real = os.path.join("/usr/bin", name)
        if not os.path.exists(real):
            continue
        wrapper = os.path.join(folder, name)
        with open(wrapper, "w", encoding="utf-8") as f:
            f.write(f'#!/bin/sh\nexec {real} "$@" -fsanitize={sanitize}\n')
        os.chmod(wrapper, 0o755)
    return folder


def main() -> int:
    args = sys.argv[1:]
    sanitize = ""
    if args and args[-1].startswith("--sanitize="):
        sanitize = args.pop()[len("--sanitize="):]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    build_dir = os.path.abspath(args[0])
    blocks = readme_blocks(os.path.join(ROOT, "README.md"))
    kinds = [kind for kind, _, _ in blocks]
    if "install" not in kinds or "run" not in kinds or "output" not in kinds:
        fail(f"README.md lacks marked install/run/output blocks (found {kinds})")
    with tempfile.TemporaryDirectory() as scratch:
        home = os.path.join(scratch, "home")
        checkout = os.path.join(scratch, "checkout")
        project = os.path.join(home, "users-app")
        os.makedirs(project)
        os.makedirs(checkout)
        os.symlink(build_dir, os.path.join(checkout, "build"))
        env = {"HOME": home, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
        if sanitize:
            env["PATH"] = sanitizing_compilers(os.path.join(scratch, "bin"), sanitize) + ":" + env["PATH"]
        last_output = None
        for number, (kind, argument, text) in enumerate(blocks):
            if kind == "install":
                commands = [ln for ln in text.splitlines() if ln.startswith("cmake --install")]
                if not commands:
                    fail("the install block has no `cmake --install` line")
                r = subprocess.run(["bash", "-e", "-c", "\n".join(commands)], cwd=checkout,
                                   env=env, capture_output=True, text=True)
                if r.returncode:
                    fail(f"install block: {r.stderr}")
            elif kind == "run":
                lines = []
                for line in text.splitlines():
                    if line.startswith("mongodump"):
                        write_sample_dump(os.path.join(project, "dump", "shop", "users.bson"))
                    else:
                        lines.append(line)
                r = subprocess.run(["bash", "-e", "-c", "\n".join(lines)], cwd=project, env=env,
                                   capture_output=True, text=True)
                if r.returncode:
                    fail(f"run block {number} exited {r.returncode}:\n{text}\n"
                         f"stdout:\n{r.stdout}\nstderr:\n{r.stderr}")
                last_output = r.stdout
            elif kind == "file":
                with open(os.path.join(project, argument), "w", encoding="utf-8") as f:
                    f.write(text)
            elif kind == "excerpt":
                with open(os.path.join(project, argument), encoding="utf-8") as f:
                    actual = f.read().splitlines()
                position = 0
                for line in text.splitlines():
                    if line.strip() in ("...", "# ..."):
                        continue
                    try:
                        position = actual.index(line, position) + 1
                    except ValueError:
                        fail(f"README's excerpt of {argument}: `{line}` is not in the file "
                             f"(after line {position}):\n" + "\n".join(actual))
            elif kind == "output":
                if last_output != text:
                    fail(f"README shows output\n{text}but the commands printed\n{last_output}")
    print(f"README walk-through: {len(blocks)} blocks run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
