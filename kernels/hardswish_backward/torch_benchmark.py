"""HardswishBackward's benchmark implementation for CANN's double benchmark
(tools/torch_benchmark_run.py): ATen's hardswish_backward kernel."""
import torch

from torch_benchmark_support import run_op


def benchmark(p, params):
    return {"out": run_op(torch.ops.aten.hardswish_backward, p.tensor("gradOutput"), p.tensor("self"))}
