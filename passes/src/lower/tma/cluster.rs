//! Where a CTA sits in its CTA pair, as values built in the kernel (its place
//! in a collective group is `crate::plan::collective::Collective::position`).
//!
//! `%cluster_ctarank` numbers the CTAs of a cluster x fastest:
//! `rank = x + X * (y + Y * z)` for a cluster of X×Y×Z. The collective group
//! of a copy is the set of CTAs that differ only along its `collective_axes`.

use crate::ir::op_names::{arith, nvvm};

use crate::ir::build::{Builder, Ix};
use melior::ir::Value;

/// `%cluster_ctarank & 1` (the CTA's index in its pair) and the pair
/// leader's rank, `%cluster_ctarank & ~1`, as i32 values.
pub(crate) fn pair_position<'c, 'a>(
    b: &Builder<'c, 'a>,
) -> Result<(Value<'c, 'a>, Value<'c, 'a>), String> {
    let rank = b.value(nvvm::CLUSTER_CTARANK, &[], b.int_type(32), &[])?;
    let index = b.binary(arith::ANDI, rank, b.int(32, 1)?)?;
    let leader = b.binary(arith::SUBI, rank, index)?;
    Ok((index, leader))
}

/// An i32 value as an `index` [`Ix`].
pub(crate) fn to_index<'c, 'a>(
    b: &Builder<'c, 'a>,
    value: Value<'c, 'a>,
) -> Result<Ix<'c, 'a>, String> {
    Ok(Ix::Val(b.index_cast(value, b.index_type())?))
}
