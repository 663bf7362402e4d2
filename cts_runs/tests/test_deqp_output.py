import unittest

import ctstest_support  # noqa: F401  (import path)
from ctsrunner.deqp_output import Done, LineSplitter, Start, Status, parse_line


class ParseLineTest(unittest.TestCase):
    def test_case_start(self):
        self.assertEqual(parse_line("Test case 'dEQP-VK.api.smoke.triangle'..", False),
                         Start("dEQP-VK.api.smoke.triangle"))
        # A new start while a case runs is still a start (the runner decides).
        self.assertEqual(parse_line("Test case 'dEQP-VK.a.b'..\n", True), Start("dEQP-VK.a.b"))

    def test_status_lines(self):
        self.assertEqual(parse_line("  Pass (Pass)", True), Status("Pass", "Pass"))
        self.assertEqual(parse_line("  NotSupported (Feature not supported: x)", True),
                         Status("NotSupported", "Feature not supported: x"))
        self.assertEqual(parse_line("  Fail (Got (1, 2), expected (3, 4))", True),
                         Status("Fail", "Got (1, 2), expected (3, 4)"))
        self.assertEqual(parse_line("  QualityWarning", True), Status("QualityWarning", ""))
        self.assertEqual(parse_line("  CompatibilityWarning (x)\r", True),
                         Status("CompatibilityWarning", "x"))

    def test_status_needs_running_case_and_known_name(self):
        self.assertIsNone(parse_line("  Pass (Pass)", False))
        self.assertIsNone(parse_line("  Passed:        3/4 (75.0%)", True))
        self.assertIsNone(parse_line("  Hello (world)", True))
        self.assertIsNone(parse_line("Pass (Pass)", True))  # not indented
        self.assertIsNone(parse_line("  target implementation = 'Default'", False))

    def test_done(self):
        self.assertEqual(parse_line("DONE!", False), Done())
        self.assertIsNone(parse_line("DONE!", True))


class LineSplitterTest(unittest.TestCase):
    def test_partial_chunks_and_crlf(self):
        s = LineSplitter()
        self.assertEqual(s.feed(b"Test case 'a"), [])
        self.assertEqual(s.feed(b"'..\r\n  Pa"), ["Test case 'a'.."])
        self.assertEqual(s.feed(b"ss (ok)\n\n"), ["  Pass (ok)", ""])
        self.assertEqual(s.feed(b"tail"), [])
        self.assertEqual(s.flush(), ["tail"])
        self.assertEqual(s.flush(), [])

    def test_invalid_utf8_does_not_raise(self):
        self.assertEqual(LineSplitter().feed(b"\xff\xfe\n"), ["\ufffd\ufffd"])


if __name__ == "__main__":
    unittest.main()
