"""Parsing of deqp-vk's stdout.

deqp prints, per case (tcuTestSessionExecutor.cpp):
    \\nTest case 'dEQP-VK.x.y'..\\n
    ...whatever the case itself prints...
      <Status> (<description>)\\n
and "DONE!" once the session ends normally (tcuApp.cpp). stdout is line
buffered even into a pipe (tcuMain.cpp), so reading it line by line shows
which case is running when the process dies or hangs.
"""

import re
from dataclasses import dataclass

from .results import DEQP_STATUSES

_START_RE = re.compile(r"^Test case '(?P<case>[^']+)'\.\.$")
# The description is normally in parentheses; a bare status is accepted too.
_STATUS_RE = re.compile(r"^  (?P<status>[A-Za-z]+)(?: \((?P<desc>.*)\))?\s*$")


@dataclass(frozen=True)
class Start:
    case: str


@dataclass(frozen=True)
class Status:
    status: str
    desc: str


@dataclass(frozen=True)
class Done:
    pass


def parse_line(line, in_case):
    """Return the event a line of deqp stdout stands for, or None.

    A status line only counts while a case is running (`in_case`), so
    indented output elsewhere, e.g. the run totals, is not mistaken for one."""
    line = line.rstrip("\r\n")
    m = _START_RE.match(line)
    if m:
        return Start(m.group("case"))
    if in_case:
        m = _STATUS_RE.match(line)
        if m and m.group("status") in DEQP_STATUSES:
            return Status(m.group("status"), m.group("desc") or "")
    elif line == "DONE!":
        return Done()
    return None


class LineSplitter:
    """Turns the byte chunks read from a pipe into complete text lines."""

    def __init__(self):
        self._pending = b""

    def feed(self, chunk):
        data = self._pending + chunk
        *lines, self._pending = data.split(b"\n")
        return [l.decode("utf-8", "replace").rstrip("\r") for l in lines]

    def flush(self):
        rest, self._pending = self._pending, b""
        return [rest.decode("utf-8", "replace").rstrip("\r")] if rest else []
