"""Shared set-up for the orchestrator's tests: import path, fake worker records."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
FAKE_WORKER = os.path.join(HERE, "fake_worker.py")

if BENCH not in sys.path:
    sys.path.insert(0, BENCH)

from benchrun import drivers  # noqa: E402

TESSERA_DEVICE = {"name": "Tessera (LLVM 19.1.7, 512 bits)", "driver_id": drivers.TESSERA_DRIVER_ID,
                  "driver_info": "Tessera 0.1.0"}
LAVAPIPE_DEVICE = {"name": "llvmpipe (LLVM 15.0.6, 256 bits)",
                   "driver_id": drivers.LLVMPIPE_DRIVER_ID, "driver_info": "Mesa 22.3.6"}
LAVAPIPE512_DEVICE = dict(LAVAPIPE_DEVICE, name="llvmpipe (LLVM 15.0.6, 512 bits)")

COPY_INFO = {"name": "buffer_copy", "description": "copy", "group": "transfer",
             "metric": "GB/s copied", "scale": 1e-9, "rate": True, "default_size": 1 << 20,
             "size_unit": "bytes", "scaling_sizes": [1 << 20], "default_reps": 3,
             "cold_caches": False}
DISPATCH_INFO = dict(COPY_INFO, name="dispatch_overhead", group="compute", metric="us/dispatch",
                     scale=1e6, rate=False)


def record(device, wall, status="ok", hash_="aa", compare="exact", work=None, **extra):
    rec = {"worker": "tessera-bench-worker", "status": status, "device": device, "wall_s": wall,
           "device_s": list(wall), "maxrss_kib": 2048,
           "work": work or {"units": 1e9, "bytes_read": 1e9, "bytes_written": 1e9, "flops": 0},
           "output": {"hash": hash_, "bytes": 16, "compare": compare}}
    rec.update(extra)
    return rec


def three_drivers(tmp_icd_dir):
    """Tessera, lavapipe and lavapipe-512 with manifests written under `tmp_icd_dir`."""
    lvp = os.path.join(tmp_icd_dir, "lvp_icd.json")
    tes = os.path.join(tmp_icd_dir, "tessera_icd.json")
    with open(lvp, "w") as f:
        f.write('{"ICD": {"library_path": "/usr/lib/x86_64-linux-gnu/libvulkan_lvp.so"}}')
    with open(tes, "w") as f:
        f.write('{"ICD": {"library_path": "libvulkan_tessera.so"}}')
    return drivers.make_drivers(tes, lvp, avx512=True)
