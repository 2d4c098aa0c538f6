//! Errors raised while turning a chip name into a [`Chip`](crate::Chip).

use crate::chip::supported_names_list;

/// Why a chip name was rejected.
///
/// The two cases are kept apart because they need different advice: an
/// unknown name is probably a typo, while an old chip is a real chip that
/// simply lacks `cp.async`, the least acopy can lower to.
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
pub enum TargetError {
    /// The name is not a chip acopy knows, old or new.
    #[error("unknown chip {name:?}; acopy supports: {}", supported_names_list())]
    Unknown {
        /// The name exactly as it was given.
        name: String,
    },
    /// A real NVIDIA chip older than Ampere, which has no `cp.async`.
    #[error(
        "chip {name:?} is not supported: acopy needs sm_80 or newer \
         (the oldest copy it emits is cp.async, which sm_80 introduced)"
    )]
    BelowSm80 {
        /// The name exactly as it was given.
        name: String,
    },
}
