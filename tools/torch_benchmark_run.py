#!/usr/bin/python3
"""A benchmark implementation for CANN's double benchmark (SPEC 5.1): PyTorch's own kernels in the
case's dtype, run on the harness's inputs, written as a recorded run that `aclnn-check run
--benchmark-run` reads.

    build/bin/aclnn-check golden inputs cases -o /tmp/inputs.h5
    tools/torch_benchmark_run.py /tmp/inputs.h5 /tmp/torch_run.h5        # --device cpu|cuda|auto
    build/bin/aclnn-check run cases --verdict element,double_bm:L2 --benchmark-run /tmp/torch_run.h5

Each point of the inputs file (written by `golden inputs`, or any recorded run that stores inputs)
is computed with ATen's kernels where PyTorch has them (hardswish_backward, logit_backward,
native_layer_norm_backward) and with autograd through PyTorch's forward kernels where it has none
(SwiGluGrad: silu and mul; NsaCompressGrad: gather and einsum), every tensor in the dtype the
harness gives it. Where PyTorch has no kernel for a dtype on the device (PyTorch 1.13 has no CPU
float16 kernel for most of these) or an operator needs one dtype for all its tensors while the
point mixes them (LayerNormBackward with float32 statistics), the point is computed in float32 from
the exact inputs and each output rounded once to its dtype; the point's attribute `benchmark_compute`
says which ("native float16", "float32, rounded to float16 (...)"), the file's root `oracle` says the
PyTorch version and device. The inputs are copied as they are, so the harness can check that the
benchmark ran on its inputs bit for bit.

Runs with Debian's python3-torch, python3-h5py and python3-numpy (hence /usr/bin/python3).
"""
import argparse
import datetime
import json
import os
import sys

import h5py
import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_golden as golden  # noqa: E402  (the file format's helpers: one place for them)

DTYPES = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32,
          "float64": torch.float64}


class NoKernel(Exception):
    """PyTorch has no kernel for these dtypes on this device."""


