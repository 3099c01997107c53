"""SwiGluGrad's comparator for CANN's double benchmark (tools/torch_comparator_run.py):
PyTorch has no SwiGlu backward kernel, so autograd through its forward kernels (silu, mul), the
standard's "small-operator composition"."""
import torch
import torch.nn.functional as F

from torch_comparator_support import run_op


def comparator(p, params):
    x = p.tensor("x", grad=True)
    a, b = torch.chunk(x, 2, dim=params["dim"])
    y = run_op(lambda: F.silu(a) * b)
    (dx,) = run_op(torch.autograd.grad, y, x, grad_outputs=p.tensor("yGrad"))
    return {"out": dx}
