"""LogitGrad's comparator for CANN's double benchmark (tools/torch_comparator_run.py):
ATen's logit_backward kernel."""
import torch

from oracle_support import as_double
from torch_comparator_support import run_op


def comparator(p, params):
    eps = as_double(params["eps"])
    # ATen's logit_backward takes no eps (None) for "no clamping", which a negative eps means here;
    # an infinite eps (every x outside [eps, 1 - eps]) cannot be converted to the tensor's dtype, and
    # 1e30 clamps the same elements.
    eps_arg = None if eps < 0 else min(eps, 1e30)
    return {"out": run_op(torch.ops.aten.logit_backward, p.tensor("dy"), p.tensor("x"), eps_arg)}
