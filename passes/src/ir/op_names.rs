//! The ops the passes build and the ops they match, each spelled once.
//!
//! The builder takes an [`OpName`], never a string, and so does the match
//! (`super::is(op, gpu::FUNC)`), so a misspelt op in a pass is an unknown
//! constant (a compile error), and the unit test
//! below checks every spelling here against the ops MLIR registers. An op is
//! marked `pure` when it has no side effects and may be computed once per
//! kernel and shared (see `super::hoist`): MLIR's `Pure` ops (arithmetic,
//! thread and special-register reads, pointer casts and address arithmetic,
//! memref metadata). Everything that touches memory, synchronises or has a
//! region is not.

/// An op a pass builds or matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct OpName {
    pub name: &'static str,
    /// No side effects: equal ops with equal operands compute equal values.
    pub pure: bool,
}

const fn pure(name: &'static str) -> OpName {
    OpName { name, pure: true }
}

const fn effect(name: &'static str) -> OpName {
    OpName { name, pure: false }
}

/// Discardable attributes a pass puts on an op for a later step of the same
/// run to read (`crate::plan::pinned`), spelled once like the op names.
pub(crate) mod attributes {
    /// The plan of an `acopy.swizzled_index`.
    pub const INDEX_PLAN: &str = "acopy.index_plan";
    /// The plan of an `acopy.wgmma_descriptor`.
    pub const DESCRIPTOR_PLAN: &str = "acopy.descriptor_plan";
}

pub(crate) mod builtin {
    use super::{effect, OpName};
    pub const MODULE: OpName = effect("builtin.module");
}

pub(crate) mod func {
    use super::{effect, OpName};
    pub const FUNC: OpName = effect("func.func");
}

pub(crate) mod arith {
    use super::{pure, OpName};
    pub const CONSTANT: OpName = pure("arith.constant");
    pub const ADDI: OpName = pure("arith.addi");
    pub const SUBI: OpName = pure("arith.subi");
    pub const MULI: OpName = pure("arith.muli");
    // Only ever divided by a constant of at least 1 (`Builder::div`, `rem`),
    // so computing it early cannot trap.
    pub const DIVUI: OpName = pure("arith.divui");
    pub const REMUI: OpName = pure("arith.remui");
    pub const MINUI: OpName = pure("arith.minui");
    pub const ANDI: OpName = pure("arith.andi");
    pub const ORI: OpName = pure("arith.ori");
    pub const XORI: OpName = pure("arith.xori");
    pub const SHLI: OpName = pure("arith.shli");
    pub const SHRUI: OpName = pure("arith.shrui");
    pub const CMPI: OpName = pure("arith.cmpi");
    pub const SELECT: OpName = pure("arith.select");
    pub const INDEX_CAST: OpName = pure("arith.index_cast");
    pub const INDEX_CASTUI: OpName = pure("arith.index_castui");
    pub const MINSI: OpName = pure("arith.minsi");
    pub const MAXSI: OpName = pure("arith.maxsi");
    pub const MAXUI: OpName = pure("arith.maxui");
    pub const CEILDIVSI: OpName = pure("arith.ceildivsi");
    pub const EXTUI: OpName = pure("arith.extui");
    pub const TRUNCI: OpName = pure("arith.trunci");
}

pub(crate) mod gpu {
    use super::{effect, pure, OpName};
    // Spelled once, in the dialect crate, whose kernel builders build them too.
    pub const THREAD_ID: OpName = pure(acopy_dialect::names::gpu::THREAD_ID);
    pub const BLOCK_DIM: OpName = pure(acopy_dialect::names::gpu::BLOCK_DIM);
    pub const BLOCK_ID: OpName = pure(acopy_dialect::names::gpu::BLOCK_ID);
    pub const MODULE: OpName = effect(acopy_dialect::names::gpu::MODULE);
    pub const FUNC: OpName = effect(acopy_dialect::names::gpu::FUNC);
    pub const LAUNCH_FUNC: OpName = effect("gpu.launch_func");
    pub const GLOBAL_ID: OpName = pure("gpu.global_id");
    pub const BARRIER: OpName = effect("gpu.barrier");
    pub const DYNAMIC_SHARED_MEMORY: OpName = pure("gpu.dynamic_shared_memory");
}

