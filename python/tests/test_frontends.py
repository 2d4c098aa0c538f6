"""acopy.jax and acopy.torch where no GPU is needed (the GPU cases are
bench/frontends_gpu.py): the XLA FFI structs against jaxlib's header, the
custom call XLA runs (on CPU its handler decodes, checks and refuses before any
launch), every refusal at trace time with the argument named, the torch
custom op's schema and fake implementation.

Needs jax/jaxlib 0.11.2 and torch 2.11 (each part is skipped without its
library): `bash scripts/frontends-venv.sh` makes target/fe-venv, Python 3.12,
with both; scripts/test.sh runs this file with it when it exists.
"""

import shutil
import subprocess
from pathlib import Path

import pytest

import acopy
from acopy import _native

ROOT = Path(__file__).resolve().parents[2]
KERNELS = ROOT / "tests" / "gpu" / "kernels"

try:
    import jax  # noqa: F811
    import jax.numpy as jnp
    import numpy as np
except ImportError:  # pragma: no cover - the skip below says why
    jax = None
try:
    import torch
except ImportError:  # pragma: no cover
    torch = None

NEEDS_JAX = pytest.mark.skipif(jax is None, reason="jax is not installed (bash scripts/frontends-venv.sh)")
NEEDS_TORCH = pytest.mark.skipif(torch is None, reason="torch is not installed (bash scripts/frontends-venv.sh)")

TILE = "argument 'src' (0, memref<256x512xf32>)"


def kernel_of(name):
    return acopy.compile((KERNELS / f"{name}.mlir").read_text()).kernel(name)


STRIDED = """\
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32, strided<[1024, 1]>>, %s0: index, %s1: index)
      workgroup(%tile: memref<64x128xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %parity = arith.constant false
    "acopy.barrier_init"(%bar) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %tile, %s0, %s1, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32, strided<[1024, 1]>>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
}
"""


# ---------------------------------------------------------------- the header


LAYOUT_C = r"""
#include <stddef.h>
#include <stdio.h>
#include "xla/ffi/api/c_api.h"
#define OFF(t, f) printf("%s.%s %zu\n", #t, #f, offsetof(t, f));
#define SIZE(t) printf("sizeof(%s) %zu\n", #t, sizeof(t));
#define STRUCT_SIZE(t) printf("%s_STRUCT_SIZE %zu\n", #t, (size_t)t##_STRUCT_SIZE);
int main(void) {
  SIZE(XLA_FFI_Buffer)
  OFF(XLA_FFI_Buffer, dtype) OFF(XLA_FFI_Buffer, data) OFF(XLA_FFI_Buffer, rank) OFF(XLA_FFI_Buffer, dims)
  OFF(XLA_FFI_Args, size) OFF(XLA_FFI_Args, types) OFF(XLA_FFI_Args, args)
  OFF(XLA_FFI_Attrs, names) OFF(XLA_FFI_Attrs, attrs) OFF(XLA_FFI_Scalar, value)
  OFF(XLA_FFI_CallFrame, api) OFF(XLA_FFI_CallFrame, ctx) OFF(XLA_FFI_CallFrame, stage)
  OFF(XLA_FFI_CallFrame, args) OFF(XLA_FFI_CallFrame, rets) OFF(XLA_FFI_CallFrame, attrs)
  STRUCT_SIZE(XLA_FFI_CallFrame)
  OFF(XLA_FFI_Api, XLA_FFI_Error_Create) OFF(XLA_FFI_Api, XLA_FFI_Stream_Get)
  OFF(XLA_FFI_Api, XLA_FFI_DeviceOrdinal_Get)
  STRUCT_SIZE(XLA_FFI_Error_Create_Args) STRUCT_SIZE(XLA_FFI_Stream_Get_Args)
  STRUCT_SIZE(XLA_FFI_DeviceOrdinal_Get_Args)
  OFF(XLA_FFI_Metadata, traits) STRUCT_SIZE(XLA_FFI_Metadata)
  OFF(XLA_FFI_Metadata_Extension, metadata)
  printf("XLA_FFI_API %d.%d\n", XLA_FFI_API_MAJOR, XLA_FFI_API_MINOR);
  return 0;
}
"""


