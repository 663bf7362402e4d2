"""Builds the worker and runs it: one process per (workload, driver, round), drivers
alternated within each round, every process pinned to the same CPUs with the same thread
count. Checks each process's device identity and compares outputs with the reference's."""

import json
import os
import shutil
import subprocess
import sys
import time

from . import compare, drivers as drv, machine

WORKER_NAME = "tessera-bench-worker"
GROUP_ORDER = ("transfer", "compute", "graphics", "pipeline")


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def build(repo, build_dir):
    """Configures the build directory if needed (as tools/dev does) and builds the worker
    and the ICD. Returns the worker's path."""
    if not any(os.path.exists(os.path.join(build_dir, f)) for f in ("build.ninja", "Makefile")):
        log("configuring %s" % build_dir)
        subprocess.run(["cmake", "-S", repo, "-B", build_dir, "-G", "Ninja",
                        "-DCMAKE_BUILD_TYPE=RelWithDebInfo"], check=True, stdout=sys.stderr)
    log("building %s and the ICD in %s" % (WORKER_NAME, build_dir))
    subprocess.run(["cmake", "--build", build_dir, "--target", WORKER_NAME, "tessera_icd"],
                   check=True, stdout=sys.stderr)
    return worker_path(build_dir)


def worker_path(build_dir):
    return os.path.join(build_dir, "bench", WORKER_NAME)


def schedule(drivers, rounds):
    """(round, driver) in run order: every round runs each driver once, in the same order,
    so drivers alternate A/B/A/B and slow drifts of the machine hit all of them alike."""
    return [(r, d) for r in range(rounds) for d in drivers]


def pinned(cmd, cpus):
    """`cmd` restricted to `cpus` with taskset (or sched_setaffinity where it is missing)."""
    if shutil.which("taskset"):
        return ["taskset", "-c", machine.format_cpu_list(cpus)] + cmd, None
    return cmd, (lambda: os.sched_setaffinity(0, cpus))


