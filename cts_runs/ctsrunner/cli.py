"""Command line of cts_runs/run: list, run on each driver, write the run
directory, update LATEST.md, check the expectations."""

import argparse
import datetime
import os
import resource
import shutil
import sys
import tempfile
import time

from . import caselist, drivers, expectations, latest, machine, rundir, summary
from .crashlog import write_crash_log
from .execute import run_driver
from .progress import Progress
from .results import write_csv
from .shard import ShardConfig

CTS_RUNS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO_ROOT = os.path.dirname(CTS_RUNS)
DEFAULT_EXPECTATIONS = os.path.join(CTS_RUNS, "expectations", "tessera.txt")

# The limit while no case runs (start-up, group set-up) is never below this,
# so that a short --timeout does not cut deqp-vk's start.
MIN_IDLE_TIMEOUT = 30.0


class UsageError(Exception):
    pass


def build_parser():
    p = argparse.ArgumentParser(
        prog="cts_runs/run",
        description="Run Vulkan CTS cases on Tessera and/or lavapipe, sharded over "
                    "parallel deqp-vk processes, with crash and hang isolation.")
    p.add_argument("deqp", help="path of the deqp-vk binary")
    p.add_argument("selection", nargs="*", metavar="PATTERN|FILE",
                   help="case patterns such as 'dEQP-VK.api.smoke.*' (deqp-vk wildcards), "
                        "or case-list files (an existing file is read as a case list)")
    p.add_argument("--caselist", action="append", default=[], metavar="FILE",
                   help="case-list file: one case (or pattern, or sub-list .txt) per line")
    p.add_argument("--driver", action="append", choices=drivers.DRIVERS,
                   help="driver to run (repeat for both; default: both)")
    p.add_argument("--jobs", "-j", type=int, default=machine.usable_cores(),
                   help="parallel deqp-vk processes per driver (default: usable cores, %(default)s)")
    p.add_argument("--timeout", type=float, default=60.0,
                   help="seconds one case may run before it counts as Timeout (default %(default)g)")
    p.add_argument("--tessera-icd", default=os.path.join(REPO_ROOT, drivers.TESSERA_ICD),
                   help="Tessera's ICD manifest (default: build/icd/tessera_icd.json of the repo)")
    p.add_argument("--lavapipe-icd", default=drivers.LAVAPIPE_ICD,
                   help="lavapipe's ICD manifest (default %(default)s)")
    p.add_argument("--env", action="append", default=[], metavar="KEY=VALUE",
                   help="extra environment variable for deqp-vk (repeatable)")
    p.add_argument("--name", help="run name (default: derived from the patterns)")
    p.add_argument("--out", help="output directory (default: cts_runs/<YYYY-MM-DD>-<name>)")
    p.add_argument("--runs-root", default=CTS_RUNS,
                   help="directory of the run directories and LATEST.md (default: cts_runs/)")
    p.add_argument("--group-depth", type=int, default=3,
                   help="dotted components forming a group in summary.md (default %(default)s)")
    p.add_argument("--cts-version",
                   help="CTS version to record (default: read from the deqp-vk build, "
                        "else %s)" % machine.DEFAULT_CTS_VERSION)
    p.add_argument("--expectations", default=DEFAULT_EXPECTATIONS,
                   help="known Tessera failures (default: cts_runs/expectations/tessera.txt)")
    p.add_argument("--check", action="store_true",
                   help="exit with status 1 when Tessera fails a case not in the expectations")
    p.add_argument("--no-latest", action="store_true",
                   help="do not update LATEST.md (it is never updated for an --out "
                        "outside the runs root)")
    p.add_argument("--warm-shader-caches", action="store_true",
                   help="let the drivers use the user's shader caches as they are (default: "
                        "each driver starts with an empty cache of its own, so that their wall "
                        "times compare like with like)")
    p.add_argument("--keep-temp", action="store_true",
                   help="keep the scratch directory with per-shard .qpa logs and stderr")
    p.add_argument("--every", type=int, default=1, metavar="N",
                   help="run every Nth case of the selection, in deqp-vk's order, starting with "
                        "the first (a fixed fraction of a large selection: the CI subset)")
    p.add_argument("--progress-interval", type=float, default=60.0,
                   help="seconds between progress lines when stdout is not a terminal")
    return p


