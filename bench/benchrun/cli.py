"""bench/run: Tessera's benchmarks side by side with a reference driver. See bench/README.md."""

import argparse
import datetime
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

from . import aggregate, drivers as drv, machine, results, runner, stats, table

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GROUPS = runner.GROUP_ORDER
QUIET_LOAD = 0.5  # load average below which the machine counts as quiet


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="bench/run",
        description="Build the benchmarks and run each workload on Tessera and on a reference "
                    "driver (lavapipe by default), one process per driver and round, drivers "
                    "alternated; print the table and write it with a chart under "
                    "bench/results/<date>/.")
    p.add_argument("workloads", nargs="*",
                   help="workload names or groups (%s); default: all" % ", ".join(GROUPS))
    p.add_argument("--list", action="store_true", help="list the workloads and exit")
    p.add_argument("--reference", default=drv.LAVAPIPE_ICD, metavar="ICD_JSON",
                   help="the reference driver's manifest (default: lavapipe, %(default)s)")
    p.add_argument("--reference-name", help="its column name (default: lavapipe, or the file name)")
    p.add_argument("--tessera-icd", metavar="ICD_JSON",
                   help="Tessera's manifest (default: BUILD_DIR/icd/tessera_icd.json)")
    p.add_argument("--no-512", action="store_true",
                   help="no lavapipe column with LP_NATIVE_VECTOR_WIDTH=512 on AVX-512 machines")
    p.add_argument("--build-dir", default=os.path.join(REPO, "build"))
    p.add_argument("--no-build", action="store_true", help="use the worker and ICD as built")
    p.add_argument("--cpus", help="CPU list for every process, e.g. 0-3 (default: all usable)")
    p.add_argument("--threads", type=int, help="driver threads (default: number of --cpus)")
    p.add_argument("--rounds", type=int, default=5,
                   help="processes per driver and workload, alternated (default 5)")
    p.add_argument("--reps", type=int,
                   help="timed repetitions per process (default: the workload's)")
    p.add_argument("--warmup", type=int, default=1, help="warm-up repetitions per process")
    p.add_argument("--size", type=int, help="problem size (one workload only; see --list)")
    p.add_argument("--scaling", choices=("threads", "sizes"),
                   help="speed-up over 1..N threads, or each workload at growing sizes")
    p.add_argument("--noisy", type=float, default=100 * stats.DEFAULT_NOISY_SPREAD, metavar="PCT",
                   help="spread above which a result is marked noisy (default %(default)s%%)")
    p.add_argument("--timeout", type=int, default=900, help="seconds per worker process")
    p.add_argument("--out", help="results directory (default: bench/results/<date>)")
    p.add_argument("--no-write", action="store_true", help="print only; write no files")
    p.add_argument("--compare", metavar="OLD_JSON",
                   help="after the run, say which results agree with this earlier run's")
    p.add_argument("--against", metavar="NEW_JSON",
                   help="with --compare: compare these two result files, without running")
    p.add_argument("--driver", help="with --print-command/--profile: tessera, lavapipe, ...")
    p.add_argument("--print-command", action="store_true",
                   help="print the environment and command of one worker process and exit")
    p.add_argument("--profile", choices=("perf", "callgrind"),
                   help="run one workload once on --driver under perf record or callgrind")
    args = p.parse_args(argv)
    if args.rounds < 1 or (args.reps is not None and args.reps < 1) or args.warmup < 0:
        p.error("--rounds and --reps must be at least 1, --warmup at least 0")
    return args


def select_workloads(infos, names):
    """Workloads named (or in the groups named), in list order; all when none are named."""
    if not names or names == ["all"]:
        return list(infos)
    by_name = {w["name"]: w for w in infos}
    chosen = []
    for n in names:
        if n in by_name:
            picked = [by_name[n]]
        elif n in GROUPS:
            picked = [w for w in infos if w["group"] == n]
        else:
            raise SystemExit("bench/run: unknown workload %r (bench/run --list shows them)" % n)
        chosen += [w for w in picked if w not in chosen]
    return chosen


