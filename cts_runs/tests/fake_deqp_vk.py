#!/usr/bin/env python3
"""A stand-in for deqp-vk in the runner's tests.

It accepts deqp's --deqp-* options (and rejects others, as deqp does), and
prints what the real one prints on stdout. Cases come from the file named by
FAKE_DEQP_CASES (one per line; a default list otherwise) and run in that
file's order, whatever the order of --deqp-caselist-file, as deqp runs in
hierarchy order. What a case does is read from the '_'-separated words of
its last name component (triangle_tessfail: "triangle", "tessfail"):

  crash_abort / crash_segv   abort() / SIGSEGV after "Test case ..."
  hang                       sleep for an hour
  fail, notsupported, qualitywarning, compatwarning, resourceerror
                             print that status (resourceerror ends the
                             session early, as deqp does)
  tessfail / tesscrash       Fail / SIGSEGV only when VK_DRIVER_FILES
                             names a "tessera" manifest, Pass otherwise
  anything else              Pass

FAKE_DEQP_STARTUP=crash|hang fails before the first case.
FAKE_DEQP_INVOCATIONS=<file> appends one JSON line per run (argv, cwd,
VK_DRIVER_FILES, the cases asked for, pid).
"""

import json
import os
import re
import resource
import signal
import sys
import time

DEFAULT_CASES = [
    "dEQP-VK.info.build",
    "dEQP-VK.api.smoke.create_sampler",
    "dEQP-VK.api.smoke.triangle",
    "dEQP-VK.api.smoke.unsupported_notsupported",
]
DEQP_STATUS = {"fail": "Fail", "notsupported": "NotSupported",
               "qualitywarning": "QualityWarning", "compatwarning": "CompatibilityWarning",
               "resourceerror": "ResourceError"}


def die(msg):
    # deqp's die(): "FATAL ERROR: ..." and an abnormal exit.
    print("FATAL ERROR: " + msg, flush=True)
    sys.exit(255)


def parse_args(argv):
    opts = {}
    for arg in argv:
        if not arg.startswith("--deqp-") or "=" not in arg:
            print("Error: unknown option %s" % arg, file=sys.stderr)
            sys.exit(1)
        key, value = arg[2:].split("=", 1)
        opts[key] = value
    return opts


def universe():
    path = os.environ.get("FAKE_DEQP_CASES")
    if not path:
        return list(DEFAULT_CASES)
    with open(path) as f:
        return [l.strip() for l in f if l.strip()]


def wildcard(pattern, name):
    # deqp's matchWildcards: '*' matches anything, dots included.
    return re.fullmatch(".*".join(re.escape(p) for p in pattern.split("*")), name) is not None


def read_caselist(path):
    with open(path) as f:
        names = f.read().split("\n")
    if names and names[-1] == "":
        names.pop()
    if not names or any(not n for n in names):
        die("Empty test case name")
    if len(set(names)) != len(names):
        die("Duplicate test case")
    return set(names)


def select(opts):
    cases = universe()
    if "deqp-caselist-file" in opts:
        wanted = read_caselist(opts["deqp-caselist-file"])
        return [c for c in cases if c in wanted]
    if "deqp-case" in opts:
        patterns = opts["deqp-case"].split(",")
        return [c for c in cases if any(wildcard(p, c) for p in patterns)]
    return cases


def write_txt_caselist(opts, cases):
    pattern = opts.get("deqp-caselist-export-file", "${packageName}-cases.${typeExtension}")
    path = pattern.replace("${packageName}", "dEQP-VK").replace("${typeExtension}", "txt")
    print("Writing test cases from 'dEQP-VK' to file '%s'.." % path, flush=True)
    groups = []
    with open(path, "w") as f:
        for case in cases:
            parts = case.split(".")
            for i in range(1, len(parts)):
                g = ".".join(parts[:i])
                if g not in groups:
                    groups.append(g)
                    f.write("GROUP: %s\n" % g)
            f.write("TEST: %s\n" % case)


def crash(sig):
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # no core files from tests
    if sig == signal.SIGABRT:
        os.abort()
    os.kill(os.getpid(), sig)
    time.sleep(10)


def run_case(case, on_tessera):
    leaf = case.rsplit(".", 1)[-1]
    print("\nTest case '%s'.." % case, flush=True)
    if "crash_abort" in leaf:
        crash(signal.SIGABRT)
    if "crash_segv" in leaf or ("tesscrash" in leaf.split("_") and on_tessera):
        print("fake: about to crash", file=sys.stderr, flush=True)
        crash(signal.SIGSEGV)
    if "hang" in leaf:
        time.sleep(3600)
    tokens = leaf.split("_")
    status = "Pass"
    for key, value in DEQP_STATUS.items():
        if key in tokens:
            status = value
    if "tessfail" in tokens and on_tessera:
        status = "Fail"
    desc = {"Pass": "Pass", "Fail": "Image comparison failed",
            "NotSupported": "Feature not supported (vkFake)"}.get(status, status)
    print("  %s (%s)" % (status, desc), flush=True)
    return status


def main():
    opts = parse_args(sys.argv[1:])
    log = os.environ.get("FAKE_DEQP_INVOCATIONS")
    if log:
        with open(log, "a") as f:
            asked = sorted(read_caselist(opts["deqp-caselist-file"])) if "deqp-caselist-file" in opts else None
            f.write(json.dumps({"argv": sys.argv[1:], "cwd": os.getcwd(), "cases": asked, "pid": os.getpid(),
                                "VK_DRIVER_FILES": os.environ.get("VK_DRIVER_FILES"),
                                "caches": [os.environ.get(k) for k in ("XDG_CACHE_HOME", "MESA_SHADER_CACHE_DIR",
                                                                       "TESSERA_SHADER_CACHE_DIR")]}) + "\n")
    print("dEQP Core git-fake (0xcafebabe) starting..", flush=True)
    print("  target implementation = 'Fake'", flush=True)
    cases = select(opts)
    mode = opts.get("deqp-runmode", "execute")
    if mode == "txt-caselist":
        write_txt_caselist(opts, cases)
        return 0
    if mode != "execute":
        die("unsupported run mode in the fake: " + mode)

    startup = os.environ.get("FAKE_DEQP_STARTUP")
    if startup == "crash":
        crash(signal.SIGSEGV)
    if startup == "hang":
        time.sleep(3600)

    on_tessera = "tessera" in os.environ.get("VK_DRIVER_FILES", "")
    counts = {}
    for case in cases:
        status = run_case(case, on_tessera)
        counts[status] = counts.get(status, 0) + 1
        if status == "ResourceError":  # deqp aborts the session after one
            break
    print("\nDONE!\n", flush=True)
    total = sum(counts.values())
    print("Test run totals:")
    print("  Passed:        %d/%d" % (counts.get("Pass", 0), total))
    print("  Failed:        %d/%d" % (counts.get("Fail", 0), total))
    return 1 if counts.get("Fail") else 0


if __name__ == "__main__":
    sys.exit(main())
