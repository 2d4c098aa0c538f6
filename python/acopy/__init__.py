"""acopy from Python.

``compile`` takes MLIR text holding acopy ops (async global->shared copies and
their barriers) to PTX, LLVM IR or lowered MLIR, one output per ``gpu.module``,
with the TMA tensor-map manifest; ``verify`` only checks the ops against the
target chip. Both are thin wrappers over the Rust crate ``acopy``
(``acopy::compile`` / ``acopy::verify``): the same passes, in the same order,
and the same diagnostics, as data.

    import acopy
    compiled = acopy.compile(open("tile_copy_sm90.mlir").read(), chip="sm_90")
    print(compiled.outputs[0].text)          # PTX
    print(compiled.manifest["kernels"])      # how to encode each tensor map

``Compiled.kernel(name)`` gives a ``Kernel`` that launches the PTX on arrays
(torch, CuPy, JAX: DLPack or ``__cuda_array_interface__``), with the tensor
maps encoded from the manifest, through the Rust crate ``acopy-runtime``:

    kernel = compiled.kernel("tile_copy")
    kernel(src, out, grid=1, block=128)
"""


from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from . import _native
from ._launch import CudaError, Kernel, _arg_names, synchronize

__all__ = [
    "CHIPS",
    "CompileError",
    "Compiled",
    "CudaError",
    "Diagnostic",
    "Kernel",
    "Output",
    "PipelinedLoop",
    "TileSlots",
    "VerificationError",
    "compile",
    "synchronize",
    "verify",
]

#: The chip names ``chip=`` accepts, oldest first.
CHIPS: tuple[str, ...] = tuple(_native.chips())


@dataclass(frozen=True)
class TileSlots:
    """The slots of one pipelined tile: ``stages`` x ``slot_bytes``."""

    #: The tile's type as written, e.g. "memref<8x128xf32, 3>".
    tile: str
    tile_bytes: int
    #: The tile padded to ``align`` (16 for cp.async; 128, or 8 x the swizzle, for TMA).
    slot_bytes: int
    align: int


@dataclass(frozen=True)
class PipelinedLoop:
    """What acopy-pipeline chose for one marked loop (docs/pipelining.md), as
    the Rust crate's ``acopy::PipelinedLoop``: the data of the loop's remark."""

    chip: str
    #: "cp_async" or "tma".
    path: str
    #: The slots per tile: ``requested``, clamped to a constant trip count below it.
    stages: int
    requested: int
    #: ``None`` for a trip count known only at run time.
    trips: int | None
    #: Copies per iteration.
    copies: int
    tiles: tuple[TileSlots, ...]
    #: Slots, and on TMA the barriers and the tile count, in bytes.
    shared_bytes: int
    #: cp.async: the ``cp.async.wait_group`` count the loop waits with (one constant).
    wait_groups: tuple[int, ...] | None = None
    #: TMA: one mbarrier per slot, ``arrivals`` (one per copy) each.
    barriers: int | None = None
    arrivals: int | None = None
    #: TMA: the loop was written in the native form, whose barrier the pass replaced.
    replaces_user_barrier: bool = False
    #: ``stages = "auto"``: a dict with ``target_bytes`` (what the chip wants in
    #: flight), ``in_flight_bytes`` (what the choice keeps) and ``limit``
    #: ("latency", "shared_memory" or "max_stages"); ``None`` for a given count.
    auto: dict[str, Any] | None = None
    #: wgmma consumers that the body leaves N groups in flight: N (each slot is
    #: refilled after the body's ``wgmma.wait_group N``); else ``None``.
    wgmma_in_flight: int | None = None
    #: ``producer = "warp"``: the block size the kernel declares now, its own
    #: threads and the producer warp the pass added; else ``None``.
    producer_block: int | None = None
    #: ``release = "warp"`` on a chip with counted arrivals (sm_90 and newer): lane 0
    #: of each consumer warp releases a slot for its 32 lanes.
    warp_release: bool = False
    #: Multicast copies: a dict with ``cluster`` (x, y, z) and ``senders`` (the
    #: CTAs whose slices fill each tile's slots, in tile order); else ``None``.
    multicast: dict[str, Any] | None = None

    @classmethod
    def _from_native(cls, raw: dict[str, Any]) -> PipelinedLoop:
        waits = raw.get("wait_groups")
        return cls(
            chip=raw["chip"],
            path=raw["path"],
            stages=raw["stages"],
            requested=raw["requested"],
            trips=raw["trips"],
            copies=raw["copies"],
            tiles=tuple(TileSlots(**tile) for tile in raw["tiles"]),
            shared_bytes=raw["shared_bytes"],
            wait_groups=None if waits is None else tuple(waits),
            barriers=raw.get("barriers"),
            arrivals=raw.get("arrivals"),
            replaces_user_barrier=raw.get("replaces_user_barrier", False),
            auto=raw.get("auto"),
            wgmma_in_flight=raw.get("wgmma_in_flight"),
            producer_block=raw.get("producer_block"),
            warp_release=raw.get("warp_release", False),
            multicast=raw.get("multicast"),
        )


