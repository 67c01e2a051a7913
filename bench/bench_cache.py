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

With --shards N, N machines (a cache directory each) split the database
with --shard=k/N and share one Redis or nginx server that
test/scripts/cache_server.py starts on loopback; each machine's shard is
timed alone, as on a machine of its own, and the slowest shard is the
fleet's wall time. Then N fresh machines run the same shards (everything
replayed from the server), and one more machine checks the whole database.
`stored` counts the entries the server took: each file is checked once in
the whole fleet.

The numbers are a report, never a verdict: nothing here fails on a figure,
only on two runs that print different findings.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

from gpuguard_runs import timed_check

HERE = os.path.dirname(os.path.abspath(__file__))
CACHE_SERVER = os.path.join(HERE, "..", "test", "scripts", "cache_server.py")


def check(gpuguard, work, cache, jobs, extra=()):
    # Preambles off in every run: with them, the baseline would build the
    # preambles that the cold run then reuses, and the cold run would not
    # be cold. The cache is measured alone.
    arguments = ["-p", work, f"-j{jobs}", "--no-preamble"] + list(extra)
    arguments += ["--no-cache"] if cache is None else [f"--cache-dir={cache}"]
    return timed_check(gpuguard, arguments, __file__)


def server(action, directory, *extra):
    """Runs test/scripts/cache_server.py; its output."""
    return subprocess.run(
        [sys.executable, CACHE_SERVER, action, f"--dir={directory}"] +
        list(extra), check=True, capture_output=True, text=True).stdout


def fleet(gpuguard, work, root, shards, kind):
    """The shared cache across machines: SHARDS machines (each a cache
    directory of its own) split the database with --shard and share one
    server; then fresh machines run again. Prints a table and returns
    whether every run printed what one machine without a cache prints."""
    directory = os.path.join(root, "server")
    # Alive for the whole measurement, however long the shards take.
    server("start", directory, f"--kind={kind}", "--lifetime=86400")
    try:
        url = open(os.path.join(directory, "url")).read().strip()
        whole, reference = check(gpuguard, work, None, 1)

        def pipeline(name):
            times, outputs = [], []
            for k in range(1, shards + 1):
                elapsed, output = check(
                    gpuguard, work, os.path.join(root, f"{name}-{k}"), 1,
                    [f"--shard={k}/{shards}", f"--remote-cache={url}"])
                times.append(elapsed)
                outputs.append(output)
            puts = server("stats", directory).split()[1]
            return times, outputs, puts

        rows = [("first pipeline",) + pipeline("first"),
                ("fresh machines",) + pipeline("second")]
        # One machine checking everything after the fleet: all replayed.
        elapsed, output = check(gpuguard, work, os.path.join(root, "laptop"),
                                1, [f"--remote-cache={url}"])
        puts = server("stats", directory).split()[1]
    finally:
        server("stop", directory)

    def findings(text):
        return sorted(l for l in text.splitlines() if ": warning: " in l)

    print(f"\n{shards} machines sharing {kind} ({url}), one shard each, -j 1;"
          f" one machine without a cache: {whole:.2f} s")
    print(f"{'run':<16}{'slowest':>10}{'speed-up':>10}{'all':>10}"
          f"{'stored':>8}  findings")
    same = True
    for label, times, outputs, stored in rows:
        merged = sorted(l for o in outputs for l in findings(o))
        ok = merged == findings(reference)
        same &= ok
        print(f"{label:<16}{max(times):>10.2f}{whole / max(times):>10.1f}"
              f"{sum(times):>10.2f}{stored:>8}  "
              f"{'same' if ok else 'DIFFERENT'}")
    ok = findings(output) == findings(reference)
    same &= ok
    print(f"{'one whole run':<16}{elapsed:>10.2f}{whole / elapsed:>10.1f}"
          f"{elapsed:>10.2f}{puts:>8}  {'same' if ok else 'DIFFERENT'}")
    return same


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
    parser.add_argument("--shards", type=int, default=0,
                        help="also measure a fleet of this many machines "
                        "sharing a server (test/scripts/cache_server.py)")
    parser.add_argument("--fleet-only", action="store_true",
                        help="with --shards, measure the fleet alone")
    parser.add_argument("--server", choices=["redis", "http"],
                        default="redis", help="the fleet's shared cache")
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

        if args.fleet_only and args.shards:
            if not fleet(gpuguard, work, root, args.shards, args.server):
                sys.exit("bench_cache.py: the fleet printed other findings "
                         "than a run without the cache")
            return
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
        if args.shards and not fleet(gpuguard, work, root, args.shards,
                                     args.server):
            sys.exit("bench_cache.py: the fleet printed other findings than "
                     "a run without the cache")


if __name__ == "__main__":
    main()
