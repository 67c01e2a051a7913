#!/usr/bin/env python3
"""Measures what instrumentation costs, side by side with the plain build.

    bench_instrument.py --gpuguard BIN --runtime-include DIR
                        [--torch-link LIB ...] [--repeat N] [--steps N]
                        [--kernels FILE_OR_DIR ...] [--skip-torch]

LibTorch: bench/programs/train_loop.cpp (an embedding, an MLP,
cross_entropy with ignore_index, an MSE auxiliary loss, SGD) is built three
ways with the same compiler and flags: plain, instrumented with
--instrument=flagged (the program has no findings, so this is the cost of
the runtime being linked in) and with --instrument=all (every embedding,
class-target, loss-shape and device site checked on every step). The
builds run alternately, N times each, and the table gives each build's
median wall time and its ratio to the plain build.

Kernels: with no GPU, kernel time cannot be measured here. Each kernel file
is compiled to PTX with `nvcc -ptx`, plain and instrumented with
--instrument=all, and the table gives the PTX instructions of each kernel
both ways, the sites instrumented and the instructions added per site. Most
of a check is a compare and a predicated branch to the out-of-line record
path, which runs only on failure.

The numbers are a report, never a verdict: nothing here fails on a figure.
"""

import argparse
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TORCH_INCLUDE = "/usr/include/torch/csrc/api/include"


def run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        sys.stderr.write(result.stdout[-3000:] + result.stderr[-3000:])
        sys.exit(f"bench_instrument.py: failed: {shlex.join(command)}")
    return result


def instrument(args, source, mode, out, flags):
    run([args.gpuguard, "instrument", "--quiet", f"--instrument={mode}",
         "-o", out, source, "--"] + flags)
    return out + os.path.abspath(source)


def bench_torch(args, work):
    source = os.path.join(HERE, "programs", "train_loop.cpp")
    flags = ["-std=c++17", "-isystem", TORCH_INCLUDE]
    if args.torch_pch:
        flags += ["-include-pch", args.torch_pch]
    compile_flags = flags + ["-O2", "-isystem", args.runtime_include]
    libraries = args.torch_link + ["-ltorch", "-ltorch_cpu", "-lc10",
                                   "-lpthread"]
    binaries = {}
    sources = {"plain": source}
    for mode in ("flagged", "all"):
        sources[mode] = instrument(args, source, mode,
                                   os.path.join(work, mode), flags)
    for name, path in sources.items():
        binary = os.path.join(work, f"train_{name}")
        print(f"building {name} ...", file=sys.stderr)
        run([args.cxx] + compile_flags + [path, "-o", binary] + libraries)
        binaries[name] = binary
    sites = len(re.findall(r"^    \{\"", open(sources["all"]).read(), re.M))

    times = {name: [] for name in binaries}
    outputs = {}
    for _ in range(args.repeat):
        for name, binary in binaries.items():
            start = time.perf_counter()
            result = run([binary, str(args.steps)])
            times[name].append(time.perf_counter() - start)
            outputs[name] = result.stdout + result.stderr
    plain = statistics.median(times["plain"])
    print(f"\nLibTorch training loop, {args.steps} steps, median of "
          f"{args.repeat} runs ({sites} sites with --instrument=all)")
    print(f"{'build':<24}{'seconds':>10}{'ratio':>9}")
    for name in binaries:
        median = statistics.median(times[name])
        print(f"{name:<24}{median:>10.3f}{median / plain:>9.3f}")
    for name, text in outputs.items():
        if "runtime error" in text:
            print(f"warning: the {name} build reported runtime errors")
    if len({text for text in outputs.values()}) != 1:
        print("warning: the builds' outputs differ")


PTX_FUNCTION = re.compile(r"^\.(?:visible|weak)?\s*\.entry\s+(\w+)", re.M)


def ptx_instructions(ptx):
    """Instructions per kernel entry: the statement lines of its body."""
    counts = {}
    for match in PTX_FUNCTION.finditer(ptx):
        body_start = ptx.index("{", match.end())
        depth, index = 0, body_start
        while True:
            if ptx[index] == "{":
                depth += 1
            elif ptx[index] == "}":
                depth -= 1
                if depth == 0:
                    break
            index += 1
        body = ptx[body_start:index]
        counts[match.group(1)] = sum(
            1 for line in body.splitlines()
            if line.strip().endswith(";") and not line.strip().startswith(".")
            and not line.strip().startswith("//"))
    return counts


def bench_kernels(args, work):
    files = []
    for path in args.kernels:
        if os.path.isdir(path):
            for root, _, names in os.walk(path):
                files += [os.path.join(root, n) for n in sorted(names)
                          if n.endswith(".cu")]
        else:
            files.append(path)
    print(f"\nKernels: PTX instructions, plain vs --instrument=all "
          f"(nvcc -ptx -O3, {args.gpu_arch})")
    print(f"{'kernel':<44}{'plain':>7}{'instr.':>8}{'sites':>7}"
          f"{'added/site':>12}")
    total_plain = total_added = total_sites = 0
    for path in files:
        copy = instrument(args, path, "all", os.path.join(work, "kernels"),
                          [])
        text = open(copy).read()
        sites = len(re.findall(r"^    \{\"", text, re.M))
        device_sites = len(re.findall(r"cuda-unchecked-index|cuda-div-by-zero",
                                      "\n".join(l for l in text.splitlines()
                                                if l.startswith("    {\""))))
        counts = {}
        for name, source in (("plain", path), ("instrumented", copy)):
            ptx = os.path.join(work, os.path.basename(path) + f".{name}.ptx")
            run([args.nvcc, "-ptx", "-O3", "-std=c++17",
                 f"-arch={args.gpu_arch}", "-I", args.runtime_include,
                 "-I", os.path.dirname(os.path.abspath(path)), source,
                 "-o", ptx])
            counts[name] = ptx_instructions(open(ptx).read())
        for kernel, plain in counts["plain"].items():
            instrumented = counts["instrumented"].get(kernel, plain)
            added = instrumented - plain
            label = f"{os.path.basename(path)}:{kernel}"[:43]
            per_site = (f"{added / device_sites:.1f}" if device_sites
                        else "-")
            print(f"{label:<44}{plain:>7}{instrumented:>8}{device_sites:>7}"
                  f"{per_site:>12}")
            total_plain += plain
            total_added += added
        total_sites += device_sites
    if total_plain:
        print(f"all kernels: {total_plain} instructions plain, "
              f"{total_added} added ({total_added / total_plain:.1%}), "
              f"{total_sites} device sites, "
              f"{total_added / max(total_sites, 1):.1f} added per site")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--gpuguard", required=True)
    parser.add_argument("--runtime-include",
                        default=os.path.join(ROOT, "runtime", "include"))
    parser.add_argument("--torch-link", action="append", default=[],
                        help="runtime libraries to link the LibTorch builds "
                             "with")
    parser.add_argument("--torch-pch", default="")
    parser.add_argument("--cxx", default="/usr/lib/llvm-22/bin/clang++")
    parser.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc")
    parser.add_argument("--gpu-arch", default="sm_80")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--kernels", nargs="*", default=[])
    parser.add_argument("--skip-torch", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        if not args.skip_torch:
            bench_torch(args, work)
        if args.kernels:
            bench_kernels(args, work)


if __name__ == "__main__":
    main()
