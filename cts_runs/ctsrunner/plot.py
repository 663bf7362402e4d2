"""latest.png: pass rate per group for each driver. matplotlib is optional
(Debian's python3-matplotlib); without it the plot is skipped."""

import os


def plot_pass_rates(groups, rates_by_driver, path):
    """Horizontal grouped bars, one row per group. `rates_by_driver` maps
    driver -> list of rates in [0, 1] or None, aligned with `groups`.
    Returns False when matplotlib is not installed or cannot be loaded."""
    try:
        import matplotlib
        matplotlib.use("Agg")  # no display needed
        import matplotlib.pyplot as plt
    except Exception:  # not installed, or installed but broken (RuntimeError)
        return False

    drivers = list(rates_by_driver)
    bar = 0.8 / max(1, len(drivers))
    height = max(2.5, 0.3 * len(groups) * max(1, len(drivers)) + 1.2)
    fig, ax = plt.subplots(figsize=(9, height))
    positions = range(len(groups))
    for i, driver in enumerate(drivers):
        values = [100.0 * r if r is not None else 0.0 for r in rates_by_driver[driver]]
        ax.barh([p + (i - (len(drivers) - 1) / 2) * bar for p in positions],
                values, height=bar, label=driver)
    ax.set_yticks(list(positions))
    ax.set_yticklabels(groups, fontsize=8)
    ax.invert_yaxis()  # first group on top, as in the table
    ax.set_xlim(0, 100)
    ax.set_xlabel("pass rate (%) = Pass / (total - NotSupported)")
    ax.set_title("Vulkan CTS pass rate per group (latest run of each group)")
    ax.grid(axis="x", alpha=0.3)
    # Outside the axes: inside, it would hide the bars of the last groups.
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    tmp = path + ".tmp.png"
    fig.savefig(tmp, dpi=100, bbox_inches="tight")
    plt.close(fig)
    os.replace(tmp, path)
    return True
