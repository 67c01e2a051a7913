#!/usr/bin/env python3
"""Checks a pre-commit hook definition (.pre-commit-hooks.yaml) and runs a
hook the way pre-commit runs a `language: system` hook, for tests on
machines without pre-commit.

    precommit_hook.py validate HOOKS_YAML
    precommit_hook.py run HOOKS_YAML --id ID [--repo DIR] [--path-prepend DIR]
                      [--echo]

`validate` checks what pre-commit's manifest schema checks: a list of
mappings, each with the required keys (id, name, entry, language), no
unknown key, each value of the right type, a known language, regexes that
compile, and type tags that identify knows.

`run` selects the repository's staged files as pre-commit does (`git diff
--staged`, then `files`/`exclude`, then `types`, `types_or` and
`exclude_types` against each file's identify tags), runs the entry split
with shlex, then `args`, then the files, from the repository's root, and
reports like pre-commit: the hook's output is shown only when it fails.
The exit code is the hook's.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys

import yaml

REQUIRED_KEYS = ("id", "name", "entry", "language")
# pre-commit's MANIFEST_HOOK_DICT: every optional key and its type.
OPTIONAL_KEYS = {
    "alias": str, "files": str, "exclude": str, "types": list,
    "types_or": list, "exclude_types": list, "additional_dependencies": list,
    "args": list, "always_run": bool, "fail_fast": bool,
    "pass_filenames": bool, "description": str, "language_version": str,
    "log_file": str, "minimum_pre_commit_version": str,
    "require_serial": bool, "stages": list, "verbose": bool,
}
LANGUAGES = {
    "conda", "coursier", "dart", "docker", "docker_image", "dotnet", "fail",
    "golang", "haskell", "julia", "lua", "node", "perl", "pygrep", "python",
    "r", "ruby", "rust", "script", "swift", "system", "unsupported",
    "unsupported_script",
}

# identify's tags (identify/extensions.py) for the files a C, C++ or CUDA
# repository holds; pre-commit rejects a tag identify does not know.
EXTENSION_TAGS = {
    "c": {"text", "c"},
    "cc": {"text", "c++"},
    "cpp": {"text", "c++"},
    "cxx": {"text", "c++"},
    "cu": {"text", "cuda"},
    "cuh": {"text", "cuda"},
    "h": {"text", "header", "c", "c++"},
    "hh": {"text", "header", "c++"},
    "hpp": {"text", "header", "c++"},
    "hxx": {"text", "header", "c++"},
    "inl": {"text", "inl", "c++"},
    "ino": {"text", "ino", "c++"},
    "m": {"text", "objective-c"},
    "mm": {"text", "c++", "objective-c++"},
    "cmake": {"text", "cmake"},
    "json": {"text", "json"},
    "md": {"text", "markdown"},
    "py": {"text", "python"},
    "sh": {"text", "shell"},
    "txt": {"text", "plain-text"},
    "yaml": {"text", "yaml"},
    "yml": {"text", "yaml"},
}
NAME_TAGS = {
    "CMakeLists.txt": {"text", "cmake"},
    ".clang-tidy": {"text", "yaml"},
    ".clang-format": {"text", "yaml"},
}
GENERIC_TAGS = {"file", "symlink", "directory", "executable",
                "non-executable", "text", "binary"}
KNOWN_TAGS = GENERIC_TAGS.union(*EXTENSION_TAGS.values(), *NAME_TAGS.values())
# types_or, and the file type filters with it, came in pre-commit 2.9.0.
TYPES_OR_SINCE = (2, 9, 0)


def version_tuple(text):
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])


def hook_problems(hook, where):
    """The reasons pre-commit would reject this hook mapping."""
    if not isinstance(hook, dict):
        return [f"{where}: a hook must be a mapping, not {type(hook).__name__}"]
    problems = []
    where = f"{where} ({hook.get('id', 'no id')})"
    for key in REQUIRED_KEYS:
        if not isinstance(hook.get(key), str) or not hook[key]:
            problems.append(f"{where}: '{key}' is required and must be a string")
    for key, value in hook.items():
        if key in REQUIRED_KEYS:
            continue
        expected = OPTIONAL_KEYS.get(key)
        if expected is None:
            problems.append(f"{where}: unknown key '{key}'")
        elif not isinstance(value, expected):
            problems.append(f"{where}: '{key}' must be a {expected.__name__}")
        elif expected is list and not all(isinstance(v, str) for v in value):
            problems.append(f"{where}: every item of '{key}' must be a string")
    language = hook.get("language")
    if isinstance(language, str) and language not in LANGUAGES:
        problems.append(f"{where}: unknown language '{language}'")
    for key in ("files", "exclude"):
        if isinstance(hook.get(key), str):
            try:
                re.compile(hook[key])
            except re.error as e:
                problems.append(f"{where}: '{key}' is not a regex: {e}")
    for key in ("types", "types_or", "exclude_types"):
        for tag in hook.get(key, []) if isinstance(hook.get(key), list) else []:
            if tag not in KNOWN_TAGS:
                problems.append(f"{where}: '{key}' names '{tag}', a tag "
                                "identify does not give C, C++ or CUDA files")
    if "types_or" in hook:
        minimum = version_tuple(str(hook.get("minimum_pre_commit_version", "0")))
        if minimum < TYPES_OR_SINCE:
            problems.append(f"{where}: 'types_or' needs "
                            "minimum_pre_commit_version: 2.9.0 or later")
    return problems


def load_hooks(path):
    with open(path, encoding="utf-8") as f:
        hooks = yaml.safe_load(f)
    if not isinstance(hooks, list) or not hooks:
        sys.exit(f"{path}: a hooks file is a non-empty list of hooks")
    return hooks


def validate(path):
    hooks = load_hooks(path)
    problems = []
    for index, hook in enumerate(hooks):
        problems += hook_problems(hook, f"{path}: hook {index + 1}")
    ids = [hook.get("id") for hook in hooks if isinstance(hook, dict)]
    for duplicate in sorted({i for i in ids if ids.count(i) > 1}):
        problems.append(f"{path}: hook id '{duplicate}' is defined twice")
    for problem in problems:
        print(problem)
    if problems:
        sys.exit(1)
    for hook in hooks:
        filters = ", ".join(f"{key} [{', '.join(hook[key])}]"
                            for key in ("types", "types_or", "exclude_types")
                            if key in hook)
        print(f"valid hook '{hook['id']}': entry '{hook['entry']}', "
              f"language {hook['language']}, {filters or 'all files'}")


def file_tags(path):
    """identify's tags_from_path for a regular file, from its name."""
    tags = {"file"}
    tags.add("executable" if os.access(path, os.X_OK) else "non-executable")
    name = os.path.basename(path)
    by_name = NAME_TAGS.get(name)
    if by_name is None:
        extension = name.rsplit(".", 1)[1] if "." in name else ""
        by_name = EXTENSION_TAGS.get(extension,
                                     EXTENSION_TAGS.get(extension.lower(), set()))
    tags |= by_name
    if not tags & {"text", "binary"}:
        with open(path, "rb") as f:
            tags.add("binary" if b"\0" in f.read(1024) else "text")
    return tags


