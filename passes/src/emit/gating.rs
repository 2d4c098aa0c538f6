//! Capability gating: NVVM ops that only some chips have. llc aborts the
//! process with "Cannot select" on an instruction the chip lacks, so
//! `acopy-prepare-emit` refuses such an op with an error at it first.

use acopy_target::Capability;

/// NVVM ops that need a capability, by name prefix; the first match decides.
/// An op on this list never reaches LLVM for a chip without the capability.
const GATED_OPS: &[(&str, Capability)] = &[
    ("nvvm.cp.async.bulk.tensor", Capability::Tma),
    ("nvvm.cp.reduce.async.bulk", Capability::BulkReduce),
    ("nvvm.cp.async.bulk", Capability::Tma),
    ("nvvm.mbarrier.try_wait", Capability::MbarrierTryWait),
    ("nvvm.mbarrier.arrive.expect_tx", Capability::Tma),
    ("nvvm.mbarrier.arrive_drop.expect_tx", Capability::Tma),
    ("nvvm.mbarrier.expect_tx", Capability::Tma),
    ("nvvm.mbarrier.complete_tx", Capability::Tma),
    ("nvvm.fence.proxy", Capability::FenceProxyAsync),
    ("nvvm.fence.mbarrier.init", Capability::Clusters),
    ("nvvm.cluster", Capability::Clusters),
    ("nvvm.read.ptx.sreg.cluster", Capability::Clusters),
    ("nvvm.mapa", Capability::Clusters),
    ("nvvm.elect.sync", Capability::Clusters),
];

/// The capability `name` needs, if it is on [`GATED_OPS`].
pub fn required_capability(name: &str) -> Option<Capability> {
    GATED_OPS
        .iter()
        .find(|(prefix, _)| name.starts_with(prefix))
        .map(|(_, capability)| *capability)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gated_ops_by_prefix() {
        assert_eq!(
            required_capability("nvvm.cp.async.bulk.tensor.shared.cluster.global"),
            Some(Capability::Tma)
        );
        assert_eq!(
            required_capability("nvvm.mbarrier.try_wait.parity"),
            Some(Capability::MbarrierTryWait)
        );
        assert_eq!(required_capability("nvvm.cp.async.shared.global"), None);
        assert_eq!(required_capability("nvvm.mbarrier.test.wait"), None);
        assert_eq!(required_capability("nvvm.mbarrier.init"), None);
    }
}
