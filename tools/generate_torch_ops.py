#!/usr/bin/env python3
"""Generates lib/Analysis/Torch/TorchOps.inc, gpuguard's tables of ATen ops.

The tables come from PyTorch's own operator data, never from lists kept by
hand:
  - native_functions.yaml: which ops mutate `self` (`Tensor(a!) self`), with
    their method/function variants, and which ops return a view of `self`
    (`Tensor(a) self -> Tensor(a)`);
  - native_functions.yaml, too: the op families, i.e. the elementwise ops
    (`structured_inherits: TensorIteratorBase`, less the losses, indexing
    and ops along a dimension), the reductions (one Tensor
    returned, a `dim` and a `bool keepdim` parameter) and the factories (a
    `ScalarType? dtype` and a `Device? device` parameter, with no tensor
    parameter, or with only `self` and no `size`: the `*_like` ones);
  - derivatives.yaml: for every differentiable op overload, its parameters
    and, per parameter that has a backward formula, the tensors that formula
    reads (the inputs and the op's result): what autograd saves.

Usage:
  generate_torch_ops.py [--native FILE] [--derivatives FILE] [--output FILE]
  generate_torch_ops.py --check ...   exit 1 when OUTPUT differs from what the
                                      YAML files give
"""

import argparse
import os
import re
import sys

import yaml

# The C loader, when PyYAML has it, reads the 12,000-line schema file in a
# fraction of the time.
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# PyTorch's operator data, kept in the repository (see its README).
DATA = os.path.join(ROOT, "tools", "pytorch-data")
DEFAULT_NATIVE = os.path.join(DATA, "native_functions-1.13.1.yaml")
DEFAULT_DERIVATIVES = os.path.join(DATA, "derivatives.yaml")
DEFAULT_OUTPUT = os.path.join(ROOT, "lib", "Analysis", "Torch", "TorchOps.inc")

# Reads of a tensor that need only its metadata, which autograd records
# without saving the tensor.
METADATA = (
    "sizes", "sym_sizes", "strides", "sym_strides", "options", "scalar_type",
    "dtype", "dim", "numel", "sym_numel", "size", "sym_size", "is_complex",
    "is_conj", "layout", "device", "is_cuda", "suggest_memory_format",
)
METADATA_USE = re.compile(r"\b(\w+)\s*\.\s*(?:%s)\s*\(" % "|".join(METADATA))

# Ops that are not in derivatives.yaml because they decompose into one that
# is (CompositeImplicitAutograd): LibTorch code calls the left-hand name.
COMPOSITES = {
    "softmax": "_softmax",
    "log_softmax": "_log_softmax",
}

# Ops with a `Tensor(a!) self` that change no data and never bump the
# version counter.
NOT_DATA_WRITES = {"requires_grad_", "retain_grad", "detach_"}


def split_params(text):
    """Splits a schema's parameter list at the commas outside brackets."""
    parts, depth, current = [], 0, ""
    for char in text:
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        if char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += char
    if current.strip():
        parts.append(current.strip())
    return [part for part in parts if part != "*"]


def parse_schema(schema):
    """(name, overload, [(type, param)], [return names], returns text)."""
    match = re.match(r"([\w.]+)\((.*)\)\s*->\s*(.*)$", schema.strip())
    if not match:
        raise ValueError("unparsable schema: " + schema)
    full, params, returns = match.groups()
    name, _, overload = full.partition(".")
    parsed = []
    for param in split_params(params):
        param = param.split("=")[0].strip()
        kind, _, pname = param.rpartition(" ")
        parsed.append((kind.strip(), pname.strip()))
    returns = returns.strip()
    if returns.startswith("("):
        returns = returns[1:-1]
    outputs = []
    for index, ret in enumerate(split_params(returns)):
        pieces = ret.split()
        outputs.append(pieces[1] if len(pieces) > 1 else
                       ("result" if index == 0 else "result%d" % index))
    return name, overload, parsed, outputs, returns


