"""Shared set-up for the runner's tests: import path and a fake CTS build."""

import json
import os
import shutil
import stat
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CTS_RUNS = os.path.dirname(HERE)
RUN_SCRIPT = os.path.join(CTS_RUNS, "run")
FAKE_SCRIPT = os.path.join(HERE, "fake_deqp_vk.py")

if CTS_RUNS not in sys.path:
    sys.path.insert(0, CTS_RUNS)


class FakeCts:
    """A directory holding a copy of the fake as "deqp-vk", the cases it
    knows, a log of its invocations and two ICD manifests."""

    def __init__(self, root, cases):
        self.root = root
        self.build_dir = os.path.join(root, "cts-build", "modules", "vulkan")
        os.makedirs(self.build_dir)
        self.deqp = os.path.join(self.build_dir, "deqp-vk")
        shutil.copy(FAKE_SCRIPT, self.deqp)
        os.chmod(self.deqp, os.stat(self.deqp).st_mode | stat.S_IXUSR)
        self.cases_file = os.path.join(root, "universe.txt")
        with open(self.cases_file, "w") as f:
            f.write("\n".join(cases) + "\n")
        self.invocation_log = os.path.join(root, "invocations.jsonl")
        self.tessera_icd = os.path.join(root, "tessera_icd.json")
        self.lavapipe_icd = os.path.join(root, "lvp_icd.x86_64.json")
        for icd in (self.tessera_icd, self.lavapipe_icd):
            with open(icd, "w") as f:
                f.write("{}\n")

    def env(self, **extra):
        env = dict(os.environ)
        env["FAKE_DEQP_CASES"] = self.cases_file
        env["FAKE_DEQP_INVOCATIONS"] = self.invocation_log
        env.pop("FAKE_DEQP_STARTUP", None)
        env.update(extra)
        return env

    def invocations(self):
        if not os.path.exists(self.invocation_log):
            return []
        with open(self.invocation_log) as f:
            return [json.loads(line) for line in f]
