#!/usr/bin/env python3
"""Fails unless every registered check has its implementation, lit test and
docs page where its name says, and every test and page names a registered
check.

    check_consistency.py --gpuguard BIN --root SRC
"""

import argparse
import glob
import os
import subprocess
import sys

TEST_EXTENSIONS = {"cuda": ".cu", "torch": ".cpp"}


def registered_checks(gpuguard):
    listed = subprocess.run([gpuguard, "--list-checks", "--checks=*"],
                            capture_output=True, text=True, check=True).stdout
    return sorted(line.strip() for line in listed.splitlines()
                  if line.startswith("    "))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gpuguard", required=True)
    parser.add_argument("--root", required=True)
    args = parser.parse_args()
    root = args.root
    checks = registered_checks(args.gpuguard)
    problems = []
    with open(os.path.join(root, "docs", "index.md"), encoding="utf-8") as f:
        index = f.read()
    for check in checks:
        module, name = check.split("-", 1)
        camel = "".join(p[:1].upper() + p[1:] for p in name.split("-")) + "Check"
        expected = {
            "implementation": os.path.join(root, "lib", module, camel + ".cpp"),
            "lit test": os.path.join(root, "test", "checkers", module,
                                     check + TEST_EXTENSIONS[module]),
            "docs page": os.path.join(root, "docs", "checks", module, check + ".md"),
        }
        for what, path in expected.items():
            if not os.path.exists(path):
                problems.append(f"{check}: no {what} at {os.path.relpath(path, root)}")
        if f"checks/{module}/{check}.md" not in index:
            problems.append(f"{check}: not listed in docs/index.md")
    for path in glob.glob(os.path.join(root, "test", "checkers", "*", "*.*")) + \
            glob.glob(os.path.join(root, "docs", "checks", "*", "*.md")):
        name = os.path.splitext(os.path.basename(path))[0]
        # A check may have more test files, named <check>-<variant>.
        if name not in checks and not any(
                name.startswith(check + "-") and path.startswith(
                    os.path.join(root, "test")) for check in checks):
            problems.append(f"{os.path.relpath(path, root)}: names no registered check")
    for problem in problems:
        print(problem)
    if problems:
        sys.exit(1)
    print(f"{len(checks)} checks consistent: implementation, lit test and docs page each")


if __name__ == "__main__":
    main()
