#!/usr/bin/env python3
"""Instruments a LibTorch scenario program, builds it plainly and
instrumented, and runs every scenario each way.

    run_instrumented_scenarios.py --gpuguard=BIN --check=NAME --cxx=CXX
        --flags='...' --runtime-include=DIR --link=LIB... --workdir=DIR SOURCE

SOURCE is a test of test/integration/torch: GPUGUARD_SCENARIOs, whose RUN
lines say which scenarios PyTorch rejects (the positives, each with a
CHECK-MESSAGES finding) and which it accepts.

The file is instrumented twice, for the check NAME: with --instrument=flagged
(the sites the check reported) and with --instrument=all (every site of the
check it could not prove safe, in the negatives too); each copy is built once
and runs every scenario.

For each positive, in both instrumented builds, gpuguard's runtime line must
appear at the file:line:col of one of the scenario's static findings, every
runtime line must be at one of them or at one of their notes (as gpuguard
prints them now: a cast the finding points to, say), never elsewhere, in
another file or for another check, and the first must come before PyTorch's own error (or the
scenario's non-finite result); the program then goes on: PyTorch's outcome
still follows, as in the plain build. With GPUGUARD_OPTIONS=halt_on_error=1
it must stop at the runtime line instead. A finding that names a tensor an op
saved for backward needs a marker on the line of that op:

    auto z = y * y; // SAVED-FOR-BACKWARD: mul

and the runtime line must name that op and line ("saved by 'mul' at
FILE:LINE:COL"). An op outside the scenario (in a helper or a module's
forward() whose result the scenario writes) names the scenarios it is for:

    return torch::sigmoid(h); // SAVED-FOR-BACKWARD: sigmoid for scenario_name

A write with no static finding that only --instrument=all checks (a helper
before the scenarios writes to a tensor it saved, and a scenario runs
backward() through its result) is marked on its line with the positives that
reach it:

    y.mul_(2); // ALL-ONLY-FINDING: scenario_name ...

together with the SAVED-FOR-BACKWARD marker of the helper's saving op. In the
--instrument=all build such a positive must print its runtime line there, at
the line's first non-blank column, naming the saving op, as above; in the
flagged build, which has no site for it, it must print what the plain build
prints, with no runtime line.

A finding in a helper that a scenario's call causes (an op of the helper
that meets the argument the scenario passes) is named for that scenario on
the line after its CHECK-MESSAGES line:

    // FINDING-FOR: scenario_name ...

For each negative, in both instrumented builds, the output and exit code must
equal the plain build's, with no runtime line.

Prints one line per scenario, the number of instrumented sites the negatives
ran through, and "N passed, M failed"; exit code 1 when any failed, 2 when a
build failed.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys

from scenario_runs import ScenarioRuns

HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = os.path.join(HERE, os.pardir, "integration", "torch", "Inputs")

RUN_LINE = re.compile(
    r"%torch_run .*%s (\w+) --expect=(rejected|accepted)"
    r'(?: --message="([^"]*)")?')
SCENARIO = re.compile(r"^GPUGUARD_SCENARIO\((\w+)\)")
FINDING = re.compile(
    r"CHECK-MESSAGES: :\[\[@LINE(?:-(\d+))?\]\]:(\d+): warning: (.*)"
    r" \[([\w-]+)\]")
SAVED_MARKER = re.compile(
    r"// SAVED-FOR-BACKWARD: (\w+)(?: for (\w+(?: \w+)*))?\s*$")
ALL_ONLY_MARKER = re.compile(r"// ALL-ONLY-FINDING: (\w+(?: \w+)*)\s*$")
FINDING_FOR_MARKER = re.compile(r"// FINDING-FOR: (\w+(?: \w+)*)\s*$")
# An entry of the site table the instrumented copy starts with.
SITE_ENTRY = re.compile(r'^\s*\{"[^"]*", (\d+), (\d+), "')
RUNTIME_LINE = re.compile(r"^.*: runtime error: .*$", re.M)
MODES = ("flagged", "all")


class Scenario:
    def __init__(self, first_line):
        self.lines = (first_line, first_line)
        self.findings = set()
        self.needs_saved = False
        self.saved = set()
        # Findings only the --instrument=all build reports, with the saving
        # ops they name.
        self.all_only = set()
        self.all_only_saved = set()

    def in_mode(self, mode):
        """What the runtime must report in the build of MODE."""
        if mode != "all" or not self.all_only:
            return self
        merged = Scenario(self.lines[0])
        merged.lines = self.lines
        merged.findings = self.findings | self.all_only
        merged.needs_saved = True
        merged.saved = self.saved | self.all_only_saved
        return merged


def parse(source):
    """Expected outcomes, and each scenario's lines, static finding
    locations and saved-for-backward markers."""
    expected, scenarios, current = {}, {}, None
    # Markers of the helpers before the first scenario, by scenario name.
    all_only, helper_saved = {}, set()
    # Findings in helpers that belong to the scenarios calling them, and
    # saving ops in helpers named for the scenarios that write their result.
    found_for, last_finding, saved_for = {}, None, {}
    with open(source) as text:
        for number, line in enumerate(text, start=1):
            finding = FINDING.search(line)
            if finding:
                last_finding = (number - int(finding.group(1) or 0),
                                int(finding.group(2)))
            found = FINDING_FOR_MARKER.search(line)
            if found and last_finding:
                for name in found.group(1).split():
                    found_for.setdefault(name, set()).add(last_finding)
                if current:
                    current.findings.discard(last_finding)
            marker = SAVED_MARKER.search(line)
            if marker and marker.group(2):
                for name in marker.group(2).split():
                    saved_for.setdefault(name, set()).add(
                        (number, marker.group(1)))
                continue
            run = RUN_LINE.search(line)
            if run:
                expected[run.group(1)] = (run.group(2), run.group(3))
            start = SCENARIO.match(line)
            if start:
                current = scenarios.setdefault(start.group(1),
                                               Scenario(number))
            if not current:
                marker = SAVED_MARKER.search(line)
                if marker:
                    helper_saved.add((number, marker.group(1)))
                only = ALL_ONLY_MARKER.search(line)
                if only:
                    column = len(line) - len(line.lstrip()) + 1
                    for name in only.group(1).split():
                        found, saved = all_only.setdefault(name,
                                                           (set(), set()))
                        found.add((number, column))
                        saved |= helper_saved
                if line.startswith("}"):
                    helper_saved = set()
                continue
            current.lines = (current.lines[0], number)
            finding = FINDING.search(line)
            if finding:
                offset = int(finding.group(1) or 0)
                current.findings.add((number - offset,
                                      int(finding.group(2))))
                if "saved for backward" in finding.group(3):
                    current.needs_saved = True
            marker = SAVED_MARKER.search(line)
            if marker:
                current.saved.add((number, marker.group(1)))
    for name, found in found_for.items():
        if name not in scenarios:
            sys.exit(f"run_instrumented_scenarios.py: FINDING-FOR names no "
                     f"scenario '{name}'")
        scenarios[name].findings |= found
    for name, saved in saved_for.items():
        if name not in scenarios:
            sys.exit(f"run_instrumented_scenarios.py: SAVED-FOR-BACKWARD "
                     f"names no scenario '{name}'")
        scenarios[name].saved |= saved
    for name, (found, saved) in all_only.items():
        if name not in scenarios:
            sys.exit(f"run_instrumented_scenarios.py: ALL-ONLY-FINDING names "
                     f"no scenario '{name}'")
        scenarios[name].all_only |= found
        scenarios[name].all_only_saved |= saved
    return expected, scenarios


def site_lines(copy):
    """The source lines of the sites in an instrumented copy's table."""
    lines = []
    with open(copy) as text:
        for line in text:
            if line.startswith("#line "):
                break
            entry = SITE_ENTRY.match(line)
            if entry:
                lines.append(int(entry.group(1)))
    return lines


