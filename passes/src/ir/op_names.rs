//! The ops the passes build and the ops they match, each spelled once, with
//! the attribute names and op-name prefixes they read or write.
//!
//! The builder takes an [`OpName`], never a string, and so does the match
//! (`super::is(op, gpu::FUNC)`), so a misspelt op in a pass is an unknown
//! constant (a compile error), and the unit test
//! below checks every spelling here against the ops MLIR registers. No other
//! file of the passes spells an op name (`tools/acopy-layers` checks it).
//!
//! Purity is declared here too, in two flags, because two steps ask two
//! questions and have always answered them with different sets:
//! - `pure`: the op has no side effects and may be computed once per kernel
//!   and shared (see `super::hoist`): MLIR's `Pure` ops (arithmetic, thread
//!   and special-register reads, pointer casts and address arithmetic, memref
//!   metadata). Everything that touches memory, synchronises or has a region
//!   is not. Only the ops the passes build are ever asked.
//! - `recomputed`: the loop analysis may recompute the op for a later trip
//!   when it computes a copy's operands ([`is_pure`]). Every `arith` and
//!   `index` op is, and so are the ops made with [`recomputed`]; a recomputed
//!   op is pure.

/// An op a pass builds or matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct OpName {
    pub name: &'static str,
    /// No side effects: equal ops with equal operands compute equal values.
    pub pure: bool,
    /// Pure, and one the loop analysis recomputes for a later trip.
    pub recomputed: bool,
}

const fn pure(name: &'static str) -> OpName {
    OpName {
        name,
        pure: true,
        recomputed: false,
    }
}

const fn recomputed(name: &'static str) -> OpName {
    OpName {
        name,
        pure: true,
        recomputed: true,
    }
}

const fn effect(name: &'static str) -> OpName {
    OpName {
        name,
        pure: false,
        recomputed: false,
    }
}

/// The dialects all of whose ops the loop analysis recomputes.
const RECOMPUTED_DIALECTS: [&str; 2] = ["arith", "index"];

/// Whether the results of the op `name` depend only on its operands, so the
/// loop analysis may compute a copy's operands with it (it recomputes them
/// for a later iteration): an op of [`RECOMPUTED_DIALECTS`] or one of the
/// table made with [`recomputed`].
pub(crate) fn is_pure(name: &str) -> bool {
    name.split_once('.')
        .is_some_and(|(dialect, _)| RECOMPUTED_DIALECTS.contains(&dialect))
        || lookup(name).is_some_and(|op| op.recomputed)
}

/// Whether the op `name` has no side effects: one [`is_pure`] takes, or one
/// the table marks pure (a view, say, which the loop analysis does not
/// recompute).
pub(crate) fn has_no_effects(name: &str) -> bool {
    is_pure(name) || lookup(name).is_some_and(|op| op.pure)
}

/// The op of the table named `name`, if any: what lets a pass `match` an op
/// against the table's constants (`super::table_op`).
pub(crate) fn lookup(name: &str) -> Option<OpName> {
    static BY_NAME: std::sync::OnceLock<std::collections::HashMap<&'static str, OpName>> =
        std::sync::OnceLock::new();
    BY_NAME
        .get_or_init(|| ALL.iter().map(|op| (op.name, *op)).collect())
        .get(name)
        .copied()
}

/// Attribute names, spelled once like the op names.
pub(crate) mod attributes {
    // Discardable attributes a pass puts on an op for a later step of the
    // same run to read (`crate::plan::pinned`).
    /// The plan of an `acopy.swizzled_index`.
    pub const INDEX_PLAN: &str = "acopy.index_plan";
    /// The plan of an `acopy.wgmma_descriptor`.
    pub const DESCRIPTOR_PLAN: &str = "acopy.descriptor_plan";

