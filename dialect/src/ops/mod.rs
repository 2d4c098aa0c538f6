//! Typed views of the eight acopy ops.
//!
//! A view is read from an [`OperationRef`](melior::ir::OperationRef) with
//! `from_op`, which checks everything that does not depend on the target chip:
//! operand segments, operand types and memory spaces, and attribute values.
//! Chip-dependent rules live in `acopy-passes`' verification table.

mod barrier;
mod copy_gmem_to_smem;
mod copy_smem_to_gmem;
mod operand;
mod swizzled_index;
mod wait;
mod wgmma_descriptor;

pub use barrier::{BarrierInit, BarrierWait};
pub use copy_gmem_to_smem::CopyGmemToSmem;
pub use copy_smem_to_gmem::CopySmemToGmem;
pub use swizzled_index::SwizzledIndex;
pub use wait::{WaitGmemToSmem, WaitSmemToGmem};
pub use wgmma_descriptor::{Major, WgmmaDescriptor};

use melior::ir::{operation::OperationLike, OperationRef};

use crate::{names, ViewError};

/// Any acopy op, read through its view.
pub enum AcopyOp<'c, 'a> {
    CopyGmemToSmem(CopyGmemToSmem<'c, 'a>),
    WaitGmemToSmem(WaitGmemToSmem<'c, 'a>),
    BarrierInit(BarrierInit<'c, 'a>),
    BarrierWait(BarrierWait<'c, 'a>),
    CopySmemToGmem(CopySmemToGmem<'c, 'a>),
    WaitSmemToGmem(WaitSmemToGmem<'c, 'a>),
    WgmmaDescriptor(WgmmaDescriptor<'c, 'a>),
    SwizzledIndex(SwizzledIndex<'c, 'a>),
}

impl<'c, 'a> AcopyOp<'c, 'a> {
    /// `None` for ops outside the acopy dialect; otherwise the view, or why it
    /// cannot be read.
    pub fn from_op(op: OperationRef<'c, 'a>) -> Option<Result<Self, ViewError>> {
        let name = op.name();
        let name = name.as_string_ref().as_str().ok()?;
        Some(match name {
            names::COPY_GMEM_TO_SMEM => CopyGmemToSmem::from_op(op).map(Self::CopyGmemToSmem),
            names::WAIT_GMEM_TO_SMEM => WaitGmemToSmem::from_op(op).map(Self::WaitGmemToSmem),
            names::BARRIER_INIT => BarrierInit::from_op(op).map(Self::BarrierInit),
            names::BARRIER_WAIT => BarrierWait::from_op(op).map(Self::BarrierWait),
            names::COPY_SMEM_TO_GMEM => CopySmemToGmem::from_op(op).map(Self::CopySmemToGmem),
            names::WAIT_SMEM_TO_GMEM => WaitSmemToGmem::from_op(op).map(Self::WaitSmemToGmem),
            names::WGMMA_DESCRIPTOR => WgmmaDescriptor::from_op(op).map(Self::WgmmaDescriptor),
            names::SWIZZLED_INDEX => SwizzledIndex::from_op(op).map(Self::SwizzledIndex),
            _ => return None,
        })
    }

    /// The underlying operation.
    pub fn op(&self) -> OperationRef<'c, 'a> {
        match self {
            AcopyOp::CopyGmemToSmem(view) => view.op,
            AcopyOp::WaitGmemToSmem(view) => view.op,
            AcopyOp::BarrierInit(view) => view.op,
            AcopyOp::BarrierWait(view) => view.op,
            AcopyOp::CopySmemToGmem(view) => view.op,
            AcopyOp::WaitSmemToGmem(view) => view.op,
            AcopyOp::WgmmaDescriptor(view) => view.op,
            AcopyOp::SwizzledIndex(view) => view.op,
        }
    }
}
