#!/usr/bin/env python3
"""Launches an acopy kernel (PTX or a cubin ptxas made from it, plus acopy-opt's
manifest) on device buffers from Python through the CUDA driver (ctypes, libcuda.so.1):
what bench/tc_sweep.py uses to time acopy's kernels in the same process as cuBLAS and
torch SDPA, without the Rust runtime or the PyO3 package.

It follows runtime/src/args.rs and runtime/src/tensor_map.rs (the kernel ABI of
MLIR's gpu-to-nvvm lowering and acopy's manifest, format 2):
- a memref argument is 3 + 2 r `.u64` parameters: allocated pointer, aligned pointer,
  offset, sizes[r], strides[r] (elements, outermost first);
- each tensor map of the manifest is a trailing 128-byte `.param .align 64 .b8 [128]`,
  in `param` order, encoded by cuTensorMapEncodeTiled from the map's box, swizzle, OOB
  fill and element type and the memref's actual address, sizes and strides (every
  array innermost first for the driver);
- the block is the manifest's; dynamic shared memory is the manifest's
  `dynamic_shared_memory`, opted in past 48 KiB with
  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES; a cluster other than 1 x 1 x 1
  launches through cuLaunchKernelEx with CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, and a
  kernel whose entry says `programmatic_launch` (it runs griddepcontrol.wait) with
  CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION, as runtime/src/driver.rs does.
A buffer whose shape or dtype differs from the memref type the kernel was built for is
refused (the kernels are specialized to their shape) before anything is launched.

The pure parts (`ptx_params`, `plan`, `tensor_map_args`, `pack`) need no GPU and are
checked by bench/tc_sweep_test.py against every built module's PTX parameter list.
"""
import ctypes
import json
import re

ELEMENT_BYTES = {'f16': 2, 'bf16': 2, 'f32': 4, 'f64': 8, 'i8': 1, 'i16': 2, 'i32': 4, 'i64': 8,
                 'f8E4M3FN': 1, 'f8E5M2': 1}
# CUtensorMapDataType (cuda.h)
DATA_TYPE = {'f16': 6, 'bf16': 9, 'f32': 7, 'f64': 8, 'i8': 0, 'f8E4M3FN': 0, 'f8E5M2': 0,
             'i16': 1, 'i32': 3, 'i64': 5}
SWIZZLE = {0: 0, 32: 1, 64: 2, 128: 3}
L2_PROMOTION = {'none': 0, 'l2_64b': 1, 'l2_128b': 2, 'l2_256b': 3}
OOB_FILL = {'none': 0, 'nan_request_zero_fma': 1}
CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4
CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION = 6
STATIC_SHARED_LIMIT = 48 * 1024


class LaunchError(RuntimeError):
    pass


def ptx_params(ptx, kernel):
    """The `.param` list of `.entry kernel` in PTX text: [(kind, bytes)], kind 'u64',
    'u32', 'f32', 'u8' or 'b8[N]'."""
    match = re.search(r'\.entry\s+' + re.escape(kernel) + r'\s*\((.*?)\)', ptx, re.S)
    if not match:
        raise LaunchError(f'no .entry {kernel} in the PTX')
    params = []
    for line in match.group(1).split(','):
        line = line.strip()
        if not line:
            continue
        array = re.search(r'\.b8\s+\S+\[(\d+)\]', line)
        if array:
            params.append((f'b8[{array.group(1)}]', int(array.group(1))))
            continue
        kind = re.search(r'\.param\s+\.(u64|s64|b64|u32|s32|b32|f32|u8|b8|u16)', line)
        if not kind:
            raise LaunchError(f'unreadable PTX parameter: {line}')
        size = {'64': 8, '32': 4, '8': 1, '16': 2}[re.sub(r'[a-z]', '', kind.group(1))]
        params.append((kind.group(1), size))
    return params


def plan(entry):
    """What the kernel's parameters hold, from its manifest entry: [(arg, kind, size)] with
    kind 'memref' (3 + 2 r parameters of 8 bytes, one row per parameter), 'scalar' or
    'tensor_map' (128 bytes)."""
    rows = []
    for index, arg in enumerate(entry['args']):
        if arg['kind'] == 'memref':
            if arg['shape'] is None or None in arg['shape']:
                raise LaunchError(f'argument {index}: a dynamic memref ({arg["type"]}); the sweep launches static ones only')
            rows += [(index, 'memref', 8)] * (3 + 2 * len(arg['shape']))
        else:
            size = {'index': 8, 'i64': 8, 'i32': 4, 'f32': 4, 'i1': 1}[arg['type']]
            rows.append((index, 'scalar', size))
    for tmap in sorted(entry['tensor_maps'], key=lambda t: t['param']):
        rows.append((tmap['param'], 'tensor_map', 128))
    return rows


