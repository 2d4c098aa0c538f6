"""The launch API on a GPU: kernels of tests/gpu/kernels compiled with
acopy.compile and launched on torch tensors (and on CuPy and JAX arrays), each
output compared element by element, as bits, with torch's own slicing of the
same random data; outputs start poisoned (0xFF bytes). See conftest.py."""

import os
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="the GPU tests launch on torch tensors, and torch is not installed")
if not torch.cuda.is_available():
    pytest.skip("no CUDA GPU here (torch.cuda.is_available() is False)", allow_module_level=True)
if torch.cuda.get_device_capability() < (9, 0):
    pytest.skip("the TMA cases need sm_90 or newer", allow_module_level=True)

import acopy  # noqa: E402

ROOT = Path(os.environ.get("ACOPY_ROOT", Path(__file__).resolve().parents[3]))
KERNELS = ROOT / "tests" / "gpu" / "kernels"


def kernel(name, **options):
    return acopy.compile((KERNELS / f"{name}.mlir").read_text(), **options).kernel(name)


def random_f32(*shape):
    """Random bits as f32, NaN patterns included: a copy must move bits."""
    return torch.randint(-(2**31), 2**31 - 1, shape, dtype=torch.int32, device="cuda").view(torch.float32)


def poisoned(*shape):
    return torch.full(shape, -1, dtype=torch.int32, device="cuda").view(torch.float32)


def wrong(out, expected):
    """Elements whose bits differ."""
    return int((out.view(torch.int32) != expected.view(torch.int32)).sum().item())


def window_zeros(src, starts, shape):
    """src[starts : starts + shape] by torch slicing, zeros outside src."""
    out = torch.zeros(shape, dtype=src.dtype, device=src.device)
    dst_index, src_index = [], []
    for start, size, extent in zip(starts, shape, src.shape):
        lo, hi = max(start, 0), min(start + size, extent)
        if hi <= lo:
            return out
        src_index.append(slice(lo, hi))
        dst_index.append(slice(lo - start, hi - start))
    out[tuple(dst_index)] = src[tuple(src_index)]
    return out


def test_tma_tile_torch(record):
    k = kernel("tma_tile_2d")
    src, out = random_f32(256, 512), poisoned(64, 128)
    k(src, out, grid=1, block=128)
    torch.cuda.synchronize()
    record("tma_tile_2d", "tma", "torch", wrong(out, src[64:128, 128:256]), out.numel())


def test_cp_async_sm80_ptx_torch(record):
    k = kernel("cp_async_window")
    assert k.chip == "sm_80" and k.tensor_maps == []
    src, out = random_f32(256, 512), poisoned(32, 128)
    k(src, out, grid=1, block=128)
    torch.cuda.synchronize()
    record("cp_async_window", "cp_async", "torch", wrong(out, src[40:72, 200:328]), out.numel())


def test_multicast_cluster_torch(record):
    k = kernel("tma_mc_x")
    assert k.cluster == (2, 2, 1)
    src, out = random_f32(256, 512), poisoned(16, 64, 128)
    k(src, out, 64, 131, grid=(4, 4), block=128)
    torch.cuda.synchronize()
    expected = window_zeros(src, (64, 131), (64, 128)).expand(16, 64, 128)
    record("tma_mc_x@64,131", "tma", "torch", wrong(out, expected), out.numel())


def test_tma_store_torch(record):
    k = kernel("tma_store")
    src, out = random_f32(64, 128), poisoned(256, 512)
    expected = out.clone()
    expected[64:128, 128:256] = src
    k(src, out, grid=1, block=128)
    torch.cuda.synchronize()
    record("tma_store", "tma", "torch", wrong(out, expected), out.numel())


@pytest.mark.parametrize("starts", [(64, 129), (64, 131), (100, -63), (230, 449), (-10, -64)])
def test_dynamic_start_misaligned_torch(record, starts):
    k = kernel("tma_dyn_2d")
    src, out = random_f32(256, 512), poisoned(64, 128)
    k(src, out, *starts, grid=1, block=128)
    torch.cuda.synchronize()
    name = "tma_dyn_2d@{},{}".format(*starts)
    record(name, "tma", "torch", wrong(out, window_zeros(src, starts, (64, 128))), out.numel())


def test_dynamic_start_store_torch(record):
    k = kernel("tma_store_dyn")
    src, out = random_f32(64, 128), poisoned(256, 512)
    expected = out.clone()
    # The part of the 64x128 window at (230, 450) inside out: 26 rows, 62 columns.
    expected[230:256, 450:512] = src[:26, :62]
    k(src, out, 230, 450, grid=1, block=128)
    torch.cuda.synchronize()
    record("tma_store_dyn@230,450", "tma", "torch", wrong(out, expected), out.numel())


