//! `acopy.swizzled_index`: the stored (row, column) of a logical element of a
//! shared tile, from its plan (`crate::plan::swizzled_index`). Pure index
//! arithmetic relative to the tile (whose start the copies align to the
//! pattern's repeat): constant indices fold to constants through the plan's
//! own formula; otherwise the logical byte offset is placed in its column
//! panel and moved by the pattern with the very functions the cp.async copy
//! uses on each chunk (`super::cp_async`'s `paneled` and `pattern`), then
//! divided back into a row and a column.

use acopy_dialect::SwizzledIndex;
use melior::ir::{OperationRef, Value, ValueLike};

use super::cp_async::{paneled, pattern};
use crate::ir::build::{Builder, Ix};
use crate::plan::swizzled_index::IndexPlan;

/// Builds the stored (row, column) before the op and redirects its uses.
pub(super) fn lower_index(view: &SwizzledIndex, b: &Builder) -> Result<(), String> {
    // `super::run` remembered the plan before the pipeliner and the copies'
    // lowering changed what writes the tile (`IndexPlan::of`).
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
        _ => stored(b, &plan, Ix::Val(view.row), Ix::Val(view.col))?,
    };
    replace_results(view.op, [b.ix(row)?, b.ix(col)?])
}

/// The stored (row, column) of (`row`, `col`) in IR: the plan's formula.
fn stored<'c, 'a>(
    b: &Builder<'c, 'a>,
    plan: &IndexPlan,
    row: Ix<'c, 'a>,
    col: Ix<'c, 'a>,
) -> Result<(Ix<'c, 'a>, Ix<'c, 'a>), String> {
    if plan.swizzle == 0 {
        return Ok((row, col));
    }
    let row_start = b.mul(row, Ix::Const(plan.row_bytes as i64))?;
    let col_bytes = b.mul(col, Ix::Const(plan.element_bytes as i64))?;
    let logical = b.add(row_start, col_bytes)?;
    let placed = match &plan.panels {
        Some(panels) => paneled(b, logical, panels)?,
        None => logical,
    };
    let moved = Ix::Val(pattern(b, b.ix(placed)?, plan.swizzle)?);
    // The pattern keeps a byte in its row: without panels the row is `row`.
    let stored_row = match plan.panels {
        Some(_) => b.div(moved, plan.row_bytes)?,
        None => row,
    };
    let in_row = b.rem_masked(moved, plan.row_bytes)?;
    Ok((stored_row, b.div(in_row, plan.element_bytes)?))
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