def static_notes(args, source):
    """The locations of the notes of each finding of the check, as gpuguard
    prints them for SOURCE: {(line, col) of the warning: {(line, col)}}."""
    checked = run([args.gpuguard, f"--checks=-*,{args.check}", source, "--"] +
                  shlex.split(args.flags) + ["-isystem", INPUTS])
    diagnostic = re.compile(re.escape(source) +
                            r":(\d+):(\d+): (warning|note): ")
    notes, current = {}, None
    for line in checked.stdout.splitlines() + checked.stderr.splitlines():
        m = diagnostic.match(line)
        if not m:
            continue
        where = (int(m.group(1)), int(m.group(2)))
        if m.group(3) == "warning":
            current = notes.setdefault(where, set())
        elif current is not None:
            current.add(where)
    return notes


def run(command, **kwargs):
    return subprocess.run(command, capture_output=True, text=True,
                          errors="replace", **kwargs)


def build(args, source, binary, extra):
    command = ([args.cxx] + shlex.split(args.flags) + extra +
               ["-DGPUGUARD_RUN", "-isystem", INPUTS, "-w", "-O0", source,
                "-o", binary] + args.link +
               ["-ltorch", "-ltorch_cpu", "-lc10", "-lpthread"] +
               shlex.split(args.linker_flags))
    built = run(command)
    if built.returncode != 0:
        sys.stderr.write(built.stderr[-4000:])
        sys.exit(f"run_instrumented_scenarios.py: cannot build {source}")


