//! PTX ISA versions and the instruction families acopy emits.

use std::fmt;

use crate::Capability;

/// A PTX ISA version, such as 8.0.
///
/// Ordering is by `major`, then `minor`, which is the order NVIDIA releases
/// them in, so `max` picks the version that covers both operands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PtxVersion {
    /// The part before the dot.
    pub major: u32,
    /// The part after the dot; every PTX release so far has a single digit.
    pub minor: u32,
}

impl PtxVersion {
    /// Builds a version from its two parts.
    pub const fn new(major: u32, minor: u32) -> Self {
        Self { major, minor }
    }

    /// The LLVM NVPTX subtarget feature that selects this version, e.g.
    /// `"+ptx80"` for 8.0.
    ///
    /// LLVM spells the feature as the two digits run together, which only
    /// works because minors stay below 10.
    pub fn feature(&self) -> String {
        format!("+ptx{}{}", self.major, self.minor)
    }
}

impl fmt::Display for PtxVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// The newest PTX ISA the installed LLVM 22 NVPTX backend can emit.
///
/// Checked with `llc -mtriple=nvptx64-nvidia-cuda -mattr=help` (LLVM
/// 22.1.8): the highest feature listed is `ptx90`, and `+ptx91` is rejected as
/// unknown. [`Chip::ptx_version`](crate::Chip::ptx_version) must never exceed
/// this, or llc would silently ignore the feature.
pub const LLVM_MAX_PTX: PtxVersion = PtxVersion::new(9, 0);

/// A group of PTX instructions that acopy emits and that share one minimum
/// PTX version and one hardware requirement.
///
/// The minimum PTX versions below are those of the PTX ISA manual's
/// "PTX ISA Notes" / "Target ISA Notes" for each instruction; where LLVM 22's
/// `llc` enforces the same gate it is noted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum InstructionFamily {
    /// `cp.async.{ca,cg}.shared.global`, `cp.async.commit_group`,
    /// `cp.async.wait_group`, `cp.async.mbarrier.arrive`.
    CpAsync,
    /// `mbarrier.init`, `mbarrier.arrive`, `mbarrier.test_wait[.parity]`,
    /// `mbarrier.inval`.
    Mbarrier,
    /// `mbarrier.try_wait` (and `.parity`).
    MbarrierTryWait,
    /// `mbarrier.expect_tx` and `mbarrier.arrive.expect_tx`, which count the
    /// bytes a TMA transfer will deliver.
    MbarrierExpectTx,
    /// `cp.async.bulk.tensor` global to shared (TMA load).
    TmaLoad,
    /// `cp.async.bulk.tensor` shared to global (TMA store).
    TmaStore,
    /// `cp.reduce.async.bulk.tensor` (TMA store with reduction).
    TmaReduce,
    /// `cp.async.bulk.commit_group` and `cp.async.bulk.wait_group[.read]`.
    BulkGroup,
    /// The `.multicast::cluster` form of a TMA load.
    Multicast,
    /// The `.cta_group::2` form of a TMA load (a CTA pair shares one barrier).
    CtaGroup2,
    /// Cluster special registers: `%cluster_ctarank`, `%cluster_nctarank`,
    /// `%clusterid`, `%cluster_ctaid` and friends.
    ClusterSregs,
    /// `barrier.cluster.arrive` and `barrier.cluster.wait`.
    ClusterBarrier,
    /// `fence.proxy.async`, ordering generic-proxy writes before async-proxy
    /// (TMA) reads of shared memory.
    FenceProxyAsync,
}

