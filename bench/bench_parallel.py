#!/usr/bin/env python3
"""Measures gpuguard's parallel run (-j) against a serial one, and checks that
both give the same findings in the same order.

    bench_parallel.py --gpuguard BIN [--units N] [--jobs J] [--repeat R]
                      [--flags FLAGS] [--work DIR]

A project of N generated CUDA translation units (generate_cuda_database.py,
nvcc commands in compile_commands.json) is checked with `gpuguard -p DIR
-j 1` and `-j J`, alternately, R times each. The table gives the median wall
time of each and the ratio; the run stops with an error if any two outputs
differ. With --shards K it also checks every shard with --shard=k/K and
compares the union of their findings with the whole run's.

The numbers are a report, never a verdict: nothing here fails on a figure.
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

from gpuguard_runs import timed_check

HERE = os.path.dirname(os.path.abspath(__file__))


def check(gpuguard, work, extra):
    return timed_check(gpuguard, ["--no-cache", "-p", work] + extra, __file__)


def findings(output):
    return [line for line in output.splitlines() if ": warning: " in line]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpuguard", required=True)
    parser.add_argument("--units", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--shards", type=int, default=0)
    parser.add_argument("--flags", default="",
                        help="extra compile flags for every unit")
    parser.add_argument("--work", help="directory for the generated project "
                        "(default: a temporary one)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="gpuguard-bench-") as scratch:
        work = os.path.abspath(args.work or scratch)
        subprocess.run([sys.executable,
                        os.path.join(HERE, "generate_cuda_database.py"), work,
                        "--units", str(args.units), "--flags", args.flags],
                       check=True)
        serial, parallel, outputs = [], [], set()
        reference = None
        for _ in range(args.repeat):
            for jobs, times in ((1, serial), (args.jobs, parallel)):
                elapsed, output = check(args.gpuguard, work, [f"-j{jobs}"])
                times.append(elapsed)
                outputs.add(output)
                reference = reference or output
        if len(outputs) != 1:
            sys.exit("bench_parallel.py: -j 1 and -j "
                     f"{args.jobs} gave different output")
        whole = findings(reference)
        print(f"{args.units} CUDA translation units, {len(whole)} findings, "
              f"{args.repeat} runs each (median wall time)")
        print(f"{'run':<12}{'seconds':>10}{'ratio':>8}")
        base = statistics.median(serial)
        for label, times in (("-j 1", serial), (f"-j {args.jobs}", parallel)):
            median = statistics.median(times)
            print(f"{label:<12}{median:>10.2f}{median / base:>8.2f}")
        print("outputs: identical, same order")
        if args.shards:
            union = []
            for k in range(1, args.shards + 1):
                _, output = check(args.gpuguard, work,
                                  [f"--shard={k}/{args.shards}"])
                union += findings(output)
            same = sorted(union) == sorted(whole)
            print(f"--shard=k/{args.shards}: union of the shards' findings "
                  f"{'equals' if same else 'DIFFERS FROM'} the whole run's")
            if not same:
                sys.exit(1)


if __name__ == "__main__":
    main()
