//! Capability gating: NVVM ops that only some chips have. llc aborts the
//! process with "Cannot select" on an instruction the chip lacks, so
//! `acopy-prepare-emit` refuses such an op with an error at it first, and
//! `acopy-lower` does before it retargets a `gpu.module` to the chip it lowered
//! it for (a user's op the new chip lacks would otherwise make the module fail
//! NVVM's verifier, or reach llc).

use acopy_target::{Capability, PtxVersion};

use crate::ir::op_names::{nvvm, prefixes};

/// NVVM ops that need a capability, by name prefix; the first match decides.
/// An op on this list never reaches LLVM for a chip without the capability.
const GATED_OPS: &[(&str, Capability)] = &[
    (prefixes::NVVM_BULK_TENSOR, Capability::Tma),
    (prefixes::NVVM_BULK_REDUCE, Capability::BulkReduce),
    (prefixes::NVVM_BULK, Capability::Tma),
    (nvvm::MBARRIER_TRY_WAIT.name, Capability::MbarrierTryWait),
    (nvvm::MBARRIER_ARRIVE_EXPECT_TX.name, Capability::Tma),
    (
        prefixes::NVVM_MBARRIER_ARRIVE_DROP_EXPECT_TX,
        Capability::Tma,
    ),
    (prefixes::NVVM_MBARRIER_EXPECT_TX, Capability::Tma),
    (prefixes::NVVM_MBARRIER_COMPLETE_TX, Capability::Tma),
    (nvvm::FENCE_PROXY.name, Capability::FenceProxyAsync),
    (nvvm::SET_MAX_REGISTER.name, Capability::SetMaxNReg),
    (nvvm::FENCE_MBARRIER_INIT.name, Capability::Clusters),
    (prefixes::NVVM_CLUSTER, Capability::Clusters),
    (prefixes::NVVM_SREG_CLUSTER, Capability::Clusters),
    (nvvm::MAPA.name, Capability::Clusters),
    (prefixes::NVVM_ELECT_SYNC, Capability::Clusters),
    // wgmma is sm_90a only (not forward compatible); NVVM's verifier lets it
    // through on sm_100a and newer, where llc cannot select it.
    (prefixes::NVVM_WGMMA, Capability::Wgmma),
    // nvgpu ops that convert-nvgpu-to-nvvm turns into the NVVM ops above,
    // refused at the nvgpu op, before the route lowers it.
    (prefixes::NVGPU_TMA_STORE, Capability::BulkStore),
    (prefixes::NVGPU_TMA, Capability::Tma),
    (
        prefixes::NVGPU_MBARRIER_TRY_WAIT,
        Capability::MbarrierTryWait,
    ),
    (prefixes::NVGPU_MBARRIER_ARRIVE_EXPECT_TX, Capability::Tma),
    (prefixes::NVGPU_WARPGROUP, Capability::Wgmma),
];

/// Ops that need a newer PTX ISA than some chips are compiled with
/// ([`acopy_target::Chip::ptx_version`]), by name prefix: llc aborts with
/// "Cannot select" on them under an older `+ptxNN`.
/// `fence.proxy.tensormap::generic` is PTX 8.3 (PTX ISA, "membar/fence").
const PTX_GATED_OPS: &[(&str, PtxVersion)] = &[
    (prefixes::NVGPU_TMA_FENCE_DESCRIPTOR, PtxVersion::new(8, 3)),
    (prefixes::NVVM_FENCE_PROXY_ACQUIRE, PtxVersion::new(8, 3)),
    (prefixes::NVVM_FENCE_PROXY_RELEASE, PtxVersion::new(8, 3)),
];

/// The PTX ISA `name` needs, if it is on [`PTX_GATED_OPS`].
pub fn required_ptx(name: &str) -> Option<PtxVersion> {
    PTX_GATED_OPS
        .iter()
        .find(|(prefix, _)| name.starts_with(prefix))
        .map(|(_, version)| *version)
}

/// The capability `name` needs, if it is on [`GATED_OPS`].
pub fn required_capability(name: &str) -> Option<Capability> {
    GATED_OPS
        .iter()
        .find(|(prefix, _)| name.starts_with(prefix))
        .map(|(_, capability)| *capability)
}

/// Why an op named `name` cannot be compiled for one of `chips`, if it cannot:
/// a capability the chip lacks, or a PTX ISA newer than the chip is compiled with.
pub(crate) fn refusal(name: &str, chips: &[acopy_target::Chip]) -> Option<String> {
    if let Some(capability) = required_capability(name) {
        if let Some(chip) = chips.iter().find(|chip| !chip.has(capability)) {
            return Some(format!(
                "'{name}' cannot be compiled for {chip}: it needs {capability:?}, which {chip} does not have"
            ));
        }
    }
    let needed = required_ptx(name)?;
    let chip = chips.iter().find(|chip| chip.ptx_version() < needed)?;
    Some(format!(
        "'{name}' cannot be compiled for {chip}: it needs PTX {needed}, and {chip} is compiled with PTX {}",
        chip.ptx_version()
    ))
}

/// Reports, at each op of `module` that `chip` cannot compile ([`refusal`]),
/// an error; returns whether any was reported.
pub(crate) fn refuse_unsupported(
    module: melior::ir::OperationRef,
    chip: acopy_target::Chip,
) -> bool {
    use melior::ir::operation::{OperationLike, WalkOrder, WalkResult};
    let mut refused = false;
    module.walk(WalkOrder::PreOrder, |op| {
        if let Some(message) = refusal(&crate::ir::op_name(&op), &[chip]) {
            acopy_dialect::diagnostics::emit_error(op.location(), &message);
            refused = true;
        }
        WalkResult::Advance
    });
    refused
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
        assert_eq!(
            required_capability("nvgpu.tma.async.store"),
            Some(Capability::BulkStore)
        );
        assert_eq!(
            required_capability("nvgpu.tma.async.load"),
            Some(Capability::Tma)
        );
        assert_eq!(required_capability("nvgpu.mbarrier.arrive"), None);
        assert_eq!(
            required_ptx("nvvm.fence.proxy.acquire"),
            Some(PtxVersion::new(8, 3))
        );
        assert_eq!(required_ptx("nvvm.fence.proxy"), None);
    }
}
