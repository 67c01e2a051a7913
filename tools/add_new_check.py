#!/usr/bin/env python3
"""Creates a new gpuguard check in one step, and regenerates the lists of
checks.

    tools/add_new_check.py <module>-<name> --description "Flags ..." [--root DIR]
    tools/add_new_check.py --update-lists [--root DIR]

The first writes lib/<module>/<Name>Check.{h,cpp}, registers the check in
lib/<module>/<Module>Module.cpp and lib/CMakeLists.txt (each in sorted
order), and creates its lit test (test/checkers/<module>/<check>.cu for
cuda, .cpp for torch) and its docs page (docs/checks/<module>/<check>.md).
The description is the first paragraph of the docs page, the one source of
the check's summary (see tools/check_catalog.py), and opens the header's
comment. Both forms then regenerate the lists of checks in README.md and
docs/index.md from the docs pages. The generated test fails until the
check's real positives and negatives are written into it.
"""

import argparse
import os
import re
import sys
import textwrap

import check_catalog
from check_catalog import MODULES


def write_new(path, text):
    if os.path.exists(path):
        sys.exit(f"add_new_check.py: {path} exists already")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    print("created " + path)


def edit(path, transform):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    updated = transform(text)
    if updated == text:
        sys.exit(f"add_new_check.py: could not update {path}")
    with open(path, "w", encoding="utf-8") as f:
        f.write(updated)
    print("updated " + path)


def banner(name, check, end):
    """An LLVM file banner of 80 columns; the check's name goes where it fits."""
    text = f"//===--- {name} - {check}"
    if len(text) + 2 + len(end) > 80:
        text = f"//===--- {name}"
    return text + " " + "-" * max(1, 80 - len(text) - 1 - len(end)) + end


def fit(line, broken):
    """`line`, or where it passes 80 columns `broken`, as clang-format does."""
    return line if len(line) <= 80 else broken


def header(module, check, class_name, description):
    guard = f"GPUGUARD_{module.upper()}_{class_name.upper()}_H"
    summary = "\n".join(check_catalog.wrap_comment(description, "/// "))
    return f"""{banner(class_name + ".h", check, "*- C++ -*-===//")}
///
/// \\file
{summary}
///
/// TODO: why it matters, and where in lib/Analysis its reasoning lives.
///
//===----------------------------------------------------------------------===//

#ifndef {guard}
#define {guard}

#include "clang-tidy/ClangTidyCheck.h"

namespace gpuguard::{module} {{

class {class_name} : public clang::tidy::ClangTidyCheck {{
public:
  using ClangTidyCheck::ClangTidyCheck;
  void registerMatchers(clang::ast_matchers::MatchFinder *Finder) override;
  void
  check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
}};

}} // namespace gpuguard::{module}

#endif // {guard}
"""


def source(module, check, class_name):
    matchers = fit(f"void {class_name}::registerMatchers(MatchFinder *Finder) {{",
                   f"void {class_name}::registerMatchers(\n    MatchFinder *Finder) {{")
    check_fn = fit(f"void {class_name}::check(const MatchFinder::MatchResult &Result) {{",
                   f"void {class_name}::check(\n    const MatchFinder::MatchResult &Result) {{")
    return f"""{banner(class_name + ".cpp", check, "-===//")}

#include "{module}/{class_name}.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace gpuguard::{module} {{

{matchers}
  // TODO: match the pattern; shared reasoning belongs in lib/Analysis.
}}

{check_fn}
  // TODO: diag(Loc, "lower-case message with '%0' arguments") << ...;
}}

}} // namespace gpuguard::{module}
"""


def lit_test(module, check):
    return f"""// RUN: %check_gpuguard %s {check} %t -- -- {MODULES[module].mock_flags}

// TODO: positives with their expectations next to them, and every negative
// (idiomatic code that must stay silent) in this same file. This line fails
// the test until then:
// CHECK-MESSAGES: warning: {{{{.*}}}} [{check}]
"""


def doc(module, check, description):
    fence = "```" + MODULES[module].code_fence
    return f"""# {check}

{textwrap.fill(description, width=80, break_long_words=False,
               break_on_hyphens=False)}

## Why it matters

## Example

Flagged:

{fence}
```

Fixed:

{fence}
```

## Evidence policy

Precision: low

What the check must see before it reports, what it leaves to its `Strict`
profile and to the runtime, and its findings per KLOC on real code with
their verdicts (docs/real-code.md). Raise the precision above once they are
measured.

## Options

None.

## Limitations

## Suppressing a finding

Add `// NOLINT({check})` to the line, `// NOLINTNEXTLINE({check})` to the line
before, or disable the check in `.clang-tidy` with `Checks: '-{check}'`.
"""


