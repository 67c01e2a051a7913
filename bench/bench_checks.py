#!/usr/bin/env python3
"""Times gpuguard against a plain Clang parse and clang-tidy on the same files.

    bench_checks.py --gpuguard BIN [--clang CLANG] [--clang-tidy TIDY]
                    [--repeat N] [--instructions] [--corpus DIR] [--large]
                    [--extra-flags FLAGS] [FILE_OR_DIR ...]

For every file, six commands run alternately, N times each, so that all
see the same caches: `clang++ -fsyntax-only` with the flags gpuguard itself
uses for the file, `clang-tidy --checks=-*,bugprone-*` with the same flags
(clang-tidy's own cost with a common check set), and gpuguard four ways:
full (`--no-cache --no-preamble`: every run parses everything), cold
(`--no-cache` with no precompiled preamble yet: it is built, then used),
preamble (`--no-cache` with the file's preambles built by a first run: the
file changed, its headers did not), and warm (a result cache a first run
filled: nothing changed, the findings are replayed). The four must print
the same findings. A CUDA file is parsed twice by the three parsers, once
for the device and once for the host. The table gives each file's median wall
time for each and gpuguard's ratios to Clang's parse; the geometric means
of the ratios follow. With --corpus, the clean/ and
buggy/ files of the kernel corpus are timed, and gpuguard's findings on them
are counted per check. --large adds a generated file of a few thousand lines
(bench/generate_large_kernels.py), written to a temporary directory.

--extra-flags gives both tools the same further compile flags, after `--` for
gpuguard and before the file for clang. LibTorch files need them, with or
without the precompiled header the build makes:
    bench_checks.py --gpuguard build/bin/gpuguard --corpus test/corpus/torch \
      --extra-flags='-std=c++17 -isystem /usr/include/torch/csrc/api/include
                     -include-pch build/test/torch.pch'

Wall times on a shared or busy machine swing by tens of percent from run to
run. --instructions counts the instructions each tool executes instead, under
Valgrind's callgrind (child processes included, so the Clang driver's cc1
jobs count): slower, one run per tool, and the same figure every time.

The numbers are a report, never a verdict: nothing here fails on a timing.
The exit code is 2 for an unusable command line and 0 otherwise, even when a
file fails to parse (it is then marked in the table and left out of the
mean).
"""

import argparse
import math
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

CUDA_SUFFIXES = (".cu", ".cuh")
CXX_SUFFIXES = (".cpp", ".cc", ".cxx")
# What gpuguard adds to a CUDA compile command (lib/Frontend).
GPU_ARCH = "sm_80"
SDK_VERSION = "12.9"
FINDING = re.compile(r"^(?P<file>.+?):\d+:\d+: warning: .*\[(?P<check>[^\],]+)"
                     r"[^\]]*\]$")
HERE = os.path.dirname(os.path.abspath(__file__))


def fail(message):
    sys.stderr.write("bench_checks.py: " + message + "\n")
    sys.exit(2)


def find_toolkit(explicit):
    """The toolkit gpuguard would pick: --cuda-path, $CUDA_PATH, then
    /usr/local/cuda; None when there is none."""
    if explicit:
        return explicit
    for candidate in [os.environ.get("CUDA_PATH", ""), "/usr/local/cuda"]:
        if candidate and os.path.isfile(
                os.path.join(candidate, "include", "cuda.h")):
            return candidate
    return None


def clang_flags(path, toolkit, gpuguard):
    """Clang's flags for a file, as gpuguard builds them."""
    if path.endswith(CXX_SUFFIXES):
        return []
    flags = ["-xcuda"]
    if toolkit:
        flags.append("--cuda-path=" + toolkit)
    else:
        fallback = os.path.join(os.path.dirname(os.path.abspath(gpuguard)),
                                os.pardir, "share", "gpuguard",
                                "cuda-fallback", "include")
        flags += ["-nocudainc", "-isystem", os.path.normpath(fallback),
                  "-include", "__gpuguard_cuda_fallback.h"]
    return flags + ["-nocudalib", "--cuda-gpu-arch=" + GPU_ARCH,
                    "-Wno-unknown-cuda-version", "-Xclang",
                    "-target-sdk-version=" + SDK_VERSION]


def collect(paths):
    files = []
    for path in paths:
        if os.path.isdir(path):
            for directory, subdirs, names in os.walk(path):
                subdirs.sort()
                files += [os.path.join(directory, name) for name in
                          sorted(names)
                          if name.endswith(CUDA_SUFFIXES + CXX_SUFFIXES)]
        elif os.path.isfile(path):
            files.append(path)
        else:
            fail(f"no such file or directory: {path}")
    return files


def timed(command):
    start = time.perf_counter()
    ran = subprocess.run(command, capture_output=True, text=True,
                         errors="replace")
    return time.perf_counter() - start, ran


I_REFS = re.compile(r"^==\d+== I\s+refs:\s+([\d,]+)$", re.MULTILINE)


