#!/usr/bin/env python3
"""Validates a SARIF log against the SARIF 2.1.0 JSON schema.

    validate_sarif.py --schema SCHEMA [--github] [LOG]

Reads LOG, or standard input. Prints one line with the number of results
when the log is valid; otherwise prints every violation and exits 1.
--github also applies GitHub code scanning's upload limits (runs per file,
results and rules per run, locations per result, tags per rule, 10 MB
gzip-compressed) and requires every result's locations to lie under a
uriBaseId, since code scanning cannot show a file outside the repository. Needs
the jsonschema module (Debian: python3-jsonschema) and fails without it,
so that a missing module never passes for a valid log.
"""

import argparse
import gzip
import json
import sys

try:
    import jsonschema
except ImportError:
    sys.exit("validate_sarif.py: the Python module jsonschema is missing; "
             "install python3-jsonschema (apt-get install python3-jsonschema)")


# Code scanning's hard limits: an upload past any of them is rejected.
GITHUB_LIMITS = {
    "runs per file": 20,
    "results per run": 25000,
    "rules per run": 25000,
    "tool extensions per run": 100,
    "locations per result": 1000,
    "thread flow locations per result": 10000,
    "tags per rule": 20,
}
GITHUB_MAX_GZIP_BYTES = 10 * 1024 * 1024


def github_problems(log, text):
    problems = []

    def over(what, count, where):
        if count > GITHUB_LIMITS[what]:
            problems.append(f"{where}: {count} {what}, more than code "
                            f"scanning accepts ({GITHUB_LIMITS[what]})")

    size = len(gzip.compress(text.encode("utf-8")))
    if size > GITHUB_MAX_GZIP_BYTES:
        problems.append(f"(root): {size} bytes gzip-compressed, more than "
                        f"code scanning accepts ({GITHUB_MAX_GZIP_BYTES})")
    runs = log.get("runs", [])
    over("runs per file", len(runs), "(root)")
    for r, run in enumerate(runs):
        where = f"runs/{r}"
        over("results per run", len(run.get("results", [])), where)
        tool = run.get("tool", {})
        rules = tool.get("driver", {}).get("rules", [])
        over("rules per run", len(rules), where)
        over("tool extensions per run", len(tool.get("extensions", [])), where)
        for i, rule in enumerate(rules):
            tags = rule.get("properties", {}).get("tags", [])
            over("tags per rule", len(tags), f"{where}/tool/driver/rules/{i}")
        for i, result in enumerate(run.get("results", [])):
            at = f"{where}/results/{i}"
            locations = result.get("locations", [])
            over("locations per result", len(locations), at)
            flows = sum(len(thread.get("locations", []))
                        for flow in result.get("codeFlows", [])
                        for thread in flow.get("threadFlows", []))
            over("thread flow locations per result", flows, at)
            for j, location in enumerate(locations):
                artifact = location.get("physicalLocation", {}).get(
                    "artifactLocation", {})
                if "uriBaseId" not in artifact:
                    problems.append(
                        f"{at}/locations/{j}: '{artifact.get('uri', '')}' is "
                        "not under a uriBaseId; code scanning cannot show a "
                        "file outside the repository")
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--schema", required=True)
    parser.add_argument("--github", action="store_true",
                        help="also apply GitHub code scanning's limits")
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
    if args.github:
        problems = github_problems(log, text)
        for problem in problems:
            print(problem)
        if problems:
            sys.exit(f"validate_sarif.py: {len(problems)} violation(s) of "
                     "GitHub code scanning's limits")
    results = sum(len(run.get("results", [])) for run in log["runs"])
    within = ", within GitHub's limits" if args.github else ""
    print(f"valid SARIF {log['version']}: {len(log['runs'])} run(s), "
          f"{results} result(s){within}")


if __name__ == "__main__":
    main()
