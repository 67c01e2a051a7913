#!/usr/bin/env python3
"""Runs one gpuguard check on a test source and verifies its output.

The contract follows clang-tidy's check_clang_tidy.py:

  check_gpuguard.py [options] <source> <check-name> <temp-file> \\
      [-- <gpuguard args>] -- <compile flags>

The source carries its expectations next to the code they are about:
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: ... [check-name]
  // CHECK-NOTES:    the same, with notes (then notes are checked too)
  // CHECK-FIXES:    a line of the source after --fix
Every warning or error that no expectation names fails the test, and so do
notes when CHECK-NOTES is used. `--check-suffix=X` selects
CHECK-MESSAGES-X/CHECK-NOTES-X/CHECK-FIXES-X, for one file run several ways;
`--check-suffixes=,X` checks the unsuffixed lines and the X lines together.
`--runner=plugin` runs the same check through `clang-tidy --load` instead;
`--runner=both` runs both at once, holds each to the expectations, and
fails unless they print the same diagnostics. Every test under
test/checkers runs with `--runner=both` (its lit.local.cfg).
"""

import argparse
import os
import re
import subprocess
import sys


def fail(message):
    sys.exit("check_gpuguard.py: " + message)


def run_filecheck(filecheck, input_text, check_file, prefixes, extra, runner):
    command = [filecheck, check_file, "--check-prefixes=" + ",".join(prefixes),
               "--dump-input=fail"] + extra
    result = subprocess.run(command, input=input_text, text=True,
                            capture_output=True)
    if result.returncode != 0:
        sys.stderr.write(result.stdout + result.stderr)
        fail(f"{runner}: FileCheck failed for {','.join(prefixes)}")


def present(prefixes, source_text):
    """The prefixes of `prefixes` that the source uses."""
    return [p for p in prefixes if p + ":" in source_text]


# file:line:col: severity: message, as both runners print it.
DIAGNOSTIC = re.compile(r"^(.*?):(\d+):(\d+): (warning|error|note): (.*)$")


def diagnostics(output, temp):
    """The diagnostics of `output`, with the analysed copy's path left out."""
    found = []
    for line in output.splitlines():
        match = DIAGNOSTIC.match(line)
        if match and not line.startswith("gpuguard:"):
            path = "<source>" if match.group(1) == temp else match.group(1)
            found.append(f"{path}:" + ":".join(match.groups()[1:3]) +
                         f": {match.group(4)}: {match.group(5)}")
    return found


