"""LayerNormBackward's golden oracle (kernels/layer_norm_backward/README.md), loaded by tools/gen_golden.py: ATen's own
native_layer_norm_backward in float64."""
import torch

from oracle_support import masked_outputs


def expected(inputs, params, tensors):
    normalized = params["normalizedShape"]
    mask = params["outputMask"]
    x = torch.from_numpy(inputs["input"])
    leading = list(x.shape[: x.dim() - len(normalized)])
    stat_shape = leading + [1] * len(normalized)
    mean = torch.from_numpy(inputs["mean"]).reshape(stat_shape)
    rstd = torch.from_numpy(inputs["rstd"]).reshape(stat_shape)
    # A null weight is a weight of ones (kernels/layer_norm_backward/README.md); ATen gives no gradWeight without one.
    weight = torch.from_numpy(inputs["weight"]) if "weight" in inputs else torch.ones(normalized)
    bias = torch.from_numpy(inputs["bias"]) if "bias" in inputs else None
    grad_input, grad_weight, grad_bias = torch.ops.aten.native_layer_norm_backward(
        torch.from_numpy(inputs["gradOut"]), x, normalized, mean, rstd, weight, bias, mask)
    return masked_outputs(("gradInput", "gradWeight", "gradBias"), (grad_input, grad_weight, grad_bias), mask)
