import os
import tempfile
import unittest

import ctstest_support  # noqa: F401
from ctsrunner import drivers, machine


class CtsVersionTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.build = self.tmp.name
        self.bin_dir = os.path.join(self.build, "external", "vulkancts", "modules", "vulkan")
        os.makedirs(self.bin_dir)
        self.deqp = os.path.join(self.bin_dir, "deqp-vk")
        open(self.deqp, "w").close()

    def tearDown(self):
        self.tmp.cleanup()

    def test_override_and_default(self):
        self.assertEqual(machine.cts_version(self.deqp, "x"), "x")
        self.assertEqual(machine.cts_version(self.deqp), machine.DEFAULT_CTS_VERSION)

    def test_release_info_of_the_build(self):
        open(os.path.join(self.build, "CMakeCache.txt"), "w").close()
        qp = os.path.join(self.build, "framework", "qphelper")
        os.makedirs(qp)
        with open(os.path.join(qp, "qpReleaseInfo.inl"), "w") as f:
            f.write('#define DEQP_RELEASE_NAME "vulkan-cts-1.3.10.0-0-g%s"\n' % ("ab" * 20))
        self.assertEqual(machine.cts_version(self.deqp), "vulkan-cts-1.3.10.0")

    def test_marker_file(self):
        with open(os.path.join(self.bin_dir, "cts-version.txt"), "w") as f:
            f.write("vulkan-cts-9.9\n")
        self.assertEqual(machine.cts_version(self.deqp), "vulkan-cts-9.9")


class MachineTest(unittest.TestCase):
    def test_describe(self):
        text = machine.describe_machine()
        self.assertRegex(text, r", \d+ cores")

    def test_git_commit_outside_a_repo(self):
        with tempfile.TemporaryDirectory() as d:
            self.assertTrue(machine.git_commit(d).startswith("unknown"))


class DriverEnvTest(unittest.TestCase):
    def test_one_icd_only(self):
        env = drivers.driver_env({"PATH": "/bin", "VK_ADD_DRIVER_FILES": "/x.json"},
                                 "rel/icd.json", {"LP_NUM_THREADS": "1"})
        self.assertEqual(env["VK_DRIVER_FILES"], os.path.abspath("rel/icd.json"))
        self.assertEqual(env["VK_ICD_FILENAMES"], env["VK_DRIVER_FILES"])
        self.assertNotIn("VK_ADD_DRIVER_FILES", env)
        self.assertEqual((env["PATH"], env["LP_NUM_THREADS"]), ("/bin", "1"))


if __name__ == "__main__":
    unittest.main()