def parse_worker_output(stdout):
    """The worker's JSON line (the last line that parses as one)."""
    for line in reversed(stdout.splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                obj = json.loads(line)
            except ValueError:
                continue
            if obj.get("worker") == WORKER_NAME or "probe" in obj:
                return obj
    return None


def median_probe(recs):
    """One probe record whose numbers are the medians over recs (fields of the first otherwise)."""
    def median(values):
        values = sorted(values)
        return values[len(values) // 2]
    out = dict(recs[0])
    for key in ("memset_bytes_per_s", "memcpy_bytes_per_s", "seconds"):
        if all(key in r for r in recs):
            out[key] = median([r[key] for r in recs])
    widths = set().union(*(r.get("fma_flops_per_s", {}).keys() for r in recs))
    out["fma_flops_per_s"] = {w: median([r["fma_flops_per_s"][w] for r in recs if w in r.get("fma_flops_per_s", {})])
                              for w in widths}
    out["processes"] = len(recs)
    return out


def run_process(cmd, env, cpus, timeout):
    """Runs one worker process; returns its JSON record, or a failed record saying why."""
    full, preexec = pinned(cmd, cpus)
    start = time.monotonic()
    try:
        proc = subprocess.run(full, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=timeout, preexec_fn=preexec)
    except subprocess.TimeoutExpired:
        return {"status": "failed", "error": "timed out after %d s" % timeout}
    elapsed = time.monotonic() - start
    out = proc.stdout.decode("utf-8", "replace")
    err = proc.stderr.decode("utf-8", "replace")
    rec = parse_worker_output(out)
    if rec is None:
        how = ("killed by signal %d" % -proc.returncode if proc.returncode < 0
               else "exit code %d" % proc.returncode)
        tail = " | ".join(err.strip().splitlines()[-3:])
        rec = {"status": "failed", "error": "worker %s without a result%s" % (
            how, (": " + tail) if tail else "")}
    rec["elapsed_s"] = elapsed
    return rec


class Runner:
    def __init__(self, worker, drivers, scratch, timeout=900, base_env=None):
        self.worker = worker
        self.drivers = drivers
        self.scratch = scratch
        self.timeout = timeout
        self.base_env = dict(os.environ if base_env is None else base_env)
        self.processes_run = 0

    def list_workloads(self):
        """The worker's workloads: transfers, then compute, graphics, pipeline creation."""
        proc = subprocess.run([self.worker, "--list"], stdout=subprocess.PIPE, check=True)
        infos = [json.loads(line) for line in proc.stdout.decode().splitlines() if line.strip()]
        order = {g: i for i, g in enumerate(GROUP_ORDER)}
        return sorted(infos, key=lambda w: (order.get(w["group"], len(order)), w["name"]))

    # Probe processes per run. One process's memory bandwidth is not the machine's: on the
    # project's 2-core VM a process now and then runs every memset and memcpy ~1.6x faster than
    # the next (25 vs 43 GB/s), for its whole life, so a single probe could set a limit no
    # workload process would see. The median of three processes, per number, does not.
    PROBE_PROCESSES = 3

    def probe(self, cpus, threads):
        recs = []
        for _ in range(self.PROBE_PROCESSES):
            rec = run_process([self.worker, "--probe", "--threads", str(threads)],
                              self.base_env, cpus, 60)
            if rec.get("probe") != "roofline":
                raise RuntimeError("roofline probe failed: %s" % rec.get("error"))
            recs.append(rec)
        return median_probe(recs)

    def command(self, info, size, reps, warmup, driver, dump_dir, cache_dir):
        cmd = [self.worker, "--workload", info["name"], "--size", str(size), "--reps", str(reps),
               "--warmup", str(warmup), "--dump-dir", dump_dir, "--cache-dir", cache_dir]
        if driver.expect_driver_id is not None:
            cmd += ["--expect-driver-id", str(driver.expect_driver_id)]
        if driver.expect_name_prefix:
            cmd += ["--expect-name", driver.expect_name_prefix]
        return cmd

    def environment(self, info, driver, threads, config_dir, proc_dir):
        """Loader and thread settings, plus the disk-cache settings: a cold-cache workload
        gets an empty XDG_CACHE_HOME and HOME per process (so a disk cache starts empty
        wherever a driver keeps it) and the caches turned off where a driver has a switch
        (drivers.COLD_CACHE_ENV); the others share one cache directory per driver across
        the rounds of a configuration."""
        if info.get("cold_caches"):
            empty = os.path.join(proc_dir, "empty-home")
            os.makedirs(empty, exist_ok=True)
            extra = dict(drv.COLD_CACHE_ENV, XDG_CACHE_HOME=os.path.join(empty, ".cache"),
                         HOME=empty)
        else:
            extra = {"XDG_CACHE_HOME": os.path.join(config_dir, "xdg-cache-" + driver.key)}
        return drv.worker_env(self.base_env, driver, threads, extra)

    def run_config(self, info, size, reps, warmup, rounds, cpus, threads, progress=None):
        """All rounds of one workload configuration. Returns {driver key: [records]}."""
        config_dir = os.path.join(self.scratch, "%s-%d-t%d" % (info["name"], size, threads))
        os.makedirs(config_dir, exist_ok=True)
        records = {d.key: [] for d in self.drivers}
        stopped = set()
        for r, d in schedule(self.drivers, rounds):
            if d.key in stopped:
                continue
            proc_dir = os.path.join(config_dir, "%s-r%d" % (d.key, r))
            cache_dir = os.path.join(config_dir, "pipeline-cache-" + d.key)
            os.makedirs(proc_dir, exist_ok=True)
            os.makedirs(cache_dir, exist_ok=True)
            cmd = self.command(info, size, reps, warmup, d, proc_dir, cache_dir)
            env = self.environment(info, d, threads, config_dir, proc_dir)
            rec = run_process(cmd, env, cpus, self.timeout)
            rec["driver"], rec["round"] = d.key, r
            if rec.get("status") in ("ok", "unsupported"):
                problem = drv.identity_problem(d, rec.get("device"))
                if problem:
                    rec["identity_problem"] = problem
            elif rec.get("status") == "wrong-driver":
                rec["identity_problem"] = rec.get("reason", "wrong driver")
            records[d.key].append(rec)
            self.processes_run += 1
            if progress:
                progress(info, size, threads, r, rounds, d, rec)
            # Unsupported and failed stay so: later rounds would only repeat them.
            if rec.get("status") != "ok" or rec.get("identity_problem"):
                stopped.add(d.key)
        self.check_outputs(records)
        shutil.rmtree(config_dir, ignore_errors=True)
        return records

    def check_outputs(self, records):
        """Marks each successful record whose output differs from the reference driver's
        first successful output ("mismatch"); without one, records are compared with their
        own driver's first output and marked "unverified"."""
        def good(rec):
            return rec.get("status") == "ok" and not rec.get("identity_problem")

        ref = next((d for d in self.drivers if d.is_reference), None)
        ref_records = records.get(ref.key, []) if ref else []
        canonical = next((rec for rec in ref_records if good(rec)), None)
        for d in self.drivers:
            own = canonical or next((rec for rec in records[d.key] if good(rec)), None)
            for rec in records[d.key]:
                if not good(rec) or rec is own:
                    continue
                diff = compare.compare_outputs(rec.get("output") or {}, own.get("output") or {})
                if diff:
                    rec["mismatch"] = "%s (vs %s round %d)" % (diff, own["driver"],
                                                              own["round"] + 1)
            if canonical is None:
                for rec in records[d.key]:
                    rec["unverified"] = True
