import os
import sys
import tempfile
import unittest
from unittest import mock

import ctstest_support  # noqa: F401
from ctsrunner import latest, rundir
from ctsrunner.results import CaseResult, write_csv


def have_matplotlib():
    try:
        import matplotlib  # noqa: F401
        return True
    except ImportError:
        return False


class LatestTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def run_dir(self, name, started, by_driver):
        path = os.path.join(self.root, name)
        os.makedirs(path)
        rundir.write_run_json(path, {"started": started})
        for driver, rows in by_driver.items():
            write_csv(path, driver, [CaseResult(c, s, 0.1) for c, s in rows])

    def fill(self):
        # Same date; the start time in run.json decides which is newer.
        self.run_dir("2025-03-01-new", "2025-03-01T12:00:00+00:00", {
            "tessera": [("dEQP-VK.api.smoke.a", "Pass"), ("dEQP-VK.api.smoke.b", "Pass")]})
        self.run_dir("2025-03-01-old", "2025-03-01T08:00:00+00:00", {
            "tessera": [("dEQP-VK.api.smoke.a", "Fail"), ("dEQP-VK.memory.x.y", "Fail"),
                        ("dEQP-VK.memory.x.z", "NotSupported"), ("dEQP-VK.memory.x.w", "Crash"),
                        ("dEQP-VK.memory.x.v", "ResourceError")],
            "lavapipe": [("dEQP-VK.api.smoke.a", "Pass"), ("dEQP-VK.memory.x.y", "Pass"),
                         ("dEQP-VK.memory.x.z", "Pass"), ("dEQP-VK.memory.x.w", "Pass"),
                         ("dEQP-VK.memory.x.v", "Timeout"), ("dEQP-VK.memory.x.u", "Pass"),
                         ("dEQP-VK.draw.only.lavapipe", "Pass")]})
        os.makedirs(os.path.join(self.root, "expectations"))  # not a run directory

    def test_both_drivers_counted_on_tesseras_case_list_newest_status_per_case(self):
        self.fill()
        drivers, table = latest.collect(self.root)
        self.assertEqual(drivers, ["tessera", "lavapipe"])
        self.assertEqual(sorted(table), ["dEQP-VK.api.smoke", "dEQP-VK.draw.only", "dEQP-VK.memory.x"])
        smoke = table["dEQP-VK.api.smoke"]
        # Case a: the newer run's Pass wins over the older Fail; b comes from the newer run.
        self.assertEqual(smoke.cases, 2)
        self.assertEqual(smoke.counts["tessera"]["Pass"], 2)
        self.assertEqual(smoke.runs["tessera"], {"2025-03-01-new"})
        # lavapipe never ran b: it is counted, as Other, so both rows count 2 cases.
        self.assertEqual((smoke.counts["lavapipe"]["Pass"], smoke.counts["lavapipe"]["Other"]), (1, 1))
        memory = table["dEQP-VK.memory.x"]
        # x.u only lavapipe ran: not in the list, which is Tessera's.
        self.assertEqual(memory.cases, 4)
        t, l = memory.counts["tessera"], memory.counts["lavapipe"]
        self.assertEqual((t["Pass"], t["Fail"], t["Crash"], t["NotSupported"]), (0, 2, 1, 1))
        self.assertEqual((l["Pass"], l["Timeout"]), (3, 1))
        self.assertEqual(memory.pass_delta(drivers), -3)
        # A group Tessera never ran takes lavapipe's cases; Tessera shows no counts.
        self.assertEqual(table["dEQP-VK.draw.only"].cases, 1)
        self.assertNotIn("tessera", table["dEQP-VK.draw.only"].counts)
        self.assertIsNone(table["dEQP-VK.draw.only"].pass_delta(drivers))

    def test_markdown_pass_counts_sorted_by_shortfall(self):
        self.fill()
        with mock.patch.dict(sys.modules, {"matplotlib": None, "matplotlib.pyplot": None}):
            path = latest.update(self.root)
        with open(path) as f:
            text = f.read()
        self.assertEqual(path, os.path.join(self.root, "LATEST.md"))
        self.assertIn("| Group | Cases | tessera Pass | tessera Fail | tessera Crash | tessera Timeout | "
                      "tessera NotSupported | tessera Other | lavapipe Pass | lavapipe Fail | "
                      "lavapipe Crash | lavapipe Timeout | lavapipe NotSupported | lavapipe Other | "
                      "Pass Δ | Pass rate (tessera / lavapipe) | Runs |", text)
        rows = [line for line in text.splitlines() if line.startswith("| dEQP-VK.")]
        # memory.x (Tessera 3 short) first, then the rest by name.
        self.assertEqual([r.split(" | ")[0] for r in rows],
                         ["| dEQP-VK.memory.x", "| dEQP-VK.api.smoke", "| dEQP-VK.draw.only"])
        self.assertEqual(rows[0], "| dEQP-VK.memory.x | 4 | 0 | 2 | 1 | 0 | 1 | 0 | 3 | 0 | 0 | 1 | 0 | 0 | "
                                  "-3 | 0.0% / 75.0% | 2025-03-01-old |")
        self.assertEqual(rows[1], "| dEQP-VK.api.smoke | 2 | 2 | 0 | 0 | 0 | 0 | 0 | 1 | 0 | 0 | 0 | 0 | 1 | "
                                  "+1 | 100.0% / 100.0% | tessera: 2025-03-01-new; lavapipe: 2025-03-01-old |")
        self.assertIn("| dEQP-VK.draw.only | 1 | - | - | - | - | - | - | 1 | 0 | 0 | 0 | 0 | 0 | - | - / 100.0% |", text)
        self.assertIn("| **Total** | 7 | 2 | 2 | 1 | 0 | 1 | 0 | 5 | 0 | 0 | 1 | 0 | 1 | -3 |", text)
        self.assertIn("Groups where tessera passes fewer cases than lavapipe: 1 of 3.", text)
        self.assertIn("python3-matplotlib is not installed", text)
        self.assertNotIn("latest.png", text)
        self.assertFalse(os.path.exists(os.path.join(self.root, "latest.png")))

    def test_category(self):
        self.assertEqual(latest.category("Pass"), "Pass")
        self.assertEqual(latest.category("DeviceLost"), "Fail")
        self.assertEqual(latest.category("NoResult"), "Fail")
        self.assertEqual(latest.category("Timeout"), "Timeout")
        self.assertEqual(latest.category("QualityWarning"), "Other")
        self.assertEqual(latest.category("Missing"), "Other")

    def test_no_runs(self):
        with open(latest.update(self.root)) as f:
            self.assertIn("No runs yet.", f.read())

    @unittest.skipUnless(have_matplotlib(), "python3-matplotlib not installed")
    def test_plot_written(self):
        self.fill()
        with open(latest.update(self.root)) as f:
            self.assertIn("![Pass count per group](latest.png)", f.read())
        with open(os.path.join(self.root, "latest.png"), "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")


class RunDirTest(unittest.TestCase):
    def test_derive_name(self):
        self.assertEqual(rundir.derive_name(["dEQP-VK.api.smoke.*"], []), "api.smoke")
        self.assertEqual(rundir.derive_name(["dEQP-VK.*"], []), "all")
        self.assertEqual(rundir.derive_name(["dEQP-VK.api.*.foo", "dEQP-VK.memory.*"],
                                            ["/x/vk-default.txt"]), "api.foo+memory+vk-default")
        self.assertEqual(rundir.derive_name(["dEQP-VK.a b/c*"], []), "a_b_c")

    def test_default_run_dir_does_not_overwrite(self):
        with tempfile.TemporaryDirectory() as root:
            first = rundir.default_run_dir(root, "2025-01-01", "x")
            self.assertEqual(first, os.path.join(root, "2025-01-01-x"))
            os.makedirs(first)
            self.assertEqual(rundir.default_run_dir(root, "2025-01-01", "x"), first + "-2")

    def test_is_inside(self):
        self.assertTrue(rundir.is_inside("/a/b/c", "/a/b"))
        self.assertFalse(rundir.is_inside("/a/bc", "/a/b"))


if __name__ == "__main__":
    unittest.main()
