"""Facts recorded with a run (CPU, cores, load, commit) and CPU-list helpers."""

import os
import platform
import subprocess


def parse_cpu_list(text):
    """"0-3,6" -> [0, 1, 2, 3, 6] (sorted, unique)."""
    cpus = set()
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if "-" in part:
            lo, hi = part.split("-", 1)
            lo, hi = int(lo), int(hi)
            if hi < lo:
                raise ValueError("bad CPU range %r" % part)
            cpus.update(range(lo, hi + 1))
        else:
            cpus.add(int(part))
    if not cpus:
        raise ValueError("empty CPU list %r" % text)
    return sorted(cpus)


def format_cpu_list(cpus):
    """[0, 1, 2, 3, 6] -> "0-3,6"."""
    cpus = sorted(set(cpus))
    parts, start = [], None
    for i, c in enumerate(cpus):
        if start is None:
            start = c
        if i + 1 == len(cpus) or cpus[i + 1] != c + 1:
            parts.append(str(start) if start == c else "%d-%d" % (start, c))
            start = None
    return ",".join(parts)


def usable_cpus():
    try:
        return sorted(os.sched_getaffinity(0))
    except AttributeError:
        return list(range(os.cpu_count() or 1))


def cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def cpu_flags():
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def has_avx512():
    return "avx512f" in cpu_flags()


def load_average():
    try:
        return os.getloadavg()[0]
    except OSError:
        return None


def _git(repo, *args):
    try:
        proc = subprocess.run(["git", "-C", repo] + list(args), stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout.decode("utf-8", "replace").strip() if proc.returncode == 0 else None


def git_commit(repo):
    """HEAD, marked "(dirty)" when tracked files differ from it."""
    head = _git(repo, "rev-parse", "HEAD")
    if not head:
        return "unknown (no git commit)"
    if _git(repo, "status", "--porcelain", "--untracked-files=no"):
        head += " (dirty)"
    return head


def build_type(build_dir):
    try:
        with open(os.path.join(build_dir, "CMakeCache.txt"), encoding="utf-8") as f:
            for line in f:
                if line.startswith("CMAKE_BUILD_TYPE:"):
                    return line.split("=", 1)[1].strip() or "(none)"
    except OSError:
        pass
    return "unknown"
