"""Facts recorded with a run: machine, Tessera commit, CTS version."""

import os
import platform
import re
import subprocess

DEFAULT_CTS_VERSION = "vulkan-cts-1.3.10.0"


def cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def usable_cores():
    """Cores this process may run on (taskset, cgroup cpusets), which can be
    fewer than the machine has."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def describe_machine():
    total = os.cpu_count() or 1
    usable = usable_cores()
    cores = "%d cores" % total if usable == total else "%d cores (%d usable)" % (total, usable)
    return "%s, %s" % (cpu_model(), cores)


def _git(repo, *args):
    try:
        proc = subprocess.run(["git", "-C", repo] + list(args), stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout.decode("utf-8", "replace").strip() if proc.returncode == 0 else None


def git_commit(repo):
    """HEAD of the Tessera checkout, marked "(dirty)" when tracked files
    differ from it: then the results are not exactly that commit's."""
    head = _git(repo, "rev-parse", "HEAD")
    if not head:
        return "unknown (no git commit)"
    if _git(repo, "status", "--porcelain", "--untracked-files=no"):
        head += " (dirty)"
    return head


def _release_from_build(start_dir):
    """The CTS release of a build tree: the build writes
    framework/qphelper/qpReleaseInfo.inl from `git describe --long`
    (e.g. "vulkan-cts-1.3.10.0-0-g<sha>"); failing that, the source tree
    named in CMakeCache.txt is asked for its tag."""
    d = os.path.abspath(start_dir)
    while True:
        cache = os.path.join(d, "CMakeCache.txt")
        if os.path.isfile(cache):
            info = os.path.join(d, "framework", "qphelper", "qpReleaseInfo.inl")
            if os.path.isfile(info):
                with open(info, encoding="utf-8", errors="replace") as f:
                    m = re.search(r'DEQP_RELEASE_NAME\s+"([^"]+)"', f.read())
                if m:
                    # "<tag>-0-g<sha>" is exactly the tag; keep anything else.
                    return re.sub(r"-0-g[0-9a-f]+$", "", m.group(1))
            with open(cache, encoding="utf-8", errors="replace") as f:
                m = re.search(r"^CMAKE_HOME_DIRECTORY:INTERNAL=(.*)$", f.read(), re.M)
            if m:
                return _git(m.group(1).strip(), "describe", "--tags", "--always")
            return None
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


def cts_version(deqp, override=None):
    """--cts-version, else a cts-version.txt next to deqp-vk (for copied
    builds), else the build tree's release, else the pinned default."""
    if override:
        return override
    bin_dir = os.path.dirname(os.path.realpath(deqp))
    marker = os.path.join(bin_dir, "cts-version.txt")
    if os.path.isfile(marker):
        with open(marker, encoding="utf-8") as f:
            text = f.read().strip()
        if text:
            return text
    return _release_from_build(bin_dir) or DEFAULT_CTS_VERSION
