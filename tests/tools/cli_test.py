#!/usr/bin/python3
"""The `bsongen` command: every subcommand's --help, exit codes, and `scan` / `dump` running the
C++ helpers ($BSONGEN_DUMP, $BSONGEN_SCAN when built) found by environment variable, beside the
running bsongen, or on PATH."""

import glob
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

import bson

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BSONGEN = os.path.join(ROOT, "generator", "bsongen")
DUMP = os.environ.get("BSONGEN_DUMP", "")
SCAN = os.environ.get("BSONGEN_SCAN", "")
# The runtime's public include folders: one per subsystem (runtime/<subsystem>/include).
RUNTIME_FOLDERS = sorted(glob.glob(os.path.join(ROOT, "runtime", "*", "include")))
RUNTIME_INCLUDES = [arg for folder in RUNTIME_FOLDERS for arg in ("-I", folder)]
SUBCOMMANDS = ("generate", "model", "scan", "dump", "infer", "jsonschema", "projection", "diff")


def clean_env(**extra) -> dict:
    """An environment without the helper variables and with a PATH holding no helper."""
    env = {k: v for k, v in os.environ.items() if k not in ("BSONGEN_DUMP", "BSONGEN_SCAN")}
    env["PATH"] = "/usr/bin:/bin"
    env.update(extra)
    return env


class CliTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.sample = os.path.join(self.tmp.name, "sample.bson")
        with open(self.sample, "wb") as f:
            f.write(bson.encode({"a": 1}) + bson.encode({"b": "x"}))

    def run_bsongen(self, *args, env=None, program=BSONGEN) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, program, *args], capture_output=True, text=True,
                              env=env if env is not None else clean_env())

    def test_top_level_help_lists_every_subcommand(self):
        r = self.run_bsongen("--help")
        self.assertEqual(r.returncode, 0)
        for command in SUBCOMMANDS:
            self.assertIn(f"    {command}", r.stdout)
        self.assertEqual(self.run_bsongen().returncode, 2)
        self.assertEqual(self.run_bsongen("frobnicate").returncode, 2)

    def test_every_subcommand_has_help(self):
        env = clean_env(BSONGEN_DUMP=DUMP) if DUMP else clean_env()
        if SCAN:
            env["BSONGEN_SCAN"] = SCAN
        for command in SUBCOMMANDS:
            r = self.run_bsongen(command, "--help", env=env)
            self.assertEqual(r.returncode, 0, command + r.stderr)
            self.assertIn(f"usage: bsongen {command}", r.stdout, command)
        if DUMP:
            self.assertIn("usage: bsongen-dump", self.run_bsongen("dump", "--help", env=env).stdout)
        if SCAN:
            self.assertIn("bsongen-scan", self.run_bsongen("scan", "--help", env=env).stdout)

    def test_projection_prints_extended_json_or_says_what_is_wrong(self):
        orders = os.path.join(ROOT, "schemas", "orders.yaml")
        r = self.run_bsongen("projection", orders, "order_summary")
        self.assertEqual((r.returncode, r.stdout),
                         (0, '{"_id": 1, "status": 1, "customer.name": 1, "total": 1}\n'))
        out = os.path.join(self.tmp.name, "p.json")
        self.assertEqual(self.run_bsongen("projection", orders, "order", "-o", out).returncode, 0)
        with open(out, encoding="utf-8") as f:
            self.assertEqual(f.read(), "{}\n")  # it captures unknown fields: everything
        r = self.run_bsongen("projection", orders, "ordr")
        self.assertEqual(r.returncode, 1)
        self.assertIn("no struct `ordr` in the schema", r.stderr)
        self.assertIn("did you mean `order`?", r.stderr)
        self.assertEqual(self.run_bsongen("projection", orders).returncode, 2)

    def test_help_of_a_missing_helper_says_where_it_looked(self):
        r = self.run_bsongen("dump", "--help")
        self.assertEqual(r.returncode, 0)
        self.assertIn("bsongen-dump not found", r.stdout)
        self.assertIn("BSONGEN_DUMP", r.stdout)

    def test_missing_helper_exits_2(self):
        for command, variable in (("dump", "BSONGEN_DUMP"), ("scan", "BSONGEN_SCAN")):
            r = self.run_bsongen(command, self.sample)
            self.assertEqual(r.returncode, 2, command)
            self.assertIn(f"not found (looked at:", r.stderr)
            self.assertIn(variable, r.stderr)
            missing = os.path.join(self.tmp.name, "nothing-here")
            r = self.run_bsongen(command, self.sample, env=clean_env(**{variable: missing}))
            self.assertEqual(r.returncode, 2)
            self.assertIn(missing + f" ({variable})", r.stderr)

    @unittest.skipUnless(DUMP, "BSONGEN_DUMP is not set")
    def test_dump_passes_arguments_and_exit_codes_through(self):
        env = clean_env(BSONGEN_DUMP=DUMP)
        direct = subprocess.run([DUMP, "--canonical", self.sample], capture_output=True, text=True)
        r = self.run_bsongen("dump", "--canonical", self.sample, env=env)
        self.assertEqual((r.returncode, r.stdout), (0, direct.stdout))
        self.assertEqual(r.stdout.splitlines()[0], '{"a":{"$numberInt":"1"}}')
        self.assertEqual(self.run_bsongen("dump", "--nonsense", self.sample, env=env).returncode, 2)
        missing = os.path.join(self.tmp.name, "missing.bson")
        self.assertEqual(self.run_bsongen("dump", missing, env=env).returncode, 1)

    @unittest.skipUnless(DUMP, "BSONGEN_DUMP is not set")
    def test_helpers_are_found_beside_bsongen_then_on_path(self):
        bin_dir = os.path.join(self.tmp.name, "bin")
        os.makedirs(bin_dir)
        os.symlink(DUMP, os.path.join(bin_dir, "bsongen-dump"))
        # A launcher like the installed one: the generator package elsewhere, helpers beside it.
        launcher = os.path.join(bin_dir, "bsongen")
        with open(launcher, "w") as f:
            f.write(textwrap.dedent(f"""\
                import sys
                sys.path.insert(0, {os.path.join(ROOT, "generator")!r})
                from bsongen_gen.cli import main
                sys.exit(main())
                """))
        r = self.run_bsongen("dump", self.sample, program=launcher)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout, '{"a":1}\n{"b":"x"}\n')
        # infer needs bsongen-dump for Extended JSON (BSON it reads itself).
        sample_json = os.path.join(self.tmp.name, "sample.json")
        with open(sample_json, "w") as f:
            f.write('{"a": 1}\n')
        r = self.run_bsongen("infer", sample_json, "--name", "t", program=launcher)
        self.assertEqual(r.returncode, 0, r.stderr)
        # Not beside the source tree's bsongen: then PATH.
        r = self.run_bsongen("dump", self.sample, env=clean_env(PATH=bin_dir + ":/usr/bin:/bin"))
        self.assertEqual(r.returncode, 0, r.stderr)
        # The variable wins over both.
        other = os.path.join(self.tmp.name, "other-dump")
        shutil.copy(DUMP, other)
        r = self.run_bsongen("dump", "--help", program=launcher,
                             env=clean_env(BSONGEN_DUMP=other))
        self.assertIn("usage: bsongen-dump", r.stdout)

    @unittest.skipUnless(SCAN, "BSONGEN_SCAN is not set (no scanner in this build)")
    def test_scan_writes_a_model(self):
        header = os.path.join(self.tmp.name, "point.hpp")
        with open(header, "w") as f:
            f.write(textwrap.dedent("""\
                #include <bsongen/annotate.hpp>
                namespace geo {
                struct BSONGEN_DOCUMENT point { double x = 0; double y = 0; };
                }  // namespace geo
                """))
        model = os.path.join(self.tmp.name, "point.model.json")
        r = self.run_bsongen("scan", header, *RUNTIME_INCLUDES, "-o", model,
                             env=clean_env(BSONGEN_SCAN=SCAN))
        self.assertEqual(r.returncode, 0, r.stderr)
        r = self.run_bsongen("generate", "--model", model, "--out", self.tmp.name)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(os.path.exists(os.path.join(self.tmp.name, "point.bsongen.hpp")))
        bad = os.path.join(self.tmp.name, "bad.hpp")
        with open(bad, "w") as f:
            f.write("#include <bsongen/annotate.hpp>\nstruct BSONGEN_DOCUMENT b { float f; };\n")
        r = self.run_bsongen("scan", bad, *RUNTIME_INCLUDES, "-o", model,
                             env=clean_env(BSONGEN_SCAN=SCAN))
        self.assertEqual(r.returncode, 1, "bsongen-scan's exit status for an unmappable member")


if __name__ == "__main__":
    unittest.main()