pub(crate) mod llvm {
    use super::{effect, pure, OpName};
    pub const INTTOPTR: OpName = pure("llvm.inttoptr");
    pub const PTRTOINT: OpName = pure("llvm.ptrtoint");
    pub const ADDRSPACECAST: OpName = pure("llvm.addrspacecast");
    pub const GETELEMENTPTR: OpName = pure("llvm.getelementptr");
    pub const LOAD: OpName = effect("llvm.load");
    pub const STORE: OpName = effect("llvm.store");
    pub const ATOMICRMW: OpName = effect("llvm.atomicrmw");
    pub const GLOBAL: OpName = effect("llvm.mlir.global");
    pub const FUNC: OpName = effect("llvm.func");
}

pub(crate) mod memref {
    use super::{effect, pure, OpName};
    pub const EXTRACT_ALIGNED_POINTER_AS_INDEX: OpName =
        pure("memref.extract_aligned_pointer_as_index");
    pub const EXTRACT_STRIDED_METADATA: OpName = pure("memref.extract_strided_metadata");
    pub const VIEW: OpName = pure("memref.view");
    pub const MEMORY_SPACE_CAST: OpName = pure("memref.memory_space_cast");
    pub const GET_GLOBAL: OpName = pure("memref.get_global");
    pub const CAST: OpName = pure("memref.cast");
    pub const SUBVIEW: OpName = pure("memref.subview");
    pub const ASSUME_ALIGNMENT: OpName = effect("memref.assume_alignment");
    pub const LOAD: OpName = effect("memref.load");
    pub const STORE: OpName = effect("memref.store");
    pub const GLOBAL: OpName = effect("memref.global");
}

pub(crate) mod scf {
    use super::{effect, OpName};
    pub const FOR: OpName = effect("scf.for");
    pub const IF: OpName = effect("scf.if");
    pub const WHILE: OpName = effect("scf.while");
    pub const YIELD: OpName = effect("scf.yield");
    pub const CONDITION: OpName = effect("scf.condition");
}

pub(crate) mod nvvm {
    use super::{effect, pure, OpName};
    pub const CLUSTER_CTARANK: OpName = pure("nvvm.read.ptx.sreg.cluster.ctarank");
    /// `nvvm.read.ptx.sreg.cluster.ctaid.{x,y,z}`, by dimension.
    pub const CLUSTER_CTAID: [OpName; 3] = [
        pure("nvvm.read.ptx.sreg.cluster.ctaid.x"),
        pure("nvvm.read.ptx.sreg.cluster.ctaid.y"),
        pure("nvvm.read.ptx.sreg.cluster.ctaid.z"),
    ];
    pub const MAPA: OpName = effect("nvvm.mapa");
    pub const MBARRIER_INIT: OpName = effect("nvvm.mbarrier.init");
    pub const MBARRIER_ARRIVE: OpName = effect("nvvm.mbarrier.arrive");
    pub const MBARRIER_ARRIVE_EXPECT_TX: OpName = effect("nvvm.mbarrier.arrive.expect_tx");
    pub const MBARRIER_TRY_WAIT: OpName = effect("nvvm.mbarrier.try_wait");
    pub const MBARRIER_TEST_WAIT: OpName = effect("nvvm.mbarrier.test.wait");
    pub const FENCE_MBARRIER_INIT: OpName = effect("nvvm.fence.mbarrier.init");
    pub const FENCE_PROXY: OpName = effect("nvvm.fence.proxy");
    pub const CLUSTER_ARRIVE: OpName = effect("nvvm.cluster.arrive");
    pub const CLUSTER_WAIT: OpName = effect("nvvm.cluster.wait");
    pub const CP_ASYNC: OpName = effect("nvvm.cp.async.shared.global");
    pub const CP_ASYNC_COMMIT_GROUP: OpName = effect("nvvm.cp.async.commit.group");
    pub const CP_ASYNC_WAIT_GROUP: OpName = effect("nvvm.cp.async.wait.group");
    pub const CP_ASYNC_MBARRIER_ARRIVE: OpName = effect("nvvm.cp.async.mbarrier.arrive");
    /// `bar.sync id, count`: a barrier of some of the block's threads.
    pub const BARRIER: OpName = effect("nvvm.barrier");
    pub const WGMMA_WAIT_GROUP: OpName = effect("nvvm.wgmma.wait.group.sync.aligned");
    pub const TMA_LOAD: OpName = effect("nvvm.cp.async.bulk.tensor.shared.cluster.global");
    pub const TMA_STORE: OpName = effect("nvvm.cp.async.bulk.tensor.global.shared.cta");
    pub const TMA_REDUCE: OpName = effect("nvvm.cp.async.bulk.tensor.reduce");
    pub const BULK_COMMIT_GROUP: OpName = effect("nvvm.cp.async.bulk.commit.group");
    pub const BULK_WAIT_GROUP: OpName = effect("nvvm.cp.async.bulk.wait_group");
}

