//! A copy's issue `scf.if`, built into the previous copy's when
//! `crate::ir::merge_ifs` would merge the two afterwards anyway.
//!
//! The TMA lowering guards each copy's issue with an `scf.if` on the issuer
//! condition, and after the lowering `merge_ifs` moves the body of each such
//! if that directly follows another on the same condition into the first.
//! Building the if, its region and its yield only to merge them afterwards
//! was about 4 % of lowering kernels of ten TMA copies (bench/RESULTS.md,
//! compile speed). So [`Builder::issue_if`] looks at the ops before its
//! insertion point: past constants that only the copy being lowered uses
//! (the lowering erases those once the copy is gone), an if that `merge_ifs`
//! would merge the new one into takes the new body at its end instead.
//!
//! Whether the IR then is what the merge would have made is known only once
//! the copy is lowered and its constants erased. When all of them went, the
//! two ifs would have been adjacent, and nothing is inserted between two ops
//! the lowering has passed, so `merge_ifs` would have merged them. When one
//! stayed (the lowering used it), [`JoinedIfs::settle`] builds the if where
//! it would have been, right after the constants, and moves the body into
//! it. Either way the IR is op for op what building every if and merging
//! them afterwards makes; `merge_ifs` still runs after the lowering, for the
//! ifs that only become adjacent later.
//!
//! The pure ops of a joined body are remembered (`super::super::hoist`) for a
//! block of their own, as they would be in a new if's block: a stand-in
//! number that no block address can be (it is odd), so that what is shared
//! and what moves to the top is decided as before.

use melior::{
    ir::{block::BlockLike, operation::OperationLike, Location, OperationRef, RegionLike, Value},
    Context,
};
use mlir_sys::MlirOperation;

use super::{
    issue_joins::{Join, JoinedIfs},
    Builder,
};
use crate::ir::{merge_ifs, op_names::arith};

impl JoinedIfs {
    /// The earlier if that an issue if on `condition`, inserted before
    /// `anchor`, would be merged into, its then block's terminator, and the
    /// constants between them: only while no join of this copy is pending.
    /// MLIR's C API cannot step back from an op, so the candidate is the last
    /// issue if of the run, and the walk goes forward from it to `anchor`.
    fn joinable<'c, 'a>(
        &self,
        anchor: OperationRef<'c, 'a>,
        condition: Value<'c, 'a>,
    ) -> Option<(
        OperationRef<'c, 'a>,
        OperationRef<'c, 'a>,
        Vec<MlirOperation>,
    )> {
        let copy = self.copy.get()?;
        if self.pending.borrow().is_some() {
            return None;
        }
        // SAFETY: the last issue if stays live through the run (only
        // `merge_ifs`, after it, erases ifs).
        let into = unsafe { OperationRef::from_raw(self.last.get()?) };
        // An if without its then block is one `merge_ifs` leaves alone.
        if !merge_ifs::mergeable(&into) || into.operand(0).ok()? != condition {
            return None;
        }
        let end = then_end(into)?;
        let mut skipped = Vec::new();
        let mut current = into.next_in_block();
        while let Some(op) = current {
            if op == anchor {
                return Some((into, end, skipped));
            }
            if !used_by_alone(op, copy) {
                return None;
            }
            skipped.push(op.to_raw());
            current = op.next_in_block();
        }
        None
    }

    /// After the copy is lowered and erased, with the constants `erased` that
    /// went with it (`None`: the copy failed and stays) and the ops of its own
    /// it erased (`dropped`, `super::super::hoist::end_op`): a join whose
    /// constants did not all go is undone (module comment), as is any join of
    /// a failed copy. Returns whether a join was undone.
    pub fn settle(
        &self,
        context: &Context,
        erased: Option<&[MlirOperation]>,
        dropped: &[MlirOperation],
    ) -> Result<bool, String> {
        self.copy.set(None);
        let Some(join) = self.pending.take() else {
            return Ok(false);
        };
        // The copy's own if would follow the last constant that stayed.
        let place = match erased {
            Some(erased) => match join
                .skipped
                .iter()
                .rev()
                .find(|op| !erased.iter().any(|gone| gone.ptr == op.ptr))
            {
                Some(&stayed) => stayed,
                None => return Ok(false),
            },
            None => join.skipped.last().copied().unwrap_or(join.into),
        };
        // SAFETY: `place` was not erased, and the if and the body ops are
        // live (the lowering erases only acopy ops and constants).
        let own = unsafe { undo(context, &join, place, dropped) }?;
        self.last.set(Some(own));
        Ok(true)
    }
}

