import json
import os
import sys
import tempfile
import unittest

import benchtest_support as support
from benchrun import cli, machine, runner


class RunnerTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.drivers = support.three_drivers(self.tmp.name)
        self.log = os.path.join(self.tmp.name, "log.jsonl")
        self.worker = os.path.join(self.tmp.name, "worker")
        with open(self.worker, "w") as f:  # a launcher, so the fake runs with this interpreter
            f.write("#!/bin/sh\nexec %s %s \"$@\"\n" % (sys.executable, support.FAKE_WORKER))
        os.chmod(self.worker, 0o755)
        self.cpus = machine.usable_cpus()[:1]

    def tearDown(self):
        self.tmp.cleanup()

    def runner(self, mode=""):
        env = dict(os.environ, FAKE_WORKER_LOG=self.log, FAKE_WORKER_MODE=mode)
        scratch = os.path.join(self.tmp.name, "scratch")
        os.makedirs(scratch, exist_ok=True)
        return runner.Runner(self.worker, self.drivers, scratch, timeout=60, base_env=env)

    def invocations(self):
        with open(self.log) as f:
            return [json.loads(line) for line in f]

    def test_schedule_alternates_drivers_every_round(self):
        order = [(r, d.key) for r, d in runner.schedule(self.drivers, 2)]
        self.assertEqual(order, [(0, "tessera"), (0, "lavapipe"), (0, "lavapipe-512"),
                                 (1, "tessera"), (1, "lavapipe"), (1, "lavapipe-512")])

    def test_parse_worker_output_takes_the_json_line(self):
        self.assertEqual(runner.parse_worker_output('noise\n{"worker": "tessera-bench-worker"}\n'),
                         {"worker": "tessera-bench-worker"})
        self.assertIsNone(runner.parse_worker_output("{not json\n"))

    def test_one_process_per_driver_and_round_with_equal_threads(self):
        run = self.runner()
        info = run.list_workloads()[0]
        recs = run.run_config(info, 1024, 2, 1, 2, self.cpus, 3)
        calls = self.invocations()
        self.assertEqual([c["icd"] for c in calls],
                         ["tessera_icd.json", "lvp_icd.json", "lvp_icd.json"] * 2)
        threads = [c["env"]["TESSERA_THREADS"] or c["env"]["LP_NUM_THREADS"] for c in calls]
        self.assertEqual(threads, ["3"] * 6)
        widths = [c["env"]["LP_NATIVE_VECTOR_WIDTH"] for c in calls[:3]]
        self.assertEqual(widths, [None, None, "512"])
        self.assertTrue(all(c["env"]["VK_LOADER_LAYERS_DISABLE"] == "~all~" for c in calls))
        self.assertIn("--reps", calls[0]["argv"])
        for key in ("tessera", "lavapipe", "lavapipe-512"):
            self.assertEqual(len(recs[key]), 2)
            for rec in recs[key]:
                self.assertEqual(rec["status"], "ok")
                self.assertNotIn("mismatch", rec)
                self.assertNotIn("identity_problem", rec)

    def test_cold_cache_workloads_get_an_empty_home_per_process(self):
        run = self.runner()
        info = dict(run.list_workloads()[0], cold_caches=True)
        run.run_config(info, 1024, 1, 0, 2, self.cpus, 1)
        homes = [c["env"]["XDG_CACHE_HOME"] for c in self.invocations()]
        self.assertEqual(len(set(homes)), 6)
        self.assertTrue(all("empty-home" in h for h in homes))
        warm = run.environment(dict(info, cold_caches=False), self.drivers[0], 1, "/c", "/p")
        self.assertEqual(warm["XDG_CACHE_HOME"], "/c/xdg-cache-tessera")
        self.assertNotIn("MESA_SHADER_CACHE_DISABLE", warm)

    def test_wrong_output_and_wrong_driver_are_caught(self):
        run = self.runner("tessera_icd.json=wrong-hash")
        recs = run.run_config(run.list_workloads()[0], 1024, 1, 0, 2, self.cpus, 1)
        self.assertTrue(all("mismatch" in r for r in recs["tessera"]))
        self.assertFalse(any("mismatch" in r for r in recs["lavapipe-512"]))
        run = self.runner("tessera_icd.json=wrong-device")
        recs = run.run_config(run.list_workloads()[0], 1024, 1, 0, 2, self.cpus, 1)
        self.assertIn("driverID", recs["tessera"][0]["identity_problem"])
        self.assertEqual(len(recs["tessera"]), 1)  # not repeated

    def test_crash_unsupported_and_missing_reference(self):
        run = self.runner("tessera_icd.json=crash,lvp_icd.json=unsupported")
        recs = run.run_config(run.list_workloads()[0], 1024, 1, 0, 3, self.cpus, 1)
        self.assertEqual(recs["tessera"][0]["status"], "failed")
        self.assertIn("signal", recs["tessera"][0]["error"])
        self.assertEqual([r["status"] for r in recs["lavapipe"]], ["unsupported"])

    def test_probe_takes_the_median_of_three_processes(self):
        recs = [{"probe": "roofline", "memset_bytes_per_s": v, "memcpy_bytes_per_s": v / 2, "seconds": 0.3,
                 "fma_flops_per_s": {"256": v * 10}} for v in (25e9, 43e9, 26e9)]
        m = runner.median_probe(recs)
        self.assertEqual(m["memset_bytes_per_s"], 26e9)  # the fast outlier process does not set the limit
        self.assertEqual(m["memcpy_bytes_per_s"], 13e9)
        self.assertEqual(m["fma_flops_per_s"], {"256": 260e9})
        self.assertEqual(m["processes"], 3)

    def test_probe_and_cli_helpers(self):
        run = self.runner()
        self.assertEqual(run.probe(self.cpus, 1)["probe"], "roofline")
        infos = [{"name": "a", "group": "transfer"}, {"name": "b", "group": "compute"},
                 {"name": "c", "group": "compute"}]
        self.assertEqual([w["name"] for w in cli.select_workloads(infos, [])], ["a", "b", "c"])
        self.assertEqual([w["name"] for w in cli.select_workloads(infos, ["compute", "b", "a"])],
                         ["b", "c", "a"])
        with self.assertRaises(SystemExit):
            cli.select_workloads(infos, ["nope"])
        # Graphics is a group of its own, listed between compute and pipeline creation.
        infos.append({"name": "d", "group": "graphics"})
        self.assertEqual([w["name"] for w in cli.select_workloads(infos, ["graphics"])], ["d"])
        self.assertEqual(runner.GROUP_ORDER, ("transfer", "compute", "graphics", "pipeline"))
        self.assertEqual(cli.thread_counts(1), [1])
        self.assertEqual(cli.thread_counts(6), [1, 2, 4, 6])
        self.assertEqual(machine.parse_cpu_list("0-3,6"), [0, 1, 2, 3, 6])
        self.assertEqual(machine.format_cpu_list([0, 1, 2, 3, 6, 8, 9]), "0-3,6,8-9")


if __name__ == "__main__":
    unittest.main()