def instrument(args, source, mode):
    copies = os.path.join(args.workdir, mode)
    instrumented = run([args.gpuguard, "instrument", "--quiet",
                        f"--instrument={mode}", f"--checks=-*,{args.check}",
                        "-o", copies, source, "--"] +
                       shlex.split(args.flags) + ["-isystem", INPUTS])
    copy = copies + source
    if instrumented.returncode not in (0, 1) or not os.path.exists(copy):
        sys.stderr.write(instrumented.stderr[-4000:])
        sys.exit("run_instrumented_scenarios.py: 'gpuguard instrument "
                 f"--instrument={mode}' failed on {source}")
    return copy


RUNS = {}


def execute(binary, scenario, options=None):
    """One scenario's run with stdout unbuffered and merged into stderr, so
    that the order of the program's lines and the runtime's is kept. All the
    scenarios of a binary run at once for each GPUGUARD_OPTIONS value, after
    one start-up of LibTorch (scenario_runs.py)."""
    key = (binary, options)
    if key not in RUNS:
        suffix = re.sub(r"[^A-Za-z0-9]+", "-", options) if options else ""
        RUNS[key] = ScenarioRuns(binary, binary + ".runs" + suffix,
                                 options=options, merge=True)
    ran = RUNS[key].result(scenario)
    if ran is None:
        sys.exit(f"run_instrumented_scenarios.py: no scenario {scenario} in "
                 f"{binary}")
    return ran[0], ran[1]


def check_positive(args, source, binary, scenario, info, message, plain,
                   notes):
    """What is wrong with an instrumented run of a positive, and where its
    first runtime line was."""
    allowed = set(info.findings)
    for finding in info.findings:
        allowed |= notes.get(finding, set())
    report = re.compile(
        re.escape(source) + r":(\d+):(\d+): runtime error: .* \[" +
        re.escape(args.check) + r"\]$")
    plain_code, plain_out = plain
    code, out = execute(binary, scenario)
    problems, at = [], []
    for line in RUNTIME_LINE.finditer(out):
        m = report.match(line.group(0))
        where = (int(m.group(1)), int(m.group(2))) if m else None
        if where not in allowed:
            problems.append(f"stray runtime line '{line.group(0)}'")
        else:
            at.append((line.start(), where, line.group(0)))
    if not any(where in info.findings for _, where, _ in at):
        problems.append(f"no runtime line at {sorted(info.findings)}")
        return problems, None
    first = at[0][0]
    # PyTorch's own verdict must follow: the program went on.
    verdict = re.search(message or "gpuguard-scenario:|Warning:", out[first:])
    plain_verdict = re.search(message or "gpuguard-scenario:|Warning:",
                              plain_out)
    if plain_verdict and not verdict:
        problems.append("PyTorch's own error does not follow the runtime "
                        "line (the program stopped)")
    if re.search(message or "gpuguard-scenario:", out[:first]):
        problems.append("PyTorch's error came first")
    if code != plain_code:
        problems.append(f"exit code {code}, plain {plain_code}")
    if info.needs_saved:
        if not info.saved:
            problems.append("no SAVED-FOR-BACKWARD marker in the scenario")
        wanted = [re.compile(r"saved by '" + re.escape(op) + r"'.* at " +
                             re.escape(source) + f":{line}:" + r"\d+ \[")
                  for line, op in sorted(info.saved)]
        for _, _, line in at:
            if not any(w.search(line) for w in wanted):
                problems.append(
                    f"'{line}' does not name the op that saved the tensor, "
                    f"at {', '.join(f'{op} line {n}' for n, op in sorted(info.saved))}")
    halt_code, halt_out = execute(binary, scenario, "halt_on_error=1")
    halt_reports = [report.match(l.group(0))
                    for l in RUNTIME_LINE.finditer(halt_out)]
    if halt_code == 0 or not halt_reports or not all(halt_reports):
        problems.append("halt_on_error=1 did not stop at the runtime line")
    elif message and re.search(message, halt_out):
        problems.append("halt_on_error=1 let the op run")
    return problems, at[0][1]


