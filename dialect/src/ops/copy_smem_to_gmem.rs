use melior::ir::{r#type::MemRefType, OperationRef, ShapedTypeLike, Value};

use super::operand::{self, expect_name};
use crate::{
    attributes::{self, ReductionOp, Swizzle},
    names,
    segments::Segments,
    ViewError,
};

/// `acopy.copy_smem_to_gmem`: an asynchronous store of a shared tile into a global window.
#[derive(Clone)]
pub struct CopySmemToGmem<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub src: Value<'c, 'a>,
    pub src_type: MemRefType<'c>,
    pub dst: Value<'c, 'a>,
    pub dst_type: MemRefType<'c>,
    /// The window start in dst, one per dst dimension, outermost first.
    pub indices: Vec<Value<'c, 'a>>,
    pub predicate: Option<Value<'c, 'a>>,
    /// Whether the store closes a bulk group (default true).
    pub commit_group: bool,
    pub reduction_op: Option<ReductionOp>,
    /// The layout of the src tile: TMA's swizzle pattern, as a load with the
    /// same `swizzle` writes it (docs/dialect.md).
    pub swizzle: Swizzle,
    /// The frontend promises a 16-byte aligned innermost start (`assume_aligned_start`).
    pub assume_aligned_start: bool,
}

impl<'c, 'a> CopySmemToGmem<'c, 'a> {
    /// Reads the op; fails on anything that does not depend on the chip.
    pub fn from_op(op: OperationRef<'c, 'a>) -> Result<Self, ViewError> {
        expect_name(&op, names::COPY_SMEM_TO_GMEM)?;
        let segments = Segments::read(&op, 4)?;
        let src = segments.one(0, "src")?;
        let dst = segments.one(1, "dst")?;
        let indices = segments.all(2);
        let predicate = segments.optional(3, "predicate")?;
        let src_type = operand::shared_tile(src, "src")?;
        let dst_type = operand::global_memref(dst, "dst")?;
        operand::indices(&indices, dst_type.rank(), "dst")?;
        operand::tile_rank(src_type, "src", dst_type, "dst")?;
        Ok(Self {
            op,
            src,
            src_type,
            dst,
            dst_type,
            indices,
            predicate,
            commit_group: attributes::bool_attr(&op, "commit_group")?.unwrap_or(true),
            reduction_op: attributes::reduction_op(&op)?,
            swizzle: attributes::swizzle(&op)?,
            assume_aligned_start: attributes::assume_aligned_start(&op)?,
        })
    }
}
