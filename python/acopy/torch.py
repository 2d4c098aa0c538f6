"""acopy kernels as torch operators (``torch.library`` custom ops).

    import torch, acopy, acopy.torch
    kernel = acopy.compile(source).kernel("attn_bf16_2x256x64")
    attention = acopy.torch.op(kernel, outputs="out", grid=(4, 2))
    out = torch.compile(attention, fullgraph=True)(q, k, v)

``op(kernel, outputs=..., grid=..., block=None, scalars=None,
shared_memory=None, output_shapes=None, name=None)`` registers the custom op
``acopy::<name>`` (default: the kernel's name, made unique) whose arguments
are the kernel's input tensors (every memref argument not named in
``outputs``, in kernel order) and whose result is the outputs (one tensor, or
a tuple in ``outputs`` order), and returns it (a ``torch.library``
``CustomOpDef``: call it like a function; ``torch.ops.acopy.<name>`` is the
same operator).

- The real implementation allocates the outputs (``torch.empty``, from the
  shapes and dtypes the kernel's memref types declare, or ``output_shapes``)
  on the first input's device and launches with ``acopy.Kernel``: on torch's
  current stream of that device, so a launch inside ``torch.cuda.graph`` is
  captured. The kernel must write every element of its outputs.
- The fake implementation (``register_fake``) checks every input's device,
  shape, dtype and strides against the kernel's types (the launch's own checks)
  and returns empty outputs of the declared shapes: ``torch.compile`` and
  ``torch.export`` trace through the op without a graph break, and a bad
  argument is refused while tracing, with the argument named.
- Bad arguments at run time are refused by the launch's checks before
  anything is launched (``TypeError``/``ValueError`` naming the argument);
  a tensor not on a CUDA device, or not laid out as the kernel's type says
  (row-major for an identity layout), is refused, never copied.
"""

from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

from . import _frontend
from ._launch import Kernel

__all__ = ["op"]

_NAMES: set[str] = set()


def _identifier(name: str, i: int) -> str:
    clean = re.sub(r"\W", "_", name)
    return clean if clean and not clean[0].isdigit() and clean not in ("self", "out") else f"arg{i}_{clean}"


def _schema(sig: _frontend.Signature) -> str:
    names = [_identifier(sig.kernel.arg_names[i], i) for i in sig.inputs]
    args = ", ".join(f"Tensor {n}" for n in names)
    results = "Tensor" if len(sig.outputs) == 1 else "(" + ", ".join("Tensor" for _ in sig.outputs) + ")"
    return f"({args}) -> {results}"


def _op_name(kernel: Kernel, name: str | None) -> str:
    base = re.sub(r"\W", "_", name or kernel.name)
    if name is not None and base in _NAMES:
        raise ValueError(f"an acopy op named {base!r} is registered already")
    unique, n = base, 1
    while unique in _NAMES:
        n += 1
        unique = f"{base}_{n}"
    _NAMES.add(unique)
    return unique


def _check_tensor(sig: _frontend.Signature, i: int, tensor: Any) -> None:
    """Device, dtype, shape and strides of one tensor (real or fake) against
    kernel argument ``i``."""
    import torch

    if not isinstance(tensor, torch.Tensor):
        raise TypeError(f"{sig.where(i)}: expected a torch.Tensor, got {type(tensor).__name__}")
    if tensor.device.type != "cuda":
        raise ValueError(f"{sig.where(i)}: expected an array in CUDA device memory, got one on {tensor.device}")
    sig.check(i, tuple(tensor.shape), str(tensor.dtype).removeprefix("torch."), tuple(tensor.stride()))


def op(
    kernel: Kernel,
    *,
    outputs: int | str | Sequence[int | str],
    grid: int | Sequence[int],
    block: int | Sequence[int] | None = None,
    scalars: Mapping[int | str, Any] | None = None,
    shared_memory: int | None = None,
    output_shapes: Mapping[int | str, Sequence[int]] | None = None,
    name: str | None = None,
) -> Any:
    """Registers ``kernel`` as the custom op ``acopy::<name>``; see the module
    docstring."""
    import torch

    sig = _frontend.signature(kernel, outputs, grid, block, scalars, shared_memory, output_shapes)
    dtypes = [getattr(torch, o.dtype) for o in sig.outputs]
    single = len(sig.outputs) == 1

    def empty_outputs(tensors: Sequence[Any]) -> list[Any]:
        device = tensors[0].device if tensors else torch.device("cuda", torch.cuda.current_device())
        return [torch.empty(o.shape, dtype=d, device=device) for o, d in zip(sig.outputs, dtypes)]

    def real(*tensors: Any) -> Any:
        for i, tensor in zip(sig.inputs, tensors):
            _check_tensor(sig, i, tensor)
        outs = empty_outputs(tensors)
        args: list[Any] = [None] * len(kernel.arg_types)
        for i, tensor in zip(sig.inputs, tensors):
            args[i] = tensor
        for o, tensor in zip(sig.outputs, outs):
            args[o.index] = tensor
        for i, value in sig.scalars.items():
            args[i] = value
        kernel(*args, grid=sig.grid, block=sig.block, shared_memory=sig.shared_memory)
        return outs[0] if single else tuple(outs)

    def fake(*tensors: Any) -> Any:
        for i, tensor in zip(sig.inputs, tensors):
            _check_tensor(sig, i, tensor)
        outs = empty_outputs(tensors)
        return outs[0] if single else tuple(outs)

    qualname = f"acopy::{_op_name(kernel, name)}"
    custom = torch.library.custom_op(qualname, real, mutates_args=(), schema=_schema(sig))
    custom.register_fake(fake)
    return custom
