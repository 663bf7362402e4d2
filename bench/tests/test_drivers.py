import tempfile
import unittest

import benchtest_support as support
from benchrun import drivers


class DriversTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.tessera, self.lavapipe, self.lvp512 = support.three_drivers(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def test_lavapipe_gets_a_512_bit_column_only_on_avx512(self):
        self.assertEqual([d.key for d in (self.tessera, self.lavapipe, self.lvp512)],
                         ["tessera", "lavapipe", "lavapipe-512"])
        self.assertEqual(self.lvp512.env, {"LP_NATIVE_VECTOR_WIDTH": "512"})
        self.assertTrue(self.lavapipe.is_reference)
        no512 = drivers.make_drivers(self.tessera.icd, self.lavapipe.icd, avx512=False)
        self.assertEqual([d.key for d in no512], ["tessera", "lavapipe"])

    def test_any_manifest_can_be_the_reference(self):
        ds = drivers.make_drivers(self.tessera.icd, "/some/where/swiftshader_icd.json")
        self.assertEqual(ds[1].key, "swiftshader_icd")
        self.assertTrue(ds[1].is_reference)
        self.assertIsNone(ds[1].expect_driver_id)

    def test_identity_checks_catch_a_silent_fallback(self):
        self.assertIsNone(drivers.identity_problem(self.tessera, support.TESSERA_DEVICE))
        self.assertIn("driverID", drivers.identity_problem(self.tessera, support.LAVAPIPE_DEVICE))
        self.assertIn("driverID", drivers.identity_problem(self.lavapipe, support.TESSERA_DEVICE))
        self.assertIsNone(drivers.identity_problem(self.lavapipe, support.LAVAPIPE_DEVICE))
        self.assertIn("512 bits", drivers.identity_problem(self.lvp512, support.LAVAPIPE_DEVICE))
        self.assertIsNone(drivers.identity_problem(self.lvp512, support.LAVAPIPE512_DEVICE))
        other = drivers.make_drivers(self.tessera.icd, "/x/other_icd.json")[1]
        self.assertIn("is Tessera", drivers.identity_problem(other, support.TESSERA_DEVICE))
        self.assertIsNotNone(drivers.identity_problem(self.tessera, None))

    def test_environment_selects_one_driver_without_layers(self):
        base = {"VK_ADD_DRIVER_FILES": "x", "VK_INSTANCE_LAYERS": "VK_LAYER_KHRONOS_validation",
                "LP_NUM_THREADS": "9", "HOME": "/root"}
        env = drivers.worker_env(base, self.lvp512, 4)
        self.assertEqual(env["VK_DRIVER_FILES"], self.lvp512.icd)
        self.assertEqual(env["VK_LOADER_LAYERS_DISABLE"], "~all~")
        self.assertEqual(env["LP_NUM_THREADS"], "4")
        self.assertEqual(env["LP_NATIVE_VECTOR_WIDTH"], "512")
        self.assertNotIn("VK_ADD_DRIVER_FILES", env)
        self.assertNotIn("VK_INSTANCE_LAYERS", env)
        self.assertEqual(env["HOME"], "/root")
        tenv = drivers.worker_env(base, self.tessera, 4)
        self.assertEqual(tenv["TESSERA_THREADS"], "4")
        self.assertNotIn("LP_NUM_THREADS", tenv)


if __name__ == "__main__":
    unittest.main()