def thread_counts(maximum):
    """1, 2, 4, ... up to and including `maximum`."""
    counts, t = [], 1
    while t < maximum:
        counts.append(t)
        t *= 2
    return counts + [maximum]


def probe_line(probe):
    fma = probe.get("fma_flops_per_s") or {}
    widths = sorted(fma, key=int)
    return ("memset %.1f GB/s, memcpy %.1f GB/s, FMA %s GFLOP/s (%s-bit), %d threads, "
            "%d MiB buffers" % (probe["memset_bytes_per_s"] / 1e9,
                                probe["memcpy_bytes_per_s"] / 1e9,
                                " / ".join("%.0f" % (fma[w] / 1e9) for w in widths),
                                "/".join(widths), probe["threads"], probe["bytes"] >> 20))


def progress(info, size, threads, r, rounds, d, rec):
    status = rec.get("status")
    if status == "ok" and not rec.get("identity_problem"):
        secs = stats.process_seconds(rec.get("wall_s"))
        val = stats.metric_value(secs, (rec.get("work") or {}).get("units", 0), info["scale"],
                                 info["rate"])
        what = "%s %s" % (table.fmt_number(val), info["metric"])
    else:
        what = "%s: %s" % (status, rec.get("identity_problem") or rec.get("reason")
                           or rec.get("error", ""))
    runner.log("  %-22s %-14s t=%-2d round %d/%d  %s  (%.1f s)" % (
        info["name"], d.label, threads, r + 1, rounds, what, rec.get("elapsed_s", 0)))


class Session:
    """One invocation's settings, drivers and runner."""

    def __init__(self, args):
        self.args = args
        self.build_dir = os.path.abspath(args.build_dir)
        self.cpus = machine.parse_cpu_list(args.cpus) if args.cpus else machine.usable_cpus()
        self.threads = args.threads or len(self.cpus)
        self.threshold = args.noisy / 100.0
        tessera_icd = args.tessera_icd or os.path.join(self.build_dir, "icd", "tessera_icd.json")
        self.drivers = drv.make_drivers(tessera_icd, args.reference, args.reference_name,
                                        avx512=machine.has_avx512() and not args.no_512)
        self.started = datetime.datetime.now()
        self.load_before = machine.load_average()

    def meta(self, kind, probes, runner_obj):
        load_after = machine.load_average()
        return {
            "kind": kind,
            "date": self.started.strftime("%Y-%m-%d %H:%M"),
            "command": "bench/run " + " ".join(shlex.quote(a) for a in sys.argv[1:]),
            "commit": machine.git_commit(REPO),
            "build_type": machine.build_type(self.build_dir),
            "cpu": machine.cpu_model(),
            "machine_cpus": os.cpu_count(),
            "cpus": machine.format_cpu_list(self.cpus),
            "threads": self.threads,
            "rounds": self.args.rounds,
            "warmup": self.args.warmup,
            "reps": self.args.reps,
            "noisy_threshold": self.threshold,
            "load_before": self.load_before,
            "load_after": load_after,
            "processes": runner_obj.processes_run,
            "probes": probes,
            "drivers": [{"key": d.key, "label": d.label, "icd": os.path.abspath(d.icd),
                         "env": d.env, "threads_var": d.threads_var} for d in self.drivers],
        }

    def quiet(self, meta):
        loads = [x for x in (meta["load_before"], meta["load_after"]) if x is not None]
        return bool(loads) and max(loads) < QUIET_LOAD

    def meta_lines(self, meta, rows):
        device = {}
        for r in rows:
            for k, res in r.results.items():
                if res.device_name and k not in device:
                    device[k] = "`%s` (%s)" % (res.device_name, res.driver_info)
        drivers = "; ".join("%s: %s%s" % (d.label, device.get(d.key, "no device reported"),
                                          "".join(" %s=%s" % kv for kv in d.env.items()))
                            for d in self.drivers)
        load = "load average %s before, %s after" % tuple(
            "%.2f" % x if x is not None else "?" for x in (meta["load_before"], meta["load_after"]))
        if not self.quiet(meta):
            load += " (**machine not quiet: numbers are noisy**)"
        return [
            "Command: `%s`" % meta["command"],
            "Commit: %s, build type %s" % (meta["commit"], meta["build_type"]),
            "Machine: %s, %d CPUs; every process on CPUs %s with %d driver threads; %s" % (
                meta["cpu"], meta["machine_cpus"], meta["cpus"], meta["threads"], load),
            "Drivers: " + drivers,
            "Method: %d rounds; in each round every driver runs each workload in its own process "
            "(drivers alternated), which warms up (%d repetition(s), every pipeline used once) and "
            "times %s repetitions from submit to idle; a process's time is the median of its "
            "repetitions; cells show the median over processes (min-max); ratio = reference time "
            "/ Tessera time (> 1: Tessera faster); spread = (max-min)/median; limit = share of the "
            "roofline (probe below); outputs compared with the reference driver's before a time "
            "counts." % (meta["rounds"], meta["warmup"],
                         meta["reps"] if meta["reps"] else "the workload's default number of"),
        ]


