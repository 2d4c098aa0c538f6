// What the emit route does not lower is an error at the op, naming the op and
// its dialect (acopy-check-lowered, docs/embedding.md "The emit route"),
// never a bare "LLVM Translation failed for operation:
// builtin.unrealized_conversion_cast". Upstream's gpu-lower-to-nvvm-pipeline
// does not lower these either.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --chip sm_80 --emit=ptx
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --chip sm_90 --emit=llvm

gpu.module @m {
  gpu.func @transfer(%in: memref<64x64xf32>, %out: memref<64xf32>) kernel {
    %c0 = arith.constant 0 : index
    %pad = arith.constant 0.0 : f32
    // expected-error @+1 {{'vector.transfer_read' (dialect 'vector') is not lowered by the emit route, so it cannot become LLVM IR or PTX}}
    %v = vector.transfer_read %in[%c0, %c0], %pad {in_bounds = [true]} : memref<64x64xf32>, vector<4xf32>
    vector.store %v, %out[%c0] : memref<64xf32>, vector<4xf32>
    gpu.return
  }
}

// -----

gpu.module @m {
  gpu.func @broadcast_2d(%in: memref<1xvector<1xf32>>, %out: memref<1xvector<4x1xf32>>) kernel {
    %c0 = arith.constant 0 : index
    %x = memref.load %in[%c0] : memref<1xvector<1xf32>>
    // expected-error @+1 {{'vector.broadcast' (dialect 'vector') is not lowered by the emit route}}
    %b = vector.broadcast %x : vector<1xf32> to vector<4x1xf32>
    memref.store %b, %out[%c0] : memref<1xvector<4x1xf32>>
    gpu.return
  }
}

// -----

// Every op lowered, but a cast between two LLVM types that no conversion
// pairs with its inverse is still alive.
gpu.module @m {
  gpu.func @live_cast(%p: !llvm.ptr, %out: memref<1xi64>) kernel {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{a value of type !llvm.ptr is still cast to i64 after the emit route: no conversion gives it an LLVM form on both sides}}
    %i = builtin.unrealized_conversion_cast %p : !llvm.ptr to i64
    memref.store %i, %out[%c0] : memref<1xi64>
    gpu.return
  }
}

// -----

// Upstream's convert-gpu-to-nvvm refuses it with its own located error.
gpu.module @m {
  gpu.func @subgroup_reduce(%in: memref<32xf32>, %out: memref<32xf32>) kernel {
    %lane = gpu.lane_id
    %x = memref.load %in[%lane] : memref<32xf32>
    // expected-error @+1 {{failed to legalize operation 'gpu.subgroup_reduce' that was explicitly marked illegal}}
    %s = gpu.subgroup_reduce add %x : (f32) -> f32
    memref.store %s, %out[%lane] : memref<32xf32>
    gpu.return
  }
}
