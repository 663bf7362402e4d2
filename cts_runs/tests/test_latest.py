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
                        ("dEQP-VK.memory.x.z", "NotSupported")],
            "lavapipe": [("dEQP-VK.api.smoke.a", "Pass"), ("dEQP-VK.memory.x.y", "Pass")]})
        os.makedirs(os.path.join(self.root, "expectations"))  # not a run directory

    def test_newest_run_per_group_and_driver_wins(self):
        self.fill()
        table = latest.collect(self.root)
        self.assertEqual(sorted(table), ["dEQP-VK.api.smoke", "dEQP-VK.memory.x"])
        counts, run = table["dEQP-VK.api.smoke"]["tessera"]
        self.assertEqual((counts["Pass"], run), (2, "2025-03-01-new"))
        # lavapipe only ran in the older run: its numbers are kept.
        self.assertEqual(table["dEQP-VK.api.smoke"]["lavapipe"][1], "2025-03-01-old")

    def test_markdown(self):
        self.fill()
        with mock.patch.dict(sys.modules, {"matplotlib": None, "matplotlib.pyplot": None}):
            path = latest.update(self.root)
        with open(path) as f:
            text = f.read()
        self.assertEqual(path, os.path.join(self.root, "LATEST.md"))
        self.assertIn("| Group | tessera | lavapipe | Run |", text)
        self.assertIn("| dEQP-VK.api.smoke | 100.0% (2/2) | 100.0% (1/1) | "
                      "tessera: 2025-03-01-new, lavapipe: 2025-03-01-old |", text)
        self.assertIn("| dEQP-VK.memory.x | 0.0% (0/1) | 100.0% (1/1) | 2025-03-01-old |", text)
        self.assertIn("python3-matplotlib is not installed", text)
        self.assertNotIn("latest.png", text)
        self.assertFalse(os.path.exists(os.path.join(self.root, "latest.png")))

    def test_no_runs(self):
        with open(latest.update(self.root)) as f:
            self.assertIn("No runs yet.", f.read())

    @unittest.skipUnless(have_matplotlib(), "python3-matplotlib not installed")
    def test_plot_written(self):
        self.fill()
        with open(latest.update(self.root)) as f:
            self.assertIn("![Pass rate per group](latest.png)", f.read())
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
