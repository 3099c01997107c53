#!/usr/bin/python3
"""Golden data (docs/contract/golden.md): expected outputs computed by an independent oracle, PyTorch
autograd in float64, on the inputs the harness generates.

    build/bin/aclnn-check golden inputs golden/cases -o /tmp/golden_inputs.h5
    tools/gen_golden.py /tmp/golden_inputs.h5 golden/

reads every test point of the inputs file and writes golden/<op folder>.h5, the outputs computed
by the operator's own oracle, kernels/<op folder>/oracle.py (found by its folder),: the same groups
under /points (attributes id, op, case, dtype, params, tensors; inputs/), plus expected/ (PyTorch's outputs),
and, where a documented rule of kernels/<op>/README.md differs from PyTorch, documented/ (the rule's
value) and rule/ (per element 1 + the index into rule/@rule_ids; 0 where they agree). The root
records the oracle (name and version) and the creation date.

Runs with Debian's python3-torch, python3-h5py and python3-numpy (hence /usr/bin/python3).
"""
import argparse
import ctypes
import ctypes.util
import datetime
import importlib.util
import json
import math
import os
import sys

import h5py
import numpy as np
import torch

FORMAT = "aclnn-check golden 1"
TOOLS = os.path.dirname(os.path.abspath(__file__))
KERNELS = os.path.join(os.path.dirname(TOOLS), "kernels")


class Oracle:
    """kernels/<folder>/oracle.py of one operator: expected(inputs, params, tensors) gives
    PyTorch's outputs by name; documented(inputs, params), where a rule of kernels/<op>/README.md differs
    from PyTorch, gives per element the documented value and the rule id ("" where none applies)."""

    def __init__(self, folder, module):
        self.folder = folder
        self.expected = module.expected
        self.documented = getattr(module, "documented", None)


def load_operator_modules(file_name, required):
    """kernels/<folder>/<file_name> of every operator folder that has one, loaded as a module, by
    the operator name in the folder's operator.json; `required` is the function each must define."""
    sys.path.insert(0, TOOLS)  # they import oracle_support and torch_comparator_support
    modules = {}
    for folder in sorted(os.listdir(KERNELS)):
        path = os.path.join(KERNELS, folder, file_name)
        if not os.path.isfile(path):
            continue
        with open(os.path.join(KERNELS, folder, "operator.json"), encoding="utf-8") as description:
            name = json.load(description)["name"]
        spec = importlib.util.spec_from_file_location(f"{os.path.splitext(file_name)[0]}_{folder}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        if not callable(getattr(module, required, None)):
            sys.exit(f"{path}: {required}(...) missing")
        modules[name] = (folder, module)
    return modules


def load_oracles():
    """Every operator folder with an oracle.py, by the operator name in its operator.json."""
    return {name: Oracle(folder, module)
            for name, (folder, module) in load_operator_modules("oracle.py", "expected").items()}


def same(a, b):
    """Equal as results: NaN with NaN, infinities by sign, finite values within 1e-12 relative."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= 1e-12 * max(abs(a), abs(b))


# The harness reads only files whose metadata HDF5 checksums (libver="latest"), fixed-length
# string attributes (variable-length ones sit in an unchecksummed heap) and datasets with a
# Fletcher-32 checksum, so a damaged file is an error and never a crash (src/golden/hdf5_file.h).
def set_text(obj, key, text):
    obj.attrs[key] = np.bytes_(text.encode("utf-8") or b"\0")


def text(obj, key):
    value = obj.attrs[key]
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _libhdf5():
    """h5py's own HDF5 library (a second copy would not know h5py's identifiers)."""
    for name in ("libhdf5_serial.so.103", "libhdf5.so.103", ctypes.util.find_library("hdf5_serial"),
                 ctypes.util.find_library("hdf5")):
        if name:
            try:
                return ctypes.CDLL(name)
            except OSError:
                continue
    sys.exit("gen_golden.py: cannot load h5py's HDF5 library")


def create_compact_group(parent, name):
    """A group whose links stay in its checksummed object header however many there are. h5py
    does not expose H5Pset_link_phase_change, so it is called on h5py's library through ctypes."""
    gcpl = h5py.h5p.create(h5py.h5p.GROUP_CREATE)
    if _libhdf5().H5Pset_link_phase_change(ctypes.c_int64(gcpl.id), ctypes.c_uint(65535), ctypes.c_uint(65535)) < 0:
        sys.exit("gen_golden.py: H5Pset_link_phase_change failed")
    h5py.h5g.create(parent.id, name.encode(), gcpl=gcpl)
    return parent[name]


