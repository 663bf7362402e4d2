import json
import os
import tempfile
import unittest

import benchtest_support as support
from benchrun import aggregate, results, table


def run_json(median, spread, status="ok"):
    res = {"status": status}
    if status == "ok":
        res.update({"median_s": median, "spread": spread, "value": 1.0 / median})
    return {"rows": [{"workload": "saxpy", "metric": "GB/s", "size": 1, "threads": 2,
                      "results": {"lavapipe": res}}]}


class ResultsTest(unittest.TestCase):
    def test_agreement_within_the_reported_spread(self):
        old = run_json(1.0, 0.10)
        self.assertEqual(results.compare_runs(old, run_json(1.08, 0.02))[0][2], "agrees")
        self.assertEqual(results.compare_runs(old, run_json(1.15, 0.02))[0][2], "DIFFERS")
        self.assertEqual(results.compare_runs(old, run_json(1.15, 0.20))[0][2], "agrees")
        self.assertEqual(results.compare_runs(old, run_json(0, 0, "FAILED"))[0][2], "DIFFERS")
        self.assertEqual(results.compare_runs({"rows": []}, old)[0][2], "missing")

    def test_write_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            drivers = support.three_drivers(tmp)
            recs = {"tessera": [support.record(support.TESSERA_DEVICE, [0.5])],
                    "lavapipe": [support.record(support.LAVAPIPE_DEVICE, [1.0])],
                    "lavapipe-512": [support.record(support.LAVAPIPE512_DEVICE, [1.0])]}
            recs["tessera"][0]["output"]["dump"] = "/tmp/gone.bin"
            row = aggregate.make_row(support.COPY_INFO, 1 << 20, recs, drivers, None, 2)
            rows_json = [results.row_to_json(row, 0.1)]
            self.assertEqual(rows_json[0]["results"]["tessera"]["value"], 2.0)
            md = table.format_markdown([row], drivers)
            doc = results.markdown_document("T", ["a"], [("Results", md)])
            out = os.path.join(tmp, "out")
            paths, problem = results.write_run(out, "summary", doc, rows_json,
                                               recs["tessera"], {"kind": "summary"}, None)
            self.assertEqual(problem, "no chart")
            with open(paths["json"]) as f:
                data = json.load(f)
            self.assertNotIn("dump", data["records"][0]["output"])
            with open(paths["md"]) as f:
                self.assertIn("| buffer_copy |", f.read())

    def test_human_size(self):
        self.assertEqual(results.human_size(256 << 20, "bytes"), "256 MiB")
        self.assertEqual(results.human_size(1024, "n (n x n matrices)"), "1024")


if __name__ == "__main__":
    unittest.main()
