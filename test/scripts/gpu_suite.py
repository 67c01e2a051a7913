#!/usr/bin/env python3
"""Runs every GPU-gated test of the suite on a machine with an NVIDIA GPU.

The GPU machine need not have LLVM or gpuguard: what only gpuguard can make
is made here first, in a bundle directory, and carried there.

  here:  python3 test/scripts/gpu_suite.py prepare --build build --bundle .gpu
  there: python3 test/scripts/gpu_suite.py run --bundle .gpu [--log FILE]

`prepare` writes into the bundle: FileCheck, not and split-file with the
shared libraries they need beyond the C and C++ runtimes (started through
wrappers, so that nothing else sees those libraries), lit, gpuguard-doctor,
and the CUDA examples instrumented by this build's gpuguard with a
manifest.

`run` builds the runtime library on its own (cmake -S runtime) with the GPU
machine's CUDA toolkit, writes a lit site configuration that points at it
and at the bundle, and runs the lit tests that need a GPU (test/gpu, and
any other test whose REQUIRES names cuda-gpu) with those features required,
so that a broken detection fails instead of passing as UNSUPPORTED. It
prints the machine (GPU, driver, toolkit, PyTorch) first. Exit status: lit's,
or 2 when the bundle or the build is unusable.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys

SOURCE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
TOOLS = ["FileCheck", "not", "split-file"]
# The C and C++ runtimes every Linux machine has; anything else a tool
# links is carried.
SYSTEM_LIBRARIES = re.compile(
    r"^(linux-vdso|ld-linux|libc|libm|libdl|librt|libpthread|libstdc\+\+|"
    r"libgcc_s)\.so")


def fail(message):
    sys.stderr.write(f"gpu_suite: error: {message}\n")
    sys.exit(2)


def read_site_config(build):
    """The values CMake wrote into the build's lit site configuration."""
    path = os.path.join(build, "test", "lit.site.cfg.py")
    if not os.path.exists(path):
        fail(f"no {path}: configure and build gpuguard first "
             "(bash tools/quickstart.sh examples)")
    values = {}
    with open(path) as f:
        for line in f:
            match = re.match(r'config\.(\w+) = "(.*)"$', line.strip())
            if match:
                values[match.group(1)] = match.group(2)
    return values


def shared_libraries(binary):
    listed = subprocess.run(["ldd", binary], capture_output=True, text=True,
                            check=True).stdout
    for line in listed.splitlines():
        match = re.match(r"\s*(\S+) => (\S+)", line)
        if match and not SYSTEM_LIBRARIES.match(match.group(1)):
            yield match.group(2)


