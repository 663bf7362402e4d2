"""The deqp-vk command lines the runner uses (options from the CTS's
framework/common/tcuCommandLine.cpp, vulkan-cts-1.3.10.0)."""

import os

PACKAGE = "dEQP-VK"


def working_dir(deqp):
    """deqp-vk opens its data files (vulkan/data/...) relative to its archive
    dir, "." by default, so it runs from the directory holding the real
    binary (a symlink to it is followed)."""
    return os.path.dirname(os.path.realpath(deqp))


def _common(deqp):
    return [os.path.abspath(deqp), "--deqp-archive-dir=" + working_dir(deqp)]


def listing_command(deqp, patterns, export_dir):
    """Write the matching cases to <export_dir>/dEQP-VK-cases.txt.

    deqp-vk's --deqp-case takes comma-separated wildcard patterns; the export
    file is redirected because the default lands in the working directory,
    i.e. inside the CTS build."""
    return _common(deqp) + [
        "--deqp-runmode=txt-caselist",
        "--deqp-case=" + ",".join(patterns),
        "--deqp-caselist-export-file=" + os.path.join(
            export_dir, "${packageName}-cases.${typeExtension}"),
    ]


def listing_output(export_dir):
    return os.path.join(export_dir, PACKAGE + "-cases.txt")


def execution_command(deqp, caselist_file, shard_dir, qpa_log=None):
    """Run the cases of `caselist_file` (one name per line).

    Images and shader sources are not logged: they dominate the log size and
    the runner only needs the status lines on stdout. Without a log to keep,
    the log goes to /dev/null. Each shard gets its own shader cache file:
    the default shadercache.bin in the working directory would be truncated
    and written by all shards at once."""
    cmd = _common(deqp) + [
        "--deqp-caselist-file=" + caselist_file,
        "--deqp-log-images=disable",
        "--deqp-log-shader-sources=disable",
        "--deqp-log-decompiled-spirv=disable",
        "--deqp-shadercache-filename=" + os.path.join(shard_dir, "shadercache.bin"),
    ]
    if qpa_log:
        cmd.append("--deqp-log-filename=" + qpa_log)
    else:
        cmd += ["--deqp-log-filename=" + os.devnull, "--deqp-log-flush=disable"]
    return cmd