def verify(args, runner, output, returncode, source_text, temp, prefixes):
    """Fails unless one runner's output meets the source's expectations."""
    def runner_fail(message):
        fail(f"{runner}: {message}")

    expected_exit = 0 if args.expect_exit is None else args.expect_exit
    # A runner that cannot load or enable the check exits non-zero: that
    # must never pass as a clean run.
    if returncode != expected_exit:
        runner_fail(f"exit code {returncode}, expected {expected_exit}")
    # Compiler errors are never expected in a check test.
    if "[clang-diagnostic-error]" in output:
        runner_fail("the test source has compile errors")

    messages_prefixes, notes_prefixes, fixes_prefixes = prefixes
    source = args.source
    if present(notes_prefixes, source_text):
        run_filecheck(args.filecheck, output, source,
                      present(notes_prefixes, source_text),
                      ["--implicit-check-not={{warning|error|note}}:"], runner)
    elif present(messages_prefixes, source_text):
        # Notes are checked only where a test asks for them.
        lines = "\n".join(line for line in output.splitlines()
                          if not re.search(r": note: ", line))
        run_filecheck(args.filecheck, lines, source,
                      present(messages_prefixes, source_text),
                      ["--implicit-check-not={{warning|error}}:"], runner)
    elif re.search(r"(warning|error):", output):
        sys.stderr.write(output)
        runner_fail("diagnostics were printed but the test expects none")

    if present(fixes_prefixes, source_text):
        with open(temp, encoding="utf-8") as f:
            fixed = f.read()
        run_filecheck(args.filecheck, fixed, source,
                      present(fixes_prefixes, source_text),
                      ["--strict-whitespace", "--match-full-lines"], runner)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gpuguard", required=True)
    parser.add_argument("--clang-tidy", required=True)
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--filecheck", required=True)
    parser.add_argument("--runner", choices=["gpuguard", "plugin", "both"],
                        default="gpuguard")
    parser.add_argument("--check-suffix", default="")
    # Several suffixes, comma-separated, checked together; an empty one is
    # the unsuffixed prefix: `--check-suffixes=,STRICT` expects what the
    # default run expects plus the STRICT lines.
    parser.add_argument("--check-suffixes", default=None)
    parser.add_argument("--expect-exit", type=int, default=None)
    parser.add_argument("source")
    parser.add_argument("check_name")
    parser.add_argument("temp_file")
    args, rest = parser.parse_known_args()

    # The first `--` separates gpuguard arguments, a second the flags.
    tool_args, compile_flags = [], []
    if "--" in rest:
        split = rest.index("--")
        tool_args, after = rest[:split], rest[split + 1:]
        if "--" in after:
            second = after.index("--")
            tool_args, compile_flags = tool_args + after[:second], after[second + 1:]
        else:
            compile_flags = after
    else:
        tool_args = rest

    suffixes = (args.check_suffixes.split(",")
                if args.check_suffixes is not None else [args.check_suffix])
    suffixes = ["-" + s if s else "" for s in suffixes]
    prefixes = tuple([kind + s for s in suffixes]
                     for kind in ("CHECK-MESSAGES", "CHECK-NOTES", "CHECK-FIXES"))
    with open(args.source, encoding="utf-8") as f:
        source_text = f.read()
    if present(prefixes[0], source_text) and present(prefixes[1], source_text):
        fail(f"use {prefixes[0][0]} or {prefixes[1][0]}, not both")
    has_fixes = bool(present(prefixes[2], source_text))

    # Keep line numbers, drop the expectations from the analysed copy so that
    # fixes cannot touch them.
    cleaned = re.sub(r"// *CHECK-[A-Z0-9\-]*:[^\r\n]*", "//", source_text)
    extension = os.path.splitext(args.source)[1]
    base = args.temp_file
    if base.endswith(extension):
        base = base[:-len(extension)]
    os.makedirs(os.path.dirname(os.path.abspath(base)), exist_ok=True)

    runners = ["gpuguard", "plugin"] if args.runner == "both" else [args.runner]
    checks = "--checks=-*," + args.check_name
    fix = ["--fix"] if has_fixes else []
    started = []
    for runner in runners:
        # Each runner gets its own copy, since --fix rewrites it.
        temp = base + (".plugin" if runner == "plugin" and args.runner == "both"
                       else "") + extension
        with open(temp, "w", encoding="utf-8") as f:
            f.write(cleaned)
        if runner == "gpuguard":
            command = [args.gpuguard]
        else:
            command = [args.clang_tidy, "--load=" + args.plugin]
        command += [checks, "--quiet"] + fix + tool_args + [temp, "--"] + compile_flags
        # Both runners at once: a checker test waits for the slower only.
        process = subprocess.Popen(command, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True)
        started.append((runner, command, temp, process))

    found = {}
    for runner, command, temp, process in started:
        stdout, stderr = process.communicate()
        output = stdout + stderr
        print("Running: " + " ".join(command))
        print(output)
        verify(args, runner, output, process.returncode, source_text, temp,
               prefixes)
        found[runner] = diagnostics(output, temp)

    # Expectations need not name every note; the runners must agree on all.
    if len(found) == 2 and found["gpuguard"] != found["plugin"]:
        for runner, items in found.items():
            sys.stderr.write(f"{runner}:\n" + "".join(f"  {item}\n" for item in items))
        fail("gpuguard and the plugin print different diagnostics")


if __name__ == "__main__":
    main()
