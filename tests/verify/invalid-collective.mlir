// RUN: acopy-opt %s --split-input-file --verify-diagnostics --acopy-verify
// Collective copies on the TMA path: multicast (collective_axes) and
// leader_tracked (cta_group::2). The cluster comes from nvvm.cluster_dim.

// leader_tracked needs cta_group::2, which only sm_100a, sm_101a, sm_103a and
// sm_110a have.
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @leader_on_hopper(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // RULE: A7
    // expected-error @+1 {{leader_tracked copies use the TMA cta_group::2 form, which sm_90 does not have: it needs sm_100a or newer (sm_100a, sm_101a, sm_103a, sm_110a)}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"], leader_tracked = "replicated"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// cta_group is not forward compatible: plain sm_100 lacks it ...
gpu.module @m [#nvvm.target<chip = "sm_100">] {
  gpu.func @leader_on_sm100(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // expected-error @+1 {{leader_tracked copies use the TMA cta_group::2 form, which sm_100 does not have: it needs sm_100a or newer (sm_100a, sm_101a, sm_103a, sm_110a)}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"], leader_tracked = "partitioned", partition_axis = 0 : i64} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// ... and so does consumer Blackwell.
gpu.module @m [#nvvm.target<chip = "sm_120a">] {
  gpu.func @leader_on_sm120a(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // expected-error @+1 {{leader_tracked copies use the TMA cta_group::2 form, which sm_120a does not have: it needs sm_100a or newer (sm_100a, sm_101a, sm_103a, sm_110a)}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"], leader_tracked = "replicated"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// A leader-tracked copy runs on a CTA pair (cta_group::2): the collective must
// span 2 CTAs whose cluster ranks differ only in bit 0.
gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @leader_wrong_axis(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // RULE: A8
    // expected-error @+1 {{leader_tracked copies need collective_axes that span a CTA pair (2 CTAs whose ranks in the cluster differ only in bit 0), but ["y"] spans 1 CTA in cluster (2, 1, 1)}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["y"], leader_tracked = "partitioned", partition_axis = 0 : i64} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_103a">] {
  gpu.func @replicated_over_4(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 2, 1>} {
    // expected-error @+1 {{leader_tracked copies need collective_axes that span a CTA pair (2 CTAs whose ranks in the cluster differ only in bit 0), but ["x", "y"] spans 4 CTAs in cluster (2, 2, 1)}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x", "y"], leader_tracked = "replicated"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// ["x", "z"] in a 1x2x2 cluster: 2 CTAs (x has only 1), along z, so 2 ranks
// apart (y lies between them in rank order): not a hardware pair either.
gpu.module @m [#nvvm.target<chip = "sm_110a">] {
  gpu.func @pair_across_y(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 1, 2, 2>} {
    // expected-error @+1 {{leader_tracked copies need collective_axes that span a CTA pair (2 CTAs whose ranks in the cluster differ only in bit 0), but ["x", "z"] spans 2 CTAs 2 ranks apart in cluster (1, 2, 2)}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x", "z"], leader_tracked = "replicated"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// Two CTAs along y in a 2x2 cluster are 2 ranks apart: not a hardware pair.
gpu.module @m [#nvvm.target<chip = "sm_110a">] {
  gpu.func @replicated_not_adjacent(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 2, 1>} {
    // expected-error @+1 {{leader_tracked copies need collective_axes that span a CTA pair (2 CTAs whose ranks in the cluster differ only in bit 0), but ["y"] spans 2 CTAs 2 ranks apart in cluster (2, 2, 1)}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["y"], leader_tracked = "replicated"} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_100a">] {
  gpu.func @partition_axis_out_of_range(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // RULE: A9
    // expected-error @+1 {{partition_axis = 2 is not a dimension of the copy window, which has rank 2}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"], leader_tracked = "partitioned", partition_axis = 2 : i64} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// Consumer Blackwell has no TMA multicast.
gpu.module @m [#nvvm.target<chip = "sm_120">] {
  gpu.func @multicast_on_sm120(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // RULE: A10
    // expected-error @+1 {{collective copies over more than one CTA use TMA multicast, which sm_120 does not have}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"]} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @multicast_cluster_32(%src: memref<256x512xf32>, %dst: memref<64x128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 4, 4, 2>} {
    // RULE: A11
    // expected-error @+1 {{collective copies need a cluster of at most 16 CTAs (the multicast mask has 16 bits), but the cluster is (4, 4, 2)}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"]} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// The boundary of A11: a cluster of exactly 16 CTAs still multicasts (the mask
// has 16 bits), so this one is accepted without a diagnostic.
gpu.module @m [#nvvm.target<chip = "sm_90a">] {
  gpu.func @multicast_cluster_16(%src: memref<256x512xf32>, %i: index) workgroup(%dst: memref<64x128xf32, 3>, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 4, 4, 1>} {
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["x"]} : (memref<256x512xf32>, memref<64x128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

// Issue 5's text: each CTA loads 1/N of the window along its outermost
// dimension longer than 1, which must divide by N (the innermost never splits).
gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @multicast_indivisible(%src: memref<8x256x512xf32>, %dst: memref<3x64x32xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 2, 1, 1>} {
    // RULE: A12
    // expected-error @+1 {{None of the leading dimensions in the transformed slice shape (3, 64, 32) is divisible by the collective size 2}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 3, 1, 0>, collective_axes = ["x"]} : (memref<8x256x512xf32>, memref<3x64x32xf32, 3>, index, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}

// -----

gpu.module @m [#nvvm.target<chip = "sm_90">] {
  gpu.func @multicast_single_row(%src: memref<256x512xf32>, %dst: memref<128xf32, 3>, %i: index, %bar: memref<1xi64, 3>) kernel attributes {nvvm.cluster_dim = array<i32: 1, 1, 4>} {
    // expected-error @+1 {{None of the leading dimensions in the transformed slice shape (1, 128) is divisible by the collective size 4}}
    "acopy.copy_gmem_to_smem"(%src, %dst, %i, %i, %bar) {operandSegmentSizes = array<i32: 1, 1, 2, 1, 0>, collective_axes = ["z"]} : (memref<256x512xf32>, memref<128xf32, 3>, index, index, memref<1xi64, 3>) -> ()
    gpu.return
  }
}
