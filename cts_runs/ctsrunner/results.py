"""Per-case results: the status vocabulary, CSV files and per-group counts."""

import csv
import gzip
import io
import os
from collections import Counter
from dataclasses import dataclass

# Statuses that get their own column in summaries, in the order shown.
MAIN_STATUSES = ("Pass", "Fail", "NotSupported", "QualityWarning",
                 "CompatibilityWarning", "Crash", "Timeout")

# Every name deqp prints on a case's status line (qpTestLog.c's
# s_qpTestResultMap); anything else on such a line is not a status line.
DEQP_STATUSES = frozenset(MAIN_STATUSES + (
    "Pending", "ResourceError", "InternalError", "Waiver", "DeviceLost"))

# Statuses only the runner gives:
#   Missing  - the case was asked for, but deqp-vk ran to the end without it
#              (a stale name in a case-list file);
#   NoResult - the case started but the next one started before its status
#              line (should not happen; kept visible rather than guessed).
MISSING = "Missing"
NO_RESULT = "NoResult"

# What counts as a Tessera failure for --check and the expectations.
# Missing is left out: it says the case list is stale, not the driver.
FAILURE_STATUSES = frozenset(("Fail", "Crash", "Timeout", "ResourceError",
                              "InternalError", "DeviceLost", NO_RESULT))

# Above this size a results CSV is stored gzip-compressed, so that committed
# run directories stay small.
GZIP_THRESHOLD = 1_000_000

CSV_HEADER = ("case", "status", "seconds")


@dataclass(frozen=True)
class CaseResult:
    case: str
    status: str
    seconds: float


def csv_name(driver):
    return "results-%s.csv" % driver


def write_csv(run_dir, driver, results, gzip_threshold=GZIP_THRESHOLD):
    """Write results-<driver>.csv (or .csv.gz when large); return the path.

    A stale file of the other form is removed so that a directory never
    holds two versions of one driver's results."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CSV_HEADER)
    for r in results:
        writer.writerow((r.case, r.status, "%.3f" % r.seconds))
    data = buf.getvalue().encode("utf-8")

    plain = os.path.join(run_dir, csv_name(driver))
    packed = plain + ".gz"
    if len(data) > gzip_threshold:
        # mtime=0 keeps the file byte-identical for identical results.
        with open(packed, "wb") as raw:
            with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as gz:
                gz.write(data)
        path, stale = packed, plain
    else:
        with open(plain, "wb") as f:
            f.write(data)
        path, stale = plain, packed
    if os.path.exists(stale):
        os.remove(stale)
    return path


def read_csv(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8", newline="") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if header is None or tuple(header) != CSV_HEADER:
            raise ValueError("%s: not a results CSV (header %r)" % (path, header))
        return [CaseResult(row[0], row[1], float(row[2])) for row in reader if row]


def find_result_files(run_dir):
    """Map driver name -> results file in a run directory."""
    found = {}
    for name in sorted(os.listdir(run_dir)):
        for suffix in (".csv", ".csv.gz"):
            if name.startswith("results-") and name.endswith(suffix):
                found[name[len("results-"):-len(suffix)]] = os.path.join(run_dir, name)
    return found


def group_of(case, depth):
    """The first `depth` dotted components, but never the case itself, so a
    shallow case such as dEQP-VK.info.build lands in group dEQP-VK.info."""
    parts = case.split(".")
    return ".".join(parts[:max(1, min(depth, len(parts) - 1))])


def count_by_group(results, depth):
    """Map group -> Counter of statuses."""
    groups = {}
    for r in results:
        groups.setdefault(group_of(r.case, depth), Counter())[r.status] += 1
    return groups


def total_counts(results):
    return Counter(r.status for r in results)


def pass_rate(counts):
    """(passed, denominator, rate or None); NotSupported cases are not
    counted against a driver, so the denominator leaves them out."""
    total = sum(counts.values())
    denom = total - counts.get("NotSupported", 0)
    passed = counts.get("Pass", 0)
    return passed, denom, (passed / denom if denom else None)


def format_rate(counts):
    passed, denom, rate = pass_rate(counts)
    if rate is None:
        return "n/a (0/0)"
    return "%.1f%% (%d/%d)" % (100.0 * rate, passed, denom)
