//! The loop analysis: what a loop marked `acopy.pipeline` is, worked out once
//! from the IR, for `acopy-verify` (rules P1–P19) and `acopy-pipeline` alike.
//! Like the rest of `plan/`, it reads IR and builds nothing.
//!
//! **Needs**: an op carrying `acopy.pipeline` and the chips of the run
//! (`crate::target::ModuleChips`).
//!
//! **Guarantees**: [`analysis::analyze`] returns the loop's [`LoopPlan`] (its
//! copies, tiles, slots, stage count after the clamp, induction type, where
//! the slots go, the native form's barrier) or the first [`LoopProblem`] the
//! loop has, in the order of the rules table (`crate::verify::rules`, rows
//! P1–P19). The pipeliner rewrites exactly the plans; verification reports
//! exactly the problems. So what verifies is what the pipeliner accepts.
//!
//! **Layout**:
//!
//! | file | what |
//! |---|---|
//! | `mod.rs` | this map, and [`LoopPlan`] / [`LoopProblem`] re-exported |
//! | `analysis.rs` | [`analysis::analyze`]: the checks in rule order, then the plan |
//! | `attr.rs` | the `acopy.pipeline` request and its stage count (P1, P2) |
//! | `body_form.rs` | the body's shape: copies, one wait, consumers (P3, P4) |
//! | `tiles.rs` | each copy's tile, its uses and its slot (P5, P6, P8, P9) |
//! | `operand_slice.rs` | what a copy issued early recomputes (P7) |
//! | `native.rs` | the native TMA form's barrier (P12) |
//! | `multicast.rs` | multicast copies: who fills each slot, and the proof that its barrier expects the bytes that land (P9) |
//! | `async_consumers.rs` | wgmma consumers that read a slot after they are issued (P14–P16) |
//! | `budget.rs` | shared memory, static or dynamic (P10, P11) |
//! | `slots.rs` | slot alignment, padded slots and the per-chip budget (pure arithmetic) |
//! | `loop_plan.rs` | [`LoopPlan`], [`LoopProblem`], the induction type, the static trip count |
//! | `kept_plans.rs` | the plans verification accepted, kept for the pipeliner so a loop is analysed once per run |
//! | `war.rs` | the write-after-read warning for unmarked loops |
//! | `warp.rs` | a warp-specialized loop's block and place (P17, P18), and a producer warpgroup's chip (P19) |
//! | `warp_prologue.rs` | which ops before a warp-specialized loop only the consumers run (P18) |
//! | `registers.rs` | what a producer warpgroup's `setmaxnreg` gives the consumers |
//! | `warp_tests.rs` | tests: a loop's warp plan through the analysis (blocks, chips, registers) |

pub mod analysis;
pub mod async_consumers;
pub mod attr;
mod body_form;
mod budget;
pub mod kept_plans;
pub mod loop_plan;
pub mod multicast;
pub mod native;
mod operand_slice;
pub mod registers;
pub mod slots;
mod tiles;
pub mod war;
pub mod warp;
mod warp_prologue;
#[cfg(test)]
mod warp_tests;

pub use kept_plans::KeptPlans;
pub use loop_plan::{LoopPlan, LoopProblem};