impl InstructionFamily {
    /// Every family, so callers and tests can iterate without listing them.
    pub const ALL: &'static [InstructionFamily] = &[
        InstructionFamily::CpAsync,
        InstructionFamily::Mbarrier,
        InstructionFamily::MbarrierTryWait,
        InstructionFamily::MbarrierExpectTx,
        InstructionFamily::TmaLoad,
        InstructionFamily::TmaStore,
        InstructionFamily::TmaReduce,
        InstructionFamily::BulkGroup,
        InstructionFamily::Multicast,
        InstructionFamily::CtaGroup2,
        InstructionFamily::ClusterSregs,
        InstructionFamily::ClusterBarrier,
        InstructionFamily::FenceProxyAsync,
    ];

    /// The hardware capability a chip needs to run this family at all.
    pub fn capability(self) -> Capability {
        match self {
            InstructionFamily::CpAsync => Capability::CpAsync,
            InstructionFamily::Mbarrier => Capability::Mbarrier,
            InstructionFamily::MbarrierTryWait => Capability::MbarrierTryWait,
            // expect_tx only exists to account for bulk async-proxy copies.
            InstructionFamily::MbarrierExpectTx
            | InstructionFamily::TmaLoad
            | InstructionFamily::BulkGroup => Capability::Tma,
            InstructionFamily::TmaStore => Capability::BulkStore,
            InstructionFamily::TmaReduce => Capability::BulkReduce,
            InstructionFamily::Multicast => Capability::Multicast,
            InstructionFamily::CtaGroup2 => Capability::CtaGroup2,
            InstructionFamily::ClusterSregs | InstructionFamily::ClusterBarrier => {
                Capability::Clusters
            }
            InstructionFamily::FenceProxyAsync => Capability::FenceProxyAsync,
        }
    }

    /// The first PTX ISA version that defines this family, regardless of
    /// chip. A chip may need a newer one just to be named in `.target`; see
    /// [`Chip::min_ptx`](crate::Chip::min_ptx).
    pub fn introduced_in(self) -> PtxVersion {
        match self {
            // PTX ISA: cp.async and mbarrier were introduced in PTX 7.0
            // alongside sm_80.
            InstructionFamily::CpAsync => PtxVersion::new(7, 0),
            // PTX ISA: mbarrier.init/arrive/test_wait came in PTX 7.0, but the
            // `.parity` form of test_wait that acopy's barrier wait uses on
            // sm_80..sm_89 came in PTX 7.1. llc 22 refuses it with +ptx70
            // ("Cannot select: intrinsic llvm.nvvm.mbarrier.test.wait.parity...").
            InstructionFamily::Mbarrier => PtxVersion::new(7, 1),
            // PTX ISA: mbarrier.try_wait, the cluster special registers and
            // barrier.cluster were introduced in PTX 7.8 alongside sm_90.
            // llc 22 agrees: it selects try_wait and barrier.cluster on sm_90
            // with +ptx78.
            InstructionFamily::MbarrierTryWait
            | InstructionFamily::ClusterSregs
            | InstructionFamily::ClusterBarrier => PtxVersion::new(7, 8),
            // PTX ISA: cp.async.bulk.tensor (with .multicast::cluster),
            // cp.reduce.async.bulk.tensor, cp.async.bulk.{commit,wait}_group,
            // mbarrier expect_tx and fence.proxy.async arrived in PTX 8.0.
            // llc 22 refuses TMA loads, bulk wait_group and arrive.expect_tx
            // on sm_90 with +ptx78 ("Cannot select").
            InstructionFamily::MbarrierExpectTx
            | InstructionFamily::TmaLoad
            | InstructionFamily::TmaStore
            | InstructionFamily::TmaReduce
            | InstructionFamily::BulkGroup
            | InstructionFamily::Multicast
            | InstructionFamily::FenceProxyAsync => PtxVersion::new(8, 0),
            // PTX ISA: .cta_group::2 on cp.async.bulk.tensor arrived in PTX
            // 8.6 with sm_100a/sm_101a.
            InstructionFamily::CtaGroup2 => PtxVersion::new(8, 6),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_order_is_major_then_minor() {
        assert!(PtxVersion::new(7, 8) < PtxVersion::new(8, 0));
        assert!(PtxVersion::new(8, 8) < PtxVersion::new(9, 0));
        assert!(PtxVersion::new(8, 6) > PtxVersion::new(8, 0));
    }

    #[test]
    fn version_display_and_feature() {
        assert_eq!(PtxVersion::new(8, 0).to_string(), "8.0");
        assert_eq!(PtxVersion::new(7, 8).to_string(), "7.8");
        assert_eq!(PtxVersion::new(8, 0).feature(), "+ptx80");
        assert_eq!(PtxVersion::new(9, 0).feature(), "+ptx90");
    }

    #[test]
    fn all_lists_each_family_once() {
        let mut seen = std::collections::HashSet::new();
        for f in InstructionFamily::ALL {
            assert!(seen.insert(*f), "{f:?} listed twice");
        }
        assert_eq!(seen.len(), 13);
    }
}
