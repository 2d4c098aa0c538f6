"""Launching compiled kernels: ``Compiled.kernel(name)`` gives a ``Kernel``.

This file only reads arrays through their protocols (DLPack, the CUDA array
interface, or a torch tensor's own accessors) into plain tuples and picks the
stream; the checks against the kernel's signature and manifest, the tensor maps
and the launch itself are ``acopy._native.Kernel`` (Rust, on acopy-runtime).
"""

from __future__ import annotations

import re
import sys
from typing import Any, Sequence

from . import _native

#: DLPack's (type code, bits) for each torch dtype acopy can take; built on
#: first use, so that torch is never imported by acopy itself.
_TORCH_DTYPES: dict[Any, tuple[int, int]] | None = None

#: The CUDA array interface's type characters, as DLPack type codes.
_TYPESTR_CODES = {"i": 0, "u": 1, "f": 2, "b": 6}

_DL_CPU = 1
_DL_CUDA = 2


class CudaError(RuntimeError):
    """The CUDA driver failed, or there is none.

    Raised by a launch (loading the PTX, encoding a tensor map, the launch
    itself) and by ``acopy.synchronize`` (a fault of an earlier launch).
    ``str()`` names the driver call and gives the driver's error name and
    text, e.g. ``launching `k`: cuLaunchKernelEx failed:
    CUDA_ERROR_INVALID_VALUE: invalid argument``. Without an NVIDIA driver the
    message starts with ``no CUDA driver:``.
    """

    #: The driver's error name, e.g. ``"CUDA_ERROR_INVALID_VALUE"``
    #: (``None`` when the error is not a driver status: no driver, a JIT log).
    name: str | None
    #: The driver's ``CUresult`` value (``None`` as for ``name``).
    code: int | None
    #: The driver function that failed, e.g. ``"cuLaunchKernelEx"``.
    call: str | None

    def __init__(
        self,
        message: str,
        name: str | None = None,
        code: int | None = None,
        call: str | None = None,
    ):
        super().__init__(message)
        self.name = name
        self.code = code
        self.call = call


def synchronize(device: int = 0) -> None:
    """Wait for all work on CUDA device ``device``; a fault of an earlier
    launch (an illegal address, a trap) is raised as ``CudaError``."""
    _native.synchronize(device)


def _torch_dtypes() -> dict[Any, tuple[int, int]]:
    global _TORCH_DTYPES
    if _TORCH_DTYPES is None:
        torch = sys.modules["torch"]
        names = {
            "float16": (2, 16), "bfloat16": (4, 16), "float32": (2, 32),
            "float64": (2, 64), "int8": (0, 8), "uint8": (1, 8),
            "int16": (0, 16), "uint16": (1, 16), "int32": (0, 32),
            "uint32": (1, 32), "int64": (0, 64), "uint64": (1, 64),
            "bool": (6, 8), "float8_e4m3fn": (10, 8), "float8_e5m2": (12, 8),
        }
        _TORCH_DTYPES = {getattr(torch, n): c for n, c in names.items() if hasattr(torch, n)}
    return _TORCH_DTYPES


def _stream_handle(stream: Any) -> int:
    """A CUstream handle from an int, a torch or CuPy stream, or any object
    with ``__cuda_stream__`` (the CUDA stream protocol)."""
    if isinstance(stream, int) and not isinstance(stream, bool):
        return stream
    protocol = getattr(stream, "__cuda_stream__", None)
    if protocol is not None:
        return int(protocol()[1])
    for attribute in ("cuda_stream", "ptr"):
        handle = getattr(stream, attribute, None)
        if isinstance(handle, int):
            return handle
    raise TypeError(
        "stream= must be a CUstream handle (int), a torch.cuda.Stream, a cupy "
        f"Stream or an object with __cuda_stream__, not {type(stream).__name__}"
    )


def _dims(value: Any, what: str) -> tuple[int, int, int]:
    if isinstance(value, int) and not isinstance(value, bool):
        value = (value,)
    if (
        not isinstance(value, (tuple, list))
        or not 1 <= len(value) <= 3
        or not all(isinstance(d, int) and not isinstance(d, bool) for d in value)
    ):
        raise TypeError(f"{what}= must be an int or a tuple of 1 to 3 ints, not {value!r}")
    if any(d < 1 or d >= 2**32 for d in value):
        raise ValueError(f"{what}={value!r}: every dimension must be in 1..2**32-1")
    return tuple(value) + (1,) * (3 - len(value))


