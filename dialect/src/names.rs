//! The fully qualified op names.

pub const NAMESPACE: &str = "acopy";
pub const COPY_GMEM_TO_SMEM: &str = "acopy.copy_gmem_to_smem";
pub const WAIT_GMEM_TO_SMEM: &str = "acopy.wait_gmem_to_smem";
pub const BARRIER_INIT: &str = "acopy.barrier_init";
pub const BARRIER_WAIT: &str = "acopy.barrier_wait";
pub const COPY_SMEM_TO_GMEM: &str = "acopy.copy_smem_to_gmem";
pub const WAIT_SMEM_TO_GMEM: &str = "acopy.wait_smem_to_gmem";
pub const WGMMA_DESCRIPTOR: &str = "acopy.wgmma_descriptor";
pub const SWIZZLED_INDEX: &str = "acopy.swizzled_index";
/// Every op of the dialect.
pub const ALL: [&str; 8] = [
    COPY_GMEM_TO_SMEM,
    WAIT_GMEM_TO_SMEM,
    BARRIER_INIT,
    BARRIER_WAIT,
    COPY_SMEM_TO_GMEM,
    WAIT_SMEM_TO_GMEM,
    WGMMA_DESCRIPTOR,
    SWIZZLED_INDEX,
];

/// The upstream ops [`crate::kernel`] builds around acopy ops, each spelled
/// once; `tests::every_kernel_skeleton_op_is_registered` checks each spelling
/// against the ops MLIR registers.
pub mod gpu {
    pub const MODULE: &str = "gpu.module";
    pub const FUNC: &str = "gpu.func";
    pub const RETURN: &str = "gpu.return";
    pub const BLOCK_ID: &str = "gpu.block_id";
    pub const THREAD_ID: &str = "gpu.thread_id";
    pub const BLOCK_DIM: &str = "gpu.block_dim";
    /// Every op above.
    pub const ALL: [&str; 6] = [MODULE, FUNC, RETURN, BLOCK_ID, THREAD_ID, BLOCK_DIM];
}
