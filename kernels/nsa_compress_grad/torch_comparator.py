"""NsaCompressGrad's comparator for CANN's double benchmark
(tools/torch_comparator_run.py): PyTorch has no kernel for it, so autograd through the oracle's
forward (a gather and an einsum) run in the case's dtype, the standard's "small-operator
composition"."""
import importlib.util
import os

import torch

from torch_comparator_support import run_op


def _oracle():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "oracle.py")
    spec = importlib.util.spec_from_file_location("oracle_nsa_compress_grad_forward", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


nsa_compress = _oracle().nsa_compress


def comparator(p, params):
    x = p.tensor("input", grad=True)
    w = p.tensor("weight", grad=True)
    ends = params["actSeqLen"] or [x.shape[0]]
    out = run_op(nsa_compress, x, w, ends, params["compressBlockSize"], params["compressStride"])
    dx, dw = run_op(torch.autograd.grad, out, (x, w), grad_outputs=p.tensor("outputGrad"), allow_unused=True)
    return {"inputGrad": dx if dx is not None else torch.zeros_like(x),
            "weightGrad": dw if dw is not None else torch.zeros_like(w)}
