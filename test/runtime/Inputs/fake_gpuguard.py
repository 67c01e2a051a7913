"""Stands in for `gpuguard instrument` in the CMake tests: checks its command
line, logs it, and writes each copy with a site table and one failing check
(so that running the twin shows the copy was compiled and linked with the
runtime)."""
import json
import os
import sys
import zlib


def main(argv):
    if not argv or argv[0] != "instrument":
        sys.exit("fake gpuguard: expected the instrument subcommand")
    args = argv[1:]
    build = out = mode = None
    files = []
    while args:
        arg = args.pop(0)
        if arg == "-p":
            build = args.pop(0)
        elif arg == "-o":
            out = args.pop(0)
        elif arg.startswith("--instrument="):
            mode = arg.split("=", 1)[1]
        else:
            files.append(arg)
    database = os.path.join(build, "compile_commands.json")
    with open(database) as handle:
        listed = {os.path.realpath(entry["file"]) for entry in json.load(handle)}
    with open(os.path.join(build, "gpuguard-calls.log"), "a") as log:
        for path in files:
            if not os.path.isabs(path):
                sys.exit(f"fake gpuguard: {path} is not absolute")
            if os.path.realpath(path) not in listed:
                sys.exit(f"fake gpuguard: {path} is not in {database}")
            log.write(f"instrument --instrument={mode} {path}\n")
            copy = os.path.join(out, path.lstrip("/"))
            os.makedirs(os.path.dirname(copy), exist_ok=True)
            key = zlib.crc32(path.encode()) or 1
            with open(path) as source, open(copy, "w") as target:
                target.write(
                    "#include <gpuguard/rt.h>\n"
                    "static const ::gpuguard::rt::SiteInfo gpuguard_sites_[] = {\n"
                    f'    {{"{path}", 1, 1, "(copy)", "fake-check", 3, -1, "{mode}"}}}};\n'
                    "static const ::gpuguard::rt::SiteTableRegistrar "
                    f"gpuguard_registrar_({key}ULL, gpuguard_sites_, 1, "
                    "GPUGUARD_SITE_TABLE_ABI_VERSION);\n"
                    "static const int gpuguard_probe_ = "
                    f"::gpuguard::rt::checkDivisor(0, ::gpuguard::rt::SiteRef{{{key}ULL, 0}});\n"
                    f'#line 1 "{path}"\n')
                target.write(source.read())


if __name__ == "__main__":
    main(sys.argv[1:])
