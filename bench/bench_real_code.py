#!/usr/bin/env python3
"""Measures gpuguard's findings on real CUDA code nobody here wrote.

    bench_real_code.py --gpuguard BIN [--corpora DIR] [--out DIR] [-j N]
                       [--corpus NAME ...] [-- EXTRA GPUGUARD ARGS]

Runs gpuguard over the corpora of ../shared/corpora (llm.c, NVIDIA's
cuda-samples and the pytorch-cpp LibTorch tutorials) with the flags their
README gives, and prints, per corpus and check: files, KLOC, files not
parsed, findings and findings per KLOC. KLOC counts the lines of the source
files checked (`.cu`; `.cpp` for pytorch-cpp); findings in headers count only
where the header filter shows them (none by default, as for a user). Each
pytorch-cpp tutorial is one run with its own `include/` folder, as its CMake
build has it, and `--torch-pch`.

With --out, it writes each corpus's findings (`<corpus>.findings.txt`, one
`file:line:col: check: message` per line, sorted) and gpuguard's whole
output (`<corpus>.log`), so two runs can be diffed and each finding given a
verdict in docs/real-code.md. Arguments after `--` go to gpuguard before
its inputs, e.g. `-- --config={CheckOptions: {...}}` for a profile.

The numbers are a report, never a verdict: nothing here fails on a figure.
It takes minutes, so it is a bench, not a test.
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CORPORA = os.path.normpath(os.path.join(HERE, "..", "..", "shared",
                                                "corpora"))

# name -> (directory under the corpora, which source files, compile flags),
# as the corpora's README gives them.
CORPORA = {
    "llm.c": ("llm.c", lambda path: path.endswith(".cu"),
              ["-std=c++17", "-I", "llm.c", "-I", "llm.c/llmc"]),
    "cuda-samples": ("cuda-samples/Samples",
                     lambda path: path.endswith(".cu") and
                     "/8_Platform_Specific/" not in path,
                     ["-std=c++17", "-I", "cuda-samples/Common"]),
    "pytorch-cpp": ("pytorch-cpp", lambda path: path.endswith(".cpp"),
                    ["-std=c++17", "-I", "pytorch-cpp/utils/image_io/include"]),
}

# Arguments for gpuguard itself, per corpus.
CORPUS_ARGS = {"pytorch-cpp": ["--torch-pch"]}


def groups(corpora, name, files, flags):
    """The runs a corpus takes: (files, flags) pairs. A LibTorch tutorial
    adds its own include/ folder, so each is a run of its own."""
    if name != "pytorch-cpp":
        return [(files, flags)]
    by_root = collections.defaultdict(list)
    for path in files:
        root = os.path.dirname(path)
        if os.path.basename(root) == "src":
            root = os.path.dirname(root)
        by_root[root].append(path)
    runs = []
    for root, members in sorted(by_root.items()):
        include = os.path.join(root, "include")
        extra = ["-I", include] if os.path.isdir(os.path.join(corpora,
                                                               include)) else []
        runs.append((members, flags + extra))
    return runs

FINDING = re.compile(r"^(?P<file>[^ :][^:]*):(?P<line>\d+):(?P<col>\d+): "
                     r"warning: (?P<message>.*) \[(?P<check>[a-z]+-[a-z-]+)\]$")
NOT_PARSED = re.compile(r"^gpuguard: error: '(?P<file>[^']+)' has compile errors")


def sources(corpora, directory, keep):
    found = []
    for root, _, files in os.walk(os.path.join(corpora, directory)):
        for name in files:
            path = os.path.relpath(os.path.join(root, name), corpora)
            if keep("/" + path):
                found.append(path)
    return sorted(found)


def count_lines(corpora, files):
    total = 0
    for path in files:
        with open(os.path.join(corpora, path), "rb") as f:
            total += sum(1 for _ in f)
    return total


def run(gpuguard, corpora, files, flags, jobs, extra):
    # Every file parsed, as a first run on a machine would, unless the
    # arguments name a result cache to measure.
    cache = [] if any(a.startswith("--cache-dir") for a in extra) else [
        "--no-cache"]
    command = ([gpuguard] + cache + ["-j", str(jobs)] + extra + files +
               ["--"] + flags)
    start = time.monotonic()
    result = subprocess.run(command, cwd=corpora, capture_output=True,
                            text=True, errors="replace")
    elapsed = time.monotonic() - start
    if result.returncode not in (0, 1, 3):
        sys.stderr.write(result.stderr[-3000:])
        sys.exit(f"bench_real_code.py: gpuguard exited {result.returncode}")
    return result.stdout + result.stderr, elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpuguard", required=True)
    parser.add_argument("--corpora", default=DEFAULT_CORPORA)
    parser.add_argument("--out", help="directory for findings and logs")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--corpus", action="append", choices=sorted(CORPORA),
                        help="corpus to run (default: all)")
    args, extra = parser.parse_known_args()
    if extra and extra[0] == "--":
        extra = extra[1:]
    gpuguard = os.path.abspath(args.gpuguard)
    corpora = os.path.abspath(args.corpora)
    if not os.path.isdir(corpora):
        sys.exit(f"bench_real_code.py: no corpora at {corpora}; pass --corpora")
    if args.out:
        os.makedirs(args.out, exist_ok=True)

    rows = []
    for name in args.corpus or sorted(CORPORA):
        directory, keep, flags = CORPORA[name]
        files = sources(corpora, directory, keep)
        kloc = count_lines(corpora, files) / 1000
        output, elapsed = "", 0.0
        for members, run_flags in groups(corpora, name, files, flags):
            part, seconds = run(gpuguard, corpora, members, run_flags,
                                args.jobs, CORPUS_ARGS.get(name, []) + extra)
            output += part
            elapsed += seconds
        findings = sorted({(m["file"], int(m["line"]), int(m["col"]),
                            m["check"], m["message"])
                           for m in map(FINDING.match, output.splitlines())
                           if m})
        not_parsed = sorted({m["file"] for m in map(NOT_PARSED.match,
                                                    output.splitlines()) if m})
        per_check = collections.Counter(f[3] for f in findings)
        rows.append((name, len(files), kloc, len(not_parsed), per_check,
                     len(findings), elapsed))
        if args.out:
            with open(os.path.join(args.out, f"{name}.findings.txt"), "w") as f:
                for file, line, col, check, message in findings:
                    f.write(f"{file}:{line}:{col}: {check}: {message}\n")
            with open(os.path.join(args.out, f"{name}.log"), "w") as f:
                f.write(output)
            with open(os.path.join(args.out, f"{name}.not-parsed.txt"),
                      "w") as f:
                f.writelines(path + "\n" for path in not_parsed)

    print(f"{'corpus':<14}{'files':>6}{'KLOC':>7}{'not parsed':>12}"
          f"{'findings':>10}{'per KLOC':>10}{'seconds':>9}")
    for name, files, kloc, not_parsed, _, total, elapsed in rows:
        print(f"{name:<14}{files:>6}{kloc:>7.1f}{not_parsed:>12}{total:>10}"
              f"{total / kloc:>10.2f}{elapsed:>9.0f}")
    print()
    checks = sorted({check for row in rows for check in row[4]})
    print(f"{'check':<28}" + "".join(f"{row[0]:>22}" for row in rows))
    for check in checks:
        cells = "".join(f"{row[4][check]:>8} ({row[4][check] / row[2]:5.2f}/KLOC)"
                        for row in rows)
        print(f"{check:<28}{cells}")


if __name__ == "__main__":
    main()