@dataclass(frozen=True)
class Diagnostic:
    """One MLIR diagnostic, as the Rust crate's ``acopy::Diagnostic``."""

    #: "error", "warning", "remark" or "note".
    severity: str
    message: str
    #: The file name given as ``filename=`` (``None``, with line and column,
    #: for a diagnostic without a location).
    file: str | None = None
    #: 1-based.
    line: int | None = None
    column: int | None = None
    #: The verification rule ("E1"..., "T1"..., "A1"...; docs/verification.md)
    #: for errors from the rules table, else ``None``.
    rule: str | None = None
    notes: tuple[Diagnostic, ...] = ()
    #: For acopy-pipeline's remark at a loop it rewrote: what it chose, as data.
    pipelined: PipelinedLoop | None = None

    def __str__(self) -> str:
        # mlir-opt's spelling: file:line:col: error: message
        if self.line is None:
            return f"{self.severity}: {self.message}"
        return f"{self.file}:{self.line}:{self.column}: {self.severity}: {self.message}"

    @classmethod
    def _from_native(cls, raw: dict[str, Any]) -> Diagnostic:
        return cls(
            severity=raw["severity"],
            message=raw["message"],
            file=raw["file"],
            line=raw["line"],
            column=raw["column"],
            rule=raw["rule"],
            notes=tuple(cls._from_native(note) for note in raw["notes"]),
            pipelined=None if raw.get("pipelined") is None else PipelinedLoop._from_native(raw["pipelined"]),
        )


