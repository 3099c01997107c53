"""HardswishBackward's comparator for CANN's double benchmark
(tools/torch_comparator_run.py): ATen's hardswish_backward kernel."""
import torch

from torch_comparator_support import run_op


def comparator(p, params):
    return {"out": run_op(torch.ops.aten.hardswish_backward, p.tensor("gradOutput"), p.tensor("self"))}
