"""Equal work: a worker's output must agree with the reference driver's before its time
counts. Exact outputs are compared by hash; outputs that may legitimately differ in the last
bits (filtering, inversesqrt) are compared from the files the workers wrote, within the
tolerance the workload declares:
  "exact"             the bytes are equal (same hash)
  "u8:<tol>"          every byte differs by at most tol
  "f32:<rtol>:<atol>" every float: |a - b| <= atol + rtol * |b| (b: the reference)
"""

import array
import math


def parse_mode(mode):
    parts = (mode or "exact").split(":")
    kind = parts[0]
    if kind == "exact" and len(parts) == 1:
        return ("exact",)
    if kind == "u8" and len(parts) == 2:
        return ("u8", int(parts[1]))
    if kind == "f32" and len(parts) == 3:
        return ("f32", float(parts[1]), float(parts[2]))
    raise ValueError("unknown output comparison %r" % mode)


_CHUNK = 4096


def _differing_chunks(got, want):
    """Offsets of the _CHUNK-byte blocks that differ (equal blocks are skipped at C speed;
    differences from rounding are usually sparse)."""
    return [i for i in range(0, len(got), _CHUNK) if got[i:i + _CHUNK] != want[i:i + _CHUNK]]


def compare_bytes(mode, got, want):
    """None when `got` agrees with `want` (the reference) under `mode`, else what differs."""
    parsed = parse_mode(mode)
    if len(got) != len(want):
        return "%d bytes, reference has %d" % (len(got), len(want))
    if parsed[0] == "exact":
        if got == want:
            return None
        first = next(i for i in range(len(got)) if got[i] != want[i])
        return "byte %d is %d, reference %d" % (first, got[first], want[first])
    if parsed[0] == "u8":
        tol = parsed[1]
        worst, where = 0, -1
        for start in _differing_chunks(got, want):
            for i in range(start, min(start + _CHUNK, len(got))):
                d = abs(got[i] - want[i])
                if d > worst:
                    worst, where = d, i
        if worst > tol:
            return "byte %d differs by %d (tolerance %d)" % (where, worst, tol)
        return None
    _, rtol, atol = parsed
    if len(got) % 4:
        return "output is not a whole number of floats"
    a, b = array.array("f"), array.array("f")
    a.frombytes(bytes(got))
    b.frombytes(bytes(want))
    worst, where = 0.0, -1
    for start in _differing_chunks(got, want):  # _CHUNK is a multiple of 4
        for i in range(start // 4, min(start + _CHUNK, len(got)) // 4):
            x, y = a[i], b[i]
            if math.isnan(x) != math.isnan(y):
                return "float %d is %r, reference %r" % (i, x, y)
            excess = abs(x - y) - (atol + rtol * abs(y))
            if excess > worst:
                worst, where = excess, i
    if where >= 0:
        return "float %d is %r, reference %r (tolerance %g + %g*|ref|)" % (
            where, a[where], b[where], atol, rtol)
    return None


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def compare_outputs(got, want):
    """Compares two worker `output` objects (hash, compare mode, optional dump file).
    None when they agree, else what differs."""
    if got.get("compare") != want.get("compare"):
        return "compared as %s, reference as %s" % (got.get("compare"), want.get("compare"))
    if got.get("bytes") != want.get("bytes"):
        return "%s output bytes, reference has %s" % (got.get("bytes"), want.get("bytes"))
    if got.get("hash") == want.get("hash"):
        return None
    mode = got.get("compare", "exact")
    if parse_mode(mode)[0] == "exact":
        return "output hash %s, reference %s" % (got.get("hash"), want.get("hash"))
    if not got.get("dump") or not want.get("dump"):
        return "hashes differ and no output files to compare within tolerance"
    try:
        return compare_bytes(mode, _read(got["dump"]), _read(want["dump"]))
    except OSError as e:
        return "cannot read output file: %s" % e
