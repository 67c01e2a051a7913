#!/usr/bin/env python3
"""Writes CUDA files whose shapes once made gpuguard's analyses slow or
crashed its parser, one file per shape, into a directory.

    generate_pathological.py DIR [--scale S]

Each file is valid CUDA with one kernel and a launcher that rounds its grid
up, so that the checks do their full work on it. --scale multiplies every
size (default 1: the sizes below, each of which took from 13 s to over 200 s
of analysis before it was fixed, against about a second for Clang's parse).

  else_if_chain.cu     100 branches of `else if (m == K && i < n)`
  nested_guards.cu     100 nested `if (i < n) {`
  large_switch.cu      a 10,000-case `switch` writing through the index
  long_index.cu        an index of 10,000 terms, `a[i + 1 + 1 + ...]`
  many_reads.cu        3,000 reads `a[(i + K) % n]` summed into one store
  deep_parens.cu       1,200 nested parentheses in one initialiser

The output depends only on the arguments.
"""

import argparse
import os


def kernel(name, params, body, launch_args):
    return (
        "#include <cuda_runtime.h>\n\n"
        f"__global__ void {name}({params}) {{\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        f"{body}"
        "}\n\n"
        f"void launch(float *a, int n, int m) {{\n"
        f"  {name}<<<(n + 255) / 256, 256>>>({launch_args});\n"
        "}\n"
    )


def shapes(scale):
    branches = 100 * scale
    body = "  if (m == 0 && i < n)\n    a[i] = 0;\n"
    for k in range(1, branches):
        body += f"  else if (m == {k} && i < n)\n    a[i] = {k};\n"
    yield "else_if_chain.cu", kernel("chain", "float *a, int n, int m", body,
                                     "a, n, m")

    depth = 100 * scale
    body = "".join("  " * (d + 1) + "if (i < n) {\n" for d in range(depth))
    body += "  " * (depth + 1) + "a[i] = 1;\n"
    body += "".join("  " * (d + 1) + "}\n" for d in reversed(range(depth)))
    yield "nested_guards.cu", kernel("nested", "float *a, int n", body, "a, n")

    cases = 10000 * scale
    body = "  if (i >= n)\n    return;\n  switch (m) {\n"
    body += "".join(f"  case {k}:\n    a[i] = {k};\n    break;\n"
                    for k in range(cases))
    body += "  }\n"
    yield "large_switch.cu", kernel("cases", "float *a, int n, int m", body,
                                    "a, n, m")

    terms = 10000 * scale
    body = "  if (i < n)\n    a[i" + " + 1" * terms + " - " + str(terms) + \
        "] = 0;\n"
    yield "long_index.cu", kernel("terms", "float *a, int n", body, "a, n")

    reads = 3000 * scale
    body = "  if (i >= n)\n    return;\n  float s = 0;\n"
    body += "".join(f"  s += a[(i + {k}) % n];\n" for k in range(reads))
    body += "  a[i] = s;\n"
    yield "many_reads.cu", kernel("reads", "float *a, int n", body, "a, n")

    parens = 1200 * scale
    yield "deep_parens.cu", ("int deep = " + "(" * parens + "0" +
                             ")" * parens + ";\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory")
    parser.add_argument("--scale", type=int, default=1)
    args = parser.parse_args()
    os.makedirs(args.directory, exist_ok=True)
    for name, text in shapes(args.scale):
        with open(os.path.join(args.directory, name), "w") as out:
            out.write(text)


if __name__ == "__main__":
    main()
