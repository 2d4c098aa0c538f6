// The vector dialect inside kernels, compute only: 1-D loads and stores,
// reductions, fma, shuffles, bitcasts. (Transfers on memrefs and n-D vectors
// are lowered by neither route: invalid-unlowered.mlir.) sm_80 and sm_90 through acopy-opt's emit route and
// through upstream's gpu-lower-to-nvvm-pipeline.
// RUN: acopy-opt %s --split-input-file --chip sm_80 --emit=ptx -o %t.80.ptx
// RUN: FileCheck %s < %t.80.ptx
// RUN: %check-ptxas %t.80.ptx sm_80 sm_80
// RUN: acopy-opt %s --split-input-file --chip sm_90 --emit=ptx -o %t.90.ptx
// RUN: %check-ptxas %t.90.ptx sm_90 sm_90
// RUN: mlir-opt %s --split-input-file --gpu-lower-to-nvvm-pipeline="cubin-format=isa cubin-chip=sm_80 cubin-features=+ptx80" -o %t.up80
// RUN: %check-ptxas %t.up80 sm_80 sm_80

// CHECK-LABEL: .entry reduce_fma(
// CHECK: fma.rn.f32
gpu.module @m {
  gpu.func @reduce_fma(%in: memref<256xf32>, %out: memref<64xf32>) kernel {
    %t = gpu.thread_id x
    %c4 = arith.constant 4 : index
    %base = arith.muli %t, %c4 : index
    %v = vector.load %in[%base] : memref<256xf32>, vector<4xf32>
    %f = vector.fma %v, %v, %v : vector<4xf32>
    %s = vector.reduction <add>, %f : vector<4xf32> into f32
    %m = vector.reduction <maximumf>, %v : vector<4xf32> into f32
    %r = arith.addf %s, %m : f32
    memref.store %r, %out[%t] : memref<64xf32>
    gpu.return
  }
}

// -----

// CHECK-LABEL: .entry shuffle_bitcast(
// CHECK-COUNT-4: st.global.b16
gpu.module @m {
  gpu.func @shuffle_bitcast(%in: memref<128xf16>, %out: memref<128xi16>) kernel {
    %t = gpu.thread_id x
    %c4 = arith.constant 4 : index
    %base = arith.muli %t, %c4 : index
    %v = vector.load %in[%base] : memref<128xf16>, vector<4xf16>
    %s = vector.shuffle %v, %v [3, 2, 1, 0] : vector<4xf16>, vector<4xf16>
    %b = vector.bitcast %s : vector<4xf16> to vector<4xi16>
    %x = vector.extract %b[0] : i16 from vector<4xi16>
    %y = vector.insert %x, %b[3] : i16 into vector<4xi16>
    vector.store %y, %out[%base] : memref<128xi16>, vector<4xi16>
    gpu.return
  }
}
