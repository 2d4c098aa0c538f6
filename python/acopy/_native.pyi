"""Type hints of the extension module ``acopy._native`` (Rust, PyO3). The
package's API is ``acopy/__init__.py`` and ``acopy/_launch.py``; these are the
plain functions and the one class they call."""

from typing import Any

#: What ``acopy._launch`` reads from one array: data pointer of element 0,
#: shape, strides in elements (``None``: row-major), DLPack dtype code and
#: bits, DLPack device type and id.
ArrayFacts = tuple[int, tuple[int, ...], tuple[int, ...] | None, int, int, int, int]

def compile(source: str, filename: str, chip: str | None, fallback: bool, emit: str) -> dict[str, Any]:
    """``ok``, ``outputs`` (``module``, ``chip``, ``text``, ``manifest``),
    ``manifest`` (JSON text, format version 2: every kernel's arguments,
    block, cluster, shared memory, chip and tensor maps) and ``diagnostics``."""

def verify(source: str, filename: str, chip: str | None, fallback: bool) -> list[dict[str, Any]]: ...
def chips() -> list[str]: ...
def synchronize(device: int) -> None:
    """``cuCtxSynchronize``; raises ``acopy.CudaError``."""

def dlpack_facts(capsule: Any) -> ArrayFacts:
    """Reads a ``"dltensor"`` (or ``"dltensor_versioned"``) capsule without
    consuming it."""

class Kernel:
    def __init__(
        self, ptx: str, module: str, name: str, arg_names: list[str], entry: str
    ) -> None:
        """``entry``: the kernel's manifest entry as JSON text (version 2)."""
    @property
    def dynamic_shared_memory(self) -> int | None: ...
    def launch(
        self,
        args: tuple[Any, ...],
        grid: tuple[int, int, int],
        block: tuple[int, int, int],
        stream: int,
        shared_memory: int | None = None,
    ) -> None:
        """Checks ``args`` (``ArrayFacts`` for memrefs, Python numbers for
        scalars) against the kernel's manifest entry, encodes the tensor
        maps (cached by layout) and launches on ``stream``."""
    def cached_tensor_maps(self) -> int: ...
    def check(self, i: int, facts: ArrayFacts) -> None:
        """Checks one array's facts (the pointer is not looked at) against
        argument ``i``, a memref, as a launch does, without launching: the
        trace-time check of ``acopy.jax`` and ``acopy.torch``'s fake
        implementation. ``TypeError``/``ValueError`` naming the argument."""

def xla_register_call(
    kernel: Kernel,
    inputs: list[int],
    outputs: list[int],
    scalars: dict[int, Any],
    grid: tuple[int, int, int],
    block: tuple[int, int, int],
    shared_memory: int | None = None,
) -> int:
    """Registers what one ``acopy.jax`` function launches (the kernel argument
    index of each XLA operand and result, the scalar values, the checked
    launch configuration); the id goes in the custom call's ``acopy_call``
    attribute (python/src/xla.rs)."""

def xla_handler(platform: str) -> Any:
    """The XLA FFI handler for ``"cuda"`` or ``"cpu"`` as an unnamed PyCapsule,
    for ``jax.ffi.register_ffi_target``."""

def xla_layout() -> list[tuple[str, int]]:
    """Sizes and field offsets of the mirrored ``c_api.h`` structs, by the
    header's names (for the layout test)."""
