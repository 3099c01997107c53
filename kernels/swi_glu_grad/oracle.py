"""SwiGluGrad's golden oracle (kernels/swi_glu_grad/README.md), loaded by tools/gen_golden.py: y = silu(A) * B with x
split into halves A, B along dim, differentiated by PyTorch autograd in float64."""
import torch
import torch.nn.functional as F

from oracle_support import grads, tensor


def expected(inputs, params, tensors):
    x = tensor(inputs["x"])
    a, b = torch.chunk(x, 2, dim=params["dim"])
    y = F.silu(a) * b
    (dx,) = grads(y, x, torch.from_numpy(inputs["yGrad"]))
    return {"out": dx}