def param_kind(kind):
    """One letter per parameter: T tensor, O optional tensor, L tensor list,
    S anything else."""
    base = re.sub(r"\(.*?\)", "", kind)
    if base == "Tensor":
        return "T"
    if base == "Tensor?":
        return "O"
    if base.startswith("Tensor"):
        return "L"
    return "S"


def in_place_ops(native):
    ops = {}
    views = set()
    for entry in native:
        name, _, params, _, returns = parse_schema(entry["func"])
        variants = [v.strip() for v in
                    str(entry.get("variants", "function")).split(",")]
        if (params and params[0][1] == "self"
                and params[0][0].startswith("Tensor(a!)")
                and name not in NOT_DATA_WRITES):
            method, function = ops.get(name, (False, False))
            ops[name] = (method or "method" in variants,
                         function or "function" in variants)
        if (params and params[0][1] == "self"
                and re.match(r"Tensor\([a-z]\)$", params[0][0])
                and re.match(r"Tensor\([a-z]\)$", returns)):
            views.add(name)
    return ops, views


def is_public(name):
    """Ops that LibTorch code calls: not internal, not a backward kernel."""
    return not name.startswith("_") and not name.endswith("_backward")


def op_families(native):
    """(elementwise, reductions, {factory: made from a tensor}) by name."""
    pointwise, reductions, factories = set(), set(), {}
    for entry in native:
        name, overload, params, _, returns = parse_schema(entry["func"])
        if not is_public(name):
            continue
        names = [pname for _, pname in params]
        # A TensorIterator kernel is elementwise unless the op also reduces
        # (losses), indexes or works along a dimension (glu).
        if (entry.get("structured_inherits") == "TensorIteratorBase"
                and not {"reduction", "indices", "dim"} & set(names)):
            pointwise.add(name)
        if overload.startswith("out") or returns != "Tensor":
            continue
        kinds = [kind for kind, _ in params]
        if "dim" in names and ("bool", "keepdim") in params:
            reductions.add(name)
        if ("ScalarType?", "dtype") in params and ("Device?", "device") in params:
            tensors = [k for k in kinds if param_kind(k) != "S"]
            if not tensors:
                factories[name] = factories.get(name, False)
            elif params[0] == ("Tensor", "self") and len(tensors) == 1 \
                    and "size" not in names:
                factories[name] = True
    return pointwise, reductions, factories


def formula_uses(formula, names):
    """The names in \\p names that \\p formula reads other than for
    metadata."""
    text = METADATA_USE.sub(lambda m: "__metadata__(", formula)
    words = set(re.findall(r"\b[A-Za-z_]\w*\b", text))
    return [name for name in names if name in words]


def saving_ops(derivatives):
    rows = []
    for entry in derivatives:
        name, overload, params, outputs, _ = parse_schema(entry["name"])
        formulas = dict(entry)
        if isinstance(formulas.get("dispatch"), dict):
            formulas = dict(formulas["dispatch"].get("Default", {}))
        names = [pname for _, pname in params]
        kinds = "".join(param_kind(kind) for kind, _ in params)
        tensors = [pname for (kind, pname) in params
                   if param_kind(kind) != "S"]
        uses = [None] * len(params)
        for key, formula in formulas.items():
            inputs = [k.strip() for k in str(key).split(",")]
            if not all(k in names for k in inputs):
                continue  # name, output_differentiability, forward formulas
            formula = str(formula)
            if "non_differentiable" in formula or "not_implemented" in formula:
                continue
            read = formula_uses(formula, tensors)
            saved = [str(names.index(r)) for r in read]
            if formula_uses(formula, outputs):
                saved.append("r")
            for k in inputs:
                index = names.index(k)
                previous = uses[index] or []
                uses[index] = sorted(set(previous + saved))
        if all(u is None for u in uses):
            continue
        encoded = "|".join("-" if u is None else ",".join(u) for u in uses)
        rows.append((name, overload, kinds, encoded))
    return rows


