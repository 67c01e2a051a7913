#!/usr/bin/env python3
"""Prints a shell command block of README.md, so that the suite runs exactly
what the README tells users to run.

    readme_command.py README --after TEXT [--replace OLD=NEW ...]

Prints the first ```sh block after the first line containing TEXT, with each
OLD replaced by NEW (the test's own paths for the README's). Fails when the
text, the block or a replaced string is missing, so that a README edit
cannot silently leave the test running something else.
"""

import argparse
import sys


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("readme")
    parser.add_argument("--after", required=True)
    parser.add_argument("--replace", action="append", default=[])
    args = parser.parse_args()
    with open(args.readme, encoding="utf-8") as f:
        lines = f.read().splitlines()
    start = next((i for i, line in enumerate(lines) if args.after in line),
                 None)
    if start is None:
        sys.exit(f"readme_command.py: no line of {args.readme} contains "
                 f"'{args.after}'")
    fence = next((i for i in range(start, len(lines))
                  if lines[i].strip() == "```sh"), None)
    end = fence is not None and next(
        (i for i in range(fence + 1, len(lines)) if lines[i].strip() == "```"),
        None)
    if fence is None or not end:
        sys.exit(f"readme_command.py: no ```sh block after '{args.after}'")
    block = "\n".join(lines[fence + 1:end]) + "\n"
    for pair in args.replace:
        old, sep, new = pair.partition("=")
        if not sep or old not in block:
            sys.exit(f"readme_command.py: the block does not contain '{old}'")
        block = block.replace(old, new)
    sys.stdout.write(block)


if __name__ == "__main__":
    main()
