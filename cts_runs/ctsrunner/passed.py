"""Cases a driver has passed in the committed runs, and seeded samples of them.

A committed run counts a case once; a later change can break a case no run has looked at
since. Re-running a random sample of what passed before finds such regressions (session 27:
20,000 cases sampled this way found a binned-path bug that lost geometry-stage triangles).
"""

import random

from .results import find_result_files, read_csv
from .rundir import run_dirs


def passed_cases(runs_root, driver="tessera"):
    """The cases whose latest result for `driver` in the runs under runs_root (oldest run
    first) is Pass: a case made NotSupported on purpose later (sRGB vertex formats, 2026-11-24)
    or failing since is not a pass to re-check."""
    latest = {}
    for run_dir in run_dirs(runs_root):
        path = find_result_files(run_dir).get(driver)
        if path:
            for r in read_csv(path):
                latest[r.case] = r.status
    return {case for case, status in latest.items() if status == "Pass"}


def sample(cases, count, seed, only=(), exclude=()):
    """Up to `count` cases drawn with `seed` (the same draw for the same inputs), from those
    containing every substring in `only` and none in `exclude`; sorted."""
    pool = sorted(c for c in cases if all(s in c for s in only) and not any(s in c for s in exclude))
    if count >= len(pool):
        return pool
    return sorted(random.Random(seed).sample(pool, count))
