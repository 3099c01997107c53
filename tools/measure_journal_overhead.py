#!/usr/bin/python3
"""The journal's cost on the default suite's wall time (docs/journal-and-resume.md).

Runs `aclnn-check run cases --provider cpu` in interleaved pairs, one with the journal and one
without (ACLNN_CHECK_MEASURE_WITHOUT_JOURNAL, for measuring only), alternating which of the two
goes first, and prints every run's wall seconds and CPU seconds (user + system of the harness and
its workers), the medians, the spread and the median of the pairs' ratios. On a loaded machine the
CPU seconds vary less than the wall seconds.

Usage: measure_journal_overhead.py [HARNESS] [PAIRS] [EXTRA RUN ARGUMENTS...]
"""
import os
import resource
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
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    result = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode not in (0, 1):
        sys.exit(f"{' '.join(command)} exited {result.returncode}: {result.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, cpu


def main():
    harness = sys.argv[1] if len(sys.argv) > 1 else "build/bin/aclnn-check"
    pairs = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    extra = sys.argv[3:]
    runs = {True: [], False: []}  # journal -> [(wall, cpu)]
    with tempfile.TemporaryDirectory() as folder:
        for pair in range(pairs):
            order = [True, False] if pair % 2 == 0 else [False, True]
            for journal in order:
                runs[journal].append(timed_run(harness, os.path.join(folder, "with" if journal else "without"),
                                               journal, extra))
            (w, wc), (o, oc) = runs[True][-1], runs[False][-1]
            print(f"pair {pair + 1}: with {w:.2f} s ({wc:.2f} s CPU), without {o:.2f} s ({oc:.2f} s CPU)", flush=True)
    for index, figure in ((0, "wall"), (1, "CPU")):
        with_journal = [run[index] for run in runs[True]]
        without = [run[index] for run in runs[False]]
        for name, values in (("with the journal", with_journal), ("without", without)):
            print(f"{figure} {name}: median {statistics.median(values):.2f} s, min {min(values):.2f}, "
                  f"max {max(values):.2f}, all {' '.join(f'{v:.2f}' for v in values)}")
        ratios = [w / o for w, o in zip(with_journal, without)]
        change = statistics.median(with_journal) / statistics.median(without) - 1
        print(f"{figure} medians: {change * 100:+.1f} %; median of the pairs' ratios {statistics.median(ratios):.3f} "
              f"(from {min(ratios):.3f} to {max(ratios):.3f})")


if __name__ == "__main__":
    main()
