"""One shard: runs a list of cases in deqp-vk, one process after another.

A case that crashes deqp-vk, or runs past the timeout, is recorded as Crash
or Timeout and a new process continues with the cases not yet done, so one
bad case costs one result, not the rest of the shard."""

import collections
import os
import selectors
import signal
import subprocess
import time
from dataclasses import dataclass

from . import deqp_cli
from .deqp_output import Done, LineSplitter, Start, Status, parse_line
from .results import MISSING, NO_RESULT, CaseResult

# When deqp-vk dies this many times in a row before starting any case
# (a driver that cannot create an instance, a broken binary), the rest of
# the shard is marked failed instead of blaming the cases one by one.
MAX_BLIND_FAILURES = 3

# Lines of a crashing case's stdout and of the process's stderr kept for
# the crash log.
TAIL_LINES = 20

# How often a waiting shard looks at the cancel flag (Ctrl-C).
_POLL_SECONDS = 0.25


def split_round_robin(cases, n):
    """Deal the cases out like cards into at most n non-empty shards.

    Slow and fast groups are spread over all shards, so they finish at about
    the same time; each shard keeps the cases' relative order, which is the
    order deqp-vk runs them in anyway."""
    n = max(1, min(n, len(cases)))
    return [cases[i::n] for i in range(n)] if cases else []


@dataclass
class ShardConfig:
    deqp: str
    env: dict
    timeout: float = 60.0       # limit for one case, from its "Test case" line
    idle_timeout: float = 60.0  # limit while no case runs (start-up, group setup)
    keep_logs: bool = False     # keep the .qpa logs and stderr in the shard dir


@dataclass
class Incident:
    """A crash or hang, with what the process printed, for the crash log."""
    case: str
    status: str
    detail: str


class Cancelled(Exception):
    pass


@dataclass
class _Attempt:
    unfinished: str = None      # the case running when the process ended
    unfinished_seconds: float = 0.0
    done: bool = False          # deqp printed DONE!: the session ended normally
    timed_out: bool = False
    returncode: int = 0
    detail: str = ""


def run_shard(cases, cfg, shard_dir, on_result=None, cancel=None):
    """Run `cases`; return (results in the order of `cases`, incidents)."""
    os.makedirs(shard_dir, exist_ok=True)
    results = {}
    incidents = []

    def record(result):
        if result.case not in results:
            results[result.case] = result
            if on_result:
                on_result(result)

    remaining = list(cases)
    blind_failures = 0
    attempt = 0
    while remaining:
        attempt += 1
        wanted = set(remaining)
        out = _run_attempt(remaining, cfg, shard_dir, attempt, cancel,
                           lambda r: record(r) if r.case in wanted else None)
        failure = "Timeout" if out.timed_out else "Crash"
        if out.unfinished is not None and out.unfinished in wanted:
            record(CaseResult(out.unfinished, failure, out.unfinished_seconds))
            incidents.append(Incident(out.unfinished, failure, out.detail))
        elif out.done and out.returncode < 0:
            # Every case reported, then a crash while tearing down (device
            # destruction): no case to blame, but worth a look.
            incidents.append(Incident("(after its last case)", "Crash", out.detail))
        # Progress means fewer cases left, not merely output: every pass of
        # this loop either shrinks `remaining` or ends it.
        before = len(remaining)
        remaining = [c for c in remaining if c not in results]
        progressed = len(remaining) < before
        if not remaining:
            break
        if out.done:
            # A session can end early on purpose (ResourceError, a lost
            # device); only a session that ran none of them says the rest
            # do not exist in this deqp-vk.
            if not progressed:
                for c in remaining:
                    record(CaseResult(c, MISSING, 0.0))
                break
            continue
        if progressed:
            blind_failures = 0
            continue
        # The process died, or hung, before its first case; deqp-vk runs in
        # the listed (hierarchy) order, so the next case is the likely cause.
        blind_failures += 1
        if blind_failures >= MAX_BLIND_FAILURES:
            incidents.append(Incident(
                remaining[0], failure,
                "deqp-vk failed %d times in a row before starting a case; the "
                "remaining %d cases of this shard were not run.\n%s"
                % (blind_failures, len(remaining), out.detail)))
            for c in remaining:
                record(CaseResult(c, failure, 0.0))
            break
        record(CaseResult(remaining[0], failure, 0.0))
        incidents.append(Incident(remaining[0], failure,
                                  "(no case had started; blamed the next one)\n" + out.detail))
        remaining = remaining[1:]
    return [results[c] for c in cases], incidents


