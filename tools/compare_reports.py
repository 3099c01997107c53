#!/usr/bin/env python3
"""Compares two report.json files of the same suite run on different hosts (docs/aarch64.md).

  compare_reports.py EXPECTED ACTUAL --exact
      every test point equal, its timing and the paths of programs aside (the ref provider)
  compare_reports.py EXPECTED ACTUAL --vector-width-sums OP:OUTPUT ...
      verdicts, statuses and rule results equal for every test point; the metrics equal too,
      except those of the outputs named, whose kernels sum in an order that follows the vector
      width (the cpu provider)

--shard-of-expected: ACTUAL ran one shard (--shard) of EXPECTED's run; only its points are compared.

Exits 0 when the reports agree, 1 with one line per difference (at most 20) when they do not,
2 on unreadable input.
"""
import argparse
import json
import sys

# Measured, or naming the program or host: not part of a result.
IGNORED_KEYS = {"seconds", "repro"}
VERDICT_KEYS = ("verdict", "status", "execute_status", "rules", "failures", "accepted_statuses")


def load_points(path):
    try:
        with open(path, encoding="utf-8") as file:
            report = json.load(file)
        return {point["id"]: point for point in report["test_points"]}
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"compare_reports: {path}: not a readable report.json ({error})", file=sys.stderr)
        sys.exit(2)


def without_ignored(value):
    if isinstance(value, dict):
        kept = {k: without_ignored(v) for k, v in value.items() if k not in IGNORED_KEYS}
        if isinstance(kept.get("case_file"), str):  # the checkout's place may differ
            kept["case_file"] = kept["case_file"][kept["case_file"].rfind("/cases/") + 1:]
        return kept
    if isinstance(value, list):
        return [without_ignored(v) for v in value]
    return value


def output_differences(point_id, op, expected, actual, width_sums):
    """Differences in the outputs' metrics, apart from those allowed to follow the vector width."""
    differences, allowed = [], 0
    if len(expected) != len(actual):
        return [f"{point_id}: {len(expected)} outputs, now {len(actual)}"], 0
    for before, after in zip(expected, actual):
        if without_ignored(before) == without_ignored(after):
            continue
        if f"{op}:{before.get('name')}" in width_sums:
            # Only the measured error may move; which rule judged each element may not.
            failures = before.get("metrics", {}).get("failures")
            if failures == after.get("metrics", {}).get("failures"):
                allowed += 1
                continue
        differences.append(f"{point_id}: output {before.get('name')} differs")
    return differences, allowed


def compare(expected, actual, exact, width_sums, shard):
    differences = []
    allowed = 0
    ids = set(actual) if shard else set(expected) | set(actual)
    for point_id in sorted(ids):
        if point_id not in actual or point_id not in expected:
            where = "expected" if point_id in expected else "actual"
            differences.append(f"{point_id}: only in {where}")
            continue
        before, after = without_ignored(expected[point_id]), without_ignored(actual[point_id])
        if exact:
            if before != after:
                keys = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
                differences.append(f"{point_id}: differs in {', '.join(keys)}")
            continue
        for key in VERDICT_KEYS:
            if before.get(key) != after.get(key):
                differences.append(f"{point_id}: {key} {before.get(key)!r} -> {after.get(key)!r}")
        found, width_allowed = output_differences(point_id, before.get("op"),
                                                  before.get("outputs", []),
                                                  after.get("outputs", []), width_sums)
        differences += found
        allowed += width_allowed
    return differences, allowed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("expected")
    parser.add_argument("actual")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--exact", action="store_true")
    mode.add_argument("--vector-width-sums", nargs="*", metavar="OP:OUTPUT")
    parser.add_argument("--shard-of-expected", action="store_true")
    args = parser.parse_args()
    expected, actual = load_points(args.expected), load_points(args.actual)
    width_sums = set(args.vector_width_sums or ())
    differences, allowed = compare(expected, actual, args.exact, width_sums,
                                   args.shard_of_expected)
    for line in differences[:20]:
        print(line)
    verdict = "differ" if differences else "agree"
    compared = len(actual) if args.shard_of_expected else len(expected)
    print(f"compare_reports: {compared} test points {verdict}: {len(differences)} differences, "
          f"{allowed} outputs whose metrics follow the vector width ({args.actual})")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