    // acopy's own attributes, read by later passes or by the runtime.
    /// The record a pipelined loop carries (`crate::plan::loops::attr`).
    pub const PIPELINED: &str = "acopy.pipelined";
    /// The thread range of a producer warp's copies (`crate::target`).
    pub const ISSUERS: &str = "acopy.issuers";
    /// The thread range of the consumers of a producer warp.
    pub const CONSUMERS: &str = "acopy.consumers";
    /// A kernel's tensor-map parameters (`crate::manifest`).
    pub const TENSOR_MAPS: &str = "acopy.tensor_maps";
    /// A kernel's dynamic shared memory (`crate::manifest`).
    pub const DYNAMIC_SHARED_MEMORY: &str = "acopy.dynamic_shared_memory";
    /// A diagnostic's rule (`crate::diagnostics`).
    pub const RULE: &str = "acopy.rule";
    /// A diagnostic's detail (`crate::diagnostics`).
    pub const DETAIL: &str = "acopy.detail";

    // Upstream dialects' attributes.
    pub const GPU_KERNEL: &str = "gpu.kernel";
    pub const GPU_KNOWN_BLOCK_SIZE: &str = "gpu.known_block_size";
    pub const NVVM_KERNEL: &str = "nvvm.kernel";
    pub const NVVM_REQNTID: &str = "nvvm.reqntid";
    pub const NVVM_CLUSTER_DIM: &str = "nvvm.cluster_dim";
    /// The blocks a kernel asks ptxas to fit on an SM (`.minnctapersm`).
    pub const NVVM_MINCTASM: &str = "nvvm.minctasm";
    pub const NVVM_GRID_CONSTANT: &str = "nvvm.grid_constant";
    pub const LLVM_ALIGN: &str = "llvm.align";
    pub const LLVM_BYVAL: &str = "llvm.byval";
    pub const LLVM_TARGET_TRIPLE: &str = "llvm.target_triple";
}

/// Op-name prefixes, each standing for the ops whose names start with it.
pub(crate) mod prefixes {
    /// The special-register reads.
    pub const NVVM_SREG: &str = "nvvm.read.ptx.sreg.";
    pub const NVVM_SREG_CLUSTER: &str = "nvvm.read.ptx.sreg.cluster";
    /// `llvm.mlir.constant`, `llvm.mlir.addressof` and the like.
    pub const LLVM_MLIR: &str = "llvm.mlir.";
    /// `nvvm.cluster.arrive`, `nvvm.cluster.wait` and the like.
    pub const NVVM_CLUSTER_OPS: &str = "nvvm.cluster.";
    /// The cluster ops and every other op whose name starts so
    /// (`nvvm.clusterlaunchcontrol.*` included).
    pub const NVVM_CLUSTER: &str = "nvvm.cluster";
    pub const NVVM_BULK_TENSOR: &str = "nvvm.cp.async.bulk.tensor";
    pub const NVVM_BULK_REDUCE: &str = "nvvm.cp.reduce.async.bulk";
    pub const NVVM_BULK: &str = "nvvm.cp.async.bulk";
    pub const NVVM_MBARRIER_ARRIVE_DROP_EXPECT_TX: &str = "nvvm.mbarrier.arrive_drop.expect_tx";
    pub const NVVM_MBARRIER_EXPECT_TX: &str = "nvvm.mbarrier.expect_tx";
    pub const NVVM_MBARRIER_COMPLETE_TX: &str = "nvvm.mbarrier.complete_tx";
    pub const NVVM_FENCE_PROXY_ACQUIRE: &str = "nvvm.fence.proxy.acquire";
    pub const NVVM_FENCE_PROXY_RELEASE: &str = "nvvm.fence.proxy.release";
    pub const NVVM_ELECT_SYNC: &str = "nvvm.elect.sync";
    pub const NVVM_WGMMA: &str = "nvvm.wgmma";
    /// Every `vector` op (the emit route's `convert-vector-to-scf` rewrites
    /// only these).
    pub const VECTOR: &str = "vector.";
    pub const NVGPU_TMA_STORE: &str = "nvgpu.tma.async.store";
    pub const NVGPU_TMA: &str = "nvgpu.tma";
    pub const NVGPU_TMA_FENCE_DESCRIPTOR: &str = "nvgpu.tma.fence.descriptor";
    pub const NVGPU_MBARRIER_TRY_WAIT: &str = "nvgpu.mbarrier.try_wait";
    pub const NVGPU_MBARRIER_ARRIVE_EXPECT_TX: &str = "nvgpu.mbarrier.arrive.expect_tx";
    pub const NVGPU_WARPGROUP: &str = "nvgpu.warpgroup";
}

