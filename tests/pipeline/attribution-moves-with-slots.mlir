// Slots move to dynamic shared memory when the barriers and whatever else must stay
// static fit the 48 KiB ptxas accepts (rule P11, docs/pipelining.md "Shared memory").
// A workgroup attribution of a static shape with the identity layout need not stay:
// when the static bytes still pass 48 KiB after the slots moved, acopy-lower moves it
// too, after the slots (docs/kernel-abi.md, "Shared memory"). Here 4 slots of 16 KiB
// and a 49168-byte attribution: before, P11 refused the loop (49168 + 40 bytes of
// barriers "stay static"); the same bytes in a shared memref.global still are refused
// (tests/verify/invalid-pipeline-static-smem.mlir). The attention example's Q tiles and
// first K tile beside its K and V slots (examples/attention/gen.py --rows=128 --overlap)
// are this case.
// RUN: acopy-opt %s --acopy-verify
// RUN: acopy-opt %s --acopy-lower | FileCheck %s
// RUN: acopy-opt %s --acopy-lower --emit=ptx -o %t.ptx --tma-manifest=%t.json
// RUN: %check-ptxas %t.ptx sm_90
// RUN: FileCheck %s --check-prefix=MANIFEST < %t.json
// 4 x 16384 slot bytes + 112 to round the base up to the slots' 128 bytes, then the
// attribution's 49168 bytes.
// MANIFEST: "dynamic_shared_memory": 114816
// CHECK: gpu.func @beside({{.*}}) kernel attributes {acopy.dynamic_shared_memory = 114816 : i64
// The attribution starts after the slots and their reserve: 65536 + 112 bytes.
// CHECK: %[[DYN:.+]] = gpu.dynamic_shared_memory
// CHECK-NEXT: %[[AFTER:.+]] = arith.constant 65648 : index
// CHECK-NEXT: %[[BUF:.+]] = memref.memory_space_cast %[[DYN]]
// CHECK: %[[AT:.+]] = arith.addi %[[AFTER]], %{{.+}} : index
// CHECK-NEXT: memref.view %[[BUF]][%[[AT]]][] : memref<?xi8, 3> to memref<12292xf32, 3>
// CHECK: memref.view %{{.+}} : memref<?xi8, 3> to memref<32x128xf32, 3>
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @beside(%src: memref<4096x128xf32>, %out: memref<4096x128xf32>, %n: index) workgroup(%tile: memref<32x128xf32, 3>, %big: memref<12292xf32, 3>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %tid = gpu.thread_id x
    scf.for %i = %c0 to %n step %c1 {
      %row = arith.muli %i, %c32 : index
      "acopy.copy_gmem_to_smem"(%src, %tile, %row, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<4096x128xf32>, memref<32x128xf32, 3>, index, index) -> ()
      "acopy.wait_gmem_to_smem"() {pending = 0 : i64} : () -> ()
      %v = memref.load %tile[%c0, %tid] : memref<32x128xf32, 3>
      memref.store %v, %big[%tid] : memref<12292xf32, 3>
    } {acopy.pipeline = {stages = 4 : i64}}
    gpu.return
  }
}