def insert_sorted(text, entries, key, new_key, new_text, after_all):
    """Inserts `new_text` before the first of `entries` (regex matches) whose
    key sorts after `new_key`, or at `after_all` when none does."""
    for entry in entries:
        if key(entry) > new_key:
            return text[:entry.start()] + new_text + text[entry.start():]
    return text[:after_all] + new_text + text[after_all:]


def register(module, check, class_name):
    def transform(text):
        include = f'#include "{module}/{class_name}.h"\n'
        includes = list(re.finditer(r'^#include "([^"]+)"\n', text, re.M))
        text = insert_sorted(text, includes, lambda m: m.group(1),
                             f"{module}/{class_name}.h", include, includes[-1].end())
        line = fit(f'    Factories.registerCheck<{class_name}>("{check}");',
                   f'    Factories.registerCheck<{class_name}>(\n        "{check}");') + "\n"
        registered = list(re.finditer(
            r'^ *Factories\.registerCheck<\w+>\(\s*"([^"]+)"\);\n', text, re.M))
        start = re.search(r"addCheckFactories\([^)]*\)\s*override\s*\{\n", text)
        return insert_sorted(text, registered, lambda m: m.group(1), check, line,
                             registered[-1].end() if registered else start.end())
    return transform


def add_source(module, class_name):
    def transform(text):
        # gpuguard_add_library(gpuguard<Module>Module <module>
        #   SOURCES
        #     <module>/<File>.cpp ...
        block = re.search(
            rf"gpuguard_add_library\(gpuguard{MODULES[module].prefix}Module "
            rf"{module}\n  SOURCES\n((?:    \S+\n)+)", text)
        entries = list(re.finditer(r"^    (\S+)\n", block.group(1), re.M))
        new = f"{module}/{class_name}.cpp"
        body = insert_sorted(block.group(1), entries, lambda m: m.group(1), new,
                             f"    {new}\n", len(block.group(1)))
        return text[:block.start(1)] + body + text[block.end(1):]
    return transform


def update_lists(root):
    try:
        changed = check_catalog.update_lists(root)
    except ValueError as error:
        sys.exit(f"add_new_check.py: {error}")
    for path in changed:
        print("updated " + path)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("check", nargs="?",
                        help="<module>-<name>, e.g. cuda-div-by-zero")
    parser.add_argument("--description",
                        help="what the check flags, in one sentence")
    parser.add_argument("--update-lists", action="store_true",
                        help="only regenerate the lists of checks from the docs pages")
    parser.add_argument("--root", default=os.path.dirname(
        os.path.dirname(os.path.abspath(__file__))))
    args = parser.parse_args()
    root = args.root

    if args.update_lists:
        if args.check:
            parser.error("--update-lists takes no check name")
        update_lists(root)
        return
    if not args.check:
        parser.error("name the check, or pass --update-lists")
    parts = check_catalog.split_check(args.check)
    if not parts:
        sys.exit("add_new_check.py: the name must be <module>-<kebab-name>, "
                 "with <module> one of " + ", ".join(MODULES))
    description = check_catalog.one_line(args.description or "")
    if not description:
        sys.exit("add_new_check.py: --description must say what the check flags")
    module, check = parts[0], args.check
    class_name = check_catalog.class_name(check)

    write_new(check_catalog.check_header(root, check),
              header(module, check, class_name, description))
    write_new(os.path.join(root, "lib", module, class_name + ".cpp"),
              source(module, check, class_name))
    write_new(os.path.join(root, "test", "checkers", module,
                           check + MODULES[module].test_extension),
              lit_test(module, check))
    write_new(check_catalog.docs_page(root, check), doc(module, check, description))
    edit(os.path.join(root, "lib", module, MODULES[module].prefix + "Module.cpp"),
         register(module, check, class_name))
    edit(os.path.join(root, "lib", "CMakeLists.txt"), add_source(module, class_name))
    update_lists(root)
    print(f"next: write the test, the check and the docs page of {check}")


if __name__ == "__main__":
    main()
