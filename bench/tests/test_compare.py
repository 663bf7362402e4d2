import array
import os
import tempfile
import unittest

import benchtest_support  # noqa: F401
from benchrun import compare


def floats(*xs):
    return array.array("f", xs).tobytes()


class CompareTest(unittest.TestCase):
    def test_modes(self):
        self.assertEqual(compare.parse_mode("exact"), ("exact",))
        self.assertEqual(compare.parse_mode("u8:1"), ("u8", 1))
        self.assertEqual(compare.parse_mode("f32:1e-4:1e-5"), ("f32", 1e-4, 1e-5))
        with self.assertRaises(ValueError):
            compare.parse_mode("f64:1")

    def test_exact_bytes(self):
        self.assertIsNone(compare.compare_bytes("exact", b"abc", b"abc"))
        self.assertIn("byte 1", compare.compare_bytes("exact", b"abc", b"axc"))
        self.assertIn("bytes", compare.compare_bytes("exact", b"ab", b"abc"))

    def test_u8_tolerance(self):
        self.assertIsNone(compare.compare_bytes("u8:1", bytes([10, 200]), bytes([11, 199])))
        self.assertIn("byte 1 differs by 2",
                      compare.compare_bytes("u8:1", bytes([10, 201]), bytes([10, 199])))

    def test_f32_tolerance(self):
        mode = "f32:1e-3:1e-6"
        self.assertIsNone(compare.compare_bytes(mode, floats(1.0005, 0.0), floats(1.0, 5e-7)))
        self.assertIn("float 0", compare.compare_bytes(mode, floats(1.01, 0.0), floats(1.0, 0.0)))
        self.assertIn("float 1",
                      compare.compare_bytes(mode, floats(1.0, float("nan")), floats(1.0, 0.0)))

    def test_outputs_by_hash_and_by_file(self):
        same = {"hash": "h", "bytes": 8, "compare": "exact"}
        self.assertIsNone(compare.compare_outputs(same, dict(same)))
        self.assertIn("hash", compare.compare_outputs(dict(same, hash="x"), same))
        self.assertIn("compared as", compare.compare_outputs(dict(same, compare="u8:1"), same))
        with tempfile.TemporaryDirectory() as tmp:
            a, b = os.path.join(tmp, "a"), os.path.join(tmp, "b")
            with open(a, "wb") as f:
                f.write(floats(1.0, 2.0))
            with open(b, "wb") as f:
                f.write(floats(1.0, 2.0000001))
            got = {"hash": "1", "bytes": 8, "compare": "f32:1e-4:0", "dump": a}
            want = {"hash": "2", "bytes": 8, "compare": "f32:1e-4:0", "dump": b}
            self.assertIsNone(compare.compare_outputs(got, want))
            self.assertIn("no output files", compare.compare_outputs(dict(got, dump=None), want))


if __name__ == "__main__":
    unittest.main()
