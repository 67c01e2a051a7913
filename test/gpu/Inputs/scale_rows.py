"""Calls examples/extension's operator on CUDA tensors, for
extension-example.test: scale_rows.py LIBRARY NAMESPACE."""
import sys

import torch

torch.ops.load_library(sys.argv[1])
scale_rows = getattr(torch.ops, sys.argv[2]).scale_rows
factors = torch.tensor([1.0, 10.0], device="cuda")


def attempt(label, x, f):
    try:
        out = scale_rows(x, f)
        torch.cuda.synchronize()
        print(label, "right" if torch.equal(out, x * f.cuda()[:, None])
              else "WRONG")
    except RuntimeError as error:
        print(label, "error:", str(error).splitlines()[0])


attempt("contiguous", torch.arange(6.0, device="cuda").reshape(2, 3), factors)
# Two rows of three, laid out column by column.
attempt("transposed", torch.arange(6.0, device="cuda").reshape(3, 2).t(),
        factors)
if len(sys.argv) > 3:
    attempt("cpu-factors", torch.arange(6.0, device="cuda").reshape(2, 3),
            factors.cpu())
