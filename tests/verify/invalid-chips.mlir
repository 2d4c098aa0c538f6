// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// A copy whose chip cannot be determined gets an error that names what to
// add (docs/dialect.md, "Target"). It is reported at every acopy op of the gpu.module; a
// gpu.module without acopy ops is not checked.

// No gpu.module at all: both ops get the error.
func.func @no_gpu_module(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) {
  // expected-error @+1 {{cannot determine the target chip: put the op in a gpu.module with targets = [#nvvm.target<chip = "sm_XX">], or set the chip option (chip=sm_XX)}}
  "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
  // expected-error @+1 {{cannot determine the target chip}}
  "acopy.wait_gmem_to_smem"() : () -> ()
  return
}

// -----

gpu.module @no_targets {
  gpu.func @k(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) kernel {
    // expected-error @+1 {{cannot determine the target chip: put the op in a gpu.module with targets = [#nvvm.target<chip = "sm_XX">], or set the chip option (chip=sm_XX)}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

// A target for another vendor does not name an NVIDIA chip.
gpu.module @rocdl [#rocdl.target<chip = "gfx90a">] {
  gpu.func @k(%bar: memref<1xi64, 3>) kernel {
    // expected-error @+1 {{cannot determine the target chip}}
    "acopy.barrier_init"(%bar) : (memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @default_chip [#nvvm.target] {
  gpu.func @k(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) kernel {
    // expected-error @+1 {{the gpu.module's #nvvm.target names no chip, so MLIR assumes sm_50, which acopy does not support: add chip = "sm_XX" (sm_80 or newer), or set the chip option (chip=sm_XX)}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

gpu.module @turing [#nvvm.target<chip = "sm_75">] {
  gpu.func @k(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) kernel {
    // expected-error @+1 {{chip "sm_75" is not supported: acopy needs sm_80 or newer (the oldest copy it emits is cp.async, which sm_80 introduced)}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

gpu.module @unknown [#nvvm.target<O = 3, chip = "sm_91", features = "+ptx80">] {
  gpu.func @k() kernel {
    // expected-error @+1 {{unknown chip "sm_91"; acopy supports: sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a, sm_100, sm_100a, sm_101a, sm_103a, sm_110a, sm_120, sm_120a, sm_121a}}
    "acopy.wait_smem_to_gmem"() : () -> ()
    gpu.return
  }
}

// -----

// acopy lowers a gpu.module for one chip.
gpu.module @two_chips [#nvvm.target<chip = "sm_80">, #nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) kernel {
    // expected-error @+1 {{the gpu.module has #nvvm.targets for several chips (sm_80, sm_90); acopy lowers each gpu.module for one chip: put the kernels for each chip in their own gpu.module, or set the chip option (chip=sm_XX)}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

// The same chip twice (say, at two optimisation levels) is one chip.
gpu.module @same_chip_twice [#nvvm.target<O = 2, chip = "sm_80">, #nvvm.target<O = 3, chip = "sm_80">] {
  gpu.func @k(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index) kernel {
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index) -> ()
    gpu.return
  }
}

// -----

// MLIR accepts cluster sizes below 1; acopy does not.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 0, 1, 1>} {
    // expected-error @+1 {{'nvvm.cluster_dim' must hold sizes of at least 1, got array<i32: 0, 1, 1>}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, -1, 1>} {
    // expected-error @+1 {{'nvvm.cluster_dim' must hold sizes of at least 1, got array<i32: 2, -1, 1>}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @k(%bar: memref<1xi64, 3>) kernel attributes {nvvm.reqntid = array<i32: 0, 1, 1>} {
    // expected-error @+1 {{'nvvm.reqntid' must hold sizes of at least 1, got array<i32: 0, 1, 1>}}
    "acopy.barrier_init"(%bar) : (memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// gpu.func's own `known_block_size` (what MLIR 22 prints) is read too: a zero
// would otherwise reach upstream's conversion as an invalid `ntid` range.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  gpu.func @k(%bar: memref<1xi64, 3>) kernel attributes {known_block_size = array<i32: 128, 1, 0>} {
    // expected-error @+1 {{'known_block_size' must hold sizes of at least 1, got array<i32: 128, 1, 0>}}
    "acopy.barrier_init"(%bar) : (memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// A gpu.module without acopy ops is never reported, whatever its target.
gpu.module @no_acopy [#nvvm.target<chip = "sm_75">] {
  gpu.func @k() kernel {
    gpu.return
  }
}
