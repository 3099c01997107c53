#!/usr/bin/python3
"""Golden data (SPEC section 9): expected outputs computed by an independent oracle, PyTorch
autograd in float64, on the inputs the harness generates.

    build/bin/aclnn-check golden inputs golden/cases -o /tmp/golden_inputs.h5
    tools/gen_golden.py /tmp/golden_inputs.h5 golden/

reads every test point of the inputs file and writes golden/<op folder>.h5: the same groups
under /points (attributes id, op, case, dtype, params, tensors; inputs/), plus expected/ (PyTorch's outputs),
and, where a documented rule of SPEC section 4 differs from PyTorch, documented/ (the rule's
value) and rule/ (per element 1 + the index into rule/@rule_ids; 0 where they agree). The root
records the oracle (name and version) and the creation date.

Runs with Debian's python3-torch, python3-h5py and python3-numpy (hence /usr/bin/python3).
"""
import argparse
import ctypes
import ctypes.util
import datetime
import json
import math
import os
import sys

import h5py
import numpy as np
import torch
import torch.nn.functional as F

FORMAT = "aclnn-check golden 1"
FOLDERS = {
    "SwiGluGrad": "swi_glu_grad",
    "HardswishBackward": "hardswish_backward",
    "LogitGrad": "logit_grad",
    "LayerNormBackward": "layer_norm_backward",
    "NsaCompressGrad": "nsa_compress_grad",
}


def as_double(value):
    """A parameter as the harness writes it: non-finite doubles are strings."""
    if isinstance(value, str):
        return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}[value]
    return float(value)


def tensor(values):
    return torch.from_numpy(np.asarray(values, dtype=np.float64)).requires_grad_(True)


def grads(outputs, wrt, grad_outputs):
    return torch.autograd.grad(outputs, wrt, grad_outputs=grad_outputs, allow_unused=True)


# --- SwiGluGrad: y = silu(A) * B with x split into halves A, B along dim (SPEC 4.1) -----------
def swiglu_grad(inputs, params, tensors):
    x = tensor(inputs["x"])
    a, b = torch.chunk(x, 2, dim=params["dim"])
    y = F.silu(a) * b
    (dx,) = grads(y, x, torch.from_numpy(inputs["yGrad"]))
    return {"out": dx}


# --- HardswishBackward (SPEC 4.2) ------------------------------------------------------------
def hardswish_backward(inputs, params, tensors):
    s = tensor(inputs["self"])
    (ds,) = grads(F.hardswish(s), s, torch.from_numpy(inputs["gradOutput"]))
    return {"out": ds}


# --- LogitGrad (SPEC 4.3) --------------------------------------------------------------------
def logit_grad(inputs, params, tensors):
    x = tensor(inputs["x"])
    eps = as_double(params["eps"])
    # torch.logit treats a negative eps as "no clamping", the same as the seed's table.
    (dx,) = grads(torch.logit(x, eps=eps), x, torch.from_numpy(inputs["dy"]))
    return {"out": dx}


def logit_documented(inputs, params):
    """The seed's eps table of SPEC 4.3 written out row by row (first match decides), as
    (value, rule id) per element, to record where PyTorch and the documented rule differ."""
    eps = as_double(params["eps"])
    value = np.empty_like(inputs["x"])
    rule = np.empty(inputs["x"].shape, dtype=object)
    for i, (x, dy) in enumerate(zip(inputs["x"].flat, inputs["dy"].flat)):
        signed_inf = math.copysign(math.inf, dy) if dy != 0 and not math.isnan(dy) else math.nan
        if math.isnan(eps):
            v, r = math.nan, "logit.eps_nan"
        elif eps == math.inf:
            v, r = 0.0, "logit.eps_inf"
        elif eps > 1:
            v, r = math.nan, "logit.eps_gt1"
        elif eps == 1:
            v, r = signed_inf, "logit.eps_eq1"
        elif math.isnan(x) or math.isinf(x):
            v, r = math.nan, "logit.x_nan_inf"
        elif eps < 0 and (x < 0 or x > 1):
            v, r = math.nan, "logit.neg_eps_outside"
        elif eps >= 0 and (x < eps or x > 1 - eps):
            v, r = 0.0, "logit.eps_outside"
        else:
            with np.errstate(all="ignore"):
                v = float(np.float64(dy) / (np.float64(x) * (1 - np.float64(x))))
            r = "logit.x_edge" if x in (0.0, 1.0) else ""
        value.flat[i] = v
        rule.flat[i] = r
    return value, rule


