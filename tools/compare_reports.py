#!/usr/bin/python3
"""Compares two report.json files with what differs between any two runs left out: timings
(`seconds`, `duration_seconds`, `started`, per-stage timings), the command line, the build's git
revision, the aclnn-check path that begins each repro line, and the provider library's path and
hash (two build folders give two files). Prints each remaining difference
as its JSON path with both values; exit 1 when there is one, 0 when the reports agree.

For a refactoring that must not change behaviour: run the default suite with the binary before
and after (same provider, same --jobs) and compare the two reports.

Usage: compare_reports.py BEFORE/report.json AFTER/report.json
"""
import json
import re
import sys

RUN_DEPENDENT = {"command", "duration_seconds", "git_revision", "started", "seconds", "timings",
                 "stage_seconds"}


def flatten(value, path=""):
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in RUN_DEPENDENT:
                yield from flatten(item, f"{path}/{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from flatten(item, f"{path}/{index}")
    elif re.match(r"/run/provider/libraries/\d+/(path|sha256)$", path):
        return
    elif path.endswith("/repro") and isinstance(value, str):
        yield path, re.sub(r"^\S*aclnn-check ", "aclnn-check ", value)
    else:
        yield path, value


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    before, after = (dict(flatten(json.load(open(name, encoding="utf-8")))) for name in sys.argv[1:])
    differences = [(path, before.get(path), after.get(path)) for path in sorted(set(before) | set(after))
                   if before.get(path) != after.get(path)]
    for path, old, new in differences[:50]:
        print(f"{path}: {json.dumps(old)[:100]} -> {json.dumps(new)[:100]}")
    print(f"{len(differences)} differences over {len(after)} values")
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