/// Every op above, for the registry test.
#[cfg(test)]
pub(crate) fn all() -> Vec<OpName> {
    let mut all = vec![
        arith::CONSTANT,
        arith::ADDI,
        arith::SUBI,
        arith::MULI,
        arith::DIVUI,
        arith::REMUI,
        arith::MINUI,
        arith::ANDI,
        arith::ORI,
        arith::XORI,
        arith::SHLI,
        arith::SHRUI,
        arith::CMPI,
        arith::SELECT,
        arith::INDEX_CAST,
        arith::INDEX_CASTUI,
        arith::MINSI,
        arith::MAXSI,
        arith::MAXUI,
        arith::CEILDIVSI,
        arith::EXTUI,
        arith::TRUNCI,
        gpu::THREAD_ID,
        gpu::BLOCK_DIM,
        gpu::BLOCK_ID,
        gpu::GLOBAL_ID,
        gpu::BARRIER,
        gpu::DYNAMIC_SHARED_MEMORY,
        llvm::INTTOPTR,
        llvm::PTRTOINT,
        llvm::ADDRSPACECAST,
        llvm::GETELEMENTPTR,
        llvm::LOAD,
        llvm::STORE,
        llvm::ATOMICRMW,
        llvm::GLOBAL,
        memref::EXTRACT_ALIGNED_POINTER_AS_INDEX,
        memref::EXTRACT_STRIDED_METADATA,
        memref::VIEW,
        memref::MEMORY_SPACE_CAST,
        memref::GET_GLOBAL,
        memref::ASSUME_ALIGNMENT,
        memref::LOAD,
        memref::STORE,
        memref::GLOBAL,
        scf::FOR,
        scf::IF,
        scf::WHILE,
        scf::YIELD,
        scf::CONDITION,
        nvvm::CLUSTER_CTARANK,
        nvvm::MAPA,
        nvvm::MBARRIER_INIT,
        nvvm::MBARRIER_ARRIVE,
        nvvm::MBARRIER_ARRIVE_EXPECT_TX,
        nvvm::MBARRIER_TRY_WAIT,
        nvvm::MBARRIER_TEST_WAIT,
        nvvm::FENCE_MBARRIER_INIT,
        nvvm::FENCE_PROXY,
        nvvm::CLUSTER_ARRIVE,
        nvvm::CLUSTER_WAIT,
        nvvm::CP_ASYNC,
        nvvm::CP_ASYNC_COMMIT_GROUP,
        nvvm::CP_ASYNC_WAIT_GROUP,
        nvvm::CP_ASYNC_MBARRIER_ARRIVE,
        nvvm::BARRIER,
        nvvm::WGMMA_WAIT_GROUP,
        nvvm::TMA_LOAD,
        nvvm::TMA_STORE,
        nvvm::TMA_REDUCE,
        nvvm::BULK_COMMIT_GROUP,
        nvvm::BULK_WAIT_GROUP,
    ];
    all.extend(nvvm::CLUSTER_CTAID);
    all.extend(matched_only());
    all
}

/// The ops above that the passes match but never build.
#[cfg(test)]
fn matched_only() -> [OpName; 8] {
    [
        builtin::MODULE,
        func::FUNC,
        gpu::MODULE,
        gpu::FUNC,
        gpu::LAUNCH_FUNC,
        llvm::FUNC,
        memref::CAST,
        memref::SUBVIEW,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_emitted_op_is_registered_once() {
        let context = crate::context::create_context().expect("a context");
        for op in all() {
            let name = melior::StringRef::new(op.name);
            // SAFETY: a live context and a string that outlives the call.
            let registered = unsafe {
                mlir_sys::mlirContextIsRegisteredOperation(context.to_raw(), name.to_raw())
            };
            assert!(registered, "{} is not a registered op", op.name);
        }
        let names: std::collections::HashSet<_> = all().iter().map(|op| op.name).collect();
        assert_eq!(names.len(), all().len(), "an op is listed twice");
    }
}
