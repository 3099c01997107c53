#!/usr/bin/python3
"""A comparator for CANN's double benchmark (docs/contract/numerics.md): PyTorch's own kernels in the
case's dtype, run on the harness's inputs, written as a recorded run that `aclnn-check run
--comparator-run` reads.

    build/bin/aclnn-check golden inputs cases -o /tmp/inputs.h5
    tools/torch_comparator_run.py /tmp/inputs.h5 /tmp/torch_run.h5        # --device cpu|cuda|auto
    build/bin/aclnn-check run cases --verdict element,double_bm:L2 --comparator-run /tmp/torch_run.h5

Each point of the inputs file (written by `golden inputs`, or any recorded run that stores inputs)
is computed by its operator folder's kernels/<folder>/torch_comparator.py (comparator(point, params)
gives the outputs by name; tools/torch_comparator_support.py has what they share): ATen's kernels
where PyTorch has them (hardswish_backward, logit_backward, native_layer_norm_backward) and
autograd or elementwise kernels where it has none (SwiGluGrad: silu and mul; NsaCompressGrad:
gather and einsum; HardswishBackwardV2 before PyTorch 2.7: where, mul, add), every tensor in the
dtype the harness gives it. Points of an operator without that file are left out (the harness
reports their outputs as lacking a comparator). Where PyTorch has no kernel for a dtype on the device (PyTorch 1.13 has no CPU
float16 kernel for most of these) or an operator needs one dtype for all its tensors while the
point mixes them (LayerNormBackward with float32 statistics), the point is computed in float32 from
the exact inputs and each output rounded once to its dtype; the point's attribute `benchmark_compute`
says which ("native float16", "float32, rounded to float16 (...)"), the file's root `oracle` says the
PyTorch version and device. The inputs are copied as they are, so the harness can check that the
comparator ran on its inputs bit for bit.

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

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_golden as golden  # noqa: E402  (the file format's helpers and the folders' loader)
from torch_comparator_support import DTYPES, NoKernel, Point  # noqa: E402


def write_dataset(group, name, values):
    """As gen_golden.write_dataset (chunked, Fletcher-32: the harness reads only checksummed data)
    without its gzip: a comparator run is a working file, and compressing the default suite's
    outputs takes longer than computing them."""
    values = np.asarray(values, dtype="<f8")
    if values.ndim > 0 and values.size > 0:
        group.create_dataset(name, data=values, chunks=values.shape, fletcher32=True)
    else:
        group.create_dataset(name, data=values)


def compute(comparator, inputs, params, tensors, device):
    """The outputs in their dtypes as float64 arrays, and how they were computed."""
    output_dtypes = sorted({tensors[name]["dtype"] for name in tensors if tensors[name] and name not in inputs})
    try:
        outputs = comparator(Point(inputs, tensors, device), params)
        how = "native " + "/".join(output_dtypes)
    except NoKernel as why:
        outputs = comparator(Point(inputs, tensors, device, torch.float32), params)
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
        sys.exit("torch_comparator_run.py: --device cuda, but PyTorch sees no GPU")
    torch.use_deterministic_algorithms(True, warn_only=True)

    created = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    comparators = {name: module.comparator
                  for name, (_, module) in golden.load_operator_modules("torch_comparator.py", "comparator").items()}
    counts, fallbacks, without = 0, 0, {}
    with h5py.File(args.inputs, "r") as source, h5py.File(args.output, "w", libver="latest") as target:
        if "format" not in source.attrs or golden.text(source, "format") != golden.FORMAT:
            sys.exit(f"{args.inputs}: /: attribute format \"{golden.FORMAT}\" expected")
        golden.set_text(target, "format", golden.FORMAT)
        golden.set_text(target, "kind", "recorded")
        golden.set_text(target, "oracle", f"torch {torch.__version__} kernels on {device}, in the case's dtype")
        golden.set_text(target, "oracle_version", str(torch.__version__))
        golden.set_text(target, "generator", "tools/torch_comparator_run.py")
        golden.set_text(target, "created", created)
        for key in ("harness_version", "git_revision"):
            if key in source.attrs:
                golden.set_text(target, key, golden.text(source, key))
        golden.create_compact_group(target, "points")
        for group_name in sorted(source["points"].keys()):
            point = source["points"][group_name]
            op = golden.text(point, "op")
            if op not in comparators:
                # The harness reports these points' outputs as lacking a comparator.
                without[op] = without.get(op, 0) + 1
                continue
            params = json.loads(golden.text(point, "params"))
            tensors = json.loads(golden.text(point, "tensors"))
            inputs = {name: np.asarray(point["inputs"][name], dtype=np.float64) for name in point["inputs"]}
            outputs, how = compute(comparators[op], inputs, params, tensors, device)
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
    for op, count in sorted(without.items()):
        print(f"{args.output}: {count} test points of {op} left out: its folder has no torch_comparator.py")


if __name__ == "__main__":
    main()
