#!/usr/bin/env python3
"""A stand-in for tessera-bench-worker: answers --list and --probe, and for --workload
prints a record for the driver that VK_DRIVER_FILES names. FAKE_WORKER_LOG (a file) gets
one JSON line per invocation; FAKE_WORKER_MODE tweaks the answer per driver:
"<icd basename>=wrong-device|wrong-hash|crash|unsupported" (comma-separated)."""

import json
import os
import sys

TESSERA = {"name": "Tessera (fake)", "driver_id": 0x7E55, "driver_info": "fake"}
LAVAPIPE = {"name": "llvmpipe (LLVM 15.0.6, 256 bits)", "driver_id": 13, "driver_info": "fake"}
INFO = {"name": "buffer_copy", "description": "copy", "group": "transfer", "metric": "GB/s copied",
        "scale": 1e-9, "rate": True, "default_size": 1024, "size_unit": "bytes",
        "scaling_sizes": [1024], "default_reps": 3, "cold_caches": False}


def main(argv):
    if "--list" in argv:
        print(json.dumps(INFO))
        return 0
    if "--probe" in argv:
        print(json.dumps({"probe": "roofline", "threads": 1, "bytes": 1 << 28,
                          "memset_bytes_per_s": 2e10, "memcpy_bytes_per_s": 1e10,
                          "fma_flops_per_s": {"256": 1e11}}))
        return 0
    icd = os.path.basename(os.environ.get("VK_DRIVER_FILES", ""))
    modes = dict(m.split("=", 1) for m in os.environ.get("FAKE_WORKER_MODE", "").split(",") if m)
    mode = modes.get(icd, "")
    log = os.environ.get("FAKE_WORKER_LOG")
    if log:
        with open(log, "a") as f:
            f.write(json.dumps({"icd": icd, "argv": argv, "env": {
                k: os.environ.get(k) for k in ("TESSERA_THREADS", "LP_NUM_THREADS",
                                               "LP_NATIVE_VECTOR_WIDTH", "VK_LOADER_LAYERS_DISABLE",
                                               "XDG_CACHE_HOME")}}) + "\n")
    if mode == "crash":
        sys.stderr.write("boom\n")
        os.abort()
    device = dict(TESSERA if icd.startswith("tessera") else LAVAPIPE)
    if os.environ.get("LP_NATIVE_VECTOR_WIDTH") == "512":
        device["name"] = device["name"].replace("256 bits", "512 bits")
    if mode == "wrong-device":
        device = LAVAPIPE if icd.startswith("tessera") else TESSERA
    rec = {"worker": "tessera-bench-worker", "workload": "buffer_copy", "device": device,
           "wall_s": [0.1, 0.1, 0.1], "device_s": [0.1, 0.1, 0.1], "maxrss_kib": 1000,
           "work": {"units": 1e9, "bytes_read": 1e9, "bytes_written": 1e9, "flops": 0},
           "output": {"hash": "bad" if mode == "wrong-hash" else "good", "bytes": 8,
                      "compare": "exact"},
           "status": "unsupported" if mode == "unsupported" else "ok"}
    print(json.dumps(rec))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
