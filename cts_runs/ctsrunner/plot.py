"""latest.png: Pass count per group for each driver, in LATEST.md's order.
matplotlib is optional (Debian's python3-matplotlib); without it the plot is
skipped."""

import os


def plot_pass_counts(groups, counts_by_driver, path):
    """Horizontal grouped bars, one row per group. `counts_by_driver` maps
    driver -> list of Pass counts (None where the driver has no result),
    aligned with `groups`. Counts span several orders of magnitude (a few
    cases to ~10^5), so the axis is logarithmic and each bar is labelled with
    its count. Returns False when matplotlib is not installed or cannot be
    loaded."""
    try:
        import matplotlib
        matplotlib.use("Agg")  # no display needed
        import matplotlib.pyplot as plt
    except Exception:  # not installed, or installed but broken (RuntimeError)
        return False

    drivers = list(counts_by_driver)
    bar = 0.8 / max(1, len(drivers))
    height = max(2.5, 0.3 * len(groups) * max(1, len(drivers)) + 1.2)
    fig, ax = plt.subplots(figsize=(10, height))
    positions = range(len(groups))
    largest = max([c for cs in counts_by_driver.values() for c in cs if c] or [1])
    for i, driver in enumerate(drivers):
        ys = [p + (i - (len(drivers) - 1) / 2) * bar for p in positions]
        # A zero or missing count has no bar on a log axis; its label still says so.
        values = [c if c else 0.5 for c in counts_by_driver[driver]]
        ax.barh(ys, values, height=bar, label=driver)
        for y, count in zip(ys, counts_by_driver[driver]):
            ax.text(max(count or 0, 0.5) * 1.05, y, "-" if count is None else str(count), va="center", fontsize=6)
    ax.set_xscale("log")
    ax.set_xlim(0.5, largest * 4)
    ax.set_yticks(list(positions))
    ax.set_yticklabels(groups, fontsize=8)
    ax.invert_yaxis()  # first group on top, as in the table
    ax.set_xlabel("Pass count (log scale)")
    ax.set_title("Vulkan CTS Pass count per group, same case list for both drivers\n"
                 "(groups where Tessera passes fewer cases first)")
    ax.grid(axis="x", alpha=0.3)
    # Outside the axes: inside, it would hide the bars of the last groups.
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    tmp = path + ".tmp.png"
    fig.savefig(tmp, dpi=100, bbox_inches="tight")
    plt.close(fig)
    os.replace(tmp, path)
    return True