def prepare(args):
    site = read_site_config(args.build)
    tools_dir = site["llvm_tools_dir"]
    gpuguard = os.path.join(args.build, "bin", "gpuguard")
    if not os.path.exists(gpuguard):
        fail(f"no {gpuguard}: build gpuguard first")
    bundle = os.path.abspath(args.bundle)
    if os.path.exists(bundle):
        shutil.rmtree(bundle)
    for sub in ["bin", "libexec", "lib", "instrumented"]:
        os.makedirs(os.path.join(bundle, sub))

    for tool in TOOLS:
        binary = os.path.join(tools_dir, tool)
        shutil.copy2(binary, os.path.join(bundle, "libexec", tool))
        for library in shared_libraries(binary):
            target = os.path.join(bundle, "lib", os.path.basename(library))
            if not os.path.exists(target):
                shutil.copy2(library, target)
        wrapper = os.path.join(bundle, "bin", tool)
        with open(wrapper, "w") as f:
            f.write('#!/bin/sh\nhere="$(cd "$(dirname "$0")/.." && pwd)"\n'
                    'LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:'
                    '$LD_LIBRARY_PATH}" exec "$here/libexec/'
                    f'{tool}" "$@"\n')
        os.chmod(wrapper, 0o755)

    # The doctor, linked with nothing of LLVM's that the GPU machine lacks.
    doctor = os.path.join(args.build, "bin", "gpuguard-doctor")
    if not os.path.exists(doctor):
        fail(f"no {doctor}: build gpuguard first")
    shutil.copy2(doctor, os.path.join(bundle, "bin", "gpuguard-doctor"))

    # lit is Python: the copy the build's lit script imports.
    with open(os.path.join(tools_dir, "lit")) as f:
        match = re.search(r'sys\.path\.insert\(\d+, *"([^"]+)"\)', f.read())
    lit_package = os.path.join(match.group(1) if match else "", "lit")
    if not os.path.isdir(lit_package):
        fail(f"cannot find lit's Python package beside {tools_dir}/lit")
    shutil.copytree(lit_package, os.path.join(bundle, "lit"),
                    ignore=shutil.ignore_patterns("__pycache__"))

    examples = os.path.join(SOURCE_ROOT, "examples", "cuda")
    sources = [os.path.join(examples, name)
               for name in sorted(os.listdir(examples))
               if name.endswith(".cu")]
    # LibTorch programs for test/gpu, parsed with this machine's LibTorch
    # headers; their copies compile against the GPU machine's.
    sources.append(os.path.join(SOURCE_ROOT, "test", "gpu", "Inputs",
                                "embedding_cuda.cpp"))
    manifest = {}
    out_dir = os.path.join(bundle, "instrumented")
    for source in sources:
        name = os.path.basename(source)
        mode = "all" if "_fixed." in name else "flagged"
        done = subprocess.run([gpuguard, "instrument", source, "-o", out_dir,
                               f"--instrument={mode}", "--quiet", "--"],
                              capture_output=True, text=True)
        relative = source.lstrip("/")
        if done.returncode not in (0, 1) or not os.path.exists(
                os.path.join(out_dir, relative)):
            fail(f"gpuguard instrument {source} failed:\n{done.stderr}")
        manifest[name] = relative
        # Also by name alone, for the lit tests' RUN lines.
        shutil.copy2(os.path.join(out_dir, relative),
                     os.path.join(out_dir, name))
    with open(os.path.join(bundle, "instrumented", "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    print(f"gpu_suite: bundle ready in {bundle}: {len(TOOLS)} tools, lit, "
          f"{len(manifest)} instrumented examples")
    return 0


def describe_machine(log):
    def show(title, command):
        try:
            done = subprocess.run(command, capture_output=True, text=True,
                                  timeout=60)
            text = (done.stdout + done.stderr).strip()
        except (OSError, subprocess.SubprocessError) as error:
            text = f"unavailable ({error})"
        log(f"## {title}\n{text}\n")

    show("GPU", ["nvidia-smi", "--query-gpu=name,driver_version,compute_cap,"
                 "memory.total", "--format=csv,noheader"])
    show("nvcc", ["nvcc", "--version"])
    show("tools", ["sh", "-c", "command -v nvcc compute-sanitizer c++ g++ "
                   "cmake ninja; c++ --version | head -1; "
                   "cmake --version | head -1"])
    show("PyTorch", [sys.executable, "-c",
                     "import torch; print(torch.__version__, 'CUDA', "
                     "torch.version.cuda, 'available', "
                     "torch.cuda.is_available())"])


def torch_root():
    done = subprocess.run(
        [sys.executable, "-c", "import os, torch; "
         "print(os.path.dirname(torch.__file__))"],
        capture_output=True, text=True)
    root = done.stdout.strip()
    return root if done.returncode == 0 and root else ""


def gpu_tests():
    """Every lit test outside test/gpu whose REQUIRES names cuda-gpu."""
    found = []
    test_root = os.path.join(SOURCE_ROOT, "test")
    for directory, subdirs, files in os.walk(test_root):
        subdirs[:] = [d for d in subdirs
                      if d not in ("Inputs", "scripts", "unit", "gpu")]
        for name in files:
            if not name.endswith((".cu", ".cpp", ".test")):
                continue
            path = os.path.join(directory, name)
            with open(path, errors="replace") as f:
                if re.search(r"REQUIRES:.*\bcuda-gpu\b", f.read()):
                    found.append(os.path.relpath(path, test_root))
    return sorted(found)


def run(args):
    bundle = os.path.abspath(args.bundle)
    if not os.path.isdir(os.path.join(bundle, "lit")):
        fail(f"{bundle} is not a prepared bundle: run "
             "'gpu_suite.py prepare' on a machine with gpuguard first")
    log_file = open(args.log, "w") if args.log else None

    def log(text):
        print(text, flush=True)
        if log_file:
            log_file.write(text + "\n")
            log_file.flush()

    describe_machine(log)
    build = os.path.join(bundle, "build-runtime")
    root = torch_root()
    def build_runtime(torch):
        shutil.rmtree(build, ignore_errors=True)
        configure = ["cmake", "-S", os.path.join(SOURCE_ROOT, "runtime"),
                     "-B", build]
        if shutil.which("ninja"):
            configure += ["-G", "Ninja"]
        # PyTorch's own headers decide the C++ standard its code builds with.
        configure += (["-DGPUGUARD_TORCH_ROOT=" + torch,
                       "-DCMAKE_CXX_STANDARD=20"] if torch else
                      ["-DGPUGUARD_TORCH_ROOT=" + os.path.join(bundle, "none")])
        for step in [configure, ["cmake", "--build", build, "-j",
                                 str(os.cpu_count() or 2)]]:
            done = subprocess.run(step, capture_output=True, text=True)
            if done.returncode != 0:
                log(done.stdout[-4000:] + done.stderr[-4000:])
                log(f"## '{' '.join(step)}' failed")
                return False
        return True

    # With PyTorch's LibTorch when there is one; without, the CUDA tests
    # still run.
    with_torch = bool(root) and build_runtime(root)
    if not with_torch and not build_runtime(""):
        fail("the runtime library does not build")
    log("## runtime library built in " + build + "\n")

    exec_root = os.path.join(bundle, "lit-exec")
    os.makedirs(exec_root, exist_ok=True)
    site = {
        "gpuguard_src_root": SOURCE_ROOT,
        "gpuguard_obj_root": build,
        "gpuguard_test_exec_root": exec_root,
        "llvm_tools_dir": os.path.join(bundle, "bin"),
        "clang_resource_dir": "",
        "python_executable": sys.executable,
        "torch_include": "",
        "torch_pch": "",
        "cxx_compiler": shutil.which("c++") or "c++",
    }
    with open(os.path.join(exec_root, "lit.site.cfg.py"), "w") as f:
        f.write("# Written by gpu_suite.py for a machine without LLVM.\n"
                "import os\n")
        for key, value in site.items():
            f.write(f"config.{key} = {value!r}\n")
        f.write("config.gtest_found = False\n")
        f.write("lit_config.load_config(config, os.path.join("
                "config.gpuguard_src_root, 'test', 'lit.cfg.py'))\n")

    environment = dict(os.environ)
    # The toolkit of the nvcc on PATH, where it is not /usr/local/cuda.
    nvcc = shutil.which("nvcc")
    if "CUDA_PATH" not in environment and nvcc and not os.path.exists(
            "/usr/local/cuda/include/cuda.h"):
        environment["CUDA_PATH"] = os.path.dirname(os.path.dirname(
            os.path.realpath(nvcc)))
    environment["GPUGUARD_GPU_BUNDLE"] = bundle
    environment["GPUGUARD_REQUIRE_FEATURES"] = ",".join(
        ["cuda-gpu", "nvcc", "runtime-cuda", "compute-sanitizer",
         "gpuguard-doctor"] +
        (["libtorch-cuda"] if root else []) +
        (["runtime-torch-cuda", "gpu-bundle"] if with_torch else []))
    if root:
        environment["GPUGUARD_TORCH_CUDA_ROOT"] = root
    environment["PYTHONPATH"] = os.pathsep.join(
        [bundle, environment.get("PYTHONPATH", "")])
    tests = [os.path.join(exec_root, "gpu")] + [
        os.path.join(exec_root, test) for test in gpu_tests()]
    command = [sys.executable, "-c",
               "import sys; from lit.main import main; main()", "-v",
               "--time-tests"] + tests
    log("## lit " + " ".join(os.path.relpath(t, exec_root) for t in tests))
    done = subprocess.run(command, env=environment, capture_output=True,
                          text=True)
    log(done.stdout + done.stderr)
    if root and not with_torch:
        log("## the runtime's LibTorch checks did not build against "
            f"{root}: their GPU tests did not run")
        return done.returncode or 1
    return done.returncode


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    prepare_parser = commands.add_parser("prepare")
    prepare_parser.add_argument("--build", required=True)
    prepare_parser.add_argument("--bundle", required=True)
    run_parser = commands.add_parser("run")
    run_parser.add_argument("--bundle", required=True)
    run_parser.add_argument("--log")
    args = parser.parse_args()
    return prepare(args) if args.command == "prepare" else run(args)


if __name__ == "__main__":
    sys.exit(main())
