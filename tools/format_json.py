#!/usr/bin/env python3
"""Rewrites JSON files in the project's style: two-space indent, arrays of scalars and small
objects of scalars on one line when they fit in 100 columns. Usage: tools/format_json.py FILE..."""
import json
import sys


def render(value, indent=0):
    pad = " " * indent
    inline = json.dumps(value, ensure_ascii=False)
    scalars_only = isinstance(value, (list, dict)) and all(
        not isinstance(v, (list, dict)) or (isinstance(v, list) and all(not isinstance(x, (list, dict)) for x in v))
        for v in (value.values() if isinstance(value, dict) else value))
    if not isinstance(value, (list, dict)) or (scalars_only and len(pad) + len(inline) <= 100):
        return inline
    if isinstance(value, list):
        items = [pad + "  " + render(v, indent + 2) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    items = [pad + "  " + json.dumps(k, ensure_ascii=False) + ": " + render(v, indent + 2) for k, v in value.items()]
    return "{\n" + ",\n".join(items) + "\n" + pad + "}"


for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    with open(path, "w", encoding="utf-8") as f:
        f.write(render(data) + "\n")
