//! The plans of one run's marked loops, kept from the analysis that accepted
//! them to the rewrite, so that a loop is analysed once per run where
//! nothing between the two changed what the analysis reads.
//!
//! Verification analyses every marked loop on the user's IR (each problem is
//! an error in walk order); the pipeliner then rewrites the loops one after
//! another. A rewrite writes its kernel and the top level of its `gpu.module`
//! (the slots' shared globals, tile types), which the analysis of a later loop
//! of the same module reads (the shared-memory budget, the tiles), so such a
//! loop is analysed again on the rewritten IR, as it always was; the plan of
//! a loop whose module no rewrite has touched is the kept one.

use melior::ir::OperationRef;

use super::LoopPlan;

/// The kept plans, each taken once.
#[derive(Default)]
pub struct KeptPlans<'c, 'a> {
    plans: Vec<LoopPlan<'c, 'a>>,
    /// The `gpu.module`s (by address; `None` for a loop outside one) a
    /// rewrite of this run has changed.
    touched: Vec<Option<usize>>,
}

impl<'c, 'a> KeptPlans<'c, 'a> {
    /// Keeps the plan the analysis just accepted.
    pub fn keep(&mut self, plan: LoopPlan<'c, 'a>) {
        self.plans.push(plan);
    }

    /// The kept plan of `loop_op`, if it was kept and no rewrite has changed
    /// its module since; `None` means: analyse the loop (again).
    pub fn take(&mut self, loop_op: OperationRef<'c, 'a>) -> Option<LoopPlan<'c, 'a>> {
        if self.touched.contains(&module_of(loop_op)) {
            return None;
        }
        let position = self.plans.iter().position(|plan| plan.loop_op == loop_op)?;
        Some(self.plans.swap_remove(position))
    }

    /// Notes that `loop_op` is about to be rewritten, which changes its
    /// module for the analysis of every later loop there.
    pub fn rewriting(&mut self, loop_op: OperationRef) {
        let module = module_of(loop_op);
        if !self.touched.contains(&module) {
            self.touched.push(module);
        }
    }
}

fn module_of(loop_op: OperationRef) -> Option<usize> {
    crate::target::enclosing(loop_op, crate::ir::op_names::gpu::MODULE)
        .map(|module| module.to_raw().ptr as usize)
}
