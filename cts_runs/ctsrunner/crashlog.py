"""crashes-<driver>.log: what deqp-vk printed around each crash or hang."""

import gzip
import os

from .results import GZIP_THRESHOLD


def crash_log_name(driver):
    return "crashes-%s.log" % driver


def write_crash_log(run_dir, driver, incidents, gzip_threshold=GZIP_THRESHOLD):
    """Write the log (gzip-compressed when large); none when there was
    nothing to report. Returns the path or None."""
    plain = os.path.join(run_dir, crash_log_name(driver))
    for stale in (plain, plain + ".gz"):
        if os.path.exists(stale):
            os.remove(stale)
    if not incidents:
        return None
    text = "".join("=== %s: %s\n%s\n\n" % (i.status, i.case, i.detail) for i in incidents)
    data = text.encode("utf-8")
    if len(data) > gzip_threshold:
        with open(plain + ".gz", "wb") as raw:
            with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as gz:
                gz.write(data)
        return plain + ".gz"
    with open(plain, "wb") as f:
        f.write(data)
    return plain