def print_header(session, selected, probe):
    print("Tessera benchmarks: %d workload(s) x %d drivers x %d rounds; CPUs %s, "
          "%d threads per driver" % (len(selected), len(session.drivers), session.args.rounds,
             machine.format_cpu_list(session.cpus), session.threads))
    load = session.load_before
    print("machine: %s; load average %s%s" % (
        machine.cpu_model(), "%.2f" % load if load is not None else "?",
        "" if load is not None and load < QUIET_LOAD else " (not quiet: expect noisy numbers)"))
    print("limits:  " + probe_line(probe))
    print()


def run_rows(session, run, configs, probe_for, label=None):
    """Runs every (info, size, threads) config; returns rows and all records."""
    rows, records = [], []
    for info, size, threads in configs:
        cpus = session.cpus[:threads]
        reps = session.args.reps or info.get("default_reps", 3)
        recs = run.run_config(info, size, reps, session.args.warmup, session.args.rounds, cpus,
                              threads, progress)
        row = aggregate.make_row(info, size, recs, session.drivers, probe_for(threads), threads)
        if label:
            row.workload = label(info, size, threads)
        rows.append(row)
        for key in recs:
            records += recs[key]
    return rows, records


def output_dir(session):
    return session.args.out or os.path.join(REPO, "bench", "results",
                                           session.started.strftime("%Y-%m-%d"))


def file_stem(kind, selected, all_infos):
    if len(selected) == len(all_infos):
        return kind
    names = "+".join(w["name"] for w in selected)
    return "%s-%s" % (kind, names if len(names) <= 60 else "%d-workloads" % len(selected))


def shown_path(path):
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def finish(session, kind, title, rows, records, probes, run, chart_spec, selected, infos,
           extra_sections=(), after_table=None):
    meta = session.meta(kind, probes, run)
    text = table.format_text(rows, session.drivers, session.threshold)
    note_lines = table.notes(rows, session.drivers, session.threshold)
    print(text)
    if after_table:
        print("\n" + after_table)
    if note_lines:
        print()
        for line in note_lines:
            print("note: " + line)
    if not session.quiet(meta):
        print("\nThe machine was not quiet (load average %.2f / %.2f): numbers are noisy."
              % (meta["load_before"] or 0, meta["load_after"] or 0))
    written = None
    if not session.args.no_write:
        sections = [("Results", table.format_markdown(rows, session.drivers, session.threshold))]
        sections += list(extra_sections)
        if note_lines:
            sections.append(("Notes", "\n".join("- " + n for n in note_lines)))
        sections.append(("Limits (roofline probe)", "\n".join(
            "- %s" % probe_line(p) for p in probes.values())))
        doc = results.markdown_document(title, session.meta_lines(meta, rows), sections)
        rows_json = [results.row_to_json(r, session.threshold) for r in rows]
        chart_spec["title"] = title
        paths, problem = results.write_run(output_dir(session), file_stem(kind, selected, infos),
                                           doc, rows_json, records, meta, chart_spec)
        print()
        for ext in ("md", "png", "json"):
            if ext in paths:
                print("wrote " + shown_path(paths[ext]))
        if problem:
            print("no chart: " + problem)
        written = paths["json"]
    return written


