"""LogitGrad's golden oracle (kernels/logit_grad/README.md), loaded by tools/gen_golden.py: PyTorch autograd through
torch.logit in float64, and the CANN document's eps table where it differs from PyTorch."""
import math

import numpy as np
import torch

from oracle_support import as_double, grads, tensor


def expected(inputs, params, tensors):
    x = tensor(inputs["x"])
    eps = as_double(params["eps"])
    # torch.logit treats a negative eps as "no clamping", the same as the CANN document's table.
    (dx,) = grads(torch.logit(x, eps=eps), x, torch.from_numpy(inputs["dy"]))
    return {"out": dx}


def documented(inputs, params):
    """The CANN document's eps table of kernels/logit_grad/README.md written out row by row (first match decides), as
    (value, rule id) per element, to record where PyTorch and the documented rule differ."""
    eps = as_double(params["eps"])
    value = np.empty_like(inputs["x"])
    rule = np.empty(inputs["x"].shape, dtype=object)
    for i, (x, dy) in enumerate(zip(inputs["x"].flat, inputs["dy"].flat)):
        signed_inf = math.copysign(math.inf, dy) if dy != 0 and not math.isnan(dy) else math.nan
        if math.isnan(eps):
            v, r = math.nan, "logit.eps_nan"
        elif eps == math.inf:
            v, r = 0.0, "logit.eps_inf"
        elif eps > 1:
            v, r = math.nan, "logit.eps_gt1"
        elif eps == 1:
            v, r = signed_inf, "logit.eps_eq1"
        elif math.isnan(x) or math.isinf(x):
            v, r = math.nan, "logit.x_nan_inf"
        elif eps < 0 and (x < 0 or x > 1):
            v, r = math.nan, "logit.neg_eps_outside"
        elif eps >= 0 and (x < eps or x > 1 - eps):
            v, r = 0.0, "logit.eps_outside"
        else:
            with np.errstate(all="ignore"):
                v = float(np.float64(dy) / (np.float64(x) * (1 - np.float64(x))))
            r = "logit.x_edge" if x in (0.0, 1.0) else ""
        value.flat[i] = v
        rule.flat[i] = r
    return value, rule