def c_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def generate(native_path, derivatives_path):
    with open(native_path) as f:
        native = yaml.load(f, Loader=LOADER)
    with open(derivatives_path) as f:
        derivatives = yaml.load(f, Loader=LOADER)
    ops, views = in_place_ops(native)
    pointwise, reductions, factories = op_families(native)
    rows = saving_ops(derivatives)
    out = [
        "//===--- TorchOps.inc - ATen op tables, generated -----------*- C++ -*-===//",
        "//",
        "// Generated by tools/generate_torch_ops.py; do not edit. Regenerate with",
        "//   python3 tools/generate_torch_ops.py",
        "// Sources (PyTorch's operator data, BSD-3-Clause):",
        "//   %s (LibTorch 1.13.1)" % os.path.basename(native_path),
        "//     -> GPUGUARD_INPLACE_OP, GPUGUARD_VIEW_OP, GPUGUARD_POINTWISE_OP,",
        "//        GPUGUARD_REDUCTION_OP, GPUGUARD_FACTORY_OP",
        "//   %s (PyTorch 2.x)" % os.path.basename(derivatives_path),
        "//     -> GPUGUARD_SAVING_OP, GPUGUARD_COMPOSITE_OP",
        "// The format is documented in TorchOps.h.",
        "//",
        "//===----------------------------------------------------------------------===//",
        "",
        "#ifdef GPUGUARD_INPLACE_OP",
    ]
    for name in sorted(ops):
        method, function = ops[name]
        out.append("GPUGUARD_INPLACE_OP(%s, %s, %s)" % (
            c_string(name), "true" if method else "false",
            "true" if function else "false"))
    out += ["#undef GPUGUARD_INPLACE_OP", "#endif", "", "#ifdef GPUGUARD_VIEW_OP"]
    for name in sorted(views):
        out.append("GPUGUARD_VIEW_OP(%s)" % c_string(name))
    out += ["#undef GPUGUARD_VIEW_OP", "#endif", "",
            "#ifdef GPUGUARD_POINTWISE_OP"]
    for name in sorted(pointwise):
        out.append("GPUGUARD_POINTWISE_OP(%s)" % c_string(name))
    out += ["#undef GPUGUARD_POINTWISE_OP", "#endif", "",
            "#ifdef GPUGUARD_REDUCTION_OP"]
    for name in sorted(reductions):
        out.append("GPUGUARD_REDUCTION_OP(%s)" % c_string(name))
    out += ["#undef GPUGUARD_REDUCTION_OP", "#endif", "",
            "#ifdef GPUGUARD_FACTORY_OP"]
    for name in sorted(factories):
        out.append("GPUGUARD_FACTORY_OP(%s, %s)" % (
            c_string(name), "true" if factories[name] else "false"))
    out += ["#undef GPUGUARD_FACTORY_OP", "#endif", "",
            "#ifdef GPUGUARD_SAVING_OP"]
    for name, overload, kinds, encoded in rows:
        out.append("GPUGUARD_SAVING_OP(%s, %s, %s, %s)" % (
            c_string(name), c_string(overload), c_string(kinds),
            c_string(encoded)))
    out += ["#undef GPUGUARD_SAVING_OP", "#endif", "",
            "#ifdef GPUGUARD_COMPOSITE_OP"]
    for name in sorted(COMPOSITES):
        out.append("GPUGUARD_COMPOSITE_OP(%s, %s)" % (
            c_string(name), c_string(COMPOSITES[name])))
    out += ["#undef GPUGUARD_COMPOSITE_OP", "#endif", ""]
    return "\n".join(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--native", default=DEFAULT_NATIVE)
    parser.add_argument("--derivatives", default=DEFAULT_DERIVATIVES)
    parser.add_argument("--output", default=DEFAULT_OUTPUT)
    parser.add_argument("--check", action="store_true",
                        help="fail when the output file is not current")
    args = parser.parse_args()
    text = generate(args.native, args.derivatives)
    if args.check:
        try:
            with open(args.output) as f:
                current = f.read()
        except OSError:
            current = None
        if current != text:
            sys.stderr.write("%s is stale: run tools/generate_torch_ops.py\n"
                             % args.output)
            return 1
        return 0
    with open(args.output, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
