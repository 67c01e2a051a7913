#!/usr/bin/env python3
"""Fails unless every registered check has its implementation, lit test and
docs page where its name says, every test and page names a registered check,
and every place that states a check's summary says what its docs page says.

    check_consistency.py --gpuguard BIN --root SRC

A check's summary is the first paragraph of docs/checks/<module>/<check>.md
(tools/check_catalog.py). The header's `\\file` comment must open with it,
the lists of checks in README.md and docs/index.md must be what
`tools/add_new_check.py --update-lists` writes, and the SARIF rules of BIN
must carry it. The modules gpuguard registers and enables by default must be
check_catalog.MODULES.
"""

import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                os.pardir, os.pardir, "tools"))
import check_catalog  # noqa: E402
from check_catalog import MODULES  # noqa: E402


def listed_checks(gpuguard, workdir, *flags):
    listed = subprocess.run([gpuguard, "--list-checks", *flags], cwd=workdir,
                            capture_output=True, text=True, check=True).stdout
    return sorted(line.strip() for line in listed.splitlines()
                  if line.startswith("    "))


def sarif_descriptions(gpuguard, workdir, checks):
    """Each check's SARIF rule description, from a run on an empty file."""
    empty = os.path.join(workdir, "empty.cpp")
    open(empty, "w").close()
    log = subprocess.run([gpuguard, "--format=sarif", "--checks=-*," + ",".join(checks),
                          empty, "--"], cwd=workdir, capture_output=True, text=True,
                         check=True).stdout
    rules = json.loads(log)["runs"][0]["tool"]["driver"]["rules"]
    return {rule["id"]: rule["fullDescription"]["text"] for rule in rules}


def check_files(root, checks):
    problems = []
    for check in checks:
        module = check.split("-")[0]
        if module not in MODULES:
            problems.append(f"{check}: module '{module}' is not in "
                            "tools/check_catalog.py's MODULES")
            continue
        expected = {
            "implementation": os.path.join(root, "lib", module,
                                           check_catalog.class_name(check) + ".cpp"),
            "lit test": os.path.join(root, "test", "checkers", module,
                                     check + MODULES[module].test_extension),
            "docs page": check_catalog.docs_page(root, check),
        }
        # A check of LibTorch's CUDA extensions is tested on a .cu file.
        other_tests = [os.path.join(root, "test", "checkers", module,
                                    check + m.test_extension)
                       for m in MODULES.values()]
        if any(os.path.exists(path) for path in other_tests):
            del expected["lit test"]
        for what, path in expected.items():
            if not os.path.exists(path):
                problems.append(f"{check}: no {what} at {os.path.relpath(path, root)}")
    for path in glob.glob(os.path.join(root, "test", "checkers", "*", "*.*")) + \
            glob.glob(os.path.join(root, "docs", "checks", "*", "*.md")):
        name = os.path.splitext(os.path.basename(path))[0]
        # A check may have more test files, named <check>-<variant>.
        if name not in checks and not any(
                name.startswith(check + "-") and path.startswith(
                    os.path.join(root, "test")) for check in checks):
            problems.append(f"{os.path.relpath(path, root)}: names no registered check")
        elif path.startswith(os.path.join(root, "test")):
            with open(path, encoding="utf-8") as f:
                if "--runner=" in f.read():
                    problems.append(f"{os.path.relpath(path, root)}: chooses a runner; "
                                    "every checker test runs through both")
    return problems


def check_summaries(root, checks, sarif):
    problems = []
    for check in checks:
        page = check_catalog.docs_page(root, check)
        if check.split("-")[0] not in MODULES or not os.path.exists(page):
            continue
        page_name = os.path.relpath(page, root)
        summary = check_catalog.page_summary(page)
        if summary is None:
            problems.append(f"{check}: {page_name} has no paragraph after its title")
            continue
        header = check_catalog.check_header(root, check)
        if os.path.exists(header) and check_catalog.header_summary(header) != summary:
            problems.append(f"{check}: the summary in {os.path.relpath(header, root)} "
                            f"is not the first paragraph of {page_name}")
        if sarif.get(check) != summary.replace("`", ""):
            problems.append(f"{check}: gpuguard's SARIF rule description is not the "
                            f"first paragraph of {page_name}")
    return problems


def check_lists(root, checks):
    problems = []
    for path, (_, entry) in check_catalog.LISTS.items():
        with open(os.path.join(root, path), encoding="utf-8") as f:
            text = f.read()
        region = check_catalog.generated_region(text)
        if region is None:
            problems.append(f"{path}: no generated list of checks")
            continue
        listed = text[region[0]:region[1]]
        if listed == check_catalog.render(root, path):
            continue
        stale = [check for check in checks
                 if os.path.exists(check_catalog.docs_page(root, check)) and
                 entry(check, check_catalog.page_summary(
                     check_catalog.docs_page(root, check))) not in listed]
        for check in stale:
            problems.append(f"{check}: {path} does not list it with the first "
                            "paragraph of its docs page")
        if not stale:
            problems.append(f"{path}: the list of checks is not what "
                            "tools/add_new_check.py --update-lists writes")
    if problems:
        problems.append("run tools/add_new_check.py --update-lists")
    return problems


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gpuguard", required=True)
    parser.add_argument("--root", required=True)
    args = parser.parse_args()
    root = args.root
    with tempfile.TemporaryDirectory() as workdir:
        gpuguard = os.path.abspath(args.gpuguard)
        checks = listed_checks(gpuguard, workdir, "--checks=*")
        enabled = listed_checks(gpuguard, workdir)
        sarif = sarif_descriptions(gpuguard, workdir, checks)
    problems = [f"{check}: gpuguard does not enable it by default"
                for check in checks if check not in enabled]
    modules = {check.split("-")[0] for check in checks}
    problems += [f"module '{module}' of tools/check_catalog.py's MODULES has no "
                 "registered check" for module in MODULES if module not in modules]
    problems += check_files(root, checks)
    problems += check_summaries(root, checks, sarif)
    problems += check_lists(root, checks)
    for problem in problems:
        print(problem)
    if problems:
        sys.exit(1)
    print(f"{len(checks)} checks consistent: implementation, lit test and docs page "
          "each, and one summary in every place")


if __name__ == "__main__":
    main()
