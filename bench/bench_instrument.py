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
both ways, the device check sites in the kernel's body (from the site table
of the instrumented copy, which names each site's function) and the
instructions added per site. The functions the runtime adds out of line
(its record path) are counted once per file, on a line of their own. Most
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


# A PTX function: a kernel (.entry) or a device function (.func), defined
# (a body follows) or only declared (a semicolon follows).
PTX_FUNCTION = re.compile(
    r"^(?:\.(?:visible|weak|extern)\s+)*\.(entry|func)\s+"
    r"(?:\([^)]*\)\s*)?([\w$]+)", re.M)


def ptx_functions(ptx):
    """Yields (kind, name, body) for each function PTX defines, kind being
    "entry" (a kernel) or "func"."""
    for match in PTX_FUNCTION.finditer(ptx):
        index = match.end()
        while ptx[index] not in "{;":
            index += 1
        if ptx[index] == ";":
            continue  # a declaration
        body_start, depth = index, 0
        while True:
            if ptx[index] == "{":
                depth += 1
            elif ptx[index] == "}":
                depth -= 1
                if depth == 0:
                    break
            index += 1
        yield match.group(1), match.group(2), ptx[body_start:index]


def ptx_instructions(ptx):
    """Instructions of each function PTX defines, as {(kind, name): count}:
    the statement lines of its body."""
    return {(kind, name): sum(
        1 for line in body.splitlines()
        if line.strip().endswith(";") and not line.strip().startswith(".")
        and not line.strip().startswith("//"))
        for kind, name, body in ptx_functions(ptx)}


def kernel_source_lines(ptx, source):
    """{kernel: lines of \p source its code comes from}, from the .loc
    directives of PTX compiled with -lineinfo: a line of the kernel, or the
    line a function was inlined at."""
    ids = [number for number, path in
           re.findall(r'^\s*\.file\s+(\d+)\s+"([^"]*)"', ptx, re.M)
           if os.path.abspath(path) == os.path.abspath(source)]
    lines = {}
    for kind, name, body in ptx_functions(ptx):
        if kind == "entry":
            lines[name] = {int(line) for number, line in re.findall(
                r"(?:\.loc|inlined_at)\s+(\d+)\s+(\d+)", body)
                if number in ids}
    return lines


def qualified_name(mangled):
    """The qualified name of an Itanium-mangled function, without template
    arguments or parameters (what the site table calls the function):
    _ZN2ns6kernelIfEEvPT_ gives ns::kernel. The namespace nvcc gives
    internal names (_INTERNAL_<hash>_<file>) is left out. Other names come
    back as they are (extern "C" kernels)."""
    match = re.match(r"_Z(N?)L?", mangled)
    if not match:
        return mangled
    nested, index, parts = match.group(1) == "N", match.end(), []
    while index < len(mangled):
        if mangled[index] == "L":
            index += 1
            continue
        length = re.match(r"\d+", mangled[index:])
        if not length:
            break
        index += len(length.group())
        part = mangled[index:index + int(length.group())]
        if part.startswith("_GLOBAL__N"):
            parts.append("(anonymous namespace)")
        elif not part.startswith("_INTERNAL_"):  # nvcc's per-file prefix
            parts.append(part)
        index += int(length.group())
        if not nested:
            break
    return "::".join(parts) if parts else mangled


# One row of the site table an instrumented copy starts with:
#     {"file", line, column, "function", "check", kind, related, "what"},
SITE_ROW = re.compile(
    r'^    \{"(?:[^"\\]|\\.)*", (\d+), \d+, "((?:[^"\\]|\\.)*)", "[\w-]+", '
    r"(\d+), ", re.M)
# SiteKind (runtime/include/gpuguard/rt.h): below 10, the checks of device
# code (index, pointer, divisor, cast), which host code can have too.
FIRST_HOST_KIND = 10


def device_check_sites(instrumented_source):
    """(line, function) of each device-kind check site of the copy."""
    return [(int(line), function)
            for line, function, kind in SITE_ROW.findall(instrumented_source)
            if int(kind) < FIRST_HOST_KIND]


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
          f"(nvcc -ptx -O3, {args.gpu_arch}); sites: the device checks in "
          f"each kernel's code, inlined functions included")
    print(f"{'kernel':<44}{'plain':>7}{'instr.':>8}{'sites':>7}"
          f"{'added/site':>12}")
    total_plain = total_added = total_sites = 0
    total_helpers = helper_files = outside = 0
    for path in files:
        name = os.path.basename(path)
        copy = instrument(args, path, "all", os.path.join(work, "kernels"),
                          [])
        sites = device_check_sites(open(copy).read())
        counts = {}
        for build, source, extra in (("plain", path, []),
                                     ("instrumented", copy, []),
                                     ("lineinfo", copy, ["-lineinfo"])):
            ptx = os.path.join(work, f"{name}.{build}.ptx")
            run([args.nvcc, "-ptx", "-O3", "-std=c++17",
                 f"-arch={args.gpu_arch}", "-I", args.runtime_include,
                 "-I", os.path.dirname(os.path.abspath(path))] + extra
                + [source, "-o", ptx])
            counts[build] = open(ptx).read()
        # The copy keeps the original's lines (#line), so a site belongs to
        # each kernel whose code comes from its line.
        kernel_lines = kernel_source_lines(counts.pop("lineinfo"), path)
        counts = {build: ptx_instructions(ptx) for build, ptx in counts.items()}
        for (kind, kernel), plain in counts["plain"].items():
            if kind != "entry":
                continue
            lines = kernel_lines.get(kernel, set())
            kernel_sites = sum(1 for line, _ in sites if line in lines)
            instrumented = counts["instrumented"].get((kind, kernel), plain)
            added = instrumented - plain
            label = f"{name}:{kernel}"[:43]
            per_site = (f"{added / kernel_sites:.1f}" if kernel_sites
                        else "-")
            print(f"{label:<44}{plain:>7}{instrumented:>8}{kernel_sites:>7}"
                  f"{per_site:>12}")
            total_plain += plain
            total_added += added
            total_sites += kernel_sites
        # Device functions the instrumented copy defines and the plain one
        # does not: the runtime's out-of-line record path, once per file.
        helpers = {qualified_name(function): count
                   for (kind, function), count in counts["instrumented"].items()
                   if kind == "func" and (kind, function) not in counts["plain"]}
        if helpers:
            print(f"  {name}: + "
                  + ", ".join(f"{function} {count}"
                              for function, count in sorted(helpers.items()))
                  + " instructions in non-inlined functions")
            total_helpers += sum(helpers.values())
            helper_files += 1
        all_lines = set().union(*kernel_lines.values())
        for function in sorted({f for line, f in sites if line not in all_lines}):
            count = sum(1 for line, f in sites
                        if f == function and line not in all_lines)
            outside += count
            print(f"  {name}: {count} site(s) in {function}, in no kernel's "
                  f"code")
    if total_plain:
        print(f"all kernels: {total_plain} instructions plain, "
              f"{total_added} added in kernels "
              f"({total_added / total_plain:.1%}), "
              f"{total_sites} device sites in kernels, "
              f"{total_added / max(total_sites, 1):.1f} added per site")
        print(f"non-inlined runtime functions: {total_helpers} instructions "
              f"in {helper_files} files; with them "
              f"{total_added + total_helpers} added "
              f"({(total_added + total_helpers) / total_plain:.1%})")
        if outside:
            print(f"device-kind sites in no kernel's code (host code): "
                  f"{outside}")


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
