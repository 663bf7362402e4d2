"""Run directories: cts_runs/<YYYY-MM-DD>-<name>/ with results CSVs, the
summary and run.json (the machine-readable facts LATEST.md sorts by)."""

import json
import os
import re

RUN_JSON = "run.json"
_RUN_DIR_RE = re.compile(r"^\d{4}-\d{2}-\d{2}-.+")


def derive_name(patterns, caselist_files):
    """A directory-friendly name: "dEQP-VK.api.smoke.*" -> "api.smoke"."""
    parts = []
    for p in patterns:
        p = re.sub(r"^dEQP-VK\.", "", p)
        p = re.sub(r"[.*]*\*[.*]*", ".", p).strip(".")
        parts.append(p or "all")
    for f in caselist_files:
        parts.append(os.path.splitext(os.path.basename(f))[0])
    name = "+".join(parts) or "run"
    name = re.sub(r"[^A-Za-z0-9._+-]+", "_", name)
    return name[:60].rstrip("._+-") or "run"


def default_run_dir(runs_root, date, name):
    """<runs_root>/<date>-<name>, with -2, -3... when that exists already:
    a second run the same day must not overwrite the first."""
    base = os.path.join(runs_root, "%s-%s" % (date, name))
    path, n = base, 1
    while os.path.exists(path):
        n += 1
        path = "%s-%d" % (base, n)
    return path


def write_run_json(run_dir, data):
    with open(os.path.join(run_dir, RUN_JSON), "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2, sort_keys=True)
        f.write("\n")


def read_run_json(run_dir):
    try:
        with open(os.path.join(run_dir, RUN_JSON), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def run_dirs(runs_root):
    """Run directories under runs_root, oldest first: by the start time in
    run.json, else by the date in the name."""
    found = []
    for name in os.listdir(runs_root):
        path = os.path.join(runs_root, name)
        if _RUN_DIR_RE.match(name) and os.path.isdir(path):
            started = read_run_json(path).get("started") or name[:10]
            found.append((started, name, path))
    return [path for _, _, path in sorted(found)]


def is_inside(path, root):
    path, root = os.path.realpath(path), os.path.realpath(root)
    return os.path.commonpath([path, root]) == root