/// Whether `op` is a constant that only `copy` uses.
fn used_by_alone(op: OperationRef, copy: MlirOperation) -> bool {
    if !crate::ir::is(&op, arith::CONSTANT) || op.result_count() != 1 {
        return false;
    }
    // SAFETY: `op` is live with one result; its uses are live operands.
    unsafe {
        let mut using =
            mlir_sys::mlirValueGetFirstUse(mlir_sys::mlirOperationGetResult(op.to_raw(), 0));
        if using.ptr.is_null() {
            return false;
        }
        while !using.ptr.is_null() {
            if mlir_sys::mlirOpOperandGetOwner(using).ptr != copy.ptr {
                return false;
            }
            using = mlir_sys::mlirOpOperandGetNextUse(using);
        }
    }
    true
}

/// Builds the copy's own if right after `last` (the last constant that
/// stayed, or the earlier if), moves the copy's body from `join.into` into
/// it, and returns it. The body is what the copy inserted there, less what
/// it erased (`erased`) or moved up to its kernel's top since.
///
/// # Safety
/// `last` and `join.into` must be live, and each op of `join.body` live or
/// in `erased`.
unsafe fn undo(
    context: &Context,
    join: &Join,
    last: MlirOperation,
    erased: &[MlirOperation],
) -> Result<MlirOperation, String> {
    let missing = || "internal error: a joined issue if lost its place".to_string();
    // SAFETY: the caller's contract.
    let (last, into) = unsafe {
        (
            OperationRef::from_raw(last),
            OperationRef::from_raw(join.into),
        )
    };
    let next = last.next_in_block().ok_or_else(missing)?;
    // SAFETY: the location and the condition are the copy's, alive in the run.
    let (location, condition) = unsafe {
        (
            Location::from_raw(join.location),
            Value::from_raw(join.condition),
        )
    };
    let own = Builder::in_place(context, next)?
        .at(location)
        .insert_if(condition, false)?;
    let end = then_end(own).ok_or_else(missing)?;
    let body = then_end(into)
        .and_then(|end| end.block())
        .ok_or_else(missing)?
        .to_raw();
    for op in &join.body {
        if erased.iter().any(|gone| gone.ptr == op.ptr) {
            continue;
        }
        // SAFETY: not erased, so live (the caller's contract); one still in
        // the earlier if's body moves to the if built for it, which the values
        // it uses dominate as the earlier if did.
        unsafe {
            if mlir_sys::mlirOperationGetBlock(*op).ptr == body.ptr {
                mlir_sys::mlirOperationMoveBefore(*op, end.to_raw());
            }
        }
    }
    Ok(own.to_raw())
}

/// The terminator of `op`'s first region's block.
fn then_end<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    op.region(0).ok()?.first_block()?.terminator()
}

impl<'c, 'a> Builder<'c, 'a> {
    /// `scf.if %condition { then }` around a copy's issue, or `then` at the
    /// end of the earlier if this one would be merged into (module comment).
    pub fn issue_if(
        &self,
        condition: Value<'c, 'a>,
        then: impl FnOnce(&Builder<'c, 'a>) -> Result<(), String>,
    ) -> Result<(), String> {
        let Some(joins) = self.joins else {
            return self.if_then(condition, then);
        };
        let Some((into, end, skipped)) = joins.joinable(self.anchor, condition) else {
            let own = self.insert_if(condition, false)?;
            joins.last.set(Some(own.to_raw()));
            return then(&self.inside(own, 0)?);
        };
        let block = end
            .block()
            .ok_or_else(|| "internal error: a terminator outside a block".to_string())?;
        joins.pending.replace(Some(Join {
            into: into.to_raw(),
            body: Vec::new(),
            skipped,
            condition: {
                use melior::ir::ValueLike;
                condition.to_raw()
            },
            location: self.location.to_raw(),
        }));
        then(&Self {
            block,
            anchor: end,
            place: Some(joins.new_place()),
            ..*self
        })
    }
}

#[cfg(test)]
mod tests {
    use melior::ir::{
        block::BlockLike,
        operation::{OperationLike, WalkOrder, WalkResult},
        Module, OperationRef, RegionLike, Value,
    };
    use mlir_sys::MlirOperation;