def runs_as_plain(binary, scenario, plain, what):
    """What differs from the plain build in a run that must print no runtime
    line."""
    problems = []
    code, out = execute(binary, scenario)
    if RUNTIME_LINE.search(out):
        problems.append(what + RUNTIME_LINE.search(out).group(0))
    if (code, out) != plain:
        problems.append(what.split(":")[0] + ": output differs from the plain "
                        "build")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--gpuguard", required=True)
    parser.add_argument("--check", required=True)
    parser.add_argument("--cxx", required=True)
    parser.add_argument("--flags", default="")
    parser.add_argument("--runtime-include", required=True)
    parser.add_argument("--link", action="append", default=[])
    parser.add_argument("--linker-flags", default="",
                        help="flags for linking only (-fuse-ld=lld)")
    parser.add_argument("--workdir", required=True)
    parser.add_argument("source")
    args = parser.parse_args()

    source = os.path.abspath(args.source)
    expected, scenarios = parse(source)
    os.makedirs(args.workdir, exist_ok=True)
    copies = {mode: instrument(args, source, mode) for mode in MODES}
    plain_binary = os.path.join(args.workdir, "plain.bin")
    build(args, source, plain_binary, [])
    binaries = {}
    for mode in MODES:
        binaries[mode] = os.path.join(args.workdir, mode + ".bin")
        build(args, copies[mode], binaries[mode],
              ["-isystem", args.runtime_include])
    sites = {mode: site_lines(copies[mode]) for mode in MODES}
    notes = static_notes(args, source)

    passed = failed = 0
    negative_sites = 0
    for scenario, (outcome, message) in sorted(expected.items()):
        info = scenarios.get(scenario, Scenario(0))
        plain = execute(plain_binary, scenario)
        problems, where = [], []
        for mode in MODES:
            if outcome == "accepted":
                if info.all_only:
                    problems.append("an ALL-ONLY-FINDING marker names this "
                                    "negative")
                negative_sites += sum(info.lines[0] <= line <= info.lines[1]
                                      for line in sites[mode])
                problems += runs_as_plain(binaries[mode], scenario, plain,
                                          f"{mode}: runtime error on a "
                                          "negative: ")
            elif info.all_only and not info.in_mode(mode).findings:
                # Only the other build checks this write.
                problems += runs_as_plain(binaries[mode], scenario, plain,
                                          f"{mode}: runtime error without a "
                                          "site: ")
            else:
                found, first = check_positive(args, source, binaries[mode],
                                              scenario, info.in_mode(mode),
                                              message, plain, notes)
                problems += [f"{mode}: {p}" for p in found]
                if first:
                    where.append(f"{mode} at {first[0]}:{first[1]}")
        if problems:
            failed += 1
            print(f"FAIL {scenario} ({outcome}): " + "; ".join(problems))
            for mode in MODES:
                print(f"  {mode}:")
                for line in execute(binaries[mode],
                                    scenario)[1].splitlines()[:12]:
                    print("    " + line)
        else:
            passed += 1
            print(f"ok {scenario} ({outcome})" +
                  (" " + ", ".join(where) if where else ""))
    print(f"negatives ran through {negative_sites} instrumented site(s)")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
