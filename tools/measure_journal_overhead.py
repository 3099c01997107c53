#!/usr/bin/python3
"""The journal's cost on the default suite's wall time (docs/journal-and-resume.md).

Runs `aclnn-check run cases --provider cpu` in interleaved pairs, one with the journal and one
without (ACLNN_CHECK_MEASURE_WITHOUT_JOURNAL, for measuring only), alternating which of the two
goes first, and prints every run's wall seconds, the medians, the spread and the median of the
pairs' ratios.

Usage: measure_journal_overhead.py [HARNESS] [PAIRS] [EXTRA RUN ARGUMENTS...]
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time


def timed_run(harness, report_dir, journal, extra):
    env = dict(os.environ)
    if not journal:
        env["ACLNN_CHECK_MEASURE_WITHOUT_JOURNAL"] = "1"
    command = [harness, "run", "cases", "--provider", "cpu", "--report-dir", report_dir,
               "--run-history", ""] + extra
    start = time.monotonic()
    result = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.monotonic() - start
    if result.returncode not in (0, 1):
        sys.exit(f"{' '.join(command)} exited {result.returncode}: {result.stderr[-2000:]}")
    return seconds


def main():
    harness = sys.argv[1] if len(sys.argv) > 1 else "build/bin/aclnn-check"
    pairs = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    extra = sys.argv[3:]
    with_journal, without = [], []
    with tempfile.TemporaryDirectory() as folder:
        for pair in range(pairs):
            order = [True, False] if pair % 2 == 0 else [False, True]
            for journal in order:
                seconds = timed_run(harness, os.path.join(folder, "with" if journal else "without"), journal, extra)
                (with_journal if journal else without).append(seconds)
            print(f"pair {pair + 1}: with {with_journal[-1]:.2f} s, without {without[-1]:.2f} s", flush=True)
    ratios = [w / o for w, o in zip(with_journal, without)]
    for name, values in (("with the journal", with_journal), ("without", without)):
        print(f"{name}: median {statistics.median(values):.2f} s, min {min(values):.2f}, max {max(values):.2f}, "
              f"all {' '.join(f'{v:.2f}' for v in values)}")
    change = statistics.median(with_journal) / statistics.median(without) - 1
    print(f"medians: {change * 100:+.1f} %; median of the pairs' ratios {statistics.median(ratios):.3f} "
          f"(from {min(ratios):.3f} to {max(ratios):.3f})")


if __name__ == "__main__":
    main()
