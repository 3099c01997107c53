"""What every kernels/<op>/oracle.py shares: inputs as float64 tensors that record gradients,
autograd's gradients, and parameters as the harness writes them. tools/gen_golden.py puts this
folder on sys.path before it loads the oracles."""
import math

import numpy as np
import torch


def as_double(value):
    """A parameter as the harness writes it: non-finite doubles are strings."""
    if isinstance(value, str):
        return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}[value]
    return float(value)


def tensor(values):
    return torch.from_numpy(np.asarray(values, dtype=np.float64)).requires_grad_(True)


def grads(outputs, wrt, grad_outputs):
    return torch.autograd.grad(outputs, wrt, grad_outputs=grad_outputs, allow_unused=True)


def masked_outputs(names, values, mask):
    """The outputs an output mask selects, by name (LayerNorm's outputMask)."""
    return {name: value for name, value, wanted in zip(names, values, mask) if wanted}
