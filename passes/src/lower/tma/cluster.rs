//! Where a CTA sits in its collective group (`crate::plan::collective`), as
//! values built in the kernel.
//!
//! `%cluster_ctarank` numbers the CTAs of a cluster x fastest:
//! `rank = x + X * (y + Y * z)` for a cluster of X×Y×Z. The collective group
//! of a copy is the set of CTAs that differ only along its `collective_axes`.

use crate::ir::op_names::{arith, nvvm};

use crate::ir::build::{Builder, Ix};
use crate::plan::collective::Collective;
use melior::ir::Value;

/// This CTA's index in its group (`0..size`), and the rank of the
/// group's first CTA, as i32 values.
pub(crate) fn position<'c, 'a>(
    group: &Collective,
    b: &Builder<'c, 'a>,
) -> Result<(Value<'c, 'a>, Value<'c, 'a>), String> {
    let i32_type = b.int_type(32);
    let rank = b.value(nvvm::CLUSTER_CTARANK, &[], i32_type, &[])?;
    let mut index = b.int(32, 0)?;
    let mut first = rank;
    let mut scale = 1i64;
    for &axis in &group.axes {
        let id = b.value(nvvm::CLUSTER_CTAID[axis], &[], i32_type, &[])?;
        let scaled = b.binary(arith::MULI, id, b.int(32, scale)?)?;
        index = b.binary(arith::ADDI, index, scaled)?;
        let stride = i64::try_from(group.stride(axis))
            .map_err(|_| "internal error: a cluster beyond 2^63 CTAs".to_string())?;
        let along = b.binary(arith::MULI, id, b.int(32, stride)?)?;
        first = b.binary(arith::SUBI, first, along)?;
        scale *= i64::from(group.cluster[axis]);
    }
    Ok((index, first))
}

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
