// Static shared memory over the 48 KiB ptxas accepts that cannot move to
// dynamic shared memory is a located error at the kernel naming the chip, the
// total and the limit (docs/kernel-abi.md, "Shared memory"), on both routes
// to PTX; ptxas never sees it.
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --emit=ptx
// RUN: acopy-opt %s --split-input-file --verify-diagnostics --emit=llvm

// Issue 26's case: 112 KiB of workgroup attributions on sm_86, whose blocks
// get at most 99 KiB.
gpu.module @m [#nvvm.target<chip = "sm_86">] {
  // expected-error @+1 {{this kernel needs 114688 bytes of shared memory (114688 in workgroup attributions and shared globals, moved to dynamic shared memory where ptxas's 49152-byte static limit requires it), more than the 101376 bytes sm_86 gives one block}}
  gpu.func @too_big(%out: memref<128xf32>)
      workgroup(%a: memref<128x128xf32, 3>, %b: memref<96x128xf32, 3>) kernel {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %x = memref.load %a[%t, %c0] : memref<128x128xf32, 3>
    %y = memref.load %b[%c0, %t] : memref<96x128xf32, 3>
    %s = arith.addf %x, %y : f32
    memref.store %s, %out[%t] : memref<128xf32>
    gpu.return
  }
}

// -----

// Shared globals cannot move.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  memref.global "private" @table : memref<13000xf32, 3>
  // expected-error @+1 {{this kernel has 52000 bytes of static shared memory, more than the 49152 that ptxas accepts, and 52000 of them are in shared memref.globals, which cannot move to dynamic shared memory (sm_90 gives one block at most 232448 bytes of shared memory}}
  gpu.func @global_table(%out: memref<128xf32>) kernel {
    %t = gpu.thread_id x
    %g = memref.get_global @table : memref<13000xf32, 3>
    %x = memref.load %g[%t] : memref<13000xf32, 3>
    memref.store %x, %out[%t] : memref<128xf32>
    gpu.return
  }
}

// -----

// A kernel that places dynamic shared memory itself: where its bytes end is
// unknown.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  // expected-error @+1 {{its workgroup attributions cannot move to dynamic shared memory, because the kernel places gpu.dynamic_shared_memory itself (sm_80 gives one block at most 166912 bytes}}
  gpu.func @own_dynamic(%out: memref<128xi8>) workgroup(%a: memref<65536xi8, 3>) kernel {
    %t = gpu.thread_id x
    %d = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %x = memref.load %a[%t] : memref<65536xi8, 3>
    memref.store %x, %d[%t] : memref<?xi8, #gpu.address_space<workgroup>>
    memref.store %x, %out[%t] : memref<128xi8>
    gpu.return
  }
}

// -----

// memref.view makes only static shapes with the identity layout.
gpu.module @m [#nvvm.target<chip = "sm_80">] {
  // expected-error @+1 {{the workgroup attribution memref<128x100xf32, strided<[128, 1]>, 3> cannot move to dynamic shared memory: only a static shape with the identity layout can}}
  gpu.func @strided(%out: memref<128xf32>) workgroup(%a: memref<128x100xf32, strided<[128, 1]>, 3>) kernel {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %x = memref.load %a[%t, %c0] : memref<128x100xf32, strided<[128, 1]>, 3>
    memref.store %x, %out[%t] : memref<128xf32>
    gpu.return
  }
}
