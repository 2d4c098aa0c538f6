//! Running a pipeline on each `gpu.module` apart, on MLIR's thread pool, with
//! the outputs and diagnostics of one thread.
//!
//! Each chosen `gpu.module` is cloned into a `builtin.module` of its own, all
//! of them in one holder module; a pass manager on the holder runs the
//! pipeline nested on each of those `builtin.module`s, which MLIR spreads
//! over its threads (an op-agnostic pass such as `gpu-module-to-binary` runs
//! there once per `gpu.module`, where on the whole module it loops over them
//! on one thread). The input is not touched until the run has succeeded, so a
//! caller can still run the same passes on it on one thread.
//!
//! Diagnostics are one thread's by construction: any diagnostic during the
//! run (an error, a warning, a remark) voids it ([`Holder::run`] answers
//! `false`), and the caller runs the passes on the input on one thread, which
//! reports them as a one-thread run does. MLIR's threaded pass manager stops
//! scheduling after a failure, so which later modules would report too
//! depends on timing; one thread stops at the first.

use melior::{
    ir::{
        block::BlockLike,
        operation::{OperationLike, WalkOrder, WalkResult},
        Module, Operation, OperationRef, RegionLike,
    },
    pass::PassManager,
};

use crate::{diagnostics::Collector, ir};

/// Whether `module`'s context runs passes on more than one thread.
pub(crate) fn threaded(module: &Module) -> bool {
    threads(module) > 1
}

/// How many threads `module`'s context runs passes on.
pub(crate) fn threads(module: &Module) -> usize {
    let raw = acopy_dialect::with_context(module.context(), |context| context.to_raw());
    // SAFETY: a query of the module's live context.
    let threads = unsafe { mlir_sys::mlirContextGetNumThreads(raw) };
    usize::try_from(threads).unwrap_or(1)
}

/// Copies of some `gpu.module`s of a module, each in a `builtin.module` of
/// its own, and the originals they were copied from, in order.
pub(crate) struct Holder<'c, 'a> {
    pub(crate) module: Module<'c>,
    pub(crate) originals: Vec<OperationRef<'c, 'a>>,
}

impl<'c, 'a> Holder<'c, 'a> {
    /// Copies of the `gpu.module`s of `module` that `chosen` picks, or `None`
    /// when fewer than two are chosen or some `gpu.module` is not directly in
    /// `module`'s body (the route does not follow nested `builtin.module`s).
    pub(crate) fn of(
        module: &'a Module<'c>,
        chosen: impl Fn(OperationRef) -> bool,
    ) -> Option<Self> {
        let originals: Vec<_> = direct_gpu_modules(module)?
            .into_iter()
            .filter(|gpu_module| chosen(*gpu_module))
            .collect();
        if originals.len() < 2 {
            return None;
        }
        let holder = Module::new(module.as_operation().location());
        for original in &originals {
            let wrapper = Module::new(original.location());
            // SAFETY: cloning a live op gives a new op that nothing owns; the
            // wrapper's block takes it.
            let clone =
                unsafe { Operation::from_raw(mlir_sys::mlirOperationClone(original.to_raw())) };
            wrapper.body().append_operation(clone);
            // SAFETY: a module is its op. The holder's block takes ownership
            // of it, so the `Module` handle is forgotten, not dropped (which
            // would destroy the op).
            let wrapper = unsafe {
                let raw = mlir_sys::mlirModuleGetOperation(wrapper.to_raw());
                std::mem::forget(wrapper);
                Operation::from_raw(raw)
            };
            holder.body().append_operation(wrapper);
        }
        Some(Holder {
            module: holder,
            originals,
        })
    }

    /// Runs `manager` (anchored on the holder) and then `after`, with every
    /// diagnostic held back; `true` when both succeeded and nothing was
    /// reported.
    pub(crate) fn run(
        &mut self,
        manager: &PassManager,
        after: impl FnOnce(&Module) -> bool,
    ) -> bool {
        let collector = Collector::default();
        let module = &mut self.module;
        let succeeded = acopy_dialect::with_context(module.context(), |context| {
            let attached = collector.attach_scoped(context);
            let succeeded = manager.run(module).is_ok() && after(module);
            // SAFETY: the context is alive: the holder's module borrows it.
            unsafe { attached.detach() };
            succeeded
        });
        let reported = collector.take().len();
        if reported > 0 || !succeeded {
            tracing::debug!(
                reported,
                succeeded,
                "the per-module run is void: one thread instead"
            );
            return false;
        }
        true
    }

    /// Puts each copy in place of its original, which is erased.
    ///
    /// # Safety
    /// No handle to an original `gpu.module` (or to IR inside it) may be used
    /// after this call.
    pub(crate) unsafe fn replace_originals(self) {
        let mut wrapper = self.module.body().first_operation();
        for original in self.originals {
            let Some(current) = wrapper else { return };
            wrapper = current.next_in_block();
            let Some(copy) = current
                .region(0)
                .ok()
                .and_then(|region| region.first_block())
                .and_then(|block| block.first_operation())
            else {
                return;
            };
            // SAFETY: `copy` and `original` are live; moving the copy after
            // the original takes it out of its wrapper, and the original,
            // which nothing refers to but by name (the copy has the same
            // one), is then destroyed and unlinked.
            unsafe {
                mlir_sys::mlirOperationMoveAfter(copy.to_raw(), original.to_raw());
                mlir_sys::mlirOperationDestroy(original.to_raw());
            }
        }
    }
}

/// The `gpu.module`s of `module`, if every one of them is directly in its
/// body.
fn direct_gpu_modules<'c, 'a>(module: &'a Module<'c>) -> Option<Vec<OperationRef<'c, 'a>>> {
    let mut direct = Vec::new();
    let mut current = module.body().first_operation();
    while let Some(op) = current {
        if ir::is(&op, ir::op_names::gpu::MODULE) {
            direct.push(op);
        }
        current = op.next_in_block();
    }
    let mut all = 0usize;
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        if ir::is(&op, ir::op_names::gpu::MODULE) {
            all += 1;
        }
        WalkResult::Advance
    });
    (all == direct.len()).then_some(direct)
}
