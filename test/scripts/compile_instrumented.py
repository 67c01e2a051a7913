#!/usr/bin/env python3
"""Instruments CUDA files with every runtime check and compiles the copies.

    compile_instrumented.py --gpuguard=BIN --nvcc=NVCC --clang=CLANGXX
        --cuda-path=DIR --runtime-include=DIR [--link-flags=FLAGS]
        --workdir=DIR [--jobs=N] FILE_OR_DIR...

Each .cu file (directories are searched for them, not recursively) is
instrumented by `gpuguard instrument --quiet --instrument=all`, with the CUDA
toolkit gpuguard finds itself, and its copy must then
  - compile with `NVCC -std=c++17 -I<runtime include> -c`;
  - link with NVCC and the --link-flags (the runtime library, split as a
    shell would), when they are given (a file without a `main` is only
    compiled);
  - pass `CLANGXX -fsyntax-only` in CUDA mode with the same toolkit.
A copy that gets no runtime check at all counts as a failure too: the
instrumented sites are what this test compiles.

Prints one line per file, `ok FILE (N checks)` or `FAIL FILE: <step>` followed
by the step's first lines of output, then
    instrumented N files with M runtime checks: N compiled, 0 failed
and exits with 1 when any file failed, 2 when the command line is unusable.
"""

import argparse
import concurrent.futures
import os
import re
import shlex
import subprocess
import sys

CHECKS = re.compile(r"with (\d+) runtime check\(s\)")


def run(command, cwd=None):
    """(exit code, combined output) of \\p command."""
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    return done.returncode, done.stdout + done.stderr


def excerpt(output, lines=12):
    return "\n".join("    " + line for line in output.splitlines()[:lines])


def has_main(path):
    with open(path, errors="replace") as source:
        return re.search(r"^\s*int\s+main\s*\(", source.read(), re.M) is not None


def process(args, index, source):
    """Instruments and builds one file: (ok, line to print, checks)."""
    work = os.path.join(args.workdir, f"{index:03d}")
    os.makedirs(work, exist_ok=True)
    name = os.path.relpath(source, args.base)
    code, output = run([args.gpuguard, "instrument", "--quiet",
                        "--instrument=all", "-o", os.path.join(work, "copy"),
                        source, "--"])
    copy = os.path.join(work, "copy") + source
    if code != 0 or not os.path.exists(copy):
        return False, f"FAIL {name}: gpuguard instrument\n{excerpt(output)}", 0
    with open(copy) as text:
        checks = len(re.findall(r"::gpuguard::rt::check\w+\(", text.read()))
    if checks == 0:
        return False, f"FAIL {name}: no runtime check was inserted", 0
    steps = [("nvcc -c", [args.nvcc, "-std=c++17", "-I" + args.runtime_include,
                          "-c", copy, "-o", os.path.join(work, "copy.o")])]
    if args.link and has_main(source):
        steps.append(("nvcc link", [args.nvcc, os.path.join(work, "copy.o")] +
                      args.link + ["-o",
                                   os.path.join(work, "program")]))
    steps.append(("clang -fsyntax-only",
                  [args.clang, "-x", "cuda", "--cuda-path=" + args.cuda_path,
                   "-nocudalib", "--cuda-gpu-arch=sm_80",
                   "-Xclang", "-target-sdk-version=12.9",
                   "-Wno-unknown-cuda-version", "-std=c++17",
                   "-I" + args.runtime_include, "-fsyntax-only", copy]))
    for step, command in steps:
        code, output = run(command, cwd=work)
        if code != 0:
            return False, f"FAIL {name}: {step}\n{excerpt(output)}", checks
    return True, f"ok {name} ({checks} checks)", checks


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpuguard", required=True)
    parser.add_argument("--nvcc", required=True)
    parser.add_argument("--clang", required=True)
    parser.add_argument("--cuda-path", required=True)
    parser.add_argument("--runtime-include", required=True)
    parser.add_argument("--link-flags", default="",
                        help="how to link the programs with the runtime")
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("inputs", nargs="+")
    args = parser.parse_args()

    sources = []
    for item in args.inputs:
        if os.path.isdir(item):
            sources += sorted(os.path.join(item, name)
                              for name in os.listdir(item)
                              if name.endswith(".cu"))
        elif os.path.isfile(item):
            sources.append(item)
        else:
            print(f"compile_instrumented.py: no file or directory '{item}'",
                  file=sys.stderr)
            return 2
    sources = [os.path.abspath(source) for source in sources]
    # The steps run in per-file directories.
    args.runtime_include = os.path.abspath(args.runtime_include)
    args.link = [os.path.abspath(flag) if os.path.exists(flag) else flag
                 for flag in shlex.split(args.link_flags)]
    if not sources:
        print("compile_instrumented.py: no .cu file among the inputs",
              file=sys.stderr)
        return 2
    args.base = os.path.commonpath([os.path.dirname(s) for s in sources])
    os.makedirs(args.workdir, exist_ok=True)

    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        results = list(pool.map(lambda item: process(args, *item),
                                enumerate(sources)))
    for _, line, _ in results:
        print(line)
    failed = sum(1 for ok, _, _ in results if not ok)
    checks = sum(count for _, _, count in results)
    print(f"instrumented {len(results)} files with {checks} runtime checks: "
          f"{len(results) - failed} compiled, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
