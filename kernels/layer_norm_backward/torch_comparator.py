"""LayerNormBackward's comparator for CANN's double benchmark
(tools/torch_comparator_run.py): ATen's native_layer_norm_backward kernel, which needs one dtype for
input, statistics and parameters (a point that mixes them goes to the float32 fallback)."""
import torch

from oracle_support import masked_outputs
from torch_comparator_support import NoKernel, run_op


def comparator(p, params):
    normalized = params["normalizedShape"]
    mask = params["outputMask"]
    x = p.tensor("input")
    leading = list(x.shape[: x.dim() - len(normalized)])
    stat_shape = leading + [1] * len(normalized)
    dtypes = {p.dtype_of(name) for name in ("input", "gradOut", "mean", "rstd", "weight", "bias") if name in p.inputs}
    if len(dtypes) > 1:
        raise NoKernel("native_layer_norm_backward needs one dtype for input, statistics and parameters")
    weight = p.tensor("weight") if "weight" in p.inputs else torch.ones(normalized, dtype=x.dtype, device=x.device)
    bias = p.tensor("bias") if "bias" in p.inputs else torch.zeros(normalized, dtype=x.dtype, device=x.device)
    grad_input, grad_weight, grad_bias = run_op(
        torch.ops.aten.native_layer_norm_backward, p.tensor("gradOut"), x, normalized,
        p.tensor("mean").reshape(stat_shape), p.tensor("rstd").reshape(stat_shape), weight, bias, mask)
    return masked_outputs(("gradInput", "gradWeight", "gradBias"), (grad_input, grad_weight, grad_bias), mask)
