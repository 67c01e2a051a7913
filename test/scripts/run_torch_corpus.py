#!/usr/bin/env python3
"""Compiles and runs the LibTorch corpus to show what PyTorch itself says.

    run_torch_corpus.py --cxx CLANG++ --flags 'FLAGS' [--root DIR] [FILE...]

Every clean/ program must be accepted: exit status 0, no PyTorch warning on
stderr, and no NaN or infinity in what it prints. Every buggy/ program must be
rejected: an exception (a c10::Error ends the program), a PyTorch warning, or
a NaN or infinity in its output. Buggy programs are built with
`-DkCUDA=kMeta`: on a machine without a GPU the meta device keeps PyTorch's
device checks (mixing it with CPU tensors raises "Expected all tensors to be
on the same device") where CUDA would fail for lack of a driver. Clean
programs choose their device with torch::cuda::is_available() and run on the
CPU here.

One line per program, then a summary; the exit code is 1 when a clean program
is rejected or a buggy one accepted.
"""

import argparse
import concurrent.futures
import os
import re
import shlex
import subprocess
import sys
import tempfile

NON_FINITE = re.compile(r"(?<![A-Za-z])(nan|-?inf)(?![A-Za-z])", re.IGNORECASE)
# TORCH_WARN prints `... Warning: <message>` to stderr (the prefix depends on
# how c10 was built: its own logging or glog).
WARNING = re.compile(r"Warning: (.*)$", re.MULTILINE)


def outcome(ran):
    """Why PyTorch rejected the run, or None when it accepted it."""
    if ran.returncode != 0:
        for line in ran.stderr.splitlines():
            if line.startswith("  what():"):
                return "exception: " + line[len("  what():"):].strip()
        return f"exit status {ran.returncode}"
    warning = WARNING.search(ran.stderr)
    if warning:
        return "warning: " + warning.group(1)
    match = NON_FINITE.search(ran.stdout)
    if match:
        return f"non-finite output ({match.group(1)})"
    return None


def check(path, kind, cxx, flags, linker_flags, workdir, timeout):
    binary = os.path.join(workdir, kind + "-" +
                          os.path.splitext(os.path.basename(path))[0])
    command = [cxx] + flags + (["-DkCUDA=kMeta"] if kind == "buggy" else [])
    command += [path, "-o", binary, "-ltorch", "-ltorch_cpu", "-lc10"]
    command += linker_flags
    built = subprocess.run(command, capture_output=True, text=True)
    if built.returncode != 0:
        return False, "does not compile:\n" + built.stderr
    try:
        ran = subprocess.run([binary], capture_output=True, text=True,
                             errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        return False, f"did not finish within {timeout} s"
    why = outcome(ran)
    if kind == "clean":
        return why is None, why or "accepted"
    return why is not None, why or "accepted, but a buggy program must fail"


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--cxx", required=True)
    parser.add_argument("--flags", default="",
                        help="compile flags (LibTorch includes, -include-pch)")
    parser.add_argument("--root", default=os.path.join(
        os.path.dirname(__file__), os.pardir, "corpus", "torch"))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--linker-flags", default="",
                        help="flags for linking only (-fuse-ld=lld)")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("files", nargs="*",
                        help="only these corpus files (default: all)")
    args = parser.parse_args()

    root = os.path.realpath(args.root)
    jobs = []
    for kind in ("clean", "buggy"):
        directory = os.path.join(root, kind)
        for name in sorted(os.listdir(directory)):
            path = os.path.join(directory, name)
            if name.endswith(".cpp") and (
                    not args.files or
                    any(os.path.realpath(f) == path for f in args.files)):
                jobs.append((path, kind))
    flags = shlex.split(args.flags)
    failures = 0
    with tempfile.TemporaryDirectory() as workdir, \
            concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        results = pool.map(
            lambda job: check(job[0], job[1], args.cxx, flags,
                              shlex.split(args.linker_flags), workdir,
                              args.timeout), jobs)
        for (path, kind), (ok, why) in zip(jobs, results):
            failures += not ok
            status = "ok" if ok else "FAIL"
            print(f"{status}: {os.path.relpath(path, root)}: {why}",
                  flush=True)
    print(f"torch corpus: {len(jobs) - failures}/{len(jobs)} programs behave "
          "as their directory says")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
