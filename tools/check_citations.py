#!/usr/bin/python3
"""Every citation in the tree must point at a document in the tree (CTest test `citations`).

The contract lives in docs/contract/ and in each operator folder's README.md. This script fails,
naming file and line, on:
  - a citation of a document outside the repository: "SPEC" (the specification the contract was
    written from), semantics.md, abi.md, the operators' seed texts ("the seed", "seed `aclnn...`");
  - a cited docs/...md or kernels/<op>/README.md path that does not exist;
  - a markdown link to a .md file that does not exist, or to a #section that the file lacks.

Usage: check_citations.py SOURCE_DIR
"""
import os
import re
import sys

TEXT_SUFFIXES = (".md", ".cc", ".h", ".cpp", ".cu", ".cuh", ".py", ".json", ".txt", ".cmake",
                 ".in", ".sh", ".html", ".js", ".yml", ".yaml", ".toml")
SKIPPED_DIRS = {".git", "build", "reports/latest", "fuzz/corpus"}

# Documents other branches add; delete an entry once its branch is merged.
PENDING_DOCS: set = set()  # feature docs written on other branches, until they are merged

OUTSIDE_CITATIONS = [
    (re.compile(r"\bSPEC\b"), "cites SPEC, which is not in the tree: cite docs/contract/ or kernels/<op>/README.md"),
    (re.compile(r"\b(semantics|abi)\.md\b"), "cites a document outside the tree: cite kernels/<op>/README.md or docs/contract/interface.md"),
    (re.compile(r"shared/(seeds|SPEC|STYLE)"), "cites a document outside the tree"),
    (re.compile(r"\bseed\s+`aclnn|\bthe seeds?(?:'s)?\s+(?:documents?|suggests?|says?|formula|eps table|dtype|suggested|table|return|constraints)\b"
                r"|\b(?:then|and) the seed\b|(?:;|SPEC,) seed\b"),
     "cites the seed text, which is not in the tree: cite the operator's CANN document (kernels/<op>/README.md, Sources)"),
]

# The project's documents have lower-case names (docs/x.md, docs/contract/x.md); CANN's own document
# paths (docs/zh/..., docs/aclnnXxx.md, repo:docs/...) are sources outside, not citations of these.
CITED_PATH = re.compile(r"(?<![\w./:-])((?:docs/(?:contract/)?[a-z0-9-]+\.md|kernels/[a-z0-9_]+/README\.md))(#[\w-]+)?")
MARKDOWN_LINK = re.compile(r"\]\(([^)#\s]*\.md)?(#[^)\s]+)?\)")


def slug(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        found = set()
        with open(path, encoding="utf-8") as f:
            for line in f:
                match = re.match(r"#{1,6}\s+(.*)", line)
                if match:
                    found.add(slug(match.group(1)))
        cache[path] = found
    return cache[path]


def text_files(root):
    for directory, subdirs, files in os.walk(root):
        relative_dir = os.path.relpath(directory, root)
        subdirs[:] = [d for d in subdirs
                      if os.path.normpath(os.path.join(relative_dir, d)) not in SKIPPED_DIRS
                      and not d.startswith("build")]
        for name in files:
            if name.endswith(TEXT_SUFFIXES) or name == "CMakeLists.txt":
                yield os.path.normpath(os.path.join(relative_dir, name))


def check_target(root, source, target, anchor, problems, where):
    if target in PENDING_DOCS:
        return
    path = os.path.join(root, target)
    if not os.path.isfile(path):
        problems.append(f"{where}: cites {target}, which does not exist")
    elif anchor and anchor[1:] not in anchors(path):
        problems.append(f"{where}: cites {target}{anchor}, a section {target} does not have")


def check_file(root, relative, problems):
    if relative == "tools/check_citations.py":
        return
    try:
        with open(os.path.join(root, relative), encoding="utf-8") as f:
            lines = f.readlines()
    except UnicodeDecodeError:
        return
    for number, line in enumerate(lines, 1):
        where = f"{relative}:{number}"
        for pattern, message in OUTSIDE_CITATIONS:
            if pattern.search(line):
                problems.append(f"{where}: {message}: {line.strip()[:120]}")
        for match in CITED_PATH.finditer(line):
            check_target(root, relative, match.group(1), match.group(2), problems, where)
        if relative.endswith(".md"):
            for match in MARKDOWN_LINK.finditer(line):
                target, anchor = match.group(1), match.group(2)
                if target is None and anchor is None:
                    continue
                if target is None:
                    target = relative
                elif target.startswith(("http:", "https:")):
                    continue
                else:
                    target = os.path.normpath(os.path.join(os.path.dirname(relative), target))
                check_target(root, relative, target, anchor, problems, where)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    problems = []
    for relative in sorted(text_files(root)):
        check_file(root, relative, problems)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} citation(s) point outside the tree or at nothing", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
