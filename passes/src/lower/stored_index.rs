//! `acopy.swizzled_index`: the stored (row, column) of a logical element of a
//! shared tile, from its plan (`crate::plan::swizzled_index`). Pure index
//! arithmetic relative to the tile (whose start the copies align to the
//! pattern's repeat): constant indices fold to constants through the plan's
//! own formula (`IndexPlan::physical`); otherwise the same formula is built in
//! IR, part by part, so that the row enters only through a small XOR term and
//! rows 8 apart (the matrices of successive `ldmatrix`es) stay a constant
//! apart, which the backend folds into the address instead of holding one
//! register per swizzled address.

use acopy_dialect::SwizzledIndex;
use melior::ir::{OperationRef, Value, ValueLike};

use crate::ir::build::{Builder, Ix};
use crate::ir::op_names::arith;
use crate::plan::swizzled_index::IndexPlan;

/// Builds the stored (row, column) before the op and redirects its uses.
pub(super) fn lower_index(view: &SwizzledIndex, b: &Builder) -> Result<(), String> {
    // `super::run` pinned the plan on the op before the pipeliner and the
    // copies' lowering changed what writes the tile (`crate::plan::pinned`).
    let plan = IndexPlan::of(view).map_err(|problem| {
        format!("internal error: acopy-verify accepted a swizzled_index without a plan: {problem}")
    })?;
    // Folded only below 2^32, where the plan's products cannot overflow; other
    // constants (outside any tile) take the run-time arithmetic, which wraps.
    let constant = |value| crate::ir::constant_int(value).and_then(|c| u32::try_from(c).ok());
    let (row, col) = match (constant(view.row), constant(view.col)) {
        (Some(row), Some(col)) => {
            let (row, col) = plan.physical(row.into(), col.into());
            (Ix::Const(row as i64), Ix::Const(col as i64))
        }
        (row, col) => {
            // A constant index keeps its part of the arithmetic constant.
            let part =
                |known: Option<u32>, value| known.map_or(Ix::Val(value), |c| Ix::Const(c.into()));
            stored(b, &plan, part(row, view.row), part(col, view.col))?
        }
    };
    replace_results(view.op, [b.ix(row)?, b.ix(col)?])
}

/// The stored (row, column) of (`row`, `col`) in IR: `IndexPlan::physical`
/// step by step (its comment says why the row's part of the XOR is enough).
fn stored<'c, 'a>(
    b: &Builder<'c, 'a>,
    plan: &IndexPlan,
    row: Ix<'c, 'a>,
    col: Ix<'c, 'a>,
) -> Result<(Ix<'c, 'a>, Ix<'c, 'a>), String> {
    let span = u64::from(plan.swizzle);
    if span == 0 {
        return Ok((row, col));
    }
    if plan.panels.is_none() && plan.row_bytes != span {
        return Err(format!(
            "internal error: acopy-verify accepted a swizzled_index of rows of {} bytes, neither one {span}-byte span nor column panels",
            plan.row_bytes
        ));
    }
    let col_bytes = b.mul(col, Ix::Const(plan.element_bytes as i64))?;
    let row_start = b.mul(row, Ix::Const(span as i64))?;
    // Bits 7.. of the row's start, as the 16-byte unit they XOR:
    // ((o >> 7) mod (S / 16)) * 16, constant for a constant row.
    let unit = b.rem_masked(b.div(row_start, 128u64)?, span / 16)?;
    let unit_bits = b.ix(b.mul(unit, Ix::Const(16))?)?;
    let within = b.ix(b.rem_masked(col_bytes, span)?)?;
    let moved = Ix::Val(b.binary(arith::XORI, within, unit_bits)?);
    let Some(panels) = &plan.panels else {
        return Ok((row, b.div(moved, plan.element_bytes)?));
    };
    let panel = b.div(col_bytes, span)?;
    let panel_start = b.mul(panel, Ix::Const(panels.bytes() as i64))?;
    let stored = b.add(b.add(panel_start, row_start)?, moved)?;
    let in_row = b.rem_masked(stored, plan.row_bytes)?;
    Ok((
        b.div(stored, plan.row_bytes)?,
        b.div(in_row, plan.element_bytes)?,
    ))
}

/// Points every use of `op`'s two results at `values`, so the op can be
/// erased.
fn replace_results<'c, 'a>(
    op: OperationRef<'c, 'a>,
    values: [Value<'c, 'a>; 2],
) -> Result<(), String> {
    for (position, value) in values.into_iter().enumerate() {
        let result = op.result(position).map_err(|error| {
            format!("internal error: swizzled_index without result {position}: {error}")
        })?;
        // SAFETY: both values are live and of type index; MLIR moves the uses.
        unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(result.to_raw(), value.to_raw()) };
    }
    Ok(())
}
