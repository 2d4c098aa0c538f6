//! The plans of one run's marked loops, kept from the analysis that accepted
//! them to the rewrite, so that a loop is analysed once per run where
//! nothing between the two changed what the analysis reads.
//!
//! Verification analyses every marked loop on the user's IR (each problem is
//! an error in walk order); the pipeliner then rewrites the loops one after
//! another. A rewrite changes its own kernel (attributions, attributes, body)
//! and may add shared globals (mbarriers) to the top level of its
//! `gpu.module`. The analysis of a loop reads its own kernel and, for the
//! shared-memory budget, its module's shared globals; nothing else a rewrite
//! writes (the launches change only after every loop is rewritten). So a
//! loop whose kernel an earlier rewrite of the run changed, or whose module
//! it gave a global, is analysed again on the rewritten IR, as it always
//! was; every other loop is rewritten from the plan kept here.

use melior::ir::{operation::OperationLike, OperationRef, RegionLike};

use super::LoopPlan;
use crate::ir::op_names::{gpu, OpName};

/// The kept plans, each taken once.
#[derive(Default)]
pub struct KeptPlans<'c, 'a> {
    plans: Vec<LoopPlan<'c, 'a>>,
    /// The kernels (by address) a rewrite of this run has changed.
    kernels: Vec<Option<usize>>,
    /// The `gpu.module`s (by address) a rewrite of this run gave a global.
    modules: Vec<Option<usize>>,
}

/// A rewrite about to run: its module, and how many ops the module's top
/// level held before it ([`KeptPlans::rewriting`]).
pub struct Rewriting<'c, 'a> {
    module: Option<OperationRef<'c, 'a>>,
    top_level: usize,
}

impl<'c, 'a> KeptPlans<'c, 'a> {
    /// Keeps the plan the analysis just accepted.
    pub fn keep(&mut self, plan: LoopPlan<'c, 'a>) {
        self.plans.push(plan);
    }

    /// The kept plan of `loop_op`, if it was kept and no rewrite has changed
    /// what its analysis reads since; `None` means: analyse the loop (again).
    pub fn take(&mut self, loop_op: OperationRef<'c, 'a>) -> Option<LoopPlan<'c, 'a>> {
        if self.kernels.contains(&address(loop_op, gpu::FUNC))
            || self.modules.contains(&address(loop_op, gpu::MODULE))
        {
            return None;
        }
        let position = self.plans.iter().position(|plan| plan.loop_op == loop_op)?;
        Some(self.plans.swap_remove(position))
    }

    /// Notes that `loop_op` is about to be rewritten: its kernel changes.
    pub fn rewriting(&mut self, loop_op: OperationRef<'c, 'a>) -> Rewriting<'c, 'a> {
        let kernel = address(loop_op, gpu::FUNC);
        if !self.kernels.contains(&kernel) {
            self.kernels.push(kernel);
        }
        let module = crate::target::enclosing(loop_op, gpu::MODULE);
        Rewriting {
            module,
            top_level: module.map_or(0, top_level_count),
        }
    }

    /// Notes what the rewrite begun with `rewriting` did to its module's top
    /// level, whether it succeeded or not: a global it added counts in the
    /// budget of every later loop of the module.
    pub fn rewritten(&mut self, rewriting: Rewriting<'c, 'a>) {
        let Some(module) = rewriting.module else {
            return;
        };
        let address = Some(module.to_raw().ptr as usize);
        if top_level_count(module) != rewriting.top_level && !self.modules.contains(&address) {
            self.modules.push(address);
        }
    }
}

/// The address of the innermost op `name` around `op`, if any.
fn address(op: OperationRef, name: OpName) -> Option<usize> {
    crate::target::enclosing(op, name).map(|found| found.to_raw().ptr as usize)
}

/// How many ops the top level of `module` holds.
fn top_level_count(module: OperationRef) -> usize {
    module
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
        .map_or(0, |block| crate::ir::query::top_level_ops(block).len())
}
