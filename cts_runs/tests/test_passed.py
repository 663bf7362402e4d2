import os
import tempfile
import unittest

import ctstest_support  # noqa: F401  (puts cts_runs on sys.path)
from ctsrunner import passed, results


class PassedSampleTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def run_dir(self, name, driver, rows):
        path = os.path.join(self.root, name)
        os.makedirs(path)
        results.write_csv(path, driver, [results.CaseResult(c, s, 0.1) for c, s in rows])

    def test_passes_of_the_driver_in_any_run(self):
        self.run_dir("2026-11-01-a", "tessera", [("dEQP-VK.a.x", "Pass"), ("dEQP-VK.a.y", "Fail")])
        self.run_dir("2026-11-02-b", "tessera", [("dEQP-VK.a.y", "Pass"), ("dEQP-VK.b.z", "NotSupported")])
        self.run_dir("2026-11-03-c", "lavapipe", [("dEQP-VK.c.w", "Pass")])
        os.makedirs(os.path.join(self.root, "not-a-run"))
        self.assertEqual(passed.passed_cases(self.root), {"dEQP-VK.a.x", "dEQP-VK.a.y"})
        self.assertEqual(passed.passed_cases(self.root, "lavapipe"), {"dEQP-VK.c.w"})

    def test_a_later_result_replaces_an_earlier_pass(self):
        self.run_dir("2026-11-01-a", "tessera", [("dEQP-VK.a.x", "Pass"), ("dEQP-VK.a.y", "Pass")])
        self.run_dir("2026-11-02-b", "tessera", [("dEQP-VK.a.x", "NotSupported")])
        self.assertEqual(passed.passed_cases(self.root), {"dEQP-VK.a.y"})

    def test_sample_is_seeded_filtered_and_sorted(self):
        cases = {"dEQP-VK.g%d.geom.t%d" % (g, t) for g in range(5) for t in range(40)} | {"dEQP-VK.wsi.x.geom"}
        a = passed.sample(cases, 30, seed=7, only=["geom"], exclude=[".wsi."])
        self.assertEqual(len(a), 30)
        self.assertEqual(a, sorted(a))
        self.assertEqual(a, passed.sample(cases, 30, seed=7, only=["geom"], exclude=[".wsi."]))
        self.assertNotEqual(a, passed.sample(cases, 30, seed=8, only=["geom"], exclude=[".wsi."]))
        self.assertNotIn("dEQP-VK.wsi.x.geom", a)
        self.assertEqual(len(passed.sample(cases, 1000, seed=1, only=["g1."])), 40)


if __name__ == "__main__":
    unittest.main()