def check_against_ptx(entry, ptx):
    """Raises LaunchError when the manifest's plan and the PTX parameters differ in count
    or in any parameter's size."""
    want = [size for _, _, size in plan(entry)]
    have = [size for _, size in ptx_params(ptx, entry['kernel'])]
    if want != have:
        raise LaunchError(f'{entry["kernel"]}: the manifest packs {len(want)} parameters {want}, the PTX has {len(have)} {have}')


def tensor_map_args(tmap, address, shape, strides):
    """The cuTensorMapEncodeTiled arguments for one manifest tensor map and the memref's
    address, sizes and strides (elements, outermost first), after the checks the
    runtime makes (tensor_map.rs): rank 1..5 and equal to the box's; box dims 1..256;
    innermost stride 1; other strides multiples of 16 bytes below 2^40; address
    16-byte aligned; the box's inner bytes a multiple of 16 and, swizzled, equal to the
    swizzle span. Arrays innermost first."""
    box = tmap['box']
    rank = len(box)
    elem = ELEMENT_BYTES[tmap['element_type']]
    if not 1 <= rank <= 5 or len(shape) != rank or len(strides) != rank:
        raise LaunchError(f'tensor map rank {rank}, memref rank {len(shape)}')
    if any(not 1 <= b <= 256 for b in box):
        raise LaunchError(f'box {box}: every dimension 1..256')
    if any(not 1 <= s <= 1 << 32 for s in shape):
        raise LaunchError(f'global dims {list(shape)}: every dimension 1..2^32')
    if strides[-1] != 1:
        raise LaunchError(f'innermost stride {strides[-1]}: must be 1')
    byte_strides = [s * elem for s in strides[:-1]]
    for s in byte_strides:
        if s % 16 or s >= 1 << 40:
            raise LaunchError(f'byte stride {s}: a multiple of 16 below 2^40 (TMA)')
    if address % 16:
        raise LaunchError(f'address {address:#x}: TMA needs 16-byte alignment')
    inner = box[-1] * elem
    if inner % 16:
        raise LaunchError(f'box inner bytes {inner}: a multiple of 16')
    if tmap['swizzle'] and inner != tmap['swizzle']:
        raise LaunchError(f'box inner bytes {inner} with swizzle {tmap["swizzle"]}: must be equal')
    return dict(data_type=DATA_TYPE[tmap['element_type']], rank=rank, address=address,
                dims=list(reversed([int(s) for s in shape])), strides=list(reversed(byte_strides)),
                box=list(reversed(box)), element_strides=[1] * rank, interleave=0,
                swizzle=SWIZZLE[tmap['swizzle']], l2=L2_PROMOTION[tmap.get('l2_promotion', 'none')],
                oob=OOB_FILL[tmap['oob_fill']])


class Buffer:
    """A device buffer as the launcher sees it: address, shape, strides (elements) and
    element type (MLIR spelling)."""

    def __init__(self, address, shape, strides, element):
        self.address, self.shape, self.strides, self.element = int(address), list(shape), list(strides), element

    @staticmethod
    def of_torch(tensor):
        import torch
        element = {torch.bfloat16: 'bf16', torch.float16: 'f16', torch.float32: 'f32',
                   torch.int32: 'i32', torch.int64: 'i64', torch.int8: 'i8'}[tensor.dtype]
        return Buffer(tensor.data_ptr(), tensor.shape, tensor.stride(), element)


def check_buffers(entry, buffers):
    """Raises LaunchError when a buffer is not the memref type the kernel was built for."""
    args = entry['args']
    if len(buffers) != len(args):
        raise LaunchError(f'{entry["kernel"]}: {len(args)} arguments, {len(buffers)} given')
    for index, (arg, buf) in enumerate(zip(args, buffers)):
        if arg['kind'] != 'memref':
            continue
        if list(arg['shape']) != list(buf.shape) or arg['element'] != buf.element:
            raise LaunchError(f'{entry["kernel"]} argument {index}: built for {arg["type"]}, '
                              f'given {"x".join(map(str, buf.shape))}x{buf.element}')
        if arg['strides'] is not None and list(arg['strides']) != list(buf.strides):
            raise LaunchError(f'{entry["kernel"]} argument {index}: strides {list(buf.strides)}, built for {arg["strides"]}')


