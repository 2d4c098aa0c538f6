"""The launch API where no GPU is needed: every check that comes before the
driver, with stand-in arrays (the CUDA array interface and a DLPack capsule
built with ctypes), and the "no CUDA driver" error. The GPU side is
python/tests/gpu/."""

import ctypes
import ctypes.util
import dataclasses
from pathlib import Path

import pytest

import acopy

ROOT = Path(__file__).resolve().parents[2]
KERNELS = ROOT / "tests" / "gpu" / "kernels"


def kernel_of(name):
    return acopy.compile((KERNELS / f"{name}.mlir").read_text()).kernel(name)


def has_driver():
    for name in ("libcuda.so.1", "libcuda.so"):
        try:
            ctypes.CDLL(name)
            return True
        except OSError:
            pass
    return False


NO_DRIVER = pytest.mark.skipif(
    has_driver(), reason="a CUDA driver is installed: the stand-in arrays' fake pointers must not reach a GPU"
)


class Interface:
    """A stand-in array: ``__cuda_array_interface__`` only (version 3)."""

    def __init__(self, shape, typestr="<f4", strides=None, ptr=0x7F0000000000, stream=None):
        self.__cuda_array_interface__ = {
            "shape": tuple(shape),
            "typestr": typestr,
            "data": (ptr, False),
            "strides": strides,
            "version": 3,
            "stream": stream,
        }


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p)]


_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


class DLPackArray:
    """A stand-in array: ``__dlpack__``/``__dlpack_device__`` only, with a
    real "dltensor" capsule; it records the stream each call asked for."""

    def __init__(self, shape, code=2, bits=32, strides=None, device=(2, 0), ptr=0x7F0000000000, byte_offset=0):
        self.device = device
        self.shape = (ctypes.c_int64 * len(shape))(*shape)
        self.strides = (ctypes.c_int64 * len(shape))(*strides) if strides else None
        self.managed = DLManagedTensor()
        t = self.managed.dl_tensor
        t.data = ptr
        t.device = DLDevice(*device)
        t.ndim = len(shape)
        t.dtype = DLDataType(code, bits, 1)
        t.shape = self.shape
        t.strides = self.strides
        t.byte_offset = byte_offset
        self.streams = []

    def __dlpack_device__(self):
        return self.device

    def __dlpack__(self, stream=None):
        self.streams.append(stream)
        return _capsule_new(ctypes.addressof(self.managed), b"dltensor", None)


def launch_error(kernel, *args, **kwargs):
    kwargs.setdefault("grid", 1)
    kwargs.setdefault("block", 128)
    with pytest.raises(Exception) as info:
        kernel(*args, **kwargs)
    return info


# -- finding kernels ---------------------------------------------------------


def test_kernel_names_its_signature_from_the_source():
    k = kernel_of("tma_dyn_2d")
    assert (k.name, k.module, k.chip) == ("tma_dyn_2d", "tma_dyn_2d", "sm_90")
    assert k.arg_names == ("src", "out", "s0", "s1")
    assert k.arg_types == ("memref<256x512xf32>", "memref<64x128xf32>", "index", "index")
    assert [(m["param"], m["arg"]) for m in k.tensor_maps] == [(4, 0)]
    assert (k.cluster, k.block, k.dynamic_shared_memory) == ((1, 1, 1), None, 0)
    assert "tma_dyn_2d(%src: memref<256x512xf32>" in repr(k)


def test_unknown_kernel_is_a_key_error_listing_the_kernels():
    compiled = acopy.compile((KERNELS / "tma_tile_2d.mlir").read_text())
    with pytest.raises(KeyError) as info:
        compiled.kernel("tma_tile")
    assert "no kernel 'tma_tile' in the compiled modules; the kernels are: tma_tile_2d.tma_tile_2d" in str(info.value)
    assert compiled.kernel("tma_tile_2d.tma_tile_2d").name == "tma_tile_2d"


