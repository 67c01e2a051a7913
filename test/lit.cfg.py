# gpuguard's lit configuration.
import glob
import os
import re
import shutil
import subprocess

import lit.formats

config.name = "gpuguard"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cu", ".cuh", ".cpp", ".test"]
config.excludes = ["Inputs", "scripts", "unit", "CMakeLists.txt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = config.gpuguard_test_exec_root

bin_dir = os.path.join(config.gpuguard_obj_root, "bin")
lib_dir = os.path.join(config.gpuguard_obj_root, "lib")
scripts = os.path.join(config.test_source_root, "scripts")
inputs = os.path.join(config.test_source_root, "Inputs")
gpuguard = os.path.join(bin_dir, "gpuguard")
plugin = os.path.join(lib_dir, "libGpuGuardTidyModule.so")
clang_tidy = os.path.join(config.llvm_tools_dir, "clang-tidy")
python = config.python_executable

# The mock CUDA headers of test/Inputs/cuda, one GPU architecture, no
# libdevice: what unit tests of CUDA checks parse with, anywhere.
cuda_mock_flags = (
    "-xcuda -nocudainc -nocudalib --cuda-gpu-arch=sm_80 "
    "-Xclang -target-sdk-version=12.9 -isystem " + os.path.join(inputs, "cuda")
)

config.substitutions.append(("%gpuguard_src", config.gpuguard_src_root))
config.substitutions.append(("%gpuguard_bin", bin_dir))
config.substitutions.append(
    ("%check_gpuguard",
     f"{python} {os.path.join(scripts, 'check_gpuguard.py')} "
     f"--gpuguard={gpuguard} --clang-tidy={clang_tidy} --plugin={plugin} "
     f"--filecheck={os.path.join(config.llvm_tools_dir, 'FileCheck')}"))
config.substitutions.append(
    ("%expect_exit", f"{python} {os.path.join(scripts, 'expect_exit.py')}"))
config.substitutions.append(("%gpuguard", gpuguard))
config.substitutions.append(("%clang_tidy", clang_tidy))
config.substitutions.append(("%tidy_plugin", plugin))
config.substitutions.append(("%cuda_mock_flags", cuda_mock_flags))
# The mock LibTorch headers of test/Inputs/torch, as a system include like
# the real ones.
config.substitutions.append(
    ("%torch_mock_flags", "-std=c++17 -isystem " + os.path.join(inputs, "torch")))
config.substitutions.append(("%inputs", inputs))
# The include flags each library of lib/ compiles with (lib/CMakeLists.txt).
config.substitutions.append(
    ("%include_roots", os.path.join(config.gpuguard_obj_root, "include-roots")))
config.substitutions.append(("%python", python))
config.substitutions.append(("%clangxx", os.path.join(config.llvm_tools_dir, "clang++")))

# Real LibTorch: parsing with its headers through the precompiled header the
# build made, and compiling and running programs against it.
if config.torch_pch and os.path.exists(config.torch_pch):
    config.available_features.add("libtorch")
    torch_flags = (f"-std=c++17 -isystem {config.torch_include} "
                   f"-include-pch {config.torch_pch}")
    scenario_inputs = os.path.join(config.test_source_root, "integration",
                                   "torch", "Inputs")
    config.substitutions.append(
        ("%torch_flags", torch_flags + " -isystem " + scenario_inputs))
    config.substitutions.append(("%torch_cxx", config.cxx_compiler))
    # LLVM's linker, where it is installed beside the compiler, links a
    # program against LibTorch's libraries in a tenth of GNU ld's time.
    linker_flags = ("-fuse-ld=lld" if os.path.exists(
        os.path.join(config.llvm_tools_dir, "ld.lld")) else "")
    config.substitutions.append(("%torch_linker_flags", linker_flags))
    # CUDA sources of extensions parse LibTorch's headers themselves: the
    # precompiled header is C++'s.
    config.substitutions.append(
        ("%torch_cuda_flags", f"-std=c++17 -isystem {config.torch_include}"))
    config.substitutions.append(
        ("%torch_run",
         f"{python} {os.path.join(scripts, 'torch_run.py')} "
         f"--cxx={config.cxx_compiler} --flags='{torch_flags}' "
         f"--linker-flags='{linker_flags}'"))

# FileCheck, not and split-file come from LLVM 22, never from PATH.
config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", os.environ.get("PATH", ""))])
for passthrough in ["HOME", "TMPDIR", "CUDA_PATH"]:
    if passthrough in os.environ:
        config.environment[passthrough] = os.environ[passthrough]


def find_cuda_toolkit():
    for candidate in [os.environ.get("CUDA_PATH", ""), "/usr/local/cuda"]:
        if candidate and os.path.exists(os.path.join(candidate, "include", "cuda.h")):
            return candidate
    return None


toolkit = find_cuda_toolkit()
if toolkit:
    config.available_features.add("cuda-toolkit")
    config.substitutions.append(("%cuda_path", toolkit))
    # A toolkit newer than the CUDA 12.9 that Clang 22 knows: its launches
    # parse only with -target-sdk-version, which gpuguard adds.
    with open(os.path.join(toolkit, "include", "cuda.h"), errors="replace") as f:
        version = re.search(r"#define CUDA_VERSION (\d+)", f.read())
    if version and int(version.group(1)) >= 13000:
        config.available_features.add("cuda-newer-than-clang")
    if os.path.exists(os.path.join(toolkit, "bin", "nvcc")):
        config.available_features.add("nvcc")
        config.substitutions.append(("%nvcc", os.path.join(toolkit, "bin", "nvcc")))
if os.path.exists(clang_tidy):
    config.available_features.add("clang-tidy")
# GCC's own <omp.h>, which nvcc's host compiler finds and gpuguard adds.
if glob.glob("/usr/lib/gcc/*/*/include/omp.h"):
    config.available_features.add("gcc-openmp-header")
def has_gpu():
    """True only when nvidia-smi lists at least one device."""
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        listed = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return False
    return listed.returncode == 0 and "GPU" in listed.stdout


if has_gpu():
    config.available_features.add("cuda-gpu")
# compute-sanitizer, the reference the GPU tests compare the runtime's
# reports with.
sanitizer = None
if toolkit:
    sanitizer = os.path.join(toolkit, "bin", "compute-sanitizer")
    if not os.path.exists(sanitizer):
        sanitizer = shutil.which("compute-sanitizer")
    if sanitizer:
        config.available_features.add("compute-sanitizer")
        config.substitutions.append(("%compute_sanitizer", sanitizer))

# The runtime-check library (runtime/): its headers, and link flags for
# programs that use it (the static archives the build made).
runtime_include = os.path.join(config.gpuguard_src_root, "runtime", "include")
runtime_reporter_lib = os.path.join(lib_dir, "libgpuguard_runtime_reporter.a")
runtime_cuda_lib = os.path.join(lib_dir, "libgpuguard_runtime_cuda.a")
config.substitutions.append(("%runtime_include", runtime_include))
config.substitutions.append(("%runtime_lib", runtime_reporter_lib + " -lpthread"))
if os.path.exists(runtime_cuda_lib):
    config.available_features.add("runtime-cuda")
    config.substitutions.append(
        ("%runtime_cuda_lib", f"{runtime_cuda_lib} {runtime_reporter_lib} -lpthread"))
# The examples on a GPU (test/gpu/examples.test): instrumented by this
# build's gpuguard, or, on a GPU machine without LLVM, by the copies that
# test/scripts/gpu_suite.py prepared ($GPUGUARD_GPU_BUNDLE).
if "nvcc" in config.available_features and os.path.exists(runtime_cuda_lib):
    bundle = os.environ.get("GPUGUARD_GPU_BUNDLE", "")
    copies = (f"--instrumented={os.path.join(bundle, 'instrumented')}"
              if bundle else f"--gpuguard={gpuguard}")
    sanitizer_flag = (f"--sanitizer={sanitizer}"
                      if "compute-sanitizer" in config.available_features
                      else "")
    config.substitutions.append(
        ("%gpu_examples",
         f"{python} {os.path.join(scripts, 'run_gpu_examples.py')} "
         f"--nvcc={os.path.join(toolkit, 'bin', 'nvcc')} "
         f"--runtime-include={runtime_include} --runtime-lib={runtime_cuda_lib} "
         f"--runtime-lib={runtime_reporter_lib} {copies} {sanitizer_flag}"))
# LibTorch with CUDA (PyTorch's wheel on a GPU machine, whose directory
# $GPUGUARD_TORCH_CUDA_ROOT names): tensors that really live on the GPU.
torch_cuda_root = os.environ.get("GPUGUARD_TORCH_CUDA_ROOT", "")
if torch_cuda_root and os.path.exists(
        os.path.join(torch_cuda_root, "lib", "libtorch_cuda.so")):
    config.available_features.add("libtorch-cuda")
    config.substitutions.append(("%torch_cuda_root", torch_cuda_root))
    config.substitutions.append(
        ("%torch_cuda_flags",
         f"-std=c++20 -isystem {torch_cuda_root}/include -isystem "
         f"{torch_cuda_root}/include/torch/csrc/api/include"))
    config.substitutions.append(
        ("%torch_cuda_libs",
         f"-L{torch_cuda_root}/lib -Wl,--no-as-needed -ltorch -ltorch_cpu "
         f"-ltorch_cuda -lc10 -lc10_cuda -Wl,--as-needed "
         f"-Wl,-rpath,{torch_cuda_root}/lib -lpthread"))
    # The runtime's LibTorch checks, built against that LibTorch.
    torch_checks = os.path.join(lib_dir, "libgpuguard_runtime_torch.a")
    if os.path.exists(torch_checks):
        config.available_features.add("runtime-torch-cuda")
        config.substitutions.append(("%runtime_torch_lib", torch_checks))
# What test/scripts/gpu_suite.py prepared: gpuguard's instrumented copies,
# by file name under %gpu_bundle/instrumented.
gpu_bundle = os.environ.get("GPUGUARD_GPU_BUNDLE", "")
if gpu_bundle:
    config.available_features.add("gpu-bundle")
    config.substitutions.append(("%gpu_bundle", gpu_bundle))
# gpuguard-doctor, the doctor as a program of its own: this build's, or on
# a GPU machine the copy in the bundle.
doctor = os.path.join(gpu_bundle or bin_dir, "bin" if gpu_bundle else "",
                      "gpuguard-doctor")
if os.path.exists(doctor):
    config.available_features.add("gpuguard-doctor")
    config.substitutions.insert(0, ("%gpuguard_doctor", doctor))
# LibTorch programs instrumented by gpuguard, built against the LibTorch
# runtime checks and run (test/instrument/torch/runtime-*.test).
runtime_torch_lib = os.path.join(lib_dir, "libgpuguard_runtime_torch.a")
if "libtorch" in config.available_features and os.path.exists(runtime_torch_lib):
    config.available_features.add("runtime-torch")
    config.substitutions.append(
        ("%instrumented_scenarios",
         f"{python} {os.path.join(scripts, 'run_instrumented_scenarios.py')} "
         f"--gpuguard={gpuguard} --cxx={config.cxx_compiler} "
         f"--flags='{torch_flags}' --linker-flags='{linker_flags}' "
         f"--runtime-include={runtime_include} "
         f"--link={runtime_torch_lib} --link={runtime_reporter_lib}"))
    config.substitutions.append(("%runtime_torch_lib", runtime_torch_lib))
    config.substitutions.append(("%torch_include", config.torch_include))
gxx = shutil.which("g++")
if gxx:
    config.available_features.add("gxx")
    config.substitutions.append(("%gxx", gxx))
cmake = shutil.which("cmake")
if cmake and shutil.which("ninja"):
    config.available_features.add("cmake")
    config.substitutions.append(("%cmake", cmake))

# Installing and packaging the build (test/tool/install.test,
# package-deb.test) and the pre-commit hook (precommit-hook.test). Inserted
# first: %gpuguard, substituted earlier, is a prefix of %gpuguard_obj.
config.substitutions.insert(0, ("%gpuguard_obj", config.gpuguard_obj_root))
cpack = shutil.which("cpack")
if cpack and shutil.which("dpkg-deb"):
    config.available_features.add("dpkg-deb")
    config.substitutions.append(("%cpack", cpack))
if shutil.which("git"):
    config.available_features.add("git")
# jq merges shards' SARIF logs in docs/ci.md's CI jobs.
if shutil.which("jq"):
    config.available_features.add("jq")
if subprocess.run([python, "-c", "import yaml"], capture_output=True).returncode == 0:
    config.available_features.add("python-yaml")

# pre-commit itself, when it is installed: %pre_commit runs it with this
# build's gpuguard first on PATH, as the `language: system` hook needs.
pre_commit = shutil.which("pre-commit")
if pre_commit:
    config.available_features.add("pre-commit")
    config.substitutions.append(
        ("%pre_commit",
         f"env PATH={os.pathsep.join([bin_dir, config.environment['PATH']])} "
         f"{pre_commit}"))

# The servers a shared result cache runs on (result-cache-remote.test):
# started by test/scripts/cache_server.py on loopback, found on PATH or
# where Debian installs them (nginx is in /usr/sbin).
cache_server = f"{python} {os.path.join(scripts, 'cache_server.py')}"
config.substitutions.append(("%cache_server", cache_server))
for server, feature in [("redis-server", "redis-server"), ("nginx", "nginx")]:
    if shutil.which(server) or os.access(f"/usr/sbin/{server}", os.X_OK):
        config.available_features.add(feature)

# What provides each optional feature, for the message below.
feature_providers = {
    "libtorch": "LibTorch's C++ headers (libtorch-dev) and a Clang build "
                "(the tests' precompiled <torch/torch.h>)",
    "runtime-torch": "libtorch-dev's headers and libraries (or "
                     "-DGPUGUARD_TORCH_ROOT), found at configure time",
    "cuda-toolkit": "a CUDA toolkit with include/cuda.h at $CUDA_PATH or "
                    "/usr/local/cuda",
    "nvcc": "bin/nvcc in that CUDA toolkit",
    "runtime-cuda": "libgpuguard_runtime_cuda.a, built when CMake finds the "
                    "CUDA toolkit (reconfigure after installing it)",
    "cuda-gpu": "an NVIDIA GPU listed by nvidia-smi -L",
    "compute-sanitizer": "bin/compute-sanitizer in that CUDA toolkit",
    "libtorch-cuda": "PyTorch's LibTorch with CUDA, named by "
                     "$GPUGUARD_TORCH_CUDA_ROOT",
    "runtime-torch-cuda": "libgpuguard_runtime_torch.a built against that "
                          "LibTorch (test/scripts/gpu_suite.py run)",
    "gpuguard-doctor": "bin/gpuguard-doctor of this build, or of the bundle "
                       "test/scripts/gpu_suite.py prepare wrote",
    "gpu-bundle": "the directory test/scripts/gpu_suite.py prepare wrote, "
                  "named by $GPUGUARD_GPU_BUNDLE",
    "clang-tidy": "clang-tidy-22",
    "gxx": "g++",
    "cmake": "cmake and ninja-build",
    "dpkg-deb": "cpack (cmake) and dpkg-deb (dpkg)",
    "git": "git",
    "jq": "jq",
    "python-yaml": "python3-yaml",
    "pre-commit": "pre-commit",
    "redis-server": "redis-server",
    "nginx": "nginx-core (nginx with its WebDAV module)",
}

# GPUGUARD_REQUIRE_FEATURES=a,b: fail the run, instead of marking tests
# UNSUPPORTED, when one of these features is missing. CI sets it to what the
# machine is known to have, so that a broken detection cannot pass unseen.
required = [name.strip() for name in
            os.environ.get("GPUGUARD_REQUIRE_FEATURES", "").split(",")
            if name.strip()]
missing = [name for name in required if name not in config.available_features]
if missing:
    lit_config.fatal(
        "GPUGUARD_REQUIRE_FEATURES names features this build does not have: " +
        "; ".join(f"{name} (needs {feature_providers[name]})"
                  if name in feature_providers
                  else f"{name} (not a feature of this suite)"
                  for name in missing))