def _arg_names(source: str, kernel: str, count: int) -> list[str]:
    """The ``%names`` of the kernel's arguments, as the source spells them
    (MLIR keeps no names); empty when they cannot be read."""
    match = re.search(r"gpu\.func\s+@" + re.escape(kernel) + r"\s*\(", source)
    if match is None:
        return []
    depth, end = 1, match.end()
    while end < len(source) and depth:
        depth += {"(": 1, ")": -1}.get(source[end], 0)
        end += 1
    names = re.findall(r"%([\w$.\-]+)\s*:", source[match.end() : end - 1])
    return names if len(names) == count else []


def _torch_facts(obj: Any, dtypes: dict[Any, tuple[int, int]]) -> tuple:
    """A torch tensor's facts from its own accessors: what DLPack would give,
    without building a capsule (the common case of a launch, kept cheap).
    ``shape`` stays a ``torch.Size``, a tuple."""
    device = obj.get_device()
    code, bits = dtypes.get(obj.dtype, (255, 0))
    if device < 0:
        return (obj.data_ptr(), obj.shape, obj.stride(), code, bits, _DL_CPU, 0)
    return (obj.data_ptr(), obj.shape, obj.stride(), code, bits, _DL_CUDA, device)


def _other_facts(obj: Any, where: str) -> tuple[tuple | None, int | None]:
    """(facts, stream) of an array that is not a torch tensor; facts is
    ``None`` for a DLPack-only array, read by ``_dlpack_facts`` once the
    launch's stream is known."""
    interface = getattr(obj, "__cuda_array_interface__", None)
    if interface is not None:
        return _from_interface(interface, obj, where)
    if hasattr(obj, "__dlpack__") and hasattr(obj, "__dlpack_device__"):
        return None, None
    raise TypeError(
        f"{where}: expected an array (DLPack __dlpack__ or "
        f"__cuda_array_interface__), got {type(obj).__name__}"
    )


def _dlpack_facts(obj: Any, stream: int) -> tuple:
    kind, device = obj.__dlpack_device__()
    if int(kind) != _DL_CUDA and int(kind) != 13:
        # Only the device is looked at: the check names it.
        return (0, (), None, 0, 0, int(kind), int(device))
    # The consumer's stream, as the DLPack protocol spells it: 1 is the
    # legacy default stream (handle 0), any other value a handle.
    capsule = obj.__dlpack__(stream=stream if stream != 0 else 1)
    return _native.dlpack_facts(capsule)