def test_a_kernel_without_an_entry_for_its_outputs_chip_is_a_key_error():
    # The compiler gives every output its chip's entries; a Compiled whose
    # output lacks one (built by hand here) names what is missing.
    compiled = acopy.compile((KERNELS / "tma_tile_2d.mlir").read_text())
    [output] = compiled.outputs
    bare = dataclasses.replace(output, manifest={"version": 2, "kernels": []})
    broken = dataclasses.replace(compiled, outputs=[bare])
    with pytest.raises(KeyError, match="kernel 'tma_tile_2d' has no manifest entry for sm_90"):
        broken.kernel("tma_tile_2d")


def test_kernel_needs_ptx():
    compiled = acopy.compile((KERNELS / "tma_tile_2d.mlir").read_text(), emit="llvm")
    with pytest.raises(ValueError, match="needs emit=\"ptx\""):
        compiled.kernel("tma_tile_2d")


def test_cluster_and_block_come_from_the_kernel():
    assert kernel_of("tma_mc_x").cluster == (2, 2, 1)
    # cp_async_window states gpu.known_block_size = 128x1x1.
    assert kernel_of("cp_async_window").block == (128, 1, 1)


def test_dynamic_shared_memory_is_the_furthest_view():
    # bw_tma_128x128 rounds its base up to 1024 bytes (a pad of at most 1023),
    # then views a 128x128xf32 tile (65536 bytes) and an 8-byte mbarrier after it.
    assert kernel_of("bw_tma_128x128").dynamic_shared_memory == 1023 + 65536 + 8
    assert kernel_of("bw_cp_async_128x128").dynamic_shared_memory == 128 * 128 * 4


PIPELINED_96K = """\
gpu.module @m [#nvvm.target<chip = "CHIP">] {
  gpu.func @k(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<64x128xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c64 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<64x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<64x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64}}
    gpu.return
  }
}
"""


def test_pipelined_slots_in_dynamic_shared_memory_give_their_size():
    # 3 slots of a 32 KiB tile: 96 KiB, beyond static shared memory, so the slots
    # move to dynamic shared memory and the manifest records the bytes (on TMA with
    # 128 - 16 bytes to round the base up to 128); no shared_memory= is needed.
    for chip, bytes in (("sm_80", 3 * 32768), ("sm_90", 3 * 32768 + 112)):
        compiled = acopy.compile(PIPELINED_96K.replace("CHIP", chip))
        entry = compiled.outputs[0].manifest["kernels"][0]
        assert entry["dynamic_shared_memory"] == bytes
        assert compiled.kernel("k").dynamic_shared_memory == bytes
        assert ".extern .shared .align 16 .b8 __dynamic_shmem__0[];" in compiled.ptx["m"]


UNBOUNDED_SMEM = """\
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%out: memref<16xf32>, %at: index) kernel {
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %v = memref.view %dyn[%at][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16xf32, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %x = memref.load %v[%c0] : memref<16xf32, #gpu.address_space<workgroup>>
    memref.store %x, %out[%c0] : memref<16xf32>
    gpu.return
  }
}
"""


def test_unbounded_dynamic_shared_memory_asks_for_shared_memory():
    k = acopy.compile(UNBOUNDED_SMEM).kernel("k")
    assert k.dynamic_shared_memory is None
    info = launch_error(k, Interface((16,)), 0)
    assert info.type is ValueError
    assert str(info.value) == (
        "kernel `k` uses gpu.dynamic_shared_memory in a way whose size acopy cannot bound; pass shared_memory=BYTES"
    )


F64_SCALAR = """\
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%out: memref<16xf64>, %x: f64) kernel {
    %c0 = arith.constant 0 : index
    memref.store %x, %out[%c0] : memref<16xf64>
    gpu.return
  }
}
"""


def test_a_scalar_python_cannot_pass_is_refused_at_kernel():
    with pytest.raises(TypeError) as info:
        acopy.compile(F64_SCALAR).kernel("k")
    assert str(info.value) == (
        "kernel `k` cannot be launched from Python: argument 'x' (1): f64 is not one of the "
        "scalar types acopy passes (index, i64, i32, f32, i1)"
    )


# -- argument checks -----------------------------------------------------------


