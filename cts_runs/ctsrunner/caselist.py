"""Finding the cases to run: deqp-vk's own listing for wildcard patterns,
and case-list files (mustpass style)."""

import os
import subprocess

from . import deqp_cli

# Listing inflates every matching group of the test hierarchy; for the whole
# CTS that takes minutes, so this limit only catches a hung binary.
LISTING_TIMEOUT = 1800


class CaseListError(Exception):
    pass


def parse_txt_caselist(text):
    """Case names from deqp's txt-caselist output, whose lines are
    "GROUP: dEQP-VK.api" or "TEST: dEQP-VK.api.smoke.create_sampler"."""
    cases = []
    for line in text.splitlines():
        if line.startswith("TEST: "):
            cases.append(line[len("TEST: "):].strip())
    return cases


def is_pattern(name):
    return "*" in name


def read_caselist_file(path, _seen=None):
    """Return (cases, patterns) from a case-list file.

    One name per line; blank lines and lines starting with '#' are skipped.
    A line ending in ".txt" names another case-list file relative to this
    one, as in the CTS mustpass lists (vk-default.txt -> vk-default/api.txt).
    A line with '*' is a pattern, expanded by deqp-vk like a command-line one."""
    seen = _seen if _seen is not None else set()
    real = os.path.realpath(path)
    if real in seen:  # a list including itself would never end
        return [], []
    seen.add(real)
    cases, patterns = [], []
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if line.endswith(".txt"):
                sub = os.path.join(os.path.dirname(path), line)
                sub_cases, sub_patterns = read_caselist_file(sub, seen)
                cases += sub_cases
                patterns += sub_patterns
            elif is_pattern(line):
                patterns.append(line)
            else:
                cases.append(line)
    return cases, patterns


def list_cases(deqp, patterns, env, scratch_dir, timeout=LISTING_TIMEOUT):
    """Ask deqp-vk for the cases matching `patterns`, in the order it runs
    them (the hierarchy order)."""
    if not patterns:
        return []
    export_dir = os.path.join(scratch_dir, "listing")
    os.makedirs(export_dir, exist_ok=True)
    out_file = deqp_cli.listing_output(export_dir)
    if os.path.exists(out_file):
        os.remove(out_file)
    cmd = deqp_cli.listing_command(deqp, patterns, export_dir)
    try:
        proc = subprocess.run(cmd, cwd=deqp_cli.working_dir(deqp), env=env,
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise CaseListError("listing cases with %s took over %d s" % (deqp, timeout))
    except OSError as e:
        raise CaseListError("cannot run %s: %s" % (deqp, e))
    if proc.returncode != 0 or not os.path.exists(out_file):
        tail = proc.stdout.decode("utf-8", "replace").strip().splitlines()[-15:]
        raise CaseListError("listing cases failed (exit status %d):\n%s"
                            % (proc.returncode, "\n".join(tail)))
    with open(out_file, encoding="utf-8") as f:
        return parse_txt_caselist(f.read())


def dedupe(names):
    """Drop repeated names, keeping the first: deqp-vk refuses a case list
    with a duplicate ("Duplicate test case")."""
    seen = set()
    out = []
    for n in names:
        if n not in seen:
            seen.add(n)
            out.append(n)
    return out


def resolve_cases(deqp, patterns, caselist_files, env, scratch_dir):
    """All cases asked for: listed patterns first, in hierarchy order, then
    the literal names of the case-list files in file order."""
    literal = []
    all_patterns = list(patterns)
    for path in caselist_files:
        cases, file_patterns = read_caselist_file(path)
        literal += cases
        all_patterns += file_patterns
    listed = list_cases(deqp, dedupe(all_patterns), env, scratch_dir)
    return dedupe(listed + literal)
