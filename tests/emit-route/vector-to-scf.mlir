// The emit route runs upstream's convert-vector-to-scf only on a module that holds a
// vector op after the lowering (passes/src/emit/route.rs, `Vectors`; every other PTX
// test here runs without it). With one, as here (a strided 1-D transfer that only that
// pass turns into a loop of scalar loads), the PTX has the four loads.
// RUN: acopy-opt %s --chip sm_80 --emit=ptx -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// RUN: %check-ptxas %t.ptx sm_80

// CHECK-LABEL: .entry strided(
// CHECK-COUNT-4: ld.global.b32
// CHECK: st.global.b32
module attributes {gpu.container_module} {
  gpu.module @with_vector {
    gpu.func @strided(%in: memref<64x64xf32>, %out: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %pad = arith.constant 0.0 : f32
      %v = vector.transfer_read %in[%c0, %c0], %pad {permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<64x64xf32>, vector<4xf32>
      vector.store %v, %out[%c0] : memref<4xf32>, vector<4xf32>
      gpu.return
    }
  }
}
