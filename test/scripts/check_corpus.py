#!/usr/bin/env python3
"""Runs gpuguard on the kernel corpus and scores its findings.

    check_corpus.py --gpuguard BIN [--root DIR] [--checks=GLOBS]
                    [--extra-flag=FLAG ...] [--compile-flags=FLAGS]
                    [--jobs N] [--timeout S]

The corpus root holds two directories of CUDA (.cu, .cuh) or C++ (.cpp)
files:
  clean/  correct, idiomatic kernels: any finding on them is a false positive;
  buggy/  twins of clean files with planted bugs. The line where a check
          should report carries a trailing marker naming the check(s):
              c[i] = a[i] + b[i]; // BUG: cuda-unchecked-index
          A finding on a marked line with a marked check finds that bug; any
          other finding is unexpected.

Each file is checked by its own `gpuguard --quiet FILE -- FLAGS` run (plus
the --extra-flag options, before FILE), so that a crash on one file does not
hide the results of the others. FLAGS are the --compile-flags, split as a
shell would; by default nothing follows `--`, and gpuguard finds the CUDA
toolkit itself or falls back to its bundled headers. The LibTorch corpus
(test/corpus/torch) is checked with the real headers:
    --compile-flags='-std=c++17 -isystem <libtorch>/include/torch/csrc/api/include
                     -include-pch <build>/test/torch.pch'

--checks takes comma-separated globs, as clang-tidy does (`cuda-*`,
`-cuda-div-by-zero`). Only the selected checks run, and the markers of the
other checks are ignored.

The output lists each problem as `file:line: what`, then a table per check
and one summary line:
    corpus: N clean files with 0 findings; M/M planted bugs found; 0 unexpected
The exit code is 1 when there is any problem: a finding on a clean file, a
planted bug not found, an unexpected finding, or a file gpuguard could not
check. It is 2 when the corpus or the command line cannot be used.
"""

import argparse
import concurrent.futures
import fnmatch
import os
import re
import shlex
import signal
import subprocess
import sys

SOURCE_SUFFIXES = (".cu", ".cuh", ".cpp")
MARKER = re.compile(r"//\s*BUG:\s*(?P<checks>.*?)\s*$")
CHECK_NAME = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)+$")
DIAGNOSTIC = re.compile(
    r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): "
    r"(?P<severity>warning|error|fatal error): (?P<message>.*?)"
    r"(?: \[(?P<check>[^\]]+)\])?$")


# A note that names another site of the warning before it: one fault that
# several accesses share is one warning, with the other accesses as notes.
SAME_FAULT_NOTE = re.compile(
    r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): note: "
    r"(?P<message>the same index reaches .*)$")


def fail(message):
    sys.stderr.write("check_corpus.py: " + message + "\n")
    sys.exit(2)


class CheckFilter:
    """clang-tidy's glob list: later globs win, '-' disables. A list of
    negative globs only removes checks from all of them."""

    def __init__(self, text):
        self.globs = []
        for glob in (text or "*").split(","):
            glob = glob.strip()
            if not glob:
                continue
            negative = glob.startswith("-")
            self.globs.append((negative, glob.lstrip("-").strip()))
        if all(negative for negative, _ in self.globs):
            self.globs.insert(0, (False, "*"))

    def gpuguard_option(self):
        """The --checks option that runs exactly the selected checks."""
        return "--checks=-*," + ",".join(
            ("-" if negative else "") + glob for negative, glob in self.globs)

    def __call__(self, check):
        enabled = False
        for negative, glob in self.globs:
            if fnmatch.fnmatchcase(check, glob):
                enabled = not negative
        return enabled


def registered_checks(gpuguard):
    try:
        listed = subprocess.run([gpuguard, "--list-checks", "--checks=*"],
                                capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.SubprocessError) as error:
        fail(f"cannot run {gpuguard}: {error}")
    if listed.returncode != 0:
        fail(f"{gpuguard} --list-checks failed:\n{listed.stderr}")
    return sorted(line.strip() for line in listed.stdout.splitlines()
                  if line.startswith("    "))


def corpus_files(root, kind):
    directory = os.path.join(root, kind)
    if not os.path.isdir(directory):
        fail(f"no {kind}/ directory in {root}")
    return sorted(os.path.join(directory, name)
                  for name in os.listdir(directory)
                  if name.endswith(SOURCE_SUFFIXES))