def write_dataset(group, name, values, dtype="<f8"):
    values = np.asarray(values, dtype=dtype)
    if values.ndim > 0 and values.size > 0:
        group.create_dataset(name, data=values, chunks=values.shape, compression="gzip",
                             compression_opts=6, shuffle=True, fletcher32=True)
    else:
        group.create_dataset(name, data=values)


def copy_attributes(source, target):
    for key in ("id", "op", "case", "dtype", "params", "tensors"):
        set_text(target, key, text(source, key))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("inputs", help="file written by `aclnn-check golden inputs`")
    parser.add_argument("output_dir", help="where <op folder>.h5 go (golden/)")
    args = parser.parse_args()
    torch.set_default_dtype(torch.float64)

    oracles = load_oracles()
    created = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    outputs = {}
    counts = {}
    with h5py.File(args.inputs, "r") as source:
        if "format" not in source.attrs or text(source, "format") != FORMAT:
            sys.exit(f"{args.inputs}: /: attribute format \"{FORMAT}\" expected")
        for group_name in sorted(source["points"].keys()):
            point = source["points"][group_name]
            op = text(point, "op")
            params = json.loads(text(point, "params"))
            tensors = json.loads(text(point, "tensors"))
            inputs = {name: np.asarray(point["inputs"][name], dtype=np.float64) for name in point["inputs"]}
            if op not in oracles:
                sys.exit(f"{args.inputs}: point {group_name}: operator {op} has no kernels/<folder>/oracle.py")
            oracle = oracles[op]
            if op not in outputs:
                path = os.path.join(args.output_dir, oracle.folder + ".h5")
                target_file = h5py.File(path, "w", libver="latest")
                set_text(target_file, "format", FORMAT)
                set_text(target_file, "kind", "golden")
                set_text(target_file, "oracle", f"torch {torch.__version__} autograd, float64")
                set_text(target_file, "oracle_version", str(torch.__version__))
                set_text(target_file, "generator", "tools/gen_golden.py")
                set_text(target_file, "created", created)
                for key in ("harness_version", "git_revision"):
                    if key in source.attrs:
                        set_text(target_file, key, text(source, key))
                create_compact_group(target_file, "points")
                outputs[op] = target_file
                counts[op] = 0
            target = outputs[op]["points"].create_group(group_name)
            copy_attributes(point, target)
            written_inputs = target.create_group("inputs")
            for name, values in inputs.items():
                write_dataset(written_inputs, name, values)
            expected = {name: value.detach().numpy() for name, value in oracle.expected(inputs, params, tensors).items()}
            expected_group = target.create_group("expected")
            for name, values in expected.items():
                write_dataset(expected_group, name, np.reshape(values, tensors[name]["shape"]))
            if oracle.documented:
                documented, rule = oracle.documented(inputs, params)
                differs = np.array([r != "" and not same(a, b)
                                    for a, b, r in zip(documented.flat, expected["out"].flat, rule.flat)],
                                   dtype=bool).reshape(documented.shape)
                if differs.any():
                    ids = sorted({rule.flat[i] for i in np.flatnonzero(differs)})
                    index = np.zeros(documented.shape, dtype=np.uint8)
                    for i in np.flatnonzero(differs):
                        index.flat[i] = ids.index(rule.flat[i]) + 1
                    # Where they agree the documented value is PyTorch's.
                    documented = np.where(differs, documented, expected["out"])
                    write_dataset(target.create_group("documented"), "out", documented)
                    rule_group = target.create_group("rule")
                    set_text(rule_group, "rule_ids", json.dumps(ids))
                    write_dataset(rule_group, "out", index, dtype=np.uint8)
            counts[op] += 1
    for op, target_file in outputs.items():
        print(f"{target_file.filename}: {counts[op]} test points")
        target_file.close()


if __name__ == "__main__":
    main()