@NEEDS_JAX
def test_mirrored_structs_match_jaxlibs_header(tmp_path):
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        pytest.skip("no C compiler")
    (tmp_path / "layout.c").write_text(LAYOUT_C)
    exe = tmp_path / "layout"
    subprocess.run([compiler, "-I", jax.ffi.include_dir(), "-o", str(exe), str(tmp_path / "layout.c")], check=True)
    lines = subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.splitlines()
    header = dict(line.rsplit(" ", 1) for line in lines)
    # The handler answers XLA's metadata query with the version it was written for.
    assert header.pop("XLA_FFI_API") == "0.4"
    rust = {name: str(value) for name, value in _native.xla_layout()}
    assert rust == header


# ---------------------------------------------------------------- acopy.jax


@NEEDS_JAX
def test_jax_function_lowers_to_the_custom_call_with_the_call_id():
    import acopy.jax

    f = acopy.jax.function(kernel_of("tma_tile_2d"), outputs="out", grid=1, block=128)
    text = jax.jit(f).lower(jnp.zeros((256, 512), jnp.float32)).as_text()
    assert "stablehlo.custom_call @acopy_launch(%arg0)" in text
    assert "acopy_call = " in text
    assert "-> tensor<64x128xf32>" in text


@NEEDS_JAX
@pytest.mark.parametrize(
    "array, kind, message",
    [
        (lambda: jnp.zeros((256, 512), jnp.float16), TypeError, f"{TILE}: expected dtype float32, got float16"),
        (lambda: jnp.zeros((256, 511), jnp.float32), ValueError, f"{TILE}: expected shape (256, 512), got (256, 511)"),
        (lambda: jnp.zeros((256 * 512,), jnp.float32), ValueError,
         f"{TILE}: expected rank 2 (shape (256, 512)), got rank 1 (shape (131072,))"),
        (lambda: jnp.zeros((256, 512), jnp.complex64), TypeError, f"{TILE}: the array's dtype complex64 is no dtype acopy takes"),
        (lambda: [1.0], TypeError, f"{TILE}: expected a JAX array, got list"),
    ],
)
@pytest.mark.parametrize("jit", [False, True])
def test_jax_refuses_at_trace_time_naming_the_argument(array, kind, message, jit):
    import acopy.jax

    f = acopy.jax.function(kernel_of("tma_tile_2d"), outputs="out", grid=1, block=128)
    with pytest.raises(kind) as info:
        (jax.jit(f) if jit else f)(array())
    assert str(info.value) == message


@NEEDS_JAX
def test_jax_refuses_a_host_array_eagerly_and_under_jit_before_any_launch():
    import acopy.jax

    f = acopy.jax.function(kernel_of("tma_tile_2d"), outputs="out", grid=1, block=128)
    x = jnp.zeros((256, 512), jnp.float32)  # on the CPU here
    with pytest.raises(ValueError) as info:
        f(x)
    assert str(info.value) == f"{TILE}: expected an array in CUDA device memory, got one on cpu:0"
    # Under jit the device is XLA's: its CPU handler decodes the call frame, checks
    # the buffers with the launch's checks and refuses.
    with pytest.raises(Exception) as info:
        jax.jit(f)(x).block_until_ready()
    assert f"INVALID_ARGUMENT: {TILE}: expected an array in CUDA device memory, got one on cpu" in str(info.value)


@NEEDS_JAX
def test_jax_refuses_a_layout_xla_cannot_pass():
    import acopy.jax

    f = acopy.jax.function(acopy.compile(STRIDED).kernel("k"), outputs=(), grid=1, block=128, scalars={"s0": 0, "s1": 0})
    with pytest.raises(ValueError) as info:
        f(jnp.zeros((256, 512), jnp.float32))
    assert str(info.value) == (
        "argument 'src' (0, memref<256x512xf32, strided<[1024, 1]>>): expected strides (1024, 1) in elements, got (512, 1)"
    )


@NEEDS_JAX
def test_jax_counts_the_inputs():
    import acopy.jax

    f = acopy.jax.function(kernel_of("tma_tile_2d"), outputs="out", grid=1, block=128)
    with pytest.raises(TypeError) as info:
        f()
    assert str(info.value) == "the JAX function of kernel `tma_tile_2d` takes 1 arrays (src), got 0: missing 'src'"