def pack(entry, buffers, encode):
    """The kernel's parameter bytes, one bytes object per PTX parameter, for `buffers`
    (one per gpu.func argument; scalars as Python numbers); `encode(**tensor_map_args)`
    returns a tensor map's 128 bytes."""
    check_buffers(entry, buffers)
    out = []
    for arg, buf in zip(entry['args'], buffers):
        if arg['kind'] == 'memref':
            values = [buf.address, buf.address, 0] + list(buf.shape) + list(buf.strides)
            out += [int(v).to_bytes(8, 'little', signed=True) for v in values]
        else:
            t = arg['type']
            if t in ('index', 'i64'):
                out.append(int(buf).to_bytes(8, 'little', signed=True))
            elif t == 'i32':
                out.append(int(buf).to_bytes(4, 'little', signed=True))
            elif t == 'f32':
                out.append(bytes(ctypes.c_float(float(buf))))
            else:
                out.append(bytes([1 if buf else 0]))
    for tmap in sorted(entry['tensor_maps'], key=lambda t: t['param']):
        buf = buffers[tmap['arg']]
        data = encode(**tensor_map_args(tmap, buf.address, buf.shape, buf.strides))
        assert len(data) == 128
        out.append(data)
    return out


# ---------------------------------------------------------------- the driver (GPU only)

class _LaunchAttribute(ctypes.Structure):
    _fields_ = [('id', ctypes.c_uint), ('pad', ctypes.c_char * 4), ('value', ctypes.c_ubyte * 64)]


class _LaunchConfig(ctypes.Structure):
    _fields_ = [('gridDimX', ctypes.c_uint), ('gridDimY', ctypes.c_uint), ('gridDimZ', ctypes.c_uint),
                ('blockDimX', ctypes.c_uint), ('blockDimY', ctypes.c_uint), ('blockDimZ', ctypes.c_uint),
                ('sharedMemBytes', ctypes.c_uint), ('hStream', ctypes.c_void_p),
                ('attrs', ctypes.POINTER(_LaunchAttribute)), ('numAttrs', ctypes.c_uint)]


