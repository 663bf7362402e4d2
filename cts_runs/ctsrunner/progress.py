"""Progress of a driver's run: a live status line on a terminal, a plain
line now and then otherwise (CI logs must not fill with redraws)."""

import threading
import time
from collections import Counter


def format_duration(seconds):
    seconds = int(round(seconds))
    if seconds < 60:
        return "%ds" % seconds
    if seconds < 3600:
        return "%dm%02ds" % divmod(seconds, 60)
    hours, rest = divmod(seconds, 3600)
    return "%dh%02dm" % (hours, rest // 60)


class Progress:
    def __init__(self, stream, interval=60.0, tty=None, clock=time.monotonic):
        self._stream = stream
        self._tty = stream.isatty() if tty is None else tty
        self._interval = interval
        self._clock = clock
        self._lock = threading.Lock()
        self._driver = None
        self._total = 0
        self._counts = Counter()
        self._start = 0.0
        self._last_print = 0.0

    def start(self, driver, total):
        with self._lock:
            self._driver, self._total = driver, total
            self._counts = Counter()
            self._start = self._last_print = self._clock()

    def add(self, result):
        """Called from the shard threads as each case ends."""
        with self._lock:
            self._counts[result.status] += 1

    def line(self):
        with self._lock:
            done = sum(self._counts.values())
            elapsed = self._clock() - self._start
            c = self._counts
            other = done - c["Pass"] - c["Fail"] - c["NotSupported"] - c["Crash"] - c["Timeout"]
            text = ("[%s] %d/%d (%d%%)  pass %d  fail %d  n/s %d  crash %d  timeout %d"
                    % (self._driver, done, self._total,
                       100 * done // self._total if self._total else 100,
                       c["Pass"], c["Fail"], c["NotSupported"], c["Crash"], c["Timeout"]))
            if other:
                text += "  other %d" % other
            if 0 < done < self._total:
                text += "  ETA %s" % format_duration(elapsed / done * (self._total - done))
            else:
                text += "  %s" % format_duration(elapsed)
            return text

    def tick(self):
        """Called by the main thread a few times a second."""
        if self._tty:
            # \r and erase-to-end-of-line redraw the one status line.
            self._stream.write("\r" + self.line() + "\x1b[K")
            self._stream.flush()
        elif self._clock() - self._last_print >= self._interval:
            self._last_print = self._clock()
            self._stream.write(self.line() + "\n")
            self._stream.flush()

    def finish(self):
        if self._tty:
            self._stream.write("\r" + self.line() + "\x1b[K\n")
        else:
            self._stream.write(self.line() + "\n")
        self._stream.flush()
