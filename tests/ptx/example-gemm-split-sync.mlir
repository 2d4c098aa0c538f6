// The spread split-K's release without a fence per thread (examples/gemm/gen.py
// --split-sync=release; choose.py's *_sksr_ builds, not yet timed on a card): every
// consumer stores its partial tile and meets the others (bar.sync 1, 256), then the
// leader alone fences (fence.acq_rel.gpu) before counting its arrival, and again after
// its atomics have read every arrival (acquire) before the barrier that lets the other
// threads read the partials; no membar.gl anywhere. The default (--split-sync=fence)
// fences every thread's stores with membar.gl and fences again before the reads, which
// pins what makes the two different. Refused without the spread fix-up.
// RUN: %python %S/../../examples/gemm/gen.py 512 512 16384 6 warp --raster=16 --vstore=1 --persistent=132 --out=bf16 --split-k=auto --split-reduce=spread --split-sync=release > %t.mlir
// RUN: acopy-opt %t.mlir --acopy-lower --emit=ptx -o %t.ptx 2>/dev/null
// RUN: %check-ptxas --no-spill %t.ptx sm_90a
// RUN: FileCheck %s --check-prefix=REL < %t.ptx
// RUN: not grep "membar.gl" %t.ptx
// RUN: %python %S/../../examples/gemm/gen.py 512 512 16384 6 warp --raster=16 --vstore=1 --persistent=132 --out=bf16 --split-k=auto --split-reduce=spread > %t.fence.mlir
// RUN: acopy-opt %t.fence.mlir --acopy-lower --emit=ptx -o %t.fence.ptx 2>/dev/null
// RUN: grep -c "membar.gl" %t.fence.ptx | FileCheck %s --check-prefix=TWO
// RUN: not grep "fence.acq_rel.gpu" %t.fence.ptx
// RUN: not %python %S/../../examples/gemm/gen.py 512 512 16384 6 warp --persistent=132 --split-k=auto --split-sync=release 2>&1 | FileCheck %s --check-prefix=REFUSE
// RUN: not %python %S/../../examples/gemm/gen.py 512 512 16384 6 warp --persistent=132 --split-k=auto --split-reduce=spread --split-sync=acquire 2>&1 | FileCheck %s --check-prefix=NAME

// REL: st.global.v4.b32
// REL: bar.sync 1, 256;
// REL-NOT: atom.global
// REL: fence.acq_rel.gpu;
// REL-NOT: ld.global
// REL: atom.global.add.u64
// REL: atom.global.or.b64
// REL: fence.acq_rel.gpu;
// REL-NEXT: // end inline asm
// REL-NEXT: st.shared
// REL: bar.sync 1, 256;
// REL: ld.global.v4

// TWO: 2
// REFUSE: gen.py: error: --split-sync=release: --split-reduce=spread
// NAME: gen.py: error: --split-sync: fence or release
