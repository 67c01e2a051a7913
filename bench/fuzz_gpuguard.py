#!/usr/bin/env python3
"""Feeds gpuguard mutated real kernels and pathological shapes, and counts
runs lost to a crash or a hang and files past the time budget.

    fuzz_gpuguard.py --gpuguard BIN [--inputs N] [--seed S] [--corpora DIR]
                     [--timeout SECONDS] [--batch N] [-j N] [--keep DIR]

Inputs:
  * token mutations of the .cu files of ../shared/corpora (llm.c and
    cuda-samples, with the flags their README gives) or, without the
    corpora, of test/corpus: each input applies one to five of: delete,
    duplicate or swap tokens, insert a token that stresses the parser
    (brackets, `<<<`, `if`, `return`, operators, `threadIdx.x`), truncate;
  * the shapes of test/scripts/generate_pathological.py at scales 1 to 4.

gpuguard checks them in batches with -j N, each file under --timeout.
Every batch must end with exit code 0, 1 or 3 inside its own wall limit
(files x timeout); a file crashing Clang or a check must be reported by the
one-line "was not checked: ... ended in" error, and a file past the budget by
the "ran past the time budget" error. The summary counts each; --keep copies
the inputs behind crashes, hangs and budget errors for reproduction. The
inputs depend only on --seed and the corpora. Not a CI test: minutes long.
"""

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_CORPORA = os.path.normpath(os.path.join(ROOT, "..", "shared",
                                                "corpora"))
sys.path.insert(0, os.path.join(ROOT, "test", "scripts"))
sys.path.insert(0, HERE)
import generate_pathological  # noqa: E402

# The corpora and their flags, as their README gives them.
from bench_real_code import CORPORA  # noqa: E402

TOKEN = re.compile(r"<<<|>>>|[A-Za-z_][A-Za-z_0-9]*|\d+\.?\d*f?|\S")
STRESS = ["(", ")", "{", "}", "[", "]", ";", ",", "<<<", ">>>", "<", ">",
          "if", "else", "return", "for", "while", "switch", "case", "0", "-1",
          "threadIdx.x", "blockIdx.x", "n", "*", "/", "%", "&&", "||", "=",
          "__syncthreads();", "template", "typename", "#", "\\", "\"", "'",
          "#define", "#include", "__global__", "auto", "::", "->", "..."]
CRASHED = re.compile(r"^gpuguard: error: '(?P<file>[^']+)' was not checked: "
                     r"parsing or analysing it ended in")
OVER_BUDGET = re.compile(r"^gpuguard: error: '(?P<file>[^']+)' was not "
                         r"checked: its analysis ran past the time budget")


def corpus_sources(corpora):
    """(path, flags, include dir) of every corpus .cu file."""
    found = []
    for directory, keep, flags in CORPORA.values():
        for root, _, files in os.walk(os.path.join(corpora, directory)):
            for name in sorted(files):
                path = os.path.join(root, name)
                if name.endswith(".cu") and keep("/" + path):
                    found.append((path, flags, root))
    return sorted(found)


def own_sources():
    found = []
    for sub in ("clean", "buggy"):
        root = os.path.join(ROOT, "test", "corpus", sub)
        for name in sorted(os.listdir(root)):
            if name.endswith(".cu"):
                found.append((os.path.join(root, name), [], root))
    return found


def mutate(text, rng):
    tokens = [(m.start(), m.end()) for m in TOKEN.finditer(text)]
    if not tokens:
        return text
    pieces = list(text)
    edits = []
    for _ in range(rng.randint(1, 5)):
        kind = rng.choice(["delete", "duplicate", "swap", "insert", "insert",
                           "truncate"])
        begin, end = rng.choice(tokens)
        if kind == "delete":
            edits.append((begin, end, ""))
        elif kind == "duplicate":
            edits.append((end, end, " " + text[begin:end]))
        elif kind == "swap":
            other = rng.choice(tokens)
            if other[0] >= end or other[1] <= begin:
                edits.append((begin, end, text[other[0]:other[1]]))
                edits.append((other[0], other[1], text[begin:end]))
        elif kind == "insert":
            edits.append((begin, begin, rng.choice(STRESS) + " "))
        elif rng.random() < 0.2:
            edits.append((begin, len(text), ""))
    # Apply from the end so that earlier offsets stay valid; overlapping
    # edits are dropped.
    edits.sort(key=lambda e: (e[0], e[1]), reverse=True)
    limit = len(text) + 1
    for begin, end, replacement in edits:
        if end > limit:
            continue
        pieces[begin:end] = list(replacement)
        limit = begin
    return "".join(pieces)


