"""HardswishBackwardV2's golden oracle (kernels/hardswish_backward_v2/README.md), loaded by tools/gen_golden.py. PyTorch follows
the open interval in hardswish_backward only from 2.7 (pull request 148049); for older releases
the gradient is written here as torch ops in float64, the way 2.7's kernel selects: 0 where
self <= -3, gradOutput * (self / 3 + 0.5) where self < 3, gradOutput otherwise (NaN self too)."""
import torch


def expected(inputs, params, tensors):
    self = torch.from_numpy(inputs["self"])
    grad = torch.from_numpy(inputs["gradOutput"])
    inside = grad * (self / 3 + 0.5)
    out = torch.where(self <= -3, torch.zeros_like(grad), torch.where(self < 3, inside, grad))
    return {"out": out}
