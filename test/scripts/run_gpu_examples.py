#!/usr/bin/env python3
"""Runs the CUDA examples on a GPU three ways and prints what each run saw.

For each examples/cuda/<name>.cu (in name order):
  plain:      the program as written, built with nvcc, run;
  sanitizer:  the same binary under compute-sanitizer's memcheck, the
              reference for what really goes out of bounds;
  gpuguard:   the instrumented copy, linked with the runtime library, run.

The instrumented copies come from `gpuguard instrument` when --gpuguard is
given (flagged sites for *_bug.cu, every site for *_fixed.cu, so that a fixed
twin shows the checks stay quiet on correct code), or from a directory that
test/scripts/gpu_suite.py prepared on a machine with gpuguard (--instrumented).

The output is made for FileCheck: one block per example, each line prefixed
by the run it belongs to. Lines that vary between runs (addresses, thread
numbers in compute-sanitizer's report) are summarised, not echoed.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile


def run(command, timeout=120):
    try:
        done = subprocess.run(command, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, "", f"timed out after {timeout} s"
    return done.returncode, done.stdout, done.stderr


def compile_program(nvcc, source, output, extra):
    status, out, err = run([nvcc, "-std=c++17", "-O2", "-lineinfo", *extra,
                            source, "-o", output], timeout=300)
    if status != 0:
        sys.stdout.write(f"  build failed ({source}):\n{out}{err}")
    return status == 0


def summarise_sanitizer(text):
    """The error summary and the distinct kinds of error, without addresses."""
    kinds = []
    summary = "no summary"
    for line in text.splitlines():
        line = line.removeprefix("=========").strip()
        # The first summary line counts; a second one says how many of
        # them were not printed.
        if line.startswith("ERROR SUMMARY:") and summary == "no summary":
            summary = line
        elif re.match(r"(Invalid|Program hit|Misaligned|Out-of-range|"
                      r"Barrier|Race|Uninitialized)", line):
            kind = re.sub(r"\s+at .*$", "", line)
            if kind not in kinds:
                kinds.append(kind)
    return summary, kinds


def instrumented_copies(args, examples, workdir):
    """Maps each example's file name to its instrumented copy."""
    if args.instrumented:
        with open(os.path.join(args.instrumented, "manifest.json")) as f:
            manifest = json.load(f)
        return {name: os.path.join(args.instrumented, relative)
                for name, relative in manifest.items()}
    copies = {}
    for source in examples:
        name = os.path.basename(source)
        mode = "all" if name.endswith("_fixed.cu") else "flagged"
        out_dir = os.path.join(workdir, "instrumented")
        status, out, err = run([args.gpuguard, "instrument", source, "-o",
                                out_dir, f"--instrument={mode}", "--quiet",
                                "--"], timeout=300)
        copy = os.path.join(out_dir, os.path.abspath(source).lstrip("/"))
        if status not in (0, 1) or not os.path.exists(copy):
            sys.stdout.write(f"  instrument failed ({source}):\n{out}{err}")
            continue
        copies[name] = copy
    return copies


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", required=True)
    parser.add_argument("--nvcc", required=True)
    parser.add_argument("--runtime-include", required=True)
    parser.add_argument("--runtime-lib", action="append", default=[])
    parser.add_argument("--sanitizer")
    source_of_copies = parser.add_mutually_exclusive_group(required=True)
    source_of_copies.add_argument("--gpuguard")
    source_of_copies.add_argument("--instrumented")
    args = parser.parse_args()

    examples = sorted(os.path.join(args.examples, name)
                      for name in os.listdir(args.examples)
                      if name.endswith(".cu"))
    workdir = tempfile.mkdtemp(prefix="gpuguard-examples-")
    try:
        copies = instrumented_copies(args, examples, workdir)
        for source in examples:
            name = os.path.basename(source)
            print(f"== {name}")
            plain = os.path.join(workdir, name + ".plain")
            if compile_program(args.nvcc, source, plain, []):
                status, out, err = run([plain])
                print(f"plain: exit {status}")
                for line in err.splitlines():
                    print(f"plain: {line}")
                if args.sanitizer:
                    status, out, err = run([args.sanitizer, "--tool", "memcheck",
                                            "--print-limit", "100", plain],
                                           timeout=300)
                    summary, kinds = summarise_sanitizer(out + err)
                    print(f"sanitizer: {summary}")
                    for kind in kinds:
                        print(f"sanitizer: {kind}")
            copy = copies.get(name)
            if not copy:
                print("gpuguard: no instrumented copy")
                continue
            checked = os.path.join(workdir, name + ".gpuguard")
            # The copy's own directory first, for the original's quoted
            # includes.
            if compile_program(args.nvcc, copy, checked,
                               [f"-I{os.path.dirname(source)}",
                                f"-I{args.runtime_include}",
                                *args.runtime_lib, "-lpthread"]):
                status, out, err = run([checked])
                print(f"gpuguard: exit {status}")
                for line in out.splitlines():
                    print(f"gpuguard> {line}")
                for line in err.splitlines():
                    print(f"gpuguard: {line}")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
