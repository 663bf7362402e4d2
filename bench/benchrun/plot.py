"""PNG charts of a run, drawn with matplotlib (Debian: python3-matplotlib).

Also runnable on its own, `python3 plot.py SPEC.json OUT.png`, so that bench/run can draw
with the system interpreter (/usr/bin/python3, where Debian installs matplotlib) when the
python3 it runs under lacks matplotlib (a pyenv or virtualenv one). Standard library and
matplotlib only; no imports from the package."""

import json
import math
import os
import subprocess
import sys

SYSTEM_PYTHON = "/usr/bin/python3"


def _pyplot():
    import matplotlib
    matplotlib.use("Agg")  # no display needed
    import matplotlib.pyplot as plt
    return plt


def _save(fig, plt, path):
    tmp = path + ".tmp.png"
    fig.savefig(tmp, dpi=100, bbox_inches="tight")
    plt.close(fig)
    os.replace(tmp, path)


COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2")


def _color(spec, name):
    """The same colour for a driver in every panel (spec["drivers"] fixes the order)."""
    names = spec.get("drivers") or []
    for i, d in enumerate(names):
        if name == d or name.endswith(" " + d):
            return COLORS[i % len(COLORS)]
    return None


def _grouped_barh(ax, spec, labels, series, xlabel, log=False, base=0.0):
    """Horizontal bars from `base` (1 for ratios on a log axis, so that slower goes left and
    faster goes right), one group per workload; "n/a" where a value is missing."""
    from matplotlib.ticker import FuncFormatter
    names = list(series)
    bar = 0.8 / max(1, len(names))
    present = []
    for i, name in enumerate(names):
        ys = [p + (i - (len(names) - 1) / 2) * bar for p in range(len(labels))]
        vals = series[name]
        ax.barh(ys, [v - base if v is not None else 0 for v in vals], left=base, height=bar,
                label=name, color=_color(spec, name))
        for y, v in zip(ys, vals):
            if v is None:
                ax.text(base, y, " n/a", va="center", fontsize=7, color="gray")
            else:
                present.append(v)
    ax.set_yticks(list(range(len(labels))))
    ax.set_yticklabels(labels, fontsize=8)
    ax.invert_yaxis()
    if log:
        ax.set_xscale("log")
        lo = min(present + [base]) / 1.5
        hi = max(present + [base]) * 1.5
        ax.set_xlim(lo, hi)
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: "%g" % x))
        ax.xaxis.set_minor_formatter(FuncFormatter(lambda x, _: ""))
    ax.axvline(base if log else 100.0, color="black", linewidth=0.8)
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize=7, loc="best")


def draw_summary(spec, path):
    plt = _pyplot()
    labels = spec["workloads"]
    height = max(3.0, 0.45 * len(labels) * max(1, len(spec["limits"])) / 2 + 1.5)
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, height))
    _grouped_barh(left, spec, labels, spec["ratios"],
                  "reference time / Tessera time (> 1: Tessera faster; log scale)",
                  log=True, base=1.0)
    limits = {k: [100.0 * v if v is not None else None for v in vals]
              for k, vals in spec["limits"].items()}
    _grouped_barh(right, spec, labels, limits, "% of this machine's limit (roofline probe)")
    fig.suptitle(spec.get("title", ""), fontsize=10)
    fig.tight_layout()
    _save(fig, plt, path)


def _grid(plt, count):
    cols = min(3, max(1, count))
    rows = int(math.ceil(count / cols))
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.2 * rows), squeeze=False)
    flat = [ax for row in axes for ax in row]
    for ax in flat[count:]:
        ax.axis("off")
    return fig, flat


def draw_scaling(spec, path):
    """spec: {"title", "xlabel", "ylabel", "logx", "ideal", "panels": [{"title", "x": [...],
    "series": {driver: [y or None]}}]}"""
    plt = _pyplot()
    panels = spec["panels"]
    fig, axes = _grid(plt, len(panels))
    for ax, panel in zip(axes, panels):
        xs = panel["x"]
        for name, ys in panel["series"].items():
            pts = [(x, y) for x, y in zip(xs, ys) if y is not None]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=name,
                        color=_color(spec, name))
        if spec.get("ideal"):
            ax.plot(xs, xs, linestyle=":", color="gray", label="ideal")
        if spec.get("logx"):
            ax.set_xscale("log", base=2)
        else:
            ax.set_xticks(xs)
        ax.set_title(panel["title"], fontsize=9)
        ax.set_xlabel(spec.get("xlabel", ""), fontsize=8)
        ax.set_ylabel(panel.get("ylabel", spec.get("ylabel", "")), fontsize=8)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle(spec.get("title", ""), fontsize=10)
    fig.tight_layout()
    _save(fig, plt, path)


KINDS = {"summary": draw_summary, "scaling": draw_scaling}


def draw(spec, path):
    """Draws with this interpreter's matplotlib, else with the system python3's. Returns
    None on success, else why no chart was written."""
    try:
        KINDS[spec["kind"]](spec, path)
        return None
    except ImportError:
        pass
    if (not os.path.exists(SYSTEM_PYTHON)
            or os.path.realpath(SYSTEM_PYTHON) == os.path.realpath(sys.executable)):
        return "matplotlib is not installed (Debian: apt install python3-matplotlib)"
    spec_path = path + ".spec.json"
    with open(spec_path, "w", encoding="utf-8") as f:
        json.dump(spec, f)
    try:
        proc = subprocess.run([SYSTEM_PYTHON, os.path.abspath(__file__), spec_path, path],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    finally:
        os.remove(spec_path)
    if proc.returncode != 0:
        tail = proc.stderr.decode("utf-8", "replace").strip().splitlines()[-1:]
        return "drawing with %s failed: %s" % (SYSTEM_PYTHON, " ".join(tail))
    return None


def main(argv):
    if len(argv) != 3:
        print("usage: plot.py SPEC.json OUT.png", file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        spec = json.load(f)
    try:
        KINDS[spec["kind"]](spec, argv[2])
    except ImportError:
        print("matplotlib is not installed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
