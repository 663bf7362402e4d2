import gzip
import os
import tempfile
import unittest
from collections import Counter

import ctstest_support  # noqa: F401
from ctsrunner import results
from ctsrunner.results import CaseResult


class CsvTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.rows = [CaseResult("dEQP-VK.api.smoke.a,b", "Pass", 0.1234),
                     CaseResult("dEQP-VK.api.smoke.c", "Crash", 61.0)]

    def tearDown(self):
        self.tmp.cleanup()

    def test_plain_round_trip(self):
        path = results.write_csv(self.dir, "tessera", self.rows)
        self.assertEqual(os.path.basename(path), "results-tessera.csv")
        with open(path) as f:
            self.assertEqual(f.readline(), "case,status,seconds\n")
        back = results.read_csv(path)
        self.assertEqual([(r.case, r.status) for r in back], [(r.case, r.status) for r in self.rows])
        self.assertAlmostEqual(back[0].seconds, 0.123)

    def test_large_file_is_gzipped_and_replaces_plain(self):
        results.write_csv(self.dir, "lavapipe", self.rows)
        path = results.write_csv(self.dir, "lavapipe", self.rows * 10, gzip_threshold=100)
        self.assertTrue(path.endswith("results-lavapipe.csv.gz"))
        self.assertEqual(sorted(os.listdir(self.dir)), ["results-lavapipe.csv.gz"])
        with gzip.open(path, "rt") as f:
            self.assertEqual(f.readline(), "case,status,seconds\n")
        self.assertEqual(len(results.read_csv(path)), 20)
        self.assertEqual(results.find_result_files(self.dir), {"lavapipe": path})
        # Small again: back to plain, the .gz goes away.
        path = results.write_csv(self.dir, "lavapipe", self.rows, gzip_threshold=100)
        self.assertEqual(sorted(os.listdir(self.dir)), ["results-lavapipe.csv"])

    def test_bad_header_rejected(self):
        path = os.path.join(self.dir, "results-x.csv")
        with open(path, "w") as f:
            f.write("a,b\n")
        with self.assertRaises(ValueError):
            results.read_csv(path)


class GroupingTest(unittest.TestCase):
    def test_group_of(self):
        self.assertEqual(results.group_of("dEQP-VK.api.smoke.triangle", 3), "dEQP-VK.api.smoke")
        self.assertEqual(results.group_of("dEQP-VK.api.smoke.triangle", 2), "dEQP-VK.api")
        self.assertEqual(results.group_of("dEQP-VK.info.build", 3), "dEQP-VK.info")
        self.assertEqual(results.group_of("dEQP-VK.a.b.c.d.e", 9), "dEQP-VK.a.b.c.d")

    def test_counts_and_pass_rate(self):
        rows = [CaseResult("dEQP-VK.a.x.1", "Pass", 0), CaseResult("dEQP-VK.a.x.2", "Fail", 0),
                CaseResult("dEQP-VK.a.x.3", "NotSupported", 0), CaseResult("dEQP-VK.b.y.1", "Pass", 0)]
        groups = results.count_by_group(rows, 3)
        self.assertEqual(groups["dEQP-VK.a.x"], Counter(Pass=1, Fail=1, NotSupported=1))
        self.assertEqual(results.pass_rate(groups["dEQP-VK.a.x"]), (1, 2, 0.5))
        self.assertEqual(results.format_rate(groups["dEQP-VK.a.x"]), "50.0% (1/2)")
        self.assertEqual(results.format_rate(Counter(NotSupported=3)), "n/a (0/0)")


if __name__ == "__main__":
    unittest.main()