class Driver:
    """libcuda.so.1 through ctypes, on the current context (torch's primary context;
    retained and made current if the thread has none)."""

    def __init__(self):
        self.lib = ctypes.CDLL('libcuda.so.1')
        self.check('cuInit', self.lib.cuInit(0))
        ctx = ctypes.c_void_p()
        self.check('cuCtxGetCurrent', self.lib.cuCtxGetCurrent(ctypes.byref(ctx)))
        if not ctx.value:
            dev = ctypes.c_int()
            self.check('cuDeviceGet', self.lib.cuDeviceGet(ctypes.byref(dev), 0))
            self.check('cuDevicePrimaryCtxRetain', self.lib.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev))
            self.check('cuCtxSetCurrent', self.lib.cuCtxSetCurrent(ctx))
        self.lib.cuTensorMapEncodeTiled.argtypes = [
            ctypes.c_void_p, ctypes.c_int, ctypes.c_uint, ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint64),
            ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ctypes.c_uint32), ctypes.POINTER(ctypes.c_uint32),
            ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int]
        self.lib.cuLaunchKernel.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 7 + [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        self.lib.cuLaunchKernelEx.argtypes = [ctypes.POINTER(_LaunchConfig), ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]

    def error_name(self, code):
        name = ctypes.c_char_p()
        self.lib.cuGetErrorName(code, ctypes.byref(name))
        return (name.value or b'?').decode()

    def check(self, what, code):
        if code != 0:
            raise LaunchError(f'{what}: {self.error_name(code)} ({code})')

    def encode(self, data_type, rank, address, dims, strides, box, element_strides, interleave, swizzle, l2, oob):
        storage = (ctypes.c_ubyte * 256)()
        base = (ctypes.addressof(storage) + 127) // 128 * 128   # CUtensorMap is 64-byte (CUDA 13: 128) aligned
        u64 = ctypes.c_uint64 * 5
        u32 = ctypes.c_uint32 * 5
        self.check('cuTensorMapEncodeTiled', self.lib.cuTensorMapEncodeTiled(
            ctypes.c_void_p(base), data_type, rank, ctypes.c_void_p(address), u64(*dims), u64(*(strides or [0])),
            u32(*box), u32(*element_strides), interleave, swizzle, l2, oob))
        return ctypes.string_at(base, 128)


class Kernel:
    """One kernel of a built module: `Kernel(driver, entry, image)` with `image` the cubin's
    bytes or the PTX text; `bind(buffers, grid)` returns a launch of prepacked
    parameters; `launch(stream)` enqueues it."""

    def __init__(self, driver, entry, image):
        self.driver, self.entry = driver, entry
        lib = driver.lib
        data = image if isinstance(image, bytes) else image.encode() + b'\0'
        self._image = ctypes.create_string_buffer(data, len(data))
        self.module = ctypes.c_void_p()
        driver.check('cuModuleLoadData', lib.cuModuleLoadData(ctypes.byref(self.module), self._image))
        self.func = ctypes.c_void_p()
        driver.check('cuModuleGetFunction', lib.cuModuleGetFunction(ctypes.byref(self.func), self.module, entry['kernel'].encode()))
        self.block = list(entry['block'] or [128, 1, 1])
        self.dynamic = int(entry.get('dynamic_shared_memory') or 0)
        self.cluster = list(entry.get('cluster') or [1, 1, 1])
        self.programmatic = bool(entry.get('programmatic_launch'))
        if self.dynamic + int(entry.get('static_shared_memory') or 0) > STATIC_SHARED_LIMIT:
            driver.check('cuFuncSetAttribute', lib.cuFuncSetAttribute(
                self.func, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, self.dynamic))

    def bind(self, buffers, grid):
        return Launch(self, pack(self.entry, buffers, self.driver.encode), grid)

    def unload(self):
        if self.module.value:
            self.driver.lib.cuModuleUnload(self.module)
            self.module = ctypes.c_void_p()


def launch_attributes(cluster, programmatic):
    """The cuLaunchKernelEx attributes of a launch (an array, empty for a plain launch):
    the cluster shape when it is not 1 x 1 x 1, programmatic stream serialization when
    the kernel waits for the one before it."""
    attrs = []
    if list(cluster) != [1, 1, 1]:
        attr = _LaunchAttribute(id=CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
        ctypes.memmove(ctypes.addressof(attr.value), (ctypes.c_uint * 3)(*cluster), 12)
        attrs.append(attr)
    if programmatic:
        attr = _LaunchAttribute(id=CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION)
        ctypes.memmove(ctypes.addressof(attr.value), (ctypes.c_int * 1)(1), 4)
        attrs.append(attr)
    return (_LaunchAttribute * len(attrs))(*attrs) if attrs else None


class Launch:
    def __init__(self, kernel, params, grid):
        self.kernel = kernel
        grid = list(grid) + [1] * (3 - len(grid))
        c = kernel.cluster
        if c != [1, 1, 1] and any(g % d for g, d in zip(grid, c)):
            raise LaunchError(f'grid {grid} is not whole clusters of {c}')
        self.grid = grid
        n = len(params)
        self._slots = (ctypes.c_ubyte * (128 * n + 128))()
        base = (ctypes.addressof(self._slots) + 127) // 128 * 128
        for i, data in enumerate(params):
            ctypes.memmove(base + 128 * i, data, len(data))
        self._ptrs = (ctypes.c_void_p * max(n, 1))(*[base + 128 * i for i in range(n)])
        self._params = ctypes.c_void_p(ctypes.addressof(self._ptrs))
        self._attrs = launch_attributes(c, kernel.programmatic)

    def __call__(self, stream=0):
        k, lib = self.kernel, self.kernel.driver.lib
        g, b = self.grid, k.block
        if not self._attrs:
            code = lib.cuLaunchKernel(k.func, g[0], g[1], g[2], b[0], b[1], b[2], k.dynamic,
                                      ctypes.c_void_p(stream), self._params, None)
        else:
            config = _LaunchConfig(g[0], g[1], g[2], b[0], b[1], b[2], k.dynamic, ctypes.c_void_p(stream),
                                   ctypes.cast(self._attrs, ctypes.POINTER(_LaunchAttribute)), len(self._attrs))
            code = lib.cuLaunchKernelEx(ctypes.byref(config), k.func, self._params, None)
        if code:
            k.driver.check('cuLaunchKernel', code)


def load_entry(manifest_path, kernel=None):
    with open(manifest_path) as f:
        kernels = json.load(f)['kernels']
    if kernel is None:
        return kernels[0]
    for entry in kernels:
        if entry['kernel'] == kernel:
            return entry
    raise LaunchError(f'no kernel {kernel} in {manifest_path}')
