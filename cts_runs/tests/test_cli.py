"""cts_runs/run end to end, against the fake deqp-vk."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

from ctstest_support import RUN_SCRIPT, FakeCts
from ctsrunner.results import read_csv

CASES = [
    "dEQP-VK.api.smoke.create_sampler",
    "dEQP-VK.api.smoke.triangle_tessfail",
    "dEQP-VK.api.smoke.blit_tesscrash",
    "dEQP-VK.api.smoke.wsi_notsupported",
    "dEQP-VK.api.smoke.later",
    "dEQP-VK.memory.alloc.basic",
    "dEQP-VK.memory.alloc.crash_segv",
    "dEQP-VK.memory.alloc.after",
]


class CliTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.fake = FakeCts(self.tmp.name, CASES)
        self.runs_root = os.path.join(self.tmp.name, "cts_runs")
        os.makedirs(self.runs_root)
        self.expectations = os.path.join(self.tmp.name, "tessera.txt")
        self.write_expectations("")

    def tearDown(self):
        self.tmp.cleanup()

    def write_expectations(self, text):
        with open(self.expectations, "w") as f:
            f.write(text)

    def run_cli(self, *args):
        cmd = [sys.executable, RUN_SCRIPT, self.fake.deqp, "--jobs", "2", "--timeout", "10",
               "--tessera-icd", self.fake.tessera_icd, "--lavapipe-icd", self.fake.lavapipe_icd,
               "--runs-root", self.runs_root, "--expectations", self.expectations,
               "--cts-version", "vulkan-cts-test"] + list(args)
        return subprocess.run(cmd, env=self.fake.env(), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, universal_newlines=True, timeout=60)

    def test_full_run_both_drivers(self):
        proc = self.run_cli("dEQP-VK.api.*", "dEQP-VK.memory.*", "--name", "demo", "--check")
        # Unexpected Tessera failures: exit status 1 and the list on stderr.
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertIn("3 Tessera failures not in", proc.stderr)
        for case in ("triangle_tessfail", "blit_tesscrash", "memory.alloc.crash_segv"):
            self.assertIn(case, proc.stderr)
        # stdout: progress lines, then the summary path last.
        lines = proc.stdout.splitlines()
        summary_path = lines[-1]
        self.assertTrue(all(l.startswith("[") for l in lines[:-1]), lines)
        self.assertEqual(os.path.basename(summary_path), "summary.md")
        run_dir = os.path.dirname(summary_path)
        self.assertEqual(os.path.dirname(run_dir), self.runs_root)
        self.assertRegex(os.path.basename(run_dir), r"^\d{4}-\d{2}-\d{2}-demo$")
        self.assertEqual(sorted(os.listdir(run_dir)), [
            "crashes-lavapipe.log", "crashes-tessera.log", "results-lavapipe.csv",
            "results-tessera.csv", "run.json", "summary.md"])

        tessera = {r.case: r.status for r in read_csv(os.path.join(run_dir, "results-tessera.csv"))}
        lavapipe = {r.case: r.status for r in read_csv(os.path.join(run_dir, "results-lavapipe.csv"))}
        self.assertEqual(set(tessera), set(CASES))
        self.assertEqual(tessera["dEQP-VK.api.smoke.blit_tesscrash"], "Crash")
        self.assertEqual(tessera["dEQP-VK.api.smoke.triangle_tessfail"], "Fail")
        self.assertEqual(tessera["dEQP-VK.api.smoke.later"], "Pass")
        self.assertEqual(tessera["dEQP-VK.memory.alloc.after"], "Pass")
        self.assertEqual(lavapipe["dEQP-VK.api.smoke.blit_tesscrash"], "Pass")
        self.assertEqual(lavapipe["dEQP-VK.memory.alloc.crash_segv"], "Crash")

        with open(summary_path) as f:
            text = f.read()
        gaps = text[:text.index("## Results per group")]
        self.assertIn("`dEQP-VK.api.smoke.triangle_tessfail` (Tessera: Fail)", gaps)
        self.assertIn("`dEQP-VK.api.smoke.blit_tesscrash` (Tessera: Crash)", gaps)
        self.assertNotIn("crash_segv", gaps)  # crashes on both
        self.assertIn("vulkan-cts-test", text)
        self.assertIn("| dEQP-VK.memory.alloc | 2 / 2 |", text)
        with open(os.path.join(run_dir, "run.json")) as f:
            meta = json.load(f)
        self.assertEqual((meta["cases"], meta["drivers"]), (8, ["tessera", "lavapipe"]))

        with open(os.path.join(self.runs_root, "LATEST.md")) as f:
            latest = f.read()
        # Pass counts on the same 5 cases, Tessera's shortfall first.
        self.assertIn("| dEQP-VK.api.smoke | 5 | 2 | 1 | 1 | 0 | 1 | 0 | 4 | 0 | 0 | 0 | 1 | 0 | -2 | "
                      "50.0% / 100.0% |", latest)

        # Each driver saw its own ICD, and the listing ran once.
        calls = self.fake.invocations()
        self.assertEqual(sum("--deqp-runmode=txt-caselist" in c["argv"] for c in calls), 1)
        runs = [c for c in calls if c["cases"] is not None]
        self.assertEqual({c["VK_DRIVER_FILES"] for c in runs},
                         {self.fake.tessera_icd, self.fake.lavapipe_icd})
        # Each driver's shader caches (Mesa's and Tessera's alike) in one directory of its own,
        # not the user's, so that a warm lavapipe is not timed against a cold Tessera.
        caches = {}
        for c in runs:
            self.assertEqual(len(set(c["caches"])), 1, c["caches"])
            caches.setdefault(c["VK_DRIVER_FILES"], set()).add(c["caches"][0])
        self.assertEqual([len(v) for v in caches.values()], [1, 1])
        tessera_cache, lavapipe_cache = caches[self.fake.tessera_icd].pop(), caches[self.fake.lavapipe_icd].pop()
        self.assertNotEqual(tessera_cache, lavapipe_cache)
        self.assertNotEqual(tessera_cache, os.environ.get("XDG_CACHE_HOME"))
        self.assertEqual(meta["shader_caches"], "empty")
        self.assertIn("| Shader caches | empty at the start, one per driver |", text)

    def test_warm_shader_caches_keeps_the_users(self):
        env_before = self.fake.env()
        proc = self.run_cli("dEQP-VK.memory.alloc.after", "--name", "warm", "--warm-shader-caches")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        runs = [c for c in self.fake.invocations() if c["cases"] is not None]
        self.assertTrue(runs)
        for c in runs:
            self.assertEqual(c["caches"], [env_before.get(k) for k in ("XDG_CACHE_HOME", "MESA_SHADER_CACHE_DIR",
                                                                         "TESSERA_SHADER_CACHE_DIR")])
        with open(proc.stdout.splitlines()[-1]) as f:
            self.assertIn("| Shader caches | the user's, as they were", f.read())

    def test_check_passes_when_failures_are_expected(self):
        self.write_expectations("# known\n"
                                "dEQP-VK.api.smoke.*_tess*  # not implemented\n"
                                "dEQP-VK.memory.alloc.crash_segv\tcrashes everywhere\n")
        proc = self.run_cli("dEQP-VK.*", "--check", "--driver", "tessera", "--no-latest")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stderr, "")
        self.assertEqual(len(os.listdir(self.runs_root)), 1)  # the run, no LATEST.md

    def test_lavapipe_only_outside_runs_root(self):
        out = os.path.join(self.tmp.name, "elsewhere")
        lst = os.path.join(self.tmp.name, "list.txt")
        with open(lst, "w") as f:
            f.write("dEQP-VK.api.smoke.create_sampler\ndEQP-VK.memory.alloc.basic\n")
        proc = self.run_cli(lst, "--driver", "lavapipe", "--out", out, "--check")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stdout.splitlines()[-1], os.path.join(out, "summary.md"))
        self.assertEqual(sorted(os.listdir(out)), ["results-lavapipe.csv", "run.json", "summary.md"])
        self.assertFalse(os.path.exists(os.path.join(self.runs_root, "LATEST.md")))
        # A literal case list needs no listing run.
        self.assertTrue(all(c["cases"] is not None for c in self.fake.invocations()))

    def test_every_nth_case_in_listing_order(self):
        proc = self.run_cli("dEQP-VK.*", "--every", "3", "--driver", "tessera", "--no-latest",
                            "--name", "subset")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        summary_path = proc.stdout.splitlines()[-1]
        run_dir = os.path.dirname(summary_path)
        got = [r.case for r in read_csv(os.path.join(run_dir, "results-tessera.csv"))]
        # The fake lists CASES in this order: cases 0, 3 and 6.
        self.assertEqual(sorted(got), sorted(CASES[0::3]))
        with open(os.path.join(run_dir, "run.json")) as f:
            meta = json.load(f)
        self.assertEqual(meta["cases"], 3)
        self.assertIn("one case in 3", meta["selection"])
        proc = self.run_cli("dEQP-VK.*", "--every", "0")
        self.assertEqual(proc.returncode, 2)

    def test_errors(self):
        proc = self.run_cli("dEQP-VK.*", "--tessera-icd", os.path.join(self.tmp.name, "none.json"))
        self.assertEqual(proc.returncode, 2)
        self.assertIn("ICD manifest for tessera not found", proc.stderr)
        proc = self.run_cli("dEQP-VK.nothing.*")
        self.assertEqual(proc.returncode, 2)
        self.assertIn("no cases match", proc.stderr)
        self.write_expectations("dEQP-VK.a.b\n")
        proc = self.run_cli("dEQP-VK.*")
        self.assertEqual(proc.returncode, 2)
        self.assertIn("has no reason", proc.stderr)
        self.assertEqual(os.listdir(self.runs_root), [])  # nothing written on errors


if __name__ == "__main__":
    unittest.main()
