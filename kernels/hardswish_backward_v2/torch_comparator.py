"""HardswishBackwardV2's comparator for CANN's double benchmark
(tools/torch_comparator_run.py). ATen's hardswish_backward follows the open interval only from
PyTorch 2.7; older releases get the same selection from PyTorch's own elementwise kernels in the
case's dtype (where, mul, add), which is what 2.7's kernel computes."""
import torch

from torch_comparator_support import run_op

OPEN_INTERVAL_SINCE = (2, 7)


def _release():
    return tuple(int(part) for part in torch.__version__.split(".")[:2])


def comparator(p, params):
    grad = p.tensor("gradOutput")
    self = p.tensor("self")
    if _release() >= OPEN_INTERVAL_SINCE:
        return {"out": run_op(torch.ops.aten.hardswish_backward, grad, self)}
    inside = run_op(lambda: grad * (self / 3 + 0.5))
    zero = torch.zeros_like(grad)
    return {"out": run_op(torch.where, self <= -3, zero, run_op(torch.where, self < 3, inside, grad))}
