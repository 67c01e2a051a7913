#!/usr/bin/env bash
# Sets up, builds and runs gpuguard on a Debian 12 machine; safe to run again.
#
#   bash tools/quickstart.sh examples   build, then check the bundled examples
#   bash tools/quickstart.sh test       build, then run the whole test suite
#
# Environment: BUILD_DIR (default: build), JOBS (default: all cores).
set -euo pipefail

cd "$(dirname "$0")/.."
mode=${1:-}
build_dir=${BUILD_DIR:-build}
jobs=${JOBS:-$(nproc)}

# Debian 12 packages: LLVM/Clang 22 (the only version gpuguard builds with),
# lit and FileCheck, fmt, GoogleTest, and what the tests use: LibTorch 1.13
# (CPU only) for the LibTorch integration tests and corpus, and g++ (12) that
# instrumented copies must also compile with, and pre-commit for the test
# of the hook it runs; libcurl and hiredis for the shared result cache, and
# the Redis and nginx servers its tests start on loopback; jq, which
# merges shards' SARIF logs in docs/ci.md; LLVM's linker, which links the
# tests' LibTorch programs ten times faster than GNU ld.
packages=(cmake ninja-build git python3 python3-yaml python3-jsonschema
  clang-22 libclang-22-dev llvm-22-dev llvm-22-tools clang-tidy-22 lld-22
  libfmt-dev libgtest-dev libtorch-dev g++ pre-commit
  pkg-config libcurl4-openssl-dev libhiredis-dev redis-server nginx-core jq)

# The lit features (test/lit.cfg.py) the packages above guarantee, plus the
# CUDA ones when a toolkit with nvcc is installed. A test needing one of them
# is then a failure of the run, not a silent UNSUPPORTED.
export_required_features() {
  [ -n "${GPUGUARD_REQUIRE_FEATURES:-}" ] && return 0
  local features=libtorch,runtime-torch,cmake,gxx,git,python-yaml,dpkg-deb,clang-tidy,pre-commit,redis-server,nginx,jq
  local toolkit
  for toolkit in "${CUDA_PATH:-}" /usr/local/cuda; do
    if [ -n "$toolkit" ] && [ -x "$toolkit/bin/nvcc" ]; then
      features+=,nvcc,cuda-toolkit,runtime-cuda
      break
    fi
  done
  export GPUGUARD_REQUIRE_FEATURES=$features
  echo "quickstart: the tests require the lit features $features"
}

install_missing_packages() {
  local missing=()
  for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" ||
      missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || {
      echo "quickstart: need root or sudo to install: ${missing[*]}" >&2
      exit 1
    }
    sudo=(sudo)
  fi
  echo "quickstart: installing ${missing[*]}"
  "${sudo[@]}" apt-get update -qq
  # redis-server and nginx are for the tests, which start their own on
  # loopback: keep the packages from starting system services (and from
  # failing where there is no init to start them with).
  local policy=/usr/sbin/policy-rc.d added_policy=
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | "${sudo[@]}" tee "$policy" >/dev/null
    "${sudo[@]}" chmod 755 "$policy"
    added_policy=1
  fi
  local status=0
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq \
    --no-install-recommends "${missing[@]}" >/dev/null || status=$?
  [ -n "$added_policy" ] && "${sudo[@]}" rm -f "$policy"
  return "$status"
}

build() {
  if [ ! -f "$build_dir/build.ninja" ]; then
    cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release
  fi
  cmake --build "$build_dir" -j "$jobs"
}

# Runs gpuguard on every example: each *_bug file must get at least one
# finding and each *_fixed file none. The LibTorch examples need LibTorch's
# headers (libtorch-dev); gpuguard finds them itself and, with --torch-pch,
# parses <torch/torch.h> once for all of them.
run_examples() {
  local gpuguard="$build_dir/bin/gpuguard" failures=0 bugs=0 fixed=0
  local examples=(examples/cuda/*_bug.cu examples/cuda/*_fixed.cu)
  if [ -f /usr/include/torch/csrc/api/include/torch/torch.h ]; then
    examples+=(examples/torch/*_bug.cpp examples/torch/*_fixed.cpp)
    # LibTorch's CUDA headers need the toolkit's (cuda_bf16.h and the like).
    if [ -f "${CUDA_PATH:-/usr/local/cuda}/include/cuda_bf16.h" ]; then
      examples+=(examples/extension/*_bug.cu examples/extension/*_fixed.cu)
    else
      echo "quickstart: no CUDA toolkit; skipping examples/extension"
    fi
  else
    echo "quickstart: no LibTorch headers; skipping examples/torch and examples/extension"
  fi
  for example in "${examples[@]}"; do
    echo "== gpuguard $example"
    local output options=(--quiet)
    case "$example" in *.cpp) options+=(--torch-pch) ;; esac
    output=$("$gpuguard" "${options[@]}" "$example" -- 2>&1) || true
    [ -n "$output" ] && printf '%s\n' "$output"
    local count
    count=$(printf '%s\n' "$output" | grep -c 'warning: .*\[\(cuda\|torch\)-' || true)
    case "$example" in
    *_bug.cu | *_bug.cpp)
      bugs=$((bugs + 1))
      [ "$count" -gt 0 ] || { echo "quickstart: expected findings in $example" >&2; failures=$((failures + 1)); } ;;
    *_fixed.cu | *_fixed.cpp)
      fixed=$((fixed + 1))
      [ "$count" -eq 0 ] || { echo "quickstart: expected no findings in $example" >&2; failures=$((failures + 1)); } ;;
    esac
  done
  echo "quickstart: $bugs buggy examples flagged, $fixed fixed twins clean, $failures unexpected"
  [ "$failures" -eq 0 ]
}

case "$mode" in
examples)
  install_missing_packages
  build
  run_examples
  ;;
test)
  install_missing_packages
  build
  export_required_features
  ctest --test-dir "$build_dir" --output-on-failure
  ;;
*)
  echo "usage: bash tools/quickstart.sh examples|test" >&2
  exit 2
  ;;
esac
