"""HardswishBackward's golden oracle (kernels/hardswish_backward/README.md), loaded by tools/gen_golden.py: PyTorch autograd
through F.hardswish in float64, and the contract's closed interval where this PyTorch release differs."""
import math

import numpy as np
import torch
import torch.nn.functional as F

from oracle_support import grads, tensor


def expected(inputs, params, tensors):
    s = tensor(inputs["self"])
    (ds,) = grads(F.hardswish(s), s, torch.from_numpy(inputs["gradOutput"]))
    return {"out": ds}


def documented(inputs, params):
    """kernels/hardswish_backward/README.md's closed interval: at exactly -3 the factor is -0.5, at exactly 3 it is 1.5
    (PyTorch releases differ here). Elsewhere the documented value is PyTorch's (NaN: no rule)."""
    value = np.full(inputs["self"].shape, math.nan)
    rule = np.full(inputs["self"].shape, "", dtype=object)
    for i, (g, x) in enumerate(zip(inputs["gradOutput"].flat, inputs["self"].flat)):
        if x == -3:
            value.flat[i], rule.flat[i] = g * -0.5, "hardswish.at_minus3"
        elif x == 3:
            value.flat[i], rule.flat[i] = g * 1.5, "hardswish.at_plus3"
    return value, rule