def test_missing_argument_is_a_type_error_naming_it():
    info = launch_error(kernel_of("tma_dyn_2d"), Interface((256, 512)), Interface((64, 128)), 1)
    assert info.type is TypeError
    assert str(info.value) == "kernel `tma_dyn_2d` takes 4 arguments (src, out, s0, s1), got 3: missing 's1'"


def test_too_many_arguments():
    info = launch_error(kernel_of("tma_tile_2d"), Interface((256, 512)), Interface((64, 128)), 3)
    assert info.type is TypeError
    assert str(info.value).endswith("got 3: 1 too many")


def test_wrong_rank_is_a_value_error():
    info = launch_error(kernel_of("tma_tile_2d"), Interface((256 * 512,)), Interface((64, 128)))
    assert info.type is ValueError
    assert str(info.value) == (
        "argument 'src' (0, memref<256x512xf32>): expected rank 2 (shape (256, 512)), got rank 1 (shape (131072,))"
    )


def test_wrong_static_size_is_a_value_error():
    info = launch_error(kernel_of("tma_tile_2d"), Interface((256, 512)), Interface((64, 64)))
    assert info.type is ValueError
    assert str(info.value) == "argument 'out' (1, memref<64x128xf32>): expected shape (64, 128), got (64, 64)"


def test_wrong_dtype_is_a_type_error():
    info = launch_error(kernel_of("tma_tile_2d"), Interface((256, 512), typestr="<f2"), Interface((64, 128)))
    assert info.type is TypeError
    assert str(info.value) == "argument 'src' (0, memref<256x512xf32>): expected dtype float32, got float16"


def test_signless_integers_take_int_or_uint():
    k = kernel_of("cp_async_i8")
    info = launch_error(k, Interface((128, 256), typestr="<f1"), Interface((32, 128), typestr="|i1"))
    assert info.type is TypeError
    assert "expected dtype int8 or uint8" in str(info.value)


def test_not_an_array():
    info = launch_error(kernel_of("tma_tile_2d"), [1, 2], Interface((64, 128)))
    assert info.type is TypeError
    assert str(info.value) == (
        "argument 'src' (0, memref<256x512xf32>): expected an array (DLPack __dlpack__ or "
        "__cuda_array_interface__), got list"
    )


def test_non_contiguous_array_for_an_identity_layout():
    # A transposed view of a 512x256 array: strides (1, 256).
    info = launch_error(kernel_of("tma_tile_2d"), Interface((256, 512), strides=(4, 1024)), Interface((64, 128)))
    assert info.type is ValueError
    assert str(info.value) == (
        "argument 'src' (0, memref<256x512xf32>): expected a row-major contiguous array "
        "(strides (512, 1) in elements), got strides (1, 256)"
    )


STRIDED_TMA = """\
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<?x?xf32, strided<[?, ?]>>, %s0: index, %s1: index)
      workgroup(%tile: memref<64x128xf32, 3>, %bar: memref<1xi64, 3>) kernel {
    %parity = arith.constant false
    "acopy.barrier_init"(%bar) {arrival_count = 1 : i64} : (memref<1xi64, 3>) -> ()
    "acopy.copy_gmem_to_smem"(%src, %tile, %s0, %s1, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<?x?xf32, strided<[?, ?]>>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    "acopy.barrier_wait"(%bar, %parity) : (memref<1xi64, 3>, i1) -> ()
    gpu.return
  }
}
"""


def test_tma_source_needs_unit_innermost_stride():
    k = acopy.compile(STRIDED_TMA).kernel("k")
    info = launch_error(k, Interface((256, 512), strides=(4, 1024)), 0, 0)
    assert info.type is ValueError
    assert str(info.value) == (
        "tensor map 0 (parameter 3) of argument 'src' (0): the innermost stride is 256 elements; "
        "TMA needs a contiguous innermost dimension (stride 1)"
    )


def test_tma_source_byte_strides_must_be_multiples_of_16():
    k = acopy.compile(STRIDED_TMA).kernel("k")
    # Rows of 513 floats: 2052 bytes.
    info = launch_error(k, Interface((256, 512), strides=(2052, 4)), 0, 0)
    assert info.type is ValueError
    assert "stride of dimension 0 is 2052 bytes; it must be a multiple of 16" in str(info.value)


