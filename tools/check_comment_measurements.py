#!/usr/bin/python3
"""Comments say why; measurements and history go in docs/ (CTest test `comment_measurements`).

Fails, naming file and line, on a comment of src/, providers/, tests/support/ or kernels/ that carries a
measurement (a time per element or call, a bandwidth, "N x faster", "N % slower") or history
("as before"), which go stale as the code changes.

Usage: check_comment_measurements.py SOURCE_DIR
"""
import os
import re
import sys

FOLDERS = ("src", "providers", "tests/support", "kernels")
# kernels/cpu holds measurements the SIMD branch moves to docs/; remove once it is merged.
PENDING_FOLDERS = ("kernels/cpu/",)
SUFFIXES = (".cc", ".h", ".cpp", ".cu")
# Files other branches rework; remove once they are merged.
PENDING = {"src/runner/execute.cc"}

COMMENT = re.compile(r"//(.*)$|/\*(.*)|^\s*\*(.*)$")
MEASUREMENT = re.compile(
    r"\b\d+(\.\d+)?(-\d+(\.\d+)?)? ?(ns|µs|us|ms|[GM]i?B/s)\b"
    r"|\b\d+(\.\d+)?(-\d+(\.\d+)?)? ?x (faster|slower)\b"
    r"|\b\d+(\.\d+)?(-\d+(\.\d+)?)? ?% (faster|slower)\b"
    r"|\bas before\b|\bthan before\b")


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    problems = []
    for folder in FOLDERS:
        for directory, _, files in os.walk(os.path.join(root, folder)):
            for name in sorted(files):
                path = os.path.join(directory, name)
                relative = os.path.relpath(path, root)
                if (not name.endswith(SUFFIXES) or relative in PENDING
                        or relative.startswith(PENDING_FOLDERS)):
                    continue
                with open(path, encoding="utf-8") as f:
                    for number, line in enumerate(f, 1):
                        comment = COMMENT.search(line)
                        text = comment and next(g for g in comment.groups() if g is not None)
                        if text and MEASUREMENT.search(text):
                            problems.append(f"{relative}:{number}: a measurement or history in a "
                                            f"comment (put it in docs/, say why here): {line.strip()}")
    print("\n".join(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
