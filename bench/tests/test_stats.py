import math
import unittest

import benchtest_support  # noqa: F401
from benchrun import stats


class StatsTest(unittest.TestCase):
    def test_median(self):
        self.assertEqual(stats.median([3, 1, 2]), 2)
        self.assertEqual(stats.median([4, 1, 3, 2]), 2.5)
        with self.assertRaises(ValueError):
            stats.median([])

    def test_summary_spread_and_noise(self):
        s = stats.summarize([1.0, 1.1, 0.95, None, 1.02, 1.0])
        self.assertEqual((s.median, s.min, s.max, s.n), (1.0, 0.95, 1.1, 5))
        self.assertAlmostEqual(s.spread, 0.15)
        self.assertTrue(s.noisy(0.10))
        self.assertFalse(s.noisy(0.20))
        self.assertIsNone(stats.summarize([None]))

    def test_process_seconds_is_the_median_of_its_repetitions(self):
        self.assertEqual(stats.process_seconds([0.3, 0.1, 0.2]), 0.2)
        self.assertIsNone(stats.process_seconds([]))

    def test_metric_values(self):
        # 1 GB in 0.5 s = 2 GB/s; 10,000 dispatches in 0.02 s = 2 us each.
        self.assertAlmostEqual(stats.metric_value(0.5, 1e9, 1e-9, True), 2.0)
        self.assertAlmostEqual(stats.metric_value(0.02, 1e4, 1e6, False), 2.0)
        self.assertIsNone(stats.metric_value(0, 1e9, 1e-9, True))
        med, worst, best = stats.value_range(stats.Summary(0.5, 0.25, 1.0, 3), 1e9, 1e-9, True)
        self.assertEqual((med, worst, best), (2.0, 1.0, 4.0))

    def test_ratio_is_reference_time_over_tessera_time(self):
        self.assertEqual(stats.ratio(2.0, 1.0), 2.0)  # Tessera twice as fast
        self.assertEqual(stats.ratio(1.0, 4.0), 0.25)
        self.assertIsNone(stats.ratio(None, 1.0))

    def test_roofline(self):
        probe = {"memset_bytes_per_s": 20e9, "memcpy_bytes_per_s": 10e9,
                 "fma_flops_per_s": {"128": 50e9, "256": 100e9, "512": 80e9}}
        fill = {"bytes_read": 0, "bytes_written": 20e9, "flops": 0}
        self.assertAlmostEqual(stats.roofline_seconds(fill, probe), 1.0)
        copy = {"bytes_read": 10e9, "bytes_written": 10e9, "flops": 0}
        self.assertAlmostEqual(stats.roofline_seconds(copy, probe), 1.0)
        gemm = {"bytes_read": 8e6, "bytes_written": 4e6, "flops": 200e9}
        self.assertAlmostEqual(stats.roofline_seconds(gemm, probe), 2.0)  # best width: 256
        self.assertIsNone(stats.roofline_seconds({"bytes_read": 0, "bytes_written": 0}, probe))
        self.assertAlmostEqual(stats.limit_share(4.0, 1.0), 0.25)
        self.assertIsNone(stats.limit_share(4.0, None))

    def test_timestamp_cross_check(self):
        self.assertFalse(stats.timestamps_disagree([0.1, 0.1], [0.099, 0.098]))
        self.assertTrue(stats.timestamps_disagree([0.03, 0.03], [0.0002, 0.0002]))
        self.assertIsNone(stats.timestamps_disagree([0.1], [-1]))
        self.assertFalse(stats.timestamps_disagree([0.0001], [0.00001]))  # too short to judge
        self.assertTrue(math.isinf(stats.Summary(0, 0, 0, 1).spread))


if __name__ == "__main__":
    unittest.main()
