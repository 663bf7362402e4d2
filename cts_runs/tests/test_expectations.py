import os
import unittest

from ctstest_support import CTS_RUNS
from ctsrunner import expectations
from ctsrunner.results import CaseResult

TEXT = """# header
dEQP-VK.api.smoke.triangle   # no rasterizer yet

dEQP-VK.pipeline.*.blend_*\tblending missing
dEQP-VK.memory.allocation.size_?# one-digit sizes
"""


class ParseTest(unittest.TestCase):
    def test_entries(self):
        e = expectations.parse(TEXT)
        self.assertEqual([(x.pattern, x.reason, x.line) for x in e.entries], [
            ("dEQP-VK.api.smoke.triangle", "no rasterizer yet", 2),
            ("dEQP-VK.pipeline.*.blend_*", "blending missing", 4),
            ("dEQP-VK.memory.allocation.size_?", "one-digit sizes", 5)])

    def test_reason_required(self):
        with self.assertRaisesRegex(expectations.ExpectationError, r"x\.txt:2: .*no reason"):
            expectations.parse("# c\ndEQP-VK.api.smoke.triangle\n", "x.txt")
        with self.assertRaises(expectations.ExpectationError):
            expectations.parse("dEQP-VK.a.b #   \n")

    def test_one_name_per_line(self):
        with self.assertRaises(expectations.ExpectationError):
            expectations.parse("dEQP-VK.a.b dEQP-VK.a.c # two names\n")

    def test_shipped_file_is_valid(self):
        # Parses (load raises on a line without a reason) and every entry names CTS cases.
        e = expectations.load(os.path.join(CTS_RUNS, "expectations", "tessera.txt"))
        for entry in e.entries:
            self.assertTrue(entry.pattern.startswith("dEQP-VK."), entry.pattern)
            self.assertTrue(entry.reason.strip(), entry.pattern)


class MatchTest(unittest.TestCase):
    def setUp(self):
        self.e = expectations.parse(TEXT)

    def test_match(self):
        self.assertEqual(self.e.match("dEQP-VK.api.smoke.triangle").line, 2)
        self.assertIsNone(self.e.match("dEQP-VK.api.smoke.triangle_x"))
        # '*' crosses dots, as in deqp-vk patterns.
        self.assertEqual(self.e.match("dEQP-VK.pipeline.monolithic.a.b.blend_add").line, 4)
        self.assertIsNone(self.e.match("dEQP-VK.pipeline.monolithic.blend"))
        self.assertEqual(self.e.match("dEQP-VK.memory.allocation.size_8").line, 5)
        self.assertIsNone(self.e.match("dEQP-VK.memory.allocation.size_16"))
        self.assertIsNone(self.e.match("dEQP-VK.memoryXallocation.size_8"))  # '.' is literal

    def test_unexpected_failures_and_stale(self):
        rows = [CaseResult("dEQP-VK.api.smoke.triangle", "Fail", 0),        # expected
                CaseResult("dEQP-VK.api.smoke.other", "Crash", 0),          # unexpected
                CaseResult("dEQP-VK.api.smoke.slow", "Timeout", 0),         # unexpected
                CaseResult("dEQP-VK.api.smoke.gone", "Missing", 0),         # not a failure
                CaseResult("dEQP-VK.api.smoke.ns", "NotSupported", 0),
                CaseResult("dEQP-VK.pipeline.x.blend_add", "Pass", 0)]      # stale entry
        self.assertEqual([r.case for r in self.e.unexpected_failures(rows)],
                         ["dEQP-VK.api.smoke.other", "dEQP-VK.api.smoke.slow"])
        self.assertEqual([x.line for x in self.e.stale(rows)], [4])


if __name__ == "__main__":
    unittest.main()
