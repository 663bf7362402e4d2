import os
import tempfile
import unittest

from ctstest_support import FakeCts
from ctsrunner import caselist

UNIVERSE = [
    "dEQP-VK.info.build",
    "dEQP-VK.api.smoke.create_sampler",
    "dEQP-VK.api.smoke.triangle",
    "dEQP-VK.api.info.instance.layers",
    "dEQP-VK.memory.allocation.basic.size_64",
]


class ParseTxtCaselistTest(unittest.TestCase):
    def test_only_tests(self):
        text = ("GROUP: dEQP-VK.api\nGROUP: dEQP-VK.api.smoke\n"
                "TEST: dEQP-VK.api.smoke.create_sampler\nTEST: dEQP-VK.api.smoke.triangle\r\n")
        self.assertEqual(caselist.parse_txt_caselist(text),
                         ["dEQP-VK.api.smoke.create_sampler", "dEQP-VK.api.smoke.triangle"])


class ReadCaselistFileTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_names_patterns_comments_and_sub_lists(self):
        self.write("sub/api.txt", "dEQP-VK.api.b\n\n")
        top = self.write("top.txt", "# comment\n\ndEQP-VK.api.a\n  dEQP-VK.memory.*  \n"
                                    "sub/api.txt\n")
        cases, patterns = caselist.read_caselist_file(top)
        self.assertEqual(cases, ["dEQP-VK.api.a", "dEQP-VK.api.b"])
        self.assertEqual(patterns, ["dEQP-VK.memory.*"])

    def test_self_inclusion_terminates(self):
        top = self.write("loop.txt", "dEQP-VK.a.b\nloop.txt\n")
        self.assertEqual(caselist.read_caselist_file(top), (["dEQP-VK.a.b"], []))

    def test_dedupe_keeps_first(self):
        self.assertEqual(caselist.dedupe(["b", "a", "b", "c", "a"]), ["b", "a", "c"])


class ListCasesTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.fake = FakeCts(self.tmp.name, UNIVERSE)
        self.scratch = os.path.join(self.tmp.name, "scratch")
        os.makedirs(self.scratch)

    def tearDown(self):
        self.tmp.cleanup()

    def test_patterns_in_hierarchy_order(self):
        got = caselist.list_cases(self.fake.deqp, ["dEQP-VK.memory.*", "dEQP-VK.api.smoke.*"],
                                  self.fake.env(), self.scratch)
        self.assertEqual(got, ["dEQP-VK.api.smoke.create_sampler", "dEQP-VK.api.smoke.triangle",
                               "dEQP-VK.memory.allocation.basic.size_64"])
        (call,) = self.fake.invocations()
        self.assertIn("--deqp-runmode=txt-caselist", call["argv"])
        self.assertIn("--deqp-case=dEQP-VK.memory.*,dEQP-VK.api.smoke.*", call["argv"])
        # Runs next to the binary, but leaves no listing file there.
        self.assertEqual(call["cwd"], self.fake.build_dir)
        self.assertEqual(os.listdir(self.fake.build_dir), ["deqp-vk"])

    def test_no_patterns_runs_nothing(self):
        self.assertEqual(caselist.list_cases(self.fake.deqp, [], self.fake.env(), self.scratch), [])
        self.assertEqual(self.fake.invocations(), [])

    def test_failing_binary_is_an_error(self):
        with open(self.fake.deqp, "w") as f:
            f.write("#!/bin/sh\necho 'Failed to initialize dEQP: boom'\nexit 1\n")
        with self.assertRaisesRegex(caselist.CaseListError, "boom"):
            caselist.list_cases(self.fake.deqp, ["dEQP-VK.*"], self.fake.env(), self.scratch)

    def test_resolve_merges_listing_and_files(self):
        lst = os.path.join(self.tmp.name, "mine.txt")
        with open(lst, "w") as f:
            f.write("dEQP-VK.info.build\ndEQP-VK.api.smoke.triangle\ndEQP-VK.api.info.*\n")
        got = caselist.resolve_cases(self.fake.deqp, ["dEQP-VK.api.smoke.*"], [lst],
                                     self.fake.env(), self.scratch)
        self.assertEqual(got, ["dEQP-VK.api.smoke.create_sampler", "dEQP-VK.api.smoke.triangle",
                               "dEQP-VK.api.info.instance.layers", "dEQP-VK.info.build"])


if __name__ == "__main__":
    unittest.main()
