import unittest

import ctstest_support  # noqa: F401
from ctsrunner import expectations, summary
from ctsrunner.results import CaseResult


def info(**kw):
    base = dict(name="api.smoke", started="2025-01-02T03:04:05+00:00", wall_seconds=125,
                cts_version="vulkan-cts-1.3.10.0", commit="0123abcd", machine="AMD EPYC, 2 cores",
                jobs=2, timeout=60, selection=["dEQP-VK.api.smoke.*"],
                driver_seconds={"tessera": 70, "lavapipe": 55})
    base.update(kw)
    return summary.RunInfo(**base)


TESSERA = [CaseResult("dEQP-VK.api.smoke.a", "Pass", 1), CaseResult("dEQP-VK.api.smoke.b", "Fail", 1),
           CaseResult("dEQP-VK.api.smoke.c", "Crash", 1), CaseResult("dEQP-VK.info.build", "Pass", 1),
           CaseResult("dEQP-VK.api.smoke.d", "NotSupported", 1)]
LAVAPIPE = [CaseResult("dEQP-VK.api.smoke.a", "Pass", 1), CaseResult("dEQP-VK.api.smoke.b", "Pass", 1),
            CaseResult("dEQP-VK.api.smoke.c", "Pass", 1), CaseResult("dEQP-VK.info.build", "Pass", 1),
            CaseResult("dEQP-VK.api.smoke.d", "Pass", 1)]


class SummaryTest(unittest.TestCase):
    def test_both_drivers(self):
        e = expectations.parse("dEQP-VK.api.smoke.b # known\n")
        text = summary.render(info(), {"tessera": TESSERA, "lavapipe": LAVAPIPE}, 3,
                              e.unexpected_failures(TESSERA), e.stale(TESSERA), "exp.txt")
        gap = text.index("## Pass on lavapipe, not on Tessera")
        table = text.index("## Results per group")
        self.assertLess(gap, table)  # the gaps come first
        gaps = text[gap:table]
        self.assertIn("3 cases:", gaps)
        self.assertIn("- `dEQP-VK.api.smoke.b` (Tessera: Fail)", gaps)
        self.assertIn("- `dEQP-VK.api.smoke.d` (Tessera: NotSupported)", gaps)
        self.assertNotIn("smoke.a`", gaps)
        self.assertIn("Cells: tessera / lavapipe.", text)
        self.assertIn("| Group | Pass | Fail | NotSupported | QualityWarning | CompatibilityWarning "
                      "| Crash | Timeout | Pass rate |", text)
        self.assertIn("| dEQP-VK.api.smoke | 1 / 4 | 1 / 0 | 1 / 0 | 0 / 0 | 0 / 0 | 1 / 0 | 0 / 0 "
                      "| 33.3% (1/3) / 100.0% (4/4) |", text)
        self.assertIn("| dEQP-VK.info | 1 / 1 |", text)
        self.assertIn("| **Total** | 2 / 5 |", text)
        self.assertIn("- `dEQP-VK.api.smoke.c` (Crash)", text)  # unexpected failure
        self.assertNotIn("- `dEQP-VK.api.smoke.b` (Fail)", text)
        for fact in ("vulkan-cts-1.3.10.0", "0123abcd", "AMD EPYC, 2 cores", "2m05s",
                     "tessera 1m10s", "2025-01-02T03:04:05+00:00"):
            self.assertIn(fact, text)

    def test_one_driver_and_other_column(self):
        rows = TESSERA + [CaseResult("dEQP-VK.api.smoke.e", "Missing", 0)]
        text = summary.render(info(driver_seconds={}), {"tessera": rows}, 2, [], [])
        self.assertIn("Not compared: this run used only tessera.", text)
        self.assertIn("| Timeout | Other | Pass rate |", text)
        self.assertIn("| dEQP-VK.api | 1 | 1 | 1 | 0 | 0 | 1 | 0 | 1 | 25.0% (1/4) |", text)

    def test_long_lists_are_cut(self):
        t = [CaseResult("dEQP-VK.a.b.c%d" % i, "Fail", 0) for i in range(summary.MAX_LISTED + 5)]
        l = [CaseResult(r.case, "Pass", 0) for r in t]
        text = summary.render(info(), {"tessera": t, "lavapipe": l}, 3)
        self.assertIn("... and 5 more cases", text)


if __name__ == "__main__":
    unittest.main()