QUALIFIED = re.compile(r"^(?P<check>[^\s(]+)\s*(?:\((?P<qualifier>[^)]*)\))?$")


def read_markers(path):
    """Returns {line: [(check, qualifier), ...]} for the `// BUG:` markers of
    a file. A qualifier in parentheses names the check option under which
    the bug is found (`(CheckLoadedIndexes)`), or says that the check misses
    it for a reason its docs page names (`(known miss: ...)`)."""
    markers = {}
    with open(path, encoding="utf-8") as source:
        for number, text in enumerate(source, 1):
            match = MARKER.search(text)
            if not match:
                continue
            entries = []
            for item in match.group("checks").split(","):
                parts = QUALIFIED.match(item.strip())
                if parts:
                    entries.append((parts.group("check"),
                                    (parts.group("qualifier") or "").strip()))
                else:
                    entries.append((item.strip(), ""))
            markers[number] = entries
    return markers


class Result:
    """What one gpuguard run reported on one file."""

    def __init__(self, path):
        self.path = path
        self.findings = []  # (file, line, col, check, message), deduplicated
        self.errors = []  # (file, line, message)
        self.failure = None  # why the file could not be checked, or None


def run_gpuguard(gpuguard, extra_flags, checks, path, timeout,
                 compile_flags=()):
    result = Result(path)
    command = [gpuguard, "--quiet"] + extra_flags
    if checks:
        command.append(checks)
    command += [path, "--"] + list(compile_flags)
    try:
        ran = subprocess.run(command, capture_output=True, text=True,
                             errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        result.failure = f"gpuguard did not finish within {timeout} s"
        return result
    except OSError as error:
        fail(f"cannot run {gpuguard}: {error}")
    seen = set()
    last_check = None
    for text in (ran.stdout + "\n" + ran.stderr).splitlines():
        note = SAME_FAULT_NOTE.match(text)
        if note and last_check:
            key = (os.path.realpath(note.group("file")), int(note.group("line")),
                   int(note.group("col")), last_check)
            if key not in seen:
                seen.add(key)
                result.findings.append(key + (note.group("message"),))
            continue
        match = DIAGNOSTIC.match(text)
        if not match:
            continue
        file = os.path.realpath(match.group("file"))
        line = int(match.group("line"))
        message = match.group("message")
        if match.group("severity") != "warning":
            result.errors.append((file, line, message))
            continue
        check = (match.group("check") or "(no check)").split(",")[0]
        last_check = check
        key = (file, line, int(match.group("col")), check)
        if key not in seen:
            seen.add(key)
            result.findings.append(key + (message,))
    if ran.returncode < 0:
        try:
            name = signal.Signals(-ran.returncode).name
        except ValueError:
            name = f"signal {-ran.returncode}"
        result.failure = f"gpuguard crashed ({name})"
    elif ran.returncode not in (0, 1):
        result.failure = f"gpuguard exited with code {ran.returncode}"
        if not result.errors and ran.stderr.strip():
            result.failure += ": " + ran.stderr.strip().splitlines()[-1]
    return result


class Score:
    def __init__(self):
        self.clean_findings = 0
        self.planted = 0
        self.found = 0
        self.unexpected = 0


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--gpuguard", required=True)
    parser.add_argument(
        "--root", default=os.path.join(os.path.dirname(__file__), os.pardir,
                                       "corpus"),
        help="corpus directory holding clean/ and buggy/")
    parser.add_argument("--checks", default="",
                        help="comma-separated globs of the checks to score")
    parser.add_argument("--extra-flag", action="append", default=[],
                        help="option passed to gpuguard (repeatable)")
    parser.add_argument("--compile-flags", default="",
                        help="compile flags passed after '--' (one string, "
                        "split as a shell would)")
    parser.add_argument("--enable-option", action="append", default=[],
                        help="check option the run enables: bugs marked "
                        "with it are expected too")
    parser.add_argument("--measure-clean", action="store_true",
                        help="print findings on clean files and unmarked "
                        "findings in buggy ones as a measurement instead of "
                        "failing on them")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="seconds allowed for one file")
    args = parser.parse_args()

    root = os.path.realpath(args.root)
    selected = CheckFilter(args.checks)
    registered = registered_checks(args.gpuguard)
    clean = corpus_files(root, "clean")
    buggy = corpus_files(root, "buggy")
    if not clean or not buggy:
        fail(f"clean/ and buggy/ in {root} must both hold source files "
             f"({', '.join(SOURCE_SUFFIXES)})")

    def shown(path):
        inside = path.startswith(root + os.sep)
        return os.path.relpath(path, root) if inside else path

    problems = []
    scores = {check: Score() for check in registered if selected(check)}

    def score(check):
        return scores.setdefault(check, Score())

    markers = {}
    known_misses = {}
    for path in clean + buggy:
        for line, checks in read_markers(path).items():
            for check, qualifier in checks:
                if qualifier.startswith("known miss"):
                    if selected(check) and check in registered:
                        known_misses.setdefault(path, set()).add((line, check))
                    continue
                if qualifier and qualifier not in args.enable_option:
                    continue
                if not CHECK_NAME.match(check):
                    problems.append((path, line,
                                     f"malformed BUG marker '{check}'"))
                elif check not in registered:
                    problems.append((path, line, "BUG marker names "
                                     f"'{check}', which is not a check"))
                elif path in clean:
                    problems.append((path, line, "BUG marker in a clean file"))
                elif selected(check):
                    markers.setdefault(path, set()).add((line, check))

    compile_flags = shlex.split(args.compile_flags)
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        results = list(pool.map(
            lambda path: run_gpuguard(
                args.gpuguard, args.extra_flag,
                selected.gpuguard_option() if args.checks else "", path,
                args.timeout, compile_flags),
            clean + buggy))

    clean_findings = 0
    for result in results:
        path = result.path
        is_clean = path in clean
        planted = markers.get(path, set())
        if result.failure:
            problems.append((path, 1, result.failure +
                             "; its findings are incomplete"))
        for file, line, message in result.errors:
            problems.append((file, line, "error: " + message))
        hits = set()
        for file, line, col, check, message in result.findings:
            if check in registered and not selected(check):
                continue
            if is_clean:
                clean_findings += 1
                score(check).clean_findings += 1
                if not args.measure_clean:
                    problems.append((file, line, f"finding on a clean file: "
                                     f"{message} [{check}]"))
                else:
                    print(f"{shown(file)}:{line}: measured on a clean file: "
                          f"{message} [{check}]")
            elif file == path and (line, check) in planted:
                hits.add((line, check))
            elif file == path and (line, check) in known_misses.get(path, ()):
                problems.append((file, line, f"a known miss of {check} is "
                                 "found now: drop '(known miss: ...)' from "
                                 "its marker and from the docs"))
            else:
                score(check).unexpected += 1
                if args.measure_clean:
                    print(f"{shown(file)}:{line}: measured in a buggy file: "
                          f"{message} [{check}]")
                else:
                    problems.append((file, line, f"unexpected finding: "
                                     f"{message} [{check}]"))
        for line, check in sorted(planted):
            score(check).planted += 1
            if (line, check) in hits:
                score(check).found += 1
            else:
                problems.append((path, line,
                                 f"planted {check} bug not found"))

    for file, line, what in sorted(problems,
                                   key=lambda p: (shown(p[0]), p[1], p[2])):
        print(f"{shown(file)}:{line}: {what}")
    if problems:
        print()

    width = max([len("check")] + [len(check) for check in scores])
    print(f"{'check':<{width}}  clean findings  planted found  "
          f"unexpected in buggy")
    for check in sorted(scores):
        s = scores[check]
        print(f"{check:<{width}}  {s.clean_findings:>14}  "
              f"{f'{s.found}/{s.planted}':>13}  {s.unexpected:>19}")
    planted = sum(s.planted for s in scores.values())
    found = sum(s.found for s in scores.values())
    unexpected = sum(s.unexpected for s in scores.values())
    failures = sum(1 for r in results if r.failure or r.errors)
    misses = sum(len(v) for v in known_misses.values())
    print(f"corpus: {len(clean)} clean files with {clean_findings} findings; "
          f"{found}/{planted} planted bugs found; {unexpected} unexpected; "
          f"{misses} known misses")
    if failures:
        print(f"corpus: {failures} files could not be checked completely")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
