import os
import tempfile
import threading
import time
import unittest

from ctstest_support import FakeCts
from ctsrunner import shard
from ctsrunner.shard import ShardConfig, run_shard, split_round_robin


def statuses(results):
    return [(r.case.rsplit(".", 1)[-1], r.status) for r in results]


class SplitTest(unittest.TestCase):
    def test_round_robin(self):
        cases = ["c%d" % i for i in range(10)]
        shards = split_round_robin(cases, 3)
        self.assertEqual(shards, [["c0", "c3", "c6", "c9"], ["c1", "c4", "c7"], ["c2", "c5", "c8"]])

    def test_every_case_once_and_balanced(self):
        cases = ["c%d" % i for i in range(101)]
        for n in (1, 2, 7, 16):
            shards = split_round_robin(cases, n)
            self.assertEqual(len(shards), n)
            self.assertEqual(sorted(sum(shards, [])), sorted(cases))
            self.assertLessEqual(max(map(len, shards)) - min(map(len, shards)), 1)
            for s in shards:  # relative order kept
                self.assertEqual(s, sorted(s, key=cases.index))

    def test_more_jobs_than_cases_and_empty(self):
        self.assertEqual(split_round_robin(["a", "b"], 8), [["a"], ["b"]])
        self.assertEqual(split_round_robin([], 4), [])


class RunShardTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.shard_dir = os.path.join(self.tmp.name, "shard0")

    def tearDown(self):
        self.tmp.cleanup()

    def make(self, cases, timeout=10.0, idle_timeout=10.0, **env):
        fake = FakeCts(self.tmp.name, cases)
        cfg = ShardConfig(deqp=fake.deqp, env=fake.env(**env), timeout=timeout,
                          idle_timeout=idle_timeout)
        return fake, cfg

    def test_all_statuses_in_one_process(self):
        cases = ["dEQP-VK.g.a.pass", "dEQP-VK.g.a.fail", "dEQP-VK.g.a.notsupported",
                 "dEQP-VK.g.a.qualitywarning", "dEQP-VK.g.a.compatwarning"]
        fake, cfg = self.make(cases)
        seen = []
        results, incidents = run_shard(cases, cfg, self.shard_dir, on_result=seen.append)
        self.assertEqual(statuses(results), [
            ("pass", "Pass"), ("fail", "Fail"), ("notsupported", "NotSupported"),
            ("qualitywarning", "QualityWarning"), ("compatwarning", "CompatibilityWarning")])
        self.assertEqual(incidents, [])
        self.assertEqual(sorted(r.case for r in seen), sorted(cases))
        (call,) = fake.invocations()
        self.assertEqual(call["cwd"], fake.build_dir)
        for flag in ("--deqp-log-images=disable", "--deqp-log-shader-sources=disable"):
            self.assertIn(flag, call["argv"])
        self.assertTrue(any(a.startswith("--deqp-caselist-file=") for a in call["argv"]))
        self.assertIn("--deqp-archive-dir=" + fake.build_dir, call["argv"])
        self.assertTrue(all(r.seconds >= 0 for r in results))

    def test_crash_does_not_stop_the_rest_of_the_shard(self):
        cases = ["dEQP-VK.g.a.first", "dEQP-VK.g.a.crash_segv", "dEQP-VK.g.a.middle",
                 "dEQP-VK.g.b.crash_abort", "dEQP-VK.g.b.last"]
        fake, cfg = self.make(cases)
        results, incidents = run_shard(cases, cfg, self.shard_dir)
        self.assertEqual(statuses(results), [
            ("first", "Pass"), ("crash_segv", "Crash"), ("middle", "Pass"),
            ("crash_abort", "Crash"), ("last", "Pass")])
        calls = fake.invocations()
        self.assertEqual(len(calls), 3)
        # Each restart asks only for the cases not done yet.
        self.assertEqual(calls[1]["cases"], sorted(cases[2:]))
        self.assertEqual(calls[2]["cases"], sorted(cases[4:]))
        self.assertEqual([i.case for i in incidents], [cases[1], cases[3]])
        self.assertIn("SIGSEGV", incidents[0].detail)
        self.assertIn("fake: about to crash", incidents[0].detail)  # stderr tail
        self.assertIn("Test case 'dEQP-VK.g.a.crash_segv'..", incidents[0].detail)
        self.assertIn("SIGABRT", incidents[1].detail)

    def test_hang_times_out_and_the_shard_resumes(self):
        cases = ["dEQP-VK.g.a.before", "dEQP-VK.g.a.hang", "dEQP-VK.g.a.after"]
        fake, cfg = self.make(cases, timeout=0.7)
        began = time.monotonic()
        results, incidents = run_shard(cases, cfg, self.shard_dir)
        self.assertLess(time.monotonic() - began, 8)
        self.assertEqual(statuses(results), [("before", "Pass"), ("hang", "Timeout"),
                                             ("after", "Pass")])
        self.assertGreaterEqual(results[1].seconds, 0.7)
        self.assertIn("timeout", incidents[0].detail)
        # The hung process is gone.
        with self.assertRaises(ProcessLookupError):
            os.kill(fake.invocations()[0]["pid"], 0)

    def test_stale_case_name_is_missing(self):
        cases = ["dEQP-VK.g.a.one", "dEQP-VK.g.a.gone", "dEQP-VK.g.a.two"]
        fake, cfg = self.make(["dEQP-VK.g.a.one", "dEQP-VK.g.a.two"])
        results, _ = run_shard(cases, cfg, self.shard_dir)
        self.assertEqual(statuses(results), [("one", "Pass"), ("gone", "Missing"), ("two", "Pass")])

    def test_early_session_end_is_resumed(self):
        # deqp ends the session after a ResourceError; the rest still runs.
        cases = ["dEQP-VK.g.a.one", "dEQP-VK.g.a.resourceerror", "dEQP-VK.g.a.two"]
        fake, cfg = self.make(cases)
        results, _ = run_shard(cases, cfg, self.shard_dir)
        self.assertEqual(statuses(results), [("one", "Pass"), ("resourceerror", "ResourceError"),
                                             ("two", "Pass")])
        self.assertEqual(len(fake.invocations()), 2)

    def test_death_before_any_case_gives_up_after_a_few_tries(self):
        cases = ["dEQP-VK.g.a.c%d" % i for i in range(6)]
        fake, cfg = self.make(cases, FAKE_DEQP_STARTUP="crash")
        results, incidents = run_shard(cases, cfg, self.shard_dir)
        self.assertEqual({r.status for r in results}, {"Crash"})
        self.assertEqual(len(fake.invocations()), shard.MAX_BLIND_FAILURES)
        self.assertIn("not run", incidents[-1].detail)

    def test_hang_before_any_case_uses_idle_timeout(self):
        cases = ["dEQP-VK.g.a.c0"]
        fake, cfg = self.make(cases, timeout=30, idle_timeout=0.5, FAKE_DEQP_STARTUP="hang")
        began = time.monotonic()
        results, _ = run_shard(cases, cfg, self.shard_dir)
        self.assertLess(time.monotonic() - began, 8)
        self.assertEqual(statuses(results), [("c0", "Timeout")])

    def test_cancel_kills_the_process(self):
        cases = ["dEQP-VK.g.a.hang"]
        fake, cfg = self.make(cases, timeout=60)
        cancel = threading.Event()
        threading.Timer(0.5, cancel.set).start()
        began = time.monotonic()
        with self.assertRaises(shard.Cancelled):
            run_shard(cases, cfg, self.shard_dir, cancel=cancel)
        self.assertLess(time.monotonic() - began, 5)
        with self.assertRaises(ProcessLookupError):
            os.kill(fake.invocations()[0]["pid"], 0)


if __name__ == "__main__":
    unittest.main()