def hardswish_documented(inputs, params):
    """SPEC 4.2's closed interval: at exactly -3 the factor is -0.5, at exactly 3 it is 1.5
    (PyTorch releases differ here). Elsewhere the documented value is PyTorch's (NaN: no rule)."""
    value = np.full(inputs["self"].shape, math.nan)
    rule = np.full(inputs["self"].shape, "", dtype=object)
    for i, (g, x) in enumerate(zip(inputs["gradOutput"].flat, inputs["self"].flat)):
        if x == -3:
            value.flat[i], rule.flat[i] = g * -0.5, "hardswish.at_minus3"
        elif x == 3:
            value.flat[i], rule.flat[i] = g * 1.5, "hardswish.at_plus3"
    return value, rule


# --- LayerNormBackward (SPEC 4.4), through ATen's own backward ------------------------------
def layer_norm_backward(inputs, params, tensors):
    normalized = params["normalizedShape"]
    mask = params["outputMask"]
    x = torch.from_numpy(inputs["input"])
    leading = list(x.shape[: x.dim() - len(normalized)])
    stat_shape = leading + [1] * len(normalized)
    mean = torch.from_numpy(inputs["mean"]).reshape(stat_shape)
    rstd = torch.from_numpy(inputs["rstd"]).reshape(stat_shape)
    # A null weight is a weight of ones (SPEC 4.4); ATen gives no gradWeight without one.
    weight = torch.from_numpy(inputs["weight"]) if "weight" in inputs else torch.ones(normalized)
    bias = torch.from_numpy(inputs["bias"]) if "bias" in inputs else None
    grad_input, grad_weight, grad_bias = torch.ops.aten.native_layer_norm_backward(
        torch.from_numpy(inputs["gradOut"]), x, normalized, mean, rstd, weight, bias, mask)
    outputs = {}
    for name, value, wanted in (("gradInput", grad_input, mask[0]), ("gradWeight", grad_weight, mask[1]),
                                ("gradBias", grad_bias, mask[2])):
        if wanted:
            outputs[name] = value
    return outputs


# --- NsaCompressGrad (SPEC 4.5, kernels/nsa_compress_grad/README.md) -------------------------
def nsa_compress(input_, weight, ends, block, stride):
    """Forward: out[o_b + i, n, e] = sum_j weight[j, n] * input[s_b + i*stride + j, n, e], windows
    never crossing a sequence."""
    rows, start = [], 0
    for end in ends:
        length = end - start
        windows = 0 if length < block else (length - block) // stride + 1
        for i in range(windows):
            rows.append([start + i * stride + j for j in range(block)])
        start = end
    if not rows:
        return input_.new_zeros((0,) + tuple(input_.shape[1:]))
    index = torch.tensor(rows, dtype=torch.long)          # [C, block]
    gathered = input_[index]                                # [C, block, N, D]
    return torch.einsum("cjnd,jn->cnd", gathered, weight)


def nsa_compress_grad(inputs, params, tensors):
    x = tensor(inputs["input"])
    w = tensor(inputs["weight"])
    ends = params["actSeqLen"]
    if ends is None:
        ends = [x.shape[0]]
    out = nsa_compress(x, w, ends, params["compressBlockSize"], params["compressStride"])
    dx, dw = grads(out, (x, w), torch.from_numpy(inputs["outputGrad"]))
    return {"inputGrad": dx if dx is not None else torch.zeros_like(x),
            "weightGrad": dw if dw is not None else torch.zeros_like(w)}


ORACLES = {
    "SwiGluGrad": swiglu_grad,
    "HardswishBackward": hardswish_backward,
    "LogitGrad": logit_grad,
    "LayerNormBackward": layer_norm_backward,
    "NsaCompressGrad": nsa_compress_grad,
}


# Operators whose documented rules (SPEC 4) differ from PyTorch somewhere: per element, the
# documented value and the rule id ("" where no such rule applies).
DOCUMENTED = {"LogitGrad": logit_documented, "HardswishBackward": hardswish_documented}


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
            if op not in outputs:
                path = os.path.join(args.output_dir, FOLDERS[op] + ".h5")
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
            expected = {name: value.detach().numpy() for name, value in ORACLES[op](inputs, params, tensors).items()}
            expected_group = target.create_group("expected")
            for name, values in expected.items():
                write_dataset(expected_group, name, np.reshape(values, tensors[name]["shape"]))
            if op in DOCUMENTED:
                documented, rule = DOCUMENTED[op](inputs, params)
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
