// acopy-vector-to-scf, the emit route's convert-vector-to-scf: upstream's pass
// on a gpu.module that holds a vector op (here a strided 1-D transfer becomes a
// loop of scalar loads, which the route then lowers to PTX), nothing on one that
// holds none (upstream's pass would fold the addition; the route's
// expand-strided-metadata, next, does: passes/src/prepare_emit/vector_to_scf.rs).
// RUN: acopy-opt %s --pass-pipeline='builtin.module(gpu.module(acopy-vector-to-scf))' | FileCheck %s
// RUN: acopy-opt %s --chip sm_80 --emit=ptx -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %check-ptxas %t.ptx sm_80 sm_80

// CHECK-LABEL: gpu.module @with_vector
// CHECK: scf.for
// CHECK: memref.load
// CHECK: vector.insert
// CHECK-NOT: vector.transfer_read
// CHECK-LABEL: gpu.module @without_vector
// CHECK: arith.addi
// PTX-LABEL: .entry strided(
// PTX-COUNT-4: ld.global.b32
// PTX: st.global.b32
// PTX-LABEL: .entry sum(
// PTX: st.global.b32 {{.*}}, 3;
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
  gpu.module @without_vector {
    gpu.func @sum(%out: memref<4xi32>) kernel {
      %c0 = arith.constant 0 : index
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      %sum = arith.addi %one, %two : i32
      memref.store %sum, %out[%c0] : memref<4xi32>
      gpu.return
    }
  }
}