def test_static_strides_of_the_type_are_checked():
    source = STRIDED_TMA.replace("strided<[?, ?]>", "strided<[1024, 1]>").replace("?x?xf32", "256x512xf32")
    k = acopy.compile(source).kernel("k")
    info = launch_error(k, Interface((256, 512)), 0, 0)
    assert info.type is ValueError
    assert str(info.value) == (
        "argument 'src' (0, memref<256x512xf32, strided<[1024, 1]>>): expected strides (1024, 1) in elements, got (512, 1)"
    )


def test_cpu_array_is_refused():
    info = launch_error(kernel_of("tma_tile_2d"), DLPackArray((256, 512), device=(1, 0)), Interface((64, 128)))
    assert info.type is ValueError
    assert str(info.value) == (
        "argument 'src' (0, memref<256x512xf32>): expected an array in CUDA device memory, got one on cpu"
    )


def test_dlpack_capsule_is_read():
    # Wrong dtype through DLPack: bfloat16 (code 4) where f32 is expected.
    src = DLPackArray((256, 512), code=4, bits=16)
    info = launch_error(kernel_of("tma_tile_2d"), src, Interface((64, 128)))
    assert info.type is TypeError
    assert str(info.value).endswith("expected dtype float32, got bfloat16")
    # The consumer's stream: 1 (the legacy default stream) when none is given.
    assert src.streams == [1]
    # Strides from the capsule, in elements.
    src = DLPackArray((256, 512), strides=(1, 256))
    info = launch_error(kernel_of("tma_tile_2d"), src, Interface((64, 128)), stream=7)
    assert "got strides (1, 256)" in str(info.value)
    assert src.streams == [7]


def test_arrays_on_two_devices():
    info = launch_error(kernel_of("tma_tile_2d"), DLPackArray((256, 512), device=(2, 1)), DLPackArray((64, 128)))
    assert info.type is ValueError
    assert str(info.value) == (
        "argument 'out' (1) is on cuda:0, but argument 'src' (0) is on cuda:1; a kernel runs on one device"
    )


def test_scalars_are_typed_from_the_signature():
    k = kernel_of("tma_pred_dyn")  # (src, out, s0: index, s1: index, pred: i1)
    arrays = (Interface((256, 512)), Interface((64, 128)))
    info = launch_error(k, *arrays, 1.0, 2, True)
    assert (info.type, str(info.value)) == (TypeError, "argument 's0' (2, index): expected an int, got float")
    info = launch_error(k, *arrays, 1, 2**63, True)
    assert (info.type, str(info.value)) == (ValueError, f"argument 's1' (3, index): {2**63} does not fit in 64 bits")
    info = launch_error(k, *arrays, 1, 2, 2)
    assert info.type is ValueError
    assert str(info.value) == "argument 'pred' (4, i1): 2 is outside the range of i1 (0..=1)"


def test_launch_shape_checks():
    k = kernel_of("tma_mc_x")  # 2x2x1 clusters
    arrays = (Interface((256, 512)), Interface((16, 64, 128)))
    info = launch_error(k, *arrays, 64, 128, grid=(3, 4), block=128)
    assert info.type is ValueError
    assert str(info.value) == (
        "kernel `tma_mc_x` runs in clusters of [2, 2, 1] (nvvm.cluster_dim): grid [3, 4, 1] is not a multiple of cluster [2, 2, 1]"
    )
    info = launch_error(kernel_of("cp_async_window"), Interface((256, 512)), Interface((32, 128)), block=64)
    assert info.type is ValueError
    assert str(info.value) == (
        "kernel `cp_async_window` was compiled for block [128, 1, 1] (known_block_size), got block [64, 1, 1]"
    )
    for bad, error in [((0,), ValueError), ((1, 2, 3, 4), TypeError), ("x", TypeError)]:
        with pytest.raises(error):
            k(*arrays, 0, 0, grid=bad, block=128)
    with pytest.raises(TypeError, match="stream= must be"):
        k(*arrays, 0, 0, grid=(2, 2), block=128, stream="default")


