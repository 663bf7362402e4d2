"""The drivers a run can use and the environment that selects each one."""

import os

TESSERA = "tessera"
LAVAPIPE = "lavapipe"
DRIVERS = (TESSERA, LAVAPIPE)

LAVAPIPE_ICD = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json"
TESSERA_ICD = os.path.join("build", "icd", "tessera_icd.json")  # relative to the repo root

# Loader variables that would add or filter drivers behind the runner's back.
_LOADER_OVERRIDES = ("VK_ADD_DRIVER_FILES", "VK_LOADER_DRIVERS_SELECT",
                     "VK_LOADER_DRIVERS_DISABLE")


def driver_env(base_env, icd_path, extra=None):
    """`base_env` with the Vulkan loader pointed at exactly one ICD.

    VK_DRIVER_FILES is the current loader's name for it; VK_ICD_FILENAMES
    is set too for loaders older than 1.3.207."""
    env = {k: v for k, v in base_env.items() if k not in _LOADER_OVERRIDES}
    icd = os.path.abspath(icd_path)
    env["VK_DRIVER_FILES"] = icd
    env["VK_ICD_FILENAMES"] = icd
    env.update(extra or {})
    return env


def cache_env(directory):
    """Variables that point Mesa's and Tessera's shader caches at `directory`.

    XDG_CACHE_HOME is where both put theirs by default; their own variables
    are set too, since they take precedence over it."""
    return {"XDG_CACHE_HOME": directory, "MESA_SHADER_CACHE_DIR": directory,
            "TESSERA_SHADER_CACHE_DIR": directory}
