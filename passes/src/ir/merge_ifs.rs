//! Adjacent `scf.if`s on one condition, merged into the first.
//!
//! The lowering guards each copy's issue with its own `scf.if` on the issuer
//! condition (a TMA copy: `thread 0 of the block`), so a kernel of ten copies in
//! a row has ten regions on the same value, and LLVM twenty basic blocks where
//! two would do, which the NVPTX back end pays for per block
//! (bench/RESULTS.md, "compile speed"). Two ifs that follow each other with no
//! op between them, neither with results or an else region, and the same
//! condition value run their bodies under the same condition one after the
//! other: the second's body moves to the end of the first's, and the second
//! goes. This is upstream's `scf.if` canonicalization (`CombineIfs`) restricted
//! to the case that changes nothing but the regions, without running the
//! canonicalizer over the whole module. Where the lowering can tell that this
//! merge will take a copy's issue if, it builds the issue into the earlier if
//! at once (`super::build::joined_if`); the merge after the lowering takes the
//! rest, and any if the user wrote.

use melior::ir::{block::BlockLike, operation::OperationLike, OperationRef, RegionLike};
use mlir_sys::MlirOperation;

use super::build;
use super::op_names::scf;

/// Merges every run of adjacent result-less, else-less `scf.if`s on one
/// condition under `root` into its first if.
pub(crate) fn merge_adjacent(root: OperationRef) {
    let mut ifs: Vec<MlirOperation> = Vec::new();
    root.walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        if mergeable(&op) {
            ifs.push(op.to_raw());
        }
        melior::ir::operation::WalkResult::Advance
    });
    // In walk order the first if of a run comes before the ones it absorbs,
    // which are then skipped (erased); absorbed bodies move but stay alive.
    let mut erased: rustc_hash::FxHashSet<*mut std::ffi::c_void> = Default::default();
    for raw in ifs {
        if erased.contains(&raw.ptr) {
            continue;
        }
        // SAFETY: collected from the live IR above and not erased since.
        let first = unsafe { OperationRef::from_raw(raw) };
        while let Some(next) = first
            .next_in_block()
            .filter(|next| same_guard(&first, next))
        {
            // An if without the blocks it should have is left alone, and the run
            // ends: the loop never spins on an op it cannot absorb.
            if !absorb(first, next) {
                break;
            }
            erased.insert(next.to_raw().ptr);
        }
    }
}

/// An `scf.if` with no results, no else block and no attributes of its own
/// (a role's region carries `acopy.issuers` or `acopy.consumers`, which a merge
/// would give to, or take from, the other if's ops).
pub(crate) fn mergeable(op: &OperationRef) -> bool {
    super::is(op, scf::IF)
        && op.result_count() == 0
        && op
            .region(1)
            .map_or(true, |otherwise| otherwise.first_block().is_none())
        // SAFETY: `op` is live.
        && unsafe { mlir_sys::mlirOperationGetNumDiscardableAttributes(op.to_raw()) } == 0
}

/// Whether `second` is a mergeable if on the same condition value as `first`.
fn same_guard(first: &OperationRef, second: &OperationRef) -> bool {
    mergeable(first)
        && mergeable(second)
        && matches!((first.operand(0), second.operand(0)), (Ok(a), Ok(b)) if a == b)
}

/// Moves the body of `next` (all but its `scf.yield`) to the end of `first`'s,
/// then erases `next`; false, and nothing done, when either lacks its then block.
fn absorb(first: OperationRef, next: OperationRef) -> bool {
    let (Some(end), Some(body)) = (then_block_end(first), then_block(next)) else {
        return false;
    };
    let mut op = body.first_operation();
    while let Some(current) = op {
        op = current.next_in_block();
        if op.is_none() {
            break; // the scf.yield
        }
        // SAFETY: both ops are live; `current` leaves `next`'s block for the
        // block of `first`, which sees every value `next`'s body could use
        // (the two ifs are in one block, side by side).
        unsafe { mlir_sys::mlirOperationMoveBefore(current.to_raw(), end.to_raw()) };
    }
    // SAFETY: `next` has no results and an empty body but its yield; nothing
    // refers to it.
    unsafe { build::erase(next) };
    true
}

fn then_block<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<melior::ir::BlockRef<'c, 'a>> {
    op.region(0).ok()?.first_block()
}

fn then_block_end<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    then_block(op)?.terminator()
}
