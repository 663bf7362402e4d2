import tempfile
import unittest

import benchtest_support as support
from benchrun import aggregate, table

PROBE = {"memset_bytes_per_s": 20e9, "memcpy_bytes_per_s": 10e9, "fma_flops_per_s": {"256": 1e11}}


class AggregateTableTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.drivers = support.three_drivers(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def row(self, t_recs, l_recs, l512_recs, info=support.COPY_INFO):
        recs = {"tessera": t_recs, "lavapipe": l_recs, "lavapipe-512": l512_recs}
        return aggregate.make_row(info, 1 << 20, recs, self.drivers, PROBE, 2)

    def test_ratio_limit_and_values(self):
        t = [support.record(support.TESSERA_DEVICE, [0.5, 0.5, 0.6]) for _ in range(5)]
        l = [support.record(support.LAVAPIPE_DEVICE, [1.0, 1.0, 1.0]) for _ in range(5)]
        l5 = [support.record(support.LAVAPIPE512_DEVICE, [2.0]) for _ in range(5)]
        row = self.row(t, l, l5)
        res = row.results["tessera"]
        self.assertTrue(res.ok)
        self.assertEqual(res.summary.median, 0.5)
        self.assertAlmostEqual(res.values[0], 2.0)        # 1e9 bytes / 0.5 s = 2 GB/s
        self.assertAlmostEqual(res.limit_share, 0.2)      # memcpy: 0.1 s at best
        self.assertAlmostEqual(row.ratios["lavapipe"], 2.0)
        self.assertAlmostEqual(row.ratios["lavapipe-512"], 4.0)
        self.assertEqual(res.maxrss_kib, 2048)
        self.assertFalse(res.timestamps_disagree)

    def test_statuses_take_precedence_over_times(self):
        ok = support.record(support.TESSERA_DEVICE, [1.0])
        wrong = dict(ok, identity_problem="driverID 13, expected 32341")
        failed = support.record(support.TESSERA_DEVICE, [], status="failed", reason="boom")
        mismatch = dict(ok, mismatch="output hash x, reference y")
        unsupported = support.record(
            support.TESSERA_DEVICE, [], status="unsupported",
            reason="vkCreateComputePipelines is not provided by the driver")
        lvp = [support.record(support.LAVAPIPE_DEVICE, [1.0])]
        cases = [([ok, wrong], aggregate.WRONG_DRIVER), ([ok, failed], aggregate.FAILED),
                 ([ok, mismatch], aggregate.FAILED), ([unsupported], aggregate.UNSUPPORTED),
                 ([], aggregate.FAILED)]
        for recs, status in cases:
            row = self.row(recs, lvp, lvp)
            self.assertEqual(row.results["tessera"].status, status, recs)
            self.assertIsNone(row.ratios["lavapipe"])
        row = self.row([mismatch], lvp, lvp)
        self.assertIn("wrong result", row.results["tessera"].reason)

    def test_timestamps_flagged_when_most_processes_disagree(self):
        lvp = [support.record(support.LAVAPIPE_DEVICE, [1.0])]
        good = support.record(support.TESSERA_DEVICE, [0.03, 0.03])
        bad = dict(good, device_s=[0.001, 0.001])
        def flag(recs):
            return self.row(recs, lvp, lvp).results["tessera"].timestamps_disagree
        self.assertFalse(flag([good, good, bad]))
        self.assertTrue(flag([good, bad, bad]))
        self.assertIsNone(flag([dict(good, device_s=[-1, -1])]))

    def test_latency_metric(self):
        t = [support.record(support.TESSERA_DEVICE, [0.02], work={"units": 1e4})]
        l = [support.record(support.LAVAPIPE_DEVICE, [0.04], work={"units": 1e4})]
        row = self.row(t, l, l, info=support.DISPATCH_INFO)
        self.assertAlmostEqual(row.results["tessera"].values[0], 2.0)   # us per dispatch
        self.assertAlmostEqual(row.ratios["lavapipe"], 2.0)
        self.assertIsNone(row.results["tessera"].limit_share)

    def test_text_and_markdown_tables(self):
        t = [support.record(support.TESSERA_DEVICE, [w]) for w in (0.5, 0.5, 0.7)]  # spread 40%
        l = [support.record(support.LAVAPIPE_DEVICE, [1.0]) for _ in range(3)]
        un = [support.record(support.LAVAPIPE512_DEVICE, [], status="unsupported", reason="no")]
        row = self.row(t, l, un)
        text = table.format_text([row], self.drivers)
        lines = text.splitlines()
        self.assertEqual(len(lines), 2)
        for word in ("workload", "Tessera", "lavapipe", "lavapipe-512", "ratio", "ratio L512",
                     "spread T/L/L512", "limit T/L/L512", "RSS MiB T/L/L512"):
            self.assertIn(word, lines[0])
        self.assertIn("2.00~", lines[1])          # noisy mark
        self.assertIn("unsupported", lines[1])
        self.assertIn("40%/0%/-", lines[1])
        self.assertIn("20%/10%/-", lines[1])
        md = table.format_markdown([row], self.drivers)
        self.assertIn("| buffer_copy | GB/s copied | 2.00 (1.43-2.00)~ |", md)
        self.assertEqual(md.splitlines()[1].count("---:"), len(table.headers(self.drivers)) - 2)
        notes = table.notes([row], self.drivers)
        self.assertTrue(any("lavapipe-512: unsupported: no" in n for n in notes))
        self.assertTrue(any(n.startswith("~ noisy") for n in notes))

    def test_number_formats(self):
        self.assertEqual(table.fmt_number(123.4), "123")
        self.assertEqual(table.fmt_number(12.34), "12.3")
        self.assertEqual(table.fmt_number(1.234), "1.23")
        self.assertEqual(table.fmt_number(0.01234), "0.0123")
        self.assertEqual(table.fmt_number(0.004381), "0.00438")
        self.assertEqual(table.fmt_number(0.25), "0.25")
        self.assertEqual(table.fmt_number(None), "-")
        self.assertEqual(table.fmt_ratio(1.234), "1.23")
        self.assertEqual(table.fmt_ratio(0.0312), "0.031")
        self.assertEqual(table.fmt_percent(0.001), "<1%")
        self.assertEqual(table.fmt_percent(0.8), "80%")


if __name__ == "__main__":
    unittest.main()
