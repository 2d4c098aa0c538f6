#!/usr/bin/env python3
"""How many clusters of 2, 4, 8 and 16 blocks of one built GEMM kernel the card runs at
once (the driver's cuOccupancyMaxActiveClusters for the kernel's block, shared memory and
registers): what a split-K whose K ranges are a cluster (examples/gemm/gen.py
--split-reduce=dsmem) can put on the chip in one wave. Each cluster size is also
multiplied out to blocks, against the SM count.

Usage (on the GPU machine; the build made here with bench/tc_sweep_build.py):
  python3 bench/experiments/max_active_clusters.py --builds target/tcc4 \
      --build t128_ws_sk_ob16 --shape 512x512x16384
Outside a GPU machine it prints SKIPPED and the reason, and exits 0.
"""
import argparse
import ctypes
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tc_launch  # noqa: E402

CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED = 16
CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--builds', required=True)
    parser.add_argument('--build', required=True)
    parser.add_argument('--shape', required=True, help='MxNxK')
    args = parser.parse_args()
    m, n, k = (int(v) for v in args.shape.split('x'))
    try:
        import tc_sweep
        gpu = tc_sweep.Gpu()
    except (OSError, ImportError, RuntimeError, AssertionError, tc_launch.LaunchError) as error:
        print(f'SKIPPED: no GPU here ({error})')
        return 0
    with open(os.path.join(args.builds, 'index.json')) as f:
        index = json.load(f)
    row = next((r for r in index['gemm'] if r['build'] == args.build and r['shape'] == [m, n, k] and r['ok']), None)
    if row is None:
        sys.exit(f'max_active_clusters.py: error: no built {args.build} at {args.shape} in {args.builds}')
    kernel, _ = gpu.kernel(args.builds, row)
    if kernel.cluster != [1, 1, 1]:
        sys.exit('max_active_clusters.py: error: the kernel fixes its cluster; name a build without one')
    lib = gpu.driver.lib
    sms, dev = ctypes.c_int(), ctypes.c_int()
    gpu.driver.check('cuCtxGetDevice', lib.cuCtxGetDevice(ctypes.byref(dev)))
    gpu.driver.check('cuDeviceGetAttribute', lib.cuDeviceGetAttribute(
        ctypes.byref(sms), CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev))
    gpu.driver.check('cuFuncSetAttribute', lib.cuFuncSetAttribute(
        kernel.func, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1))
    result = {'build': args.build, 'shape': [m, n, k], 'sms': sms.value, 'block': kernel.block,
              'dynamic_shared_memory': kernel.dynamic, 'clusters': {}}
    for size in (1, 2, 4, 8, 16):
        attr = tc_launch._LaunchAttribute(id=tc_launch.CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
        ctypes.memmove(ctypes.addressof(attr.value), (ctypes.c_uint * 3)(size, 1, 1), 12)
        b = kernel.block
        config = tc_launch._LaunchConfig(size * 16, 1, 1, b[0], b[1], b[2], kernel.dynamic, None,
                                         ctypes.pointer(attr), 1)
        count = ctypes.c_int()
        code = lib.cuOccupancyMaxActiveClusters(ctypes.byref(count), kernel.func, ctypes.byref(config))
        result['clusters'][size] = count.value if code == 0 else gpu.driver.error_name(code)
        blocks = count.value * size if code == 0 else None
        print(f'cluster {size:2d}: {result["clusters"][size]} active at once = {blocks} blocks of {sms.value} SMs')
    print(json.dumps(result))
    return 0


if __name__ == '__main__':
    sys.exit(main())
