#!/usr/bin/env python3
"""GPU peers for the cuda provider, and the table that compares them (PyTorch on a CUDA device).

  tools/gpu_peers.py time -o peers.json [--reps 50]   time PyTorch's CUDA kernels and a device copy
  tools/gpu_peers.py table peers.json aclnn.json      print the table (aclnn.json: the output of
                                                      `aclnn-check bench bench/cases_gpu --provider cuda`)

Shapes are those of bench/cases_gpu. Each PyTorch peer is timed as aclnn-check bench times a
provider: a host clock around one call and a synchronize (the median of --reps calls after
warm-up, inputs drawn like the case files, never zeros); the
device copy of a 2 GiB buffer is the bandwidth roof, its bytes read plus written. Benchmarks are
named <Op>/<dtype>/<impl>/device:cuda and carry bytes_per_second (the operator's minimum traffic,
the same count aclnn-check bench uses), so the providers' rows and the peers' share one scale.
Peers:
  torch       aten.hardswish_backward, aten.logit_backward, aten.native_layer_norm_backward
  autograd    SwiGluGrad: the backward pass of silu(A) * B (only the backward is timed)
  compiled    SwiGluGrad: the explicit formula under torch.compile
"""
import argparse
import json
import statistics
import sys
import time

from bench_table import load  # beside this script: one reader of Google Benchmark JSON

SWIGLU_SHAPE = (16384, 8192)
ELEMENTWISE = 64 * 1024 * 1024
LAYER_NORM_SHAPES = ((16384, 8192), (262144, 512))
NSA = dict(tokens=65536, heads=32, head_dim=128, block_size=32, stride=16)
DTYPES = ("float32", "float16", "bfloat16")


def time_ms(torch, fn, reps):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        # As aclnn-check bench times a provider: a host clock around the call and a synchronize,
        # so the launch and the wait count for both sides of every ratio.
        start = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def entry(name, ms, nbytes, reps):
    return {
        "name": name, "run_name": name, "run_type": "iteration", "repetitions": 1,
        "iterations": reps, "real_time": ms, "cpu_time": ms, "time_unit": "ms",
        "bytes_per_second": nbytes / (ms * 1e-3),
    }


