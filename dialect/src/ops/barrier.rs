use melior::ir::{operation::OperationLike, OperationRef, Value};

use super::operand::{self, expect_name};
use crate::{attributes, names, ViewError};

/// `acopy.barrier_init`: initialise an mbarrier for `arrival_count` arrivals.
#[derive(Clone)]
pub struct BarrierInit<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub barrier: Value<'c, 'a>,
    pub arrival_count: u32,
}

impl<'c, 'a> BarrierInit<'c, 'a> {
    /// Reads the op and its `arrival_count` (default 1).
    pub fn from_op(op: OperationRef<'c, 'a>) -> Result<Self, ViewError> {
        expect_name(&op, names::BARRIER_INIT)?;
        let barrier = op
            .operand(0)
            .map_err(|_| ViewError::Operand("expected a barrier operand".into()))?;
        operand::barrier(barrier)?;
        // The mbarrier's pending count is a 20-bit field in hardware.
        let count =
            attributes::int_attr(&op, "arrival_count", "an i64 in [1, 1048575]", |value| {
                (1..(1 << 20)).contains(&value)
            })?;
        Ok(Self {
            op,
            barrier,
            arrival_count: count.map_or(1, |count| count as u32),
        })
    }
}

/// `acopy.barrier_wait`: block until the barrier phase with `parity` completes.
#[derive(Clone)]
pub struct BarrierWait<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub barrier: Value<'c, 'a>,
    pub parity: Value<'c, 'a>,
}

impl<'c, 'a> BarrierWait<'c, 'a> {
    /// Reads the op.
    pub fn from_op(op: OperationRef<'c, 'a>) -> Result<Self, ViewError> {
        expect_name(&op, names::BARRIER_WAIT)?;
        let operand_error = || ViewError::Operand("expected operands (barrier, parity)".into());
        let barrier = op.operand(0).map_err(|_| operand_error())?;
        let parity = op.operand(1).map_err(|_| operand_error())?;
        operand::barrier(barrier)?;
        Ok(Self {
            op,
            barrier,
            parity,
        })
    }
}