@NEEDS_JAX
def test_two_calls_and_jax_ops_in_one_jit_stay_on_the_device():
    import acopy.jax

    f = acopy.jax.function(kernel_of("tma_tile_2d"), outputs="out", grid=1, block=128)

    def twice(x):
        y = f(x)
        z = jnp.tile(y * 2.0 + 1.0, (4, 4))
        return f(z) - 1.0

    compiled = jax.jit(twice).lower(jnp.zeros((256, 512), jnp.float32)).compile().as_text()
    # Both launches are custom calls of the one executable; nothing goes to the
    # host between them (no other custom call, no send/recv, no in/outfeed).
    assert compiled.count('custom_call_target="acopy_launch"') == 2
    assert compiled.count("custom-call(") == 2
    for host in ("send(", "recv(", "infeed(", "outfeed(", "callback"):
        assert host not in compiled


@pytest.mark.parametrize(
    "kwargs, kind, message",
    [
        (dict(outputs="dst", grid=1, block=128), ValueError,
         "outputs=: kernel `tma_dyn_2d` has no argument 'dst'; its arguments are src, out, s0, s1"),
        (dict(outputs="s0", grid=1, block=128, scalars={"s0": 0, "s1": 0}), ValueError,
         "outputs=: argument 's0' (2, index) is not a memref"),
        (dict(outputs="out", grid=1, block=128, scalars={"s0": 0}), ValueError,
         "kernel `tma_dyn_2d`: give the scalar arguments in scalars=: 's1' (3, index)"),
        (dict(outputs="out", grid=1, block=128, scalars={"src": 0, "s0": 0, "s1": 0}), ValueError,
         "scalars=: argument 'src' (0, memref<256x512xf32>) is a memref"),
        (dict(outputs="out", grid=1, block=128, scalars={"s0": 1.5, "s1": 0}), TypeError,
         "argument 's0' (2, index): expected an int, got float"),
        (dict(outputs="out", grid=1, scalars={"s0": 0, "s1": 0}), ValueError,
         "kernel `tma_dyn_2d` declares no block size (known_block_size or nvvm.reqntid): pass block="),
        (dict(outputs=0, grid=0, block=128, scalars={"s0": 0, "s1": 0}), ValueError,
         "grid=(0,): every dimension must be in 1..2**32-1"),
    ],
)
def test_a_bad_wrapping_is_refused_with_the_argument_named(kwargs, kind, message):
    kernel = acopy.compile((KERNELS / "tma_dyn_2d.mlir").read_text()).kernel("tma_dyn_2d")
    from acopy import _frontend

    with pytest.raises(kind) as info:
        sig = _frontend.signature(kernel, kwargs.pop("outputs"), kwargs.pop("grid"), kwargs.pop("block", None),
                                  kwargs.pop("scalars", None), None, None)
        # Scalars are checked where a call is registered with the extension.
        _native.xla_register_call(kernel._native, list(sig.inputs), [o.index for o in sig.outputs], sig.scalars,
                                  sig.grid, sig.block)
    assert str(info.value) == message


def test_register_call_refuses_an_argument_given_twice_or_left_out():
    kernel = kernel_of("tma_tile_2d")
    with pytest.raises(ValueError, match="argument 'src' \\(0\\) of kernel `tma_tile_2d` is given twice"):
        _native.xla_register_call(kernel._native, [0], [0], {}, (1, 1, 1), (128, 1, 1))
    with pytest.raises(ValueError, match="argument 'out' \\(1, memref<64x128xf32>\\) of kernel `tma_tile_2d` is neither"):
        _native.xla_register_call(kernel._native, [0], [], {}, (1, 1, 1), (128, 1, 1))
    assert _native.xla_register_call(kernel._native, [0], [1], {}, (1, 1, 1), (128, 1, 1)) >= 0


def test_an_output_with_a_dynamic_size_needs_its_shape():
    from acopy import _frontend

    kernel = acopy.compile(STRIDED.replace("256x512xf32, strided<[1024, 1]>", "?x?xf32")).kernel("k")
    with pytest.raises(ValueError) as info:
        _frontend.signature(kernel, "src", 1, 128, {"s0": 0, "s1": 0}, None, None)
    assert str(info.value) == "output 'src' (0, memref<?x?xf32>): the type has a dynamic size; give the shape in output_shapes="
    sig = _frontend.signature(kernel, "src", 1, 128, {"s0": 0, "s1": 0}, None, {"src": (64, 128)})
    assert (sig.outputs[0].shape, sig.outputs[0].dtype) == ((64, 128), "float32")


