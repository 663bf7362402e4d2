import io
import os
import tempfile
import unittest

from ctstest_support import FakeCts
from ctsrunner.execute import run_driver
from ctsrunner.progress import Progress
from ctsrunner.shard import ShardConfig


class RunDriverTest(unittest.TestCase):
    def test_shards_in_parallel_results_in_case_order(self):
        cases = ["dEQP-VK.g.a.c%d" % i for i in range(7)] + ["dEQP-VK.g.b.tessfail"]
        cases.insert(1, "dEQP-VK.g.a.crash_segv")  # first of shard 1, which then resumes
        with tempfile.TemporaryDirectory() as tmp:
            fake = FakeCts(tmp, cases)
            cfg = ShardConfig(deqp=fake.deqp, env=fake.env(VK_DRIVER_FILES=fake.tessera_icd))
            out = io.StringIO()
            run = run_driver("tessera", cases, cfg, 3, os.path.join(tmp, "scratch"),
                             Progress(out, tty=False, interval=3600))
            calls = fake.invocations()
        self.assertEqual([r.case for r in run.results], cases)
        self.assertEqual([r.status for r in run.results], ["Pass", "Crash"] + ["Pass"] * 6 + ["Fail"])
        self.assertEqual([i.case for i in run.incidents], ["dEQP-VK.g.a.crash_segv"])
        # 3 shards, plus one restart after the crash.
        self.assertEqual(len(calls), 4)
        self.assertEqual(len({c["pid"] for c in calls}), 4)
        self.assertIn("[tessera] 9/9 (100%)  pass 7  fail 1  n/s 0  crash 1", out.getvalue())

    def test_shard_error_propagates(self):
        with tempfile.TemporaryDirectory() as tmp:
            cfg = ShardConfig(deqp=os.path.join(tmp, "no-such-deqp-vk"), env=dict(os.environ))
            with self.assertRaises(OSError):
                run_driver("lavapipe", ["dEQP-VK.a.b.c", "dEQP-VK.a.b.d"], cfg, 2,
                           os.path.join(tmp, "scratch"))


if __name__ == "__main__":
    unittest.main()
