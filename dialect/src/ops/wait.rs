use melior::ir::OperationRef;

use super::operand::expect_name;
use crate::{attributes, names, ViewError};

fn pending(op: &OperationRef) -> Result<u32, ViewError> {
    let value = attributes::int_attr(op, "pending", "a non-negative i64", |value| {
        (0..=i64::from(u32::MAX)).contains(&value)
    })?;
    // The range check above makes the conversion lossless.
    Ok(value.map_or(0, |value| value as u32))
}

/// `acopy.wait_gmem_to_smem`: wait until at most `pending` load groups are in flight.
#[derive(Clone)]
pub struct WaitGmemToSmem<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub pending: u32,
}

impl<'c, 'a> WaitGmemToSmem<'c, 'a> {
    /// Reads the op and its `pending` count (default 0).
    pub fn from_op(op: OperationRef<'c, 'a>) -> Result<Self, ViewError> {
        expect_name(&op, names::WAIT_GMEM_TO_SMEM)?;
        Ok(Self {
            pending: pending(&op)?,
            op,
        })
    }
}

/// `acopy.wait_smem_to_gmem`: wait until at most `pending` store groups are in flight.
#[derive(Clone)]
pub struct WaitSmemToGmem<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub pending: u32,
    /// Wait only until the stores have read shared memory.
    pub read_only: bool,
}

impl<'c, 'a> WaitSmemToGmem<'c, 'a> {
    /// Reads the op, its `pending` count (default 0) and `read_only` (default false).
    pub fn from_op(op: OperationRef<'c, 'a>) -> Result<Self, ViewError> {
        expect_name(&op, names::WAIT_SMEM_TO_GMEM)?;
        Ok(Self {
            pending: pending(&op)?,
            read_only: attributes::bool_attr(&op, "read_only")?.unwrap_or(false),
            op,
        })
    }
}
