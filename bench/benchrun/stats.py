"""Pure arithmetic of a benchmark run: medians and spread, metric values, ratios and the
share of the machine's limit (roofline). No I/O; unit-tested in bench/tests."""

import math
from dataclasses import dataclass

DEFAULT_NOISY_SPREAD = 0.10  # (max - min) / median above this marks a result noisy


def median(values):
    xs = sorted(values)
    if not xs:
        raise ValueError("median of nothing")
    mid = len(xs) // 2
    return xs[mid] if len(xs) % 2 else 0.5 * (xs[mid - 1] + xs[mid])


@dataclass(frozen=True)
class Summary:
    """Seconds per repetition over the processes of one driver: each process contributes
    the median of its own timed repetitions."""
    median: float
    min: float
    max: float
    n: int

    @property
    def spread(self):
        """(max - min) / median: the relative width of the range the results fell in."""
        return (self.max - self.min) / self.median if self.median > 0 else math.inf

    def noisy(self, threshold=DEFAULT_NOISY_SPREAD):
        return self.spread > threshold


def summarize(per_process_seconds):
    xs = [x for x in per_process_seconds if x is not None]
    if not xs:
        return None
    return Summary(median(xs), min(xs), max(xs), len(xs))


def process_seconds(wall_s):
    """One process's time per repetition: the median of its timed repetitions."""
    return median(wall_s) if wall_s else None


def metric_value(seconds, units, scale, rate):
    """The reported number: units*scale per second for a rate (GB/s, GFLOP/s), seconds*scale
    per unit for a latency (us/dispatch, ms/pipeline)."""
    if seconds is None or seconds <= 0 or units <= 0:
        return None
    return units * scale / seconds if rate else seconds * scale / units


def value_range(summary, units, scale, rate):
    """(median, worst, best) metric values for a Summary of seconds."""
    if summary is None:
        return None
    med = metric_value(summary.median, units, scale, rate)
    slow = metric_value(summary.max, units, scale, rate)
    fast = metric_value(summary.min, units, scale, rate)
    return med, slow, fast


def ratio(reference_seconds, tessera_seconds):
    """Reference time / Tessera time: above 1 means Tessera is faster."""
    if not reference_seconds or not tessera_seconds:
        return None
    return reference_seconds / tessera_seconds


def best_fma_flops(probe):
    rates = [v for v in (probe.get("fma_flops_per_s") or {}).values() if v]
    return max(rates) if rates else None


def roofline_seconds(work, probe):
    """The least time the machine needs for one repetition's work: max of the memory time
    and the FMA time. Memory time: written-only work (fill) at memset speed; otherwise the
    read and written bytes share the bandwidth the way memcpy's do (memcpy of N bytes reads
    N and writes N, so (read + written) / (2 * memcpy rate)). None when the work has
    neither bytes nor FLOPs (dispatch overhead, pipeline creation)."""
    if not probe or not work:
        return None
    read = work.get("bytes_read") or 0
    written = work.get("bytes_written") or 0
    flops = work.get("flops") or 0
    times = []
    if read == 0 and written > 0 and probe.get("memset_bytes_per_s"):
        times.append(written / probe["memset_bytes_per_s"])
    elif read + written > 0 and probe.get("memcpy_bytes_per_s"):
        times.append((read + written) / (2.0 * probe["memcpy_bytes_per_s"]))
    peak = best_fma_flops(probe)
    if flops > 0 and peak:
        times.append(flops / peak)
    if not times:
        return None
    return max(times)


def limit_share(measured_seconds, roofline):
    """Share of the physical limit reached (1.0 = at the limit; above 1 happens when the
    work fits in caches that the probe's large buffers do not)."""
    if not measured_seconds or not roofline:
        return None
    return roofline / measured_seconds


def timestamps_disagree(wall_s, device_s, tolerance=0.25, floor_s=1e-3):
    """True when the device timestamps do not bracket the wall time of the same
    repetitions: their medians differ by more than `tolerance` (relative), for repetitions
    long enough (`floor_s`) that submission overhead does not dominate. None when the
    driver wrote no timestamps."""
    pairs = [(w, d) for w, d in zip(wall_s or [], device_s or []) if d is not None and d >= 0]
    if not pairs:
        return None
    wall = median([w for w, _ in pairs])
    dev = median([d for _, d in pairs])
    if wall < floor_s:
        return False
    return abs(wall - dev) > tolerance * wall
