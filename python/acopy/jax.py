"""acopy kernels as JAX functions, through XLA's FFI.

    import jax, acopy, acopy.jax
    kernel = acopy.compile(source).kernel("attn_bf16_2x256x64")
    attention = acopy.jax.function(kernel, outputs="out", grid=(4, 2))
    out = jax.jit(attention)(q, k, v)     # q, k, v: the kernel's other memrefs, in order

``function(kernel, outputs=..., grid=..., block=None, scalars=None,
shared_memory=None, output_shapes=None)`` returns a function of the kernel's
input arrays (every memref argument not named in ``outputs``, in kernel order)
that returns the outputs (one array, or a tuple in ``outputs`` order). It is a
``jax.ffi.ffi_call`` of the custom call ``acopy_launch``, so it works eagerly
and under ``jax.jit``:

- XLA allocates the outputs, from the shapes and dtypes the kernel's memref
  types declare (``output_shapes={name: shape}`` for a type with a dynamic
  size); the inputs are read in place; the kernel must write every element of
  its outputs (XLA does not clear them).
- The launch is XLA's: a Rust handler (``python/src/xla.rs``) that XLA calls
  on its stream checks the buffers against the kernel's types again, encodes
  the tensor maps from them and launches with acopy-runtime. No Python runs
  at execution, and nothing goes through the host.
- Bad arguments are refused before anything runs, with the argument named:
  shape, dtype and layout at trace time (``TypeError``/``ValueError``, the
  messages of ``acopy.Kernel``); an array on a device other than a CUDA GPU
  eagerly at the call (``ValueError``), and under ``jit`` by the handler XLA
  runs on that platform, before any launch (``XlaRuntimeError`` with the same
  message). XLA passes row-major buffers, so a kernel argument whose type has
  other strides is refused at trace time (for an output: by ``function``).
- ``scalars={name: value}`` gives every scalar argument once, at wrap time;
  ``grid``/``block`` are fixed then too (``block`` defaults to the kernel's
  declared block).

The kernel a call launches travels as a registry id in the custom call's
attribute ``acopy_call``: ``function`` registers the kernel, the roles of its
arguments and the launch configuration with the extension once.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

import numpy as np

from . import _frontend, _native
from ._launch import Kernel

__all__ = ["TARGET", "function"]

#: The XLA custom-call target, registered for the CUDA and CPU platforms.
TARGET = "acopy_launch"

_registered = False


def _register() -> None:
    global _registered
    if _registered:
        return
    import jax

    for platform, handler in (("CUDA", "cuda"), ("cpu", "cpu")):
        jax.ffi.register_ffi_target(TARGET, _native.xla_handler(handler), platform=platform)
    _registered = True


def _dtype_name(dtype: Any) -> str:
    return np.dtype(dtype).name


def _check_device(sig: _frontend.Signature, i: int, array: Any) -> None:
    """A concrete jax.Array must live on a CUDA GPU (a tracer's device is
    XLA's to pick: the handler of that platform checks it)."""
    import jax

    if isinstance(array, jax.core.Tracer) or not isinstance(array, jax.Array):
        return
    for device in array.devices():
        if device.platform != "gpu":
            raise ValueError(
                f"{sig.where(i)}: expected an array in CUDA device memory, got one on {device.platform}:{device.id}"
            )


def function(
    kernel: Kernel,
    *,
    outputs: int | str | Sequence[int | str],
    grid: int | Sequence[int],
    block: int | Sequence[int] | None = None,
    scalars: Mapping[int | str, Any] | None = None,
    shared_memory: int | None = None,
    output_shapes: Mapping[int | str, Sequence[int]] | None = None,
) -> Callable[..., Any]:
    """``kernel`` as a function on JAX arrays; see the module docstring."""
    import jax

    sig = _frontend.signature(kernel, outputs, grid, block, scalars, shared_memory, output_shapes)
    call_id = _native.xla_register_call(
        kernel._native,
        list(sig.inputs),
        [o.index for o in sig.outputs],
        sig.scalars,
        sig.grid,
        sig.block,
        shared_memory,
    )
    _register()
    import jax.numpy as jnp

    results = [jax.ShapeDtypeStruct(o.shape, jnp.dtype(o.dtype)) for o in sig.outputs]
    target = jax.ffi.ffi_call(TARGET, results)
    single = len(sig.outputs) == 1

    def call(*arrays: Any) -> Any:
        sig.check_count(len(arrays), "the JAX function")
        for i, array in zip(sig.inputs, arrays):
            shape, dtype = getattr(array, "shape", None), getattr(array, "dtype", None)
            if shape is None or dtype is None:
                raise TypeError(f"{sig.where(i)}: expected a JAX array, got {type(array).__name__}")
            sig.check(i, shape, _dtype_name(dtype))
            _check_device(sig, i, array)
        out = target(*arrays, acopy_call=np.int64(call_id))
        return out[0] if single else tuple(out)

    call.__name__ = kernel.name
    call.__qualname__ = kernel.name
    call.__doc__ = (
        f"acopy kernel `{kernel.name}` ({kernel.chip}) through XLA's FFI: "
        f"inputs {', '.join(kernel.arg_names[i] for i in sig.inputs)}; "
        f"outputs {', '.join(f'{o.name} {o.shape} {o.dtype}' for o in sig.outputs)}"
    )
    return call
