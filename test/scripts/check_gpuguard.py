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
CHECK-MESSAGES-X/CHECK-NOTES-X/CHECK-FIXES-X, for one file run several ways.
`--runner=plugin` runs the same check through `clang-tidy --load` instead.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys


def fail(message):
    sys.exit("check_gpuguard.py: " + message)


def run_filecheck(filecheck, input_text, check_file, prefix, extra):
    command = [filecheck, check_file, "--check-prefix=" + prefix,
               "--dump-input=fail"] + extra
    result = subprocess.run(command, input=input_text, text=True,
                            capture_output=True)
    if result.returncode != 0:
        sys.stderr.write(result.stdout + result.stderr)
        fail(f"FileCheck failed for {prefix}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gpuguard", required=True)
    parser.add_argument("--clang-tidy", required=True)
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--filecheck", required=True)
    parser.add_argument("--runner", choices=["gpuguard", "plugin"],
                        default="gpuguard")
    parser.add_argument("--check-suffix", default="")
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

    suffix = "-" + args.check_suffix if args.check_suffix else ""
    messages_prefix = "CHECK-MESSAGES" + suffix
    notes_prefix = "CHECK-NOTES" + suffix
    fixes_prefix = "CHECK-FIXES" + suffix

    with open(args.source, encoding="utf-8") as f:
        source_text = f.read()
    has_messages = messages_prefix + ":" in source_text
    has_notes = notes_prefix + ":" in source_text
    has_fixes = fixes_prefix + ":" in source_text
    if has_messages and has_notes:
        fail(f"use {messages_prefix} or {notes_prefix}, not both")

    # Keep line numbers, drop the expectations from the analysed copy so that
    # fixes cannot touch them.
    cleaned = re.sub(r"// *CHECK-[A-Z0-9\-]*:[^\r\n]*", "//", source_text)
    extension = os.path.splitext(args.source)[1]
    temp = args.temp_file
    if not temp.endswith(extension):
        temp += extension
    os.makedirs(os.path.dirname(os.path.abspath(temp)), exist_ok=True)
    with open(temp, "w", encoding="utf-8") as f:
        f.write(cleaned)

    checks = "--checks=-*," + args.check_name
    if args.runner == "gpuguard":
        command = [args.gpuguard, checks, "--quiet"]
        if has_fixes:
            command.append("--fix")
        command += tool_args + [temp, "--"] + compile_flags
    else:
        command = [args.clang_tidy, "--load=" + args.plugin, checks, "--quiet"]
        if has_fixes:
            command.append("--fix")
        command += tool_args + [temp, "--"] + compile_flags
    result = subprocess.run(command, capture_output=True, text=True)
    output = result.stdout + result.stderr
    print("Running: " + " ".join(command))
    print(output)
    if args.expect_exit is not None and result.returncode != args.expect_exit:
        fail(f"exit code {result.returncode}, expected {args.expect_exit}")

    # Compiler errors are never expected in a check test.
    if "[clang-diagnostic-error]" in output:
        fail("the test source has compile errors")

    if has_notes:
        run_filecheck(args.filecheck, output, args.source, notes_prefix,
                      ["--implicit-check-not={{warning|error|note}}:"])
    elif has_messages:
        # Notes are checked only where a test asks for them.
        diagnostics = "\n".join(
            line for line in output.splitlines()
            if not re.search(r": note: ", line))
        run_filecheck(args.filecheck, diagnostics, args.source, messages_prefix,
                      ["--implicit-check-not={{warning|error}}:"])
    elif re.search(r"(warning|error):", output):
        sys.stderr.write(output)
        fail("diagnostics were printed but the test expects none")

    if has_fixes:
        with open(temp, encoding="utf-8") as f:
            fixed = f.read()
        run_filecheck(args.filecheck, fixed, args.source, fixes_prefix,
                      ["--strict-whitespace", "--match-full-lines"])


if __name__ == "__main__":
    main()