@NO_DRIVER
def test_without_a_driver_only_the_launch_fails():
    k = kernel_of("tma_tile_2d")
    with pytest.raises(acopy.CudaError) as info:
        k(Interface((256, 512)), Interface((64, 128)), grid=1, block=128)
    assert str(info.value).startswith("no CUDA driver: the CUDA driver library could not be loaded (tried ")
    assert (info.value.name, info.value.code, info.value.call) == (None, None, None)
    assert isinstance(info.value, RuntimeError)
    with pytest.raises(acopy.CudaError, match="^no CUDA driver: "):
        acopy.synchronize()
    # The argument checks still come first.
    with pytest.raises(ValueError):
        k(Interface((256, 512)), Interface((64, 64)), grid=1, block=128)


class DLPackVersion(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32)]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [
        ("version", DLPackVersion),
        ("manager_ctx", ctypes.c_void_p),
        ("deleter", ctypes.c_void_p),
        ("flags", ctypes.c_uint64),
        ("dl_tensor", DLTensor),
    ]


def test_dlpack_capsules_versioned_and_bad():
    shape = (ctypes.c_int64 * 2)(256, 512)
    managed = DLManagedTensorVersioned()
    managed.version = DLPackVersion(1, 0)
    t = managed.dl_tensor
    t.data, t.device, t.ndim, t.dtype, t.shape = 0x7F0000000000, DLDevice(2, 3), 2, DLDataType(2, 32, 1), shape
    t.byte_offset = 64
    capsule = _capsule_new(ctypes.addressof(managed), b"dltensor_versioned", None)
    assert acopy._native.dlpack_facts(capsule) == (0x7F0000000000 + 64, [256, 512], None, 2, 32, 2, 3)
    with pytest.raises(TypeError, match=r"did not return a DLPack capsule"):
        acopy._native.dlpack_facts(object())
    array = DLPackArray((256, 512))
    array.managed.dl_tensor.dtype = DLDataType(2, 32, 4)
    info = launch_error(kernel_of("tma_tile_2d"), array, Interface((64, 128)))
    assert info.type is TypeError
    assert str(info.value) == "a DLPack array with 4 lanes per element; acopy takes plain elements"


WARP_SPECIALIZED = """
gpu.module @ws [#nvvm.target<chip = "sm_90">] {
  gpu.func @ws(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<8x128xf32, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c8 : index
      acopy.copy_gmem_to_smem %src[%row, %c0] -> %tile {oob_mode = "promise_in_bounds"} : memref<4096x128xf32> -> memref<8x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}
      %v = memref.load %tile[%c0, %tid] : memref<8x128xf32, 3>
      memref.store %v, %out[%row, %tid] : memref<4096x128xf32>
    } {acopy.pipeline = {stages = 3 : i64, producer = "warp"}}
    gpu.return
  }
}
"""


def test_a_producer_warp_grows_the_block_and_a_launch_may_leave_it_out():
    compiled = acopy.compile(WARP_SPECIALIZED)
    (loop,) = compiled.pipelined_loops
    assert (loop.stages, loop.producer_block) == (3, 160)
    k = compiled.kernel("ws")
    assert k.block == (160, 1, 1)
    arrays = (Interface((4096, 128)), Interface((4096, 128)))
    # The 128 threads the source declared are not the kernel's block any more.
    info = launch_error(k, *arrays, 4, block=128)
    assert str(info.value) == "kernel `ws` was compiled for block [160, 1, 1] (known_block_size), got block [128, 1, 1]"


def test_a_launch_without_block_needs_a_declared_one():
    k = kernel_of("tma_dyn_2d")  # declares no block size
    info = launch_error(k, Interface((256, 512)), Interface((64, 128)), 0, 0, block=None)
    assert (info.type, str(info.value)) == (
        ValueError,
        "kernel `tma_dyn_2d` declares no block size (known_block_size or nvvm.reqntid): pass block=",
    )

