// MN-major wgmma operands assemble: the GPU suite's kernels that read B stored
// K x N through acopy.wgmma_descriptor {major = "mn"} (B[..., <row>]: the
// transpose flag imm-trans-b = 1), once with N of two 128-byte column panels
// (fallback mode, leading byte offset 8192), and once with A stored K x M too
// (A[..., <col>]: imm-trans-a = 1). The operands of wgmma.mma_async end in
// scale-d, imm-scale-a, imm-scale-b, imm-trans-a, imm-trans-b.
// RUN: acopy-opt %S/../gpu/kernels/fb_wgmma_f16_s128_n128_bmn.mlir --acopy-fallback --acopy-lower --emit=ptx -o %t.b.ptx 2>/dev/null
// RUN: %check-ptxas %t.b.ptx sm_90a
// RUN: FileCheck %s --check-prefix=B < %t.b.ptx
// RUN: acopy-opt %S/../gpu/kernels/wgmma_f16_s128_n64_amn_bmn.mlir --acopy-lower --emit=ptx -o %t.ab.ptx
// RUN: %check-ptxas %t.ab.ptx sm_90a
// RUN: FileCheck %s --check-prefix=AB < %t.ab.ptx

// The fixed bits (512 << 16) | (64 << 32) | (1 << 62), OR-ed into the start field.
// B: or.b64 {{.*}}4611686293338849280;
// B-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 1;
// AB-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, p, 1, 1, 1, 1;