def make_inputs(args, scratch):
    """(path, flags, include dirs) per input, written under scratch."""
    rng = random.Random(args.seed)
    seeds = (corpus_sources(args.corpora) if os.path.isdir(args.corpora)
             else own_sources())
    if not seeds:
        sys.exit("fuzz_gpuguard.py: no seed kernels found")
    inputs = []
    shapes_dir = os.path.join(scratch, "shapes")
    for scale in range(1, 5):
        target = os.path.join(shapes_dir, str(scale))
        os.makedirs(target)
        for name, text in generate_pathological.shapes(scale):
            path = os.path.join(target, name)
            with open(path, "w") as out:
                out.write(text)
            inputs.append((path, [], []))
    mutated = os.path.join(scratch, "mutated")
    os.makedirs(mutated)
    while len(inputs) < args.inputs:
        source, flags, include = rng.choice(seeds)
        with open(source, encoding="utf-8", errors="replace") as f:
            text = f.read()
        name = "%05d_%s" % (len(inputs), os.path.basename(source))
        path = os.path.join(mutated, name)
        with open(path, "w") as out:
            out.write(mutate(text, rng))
        inputs.append((path, flags, [include]))
    return inputs


def run_batch(args, batch, cwd):
    flags = list(batch[0][1])
    for _, _, includes in batch:
        for include in includes:
            flags += ["-I", include]
    command = ([args.gpuguard, "--quiet", "--no-cache", "-j", str(args.jobs),
                "--timeout=%g" % args.timeout] + [path for path, _, _ in batch]
               + ["--"] + flags)
    # A batch that outlives every file's budget by far is a hang.
    limit = 60 + len(batch) * (args.timeout + 30) / max(1, args.jobs)
    started = time.monotonic()
    try:
        result = subprocess.run(command, cwd=cwd, capture_output=True,
                                text=True, errors="replace", timeout=limit)
    except subprocess.TimeoutExpired:
        return None, time.monotonic() - started, ""
    return result.returncode, time.monotonic() - started, result.stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gpuguard", required=True)
    parser.add_argument("--inputs", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--corpora", default=DEFAULT_CORPORA)
    parser.add_argument("--timeout", type=float, default=20)
    parser.add_argument("--batch", type=int, default=40)
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--keep", help="copy troublesome inputs here")
    args = parser.parse_args()
    args.gpuguard = os.path.abspath(args.gpuguard)
    args.corpora = os.path.abspath(args.corpora)

    scratch = tempfile.mkdtemp(prefix="gpuguard-fuzz-")
    try:
        inputs = make_inputs(args, scratch)
        # Batches share flags: group the inputs by them.
        groups = {}
        for item in inputs:
            groups.setdefault(tuple(item[1]), []).append(item)
        batches = []
        for items in groups.values():
            for i in range(0, len(items), args.batch):
                batches.append(items[i:i + args.batch])
        cwd = args.corpora if os.path.isdir(args.corpora) else ROOT
        lost, hung, crashed, over, exits = [], [], [], [], {}
        total_seconds = 0.0
        for number, batch in enumerate(batches, 1):
            code, seconds, stderr = run_batch(args, batch, cwd)
            total_seconds += seconds
            exits[code] = exits.get(code, 0) + 1
            if code is None:
                hung.extend(path for path, _, _ in batch)
            elif code not in (0, 1, 3):
                lost.extend(path for path, _, _ in batch)
            for line in stderr.splitlines():
                if m := CRASHED.match(line):
                    crashed.append(m.group("file"))
                elif m := OVER_BUDGET.match(line):
                    over.append(m.group("file"))
            print("batch %d/%d: %d files, exit %s, %.0f s" %
                  (number, len(batches), len(batch), code, seconds),
                  file=sys.stderr)
        shapes = sum(1 for path, _, _ in inputs
                     if os.sep + "shapes" + os.sep in path)
        print("inputs: %d (%d mutated kernels, %d generated shapes) in %d "
              "batches, %.0f s" % (len(inputs), len(inputs) - shapes, shapes,
                                   len(batches), total_seconds))
        print("batch exit codes: %s" % ", ".join(
            "%s x%d" % (code, count) for code, count in sorted(
                exits.items(), key=lambda item: str(item[0]))))
        print("runs lost to a crash (exit not 0, 1 or 3): %d files" %
              len(lost))
        print("runs past their wall limit (hangs): %d files" % len(hung))
        print("crashes contained, one error line each: %d" % len(crashed))
        print("files past the %g s budget, one error line each: %d" %
              (args.timeout, len(over)))
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            for path in set(lost + hung + crashed + over):
                if os.path.exists(path):
                    shutil.copy(path, args.keep)
        return 1 if lost or hung else 0
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
