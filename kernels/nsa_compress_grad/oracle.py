"""NsaCompressGrad's golden oracle (kernels/nsa_compress_grad/README.md, README.md beside this file), loaded by
tools/gen_golden.py: the forward written as a gather and an einsum, differentiated by autograd."""
import torch

from oracle_support import grads, tensor


def nsa_compress(input_, weight, ends, block, stride):
    """Forward: out[o_b + i, n, e] = sum_j weight[j, n] * input[s_b + i*stride + j, n, e], windows
    never crossing a sequence."""
    rows, start = [], 0
    for end in ends:
        length = end - start
        windows = 0 if length < block else (length - block) // stride + 1
        for i in range(windows):
            rows.append([start + i * stride + j for j in range(block)])
        start = end
    if not rows:
        return input_.new_zeros((0,) + tuple(input_.shape[1:]))
    index = torch.tensor(rows, dtype=torch.long)          # [C, block]
    gathered = input_[index]                                # [C, block, N, D]
    return torch.einsum("cjnd,jn->cnd", gathered, weight)


def expected(inputs, params, tensors):
    x = tensor(inputs["input"])
    w = tensor(inputs["weight"])
    ends = params["actSeqLen"]
    if ends is None:
        ends = [x.shape[0]]
    out = nsa_compress(x, w, ends, params["compressBlockSize"], params["compressStride"])
    dx, dw = grads(out, (x, w), torch.from_numpy(inputs["outputGrad"]))
    return {"inputGrad": dx if dx is not None else torch.zeros_like(x),
            "weightGrad": dw if dw is not None else torch.zeros_like(w)}
