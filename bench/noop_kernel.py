"""The no-op kernel the launch-overhead measurements launch (bench/launch_overhead.py,
bench/frontends_gpu.py): thread 0 copies one element, so a launch costs the host's work
and almost nothing on the GPU."""

NOOP = """\
gpu.module @noop [#nvvm.target<chip = "sm_90">] {
  gpu.func @noop(%src: memref<1024xf32>, %out: memref<1024xf32>, %n: index) kernel {
    %c0 = arith.constant 0 : index
    %tid = gpu.thread_id x
    %first = arith.cmpi eq, %tid, %c0 : index
    scf.if %first {
      %v = memref.load %src[%n] : memref<1024xf32>
      memref.store %v, %out[%n] : memref<1024xf32>
    }
    gpu.return
  }
}
"""
