#!/usr/bin/python3
"""Compares two report.json files with what differs between any two runs left out: timings
(`seconds`, `duration_seconds`, `started`, per-stage timings), the command line, the build's git
revision, the aclnn-check path that begins each repro line, and the provider library's path and
hash (two build folders give two files). Prints each remaining difference
as its JSON path with both values; exit 1 when there is one, 0 when the reports agree.

For a refactoring that must not change behaviour: run the default suite with the binary before
and after (same provider, same --jobs) and compare the two reports. A change meant to alter a
message says so with --replace OLD NEW (repeatable): OLD is replaced by NEW in the strings of the
report before, so that only unintended differences remain.

Usage: compare_reports.py BEFORE/report.json AFTER/report.json [--replace OLD NEW]...
"""
import json
import re
import sys

RUN_DEPENDENT = {"command", "duration_seconds", "git_revision", "started", "seconds", "timings",
                 "stage_seconds"}


def flatten(value, path="", replacements=()):
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in RUN_DEPENDENT:
                yield from flatten(item, f"{path}/{key}", replacements)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from flatten(item, f"{path}/{index}", replacements)
    elif re.match(r"/run/provider/libraries/\d+/(path|sha256)$", path):
        return
    elif path.endswith("/repro") and isinstance(value, str):
        yield path, re.sub(r"^\S*aclnn-check ", "aclnn-check ", value)
    elif isinstance(value, str):
        for old, new in replacements:
            value = value.replace(old, new)
        yield path, value
    else:
        yield path, value


def main():
    args = sys.argv[1:]
    replacements = []
    while "--replace" in args:
        at = args.index("--replace")
        if at + 2 >= len(args):
            sys.exit("--replace needs OLD and NEW\n" + __doc__)
        replacements.append((args[at + 1], args[at + 2]))
        del args[at:at + 3]
    if len(args) != 2:
        sys.exit(__doc__)
    before = dict(flatten(json.load(open(args[0], encoding="utf-8")), "", replacements))
    after = dict(flatten(json.load(open(args[1], encoding="utf-8"))))
    differences = [(path, before.get(path), after.get(path)) for path in sorted(set(before) | set(after))
                   if before.get(path) != after.get(path)]
    for path, old, new in differences[:50]:
        print(f"{path}: {json.dumps(old)[:100]} -> {json.dumps(new)[:100]}")
    print(f"{len(differences)} differences over {len(after)} values")
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
