"""From the workers' JSON records to one result per (workload, driver): status, times,
metric values, ratio against Tessera, share of the machine's limit. Pure: the records carry
everything (the output comparison was done by the runner and stored in each record as
"mismatch")."""

from dataclasses import dataclass, field

from . import stats

OK, UNSUPPORTED, FAILED, WRONG_DRIVER = "ok", "unsupported", "FAILED", "WRONG DRIVER"


@dataclass
class DriverResult:
    driver: str
    status: str = OK
    reason: str = ""
    summary: stats.Summary = None      # seconds per repetition, over processes
    values: tuple = None               # (median, worst, best) metric values
    limit_share: float = None          # roofline time / median time
    maxrss_kib: int = None             # largest over the driver's processes
    device_name: str = ""
    driver_info: str = ""
    timestamps_disagree: bool = None   # device timestamps vs wall time (see stats)
    unverified: bool = False           # no reference output to compare with
    processes: int = 0

    @property
    def ok(self):
        return self.status == OK and self.summary is not None


@dataclass
class Row:
    workload: str
    metric: str
    description: str
    size: int
    size_unit: str
    results: dict = field(default_factory=dict)  # driver key -> DriverResult
    ratios: dict = field(default_factory=dict)   # reference driver key -> ratio or None
    threads: int = None


def summarize_driver(driver_key, records, info, probe):
    """`records`: this driver's worker records for one workload configuration, each with
    the runner's additions ("identity_problem", "mismatch", "unverified", "error")."""
    r = DriverResult(driver_key)
    r.processes = len(records)
    if not records:
        r.status, r.reason = FAILED, "no runs"
        return r
    for rec in records:
        dev = rec.get("device") or {}
        if dev.get("name"):
            r.device_name = dev["name"]
            r.driver_info = dev.get("driver_info", "")
            break
    rss = [rec.get("maxrss_kib") for rec in records if rec.get("maxrss_kib")]
    r.maxrss_kib = max(rss) if rss else None

    def first(pred):
        return next((rec for rec in records if pred(rec)), None)

    bad = first(lambda rec: rec.get("identity_problem"))
    if bad:
        r.status, r.reason = WRONG_DRIVER, bad["identity_problem"]
        return r
    bad = first(lambda rec: rec.get("status") not in ("ok", "unsupported"))
    if bad:
        r.status = FAILED
        r.reason = bad.get("reason") or bad.get("error") or "status %s" % bad.get("status")
        return r
    bad = first(lambda rec: rec.get("mismatch"))
    if bad:
        r.status, r.reason = FAILED, "wrong result: " + bad["mismatch"]
        return r
    if any(rec.get("status") == "unsupported" for rec in records):
        r.status = UNSUPPORTED
        r.reason = first(lambda rec: rec.get("status") == "unsupported").get("reason", "")
        return r

    per_process = [stats.process_seconds(rec.get("wall_s")) for rec in records]
    r.summary = stats.summarize(per_process)
    if r.summary is None:
        r.status, r.reason = FAILED, "no timed repetitions"
        return r
    work = records[0].get("work") or {}
    r.values = stats.value_range(r.summary, work.get("units", 0), info["scale"], info["rate"])
    r.limit_share = stats.limit_share(r.summary.median, stats.roofline_seconds(work, probe))
    # Flagged when most processes' timestamps disagree with their wall time: one process
    # descheduled on a busy machine should not flag a driver.
    flags = [stats.timestamps_disagree(rec.get("wall_s"), rec.get("device_s")) for rec in records]
    known = [f for f in flags if f is not None]
    r.timestamps_disagree = sum(known) > len(known) / 2 if known else None
    r.unverified = any(rec.get("unverified") for rec in records)
    return r


def make_row(info, size, records_by_driver, drivers, probe, threads=None):
    row = Row(info["name"], info["metric"], info["description"], size, info["size_unit"],
              threads=threads)
    for d in drivers:
        row.results[d.key] = summarize_driver(d.key, records_by_driver.get(d.key, []), info,
                                              probe)
    tessera = next((d for d in drivers if d.is_tessera), None)
    t = row.results.get(tessera.key) if tessera else None
    for d in drivers:
        if d.is_tessera:
            continue
        ref = row.results[d.key]
        row.ratios[d.key] = (stats.ratio(ref.summary.median, t.summary.median)
                             if t is not None and t.ok and ref.ok else None)
    return row