class CompileError(ValueError):
    """acopy rejected the input: a parse error, a rule the chip breaks, or a
    failure in lowering or emitting. ``str()`` is the error diagnostics, one
    per line; ``diagnostics`` holds every diagnostic, errors and the rest."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics
        super().__init__("\n".join(str(d) for d in self.errors))

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]


class VerificationError(CompileError):
    """The input parsed, but acopy-verify found ops the chip cannot do: every
    error carries its rule id (docs/verification.md), and ``str()`` holds the
    rules' exact texts. Parse, lowering and emit failures stay plain
    ``CompileError``s."""


def _error_for(diagnostics: list[Diagnostic]) -> CompileError:
    errors = [d for d in diagnostics if d.severity == "error"]
    if errors and all(d.rule is not None for d in errors):
        return VerificationError(diagnostics)
    return CompileError(diagnostics)


@dataclass(frozen=True)
class Output:
    """The compiled text of one ``gpu.module`` for one chip."""

    #: The gpu.module's symbol name.
    module: str
    #: The chip the text is for, as the compiler knows it (the PTX target, or
    #: the one chip the gpu.module's targets name; ``None`` for LLVM IR or
    #: MLIR of a module whose targets name several).
    chip: str | None
    #: PTX, LLVM IR or MLIR, as ``emit=`` asked.
    text: str
    #: This module's kernels for this chip (manifest format version 2): their
    #: arguments, block, cluster, shared memory and tensor maps.
    manifest: dict[str, Any] = field(repr=False)


@dataclass(frozen=True)
class Compiled:
    """A successful ``compile``."""

    #: One per gpu.module (per chip of a module with several targets), in IR order.
    outputs: list[Output]
    #: Every kernel's launch facts and tensor maps, as ``acopy-opt
    #: --tma-manifest`` writes them (crates/acopy-manifest/README.md).
    manifest: dict[str, Any] = field(repr=False)
    #: Remarks and warnings (a successful compile has no errors).
    diagnostics: list[Diagnostic] = field(default_factory=list)
    #: What ``emit=`` asked for: "ptx", "llvm" or "mlir".
    emit: str = "ptx"
    #: The source, for the argument names in ``Kernel``'s messages (the
    #: manifest has everything else a launch needs).
    _source: str = field(default="", repr=False, compare=False)

    @property
    def pipelined_loops(self) -> list[PipelinedLoop]:
        """What acopy-pipeline chose for each marked loop, in the order it
        rewrote them (the data of each loop's remark in ``diagnostics``)."""
        return [d.pipelined for d in self.diagnostics if d.pipelined is not None]

    def kernel(self, name: str, chip: str | None = None) -> Kernel:
        """The kernel ``gpu.func`` called ``name`` (or ``"module.name"``), ready
        to launch; see ``Kernel``. ``chip`` picks one output of a module
        compiled for several chips (default: the first). An unknown name is a
        ``KeyError`` that lists the kernels; ``ValueError`` unless
        ``emit="ptx"``; ``TypeError`` for a kernel whose arguments Python
        cannot pass (a memref outside global memory, a scalar other than
        index, i64, i32, f32 or i1)."""
        ptx = self.ptx
        module_name, _, kernel_name = name.rpartition(".")
        kernels = self.manifest.get("kernels", [])
        matches = [
            k for k in kernels
            if k["kernel"] == kernel_name and module_name in ("", k["module"])
        ]
        if not matches:
            known = ", ".join(dict.fromkeys(f"{k['module']}.{k['kernel']}" for k in kernels)) or "none"
            raise KeyError(f"no kernel {name!r} in the compiled modules; the kernels are: {known}")
        if len({k["module"] for k in matches}) > 1:
            raise KeyError(
                f"kernel {name!r} is in several modules ("
                + ", ".join(dict.fromkeys(k["module"] for k in matches))
                + "): ask for \"module.kernel\""
            )
        module = matches[0]["module"]
        outputs = [o for o in self.outputs if o.module == module]
        if chip is not None:
            outputs = [o for o in outputs if o.chip == chip]
            if not outputs:
                raise KeyError(f"module {module!r} was not compiled for {chip}")
        output = outputs[0]
        key = output.module if len([o for o in self.outputs if o.module == output.module]) == 1 else f"{output.module}@{output.chip}"
        # The output's manifest holds the entry for its chip.
        entry = next(
            (
                e for e in output.manifest.get("kernels", [])
                if e["kernel"] == kernel_name and e["module"] == module
            ),
            None,
        )
        if entry is None:
            raise KeyError(f"kernel {name!r} has no manifest entry for {output.chip}")
        names = _arg_names(self._source, kernel_name, len(entry["args"]))
        return Kernel(ptx[key], module, output.chip, entry, names)

    @property
    def ptx(self) -> dict[str, str]:
        """The PTX of each gpu.module, keyed by its symbol name; a module
        compiled for several chips gives one entry per chip, keyed
        ``"name@sm_XX"``. Raises ``ValueError`` unless ``emit="ptx"``."""
        if self.emit != "ptx":
            raise ValueError(f"compiled with emit={self.emit!r}: .ptx needs emit=\"ptx\"; read .outputs")
        chips: dict[str, int] = {}
        for output in self.outputs:
            chips[output.module] = chips.get(output.module, 0) + 1
        return {
            (output.module if chips[output.module] == 1 else f"{output.module}@{output.chip}"): output.text
            for output in self.outputs
        }


def compile(
    source: str,
    chip: str | None = None,
    fallback: bool = False,
    emit: str = "ptx",
    filename: str = "<input>",
) -> Compiled:
    """Verify, lower and emit every gpu.module of the MLIR text ``source``.

    ``chip`` overrides each gpu.module's ``#nvvm.target`` (one of ``CHIPS``);
    ``fallback`` lowers barrier, collective and leader-tracked copies without
    those features on cp.async chips where the semantics can be kept;
    ``emit`` is "ptx", "llvm" or "mlir"; ``filename`` names the source in
    diagnostics. Raises ``VerificationError`` when acopy-verify rejects an op,
    ``CompileError`` (its base class) for any other rejected input, and
    ``ValueError`` for a bad ``chip`` or ``emit``.
    """
    raw = _native.compile(source, filename, chip, fallback, emit)
    diagnostics = [Diagnostic._from_native(d) for d in raw["diagnostics"]]
    if not raw["ok"]:
        raise _error_for(diagnostics)
    return Compiled(
        outputs=[
            Output(
                module=o["module"],
                chip=o["chip"],
                text=o["text"],
                manifest=json.loads(o["manifest"]),
            )
            for o in raw["outputs"]
        ],
        manifest=json.loads(raw["manifest"]),
        diagnostics=diagnostics,
        emit=emit,
        _source=source,
    )


def verify(
    source: str,
    chip: str | None = None,
    fallback: bool = False,
    filename: str = "<input>",
) -> list[Diagnostic]:
    """Check every acopy op of ``source`` as ``acopy-verify`` does and return
    every diagnostic; no error among them means the chip can do them all.
    Raises ``ValueError`` only for a bad ``chip``."""
    return [
        Diagnostic._from_native(d)
        for d in _native.verify(source, filename, chip, fallback)
    ]
