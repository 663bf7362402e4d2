"""Running all cases on one driver: shards in parallel, progress meanwhile."""

import concurrent.futures
import os
import threading
import time
from dataclasses import dataclass, field

from .shard import run_shard, split_round_robin

_TICK_SECONDS = 0.5


@dataclass
class DriverRun:
    driver: str
    results: list                 # CaseResult, in case-list order
    incidents: list = field(default_factory=list)
    seconds: float = 0.0


def run_driver(driver, cases, cfg, jobs, scratch_dir, progress=None):
    """Run `cases` in up to `jobs` parallel deqp-vk processes.

    The shards are driven from threads: the work happens in the child
    processes, the threads only read their stdout."""
    shards = split_round_robin(cases, jobs)
    cancel = threading.Event()
    began = time.monotonic()
    if progress:
        progress.start(driver, len(cases))
    on_result = progress.add if progress else None
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, len(shards))) as pool:
        futures = [pool.submit(run_shard, shard, cfg,
                               os.path.join(scratch_dir, "%s-shard%d" % (driver, i)),
                               on_result, cancel)
                   for i, shard in enumerate(shards)]
        try:
            pending = set(futures)
            while pending:
                done, pending = concurrent.futures.wait(
                    pending, timeout=_TICK_SECONDS,
                    return_when=concurrent.futures.FIRST_EXCEPTION)
                for f in done:
                    if f.exception() is not None:
                        raise f.exception()
                if progress:
                    progress.tick()
        except BaseException:
            # Ctrl-C or a failing shard: stop the others' processes too.
            cancel.set()
            concurrent.futures.wait(futures)
            raise
    if progress:
        progress.finish()

    by_case = {}
    incidents = []
    for f in futures:
        shard_results, shard_incidents = f.result()
        for r in shard_results:
            by_case[r.case] = r
        incidents += shard_incidents
    return DriverRun(driver, [by_case[c] for c in cases], incidents,
                     time.monotonic() - began)
