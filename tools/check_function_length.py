#!/usr/bin/python3
"""Lists the harness's functions longer than the limit (CTest test `function_length`).

One phase per function: a function of the harness (src/, providers/, tests/support/) over
LIMIT lines, from the first line of its signature to its closing brace, fails this test, named
with file, line and length. The bundled kernels (kernels/) are not the harness and are not read.
EXCEPTIONS below names the functions that may stay longer, each with its reason.

Usage: check_function_length.py SOURCE_DIR [--limit N]
"""
import os
import re
import sys

LIMIT = 80
FOLDERS = ("src", "providers", "tests/support")
SUFFIXES = (".cc", ".h", ".cpp", ".cu")

# path -> why the file is not read (yet).
EXCLUDED_FILES: dict = {}
# (path, function name) -> why it may stay longer than the limit.
EXCEPTIONS: dict = {}

CONTAINER = re.compile(r"\b(namespace|class|struct|union|enum)\b[^()]*$|extern\s+\"C\"\s*$")
CONTROL = re.compile(r"^\s*(if|for|while|switch|catch|do|else|try)\b")
NAME = re.compile(r"([~\w:]+|operator\s*[^\s(]+)\s*\($")


def strip(text):
    """The text with comments, string and character literals blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            match = re.match(r'R"([^(\s]*)\(', text[i:])
            if not match:
                out.append(c)
                i += 1
                continue
            end = text.find(")" + match.group(1) + '"', i)
            j = n if end < 0 else end + len(match.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and (text[i - 1].isalnum()):  # digit separator 1'000
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (min(j + 1, n) - i))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def function_name(header):
    """The name of a function whose header (text before its `{`) this is, or None."""
    header = " ".join(header.split())
    if not header or CONTROL.match(header) or "(" not in header:
        return None
    # Drop the trailing qualifiers, initialiser lists and return types after the parameter list.
    depth = 0
    for k, ch in enumerate(header):
        if ch == "(":
            if depth == 0:
                before = header[:k + 1]
                match = NAME.search(before)
                if not match or match.group(1) in ("if", "for", "while", "switch", "catch", "return"):
                    return None
                if "=" in header[:k] and "operator" not in header[:k]:
                    return None  # a lambda or an initialiser, part of what holds it
                return match.group(1)
            depth += 1
    return None


def functions(path):
    """(name, first line, last line) of each function defined at namespace or class scope."""
    with open(path, encoding="utf-8") as f:
        text = strip(f.read())
    found = []
    stack = []  # per open brace: "container", "function" or "block"
    header_start = 0
    line = 1
    header_line = 1
    function_start = None
    for k, ch in enumerate(text):
        if ch == "\n":
            line += 1
        if ch in ";{}":
            header = text[header_start:k]
            if ch == "{":
                inside_function = any(kind != "container" for kind in stack)
                if not inside_function and CONTAINER.search(" ".join(header.split())):
                    stack.append("container")
                elif not inside_function and function_name(header):
                    stack.append("function")
                    skipped = header[:len(header) - len(header.lstrip())].count("\n")
                    function_start = (function_name(header), header_line + skipped)
                else:
                    stack.append("block")
            elif ch == "}" and stack:
                kind = stack.pop()
                if kind == "function" and function_start:
                    found.append((function_start[0], function_start[1], line))
                    function_start = None
            header_start = k + 1
            header_line = line
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("--") else "."
    limit = LIMIT
    if "--limit" in sys.argv:
        limit = int(sys.argv[sys.argv.index("--limit") + 1])
    long_functions = []
    for folder in FOLDERS:
        for directory, _, files in os.walk(os.path.join(root, folder)):
            for name in sorted(files):
                if not name.endswith(SUFFIXES):
                    continue
                path = os.path.join(directory, name)
                relative = os.path.relpath(path, root)
                if relative in EXCLUDED_FILES:
                    continue
                for function, first, last in functions(path):
                    length = last - first + 1
                    if length > limit and (relative, function) not in EXCEPTIONS:
                        long_functions.append((relative, first, function, length))
    for relative, first, function, length in sorted(long_functions):
        print(f"{relative}:{first}: {function} has {length} lines (limit {limit})")
    return 1 if long_functions else 0


if __name__ == "__main__":
    sys.exit(main())
