"""cts_runs/LATEST.md: every group ever run, both drivers' Pass counts on the
same case list, the groups where Tessera passes fewer cases first.

The case list of a group is every case Tessera has a result for in it (in any
run; a group Tessera never ran takes the cases of the drivers that did). Each
driver's status for a case is its result in the newest run that has the case,
so a later partial re-run updates only the cases it ran. A case a driver has no
result for is counted in that driver's "Other" column (with warnings, waivers
and Missing), so both rows of a group always count the same cases."""

import os
from collections import Counter

from .drivers import DRIVERS, TESSERA
from .plot import plot_pass_counts
from .results import FAILURE_STATUSES, find_result_files, group_of, read_csv
from .rundir import run_dirs

# Fixed, whatever --group-depth a run used, so that runs stay comparable.
LATEST_DEPTH = 3
LATEST_MD = "LATEST.md"
LATEST_PNG = "latest.png"

# The columns each driver gets, in order. "Fail" is every failure status but
# Crash and Timeout (Fail, ResourceError, InternalError, DeviceLost, NoResult).
COLUMNS = ("Pass", "Fail", "Crash", "Timeout", "NotSupported", "Other")
NOT_RUN = "NotRun"


def category(status):
    """The LATEST.md column a deqp (or runner) status is counted in."""
    if status in ("Pass", "Crash", "Timeout", "NotSupported"):
        return status
    if status in FAILURE_STATUSES:
        return "Fail"
    return "Other"  # QualityWarning, CompatibilityWarning, Waiver, Missing, NotRun


class GroupRow:
    """One group: the case count and, per driver, counts by column and the
    run directories the statuses came from."""

    def __init__(self, cases):
        self.cases = cases
        self.counts = {}  # driver -> Counter over COLUMNS
        self.runs = {}    # driver -> set of run directory names

    def passed(self, driver):
        return self.counts[driver]["Pass"] if driver in self.counts else None

    def pass_delta(self, drivers):
        """Tessera's Pass count minus the other driver's, or None."""
        if len(drivers) < 2 or any(self.passed(d) is None for d in drivers[:2]):
            return None
        return self.passed(drivers[0]) - self.passed(drivers[1])


def _newest_statuses(runs_root):
    """driver -> case -> (status, run name), the newest run winning."""
    newest = {}
    for run_dir in run_dirs(runs_root):  # oldest first: newer ones overwrite
        name = os.path.basename(run_dir)
        for driver, path in find_result_files(run_dir).items():
            per_case = newest.setdefault(driver, {})
            for r in read_csv(path):
                per_case[r.case] = (r.status, name)
    return newest


def _drivers(newest):
    present = set(newest)
    return [d for d in DRIVERS if d in present] + sorted(present - set(DRIVERS))


def collect(runs_root, depth=LATEST_DEPTH):
    """(drivers, map group -> GroupRow)."""
    newest = _newest_statuses(runs_root)
    drivers = _drivers(newest)
    # The case list of each group: Tessera's cases, else those of any driver.
    by_driver = {}
    for driver, per_case in newest.items():
        for case in per_case:
            by_driver.setdefault(driver, {}).setdefault(group_of(case, depth), set()).add(case)
    cases_by_group = {}
    for driver in sorted(by_driver, key=lambda d: d == TESSERA):  # Tessera last: it wins
        for group, cases in by_driver[driver].items():
            if driver == TESSERA:
                cases_by_group[group] = cases
            else:
                cases_by_group.setdefault(group, set()).update(cases)
    table = {}
    for group, cases in cases_by_group.items():
        cases = sorted(cases)
        row = GroupRow(len(cases))
        for driver in drivers:
            per_case = newest[driver]
            if not any(c in per_case for c in cases):
                continue  # this driver never ran the group: "-" rather than all Other
            counts, runs = Counter(), set()
            for case in cases:
                status, run = per_case.get(case, (NOT_RUN, None))
                counts[category(status)] += 1
                if run:
                    runs.add(run)
            row.counts[driver], row.runs[driver] = counts, runs
        table[group] = row
    return drivers, table


def sorted_groups(drivers, table):
    """Groups where Tessera passes fewer cases than lavapipe first (largest
    shortfall first), then the rest by name."""
    def key(group):
        delta = table[group].pass_delta(drivers)
        return (min(delta, 0) if delta is not None else 0, group)
    return sorted(table, key=key)


