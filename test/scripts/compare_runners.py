#!/usr/bin/env python3
"""Runs gpuguard and `clang-tidy --load=<plugin>` on the same files and
fails unless both print the same findings and notes (file:line:col, text).

compare_runners.py --gpuguard=BIN --clang-tidy=BIN --plugin=SO --temp=DIR \\
    -- <compile flags> -- <files>
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir, os.pardir, "tools"))
from check_catalog import MODULES  # noqa: E402

DIAGNOSTIC = re.compile(r"^(.*?):(\d+):(\d+): (warning|error|note): (.*)$")


def findings(command):
    result = subprocess.run(command, capture_output=True, text=True)
    found = []
    for line in (result.stdout + result.stderr).splitlines():
        match = DIAGNOSTIC.match(line)
        if match and not line.startswith("gpuguard:"):
            found.append(match.groups())
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gpuguard", required=True)
    parser.add_argument("--clang-tidy", required=True)
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--temp", required=True)
    args, rest = parser.parse_known_args()
    split = rest.index("--", 1) if rest and rest[0] == "--" else rest.index("--")
    flags = [a for a in rest[:split] if a != "--"]
    files = rest[split + 1:]

    shutil.rmtree(args.temp, ignore_errors=True)
    os.makedirs(args.temp)
    total = 0
    for source in files:
        # Work on a copy without expectations, like check_gpuguard.py.
        with open(source, encoding="utf-8") as f:
            text = re.sub(r"// *CHECK-[A-Z0-9\-]*:[^\r\n]*", "//", f.read())
        copy = os.path.join(args.temp, os.path.basename(source))
        with open(copy, "w", encoding="utf-8") as f:
            f.write(text)
        checks = "--checks=-*," + ",".join(module + "-*" for module in MODULES)
        ours = findings([args.gpuguard, checks, "--quiet", copy, "--"] + flags)
        theirs = findings([args.clang_tidy, "--load=" + args.plugin, checks,
                           "--quiet", copy, "--"] + flags)
        if ours != theirs:
            print(f"{source}: gpuguard and the plugin disagree")
            for label, items in (("gpuguard", ours), ("plugin", theirs)):
                print(f"  {label}:")
                for item in items:
                    print("    " + ":".join(item[1:3]) + f" {item[3]}: {item[4]}")
            sys.exit(1)
        total += sum(1 for item in ours if item[3] == "warning")
    print(f"compared {total} findings in {len(files)} files: identical")


if __name__ == "__main__":
    main()