def staged_files(repo):
    listed = subprocess.run(
        ["git", "diff", "--staged", "--name-only", "--no-ext-diff", "-z",
         "--diff-filter=ACMRTUXB"],
        cwd=repo, capture_output=True, check=True).stdout.decode()
    return [f for f in listed.split("\0")
            if f and os.path.lexists(os.path.join(repo, f))]


def select_files(hook, repo, files):
    include = re.compile(hook.get("files", ""))
    exclude = re.compile(hook.get("exclude", "^$"))
    types = set(hook.get("types", ["file"]))
    types_or = set(hook.get("types_or", []))
    exclude_types = set(hook.get("exclude_types", []))
    selected = []
    for name in files:
        if not include.search(name) or exclude.search(name):
            continue
        tags = file_tags(os.path.join(repo, name))
        if types <= tags and (not types_or or tags & types_or) and \
                not tags & exclude_types:
            selected.append(name)
    return selected


def run(path, hook_id, repo, path_prepend, echo):
    hooks = [h for h in load_hooks(path) if h.get("id") == hook_id]
    if not hooks:
        sys.exit(f"{path}: no hook with id '{hook_id}'")
    hook = hooks[0]
    repo = os.path.abspath(repo)
    files = select_files(hook, repo, staged_files(repo))
    label = hook["name"].ljust(60, ".")
    if not files and not hook.get("always_run", False):
        print(f"{label}(no files to check)Skipped")
        return 0
    command = shlex.split(hook["entry"]) + list(hook.get("args", []))
    if hook.get("pass_filenames", True):
        command += files
    if echo:
        print("command: " + shlex.join(command))
    environment = dict(os.environ)
    if path_prepend:
        environment["PATH"] = path_prepend + os.pathsep + environment.get("PATH", "")
    try:
        result = subprocess.run(command, cwd=repo, env=environment,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True)
    except FileNotFoundError:
        print(f"{label}Failed\n- hook id: {hook_id}\n- exit code: 1\n\n"
              f"Executable `{command[0]}` not found")
        return 1
    if result.returncode == 0 and not hook.get("verbose", False):
        print(f"{label}Passed")
    else:
        print(f"{label}{'Passed' if result.returncode == 0 else 'Failed'}")
        print(f"- hook id: {hook_id}")
        if result.returncode:
            print(f"- exit code: {result.returncode}")
        print()
        print(result.stdout, end="")
    return result.returncode


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("validate", help="check a hooks file")
    check.add_argument("hooks")
    runner = commands.add_parser("run", help="run a hook on the staged files")
    runner.add_argument("hooks")
    runner.add_argument("--id", required=True, help="the hook to run")
    runner.add_argument("--repo", default=".", help="the git repository")
    runner.add_argument("--path-prepend", default="",
                        help="a directory searched first for the entry")
    runner.add_argument("--echo", action="store_true",
                        help="print the command before running it")
    args = parser.parse_args()
    if args.command == "validate":
        validate(args.hooks)
        return 0
    return run(args.hooks, args.id, args.repo, args.path_prepend, args.echo)


if __name__ == "__main__":
    sys.exit(main())