def counted(command, scratch):
    """Runs \p command under callgrind; returns the instructions executed by
    it and every process it started, and the completed process."""
    ran = subprocess.run(
        ["valgrind", "--tool=callgrind", "--trace-children=yes",
         "--callgrind-out-file=" + os.path.join(scratch, "callgrind.%p")] +
        command, capture_output=True, text=True, errors="replace")
    total = sum(int(n.replace(",", "")) for n in I_REFS.findall(ran.stderr))
    return total / 1e9, ran


def count_lines(path):
    with open(path, "rb") as source:
        return sum(1 for _ in source)


LABELS = {}  # display names of generated files


def shown(path):
    if path in LABELS:
        return LABELS[path]
    relative = os.path.relpath(path)
    return path if relative.startswith(os.pardir) else relative


def describe_failure(ran):
    if ran.returncode < 0:
        return f"crashed (signal {-ran.returncode})"
    return f"exit code {ran.returncode}"


TIDY_CHECKS = "-*,bugprone-*"


def geometric_mean(ratios):
    return math.exp(sum(math.log(r) for r in ratios) / len(ratios))


GPUGUARD_RUNS = ("full", "cold", "preamble", "warm")


def bench(args, files, groups, scratch):
    toolkit = find_toolkit(args.cuda_path)
    gpuguard_options = ["--quiet"]
    if args.cuda_path:
        gpuguard_options.append("--cuda-path=" + args.cuda_path)
    warm_cache = "--cache-dir=" + os.path.join(scratch, "results")
    # The precompiled preambles of the preamble and warm runs, which a first
    # run builds; each cold run starts from an empty directory.
    preamble_home = "XDG_CACHE_HOME=" + os.path.join(scratch, "home")
    tidy = args.clang_tidy if os.access(args.clang_tidy, os.X_OK) else None
    print(f"gpuguard: {args.gpuguard}\n"
          f"  full:     --no-cache --no-preamble (every run parses all)\n"
          f"  cold:     --no-cache, no preamble built yet (built, then used)\n"
          f"  preamble: --no-cache, the file's preambles built by a first "
          f"run (the file changed, its headers did not)\n"
          f"  warm:     {warm_cache} filled by a first run (nothing changed)")
    extra = shlex.split(args.extra_flags)
    print(f"clang:    {args.clang} -fsyntax-only "
          f"{' '.join(clang_flags('x.cu', toolkit, args.gpuguard))}")
    print(f"tidy:     {tidy or '(not found: ' + args.clang_tidy + ')'} "
          f"--quiet --checks='{TIDY_CHECKS}' FILE -- <clang's flags>")
    if extra:
        print(f"both:     {' '.join(extra)}")
    if args.instructions:
        repeat, unit = 1, "Ginstr"
        print("1 run of each tool per file under callgrind; billions of "
              "instructions executed\n")
    else:
        repeat, unit = args.repeat, "s"
        runs = "1 run" if repeat == 1 else f"{repeat} runs"
        print(f"{runs} of each tool per file, interleaved; median wall "
              f"times\n")

    names = ("clang", "tidy") + GPUGUARD_RUNS
    width = max([len("file")] + [len(shown(f)) for f in files])
    print(f"{'file':<{width}}  {'lines':>6}  " +
          "  ".join(f"{name + ' ' + unit:>11}" for name in names) + "  " +
          "  ".join(f"{name + '/clang':>14}" for name in GPUGUARD_RUNS))
    ratios = {name: [] for name in GPUGUARD_RUNS}
    notes = []
    findings = {}  # check -> group -> count
    totals = [0.0] * len(names)
    measure = ((lambda c: counted(c, scratch)) if args.instructions
               else timed)
    cold_runs = 0
    for path in files:
        flags = clang_flags(path, toolkit, args.gpuguard) + extra
        gpuguard = [args.gpuguard] + gpuguard_options

        def commands():
            nonlocal cold_runs
            cold_runs += 1
            cold_home = "XDG_CACHE_HOME=" + os.path.join(
                scratch, f"cold-{cold_runs}")
            return {
                "clang": [args.clang, "-fsyntax-only"] + flags + [path],
                "tidy": ([tidy, "--quiet", f"--checks={TIDY_CHECKS}", path,
                          "--"] + flags) if tidy else None,
                "full": (["env", preamble_home] + gpuguard +
                         ["--no-cache", "--no-preamble", path, "--"] + extra),
                "cold": (["env", cold_home] + gpuguard +
                         ["--no-cache", path, "--"] + extra),
                "preamble": (["env", preamble_home] + gpuguard +
                             ["--no-cache", path, "--"] + extra),
                "warm": (["env", preamble_home] + gpuguard + [warm_cache] +
                         [path, "--"] + extra),
            }
        # The first warm run fills the result cache and builds the
        # preambles; it is not timed.
        timed(commands()["warm"])
        times = {name: [] for name in names}
        outputs, problem = {}, None
        for _ in range(repeat):
            for name, command in commands().items():
                if command is None:
                    continue
                seconds, ran = measure(command)
                times[name].append(seconds)
                outputs.setdefault(name, ran.stdout)
                ok = (ran.returncode in (0, 1) if name in GPUGUARD_RUNS
                      else name == "tidy" or ran.returncode == 0)
                if not ok and problem is None:
                    problem = f"{name} " + describe_failure(ran)
        for name in GPUGUARD_RUNS[1:]:
            if outputs[name] != outputs["full"] and problem is None:
                problem = f"the {name} run printed other findings than full"
        medians = [statistics.median(times[name]) if times[name]
                   else float("nan") for name in names]
        for i, value in enumerate(medians):
            totals[i] += value if value == value else 0.0
        clang_s = medians[0]
        file_ratios = {
            name: (medians[names.index(name)] / clang_s if clang_s > 0
                   else float("nan")) for name in GPUGUARD_RUNS}
        mark = ""
        if problem:
            notes.append(f"{shown(path)}: {problem}")
            mark = " *"
        elif file_ratios["full"] == file_ratios["full"]:
            for name in GPUGUARD_RUNS:
                ratios[name].append(file_ratios[name])
        print(f"{shown(path):<{width}}  {count_lines(path):>6}  " +
              "  ".join(f"{value:>11.2f}" for value in medians) + "  " +
              "  ".join(f"{file_ratios[name]:>14.3f}"
                        for name in GPUGUARD_RUNS) + mark, flush=True)
        gpuguard_output = outputs["full"]
        group = groups.get(path, "other")
        for line in gpuguard_output.splitlines():
            match = FINDING.match(line)
            if match:
                per_group = findings.setdefault(match.group("check"), {})
                per_group[group] = per_group.get(group, 0) + 1

    print(f"{'total':<{width}}  {'':>6}  " +
          "  ".join(f"{t:>11.2f}" for t in totals))
    if ratios["full"]:
        print(f"\ngeometric mean over {len(ratios['full'])} files, gpuguard / "
              f"clang: " + ", ".join(
                  f"{name} {geometric_mean(ratios[name]):.3f}"
                  for name in GPUGUARD_RUNS))
    if notes:
        print("\n* left out of the mean:")
        for note in notes:
            print("  " + note)
    return findings


