"""summary.md of one run directory."""

from dataclasses import dataclass, field

from .drivers import LAVAPIPE, TESSERA
from .progress import format_duration
from .results import MAIN_STATUSES, count_by_group, format_rate, total_counts

# Long lists are cut here; the CSVs hold every case.
MAX_LISTED = 1000


@dataclass
class RunInfo:
    name: str
    started: str                  # ISO 8601 local time
    wall_seconds: float
    cts_version: str
    commit: str
    machine: str
    jobs: int
    timeout: float
    selection: list               # patterns and case-list files, as given
    driver_seconds: dict = field(default_factory=dict)
    crash_logs: dict = field(default_factory=dict)  # driver -> file name
    # How the drivers' shader caches stood: "empty" (each driver its own, empty at the start)
    # or "user" (the user's caches as they were).
    shader_caches: str = "user"


def lavapipe_only_passes(results_by_driver):
    """(case, Tessera status) for cases passing on lavapipe but not on
    Tessera, in case-list order; empty unless both drivers ran."""
    if TESSERA not in results_by_driver or LAVAPIPE not in results_by_driver:
        return []
    tessera = {r.case: r.status for r in results_by_driver[TESSERA]}
    return [(r.case, tessera.get(r.case, "not run"))
            for r in results_by_driver[LAVAPIPE]
            if r.status == "Pass" and tessera.get(r.case) != "Pass"]


def _cases(n):
    return "1 case" if n == 1 else "%d cases" % n


def _cut(lines, total, what):
    if total > MAX_LISTED:
        lines.append("- ... and %d more %s (see the results CSVs)" % (total - MAX_LISTED, what))


def _group_table(results_by_driver, depth):
    drivers = list(results_by_driver)
    grouped = {d: count_by_group(results_by_driver[d], depth) for d in drivers}
    totals = {d: total_counts(results_by_driver[d]) for d in drivers}
    other = {d: {g: sum(c.values()) - sum(c[s] for s in MAIN_STATUSES)
                 for g, c in grouped[d].items()} for d in drivers}
    show_other = any(v for d in drivers for v in other[d].values())
    columns = list(MAIN_STATUSES) + (["Other"] if show_other else []) + ["Pass rate"]

    def cell(d, counts, status):
        if counts is None:
            return "-"
        if status == "Pass rate":
            return format_rate(counts)
        if status == "Other":
            return str(sum(counts.values()) - sum(counts[s] for s in MAIN_STATUSES))
        return str(counts[status])

    lines = ["Cells: " + " / ".join(drivers) + ".", "",
             "| Group | " + " | ".join(columns) + " |",
             "|---|" + "---:|" * len(columns)]
    groups = sorted(set(g for d in drivers for g in grouped[d]))
    for g in groups + [None]:
        row = ["**Total**" if g is None else g]
        for col in columns:
            row.append(" / ".join(
                cell(d, totals[d] if g is None else grouped[d].get(g), col) for d in drivers))
        lines.append("| " + " | ".join(row) + " |")
    return lines


def render(info, results_by_driver, depth, unexpected=None, stale=None, expectations_path=None):
    """The summary as Markdown. `unexpected` / `stale` come from the
    expectations (None when Tessera did not run)."""
    out = ["# CTS run: %s" % info.name, ""]

    out.append("## Pass on lavapipe, not on Tessera")
    out.append("")
    if TESSERA in results_by_driver and LAVAPIPE in results_by_driver:
        gaps = lavapipe_only_passes(results_by_driver)
        if not gaps:
            out.append("None.")
        else:
            out.append("%s:" % _cases(len(gaps)))
            out.append("")
            out += ["- `%s` (Tessera: %s)" % g for g in gaps[:MAX_LISTED]]
            _cut(out, len(gaps), "cases")
    else:
        out.append("Not compared: this run used only %s." % ", ".join(results_by_driver))
    out.append("")

    out.append("## Results per group")
    out.append("")
    out += _group_table(results_by_driver, depth)
    out.append("")

    if unexpected is not None:
        out.append("## Tessera failures not in the expectations")
        out.append("")
        if not unexpected:
            out.append("None.")
        else:
            out.append("%s, not covered by `%s`:" % (_cases(len(unexpected)), expectations_path))
            out.append("")
            out += ["- `%s` (%s)" % (r.case, r.status) for r in unexpected[:MAX_LISTED]]
            _cut(out, len(unexpected), "cases")
        out.append("")
    if stale:
        out.append("## Expectations whose cases all passed")
        out.append("")
        out += ["- line %d: `%s` (%s)" % (e.line, e.pattern, e.reason) for e in stale]
        out.append("")

    out.append("## Run")
    out.append("")
    wall = format_duration(info.wall_seconds)
    if info.driver_seconds:
        wall += " (" + ", ".join("%s %s" % (d, format_duration(s))
                                 for d, s in info.driver_seconds.items()) + ")"
    rows = [
        ("Started", info.started),
        ("Wall time", wall),
        ("CTS version", info.cts_version),
        ("Tessera commit", info.commit),
        ("Machine", info.machine),
        ("Selection", ", ".join("`%s`" % s for s in info.selection)),
        ("Cases", str(max((len(r) for r in results_by_driver.values()), default=0))),
        ("Parallel processes", "%d per driver, drivers one after the other" % info.jobs),
        ("Case timeout", "%g s" % info.timeout),
        ("Shader caches", "empty at the start, one per driver" if info.shader_caches == "empty"
         else "the user's, as they were (wall times depend on what they held)"),
    ]
    for d, log in info.crash_logs.items():
        rows.append(("Crash log (%s)" % d, "[%s](%s)" % (log, log)))
    out += ["| | |", "|---|---|"] + ["| %s | %s |" % r for r in rows]
    out.append("")
    return "\n".join(out)
