"""Runs gpuguard for the benches: one timed run, its findings, and an exit
on anything but a finished check (exit 0 or 1)."""

import os
import subprocess
import sys
import time


def timed_check(gpuguard, arguments, bench):
    """(wall seconds, stdout) of `gpuguard --quiet ARGUMENTS`; exits naming
    \\p bench when gpuguard did not finish its check."""
    start = time.monotonic()
    result = subprocess.run([gpuguard, "--quiet"] + arguments,
                            capture_output=True, text=True)
    elapsed = time.monotonic() - start
    if result.returncode not in (0, 1):
        sys.stderr.write(result.stderr[-3000:])
        sys.exit(f"{os.path.basename(bench)}: gpuguard exited "
                 f"{result.returncode}")
    return elapsed, result.stdout