pub(crate) mod builtin {
    use super::{effect, OpName};
    pub const MODULE: OpName = effect("builtin.module");
    pub const UNREALIZED_CONVERSION_CAST: OpName = effect("builtin.unrealized_conversion_cast");
}

pub(crate) mod affine {
    use super::{recomputed, OpName};
    pub const APPLY: OpName = recomputed("affine.apply");
    pub const MIN: OpName = recomputed("affine.min");
    pub const MAX: OpName = recomputed("affine.max");
}

pub(crate) mod ub {
    use super::{recomputed, OpName};
    pub const POISON: OpName = recomputed("ub.poison");
}

pub(crate) mod vector {
    use super::{effect, OpName};
    pub const STORE: OpName = effect("vector.store");
    pub const TRANSFER_WRITE: OpName = effect("vector.transfer_write");
    pub const MASKEDSTORE: OpName = effect("vector.maskedstore");
    pub const SCATTER: OpName = effect("vector.scatter");
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
    pub const EXTSI: OpName = pure("arith.extsi");
}

pub(crate) mod gpu {
    use super::{effect, pure, recomputed, OpName};
    // Spelled once, in the dialect crate, whose kernel builders build them too.
    pub const THREAD_ID: OpName = recomputed(acopy_dialect::names::gpu::THREAD_ID);
    pub const BLOCK_DIM: OpName = recomputed(acopy_dialect::names::gpu::BLOCK_DIM);
    pub const BLOCK_ID: OpName = recomputed(acopy_dialect::names::gpu::BLOCK_ID);
    pub const MODULE: OpName = effect(acopy_dialect::names::gpu::MODULE);
    pub const FUNC: OpName = effect(acopy_dialect::names::gpu::FUNC);
    pub const LAUNCH_FUNC: OpName = effect("gpu.launch_func");
    pub const GLOBAL_ID: OpName = pure("gpu.global_id");
    pub const BARRIER: OpName = effect("gpu.barrier");
    pub const RETURN: OpName = effect("gpu.return");
    pub const DYNAMIC_SHARED_MEMORY: OpName = pure("gpu.dynamic_shared_memory");
    pub const GRID_DIM: OpName = recomputed("gpu.grid_dim");
    pub const CLUSTER_ID: OpName = recomputed("gpu.cluster_id");
    pub const CLUSTER_DIM: OpName = recomputed("gpu.cluster_dim");
    pub const CLUSTER_BLOCK_ID: OpName = recomputed("gpu.cluster_block_id");
    pub const LANE_ID: OpName = recomputed("gpu.lane_id");
    pub const BINARY: OpName = effect("gpu.binary");
    pub const ALL_REDUCE: OpName = effect("gpu.all_reduce");
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
    use super::{effect, pure, recomputed, OpName};
    pub const EXTRACT_ALIGNED_POINTER_AS_INDEX: OpName =
        pure("memref.extract_aligned_pointer_as_index");
    pub const EXTRACT_STRIDED_METADATA: OpName = pure("memref.extract_strided_metadata");
    pub const VIEW: OpName = pure("memref.view");
    pub const MEMORY_SPACE_CAST: OpName = pure("memref.memory_space_cast");
    pub const GET_GLOBAL: OpName = pure("memref.get_global");
    pub const CAST: OpName = recomputed("memref.cast");
    pub const SUBVIEW: OpName = recomputed("memref.subview");
    pub const REINTERPRET_CAST: OpName = recomputed("memref.reinterpret_cast");
    pub const EXPAND_SHAPE: OpName = recomputed("memref.expand_shape");
    pub const COLLAPSE_SHAPE: OpName = recomputed("memref.collapse_shape");
    pub const DIM: OpName = recomputed("memref.dim");
    pub const TRANSPOSE: OpName = pure("memref.transpose");
    pub const ASSUME_ALIGNMENT: OpName = effect("memref.assume_alignment");
    pub const LOAD: OpName = effect("memref.load");
    pub const STORE: OpName = effect("memref.store");
    pub const GLOBAL: OpName = effect("memref.global");
    pub const ATOMIC_RMW: OpName = effect("memref.atomic_rmw");
    pub const GENERIC_ATOMIC_RMW: OpName = effect("memref.generic_atomic_rmw");
    pub const COPY: OpName = effect("memref.copy");
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
    /// `bar.warp.sync mask`: the warp's lanes meet, their memory ordered.
    pub const BAR_WARP_SYNC: OpName = effect("nvvm.bar.warp.sync");
    pub const MBARRIER_INIT: OpName = effect("nvvm.mbarrier.init");
    pub const MBARRIER_ARRIVE: OpName = effect("nvvm.mbarrier.arrive");
    /// `nvvm.inline_ptx`: one PTX instruction, optionally predicated (no branch).
    pub const INLINE_PTX: OpName = effect("nvvm.inline_ptx");
    pub const MBARRIER_ARRIVE_EXPECT_TX: OpName = effect("nvvm.mbarrier.arrive.expect_tx");
    pub const MBARRIER_TRY_WAIT: OpName = effect("nvvm.mbarrier.try_wait");
    pub const MBARRIER_TEST_WAIT: OpName = effect("nvvm.mbarrier.test.wait");
    pub const FENCE_MBARRIER_INIT: OpName = effect("nvvm.fence.mbarrier.init");
    pub const FENCE_PROXY: OpName = effect("nvvm.fence.proxy");
    pub const CLUSTER_ARRIVE: OpName = effect("nvvm.cluster.arrive");
    /// `barrier.cluster.arrive.relaxed`: no memory ordering of its own; after
    /// `fence.mbarrier_init.release.cluster` the pair releases the inits.
    pub const CLUSTER_ARRIVE_RELAXED: OpName = effect("nvvm.cluster.arrive.relaxed");
    pub const CLUSTER_WAIT: OpName = effect("nvvm.cluster.wait");
    /// `griddepcontrol.wait` or `.launch_dependents` (its `kind`): programmatic
    /// dependent launch, which a warp-specialized loop's roles both run or
    /// neither (`plan::loops::warp_prologue`).
    pub const GRIDDEPCONTROL: OpName = effect("nvvm.griddepcontrol");
    pub const CP_ASYNC: OpName = effect("nvvm.cp.async.shared.global");
    pub const CP_ASYNC_COMMIT_GROUP: OpName = effect("nvvm.cp.async.commit.group");
    pub const CP_ASYNC_WAIT_GROUP: OpName = effect("nvvm.cp.async.wait.group");
    pub const CP_ASYNC_MBARRIER_ARRIVE: OpName = effect("nvvm.cp.async.mbarrier.arrive");
    /// `bar.sync id, count`: a barrier of some of the block's threads.
    pub const BARRIER: OpName = effect("nvvm.barrier");
    pub const BARRIER0: OpName = effect("nvvm.barrier0");
    pub const WGMMA_WAIT_GROUP: OpName = effect("nvvm.wgmma.wait.group.sync.aligned");
    pub const WGMMA_COMMIT_GROUP: OpName = effect("nvvm.wgmma.commit.group.sync.aligned");
    pub const TMA_LOAD: OpName = effect("nvvm.cp.async.bulk.tensor.shared.cluster.global");
    pub const TMA_STORE: OpName = effect("nvvm.cp.async.bulk.tensor.global.shared.cta");
    pub const TMA_REDUCE: OpName = effect("nvvm.cp.async.bulk.tensor.reduce");
    pub const BULK_COMMIT_GROUP: OpName = effect("nvvm.cp.async.bulk.commit.group");
    pub const BULK_WAIT_GROUP: OpName = effect("nvvm.cp.async.bulk.wait_group");
    /// `setmaxnreg.{inc,dec}`: a warpgroup takes registers from, or gives them
    /// back to, its CTA's pool.
    pub const SET_MAX_REGISTER: OpName = effect("nvvm.setmaxregister");
}

