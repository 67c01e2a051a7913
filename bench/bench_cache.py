#!/usr/bin/env python3
"""Measures the result cache on a generated CUDA project, against runs that
check every file, and checks that every run prints the same findings.

    bench_cache.py --gpuguard BIN [--units N] [--jobs J] [--work DIR]

A project of N generated CUDA translation units (generate_cuda_database.py,
nvcc commands in compile_commands.json) is checked with `gpuguard -p DIR`:

  no cache     --no-cache, every file parsed (the baseline)
  cold         an empty cache: every file parsed, and stored
  warm         nothing changed: every file replayed
  one changed  a comment added to one unit: that unit parsed, the rest
               replayed
  header       a comment added to a header of the project, where it has one
  other checkout
               a fresh copy of the project at the same path, checked with
               the same cache directory, as a second CI machine sharing a
               mounted cache would: replayed, since the key holds the
               files' bytes and paths, not their timestamps

The numbers are a report, never a verdict: nothing here fails on a figure,
only on two runs that print different findings.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def check(gpuguard, work, cache, jobs):
    command = [gpuguard, "--quiet", "-p", work, f"-j{jobs}"]
    command += ["--no-cache"] if cache is None else [f"--cache-dir={cache}"]
    start = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True)
    elapsed = time.monotonic() - start
    if result.returncode not in (0, 1):
        sys.stderr.write(result.stderr[-3000:])
        sys.exit(f"bench_cache.py: gpuguard exited {result.returncode}")
    return elapsed, result.stdout


def append_comment(path):
    with open(path, "a") as f:
        f.write("// edited by bench_cache.py\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpuguard", required=True)
    parser.add_argument("--units", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--work", help="directory for the generated project "
                        "and its cache (default: a temporary one)")
    args = parser.parse_args()
    gpuguard = os.path.abspath(args.gpuguard)

    with tempfile.TemporaryDirectory(prefix="gpuguard-cache-") as scratch:
        root = os.path.abspath(args.work or scratch)
        work = os.path.join(root, "project")
        cache = os.path.join(root, "cache")
        shutil.rmtree(cache, ignore_errors=True)
        subprocess.run([sys.executable,
                        os.path.join(HERE, "generate_cuda_database.py"), work,
                        "--units", str(args.units)], check=True)
        kernels = os.path.join(work, "kernels")
        units = sorted(os.path.join(kernels, name)
                       for name in os.listdir(kernels)
                       if name.endswith(".cu"))
        headers = sorted(os.path.join(kernels, name)
                         for name in os.listdir(kernels)
                         if name.endswith((".cuh", ".h")))

        rows = []
        base, reference = check(gpuguard, work, None, args.jobs)
        rows.append(("no cache", base, reference))
        for label in ("cold", "warm"):
            rows.append((label,) + check(gpuguard, work, cache, args.jobs))
        append_comment(units[0])
        edited_base, edited_reference = check(gpuguard, work, None, args.jobs)
        rows.append(("one changed",) + check(gpuguard, work, cache,
                                             args.jobs))
        header_row = None
        if headers:
            append_comment(headers[0])
            header_row = ("header",) + check(gpuguard, work, cache, args.jobs)
        # Another machine's checkout: the same bytes, replayed from the
        # shared cache once it sits at the same path.
        copy = os.path.join(root, "other-machine")
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(work, copy)
        shutil.rmtree(work)
        shutil.move(copy, work)
        other = ("other checkout",) + check(gpuguard, work, cache, args.jobs)

        print(f"{args.units} CUDA translation units, -j {args.jobs}, "
              f"{sum(': warning: ' in l for l in reference.splitlines())} "
              "findings")
        print(f"{'run':<16}{'seconds':>10}{'ratio':>8}  output")
        for label, elapsed, output in rows[:3]:
            same = "same" if output == reference else "DIFFERENT"
            print(f"{label:<16}{elapsed:>10.2f}{elapsed / base:>8.3f}  {same}")
        for label, elapsed, output in [rows[3]] + (
                [header_row] if header_row else []) + [other]:
            expected = edited_reference if label == "one changed" else None
            if expected is None:
                _, expected = check(gpuguard, work, None, args.jobs)
            same = "same" if output == expected else "DIFFERENT"
            print(f"{label:<16}{elapsed:>10.2f}{elapsed / base:>8.3f}  {same}")
            if same != "same":
                sys.exit(f"bench_cache.py: '{label}' printed other findings "
                         "than a run without the cache")
        if any(output != reference for _, _, output in rows[:3]):
            sys.exit("bench_cache.py: a cached run printed other findings")
        size = sum(os.path.getsize(os.path.join(d, f))
                   for d, _, fs in os.walk(cache) for f in fs)
        print(f"cache: {size / 1024:.0f} KiB in {cache}")


if __name__ == "__main__":
    main()
