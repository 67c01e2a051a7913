#!/usr/bin/env python3
"""Runs one scenario of a LibTorch integration test and checks what PyTorch
made of it.

    torch_run.py --cxx=CLANG --flags='...' --binary=OUT SOURCE SCENARIO
                 --expect=rejected|accepted [--message=REGEX]

SOURCE (a program of GPUGUARD_SCENARIOs, see
test/integration/torch/Inputs/torch_scenarios.h) is compiled against LibTorch
into OUT unless OUT is newer than SOURCE and the scenarios' header, then run with SCENARIO (the first
call for OUT runs every scenario after one start-up and keeps the results
beside it: scenario_runs.py). A scenario
is rejected when it throws, when PyTorch warns ("Warning:" on stderr) or when
it reports a non-finite result; accepted when it does none of these. With
--message, a rejection must also print text matching REGEX.

Exit code 0 when the outcome is the expected one, 1 when it is not, 2 when
the program cannot be built.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys

from scenario_runs import ScenarioRuns

HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = os.path.join(HERE, os.pardir, "integration", "torch", "Inputs")


def build(args):
    inputs = [args.source, os.path.join(INPUTS, "torch_scenarios.h")]
    if (os.path.exists(args.binary) and os.path.getmtime(args.binary) >=
            max(os.path.getmtime(path) for path in inputs)):
        return
    command = ([args.cxx] + shlex.split(args.flags) +
               ["-DGPUGUARD_RUN", "-isystem", INPUTS, "-w", "-O0",
                args.source, "-o", args.binary + ".tmp",
                "-ltorch", "-ltorch_cpu", "-lc10"] +
               shlex.split(args.linker_flags))
    built = subprocess.run(command, capture_output=True, text=True)
    if built.returncode != 0:
        sys.stderr.write(built.stderr)
        sys.stderr.write(f"torch_run.py: cannot build {args.source}\n")
        sys.exit(2)
    os.replace(args.binary + ".tmp", args.binary)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cxx", required=True)
    parser.add_argument("--flags", default="")
    parser.add_argument("--binary", required=True)
    parser.add_argument("--linker-flags", default="",
                        help="flags for linking only (-fuse-ld=lld)")
    parser.add_argument("--expect", choices=["rejected", "accepted"],
                        required=True)
    parser.add_argument("--message", default="")
    parser.add_argument("source")
    parser.add_argument("scenario")
    args = parser.parse_args()
    build(args)

    # Every scenario of the program runs at its first use, and is kept.
    runs = ScenarioRuns(args.binary, args.binary + ".runs").result(
        args.scenario)
    if runs is None:
        sys.exit(f"torch_run.py: no scenario {args.scenario} in {args.source}")
    returncode, stdout, stderr = runs
    output = stdout + stderr
    reasons = []
    if returncode != 0:
        reasons.append(f"exit code {returncode}")
    if "Warning:" in stderr:
        reasons.append("a PyTorch warning")
    if "gpuguard-scenario: non-finite result" in stdout:
        reasons.append("a non-finite result")
    outcome = "rejected" if reasons else "accepted"
    print(f"{args.scenario}: {outcome}" +
          (f" ({', '.join(reasons)})" if reasons else ""))
    for line in output.splitlines():
        if "gpuguard-scenario:" in line or "Warning:" in line:
            print("  " + line.strip())
    if outcome != args.expect:
        print(f"torch_run.py: expected {args.scenario} to be {args.expect}")
        sys.exit(1)
    if args.message and outcome == "rejected" and not re.search(
            args.message, output):
        print(f"torch_run.py: no output of {args.scenario} matches "
              f"{args.message!r}")
        sys.exit(1)


if __name__ == "__main__":
    main()
