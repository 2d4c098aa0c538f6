use melior::ir::{r#type::MemRefType, OperationRef, Value};

use super::operand::{self, expect_name};
use crate::{
    attributes::{self, Axis, LeaderTracked, OobMode, Swizzle},
    names,
    segments::Segments,
    ViewError,
};

/// `acopy.copy_gmem_to_smem`: an asynchronous copy of a global window into a shared tile.
#[derive(Clone)]
pub struct CopyGmemToSmem<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub src: Value<'c, 'a>,
    pub src_type: MemRefType<'c>,
    pub dst: Value<'c, 'a>,
    pub dst_type: MemRefType<'c>,
    /// The window start, one per src dimension, outermost first.
    pub indices: Vec<Value<'c, 'a>>,
    pub barrier: Option<Value<'c, 'a>>,
    pub predicate: Option<Value<'c, 'a>>,
    /// `None` when the attribute is absent; [`Self::oob_mode_or_default`] applies the default.
    pub oob_mode: Option<OobMode>,
    pub collective_axes: Option<Vec<Axis>>,
    pub leader_tracked: Option<LeaderTracked>,
    pub swizzle: Swizzle,
    /// The frontend promises a 16-byte aligned innermost start (`assume_aligned_start`).
    pub assume_aligned_start: bool,
}

impl<'c, 'a> CopyGmemToSmem<'c, 'a> {
    /// Reads the op; fails on anything that does not depend on the chip.
    pub fn from_op(op: OperationRef<'c, 'a>) -> Result<Self, ViewError> {
        expect_name(&op, names::COPY_GMEM_TO_SMEM)?;
        let segments = Segments::read(&op, 5)?;
        let src = segments.one(0, "src")?;
        let dst = segments.one(1, "dst")?;
        let indices = segments.all(2);
        let barrier = segments.optional(3, "barrier")?;
        let predicate = segments.optional(4, "predicate")?;
        let src_type = operand::global_memref(src, "src")?;
        let dst_type = operand::shared_tile(dst, "dst")?;
        operand::indices(&indices, melior::ir::ShapedTypeLike::rank(&src_type), "src")?;
        operand::tile_rank(dst_type, "dst", src_type, "src")?;
        if let Some(barrier) = barrier {
            operand::barrier(barrier)?;
        }
        Ok(Self {
            op,
            src,
            src_type,
            dst,
            dst_type,
            indices,
            barrier,
            predicate,
            oob_mode: attributes::oob_mode(&op)?,
            collective_axes: attributes::collective_axes(&op)?,
            leader_tracked: attributes::leader_tracked(&op)?,
            swizzle: attributes::swizzle(&op)?,
            assume_aligned_start: attributes::assume_aligned_start(&op)?,
        })
    }

    /// The OOB mode, with the documented default (`"zeros"`) applied.
    pub fn oob_mode_or_default(&self) -> OobMode {
        self.oob_mode.unwrap_or_default()
    }
}