def run_op(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except (RuntimeError, NotImplementedError) as error:
        message = str(error)
        # Kernels missing for a dtype, dtypes an operator cannot mix, and oneDNN refusing a 16-bit
        # matmul the CPU has no instructions for.
        if any(text in message for text in ("not implemented for", "expected scalar type", "does not have a device",
                                             "could not execute a primitive", "cannot be converted to type")):
            raise NoKernel(message.splitlines()[0]) from error
        raise


class Point:
    """Inputs as tensors in a chosen dtype policy: each tensor's own dtype, or float32 for all."""

    def __init__(self, inputs, tensors, device, compute_dtype=None):
        self.inputs, self.tensors, self.device, self.compute_dtype = inputs, tensors, device, compute_dtype

    def dtype_of(self, name):
        return self.compute_dtype or DTYPES[self.tensors[name]["dtype"]]

    def tensor(self, name, grad=False):
        value = torch.from_numpy(np.asarray(self.inputs[name], dtype=np.float64))
        value = value.to(device=self.device, dtype=self.dtype_of(name))  # exact: the values are of that dtype
        return value.requires_grad_(grad)


def swiglu_grad(p, params):
    x = p.tensor("x", grad=True)
    a, b = torch.chunk(x, 2, dim=params["dim"])
    y = run_op(lambda: F.silu(a) * b)
    (dx,) = run_op(torch.autograd.grad, y, x, grad_outputs=p.tensor("yGrad"))
    return {"out": dx}


def hardswish_backward(p, params):
    return {"out": run_op(torch.ops.aten.hardswish_backward, p.tensor("gradOutput"), p.tensor("self"))}


def logit_grad(p, params):
    eps = golden.as_double(params["eps"])
    # ATen's logit_backward takes no eps (None) for "no clamping", which a negative eps means here;
    # an infinite eps (every x outside [eps, 1 - eps]) cannot be converted to the tensor's dtype, and
    # 1e30 clamps the same elements.
    eps_arg = None if eps < 0 else min(eps, 1e30)
    return {"out": run_op(torch.ops.aten.logit_backward, p.tensor("dy"), p.tensor("x"), eps_arg)}


def layer_norm_backward(p, params):
    normalized = params["normalizedShape"]
    mask = params["outputMask"]
    x = p.tensor("input")
    leading = list(x.shape[: x.dim() - len(normalized)])
    stat_shape = leading + [1] * len(normalized)
    dtypes = {p.dtype_of(name) for name in ("input", "gradOut", "mean", "rstd", "weight", "bias") if name in p.inputs}
    if len(dtypes) > 1:
        raise NoKernel("native_layer_norm_backward needs one dtype for input, statistics and parameters")
    weight = p.tensor("weight") if "weight" in p.inputs else torch.ones(normalized, dtype=x.dtype, device=x.device)
    bias = p.tensor("bias") if "bias" in p.inputs else torch.zeros(normalized, dtype=x.dtype, device=x.device)
    grad_input, grad_weight, grad_bias = run_op(
        torch.ops.aten.native_layer_norm_backward, p.tensor("gradOut"), x, normalized,
        p.tensor("mean").reshape(stat_shape), p.tensor("rstd").reshape(stat_shape), weight, bias, mask)
    outputs = {}
    for name, value, wanted in (("gradInput", grad_input, mask[0]), ("gradWeight", grad_weight, mask[1]),
                                ("gradBias", grad_bias, mask[2])):
        if wanted:
            outputs[name] = value
    return outputs


def nsa_compress_grad(p, params):
    x = p.tensor("input", grad=True)
    w = p.tensor("weight", grad=True)
    ends = params["actSeqLen"] or [x.shape[0]]
    out = run_op(golden.nsa_compress, x, w, ends, params["compressBlockSize"], params["compressStride"])
    dx, dw = run_op(torch.autograd.grad, out, (x, w), grad_outputs=p.tensor("outputGrad"), allow_unused=True)
    return {"inputGrad": dx if dx is not None else torch.zeros_like(x),
            "weightGrad": dw if dw is not None else torch.zeros_like(w)}


BENCHMARKS = {
    "SwiGluGrad": swiglu_grad,
    "HardswishBackward": hardswish_backward,
    "LogitGrad": logit_grad,
    "LayerNormBackward": layer_norm_backward,
    "NsaCompressGrad": nsa_compress_grad,
}


def write_dataset(group, name, values):
    """As gen_golden.write_dataset (chunked, Fletcher-32: the harness reads only checksummed data)
    without its gzip: a benchmark run is a working file, and compressing the default suite's
    outputs takes longer than computing them."""
    values = np.asarray(values, dtype="<f8")
    if values.ndim > 0 and values.size > 0:
        group.create_dataset(name, data=values, chunks=values.shape, fletcher32=True)
    else:
        group.create_dataset(name, data=values)


def compute(op, inputs, params, tensors, device):
    """The outputs in their dtypes as float64 arrays, and how they were computed."""
    output_dtypes = sorted({tensors[name]["dtype"] for name in tensors if tensors[name] and name not in inputs})
    try:
        outputs = BENCHMARKS[op](Point(inputs, tensors, device), params)
        how = "native " + "/".join(output_dtypes)
    except NoKernel as why:
        outputs = BENCHMARKS[op](Point(inputs, tensors, device, torch.float32), params)
        how = f"float32, rounded to {'/'.join(output_dtypes)} ({why})"
    result = {}
    for name, value in outputs.items():
        rounded = value.detach().to(DTYPES[tensors[name]["dtype"]])  # once, to the harness's output dtype
        result[name] = rounded.to(device="cpu", dtype=torch.float64).numpy().reshape(tensors[name]["shape"])
    return result, how


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("inputs", help="file written by `aclnn-check golden inputs` (or a recorded run with inputs)")
    parser.add_argument("output", help="the recorded run to write (.h5)")
    parser.add_argument("--device", choices=("auto", "cpu", "cuda"), default="auto",
                        help="where PyTorch runs (auto: CUDA when a GPU is present)")
    args = parser.parse_args()
    device = "cuda" if args.device == "cuda" or (args.device == "auto" and torch.cuda.is_available()) else "cpu"
    if device == "cuda" and not torch.cuda.is_available():
        sys.exit("torch_benchmark_run.py: --device cuda, but PyTorch sees no GPU")
    torch.use_deterministic_algorithms(True, warn_only=True)

    created = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    counts, fallbacks = 0, 0
    with h5py.File(args.inputs, "r") as source, h5py.File(args.output, "w", libver="latest") as target:
        if "format" not in source.attrs or golden.text(source, "format") != golden.FORMAT:
            sys.exit(f"{args.inputs}: /: attribute format \"{golden.FORMAT}\" expected")
        golden.set_text(target, "format", golden.FORMAT)
        golden.set_text(target, "kind", "recorded")
        golden.set_text(target, "oracle", f"torch {torch.__version__} kernels on {device}, in the case's dtype")
        golden.set_text(target, "oracle_version", str(torch.__version__))
        golden.set_text(target, "generator", "tools/torch_benchmark_run.py")
        golden.set_text(target, "created", created)
        for key in ("harness_version", "git_revision"):
            if key in source.attrs:
                golden.set_text(target, key, golden.text(source, key))
        golden.create_compact_group(target, "points")
        for group_name in sorted(source["points"].keys()):
            point = source["points"][group_name]
            op = golden.text(point, "op")
            params = json.loads(golden.text(point, "params"))
            tensors = json.loads(golden.text(point, "tensors"))
            inputs = {name: np.asarray(point["inputs"][name], dtype=np.float64) for name in point["inputs"]}
            outputs, how = compute(op, inputs, params, tensors, device)
            stored = target["points"].create_group(group_name)
            golden.copy_attributes(point, stored)
            golden.set_text(stored, "benchmark_compute", how)
            written_inputs = stored.create_group("inputs")
            for name, values in inputs.items():
                write_dataset(written_inputs, name, values)
            device_group = stored.create_group("device")
            for name, values in outputs.items():
                write_dataset(device_group, name, values)
            counts += 1
            fallbacks += not how.startswith("native")
    print(f"{args.output}: {counts} test points on torch {torch.__version__} ({device}); "
          f"{fallbacks} computed in float32 and rounded where PyTorch has no kernel for the dtype")


if __name__ == "__main__":
    main()