def _parse_env(items):
    env = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError("--env expects KEY=VALUE, got %r" % item)
        env[key] = value
    return env


def _check_args(args):
    if not (os.path.isfile(args.deqp) and os.access(args.deqp, os.X_OK)):
        raise UsageError("%s is not an executable file" % args.deqp)
    patterns = [s for s in args.selection if not os.path.isfile(s)]
    files = [s for s in args.selection if os.path.isfile(s)] + args.caselist
    for f in args.caselist + [p for p in patterns if p.endswith(".txt")]:
        if not os.path.isfile(f):
            raise UsageError("case-list file %s not found" % f)
    if not patterns and not files:
        raise UsageError("give at least one case pattern or case-list file")
    if args.jobs < 1 or args.timeout <= 0 or args.group_depth < 1 or args.every < 1:
        raise UsageError("--jobs, --timeout, --group-depth and --every must be positive")
    selected = args.driver or list(drivers.DRIVERS)
    selected = [d for d in drivers.DRIVERS if d in selected]  # de-duplicated, fixed order
    icds = {drivers.TESSERA: args.tessera_icd, drivers.LAVAPIPE: args.lavapipe_icd}
    for d in selected:
        if not os.path.isfile(icds[d]):
            hint = " (build Tessera first, or pass --tessera-icd)" if d == drivers.TESSERA else ""
            raise UsageError("ICD manifest for %s not found: %s%s" % (d, icds[d], hint))
    return patterns, files, selected, icds


def _display_path(path):
    """Repository-relative when inside the repository, else absolute."""
    path = os.path.abspath(path)
    return os.path.relpath(path, REPO_ROOT) if rundir.is_inside(path, REPO_ROOT) else path


def _disable_core_dumps():
    """A crashing case in a CTS run of a million cases must not leave a core
    file each; children inherit this limit."""
    try:
        _, hard = resource.getrlimit(resource.RLIMIT_CORE)
        resource.setrlimit(resource.RLIMIT_CORE, (0, hard))
    except (ValueError, OSError):
        pass


