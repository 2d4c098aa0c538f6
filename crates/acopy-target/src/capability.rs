//! What a chip can do, and the copy implementation that follows from it.

use std::fmt;

/// The implementation acopy lowers an async copy to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CopyPath {
    /// Per-thread `cp.async` from global to shared memory (Ampere and Ada).
    CpAsync,
    /// The Tensor Memory Accelerator, `cp.async.bulk.tensor` (Hopper on).
    Tma,
}

impl fmt::Display for CopyPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CopyPath::CpAsync => "cp.async",
            CopyPath::Tma => "TMA",
        })
    }
}

/// A hardware feature that some supported chips have and others lack.
///
/// Which chip has which is decided in [`Chip::has`](crate::Chip::has), next to
/// the source of each fact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Capability {
    /// `cp.async` global to shared copies.
    CpAsync,
    /// Shared-memory `mbarrier` objects (init, arrive, test_wait).
    Mbarrier,
    /// `mbarrier.arrive` with a count: one thread arrives for several.
    MbarrierArriveCount,
    /// `mbarrier.try_wait`, the potentially blocking wait.
    MbarrierTryWait,
    /// TMA loads (`cp.async.bulk.tensor` global to shared) with mbarrier
    /// `expect_tx` accounting and bulk async-groups.
    Tma,
    /// TMA stores (`cp.async.bulk.tensor` shared to global).
    BulkStore,
    /// TMA stores with reduction (`cp.reduce.async.bulk.tensor`).
    BulkReduce,
    /// Thread block clusters: cluster special registers, `barrier.cluster`,
    /// and the `shared::cluster` state space.
    Clusters,
    /// `.multicast::cluster` TMA loads, writing one tile into several CTAs.
    Multicast,
    /// `.cta_group::2` TMA loads, where a CTA pair signals one mbarrier.
    CtaGroup2,
    /// `fence.proxy.async`, ordering the generic proxy against TMA.
    FenceProxyAsync,
    /// Warpgroup MMA (`wgmma.mma_async`) reading shared memory through matrix
    /// descriptors.
    Wgmma,
    /// `setmaxnreg`: a warpgroup gives registers back to its CTA's pool or
    /// takes them from it.
    SetMaxNReg,
}

impl Capability {
    /// Every capability, so callers and tests can iterate without listing them.
    pub const ALL: &'static [Capability] = &[
        Capability::CpAsync,
        Capability::Mbarrier,
        Capability::MbarrierArriveCount,
        Capability::MbarrierTryWait,
        Capability::Tma,
        Capability::BulkStore,
        Capability::BulkReduce,
        Capability::Clusters,
        Capability::Multicast,
        Capability::CtaGroup2,
        Capability::FenceProxyAsync,
        Capability::Wgmma,
        Capability::SetMaxNReg,
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copy_path_display() {
        assert_eq!(CopyPath::CpAsync.to_string(), "cp.async");
        assert_eq!(CopyPath::Tma.to_string(), "TMA");
    }
}
