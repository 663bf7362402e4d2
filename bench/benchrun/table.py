"""The result tables: plain text for the terminal and Markdown for bench/results/. Pure
formatting of aggregate.Row objects; unit-tested."""

from . import aggregate, stats

NOISY_MARK = "~"
UNVERIFIED_MARK = "*"


def fmt_number(v):
    """Three significant digits, without exponent notation for everyday magnitudes."""
    if v is None:
        return "-"
    a = abs(v)
    if a >= 100:
        return "%.0f" % v
    if a >= 10:
        return "%.1f" % v
    if a >= 1:
        return "%.2f" % v
    if a >= 0.001:
        return "%.3g" % v  # 0.0123, not 0.012: slow drivers' rates (0.00438 Gpixels/s) keep 3 digits
    return "%.2g" % v


def fmt_ratio(r):
    if r is None:
        return "-"
    if r >= 10:
        return "%.1f" % r
    return "%.2f" % r if r >= 0.1 else "%.3f" % r


def fmt_percent(share):
    if share is None:
        return "-"
    return "<1%" if share < 0.005 else "%.0f%%" % (100.0 * share)


def short_label(driver):
    """T, L, L512: for the compound spread/limit/RSS columns."""
    if driver.is_tessera:
        return "T"
    base = "L" if driver.key.startswith("lavapipe") else "R"
    return base + ("512" if driver.key.endswith("-512") else "")


def value_cell(result, threshold, with_range=False):
    if result.status != aggregate.OK:
        return result.status
    if not result.ok:
        return "-"
    med, slow, fast = result.values
    text = fmt_number(med)
    if with_range:
        lo, hi = sorted((slow, fast))
        text += " (%s-%s)" % (fmt_number(lo), fmt_number(hi))
    if result.summary.noisy(threshold):
        text += NOISY_MARK
    if result.unverified:
        text += UNVERIFIED_MARK
    return text


def _joined(row, drivers, cell):
    return "/".join(cell(row.results[d.key]) for d in drivers)


def spread_cell(result):
    return "%.0f%%" % (100 * result.summary.spread) if result.ok else "-"


def limit_cell(result):
    return fmt_percent(result.limit_share) if result.ok else "-"


def rss_cell(result):
    return "%.0f" % (result.maxrss_kib / 1024.0) if result.maxrss_kib else "-"


def headers(drivers):
    refs = [d for d in drivers if not d.is_tessera]
    letters = "/".join(short_label(d) for d in drivers)
    cols = ["workload", "metric"] + [d.label for d in drivers]
    cols += ["ratio" if i == 0 else "ratio " + short_label(d) for i, d in enumerate(refs)]
    cols += ["spread " + letters, "limit " + letters, "RSS MiB " + letters]
    return cols


def row_cells(row, drivers, threshold, with_range=False):
    refs = [d for d in drivers if not d.is_tessera]
    cells = [row.workload, row.metric]
    cells += [value_cell(row.results[d.key], threshold, with_range) for d in drivers]
    cells += [fmt_ratio(row.ratios.get(d.key)) for d in refs]
    cells += [_joined(row, drivers, spread_cell), _joined(row, drivers, limit_cell),
              _joined(row, drivers, rss_cell)]
    return cells


def format_text(rows, drivers, threshold=stats.DEFAULT_NOISY_SPREAD):
    table = [headers(drivers)] + [row_cells(r, drivers, threshold) for r in rows]
    widths = [max(len(line[i]) for line in table) for i in range(len(table[0]))]
    numeric_from = 2  # left-align names, right-align numbers
    out = []
    for line in table:
        cells = [c.ljust(widths[i]) if i < numeric_from else c.rjust(widths[i])
                 for i, c in enumerate(line)]
        out.append("  ".join(cells).rstrip())
    return "\n".join(out)


def _md_escape(text):
    return text.replace("|", "\\|")


def format_markdown(rows, drivers, threshold=stats.DEFAULT_NOISY_SPREAD):
    head = headers(drivers)
    out = ["| " + " | ".join(head) + " |",
           "|" + "|".join(["---"] * 2 + ["---:"] * (len(head) - 2)) + "|"]
    for r in rows:
        out.append("| " + " | ".join(_md_escape(c) for c in row_cells(r, drivers, threshold, True))
                   + " |")
    return "\n".join(out)


def notes(rows, drivers, threshold=stats.DEFAULT_NOISY_SPREAD):
    """Lines explaining marks and listing every non-result with its reason."""
    lines = []
    for r in rows:
        for d in drivers:
            res = r.results[d.key]
            if res.status != aggregate.OK:
                lines.append("%s on %s: %s: %s" % (r.workload, d.label, res.status, res.reason))
            elif res.timestamps_disagree:
                lines.append("%s on %s: in most processes the device timestamps disagree with "
                             "wall time by more than 25%% (the value uses wall time)"
                             % (r.workload, d.label))
    if any(res.ok and res.summary.noisy(threshold) for r in rows for res in r.results.values()):
        lines.append("%s noisy: spread (max-min)/median over the processes above %.0f%%"
                     % (NOISY_MARK, 100 * threshold))
    if any(res.ok and res.unverified for r in rows for res in r.results.values()):
        lines.append("%s not compared with the reference driver (it produced no output); "
                     "only the CPU check passed" % UNVERIFIED_MARK)
    return lines
