#!/usr/bin/python3
"""Fails when a source file includes a folder of its own layer or of a layer above it.

The layers are the table between the `layers:begin` and `layers:end` markers of
docs/ARCHITECTURE.md (one row per layer: number, folders). A file may include files of its own
folder and of folders in lower-numbered layers. Test sources (`*_test.cc` wherever they are) and
the folders of the top row may include anything. Every source folder must appear in the table, so
a new folder takes a place in the order before it compiles into anything.

An operator folder's parts that other layers compile (the table between `parts:begin` and
`parts:end`: file name, folder it is compiled into) are judged as files of that folder.

Usage: tools/check_layers.py [SOURCE_DIR]   (exit status 1 on a violation, naming file and line)
"""
import os
import re
import sys

SOURCE_SUFFIXES = ('.h', '.hpp', '.cc', '.cpp', '.c', '.cu', '.cuh', '.inc')
SCANNED_ROOTS = ('include', 'src', 'kernels', 'providers', 'bench', 'fuzz', 'tests', 'examples')
# Where the build's include directories point: "x/y.h" is looked up in this order after the
# including file's own folder.
INCLUDE_ROOTS = ('', 'src', 'kernels', 'include', 'tests')
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def read_layers(root):
    path = os.path.join(root, 'docs', 'ARCHITECTURE.md')
    text = open(path, encoding='utf-8').read()
    match = re.search(r'<!-- layers:begin -->(.*?)<!-- layers:end -->', text, re.S)
    if not match:
        sys.exit(f'{path}: expected the layer table between <!-- layers:begin --> and '
                 '<!-- layers:end -->')
    layers = {}  # folder pattern -> layer number
    for line in match.group(1).splitlines():
        cells = [cell.strip() for cell in line.strip().strip('|').split('|')]
        if len(cells) < 2 or not cells[0].isdigit():
            continue
        for folder in re.findall(r'`([^`]+)`', cells[1]):
            if folder in layers:
                sys.exit(f'{path}: folder {folder} is listed in two layers')
            layers[folder.rstrip('/')] = int(cells[0])
    if not layers:
        sys.exit(f'{path}: the layer table has no rows of the form | <number> | `folder` ... |')
    return layers


def read_parts(root, layers):
    """Path of an operator folder's part inside the folder -> the folder whose layer compiles it."""
    path = os.path.join(root, 'docs', 'ARCHITECTURE.md')
    text = open(path, encoding='utf-8').read()
    match = re.search(r'<!-- parts:begin -->(.*?)<!-- parts:end -->', text, re.S)
    parts = {}
    for line in (match.group(1).splitlines() if match else []):
        cells = [cell.strip() for cell in line.strip().strip('|').split('|')]
        if len(cells) < 2:
            continue
        folders = re.findall(r'`([^`]+)`', cells[1])
        if len(folders) != 1:
            continue
        if folders[0] not in layers:
            sys.exit(f'{path}: part table names {folders[0]}, which is not in the layer table')
        for name in re.findall(r'`([^`]+)`', cells[0]):
            parts[name] = folders[0]
    return parts


PARTS = {}


def folder_of(relative, layers):
    """The table's folder holding a path, the most specific match first; None if none does."""
    parts = relative.split('/')
    if len(parts) >= 3 and parts[0] == 'kernels' and '/'.join(parts[2:]) in PARTS:
        return PARTS['/'.join(parts[2:])]
    for depth in range(len(parts) - 1, 0, -1):
        candidate = '/'.join(parts[:depth])
        if candidate in layers:
            return candidate
        wildcard = '/'.join(parts[:depth - 1] + ['*'])
        if wildcard in layers:
            return candidate
    return None


def layer_of(folder, layers):
    if folder in layers:
        return layers[folder]
    return layers['/'.join(folder.split('/')[:-1] + ['*'])]


def resolve(root, including_dir, target):
    for base in (including_dir,) + tuple(os.path.join(root, r) for r in INCLUDE_ROOTS):
        candidate = os.path.normpath(os.path.join(base, target))
        if os.path.isfile(candidate):
            return os.path.relpath(candidate, root)
    return None  # a system or generated header


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), '..'))
    layers = read_layers(root)
    PARTS.update(read_parts(root, layers))
    top = max(layers.values())
    problems = []
    for scanned in SCANNED_ROOTS:
        for directory, _, files in os.walk(os.path.join(root, scanned)):
            for name in sorted(files):
                if not name.endswith(SOURCE_SUFFIXES):
                    continue
                path = os.path.join(directory, name)
                relative = os.path.relpath(path, root)
                folder = folder_of(relative, layers)
                if folder is None:
                    problems.append(f'{relative}: its folder is not in the layer table of '
                                    'docs/ARCHITECTURE.md')
                    continue
                layer = top if name.endswith('_test.cc') else layer_of(folder, layers)
                if layer == top:
                    continue
                for number, line in enumerate(open(path, encoding='utf-8', errors='replace'), 1):
                    match = INCLUDE.match(line)
                    if not match:
                        continue
                    target = resolve(root, directory, match.group(1))
                    if target is None:
                        continue
                    target_folder = folder_of(target, layers)
                    if target_folder is None or target_folder == folder:
                        continue
                    target_layer = layer_of(target_folder, layers)
                    if target_layer >= layer:
                        problems.append(
                            f'{relative}:{number}: includes "{match.group(1)}" of {target_folder} '
                            f'(layer {target_layer}) from {folder} (layer {layer}); a folder may '
                            'include only lower layers (docs/ARCHITECTURE.md, "Layers")')
    for problem in problems:
        print(problem)
    if problems:
        return 1
    print(f'layers: {len(layers)} folders, no include points up or sideways')
    return 0


if __name__ == '__main__':
    sys.exit(main())
