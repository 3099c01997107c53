"""What every operator's torch_comparator.py shares (kernels/<folder>/torch_comparator.py, loaded by
tools/torch_comparator_run.py): the inputs of a point as tensors in a dtype policy, and the
exception that sends a point to the float32 fallback."""
import numpy as np
import torch

DTYPES = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32,
          "float64": torch.float64}


class NoKernel(Exception):
    """PyTorch has no kernel for these dtypes on this device."""


def run_op(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except (RuntimeError, NotImplementedError) as error:
        message = str(error)
        # Kernels missing for a dtype, dtypes an operator cannot mix, and oneDNN refusing a 16-bit
        # matmul the CPU has no instructions for.
        if any(text in message for text in ("not implemented for", "expected scalar type", "does not have a device",
                                             "could not execute a primitive", "cannot be converted to type")):
            raise NoKernel(message.splitlines()[0]) from error
        raise


class Point:
    """Inputs as tensors in a chosen dtype policy: each tensor's own dtype, or float32 for all."""

    def __init__(self, inputs, tensors, device, compute_dtype=None):
        self.inputs, self.tensors, self.device, self.compute_dtype = inputs, tensors, device, compute_dtype

    def dtype_of(self, name):
        return self.compute_dtype or DTYPES[self.tensors[name]["dtype"]]

    def tensor(self, name, grad=False):
        value = torch.from_numpy(np.asarray(self.inputs[name], dtype=np.float64))
        value = value.to(device=self.device, dtype=self.dtype_of(name))  # exact: the values are of that dtype
        return value.requires_grad_(grad)
