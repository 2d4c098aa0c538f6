//! `acopy.wgmma_descriptor`: the 64-bit matrix descriptor of a shared tile,
//! from its plan (`crate::plan::wgmma_descriptor`): the fixed bits (leading
//! and stride byte offsets, swizzle mode) are constants of the plan; only the
//! start address, the tile's shared address plus `k` elements (in a K-major
//! tile of column panels: plus the panel of K step `k`; in an MN-major tile,
//! `k` rows of one panel), is computed.

use acopy_dialect::WgmmaDescriptor;
use melior::ir::{OperationRef, Value, ValueLike};

use super::{memref_address, tile_address::ensure_aligned};
use crate::ir::{
    build::{Builder, Ix},
    op_names::arith,
};
use crate::plan::{alignment::view_root, wgmma_descriptor::DescriptorPlan};

/// The start-address field: 18 bits of shared address, in 16-byte units.
const ADDRESS_MASK: i64 = 0x3_FFFF;

/// Builds the descriptor before the op and redirects the op's uses to it.
pub(super) fn lower_descriptor(view: &WgmmaDescriptor, b: &Builder) -> Result<(), String> {
    // The plan pinned on the op before the pipeliner and the copies' lowering
    // changed what writes the tile (`crate::plan::pinned`).
    let plan = DescriptorPlan::of(view)
        .map_err(|p| p.to_string())
        .map_err(|problem| {
            format!("internal error: acopy-verify accepted a wgmma descriptor without a plan: {problem}")
        })?;
    ensure_aligned(view_root(view.tile), plan.base_align)?;
    let bytes = plan.element_bytes as i64;
    let strided = memref_address::read_strided(b, view.tile, "tile")?;
    let offset = b.mul(strided.offset, Ix::Const(bytes))?;
    let k = match crate::ir::constant_int(view.k) {
        Some(k) => Ix::Const(k),
        None => Ix::Val(view.k),
    };
    let k_bytes = b.mul(k, Ix::Const(plan.k_bytes as i64))?;
    let k_bytes = match plan.panel_bytes {
        Some(panel_bytes) => in_panel(b, k_bytes, plan.swizzle.bytes().into(), panel_bytes)?,
        None => k_bytes,
    };
    let address = b.add(Ix::Val(strided.base), offset)?;
    let address = b.add(address, k_bytes)?;
    let address = b.index_cast(b.ix(address)?, b.int_type(64))?;
    let masked = b.binary(arith::ANDI, address, b.int(64, ADDRESS_MASK)?)?;
    let field = b.binary(arith::SHRUI, masked, b.int(64, 4)?)?;
    let descriptor = b.binary(arith::ORI, field, b.int(64, plan.fixed_bits as i64)?)?;
    replace_result(view.op, descriptor)
}

/// Where byte `k_bytes` of a row lies in a tile of column panels of `span`
/// bytes per row (docs/dialect.md, "Wide tiles"): panel `k_bytes / span`,
/// `panel_bytes` each, then `k_bytes mod span` into its row.
fn in_panel<'c, 'a>(
    b: &Builder<'c, 'a>,
    k_bytes: Ix<'c, 'a>,
    span: u64,
    panel_bytes: u64,
) -> Result<Ix<'c, 'a>, String> {
    let panel = b.div(k_bytes, span)?;
    let panel_start = b.mul(panel, Ix::Const(panel_bytes as i64))?;
    let within = b.rem_masked(k_bytes, span)?;
    b.add(panel_start, within)
}

/// Points every use of `op`'s result at `value`, so the op can be erased.
fn replace_result(op: OperationRef, value: Value) -> Result<(), String> {
    let result = op
        .result(0)
        .map_err(|error| format!("internal error: wgmma_descriptor without a result: {error}"))?;
    // SAFETY: both values are live and of type i64; MLIR moves the uses.
    unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(result.to_raw(), value.to_raw()) };
    Ok(())
}
