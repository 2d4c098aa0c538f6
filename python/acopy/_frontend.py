"""What ``acopy.jax`` and ``acopy.torch`` share: which kernel arguments are
inputs, outputs and scalars, the outputs' shapes and dtypes (declared by the
kernel's memref types, or given), and the check of one array's abstract facts
(shape, dtype, strides) against the kernel's argument, done by the same Rust
code a launch runs (``acopy._native.Kernel.check``).

Neither JAX nor torch is imported here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ._launch import Kernel, _dims

#: DLPack (type code, bits) of each dtype name, as numpy, JAX (ml_dtypes) and
#: torch (``str(dtype)`` without ``torch.``) spell it.
_DTYPE_CODES = {
    "float16": (2, 16), "bfloat16": (4, 16), "float32": (2, 32), "float64": (2, 64),
    "int8": (0, 8), "int16": (0, 16), "int32": (0, 32), "int64": (0, 64),
    "uint8": (1, 8), "uint16": (1, 16), "uint32": (1, 32), "uint64": (1, 64),
    "bool": (6, 8), "float8_e4m3fn": (10, 8), "float8_e5m2": (12, 8),
}

#: The dtype name of an output with each MLIR element type.
_ELEMENT_DTYPES = {
    "f16": "float16", "bf16": "bfloat16", "f32": "float32", "f64": "float64",
    "i1": "bool", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
    "f8E4M3FN": "float8_e4m3fn", "f8E5M2": "float8_e5m2",
}

_DL_CUDA = 2


@dataclass(frozen=True)
class Output:
    """One output: the kernel argument it is, and what is allocated for it."""

    index: int
    name: str
    shape: tuple[int, ...]
    #: A dtype name of ``_DTYPE_CODES``.
    dtype: str


@dataclass(frozen=True)
class Signature:
    """A kernel split into a frontend's call: inputs (kernel argument indices
    of the call's positional arrays), outputs and scalar values."""

    kernel: Kernel
    inputs: tuple[int, ...]
    outputs: tuple[Output, ...]
    scalars: dict[int, Any]
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    shared_memory: int | None

    def where(self, i: int) -> str:
        """An argument as the launch's messages name it."""
        return f"argument '{self.kernel.arg_names[i]}' ({i}, {self.kernel.arg_types[i]})"

    def check_count(self, got: int, what: str) -> None:
        want = len(self.inputs)
        if got == want:
            return
        names = [self.kernel.arg_names[i] for i in self.inputs]
        detail = (
            "missing " + ", ".join(f"'{n}'" for n in names[got:])
            if got < want else f"{got - want} too many"
        )
        raise TypeError(
            f"{what} of kernel `{self.kernel.name}` takes {want} arrays ({', '.join(names)}), "
            f"got {got}: {detail}"
        )

    def check(self, i: int, shape: Sequence[int], dtype: str, strides: Sequence[int] | None = None) -> None:
        """Kernel argument ``i`` against an array's shape, dtype name and
        strides in elements (``None``: row-major), before anything runs: a
        ``TypeError`` or ``ValueError`` that names the argument."""
        code = _DTYPE_CODES.get(dtype)
        if code is None:
            raise TypeError(f"{self.where(i)}: the array's dtype {dtype} is no dtype acopy takes")
        facts = (0, tuple(int(n) for n in shape), None if strides is None else tuple(int(s) for s in strides),
                 code[0], code[1], _DL_CUDA, 0)
        self.kernel._native.check(i, facts)


def _index(kernel: Kernel, key: int | str, what: str) -> int:
    if isinstance(key, bool) or not isinstance(key, (int, str)):
        raise TypeError(f"{what}: name a kernel argument by its name or index, not {key!r}")
    if isinstance(key, int):
        if not 0 <= key < len(kernel.arg_types):
            raise ValueError(f"{what}: kernel `{kernel.name}` has no argument {key}")
        return key
    if key not in kernel.arg_names:
        raise ValueError(
            f"{what}: kernel `{kernel.name}` has no argument {key!r}; its arguments are "
            + ", ".join(kernel.arg_names)
        )
    return kernel.arg_names.index(key)


def signature(
    kernel: Kernel,
    outputs: Sequence[int | str],
    grid: int | Sequence[int],
    block: int | Sequence[int] | None,
    scalars: Mapping[int | str, Any] | None,
    shared_memory: int | None,
    output_shapes: Mapping[int | str, Sequence[int]] | None,
) -> Signature:
    """Splits ``kernel``'s arguments: ``outputs`` (names or indices of memref
    arguments, allocated by the frontend), scalars (every scalar argument, by
    name or index), and the rest, the inputs, in kernel order. Each output's
    shape is its memref type's, or ``output_shapes[name]`` for a type with a
    dynamic size; its dtype is the type's element."""
    if not isinstance(kernel, Kernel):
        raise TypeError(f"expected an acopy.Kernel (Compiled.kernel(name)), got {type(kernel).__name__}")
    if isinstance(outputs, (int, str)):
        outputs = (outputs,)
    out_index = [_index(kernel, o, "outputs=") for o in outputs]
    if len(set(out_index)) != len(out_index):
        raise ValueError("outputs=: an argument is named twice")
    for i in out_index:
        if i not in kernel._memrefs:
            raise ValueError(f"outputs=: argument '{kernel.arg_names[i]}' ({i}, {kernel.arg_types[i]}) is not a memref")
    values = {_index(kernel, k, "scalars="): v for k, v in (scalars or {}).items()}
    for i in values:
        if i in kernel._memrefs:
            raise ValueError(f"scalars=: argument '{kernel.arg_names[i]}' ({i}, {kernel.arg_types[i]}) is a memref")
    missing = [i for i in range(len(kernel.arg_types)) if i not in kernel._memrefs and i not in values]
    if missing:
        raise ValueError(
            f"kernel `{kernel.name}`: give the scalar arguments in scalars=: "
            + ", ".join(f"'{kernel.arg_names[i]}' ({i}, {kernel.arg_types[i]})" for i in missing)
        )
    shapes = {_index(kernel, k, "output_shapes="): tuple(v) for k, v in (output_shapes or {}).items()}
    if block is None:
        if kernel.block is None:
            raise ValueError(f"kernel `{kernel.name}` declares no block size (known_block_size or nvvm.reqntid): pass block=")
        block = kernel.block
    sig = Signature(
        kernel=kernel,
        inputs=tuple(i for i in kernel._memrefs if i not in out_index),
        outputs=tuple(_output(kernel, i, shapes.get(i)) for i in out_index),
        scalars=values,
        grid=_dims(grid, "grid"),
        block=_dims(block, "block"),
        shared_memory=shared_memory,
    )
    for out in sig.outputs:
        # A frontend allocates outputs row-major: a type with other strides is refused here.
        sig.check(out.index, out.shape, out.dtype)
    return sig


def _output(kernel: Kernel, i: int, given: tuple[int, ...] | None) -> Output:
    facts = kernel._arg_facts[i]
    where = f"output '{kernel.arg_names[i]}' ({i}, {kernel.arg_types[i]})"
    dtype = _ELEMENT_DTYPES.get(facts["element"])
    if dtype is None:
        raise TypeError(f"{where}: no array library allocates elements of type {facts['element']}")
    if given is not None:
        shape = given
    elif any(n is None for n in facts["shape"]):
        raise ValueError(f"{where}: the type has a dynamic size; give the shape in output_shapes=")
    else:
        shape = tuple(facts["shape"])
    return Output(index=i, name=kernel.arg_names[i], shape=tuple(int(n) for n in shape), dtype=dtype)
