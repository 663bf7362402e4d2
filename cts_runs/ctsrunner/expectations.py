"""Known Tessera failures (cts_runs/expectations/tessera.txt).

One case name or glob pattern per line, then its reason after a '#' or a
tab; '*' matches any run of characters (dots included, as in deqp-vk's
--deqp-case), '?' one character. Blank lines and lines starting with '#'
are comments."""

import re
from dataclasses import dataclass

from .results import FAILURE_STATUSES


class ExpectationError(Exception):
    pass


@dataclass(frozen=True)
class Expectation:
    pattern: str
    reason: str
    line: int


def _glob_regex(pattern):
    return "".join(".*" if ch == "*" else "." if ch == "?" else re.escape(ch)
                   for ch in pattern)


def parse(text, source="<expectations>"):
    entries = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        cut = min((i for i in (line.find("#"), line.find("\t")) if i >= 0), default=-1)
        pattern = (line[:cut] if cut >= 0 else line).strip()
        reason = line[cut + 1:].strip() if cut >= 0 else ""
        if not reason:
            raise ExpectationError("%s:%d: %r has no reason (add '# why' after it)"
                                   % (source, number, pattern))
        if any(ch.isspace() for ch in pattern):
            raise ExpectationError("%s:%d: %r is not a single case name or pattern"
                                   % (source, number, pattern))
        entries.append(Expectation(pattern, reason, number))
    return Expectations(entries)


def load(path):
    with open(path, encoding="utf-8") as f:
        return parse(f.read(), path)


class Expectations:
    def __init__(self, entries):
        self.entries = list(entries)
        self._exact = {}
        self._globs = []
        for e in self.entries:
            if "*" in e.pattern or "?" in e.pattern:
                self._globs.append((re.compile(_glob_regex(e.pattern) + r"\Z"), e))
            else:
                self._exact.setdefault(e.pattern, e)
        # One combined regex first: most cases match no pattern at all.
        self._any_glob = (re.compile("|".join("(?:%s)" % _glob_regex(e.pattern)
                                              for _, e in self._globs) + r"\Z")
                          if self._globs else None)

    def match(self, case):
        """The entry covering `case`, or None."""
        if case in self._exact:
            return self._exact[case]
        if self._any_glob is not None and self._any_glob.match(case):
            for regex, entry in self._globs:
                if regex.match(case):
                    return entry
        return None

    def unexpected_failures(self, results):
        """Failing results that no entry covers."""
        return [r for r in results
                if r.status in FAILURE_STATUSES and self.match(r.case) is None]

    def stale(self, results):
        """Entries that matched cases of this run, none of which failed:
        candidates for removal."""
        matched, failing = set(), set()
        for r in results:
            e = self.match(r.case)
            if e is not None:
                matched.add(e)
                if r.status in FAILURE_STATUSES:
                    failing.add(e)
        return [e for e in self.entries if e in matched and e not in failing]
