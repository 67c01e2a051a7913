#!/usr/bin/env python3
"""Writes a project of many small CUDA translation units and its nvcc
compile database, for measuring and testing parallel and sharded runs.

    generate_cuda_database.py DIR [--units N] [--nvcc PATH] [--flags FLAGS]

DIR receives kernels/unit_<i>.cu for i in [0, N) and a compile_commands.json
whose entries are nvcc commands as CMake writes them for
`project(x LANGUAGES CUDA)` (-forward-unknown-to-host-compiler, -gencode,
-Xcompiler, -x cu). --flags adds flags to every command, e.g. the mock CUDA
headers of the test suite. Each unit holds two or three kernels picked by
its index from a fixed list, about a third of them with a bug gpuguard
reports (an unguarded thread index, a divisor that may be zero, an unchecked
CUDA call), so that the findings, too, are spread over every unit. The
output depends only on the arguments.
"""

import argparse
import json
import os
import shlex

KERNELS = [
    # (name, body, has_bug)
    ("scale_guarded", """
__global__ void scale_guarded_{i}(float *out, const float *in, float a, int n) {{
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n)
    out[idx] = a * in[idx];
}}
""", False),
    ("add_unguarded", """
__global__ void add_unguarded_{i}(float *out, const float *a, const float *b) {{
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  out[idx] = a[idx] + b[idx];
}}
""", True),
    ("grid_stride", """
__global__ void grid_stride_{i}(float *y, const float *x, float a, int n) {{
  for (int idx = blockIdx.x * blockDim.x + threadIdx.x; idx < n;
       idx += blockDim.x * gridDim.x)
    y[idx] = a * x[idx] + y[idx];
}}
""", False),
    ("mean_by_count", """
__global__ void mean_by_count_{i}(float *out, const float *sum,
                                  const int *count, int n) {{
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= n)
    return;
  out[idx] = sum[idx] / count[idx];
  int bucket = n / count[idx];
  out[idx] += bucket;
}}
""", True),
    ("early_exit", """
__global__ void early_exit_{i}(float *v, int n) {{
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= n)
    return;
  v[idx] = v[idx] > 0.0f ? v[idx] : 0.0f;
}}
""", False),
    ("row_sum", """
__global__ void row_sum_{i}(float *out, const float *m, int rows, int cols) {{
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows)
    return;
  float acc = 0.0f;
  for (int c = 0; c < cols; ++c)
    acc += m[row * cols + c];
  out[row] = acc;
}}
""", False),
]

HOST = """
void launch_{i}(float *d_out, const float *d_in, int n) {{
  float *scratch = nullptr;
  cudaMalloc(&scratch, n * sizeof(float));
  scale_guarded_{i}<<<(n + 255) / 256, 256>>>(d_out, d_in, 2.0f, n);
  if (cudaGetLastError() != cudaSuccess)
    return;
  cudaFree(scratch);
}}
"""


def unit_source(index):
    picked = [KERNELS[0]]
    for step in (1, 2):
        if (index + step) % 3 != 0:
            picked.append(KERNELS[1 + (index * step + step) % (len(KERNELS) - 1)])
    seen = set()
    parts = ["#include <cuda_runtime.h>\n"]
    for name, body, _ in picked:
        if name in seen:
            continue
        seen.add(name)
        parts.append(body.format(i=index))
    parts.append(HOST.format(i=index))
    return "".join(parts)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory")
    parser.add_argument("--units", type=int, default=200)
    parser.add_argument("--nvcc", default="/usr/local/cuda/bin/nvcc")
    parser.add_argument("--flags", default="",
                        help="extra flags for every command")
    args = parser.parse_args()

    root = os.path.abspath(args.directory)
    kernels = os.path.join(root, "kernels")
    os.makedirs(kernels, exist_ok=True)
    entries = []
    extra = shlex.split(args.flags)
    for index in range(args.units):
        path = os.path.join(kernels, f"unit_{index}.cu")
        with open(path, "w") as out:
            out.write(unit_source(index))
        command = [args.nvcc, "-forward-unknown-to-host-compiler",
                   "-DUNIT=" + str(index), "-O2",
                   "--generate-code=arch=compute_80,code=[compute_80,sm_80]",
                   "-Xcompiler=-fPIC", "--expt-relaxed-constexpr"] + extra + [
                   "-x", "cu", "-c", path,
                   "-o", f"CMakeFiles/units.dir/kernels/unit_{index}.cu.o"]
        entries.append({"directory": root, "file": path,
                        "command": shlex.join(command)})
    with open(os.path.join(root, "compile_commands.json"), "w") as out:
        json.dump(entries, out, indent=1)
        out.write("\n")


if __name__ == "__main__":
    main()
