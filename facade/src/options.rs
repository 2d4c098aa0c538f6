//! What [`crate::compile`] does.

use acopy_passes::emit::Emit;
use acopy_target::Chip;

/// Options of [`crate::compile`], [`crate::verify`] and [`crate::add_passes`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Options {
    /// Overrides the chip of every `gpu.module` (otherwise each one's
    /// `#nvvm.target<chip = …>` decides).
    pub chip: Option<Chip>,
    /// Fallback mode: on cp.async chips, barrier, collective and
    /// leader-tracked copies are lowered without those features where the
    /// semantics can be kept (`docs/verification.md`), instead of being errors.
    pub fallback: bool,
    /// What to produce.
    pub emit: Emit,
    /// MLIR's multi-threading for the pass managers: `Some(true)` compiles
    /// `gpu.module`s in parallel (the upstream passes and the PTX of each on
    /// MLIR's thread pool, [`crate::Pipeline`]), with the outputs and
    /// diagnostics of one thread; `Some(false)` runs on the calling thread. `None`
    /// leaves the context as it is: single-threaded for a context
    /// [`crate::compile`] creates from text (diagnostics then come in IR
    /// order), the caller's setting for a module's own context.
    pub threads: Option<bool>,
}

impl Options {
    pub(crate) fn pass_options(&self) -> acopy_passes::PassOptions {
        acopy_passes::PassOptions {
            chip: self.chip,
            fallback: self.fallback,
            ..Default::default()
        }
    }
}
