use melior::ir::{operation::OperationLike, r#type::MemRefType, OperationRef, Value};

use super::operand::{self, expect_name};
use crate::{names, ViewError};

/// `acopy.swizzled_index`: where logical element (`row`, `col`) of a shared
/// `tile` is stored, as the tile's own (row, column) indices.
#[derive(Clone)]
pub struct SwizzledIndex<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub tile: Value<'c, 'a>,
    pub tile_type: MemRefType<'c>,
    pub row: Value<'c, 'a>,
    pub col: Value<'c, 'a>,
}

impl<'c, 'a> SwizzledIndex<'c, 'a> {
    /// Reads the op: a statically shaped shared tile and two indices.
    pub fn from_op(op: OperationRef<'c, 'a>) -> Result<Self, ViewError> {
        expect_name(&op, names::SWIZZLED_INDEX)?;
        let operand_error = || ViewError::Operand("expected operands (tile, row, col)".into());
        let tile = op.operand(0).map_err(|_| operand_error())?;
        let row = op.operand(1).map_err(|_| operand_error())?;
        let col = op.operand(2).map_err(|_| operand_error())?;
        let tile_type = operand::shared_tile(tile, "tile")?;
        Ok(Self {
            op,
            tile,
            tile_type,
            row,
            col,
        })
    }
}