def time_peers(args):
    import torch
    import torch.nn.functional as F

    aten = torch.ops.aten
    dev = "cuda"
    out = []
    reps = args.reps

    def add(op, dtype, impl, fn, nbytes):
        ms = time_ms(torch, fn, reps)
        out.append(entry(f"{op}/{dtype}/{impl}/device:cuda", ms, nbytes, reps))
        print(f"{op}/{dtype}/{impl}: {ms:.4f} ms, {nbytes / ms / 1e6:.0f} GB/s", flush=True)

    copy_src = torch.rand(512 * 1024 * 1024, device=dev)  # 2 GiB
    copy_dst = torch.empty_like(copy_src)
    add("Copy", "float32", "copy", lambda: copy_dst.copy_(copy_src), 2 * copy_src.numel() * 4)
    del copy_src, copy_dst

    for name in DTYPES:
        dtype = getattr(torch, name)
        size = torch.tensor([], dtype=dtype).element_size()
        g = torch.randn(ELEMENTWISE, device=dev, dtype=dtype)
        x = (torch.rand(ELEMENTWISE, device=dev) * 8 - 4).to(dtype)
        add("HardswishBackward", name, "torch", lambda: aten.hardswish_backward(g, x),
            3 * ELEMENTWISE * size)
        x = (torch.rand(ELEMENTWISE, device=dev) * 1.1 - 0.05).to(dtype)
        add("LogitGrad", name, "torch", lambda: aten.logit_backward(g, x, 1e-6),
            3 * ELEMENTWISE * size)
        del g, x

        rows, cols = SWIGLU_SHAPE
        xs = (torch.rand(rows, cols, device=dev) * 16 - 8).to(dtype)
        yg = torch.randn(rows, cols // 2, device=dev, dtype=dtype)
        a, b = xs.chunk(2, dim=-1)
        a = a.detach().requires_grad_()
        b = b.detach().requires_grad_()
        y = F.silu(a) * b
        swiglu_bytes = (2 * xs.numel() + yg.numel()) * size
        add("SwiGluGrad", name, "autograd",
            lambda: torch.autograd.grad(y, (a, b), yg, retain_graph=True), swiglu_bytes)
        del y, a, b

        def formula(grad, x):
            a, b = x.chunk(2, dim=-1)
            af = a.float()
            s = torch.sigmoid(af)
            da = grad.float() * b.float() * s * (1 + af * (1 - s))
            db = grad.float() * af * s
            return torch.cat((da.to(x.dtype), db.to(x.dtype)), dim=-1)

        compiled = torch.compile(formula)
        add("SwiGluGrad", name, "compiled", lambda: compiled(yg, xs), swiglu_bytes)
        del xs, yg

        for rows, cols in LAYER_NORM_SHAPES:
            x = torch.randn(rows, cols, device=dev, dtype=dtype)
            go = torch.randn(rows, cols, device=dev, dtype=dtype)
            w = torch.randn(cols, device=dev, dtype=dtype)
            bias = torch.randn(cols, device=dev, dtype=dtype)
            xf = x.float()
            mean = xf.mean(dim=1, keepdim=True)
            rstd = torch.rsqrt(xf.var(dim=1, unbiased=False, keepdim=True) + 1e-5)
            # gradOut, input, gradInput at the dtype; mean, rstd float32; weight, gradWeight,
            # gradBias at the dtype (the case files' default stat and param dtypes).
            nbytes = 3 * rows * cols * size + 2 * rows * 4 + 3 * cols * size
            add(f"LayerNormBackward_{rows}x{cols}", name, "torch",
                lambda: aten.native_layer_norm_backward(go, x, [cols], mean, rstd, w, bias,
                                                        [True, True, True]), nbytes)
            del x, go, w, bias, xf, mean, rstd
        torch.cuda.empty_cache()

    with open(args.output, "w", encoding="utf-8") as f:
        json.dump({"context": {"device": torch.cuda.get_device_name(), "torch": torch.__version__},
                   "benchmarks": out}, f, indent=1)
        f.write("\n")


def rates(outputs):
    """{(workload, dtype, impl): median bytes_per_second} over every file's iteration rows."""
    samples = {}
    for output in outputs:
        for run in output["benchmarks"]:
            if run.get("run_type", "iteration") != "iteration" or "bytes_per_second" not in run:
                continue
            parts = run["name"].split("/")
            if len(parts) >= 4 and parts[3] == "device:cuda":
                key = tuple(parts[:3])
            else:
                # aclnn-check bench names a point <case name>/<dtype>/...: the cuda provider's row.
                dtype = parts[1].removeprefix("dtype=") if len(parts) > 1 else "?"
                key = (parts[0], dtype, "aclnn")
            samples.setdefault(key, []).append(run["bytes_per_second"])
    return {key: statistics.median(values) for key, values in samples.items()}


def table(args):
    rate = rates([load(path) for path in args.files])
    roof = rate.get(("Copy", "float32", "copy"))
    if not roof:
        sys.exit("no Copy/float32/copy/device:cuda row: run `tools/gpu_peers.py time` first")
    peers = sorted({impl for (_, _, impl) in rate if impl not in ("aclnn", "copy")})
    print(f"device copy roof: {roof / 1e9:.0f} GB/s")
    header = ["operator", "dtype", "GB/s", "% roof"] + [f"x {p}" for p in peers]
    print(" | ".join(header))
    print(" | ".join("---" for _ in header))
    for (workload, dtype, impl), value in sorted(rate.items()):
        if impl != "aclnn":
            continue
        row = [workload, dtype, f"{value / 1e9:.0f}", f"{100 * value / roof:.0f}"]
        for peer in peers:
            other = rate.get((workload, dtype, peer))
            row.append(f"{value / other:.2f}" if other else "-")
        print(" | ".join(row))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    timing = sub.add_parser("time")
    timing.add_argument("-o", "--output", required=True)
    timing.add_argument("--reps", type=int, default=50)
    tab = sub.add_parser("table")
    tab.add_argument("files", nargs="+")
    args = parser.parse_args()
    if args.command == "time":
        time_peers(args)
    else:
        table(args)


if __name__ == "__main__":
    main()