def print_findings(findings, present):
    columns = [g for g in ("clean", "buggy", "other") if g in present]
    width = max([len("findings per check")] + [len(c) for c in findings])
    print(f"\n{'findings per check':<{width}}" +
          "".join(f"  {c:>6}" for c in columns))
    for check in sorted(findings):
        print(f"{check:<{width}}" + "".join(
            f"  {findings[check].get(c, 0):>6}" for c in columns))
    if not findings:
        print("(none)")


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--gpuguard", required=True)
    parser.add_argument("--clang", default="/usr/lib/llvm-22/bin/clang++")
    parser.add_argument("--clang-tidy",
                        default="/usr/lib/llvm-22/bin/clang-tidy",
                        help="the clang-tidy to compare with (its column is "
                        "left empty when it is not there)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of each tool per file (default 3)")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions under callgrind instead "
                        "of timing")
    parser.add_argument("--cuda-path", default="",
                        help="CUDA toolkit for both tools (default: as "
                        "gpuguard finds it)")
    parser.add_argument("--corpus", default="",
                        help="kernel corpus holding clean/ and buggy/")
    parser.add_argument("--large", action="store_true",
                        help="also time a generated file of a few thousand "
                        "lines")
    parser.add_argument("--extra-flags", default="",
                        help="compile flags given to both tools (one string, "
                        "split as a shell would)")
    parser.add_argument("paths", nargs="*", help="files or directories")
    args = parser.parse_args()
    if args.repeat < 1:
        fail("--repeat must be at least 1")
    for tool in (args.gpuguard, args.clang):
        if not os.access(tool, os.X_OK):
            fail(f"not an executable: {tool}")
    if args.instructions and not any(
            os.access(os.path.join(d, "valgrind"), os.X_OK)
            for d in os.environ.get("PATH", "").split(os.pathsep)):
        fail("--instructions needs valgrind: apt-get install valgrind")

    files = collect(args.paths)
    groups = {}
    if args.corpus:
        for group in ("clean", "buggy"):
            directory = os.path.join(args.corpus, group)
            if not os.path.isdir(directory):
                fail(f"no {group}/ directory in {args.corpus}")
            corpus_files = collect([directory])
            files += corpus_files
            groups.update((f, group) for f in corpus_files)

    with tempfile.TemporaryDirectory(prefix="gpuguard-bench-") as scratch:
        if args.large:
            large = os.path.join(scratch, "large_kernels.cu")
            subprocess.run([sys.executable,
                            os.path.join(HERE, "generate_large_kernels.py"),
                            large], check=True, stdout=subprocess.DEVNULL)
            files.append(large)
            LABELS[large] = "(generated) large_kernels.cu"
        if not files:
            fail("nothing to time: give files, directories, --corpus or "
                 "--large")
        findings = bench(args, files, groups, scratch)
    if groups:
        print_findings(findings, {groups.get(f, "other") for f in files})


if __name__ == "__main__":
    main()
