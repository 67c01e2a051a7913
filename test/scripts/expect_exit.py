#!/usr/bin/env python3
"""expect_exit.py N command...: runs the command, passes its output through,
and fails unless it exits with status N (lit's `not` accepts any failure)."""

import subprocess
import sys

expected = int(sys.argv[1])
result = subprocess.run(sys.argv[2:])
if result.returncode != expected:
    sys.exit(f"expect_exit.py: exit code {result.returncode}, expected {expected}")