def _rate(counts):
    denom = sum(counts.values()) - counts["NotSupported"] - counts["Other"]
    return "n/a" if denom <= 0 else "%.1f%%" % (100.0 * counts["Pass"] / denom)


def _runs_cell(drivers, row):
    names = {d: sorted(row.runs.get(d, ())) for d in drivers if d in row.counts}
    distinct = {tuple(v) for v in names.values()}
    if len(distinct) == 1:
        return ", ".join(next(iter(distinct)))
    return "; ".join("%s: %s" % (d, ", ".join(v)) for d, v in names.items())


def render(drivers, table, plot_note):
    out = ["# Latest Vulkan CTS results", "",
           "Generated by `cts_runs/run` from the run directories in `cts_runs/`; do not edit. "
           "One row per group (the first %d components of the case name). Both drivers are "
           "counted on the same case list: every case Tessera has a result for in the group, "
           "each driver's status taken from the newest run that has the case. "
           "Fail counts every failure status but Crash and Timeout (Fail, ResourceError, "
           "InternalError, DeviceLost, NoResult); Other counts warnings, waivers, Missing "
           "and cases the driver has no result for. "
           "Pass Δ = Tessera Pass - lavapipe Pass; rows are sorted by it, the groups where "
           "Tessera passes fewer cases first. Pass rate = Pass / (Pass + Fail + Crash + "
           "Timeout), an extra." % LATEST_DEPTH, ""]
    if not table:
        out += ["No runs yet.", ""]
        return "\n".join(out)
    header = ["Group", "Cases"]
    for d in drivers:
        header += ["%s %s" % (d, c) for c in COLUMNS]
    if len(drivers) >= 2:
        header.append("Pass Δ")
    header += ["Pass rate (%s)" % " / ".join(drivers), "Runs"]
    out.append("| " + " | ".join(header) + " |")
    out.append("|---|" + "---:|" * (len(header) - 2) + "---|")
    totals = {d: Counter() for d in drivers}
    total_cases = 0
    for group in sorted_groups(drivers, table):
        row = table[group]
        total_cases += row.cases
        cells = [group, str(row.cases)]
        for d in drivers:
            if d in row.counts:
                totals[d].update(row.counts[d])
                cells += [str(row.counts[d][c]) for c in COLUMNS]
            else:
                cells += ["-"] * len(COLUMNS)
        if len(drivers) >= 2:
            delta = row.pass_delta(drivers)
            cells.append("-" if delta is None else "%+d" % delta if delta else "0")
        cells.append(" / ".join(_rate(row.counts[d]) if d in row.counts else "-" for d in drivers))
        cells.append(_runs_cell(drivers, row))
        out.append("| " + " | ".join(cells) + " |")
    cells = ["**Total**", str(total_cases)]
    for d in drivers:
        cells += [str(totals[d][c]) for c in COLUMNS]
    if len(drivers) >= 2:
        cells.append("%+d" % (totals[drivers[0]]["Pass"] - totals[drivers[1]]["Pass"]))
    cells += [" / ".join(_rate(totals[d]) for d in drivers), ""]
    out.append("| " + " | ".join(cells) + " |")
    fewer = sum(1 for r in table.values() if (r.pass_delta(drivers) or 0) < 0)
    if len(drivers) >= 2:
        out += ["", "Groups where %s passes fewer cases than %s: %d of %d." % (drivers[0], drivers[1], fewer, len(table))]
    out += ["", plot_note, ""]
    return "\n".join(out)


def update(runs_root):
    """Rewrite LATEST.md (and latest.png when matplotlib is there)."""
    drivers, table = collect(runs_root)
    groups = sorted_groups(drivers, table)
    note = ""
    if groups:
        counts = {d: [table[g].passed(d) for g in groups] for d in drivers}
        if plot_pass_counts(groups, counts, os.path.join(runs_root, LATEST_PNG)):
            note = "![Pass count per group](%s)" % LATEST_PNG
        else:
            note = ("_Plot not updated: python3-matplotlib is not installed "
                    "or does not load (`apt-get install python3-matplotlib`)._")
    path = os.path.join(runs_root, LATEST_MD)
    with open(path, "w", encoding="utf-8") as f:
        f.write(render(drivers, table, note))
    return path
