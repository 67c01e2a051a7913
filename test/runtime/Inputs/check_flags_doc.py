"""Compares the GPUGUARD_OPTIONS table of docs/runtime.md with flags.def.

Usage: check_flags_doc.py FLAGS_DEF RUNTIME_MD

Prints one line per difference (a flag missing from either side, a default
that differs, the order) and exits 1 if there is any.
"""

import re
import sys

ROW = re.compile(r"^GPUGUARD_FLAG\((\w[\w:]*),\s*(\w+),\s*(\w+),\s*([^,]+),",
                 re.MULTILINE)
DOC_ROW = re.compile(r"^\| `(\w+)` \| `([^`]*)` \|", re.MULTILINE)


def documented_default(value):
    value = value.strip()
    return {"false": "0", "true": "1"}.get(value, value.strip('"'))


def main():
    with open(sys.argv[1]) as f:
        flags = [(m.group(2), documented_default(m.group(4)))
                 for m in ROW.finditer(f.read())]
    with open(sys.argv[2]) as f:
        doc = f.read()
    section = doc[doc.index("## GPUGUARD_OPTIONS"):]
    section = section[:section.find("\n## ", 1)]
    documented = [(m.group(1), m.group(2)) for m in DOC_ROW.finditer(section)]
    problems = []
    names = [name for name, _ in flags]
    doc_names = [name for name, _ in documented]
    for name in names:
        if name not in doc_names:
            problems.append(f"flag '{name}' of flags.def is not documented")
    for name in doc_names:
        if name not in names:
            problems.append(f"documented flag '{name}' is not in flags.def")
    defaults = dict(flags)
    for name, default in documented:
        if name in defaults and defaults[name] != default:
            problems.append(f"flag '{name}': documented default '{default}', "
                            f"flags.def has '{defaults[name]}'")
    if not problems and names != doc_names:
        problems.append("the table lists the flags in another order than "
                        "flags.def: " + ", ".join(doc_names))
    for problem in problems:
        print(problem)
    print(f"{len(flags)} flag(s) checked")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
