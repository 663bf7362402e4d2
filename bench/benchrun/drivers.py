"""The drivers a benchmark run compares and the environment that selects each one."""

import json
import os
from dataclasses import dataclass, field

TESSERA_DRIVER_ID = 0x7E55
LLVMPIPE_DRIVER_ID = 13  # VK_DRIVER_ID_MESA_LLVMPIPE
LAVAPIPE_ICD = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"
TESSERA_ICD = os.path.join("build", "icd", "tessera_icd.json")  # relative to the repo root

# Set for cold-cache workloads (pipeline_create_cold): every driver's switch that turns its
# on-disk shader cache off. The runner also gives those processes an empty HOME and
# XDG_CACHE_HOME, so a cache without a switch starts empty anyway.
COLD_CACHE_ENV = {"MESA_SHADER_CACHE_DISABLE": "true", "TESSERA_SHADER_CACHE": "0"}

# Variables that would add, filter or layer drivers behind the harness's back, and the
# ones the harness sets itself.
_STRIPPED = ("VK_ADD_DRIVER_FILES", "VK_LOADER_DRIVERS_SELECT", "VK_LOADER_DRIVERS_DISABLE",
             "VK_INSTANCE_LAYERS", "VK_LOADER_LAYERS_ENABLE", "VK_ADD_LAYER_PATH",
             "TESSERA_THREADS", "LP_NUM_THREADS", "LP_NATIVE_VECTOR_WIDTH",
             "MESA_SHADER_CACHE_DISABLE", "MESA_SHADER_CACHE_DIR", "XDG_CACHE_HOME",
             "TESSERA_SHADER_CACHE", "TESSERA_SHADER_CACHE_DIR")


@dataclass
class Driver:
    key: str                      # "tessera", "lavapipe", "lavapipe-512", or a given name
    label: str                    # column header
    icd: str                      # manifest path
    threads_var: str = None       # environment variable that sets its thread count
    env: dict = field(default_factory=dict)  # further variables (LP_NATIVE_VECTOR_WIDTH)
    expect_driver_id: int = None
    expect_name_prefix: str = None
    expect_name_contains: str = None
    is_tessera: bool = False
    is_reference: bool = False


def is_lavapipe_manifest(path):
    """Whether a manifest names Mesa's lavapipe library (libvulkan_lvp.so)."""
    try:
        with open(path, encoding="utf-8") as f:
            library = json.load(f).get("ICD", {}).get("library_path", "")
    except (OSError, ValueError):
        return False
    return "vulkan_lvp" in os.path.basename(library)


def make_drivers(tessera_icd, reference_icd, reference_name=None, avx512=False):
    """Tessera, the reference, and, when the reference is lavapipe and the CPU has
    AVX-512, lavapipe again with LP_NATIVE_VECTOR_WIDTH=512 (its default stays at 256 bits)."""
    drivers = [Driver("tessera", "Tessera", tessera_icd, threads_var="TESSERA_THREADS",
                      expect_driver_id=TESSERA_DRIVER_ID, expect_name_prefix="Tessera",
                      is_tessera=True)]
    if is_lavapipe_manifest(reference_icd):
        name = reference_name or "lavapipe"
        drivers.append(Driver(name, name, reference_icd, threads_var="LP_NUM_THREADS",
                              expect_driver_id=LLVMPIPE_DRIVER_ID, expect_name_prefix="llvmpipe",
                              is_reference=True))
        if avx512:
            drivers.append(Driver(name + "-512", name + "-512", reference_icd,
                                  threads_var="LP_NUM_THREADS",
                                  env={"LP_NATIVE_VECTOR_WIDTH": "512"},
                                  expect_driver_id=LLVMPIPE_DRIVER_ID,
                                  expect_name_prefix="llvmpipe", expect_name_contains="512 bits"))
    else:
        name = reference_name or os.path.splitext(os.path.basename(reference_icd))[0]
        drivers.append(Driver(name, name, reference_icd, is_reference=True))
    return drivers


def identity_problem(driver, device):
    """Why the device a worker reported is not the driver that was asked for, or None.
    Any driver but Tessera must at least not be Tessera: a silent fallback never passes."""
    if not device:
        return "the worker reported no device"
    name = device.get("name", "")
    driver_id = device.get("driver_id")
    if driver.expect_driver_id is not None and driver_id != driver.expect_driver_id:
        return "driverID %s, expected %s (device %r)" % (driver_id, driver.expect_driver_id, name)
    if driver.expect_name_prefix and not name.startswith(driver.expect_name_prefix):
        return "device %r does not start with %r" % (name, driver.expect_name_prefix)
    if driver.expect_name_contains and driver.expect_name_contains not in name:
        return "device %r does not contain %r" % (name, driver.expect_name_contains)
    if not driver.is_tessera and (driver_id == TESSERA_DRIVER_ID or name.startswith("Tessera")):
        return "device %r is Tessera, not the reference" % name
    return None


def worker_env(base_env, driver, threads, extra=None):
    """`base_env` with the loader pointed at exactly `driver`'s manifest, no layers (not even
    implicit ones), and the thread count set for the driver."""
    env = {k: v for k, v in base_env.items() if k not in _STRIPPED}
    icd = os.path.abspath(driver.icd)
    env["VK_DRIVER_FILES"] = icd
    env["VK_ICD_FILENAMES"] = icd  # loaders older than 1.3.207
    env["VK_LOADER_LAYERS_DISABLE"] = "~all~"
    env["NODEVICE_SELECT"] = "1"  # Mesa's device-select layer, for loaders that ignore the above
    if driver.threads_var:
        env[driver.threads_var] = str(threads)
    env.update(driver.env)
    env.update(extra or {})
    return env