def test_more_than_48k_shared_memory_torch(record):
    k = kernel("bw_tma_128x128")
    assert k.dynamic_shared_memory > 48 * 1024
    src, dst = random_f32(32768, 8192), poisoned(32768, 8192)
    k(src, dst, grid=(8192 // 128, 32768 // 128), block=128)
    torch.cuda.synchronize()
    record("bw_tma_128x128 (66567 B dynamic smem)", "tma", "torch", wrong(dst, src), dst.numel())
    del src, dst


def test_static_plus_dynamic_shared_memory_above_48k_torch(record):
    """Issue 26, defect 2: 14880 static bytes beside the 47712 dynamic bytes of
    the pipelined slots; each fits in 48 KiB, their sum does not, so the launch
    works only if the runtime opts in for the sum."""
    k = kernel("cp_async_pipe_static_smem")
    assert k.dynamic_shared_memory == 47712
    src, out = random_f32(284, 84), poisoned(284, 84)
    k(src, out, grid=1, block=128)
    torch.cuda.synchronize()
    expected = src.clone().view(-1)
    expected[:3720] = src.view(-1)[:3720].flip(0)
    record("cp_async_pipe_static_smem (14880 B static + 47712 B dynamic)", "cp_async", "torch",
           wrong(out.view(-1), expected), out.numel())


def test_dlpack_protocol_torch(record):
    """A torch tensor seen only through __dlpack__/__dlpack_device__."""

    class Only:
        def __init__(self, t):
            self.t = t

        def __dlpack__(self, stream=None):
            return self.t.__dlpack__(stream=stream)

        def __dlpack_device__(self):
            return self.t.__dlpack_device__()

    k = kernel("tma_tile_2d")
    src, out = random_f32(256, 512), poisoned(64, 128)
    k(Only(src), Only(out), grid=1, block=128)
    torch.cuda.synchronize()
    record("tma_tile_2d", "tma", "torch via DLPack", wrong(out, src[64:128, 128:256]), out.numel())


def test_cupy(record):
    cupy = pytest.importorskip("cupy", reason="CuPy is not installed")
    k = kernel("tma_dyn_2d")
    src = cupy.random.randint(-(2**31), 2**31 - 1, (256, 512), dtype=cupy.int64).astype(cupy.int32).view(cupy.float32)
    out = cupy.full((64, 128), -1, dtype=cupy.int32).view(cupy.float32)
    k(src, out, 64, 131, grid=1, block=128)
    cupy.cuda.get_current_stream().synchronize()
    # torch's slicing of the same data.
    expected = window_zeros(torch.from_dlpack(src), (64, 131), (64, 128))
    record("tma_dyn_2d@64,131", "tma", "cupy", wrong(torch.from_dlpack(out), expected), out.size)


def test_jax_inputs(record):
    os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")
    jax = pytest.importorskip("jax", reason="JAX is not installed")
    import numpy as np

    if not any(d.platform == "gpu" for d in jax.devices()):
        pytest.skip("JAX sees no GPU")
    k = kernel("tma_tile_2d")
    bits = np.random.default_rng().integers(-(2**31), 2**31 - 1, (256, 512), dtype=np.int32)
    src = jax.device_put(bits.view(np.float32), jax.devices("gpu")[0])
    src.block_until_ready()
    # JAX arrays are immutable: the output is a torch tensor...
    out = poisoned(64, 128)
    k(src, out, grid=1, block=128)
    torch.cuda.synchronize()
    expected = torch.from_numpy(bits).cuda()[64:128, 128:256]
    record("tma_tile_2d", "tma", "jax (input) + torch (output)", wrong(out, expected), out.numel())
    # ...which JAX reads back through DLPack, with no copy by acopy.
    back = jax.dlpack.from_dlpack(out)
    assert np.array_equal(np.asarray(back).view(np.int32), bits[64:128, 128:256])


def test_stream_cache_and_recovery(record):
    k = kernel("tma_tile_2d")
    src, out = random_f32(256, 512), poisoned(64, 128)
    # A launch the driver refuses (1024 threads is the most a block may have).
    with pytest.raises(acopy.CudaError) as info:
        k(src, out, grid=1, block=2048)
    assert info.value.name == "CUDA_ERROR_INVALID_VALUE"
    assert info.value.call == "cuLaunchKernelEx"
    assert "launching `tma_tile_2d`: cuLaunchKernelEx failed: CUDA_ERROR_INVALID_VALUE" in str(info.value)
    # The process goes on: the same kernel on a stream of its own.
    stream = torch.cuda.Stream()
    before = k.cached_tensor_maps()
    k(src, out, grid=1, block=128, stream=stream)
    stream.synchronize()
    assert k.cached_tensor_maps() == before  # the refused launch had encoded them
    k(src, out, grid=1, block=128, stream=stream.cuda_stream)
    assert k.cached_tensor_maps() == before == 1  # src's map, encoded once
    other_src, other = random_f32(256, 512), poisoned(64, 128)
    k(other_src, other, grid=1, block=128)
    assert k.cached_tensor_maps() == 2  # one new map, for other_src
    torch.cuda.synchronize()
    acopy.synchronize()
    record(
        "tma_tile_2d (after a refused launch, on a stream)", "tma", "torch",
        wrong(out, src[64:128, 128:256]) + wrong(other, other_src[64:128, 128:256]), 2 * out.numel(),
    )


def test_device_fault_is_a_cuda_error_at_synchronize():
    """Run in a process of its own (bench/python-gpu.sh): a fault ends the
    CUDA context, which CUDA does not let a process recover."""
    if os.environ.get("ACOPY_GPU_FAULT_TEST") != "1":
        pytest.skip("set ACOPY_GPU_FAULT_TEST=1 (a fault leaves the process's CUDA context unusable)")
    k = kernel("cp_async_window")
    # A stand-in output at an unmapped address (just above 0): the kernel's
    # plain stores there fault.
    class Wild:
        __cuda_array_interface__ = {"shape": (32, 128), "typestr": "<f4", "data": (256, False), "strides": None, "version": 3}

    k(random_f32(256, 512), Wild(), grid=1, block=128)
    with pytest.raises(acopy.CudaError) as info:
        acopy.synchronize()
    assert info.value.call == "cuCtxSynchronize"
    assert info.value.name.startswith("CUDA_ERROR_")
    print("fault:", info.value)