def main(argv=None, stdout=None):
    stdout = stdout or sys.stdout
    # Intermixed: patterns may come after options (run deqp-vk --jobs 2 PATTERN).
    args = build_parser().parse_intermixed_args(argv)
    try:
        return _run(args, stdout)
    except (UsageError, caselist.CaseListError, expectations.ExpectationError) as e:
        print("cts_runs/run: error: %s" % e, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ncts_runs/run: interrupted", file=sys.stderr)
        return 130


def _run(args, stdout):
    patterns, files, selected, icds = _check_args(args)
    extra_env = _parse_env(args.env)
    expect = None
    if drivers.TESSERA in selected:
        expect = expectations.load(args.expectations)  # fail early on a bad file

    began = time.monotonic()
    now = datetime.datetime.now().astimezone()
    name = args.name or rundir.derive_name(patterns, files)
    out_dir = args.out or rundir.default_run_dir(args.runs_root, now.strftime("%Y-%m-%d"), name)
    _disable_core_dumps()
    # Taken before the run: the tree may change while it goes on.
    commit = machine.git_commit(REPO_ROOT)
    cts_version = machine.cts_version(args.deqp, args.cts_version)

    envs = {d: drivers.driver_env(os.environ, icds[d], extra_env) for d in selected}
    scratch = tempfile.mkdtemp(prefix="cts-run-")
    if not args.warm_shader_caches:
        # Mesa keeps compiled shaders across processes and runs, and so does Tessera, whose
        # cache a new build leaves cold: with the user's caches, a run compares a warm
        # lavapipe with a cold Tessera (20 multisample cases: lavapipe 1.5 s warm, 33 s cold;
        # Tessera 1.2 s warm, 5 s cold). Each driver gets an empty directory of its own.
        for d in selected:
            envs[d].update(drivers.cache_env(os.path.join(scratch, "shader-cache-" + d)))
    # Listing loads no driver as far as deqp-vk goes, but should one be
    # touched, the reference driver is the safer one.
    list_env = envs.get(drivers.LAVAPIPE) or envs[selected[0]]
    try:
        if patterns and stdout.isatty():
            stdout.write("listing cases...\r")
            stdout.flush()
        cases = caselist.resolve_cases(args.deqp, patterns, files, list_env, scratch)
        if not cases:
            raise UsageError("no cases match %s" % ", ".join(patterns + files))
        cases = cases[::args.every]
        progress = Progress(stdout, interval=args.progress_interval)
        runs = {}
        for d in selected:  # one driver at a time: each gets all the cores
            cfg = ShardConfig(deqp=args.deqp, env=envs[d], timeout=args.timeout,
                              idle_timeout=max(args.timeout, MIN_IDLE_TIMEOUT),
                              keep_logs=args.keep_temp)
            runs[d] = run_driver(d, cases, cfg, args.jobs, scratch, progress)
    finally:
        if args.keep_temp:
            print("scratch files kept in %s" % scratch, file=sys.stderr)
        else:
            shutil.rmtree(scratch, ignore_errors=True)

    os.makedirs(out_dir, exist_ok=True)
    results_by_driver = {d: r.results for d, r in runs.items()}
    crash_logs = {}
    for d, r in runs.items():
        write_csv(out_dir, d, r.results)
        log = write_crash_log(out_dir, d, r.incidents)
        if log:
            crash_logs[d] = os.path.basename(log)

    unexpected = stale = None
    if expect is not None:
        unexpected = expect.unexpected_failures(results_by_driver[drivers.TESSERA])
        stale = expect.stale(results_by_driver[drivers.TESSERA])

    info = summary.RunInfo(
        name=name, started=now.isoformat(timespec="seconds"),
        wall_seconds=time.monotonic() - began,
        cts_version=cts_version, commit=commit, machine=machine.describe_machine(),
        jobs=args.jobs, timeout=args.timeout,
        selection=patterns + files + (["one case in %d" % args.every] if args.every > 1 else []),
        driver_seconds={d: r.seconds for d, r in runs.items()}, crash_logs=crash_logs,
        shader_caches="user" if args.warm_shader_caches else "empty")
    rundir.write_run_json(out_dir, {
        "name": info.name, "started": info.started, "wall_seconds": round(info.wall_seconds, 1),
        "cts_version": info.cts_version, "commit": info.commit, "machine": info.machine,
        "drivers": selected, "jobs": args.jobs, "timeout": args.timeout,
        "selection": info.selection, "cases": len(cases),
        "driver_seconds": {d: round(s, 1) for d, s in info.driver_seconds.items()},
        "shader_caches": info.shader_caches,
    })
    summary_path = os.path.join(out_dir, "summary.md")
    with open(summary_path, "w", encoding="utf-8") as f:
        f.write(summary.render(info, results_by_driver, args.group_depth, unexpected, stale,
                               _display_path(args.expectations)))

    if not args.no_latest and rundir.is_inside(out_dir, args.runs_root):
        latest.update(args.runs_root)

    print(summary_path, file=stdout)
    stdout.flush()
    if args.check and unexpected:
        print("%d Tessera failures not in %s:" % (len(unexpected), args.expectations),
              file=sys.stderr)
        for r in unexpected:
            print("  %s  %s" % (r.status, r.case), file=sys.stderr)
        return 1
    return 0
