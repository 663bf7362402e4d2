"""Writing a run to bench/results/<date>/ (JSON with every worker record, Markdown, PNG) and
comparing a run with a committed one."""

import json
import os

from . import aggregate, plot, table


def human_size(size, unit):
    if unit.startswith("bytes") and size >= 1 << 20 and size % (1 << 20) == 0:
        return "%d MiB" % (size >> 20)
    return str(size)


def result_to_json(res, threshold):
    out = {"status": res.status, "reason": res.reason, "device_name": res.device_name,
           "driver_info": res.driver_info, "maxrss_kib": res.maxrss_kib,
           "processes": res.processes}
    if res.ok:
        med, slow, fast = res.values
        out.update({"median_s": res.summary.median, "min_s": res.summary.min,
                    "max_s": res.summary.max, "n": res.summary.n, "spread": res.summary.spread,
                    "noisy": res.summary.noisy(threshold), "value": med,
                    "value_worst": slow, "value_best": fast, "limit_share": res.limit_share,
                    "timestamps_disagree": res.timestamps_disagree,
                    "unverified": res.unverified})
    return out


def row_to_json(row, threshold):
    return {"workload": row.workload, "metric": row.metric, "description": row.description,
            "size": row.size, "size_unit": row.size_unit, "threads": row.threads,
            "ratios": row.ratios,
            "results": {k: result_to_json(v, threshold) for k, v in row.results.items()}}


def strip_record(rec):
    """A worker record without paths that only existed during the run."""
    rec = dict(rec)
    if isinstance(rec.get("output"), dict):
        rec["output"] = {k: v for k, v in rec["output"].items() if k != "dump"}
    return rec


def summary_chart_spec(rows, drivers, title):
    refs = [d for d in drivers if not d.is_tessera]
    return {
        "kind": "summary",
        "title": title,
        "drivers": [d.label for d in drivers],
        "workloads": [r.workload for r in rows],
        "ratios": {"vs " + d.label: [r.ratios.get(d.key) for r in rows] for d in refs},
        "limits": {d.label: [r.results[d.key].limit_share if r.results[d.key].ok else None
                             for r in rows] for d in drivers},
    }


def markdown_document(title, meta_lines, body_sections):
    out = ["# " + title, ""]
    out += [line + "  " for line in meta_lines]
    for heading, text in body_sections:
        out += ["", "## " + heading, "", text]
    return "\n".join(out) + "\n"


def write_run(out_dir, stem, doc, rows_json, records, meta, chart_spec):
    """Writes <stem>.json, <stem>.md and <stem>.png. Returns (paths, chart problem or None)."""
    os.makedirs(out_dir, exist_ok=True)
    paths = {ext: os.path.join(out_dir, stem + "." + ext) for ext in ("json", "md", "png")}
    with open(paths["json"], "w", encoding="utf-8") as f:
        json.dump({"meta": meta, "rows": rows_json,
                   "records": [strip_record(r) for r in records]}, f, indent=1)
        f.write("\n")
    problem = plot.draw(chart_spec, paths["png"]) if chart_spec else "no chart"
    if problem:
        doc += "\n(No chart: %s.)\n" % problem
        paths.pop("png")
    else:
        doc += "\n![chart](%s)\n" % os.path.basename(paths["png"])
    with open(paths["md"], "w", encoding="utf-8") as f:
        f.write(doc)
    return paths, problem


def _key(row_json):
    return (row_json["workload"], row_json.get("size"), row_json.get("threads"))


def compare_runs(old, new):
    """Compares two runs' JSON ({"rows": [...]}) result by result. A result agrees when the
    status is the same and, for timed results, the medians differ by no more than the
    larger of the two reported spreads (relative to the old median). Returns a list of
    (workload, driver, verdict, detail), verdict in "agrees", "DIFFERS", "missing"."""
    old_rows = {_key(r): r for r in old.get("rows", [])}
    out = []
    for row in new.get("rows", []):
        prev = old_rows.get(_key(row))
        for driver, res in row["results"].items():
            before = prev["results"].get(driver) if prev else None
            if before is None:
                out.append((row["workload"], driver, "missing", "not in the old run"))
                continue
            if before["status"] != res["status"]:
                out.append((row["workload"], driver, "DIFFERS",
                            "%s before, %s now" % (before["status"], res["status"])))
                continue
            if res["status"] != aggregate.OK:
                out.append((row["workload"], driver, "agrees", res["status"]))
                continue
            allowed = max(before["spread"], res["spread"]) * before["median_s"]
            diff = res["median_s"] - before["median_s"]
            verdict = "agrees" if abs(diff) <= allowed else "DIFFERS"
            out.append((row["workload"], driver, verdict,
                        "%s -> %s %s (time %+.1f%%, allowed +-%.1f%%)" % (
                            table.fmt_number(before["value"]), table.fmt_number(res["value"]),
                            row["metric"], 100.0 * diff / before["median_s"],
                            100.0 * allowed / before["median_s"])))
    return out
