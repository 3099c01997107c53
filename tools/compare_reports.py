#!/usr/bin/python3
"""Compares two report.json files with what differs between any two runs left out: timings
(`seconds`, `duration_seconds`, `started`, per-stage timings), the command line, the build's git
revision, the aclnn-check path that begins each repro line, the provider library's path and hash
(two build folders give two files), and where the checkout lies in case-file paths.

Two uses, one tool:
- A refactoring that must not change behaviour (docs/house-keeping.md): run the default suite with
  the binary before and after and compare. A change meant to alter a message says so with
  --replace OLD NEW (repeatable): OLD is replaced by NEW in the strings of the report before.
- The same suite on another host (docs/aarch64.md): on ref every value equal; on cpu, with
  --vector-width-sums OP:OUTPUT..., the measurements of the outputs named may differ (their kernels sum
  in an order that follows the vector width) as long as their failure counts do not.
--shard-of-expected compares only the test points the second report holds (a shard of the first).

Prints each difference as its JSON path with both values (at most 50); exit 1 when there is one,
0 when the reports agree, 2 on unreadable input.

Usage: compare_reports.py BEFORE/report.json AFTER/report.json [--replace OLD NEW]...
           [--vector-width-sums OP:OUTPUT...] [--shard-of-expected]
"""
import argparse
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
        value = re.sub(r"^\S*aclnn-check ", "aclnn-check ", value)
        yield path, re.sub(r"'[^' ]*/cases/", "'cases/", value)
    elif path.endswith("/case_file") and isinstance(value, str) and "/cases/" in value:
        yield path, value[value.rfind("/cases/") + 1:]
    elif isinstance(value, str):
        for old, new in replacements:
            value = value.replace(old, new)
        yield path, value
    else:
        yield path, value


def load(path):
    try:
        with open(path, encoding="utf-8") as file:
            return json.load(file)
    except (OSError, ValueError) as error:
        print(f"compare_reports: {path}: not a readable report.json ({error})", file=sys.stderr)
        sys.exit(2)


def points_by_id(report):
    return {point["id"]: point for point in report.get("test_points", [])}


def shard_view(expected, actual):
    """The expected report cut down to the actual report's test points, both in id order."""
    wanted = points_by_id(actual)
    kept = points_by_id(expected)
    ids = sorted(wanted)
    return ({"test_points": [kept.get(i, {"id": i, "missing": True}) for i in ids]},
            {"test_points": [wanted[i] for i in ids]})


def width_allowed(path, before, after, width_sums):
    """True when `path` is a measurement (metrics, worst element, precision figures) of an output
    whose summation order follows the vector width, and that output's failure count is unchanged:
    the measured error may move, which elements fail may not."""
    match = re.match(r"(/test_points/\d+)/outputs/(\d+)/(metrics|worst|precision)/", path)
    if not match or not width_sums:
        return False
    point = match.group(1)
    output = f"{point}/outputs/{match.group(2)}"
    op = before.get(f"{point}/op")
    name = before.get(f"{output}/name")
    failures = f"{output}/metrics/failures"
    return f"{op}:{name}" in width_sums and before.get(failures) == after.get(failures)


def main():
    parser = argparse.ArgumentParser(usage=__doc__.split("Usage: ")[1])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--replace", nargs=2, action="append", default=[], metavar=("OLD", "NEW"))
    parser.add_argument("--vector-width-sums", nargs="*", default=[], metavar="OP:OUTPUT")
    parser.add_argument("--shard-of-expected", action="store_true")
    args = parser.parse_args()
    expected, actual = load(args.before), load(args.after)
    if args.shard_of_expected:
        expected, actual = shard_view(expected, actual)
    before = dict(flatten(expected, "", args.replace))
    after = dict(flatten(actual))
    width_sums = set(args.vector_width_sums)
    differences, allowed = [], 0
    for path in sorted(set(before) | set(after)):
        if before.get(path) == after.get(path):
            continue
        if width_allowed(path, before, after, width_sums):
            allowed += 1
        else:
            differences.append((path, before.get(path), after.get(path)))
    for path, old, new in differences[:50]:
        print(f"{path}: {json.dumps(old)[:100]} -> {json.dumps(new)[:100]}")
    print(f"compare_reports: {len(differences)} differences over {len(after)} values, {allowed} "
          f"measurements of outputs that sum in vector-width order ({args.after})")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