/// Every op above: what [`is_pure`] looks a name up in, and what the
/// registry test checks.
pub(crate) const ALL: &[OpName] = &[
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
    gpu::RETURN,
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
    nvvm::BAR_WARP_SYNC,
    nvvm::MBARRIER_INIT,
    nvvm::MBARRIER_ARRIVE,
    nvvm::INLINE_PTX,
    nvvm::MBARRIER_ARRIVE_EXPECT_TX,
    nvvm::MBARRIER_TRY_WAIT,
    nvvm::MBARRIER_TEST_WAIT,
    nvvm::FENCE_MBARRIER_INIT,
    nvvm::FENCE_PROXY,
    nvvm::SET_MAX_REGISTER,
    nvvm::CLUSTER_ARRIVE,
    nvvm::CLUSTER_ARRIVE_RELAXED,
    nvvm::CLUSTER_WAIT,
    nvvm::GRIDDEPCONTROL,
    nvvm::CP_ASYNC,
    nvvm::CP_ASYNC_COMMIT_GROUP,
    nvvm::CP_ASYNC_WAIT_GROUP,
    nvvm::CP_ASYNC_MBARRIER_ARRIVE,
    nvvm::BARRIER,
    nvvm::WGMMA_WAIT_GROUP,
    nvvm::WGMMA_COMMIT_GROUP,
    nvvm::TMA_LOAD,
    nvvm::TMA_STORE,
    nvvm::TMA_REDUCE,
    nvvm::BULK_COMMIT_GROUP,
    nvvm::BULK_WAIT_GROUP,
    builtin::MODULE,
    func::FUNC,
    gpu::MODULE,
    gpu::FUNC,
    gpu::LAUNCH_FUNC,
    llvm::FUNC,
    memref::CAST,
    memref::SUBVIEW,
    nvvm::CLUSTER_CTAID[0],
    nvvm::CLUSTER_CTAID[1],
    nvvm::CLUSTER_CTAID[2],
    builtin::UNREALIZED_CONVERSION_CAST,
    affine::APPLY,
    affine::MIN,
    affine::MAX,
    ub::POISON,
    vector::STORE,
    vector::TRANSFER_WRITE,
    vector::MASKEDSTORE,
    vector::SCATTER,
    arith::EXTSI,
    gpu::GRID_DIM,
    gpu::CLUSTER_ID,
    gpu::CLUSTER_DIM,
    gpu::CLUSTER_BLOCK_ID,
    gpu::LANE_ID,
    gpu::BINARY,
    gpu::ALL_REDUCE,
    memref::REINTERPRET_CAST,
    memref::EXPAND_SHAPE,
    memref::COLLAPSE_SHAPE,
    memref::DIM,
    memref::TRANSPOSE,
    memref::ATOMIC_RMW,
    memref::GENERIC_ATOMIC_RMW,
    memref::COPY,
    nvvm::BARRIER0,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_emitted_op_is_registered_once() {
        let context = crate::context::create_context().expect("a context");
        for op in ALL {
            // Ops the passes only match may live in a dialect that loads
            // when the parser meets it (`crate::context`); load it here.
            let dialect = op.name.split('.').next().unwrap_or_default();
            context.get_or_load_dialect(dialect);
            let name = melior::StringRef::new(op.name);
            // SAFETY: a live context and a string that outlives the call.
            let registered = unsafe {
                mlir_sys::mlirContextIsRegisteredOperation(context.to_raw(), name.to_raw())
            };
            assert!(registered, "{} is not a registered op", op.name);
        }
        let names: std::collections::HashSet<_> = ALL.iter().map(|op| op.name).collect();
        assert_eq!(names.len(), ALL.len(), "an op is listed twice");
    }

    /// The loop analysis's purity as it was a string list in `ir::query`,
    /// kept here as the oracle the table must agree with.
    fn listed_pure(name: &str) -> bool {
        name.starts_with("arith.")
            || name.starts_with("index.")
            || matches!(
                name,
                "affine.apply"
                    | "affine.min"
                    | "affine.max"
                    | "gpu.thread_id"
                    | "gpu.block_id"
                    | "gpu.block_dim"
                    | "gpu.grid_dim"
                    | "gpu.cluster_id"
                    | "gpu.cluster_dim"
                    | "gpu.cluster_block_id"
                    | "gpu.lane_id"
                    | "memref.subview"
                    | "memref.cast"
                    | "memref.reinterpret_cast"
                    | "memref.expand_shape"
                    | "memref.collapse_shape"
                    | "memref.dim"
                    | "ub.poison"
            )
    }

    #[test]
    fn the_loop_analysis_recomputes_the_ops_it_always_did() {
        let probes = [
            "arith.divsi",
            "arith.floordivsi",
            "index.add",
            "index.castu",
            "arith",
            "index",
            "memref.view",
            "memref.load",
            "gpu.global_id",
            "gpu.dynamic_shared_memory",
            "llvm.inttoptr",
            "nvvm.read.ptx.sreg.tid.x",
            "affine.for",
            "vector.load",
            "scf.for",
            "ub.unreachable",
        ];
        let names = ALL.iter().map(|op| op.name).chain(probes);
        for name in names {
            assert_eq!(is_pure(name), listed_pure(name), "{name}");
        }
        let table: Vec<&str> = ALL
            .iter()
            .filter(|op| op.recomputed && !is_dialect_wide(op.name))
            .map(|op| op.name)
            .collect();
        assert_eq!(table.len(), 18, "{table:?}");
    }

    fn is_dialect_wide(name: &str) -> bool {
        name.starts_with("arith.") || name.starts_with("index.")
    }

    #[test]
    fn the_builder_shares_the_ops_it_always_did() {
        let shared: Vec<&str> = ALL.iter().filter(|op| op.pure).map(|op| op.name).collect();
        let built_pure = [
            "arith.constant",
            "arith.addi",
            "arith.subi",
            "arith.muli",
            "arith.divui",
            "arith.remui",
            "arith.minui",
            "arith.andi",
            "arith.ori",
            "arith.xori",
            "arith.shli",
            "arith.shrui",
            "arith.cmpi",
            "arith.select",
            "arith.index_cast",
            "arith.index_castui",
            "arith.minsi",
            "arith.maxsi",
            "arith.maxui",
            "arith.ceildivsi",
            "arith.extui",
            "arith.trunci",
            "gpu.thread_id",
            "gpu.block_dim",
            "gpu.block_id",
            "gpu.global_id",
            "gpu.dynamic_shared_memory",
            "llvm.inttoptr",
            "llvm.ptrtoint",
            "llvm.addrspacecast",
            "llvm.getelementptr",
            "memref.extract_aligned_pointer_as_index",
            "memref.extract_strided_metadata",
            "memref.view",
            "memref.memory_space_cast",
            "memref.get_global",
            "nvvm.read.ptx.sreg.cluster.ctarank",
            "nvvm.read.ptx.sreg.cluster.ctaid.x",
            "nvvm.read.ptx.sreg.cluster.ctaid.y",
            "nvvm.read.ptx.sreg.cluster.ctaid.z",
        ];
        // Pure ops the passes match and never build: the builder never asks.
        let matched_pure = [
            "memref.cast",
            "memref.subview",
            "affine.apply",
            "affine.min",
            "affine.max",
            "ub.poison",
            "arith.extsi",
            "gpu.grid_dim",
            "gpu.cluster_id",
            "gpu.cluster_dim",
            "gpu.cluster_block_id",
            "gpu.lane_id",
            "memref.reinterpret_cast",
            "memref.expand_shape",
            "memref.collapse_shape",
            "memref.dim",
            "memref.transpose",
        ];
        let mut expected: Vec<&str> = built_pure.iter().chain(&matched_pure).copied().collect();
        let mut shared = shared;
        expected.sort_unstable();
        shared.sort_unstable();
        assert_eq!(shared, expected);
        assert!(
            ALL.iter().all(|op| op.pure || !op.recomputed),
            "a recomputed op is pure"
        );
    }
}
