#!/usr/bin/env python3
"""Validates a SARIF log against the SARIF 2.1.0 JSON schema.

    validate_sarif.py --schema SCHEMA [LOG]

Reads LOG, or standard input. Prints one line with the number of results
when the log is valid; otherwise prints every violation and exits 1. Needs
the jsonschema module (Debian: python3-jsonschema) and fails without it,
so that a missing module never passes for a valid log.
"""

import argparse
import json
import sys

try:
    import jsonschema
except ImportError:
    sys.exit("validate_sarif.py: the Python module jsonschema is missing; "
             "install python3-jsonschema (apt-get install python3-jsonschema)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--schema", required=True)
    parser.add_argument("log", nargs="?")
    args = parser.parse_args()
    with open(args.schema, encoding="utf-8") as f:
        schema = json.load(f)
    if args.log:
        with open(args.log, encoding="utf-8") as f:
            text = f.read()
    else:
        text = sys.stdin.read()
    try:
        log = json.loads(text)
    except json.JSONDecodeError as e:
        sys.exit(f"validate_sarif.py: not JSON: {e}")
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    # FORMAT_CHECKER is jsonschema 4.5's; older ones share one checker.
    format_checker = getattr(validator_class, "FORMAT_CHECKER", None) or \
        jsonschema.FormatChecker()
    validator = validator_class(schema, format_checker=format_checker)
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path))
    for error in errors:
        where = "/".join(str(p) for p in error.absolute_path) or "(root)"
        print(f"{where}: {error.message}")
    if errors:
        sys.exit(f"validate_sarif.py: {len(errors)} schema violation(s)")
    results = sum(len(run.get("results", [])) for run in log["runs"])
    print(f"valid SARIF {log['version']}: {len(log['runs'])} run(s), {results} result(s)")


if __name__ == "__main__":
    main()
