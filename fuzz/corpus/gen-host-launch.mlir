// Generated (acopy-fuzz --seed 9 --case 10): a cp.async kernel launched from host code on sm_87.
module attributes {gpu.container_module} {
  func.func @host(%a2: memref<?x32xbf16>, %a6: memref<256x256x128xbf16, strided<[?, 65536, 1], offset: 0>>) {
    %one = arith.constant 1 : index
    gpu.launch_func @m::@k blocks in (%one, %one, %one) threads in (%one, %one, %one) args(%a2 : memref<?x32xbf16>, %one : index, %one : index, %a6 : memref<256x256x128xbf16, strided<[?, 65536, 1], offset: 0>>, %one : index, %one : index)
    return
  }
  gpu.module @m [#nvvm.target<chip = "sm_87">] {
    gpu.func @k(%a2: memref<?x32xbf16>, %a3: index, %a4: index, %a6: memref<256x256x128xbf16, strided<[?, 65536, 1], offset: 0>>, %a7: index, %a8: index) workgroup(%w1 : memref<32xbf16, 3>, %w5 : memref<128xbf16, 3>) kernel attributes {gpu.known_block_size = array<i32: 128, 1, 1>} {
      "acopy.copy_gmem_to_smem"(%a2, %w1, %a3, %a4) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<?x32xbf16>, memref<32xbf16, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %c9 = arith.constant 384 : index
      "acopy.copy_gmem_to_smem"(%a6, %w5, %a7, %a8, %c9) {operandSegmentSizes = array<i32: 1, 1, 3, 0, 0>, oob_mode = "promise_in_bounds", assume_aligned_start} : (memref<256x256x128xbf16, strided<[?, 65536, 1], offset: 0>>, memref<128xbf16, 3>, index, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      gpu.return
    }
  }
}