def _from_interface(interface: dict, obj: Any, where: str) -> tuple[tuple, int | None]:
    typestr = interface["typestr"]
    code = _TYPESTR_CODES.get(typestr[1:2])
    if typestr[0] == ">" or code is None:
        raise TypeError(f"{where}: the array's typestr {typestr!r} is no dtype acopy takes")
    itemsize = int(typestr[2:])
    shape = tuple(int(n) for n in interface["shape"])
    strides = interface.get("strides")
    if strides is not None:
        if any(s % itemsize for s in strides):
            raise ValueError(
                f"{where}: the array's strides {tuple(strides)} (bytes) are not whole elements of {itemsize} bytes"
            )
        strides = tuple(s // itemsize for s in strides)
    device = getattr(getattr(obj, "device", None), "id", 0)
    facts = (int(interface["data"][0]), shape, strides, code, itemsize * 8, _DL_CUDA, device if isinstance(device, int) else 0)
    return facts, interface.get("stream")


class Kernel:
    """A kernel ``gpu.func`` of a compiled module, ready to launch.

    Call it with one positional argument per kernel argument, in order:
    arrays for memrefs (anything with ``__dlpack__``/``__dlpack_device__`` or
    ``__cuda_array_interface__``: torch tensors, CuPy arrays, JAX arrays),
    Python numbers for scalars (``index``/``i64``/``i32``: int, ``f32``:
    float, ``i1``: bool). The tensor maps of a TMA kernel are added by acopy.

        kernel(src, out, grid=(1,), block=(128,))

    Every argument is checked first against the ``gpu.func``'s types and the
    manifest (rank, static sizes, strides in elements, dtype, CUDA device;
    TMA's limits): a mismatch is a ``TypeError`` (wrong kind or dtype,
    missing argument) or ``ValueError`` (shape, strides, device, launch
    shape) that names the argument, what the kernel expects and what it
    got, and nothing is launched. The launch is asynchronous on ``stream``
    (an int handle, a ``torch.cuda.Stream``, a CuPy stream or an object with
    ``__cuda_stream__``), by default on the first array's current stream
    (torch's current stream, the stream of a ``__cuda_array_interface__``),
    else the legacy default stream. Failures of the driver are ``CudaError``.
    """

    #: The gpu.func's symbol name (the PTX ``.entry``).
    name: str
    #: The gpu.module's symbol name.
    module: str
    #: The chip the PTX was compiled for.
    chip: str | None
    #: The argument names, as the source spells them (``arg<i>`` if unknown).
    arg_names: tuple[str, ...]
    #: Each argument's MLIR type, e.g. ``"memref<256x512xf32>"``, ``"index"``.
    arg_types: tuple[str, ...]
    #: The cluster shape (``nvvm.cluster_dim``), ``(1, 1, 1)`` without one.
    cluster: tuple[int, int, int]
    #: The block the kernel was compiled for (``known_block_size`` or
    #: ``nvvm.reqntid``); ``None`` when any block size works.
    block: tuple[int, int, int] | None
    #: Dynamic shared memory a launch gets, in bytes, as the manifest records
    #: it (``dynamic_shared_memory``): the pipelined slots moved there, else 0
    #: without ``gpu.dynamic_shared_memory``, else the end of its furthest
    #: ``memref.view``; ``None`` when the compiler cannot bound it (then pass
    #: ``shared_memory=``, which never gets fewer bytes than recorded).
    dynamic_shared_memory: int | None
    #: The manifest's tensor maps of this kernel (empty without TMA).
    tensor_maps: list[dict[str, Any]]

    def __init__(self, ptx: str, module: str, chip: str | None, entry: dict[str, Any], names: list[str]):
        import json

        self.name = entry["kernel"]
        self.module = module
        self.chip = chip
        args = entry["args"]
        self.arg_types = tuple(a["type"] for a in args)
        self.cluster = tuple(entry["cluster"])
        self.block = tuple(entry["block"]) if entry["block"] is not None else None
        self.tensor_maps = list(entry["tensor_maps"])
        self._native = _native.Kernel(ptx, module, self.name, names, json.dumps(entry))
        self.dynamic_shared_memory = self._native.dynamic_shared_memory
        self.arg_names = tuple(names) if names else tuple(f"arg{i}" for i in range(len(args)))
        self._memrefs = tuple(i for i, a in enumerate(args) if a["kind"] == "memref")
        #: The manifest's argument types (shape, element, strides) for the
        #: frontends (acopy.jax, acopy.torch), which declare outputs from them.
        self._arg_facts = tuple(args)

    def __repr__(self) -> str:
        signature = ", ".join(f"%{n}: {t}" for n, t in zip(self.arg_names, self.arg_types))
        return f"<acopy.Kernel {self.module}.{self.name}({signature}) {self.chip}>"

    def __call__(
        self,
        *args: Any,
        grid: int | Sequence[int],
        block: int | Sequence[int] | None = None,
        stream: Any = None,
        shared_memory: int | None = None,
    ) -> None:
        """Launch; see the class docstring. ``grid`` and ``block`` are an int
        or 1 to 3 ints (missing ones are 1); ``block`` may be left out when the
        kernel declares its block (``Kernel.block``: with a producer warp,
        ``producer = "warp"``, that is the declared threads and the warp the
        compiler added); ``shared_memory`` overrides the dynamic shared memory
        in bytes (above 48 KiB is opted in)."""
        if block is None:
            if self.block is None:
                raise ValueError(
                    f"kernel `{self.name}` declares no block size (known_block_size or nvvm.reqntid): pass block="
                )
            block = self.block
        # Plain ints are the common case: no call for them.
        grid3 = (grid, 1, 1) if type(grid) is int and 0 < grid < 4294967296 else _dims(grid, "grid")
        block3 = (block, 1, 1) if type(block) is int and 0 < block < 4294967296 else _dims(block, "block")
        handle = None if stream is None else _stream_handle(stream)
        values = list(args)
        count = len(values)
        torch = sys.modules.get("torch")
        tensor = None if torch is None else torch.Tensor
        deferred = None
        for i in self._memrefs:
            if i >= count:
                break
            obj = values[i]
            if tensor is not None and isinstance(obj, tensor):
                facts = values[i] = _torch_facts(obj, _TORCH_DTYPES or _torch_dtypes())
                if handle is None and facts[5] == _DL_CUDA:
                    handle = torch._C._cuda_getCurrentRawStream(facts[6])
                continue
            facts, suggested = _other_facts(obj, f"argument '{self.arg_names[i]}' ({i}, {self.arg_types[i]})")
            if facts is None:
                deferred = (deferred or []) + [i]
                continue
            values[i] = facts
            if handle is None:
                handle = suggested
        if handle is None:
            handle = 0
        if deferred:
            for i in deferred:
                values[i] = _dlpack_facts(values[i], handle)
        self._native.launch(tuple(values), grid3, block3, handle, shared_memory)

    def cached_tensor_maps(self) -> int:
        """How many encoded tensor maps this kernel keeps for reuse (a launch
        with the same arrays, by address and layout, encodes none anew)."""
        return self._native.cached_tensor_maps()