def _run_attempt(cases, cfg, shard_dir, attempt, cancel, report):
    list_path = os.path.join(shard_dir, "caselist.txt")
    with open(list_path, "w", encoding="utf-8") as f:
        f.write("\n".join(cases) + "\n")
    qpa = os.path.join(shard_dir, "attempt-%d.qpa" % attempt) if cfg.keep_logs else None
    err_path = os.path.join(shard_dir, "stderr-%d.txt" % attempt)
    cmd = deqp_cli.execution_command(cfg.deqp, list_path, shard_dir, qpa)

    out = _Attempt()
    tail = collections.deque(maxlen=TAIL_LINES)
    with open(err_path, "wb") as err:
        # A session of its own, so that a hung case is killed together with
        # anything it started, and Ctrl-C reaches only the runner.
        proc = subprocess.Popen(cmd, cwd=deqp_cli.working_dir(cfg.deqp), env=cfg.env,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=err, start_new_session=True)
    try:
        _watch(proc, cfg, cancel, report, out, tail)
        try:
            # stdout closed: the process is exiting (atexit handlers, driver
            # teardown); give it the idle limit to do so.
            proc.wait(timeout=cfg.idle_timeout)
        except subprocess.TimeoutExpired:
            out.timed_out = True
    finally:
        if proc.poll() is None:  # timed out, cancelled, or a runner error
            _kill(proc)
        proc.stdout.close()
        out.returncode = proc.wait()
    if out.unfinished is not None or not out.done or out.returncode < 0:
        out.detail = _describe(out, tail, err_path)
    if not cfg.keep_logs:
        os.remove(err_path)
    return out


def _watch(proc, cfg, cancel, report, out, tail):
    fd = proc.stdout.fileno()
    splitter = LineSplitter()
    current = None
    started = last_activity = time.monotonic()
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        while True:
            now = time.monotonic()
            deadline = (started + cfg.timeout) if current else (last_activity + cfg.idle_timeout)
            if now >= deadline:
                out.timed_out = True
                _kill(proc)
                break
            if cancel is not None and cancel.is_set():
                _kill(proc)
                raise Cancelled()
            if not sel.select(min(deadline - now, _POLL_SECONDS)):
                continue
            chunk = os.read(fd, 65536)
            lines = splitter.feed(chunk) if chunk else splitter.flush()
            for line in lines:
                event = parse_line(line, current is not None)
                now = time.monotonic()
                if isinstance(event, Start):
                    if current is not None:
                        report(CaseResult(current, NO_RESULT, now - started))
                    current, started = event.case, now
                    tail.clear()
                elif isinstance(event, Status):
                    report(CaseResult(current, event.status, now - started))
                    current, last_activity = None, now
                elif isinstance(event, Done):
                    out.done = True
                tail.append(line)
            if not chunk:  # EOF: the process has exited (or closed stdout)
                break
    if current is not None:
        out.unfinished = current
        out.unfinished_seconds = time.monotonic() - started


def _kill(proc):
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def describe_exit(returncode, timed_out):
    if timed_out:
        return "killed by the runner after the timeout"
    if returncode < 0:
        try:
            return "killed by signal %s" % signal.Signals(-returncode).name
        except ValueError:
            return "killed by signal %d" % -returncode
    return "exit status %d" % returncode


def _describe(out, tail, err_path):
    lines = ["exit: " + describe_exit(out.returncode, out.timed_out), "stdout (last lines):"]
    lines += ["  " + l for l in tail]
    lines.append("stderr (last lines):")
    try:
        with open(err_path, "rb") as f:
            f.seek(0, os.SEEK_END)
            f.seek(max(0, f.tell() - 8192))
            err_tail = f.read().decode("utf-8", "replace").splitlines()[-TAIL_LINES:]
    except OSError:
        err_tail = []
    lines += ["  " + l for l in err_tail]
    return "\n".join(lines)