# ---------------------------------------------------------------- acopy.torch


@NEEDS_TORCH
def test_torch_op_is_a_custom_op_with_the_kernels_inputs():
    import acopy.torch

    f = acopy.torch.op(kernel_of("tma_tile_2d"), outputs="out", grid=1, block=128, name="tile_schema")
    assert str(f._opoverload._schema) == "acopy::tile_schema(Tensor src) -> Tensor"
    assert torch.ops.acopy.tile_schema.default is f._opoverload
    with pytest.raises(ValueError, match="an acopy op named 'tile_schema' is registered already"):
        acopy.torch.op(kernel_of("tma_tile_2d"), outputs="out", grid=1, block=128, name="tile_schema")
    # Without a name, the kernel's, made unique.
    a = acopy.torch.op(kernel_of("tma_tile_2d"), outputs="out", grid=1, block=128)
    b = acopy.torch.op(kernel_of("tma_tile_2d"), outputs="out", grid=1, block=128)
    assert a._qualname != b._qualname


@NEEDS_TORCH
def test_torch_fake_implementation_declares_the_outputs_and_checks_the_inputs():
    import acopy.torch
    from torch._subclasses.fake_tensor import FakeTensorMode

    f = acopy.torch.op(kernel_of("tma_tile_2d"), outputs="out", grid=1, block=128)
    with FakeTensorMode():
        out = f(torch.empty(256, 512, device="cuda"))
        assert (tuple(out.shape), out.dtype, out.device.type) == ((64, 128), torch.float32, "cuda")
        cases = [
            (torch.empty(256, 512, device="cuda", dtype=torch.float16), TypeError,
             f"{TILE}: expected dtype float32, got float16"),
            (torch.empty(256, 511, device="cuda"), ValueError, f"{TILE}: expected shape (256, 512), got (256, 511)"),
            (torch.empty(512, 256, device="cuda").t(), ValueError,
             f"{TILE}: expected a row-major contiguous array (strides (512, 1) in elements), got strides (1, 256)"),
            (torch.empty(256, 512), ValueError, f"{TILE}: expected an array in CUDA device memory, got one on cpu"),
        ]
        for tensor, kind, message in cases:
            with pytest.raises(kind) as info:
                f(tensor)
            assert str(info.value) == message


@NEEDS_TORCH
def test_torch_real_implementation_refuses_before_any_launch():
    import acopy.torch

    f = acopy.torch.op(kernel_of("tma_tile_2d"), outputs="out", grid=1, block=128)
    with pytest.raises(ValueError) as info:
        f(torch.zeros(256, 512))
    assert str(info.value) == f"{TILE}: expected an array in CUDA device memory, got one on cpu"
    with pytest.raises(RuntimeError, match="expected at most 1 argument"):
        f(torch.zeros(256, 512), torch.zeros(1))


@NEEDS_TORCH
def test_torch_export_traces_through_the_op_in_one_graph_and_refuses_while_tracing():
    # torch.export is dynamo with fullgraph=True: the op is one node between aten ops,
    # traced with fake CUDA tensors (no GPU needed); a bad input is refused while tracing.
    import acopy.torch
    from torch._subclasses.fake_tensor import FakeTensorMode

    f = acopy.torch.op(kernel_of("tma_tile_2d"), outputs="out", grid=1, block=128, name="tile_export")

    class Block(torch.nn.Module):
        def forward(self, x):
            return f(x * 2.0) + 1.0

    with FakeTensorMode():
        program = torch.export.export(Block(), (torch.empty(256, 512, device="cuda"),))
        with pytest.raises(Exception) as info:
            torch.export.export(Block(), (torch.empty(256, 512, device="cuda", dtype=torch.float64),))
    targets = [str(n.target) for n in program.graph.nodes if n.op == "call_function"]
    assert targets == ["aten.mul.Tensor", "acopy.tile_export.default", "aten.add.Tensor"]
    assert f"{TILE}: expected dtype float32, got float64" in str(info.value)
