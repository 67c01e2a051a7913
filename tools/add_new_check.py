#!/usr/bin/env python3
"""Creates a new gpuguard check in one step.

    tools/add_new_check.py cuda-div-by-zero [--root DIR]

writes lib/<module>/<Name>Check.{h,cpp}, registers the check in
lib/<module>/<Module>Module.cpp and lib/CMakeLists.txt, and creates its lit
test (test/checkers/<module>/<check>.cu for cuda, .cpp for torch) and its docs
page (docs/checks/<module>/<check>.md, listed in docs/index.md). Everything is
derived from the check's name. The generated test fails until the check's
real positives and negatives are written into it.
"""

import argparse
import os
import re
import sys

MODULES = {"cuda": ("Cuda", ".cu"), "torch": ("Torch", ".cpp")}


def camel(kebab):
    return "".join(part[:1].upper() + part[1:] for part in kebab.split("-"))


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


def header(module, name, check, class_name):
    guard = f"GPUGUARD_{module.upper()}_{class_name.upper()}_H"
    return f"""//===--- {class_name}.h - {check} ---*- C++ -*-===//
///
/// \\file
/// TODO: one paragraph on what {check} finds and why it matters.
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
  void check(const clang::ast_matchers::MatchFinder::MatchResult &Result) override;
}};

}} // namespace gpuguard::{module}

#endif // {guard}
"""


def source(module, check, class_name):
    return f"""//===--- {class_name}.cpp - {check} ---===//

#include "{module}/{class_name}.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace gpuguard::{module} {{

void {class_name}::registerMatchers(MatchFinder *Finder) {{
  // TODO: match the pattern; shared reasoning belongs in lib/Analysis.
}}

void {class_name}::check(const MatchFinder::MatchResult &Result) {{
  // TODO: diag(Loc, "lower-case message with '%0' arguments") << ...;
}}

}} // namespace gpuguard::{module}
"""


def lit_test(module, check):
    flags = "%cuda_mock_flags" if module == "cuda" else "%torch_mock_flags"
    return f"""// RUN: %check_gpuguard %s {check} %t -- -- {flags}

// TODO: positives with their expectations next to them, and every negative
// (idiomatic code that must stay silent) in this same file. This line fails
// the test until then:
// CHECK-MESSAGES: warning: {{{{.*}}}} [{check}]
"""


def doc(check):
    title = f"# {check}\n"
    return title + """
TODO: one sentence on what the check finds.

## Why it matters

## Example

Flagged:

```cuda
```

Fixed:

```cuda
```

## Options

None.

## Limitations

## Suppressing a finding

Add `// NOLINT(""" + check + """)` to the line, `// NOLINTNEXTLINE(""" + check + """)` to the line
before, or disable the check in `.clang-tidy` with `Checks: '-""" + check + """'`.
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("check", help="<module>-<name>, e.g. cuda-div-by-zero")
    parser.add_argument("--root", default=os.path.dirname(
        os.path.dirname(os.path.abspath(__file__))))
    args = parser.parse_args()

    match = re.fullmatch(r"([a-z]+)-([a-z0-9]+(?:-[a-z0-9]+)*)", args.check)
    if not match or match.group(1) not in MODULES:
        sys.exit("add_new_check.py: the name must be cuda-<kebab-name> or "
                 "torch-<kebab-name>")
    module, name = match.groups()
    check = args.check
    module_class, test_extension = MODULES[module]
    class_name = camel(name) + "Check"
    root = args.root

    write_new(os.path.join(root, "lib", module, class_name + ".h"),
              header(module, name, check, class_name))
    write_new(os.path.join(root, "lib", module, class_name + ".cpp"),
              source(module, check, class_name))
    write_new(os.path.join(root, "test", "checkers", module, check + test_extension),
              lit_test(module, check))
    write_new(os.path.join(root, "docs", "checks", module, check + ".md"), doc(check))

    def register(text):
        include = f'#include "{module}/{class_name}.h"\n'
        includes = re.findall(rf'#include "{module}/\w+Check\.h"\n', text)
        anchor = includes[-1] if includes else '#include "clang-tidy/ClangTidyModule.h"\n'
        text = text.replace(anchor, anchor + include, 1)
        marker = "    // add_new_check.py registers new checks above this line.\n"
        return text.replace(
            marker,
            f'    Factories.registerCheck<{class_name}>("{check}");\n' + marker, 1)

    edit(os.path.join(root, "lib", module, module_class + "Module.cpp"), register)

    def add_source(text):
        block = re.search(rf"add_library\(gpuguard{module_class}Module OBJECT\n(.*?)\)",
                          text, re.S)
        entries = [line for line in block.group(1).splitlines() if line.strip()]
        entries.append(f"  {module}/{class_name}.cpp")
        body = "\n".join(sorted(set(entries))) + "\n"
        return text[:block.start(1)] + body + text[block.end(1):]

    edit(os.path.join(root, "lib", "CMakeLists.txt"), add_source)

    def list_doc(text):
        marker = "<!-- add_new_check.py lists new checks above this line -->"
        return text.replace(
            marker, f"- [`{check}`](checks/{module}/{check}.md): TODO\n" + marker, 1)

    edit(os.path.join(root, "docs", "index.md"), list_doc)
    print(f"next: write the test, the check and the docs page of {check}")


if __name__ == "__main__":
    main()
