#!/usr/bin/env python3
"""Instruments a LibTorch scenario program, builds it plainly and
instrumented, and runs every scenario both ways.

    run_instrumented_scenarios.py --gpuguard=BIN --check=NAME --cxx=CXX
        --flags='...' --runtime-include=DIR --link=LIB... --workdir=DIR SOURCE

SOURCE is a test of test/integration/torch: GPUGUARD_SCENARIOs, whose RUN
lines say which scenarios PyTorch rejects (the positives, each with a
CHECK-MESSAGES finding) and which it accepts.

For each positive, the instrumented build must print gpuguard's runtime line
at the file:line:col of one of the scenario's static findings, before
PyTorch's own error (or the scenario's non-finite result), and then go on:
PyTorch's outcome still follows, as in the plain build. With
GPUGUARD_OPTIONS=halt_on_error=1 it must stop at the runtime line instead.
For each negative, the instrumented build's output must equal the plain
build's, with no runtime error.

Prints one line per scenario and "N passed, M failed"; exit code 1 when any
failed, 2 when a build failed.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = os.path.join(HERE, os.pardir, "integration", "torch", "Inputs")

RUN_LINE = re.compile(
    r"%torch_run .*%s (\w+) --expect=(rejected|accepted)"
    r'(?: --message="([^"]*)")?')
SCENARIO = re.compile(r"^GPUGUARD_SCENARIO\((\w+)\)")
FINDING = re.compile(
    r"CHECK-MESSAGES: :\[\[@LINE(?:-(\d+))?\]\]:(\d+): warning: .*\[([\w-]+)\]")


def parse(source):
    """Expected outcomes, and each scenario's static finding locations."""
    expected, findings, current = {}, {}, None
    with open(source) as text:
        for number, line in enumerate(text, start=1):
            run = RUN_LINE.search(line)
            if run:
                expected[run.group(1)] = (run.group(2), run.group(3))
            start = SCENARIO.match(line)
            if start:
                current = start.group(1)
                findings.setdefault(current, set())
            finding = FINDING.search(line)
            if finding and current:
                offset = int(finding.group(1) or 0)
                findings[current].add((number - offset, int(finding.group(2))))
    return expected, findings


def run(command, **kwargs):
    return subprocess.run(command, capture_output=True, text=True,
                          errors="replace", **kwargs)


def build(args, source, binary, extra):
    command = ([args.cxx] + shlex.split(args.flags) + extra +
               ["-DGPUGUARD_RUN", "-isystem", INPUTS, "-w", "-O0", source,
                "-o", binary] + args.link +
               ["-ltorch", "-ltorch_cpu", "-lc10", "-lpthread"])
    built = run(command)
    if built.returncode != 0:
        sys.stderr.write(built.stderr[-4000:])
        sys.exit(f"run_instrumented_scenarios.py: cannot build {source}")


def execute(binary, scenario, options=None):
    """Runs one scenario with stdout unbuffered and merged into stderr, so
    that the order of the program's lines and the runtime's is kept."""
    env = dict(os.environ)
    env.pop("GPUGUARD_OPTIONS", None)
    if options:
        env["GPUGUARD_OPTIONS"] = options
    ran = subprocess.run(["stdbuf", "-o0", "-e0", binary, scenario],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True, errors="replace", env=env, timeout=300)
    return ran.returncode, ran.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--gpuguard", required=True)
    parser.add_argument("--check", required=True)
    parser.add_argument("--cxx", required=True)
    parser.add_argument("--flags", default="")
    parser.add_argument("--runtime-include", required=True)
    parser.add_argument("--link", action="append", default=[])
    parser.add_argument("--workdir", required=True)
    parser.add_argument("source")
    args = parser.parse_args()

    source = os.path.abspath(args.source)
    expected, findings = parse(source)
    os.makedirs(args.workdir, exist_ok=True)
    copies = os.path.join(args.workdir, "instrumented")
    instrumented = run([args.gpuguard, "instrument", "--quiet",
                        f"--checks=-*,{args.check}", "-o", copies, source,
                        "--"] + shlex.split(args.flags) +
                       ["-isystem", INPUTS])
    copy = copies + source
    if instrumented.returncode not in (0, 1) or not os.path.exists(copy):
        sys.stderr.write(instrumented.stderr[-4000:])
        sys.exit("run_instrumented_scenarios.py: 'gpuguard instrument' "
                 f"failed on {source}")
    plain_binary = os.path.join(args.workdir, "plain.bin")
    instrumented_binary = os.path.join(args.workdir, "instrumented.bin")
    build(args, source, plain_binary, [])
    build(args, copy, instrumented_binary,
          ["-isystem", args.runtime_include])

    report = re.compile(
        re.escape(source) + r":(\d+):(\d+): runtime error: .* \[" +
        re.escape(args.check) + r"\]$", re.M)
    passed = failed = 0
    for scenario, (outcome, message) in sorted(expected.items()):
        problems = []
        plain_code, plain_out = execute(plain_binary, scenario)
        code, out = execute(instrumented_binary, scenario)
        reports = list(report.finditer(out))
        if outcome == "accepted":
            if reports or "runtime error" in out:
                problems.append("runtime error on a negative")
            if (code, out) != (plain_code, plain_out):
                problems.append("output differs from the plain build")
        else:
            at = {(int(m.group(1)), int(m.group(2))) for m in reports}
            if not at & findings.get(scenario, set()):
                problems.append(
                    f"no runtime line at {sorted(findings.get(scenario, []))}"
                    f" (saw {sorted(at)})")
            else:
                first = min(m.start() for m in reports)
                # PyTorch's own verdict must follow: the program went on.
                verdict = re.search(message or "gpuguard-scenario:|Warning:",
                                    out[first:])
                plain_verdict = re.search(message or
                                          "gpuguard-scenario:|Warning:",
                                          plain_out)
                if plain_verdict and not verdict:
                    problems.append("PyTorch's own error does not follow the "
                                    "runtime line (the program stopped)")
                if re.search(message or "gpuguard-scenario:", out[:first]):
                    problems.append("PyTorch's error came first")
                if code != plain_code:
                    problems.append(f"exit code {code}, plain {plain_code}")
                halt_code, halt_out = execute(instrumented_binary, scenario,
                                              "halt_on_error=1")
                if halt_code == 0 or not report.search(halt_out):
                    problems.append("halt_on_error=1 did not stop at the "
                                    "runtime line")
                elif message and re.search(message, halt_out):
                    problems.append("halt_on_error=1 let the op run")
        if problems:
            failed += 1
            print(f"FAIL {scenario} ({outcome}): " + "; ".join(problems))
            for line in out.splitlines()[:12]:
                print("    " + line)
        else:
            passed += 1
            where = ""
            if outcome == "rejected":
                m = reports[0]
                where = f" at {m.group(1)}:{m.group(2)}"
            print(f"ok {scenario} ({outcome}){where}")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
