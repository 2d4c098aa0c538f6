// A streaming tile copy for sm_80 (Ampere), with acopy's cp.async lowering.
//
// Each block copies one 64x128 f32 tile: global -> shared with
// acopy.copy_gmem_to_smem (all 256 threads share the cp.asyncs), waits for it
// with acopy.wait_gmem_to_smem, then writes shared -> global with plain
// memref loads and stores.
//
// Launch: grid (4096 / 128, 4096 / 64, 1) = (32, 64, 1), block (32, 8, 1).
// Kernel ABI (docs/kernel-abi.md): each memref<4096x4096xf32> argument is 7
// parameters: allocated pointer, aligned pointer, offset, 2 sizes, 2 strides.
//
//   acopy-opt examples/tile_copy_sm80.mlir --acopy-lower              # NVVM
//   acopy-opt examples/tile_copy_sm80.mlir --acopy-lower --emit=ptx   # PTX
module attributes {gpu.container_module} {
  gpu.module @tile_copy [#nvvm.target<chip = "sm_80">] {
    gpu.func @tile_copy(%src: memref<4096x4096xf32>, %dst: memref<4096x4096xf32>)
        workgroup(%tile : memref<64x128xf32, 3>) kernel
        attributes {gpu.known_block_size = array<i32: 32, 8, 1>} {
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %row = arith.muli %by, %c64 : index
      %col = arith.muli %bx, %c128 : index

      // global -> shared: one commit group, then wait for it.
      acopy.copy_gmem_to_smem %src[%row, %col] -> %tile
          {oob_mode = "promise_in_bounds"}
          : memref<4096x4096xf32> -> memref<64x128xf32, 3>
      acopy.wait_gmem_to_smem {pending = 0 : i64}

      // shared -> global: thread (x, y) writes rows y, y+8, ... and columns
      // x, x+32, ..., so each warp stores 32 consecutive floats.
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      scf.for %r = %ty to %c64 step %c8 {
        scf.for %c = %tx to %c128 step %c32 {
          %v = memref.load %tile[%r, %c] : memref<64x128xf32, 3>
          %gr = arith.addi %row, %r : index
          %gc = arith.addi %col, %c : index
          memref.store %v, %dst[%gr, %gc] : memref<4096x4096xf32>
        }
      }
      gpu.return
    }
  }
}