def run_summary(session, run, infos, selected):
    probe = run.probe(session.cpus, session.threads)
    print_header(session, selected, probe)
    configs = [(w, session.args.size or w["default_size"], session.threads) for w in selected]
    rows, records = run_rows(session, run, configs, lambda t: probe)
    title = "Tessera benchmarks, %s" % session.started.strftime("%Y-%m-%d")
    spec = results.summary_chart_spec(rows, session.drivers, title)
    return finish(session, "summary", title, rows, records, {str(session.threads): probe}, run,
                  spec, selected, infos)


def run_thread_scaling(session, run, infos, selected):
    counts = thread_counts(session.threads)
    probes = {t: run.probe(session.cpus[:t], t) for t in counts}
    print_header(session, selected, probes[counts[-1]])
    configs = [(w, session.args.size or w["default_size"], t) for w in selected for t in counts]
    rows, records = run_rows(session, run, configs, lambda t: probes[t],
                             label=lambda w, s, t: "%s t=%d" % (w["name"], t))
    # Speed-up of each driver: its time at 1 thread / its time at t threads.
    panels, lines = [], ["| workload | driver | " + " | ".join("t=%d" % t for t in counts) + " |",
                         "|---|---|" + "---:|" * len(counts)]
    for i, w in enumerate(selected):
        group = rows[i * len(counts):(i + 1) * len(counts)]
        series = {}
        for d in session.drivers:
            base = group[0].results[d.key]
            ups = [stats.ratio(base.summary.median, g.results[d.key].summary.median)
                   if base.ok and g.results[d.key].ok else None for g in group]
            series[d.label] = ups
            lines.append("| %s | %s | %s |" % (w["name"], d.label,
                                               " | ".join(table.fmt_number(u) for u in ups)))
        panels.append({"title": w["name"], "x": counts, "series": series})
    title = "Tessera thread scaling, %s" % session.started.strftime("%Y-%m-%d")
    spec = {"kind": "scaling", "xlabel": "threads (and CPUs)", "ylabel": "speed-up vs 1 thread",
            "ideal": True, "panels": panels, "drivers": [d.label for d in session.drivers]}
    return finish(session, "scaling-threads", title, rows, records,
                  {str(t): p for t, p in probes.items()}, run, spec, selected, infos,
                  [("Speed-up vs 1 thread", "\n".join(lines))],
                  after_table="speed-up vs 1 thread:\n" + "\n".join(lines))


def run_size_scaling(session, run, infos, selected):
    probe = run.probe(session.cpus, session.threads)
    print_header(session, selected, probe)
    configs = [(w, s, session.threads) for w in selected for s in w["scaling_sizes"]]
    rows, records = run_rows(
        session, run, configs, lambda t: probe,
        label=lambda w, s, t: "%s %s" % (w["name"], results.human_size(s, w["size_unit"])))
    panels, i = [], 0
    for w in selected:
        group = rows[i:i + len(w["scaling_sizes"])]
        i += len(w["scaling_sizes"])
        panels.append({"title": w["name"], "x": w["scaling_sizes"], "ylabel": w["metric"],
                        "series": {d.label: [g.results[d.key].values[0] if g.results[d.key].ok
                                             else None for g in group]
                                   for d in session.drivers}})
    title = "Tessera size scaling, %s" % session.started.strftime("%Y-%m-%d")
    spec = {"kind": "scaling", "xlabel": "problem size (see each workload's unit)", "logx": True,
            "panels": panels, "drivers": [d.label for d in session.drivers]}
    return finish(session, "scaling-sizes", title, rows, records, {str(session.threads): probe},
                  run, spec, selected, infos)


def print_comparison(old_path, new_path):
    with open(old_path, encoding="utf-8") as f:
        old = json.load(f)
    with open(new_path, encoding="utf-8") as f:
        new = json.load(f)
    verdicts = results.compare_runs(old, new)
    print("\ncompared with %s:" % old_path)
    for workload, driver, verdict, detail in verdicts:
        print("  %-8s %-26s %-14s %s" % (verdict, workload, driver, detail))
    return all(v != "DIFFERS" for _, _, v, _ in verdicts)


