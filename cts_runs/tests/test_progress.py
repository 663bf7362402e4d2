import io
import unittest

import ctstest_support  # noqa: F401
from ctsrunner.progress import Progress, format_duration
from ctsrunner.results import CaseResult


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


class ProgressTest(unittest.TestCase):
    def test_tty_redraws_one_line(self):
        out, clock = io.StringIO(), Clock()
        p = Progress(out, tty=True, clock=clock)
        p.start("tessera", 4)
        p.add(CaseResult("a", "Pass", 0))
        clock.now = 10
        p.tick()
        self.assertEqual(out.getvalue(),
                         "\r[tessera] 1/4 (25%)  pass 1  fail 0  n/s 0  crash 0  timeout 0  ETA 30s\x1b[K")
        p.add(CaseResult("b", "Fail", 0))
        p.add(CaseResult("c", "Missing", 0))
        p.add(CaseResult("d", "Crash", 0))
        p.finish()
        self.assertTrue(out.getvalue().endswith(
            "\r[tessera] 4/4 (100%)  pass 1  fail 1  n/s 0  crash 1  timeout 0  other 1  10s\x1b[K\n"))

    def test_plain_lines_only_every_interval(self):
        out, clock = io.StringIO(), Clock()
        p = Progress(out, interval=60, tty=False, clock=clock)
        p.start("lavapipe", 2)
        p.tick()
        clock.now = 59
        p.tick()
        self.assertEqual(out.getvalue(), "")
        clock.now = 61
        p.add(CaseResult("a", "Pass", 0))
        p.tick()
        p.tick()
        self.assertEqual(out.getvalue().count("\n"), 1)
        self.assertNotIn("\r", out.getvalue())
        p.finish()
        self.assertEqual(out.getvalue().count("\n"), 2)

    def test_format_duration(self):
        self.assertEqual(format_duration(5), "5s")
        self.assertEqual(format_duration(125), "2m05s")
        self.assertEqual(format_duration(3 * 3600 + 61), "3h01m")


if __name__ == "__main__":
    unittest.main()