    use super::{Builder, JoinedIfs};
    use crate::ir::{build, hoist, merge_ifs, op_names};

    /// Three stand-ins for copies (`memref.store`s), each after the constant
    /// it alone uses, as the bench's kernels have them.
    const TEXT: &str = r#"func.func @f(%cond: i1, %other: i1, %m: memref<4xf32>, %v: f32, %n: index) {
  %k = arith.constant 5 : index
  %c0 = arith.constant 0 : index
  memref.store %v, %m[%c0] : memref<4xf32>
  %c1 = arith.constant 1 : index
  memref.store %v, %m[%c1] : memref<4xf32>
  %c2 = arith.constant 2 : index
  memref.store %v, %m[%c2] : memref<4xf32>
  return
}"#;

    /// Copies that may not join: one after a constant another op uses too,
    /// one after an op that is no constant, one on another condition.
    const APART: &str = r#"func.func @f(%cond: i1, %other: i1, %m: memref<4xf32>, %v: f32, %n: index) {
  %k = arith.constant 5 : index
  %c0 = arith.constant 0 : index
  memref.store %v, %m[%c0] : memref<4xf32>
  %c1 = arith.constant 1 : index
  memref.store %v, %m[%c1] : memref<4xf32>
  %x = arith.addi %c0, %c0 : index
  memref.store %v, %m[%x] : memref<4xf32>
  memref.store %v, %m[%c1] : memref<4xf32>
  return
}"#;

    fn stores(module: &Module) -> Vec<MlirOperation> {
        crate::ir::query::ops_where(module.as_operation(), |op| {
            crate::ir::is(&op, op_names::memref::STORE)
        })
        .into_iter()
        .map(|op| op.to_raw())
        .collect()
    }

    fn ifs(module: &Module) -> usize {
        let mut count = 0;
        module.as_operation().walk(WalkOrder::PreOrder, |op| {
            count += usize::from(crate::ir::is(&op, op_names::scf::IF));
            WalkResult::Advance
        });
        count
    }

    /// How a "copy" is lowered.
    #[derive(Clone, Copy)]
    struct Copy {
        /// The function argument its issue if is on.
        condition: usize,
        /// Whether its body uses its constant (which then stays).
        uses: bool,
        /// Whether it fails (and stays).
        fails: bool,
    }

    /// What [`lower`] gives: the module's text (before `merge_ifs` when a copy
    /// failed, after otherwise), the ifs before the merge, the joins undone.
    type Lowered = (String, usize, usize);

    /// "Lowers" each store of `text` as the lowering does a TMA copy: an
    /// issue if whose body builds a product nothing uses (dropped after), a
    /// value of the kernel's arguments and one of a constant of the function
    /// (shared or not as the hoist decides, and stored to), and a store at an
    /// index computed from the copy's index where `uses`, else a barrier. The
    /// store goes unless it fails, and its constant with it if unused.
    fn lower(text: &str, joining: bool, copies: &[Copy]) -> Lowered {
        let context = crate::context::create_context().expect("context");
        let module = Module::parse(&context, text).expect("parses");
        let function = module.body().first_operation().expect("the function");
        let entry = function
            .region(0)
            .ok()
            .and_then(|region| region.first_block())
            .expect("an entry block");
        let argument = |index| -> Value { entry.argument(index).expect("argument").into() };
        let (memref, value, n) = (argument(2), argument(3), argument(4));
        let k: Value = entry
            .first_operation()
            .and_then(|k| k.result(0).ok())
            .expect("%k")
            .into();
        let _memo = hoist::scope();
        let joins = JoinedIfs::default();
        let mut undone = 0;
        let mut failed = false;
        for (raw, copy) in stores(&module).into_iter().zip(copies) {
            // SAFETY: found in the live module; erased below, not used after.
            let store = unsafe { OperationRef::from_raw(raw) };
            let index = store.operand(2).expect("an index");
            let b = if joining {
                joins.begin(store);
                Builder::joining(&context, store, &joins)
            } else {
                Builder::before(&context, store)
            }
            .expect("a builder");
            b.issue_if(argument(copy.condition), |b| {
                b.binary(op_names::arith::MULI, index, index)?;
                for shared in [
                    b.binary(op_names::arith::ADDI, n, n)?,
                    b.binary(op_names::arith::ADDI, k, k)?,
                ] {
                    b.op(op_names::memref::STORE, &[value, memref, shared], &[], &[])?;
                }
                if copy.uses {
                    let at = b.binary(op_names::arith::ADDI, index, index)?;
                    b.op(op_names::memref::STORE, &[value, memref, at], &[], &[])?;
                    Ok(())
                } else {
                    b.block_barrier()
                }
            })
            .expect("builds");
            let dropped = hoist::end_op();
            let erased = if copy.fails {
                failed = true;
                None
            } else {
                let defining = crate::ir::defining_op(index).expect("a defining op");
                // SAFETY: the store is live and has no results.
                unsafe { build::erase(store) };
                let mut erased = Vec::new();
                if crate::ir::is(&defining, op_names::arith::CONSTANT)
                    && hoist::unused(defining.to_raw())
                {
                    erased.push(defining.to_raw());
                    // SAFETY: live and unused.
                    unsafe { build::erase(defining) };
                }
                Some(erased)
            };
            let settled = joins.settle(&context, erased.as_deref(), &dropped);
            undone += usize::from(settled.expect("settles"));
        }
        let before_merge = ifs(&module);
        if !failed {
            hoist::erase_unused();
            merge_ifs::merge_adjacent(module.as_operation());
        }
        // With locations: an if built for a copy has the copy's.
        let flags =
            melior::ir::operation::OperationPrintingFlags::new().enable_debug_info(true, false);
        let text = module
            .as_operation()
            .to_string_with_flags(flags)
            .expect("prints");
        (text, before_merge, undone)
    }

    /// [`lower`] joined and not: the same IR, op for op; the joined one's ifs
    /// before the merge and joins undone.
    fn both(text: &str, copies: &[Copy]) -> (usize, usize) {
        let (merged, separate, none) = lower(text, false, copies);
        let (joined, fewer, undone) = lower(text, true, copies);
        assert_eq!(joined, merged);
        assert_eq!((separate, none), (copies.len(), 0), "{merged}");
        (fewer, undone)
    }

    /// Joined or not, the IR is the same, op for op: when each constant
    /// goes (two joins, one if), when one stays (that join undone), and when
    /// a copy fails (its join undone; the failed copy stays, so the next one
    /// cannot join). The joined bodies share what the hoist shares, no more.
    #[test]
    fn joining_makes_what_merging_makes() {
        for bits in 0..8u8 {
            for fails in [false, true] {
                let copies: Vec<Copy> = (0..3)
                    .map(|index| Copy {
                        condition: 0,
                        uses: bits & (1 << index) != 0,
                        fails: fails && index > 0,
                    })
                    .collect();
                let (fewer, undone) = both(TEXT, &copies);
                // The second and third copies join; a join whose copy used its
                // constant or failed is undone (a failed second copy stays
                // between, so the third does not join).
                let (joins, kept) = if fails {
                    (1, 0)
                } else {
                    (
                        2,
                        usize::from(!copies[1].uses) + usize::from(!copies[2].uses),
                    )
                };
                assert_eq!(undone, joins - kept, "{bits}, failing: {fails}");
                assert_eq!(fewer, 3 - kept, "{bits}, failing: {fails}");
            }
        }
    }

    /// No copy joins past a constant another op uses too, past an op that is
    /// no constant, or into an if on another condition.
    #[test]
    fn copies_apart_stay_apart() {
        let copies = [0, 0, 0, 1].map(|condition| Copy {
            condition,
            uses: false,
            fails: false,
        });
        assert_eq!(both(APART, &copies), (4, 0));
    }

    /// With every constant gone, the three bodies share the first if.
    #[test]
    fn three_copies_share_one_if() {
        let copy = Copy {
            condition: 0,
            uses: false,
            fails: false,
        };
        let (joined, before_merge, undone) = lower(TEXT, true, &[copy; 3]);
        assert_eq!((before_merge, undone), (1, 0));
        assert_eq!(joined.matches("scf.if").count(), 1, "{joined}");
        assert_eq!(joined.matches("gpu.barrier").count(), 3, "{joined}");
        // The kernel-level sum went to the top, the constant's stayed in each
        // body.
        assert_eq!(
            joined.matches("arith.addi %arg4, %arg4").count(),
            1,
            "{joined}"
        );
        assert_eq!(joined.matches("arith.addi %c5, %c5").count(), 3, "{joined}");
        assert!(joined.contains("loc("), "{joined}");
    }
}