def one_process(session, run, infos):
    """--print-command and --profile: one worker process for one workload and driver."""
    args = session.args
    selected = select_workloads(infos, args.workloads)
    if len(selected) != 1:
        raise SystemExit("bench/run: name exactly one workload")
    info = selected[0]
    driver = next((d for d in session.drivers if d.key == (args.driver or "tessera")), None)
    if driver is None:
        raise SystemExit("bench/run: --driver must be one of %s"
                         % ", ".join(d.key for d in session.drivers))
    scratch = tempfile.mkdtemp(prefix="tessera-bench-one-")
    cmd = run.command(info, args.size or info["default_size"], args.reps or info["default_reps"],
                      args.warmup, driver, scratch, scratch)
    env = run.environment(info, driver, session.threads, scratch, scratch)
    changed = {k: v for k, v in env.items() if os.environ.get(k) != v}
    cpus = machine.format_cpu_list(session.cpus)
    if args.print_command:
        print(" ".join("%s=%s" % (k, shlex.quote(v)) for k, v in sorted(changed.items()))
              + " taskset -c %s " % cpus + " ".join(shlex.quote(c) for c in cmd))
        return 0
    out_dir = os.path.join(session.build_dir, "bench", "profiles")
    os.makedirs(out_dir, exist_ok=True)
    base = os.path.join(out_dir, "%s-%s" % (info["name"], driver.key))
    if args.profile == "perf":
        wrapper = ["perf", "record", "-g", "-o", base + ".perf.data", "--"]
        report = "perf report -i %s" % shlex.quote(base + ".perf.data")
    else:
        wrapper = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + base + ".callgrind"]
        # Callgrind runs the driver about 50x slower: Tessera's watchdog (10 s a submission by
        # default) would stop a large draw with VK_ERROR_DEVICE_LOST and profile only its start.
        env["TESSERA_GPU_TIMEOUT_MS"] = "0"
        report = "callgrind_annotate %s   (or kcachegrind)" % shlex.quote(base + ".callgrind")
    full = ["taskset", "-c", cpus] + wrapper + cmd
    runner.log("running: " + " ".join(shlex.quote(c) for c in full))
    try:
        rc = subprocess.run(full, env=env).returncode
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print("\nprofile written; read it with:\n  " + report)
    return rc


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.compare and args.against:
        return 0 if print_comparison(args.compare, args.against) else 1
    session = Session(args)
    worker = (runner.worker_path(session.build_dir) if args.no_build
              else runner.build(REPO, session.build_dir))
    if not os.path.exists(worker):
        raise SystemExit("bench/run: no worker at %s (build first, or drop --no-build)" % worker)
    for d in session.drivers:
        if not os.path.isfile(d.icd):
            hint = (" (Debian: apt install mesa-vulkan-drivers)" if d.icd == drv.LAVAPIPE_ICD
                    else "")
            raise SystemExit("bench/run: %s's manifest %s does not exist%s" % (d.label, d.icd, hint))
    with tempfile.TemporaryDirectory(prefix="tessera-bench-") as scratch:
        run = runner.Runner(worker, session.drivers, scratch, args.timeout)
        infos = run.list_workloads()
        if args.list:
            for w in infos:
                print("%-22s %-9s %-18s %s (size: %s %s)" % (
                    w["name"], w["group"], w["metric"], w["description"], w["default_size"],
                    w["size_unit"]))
            return 0
        if args.print_command or args.profile:
            return one_process(session, run, infos)
        selected = select_workloads(infos, args.workloads)
        if args.size and len(selected) != 1:
            raise SystemExit("bench/run: --size needs exactly one workload")
        if args.rounds < 5:
            runner.log("note: fewer than 5 rounds; fine for development, not for committed results")
        if args.scaling == "threads":
            written = run_thread_scaling(session, run, infos, selected)
        elif args.scaling == "sizes":
            written = run_size_scaling(session, run, infos, selected)
        else:
            written = run_summary(session, run, infos, selected)
    if args.compare:
        if not written:
            raise SystemExit("bench/run: --compare needs the run's results written "
                             "(drop --no-write)")
        return 0 if print_comparison(args.compare, written) else 1
    return 0
