use melior::ir::{operation::OperationLike, r#type::MemRefType, OperationRef, Value};

use super::operand::{self, expect_name};
use crate::{attributes, names, ViewError};

/// Which dimension of the wgmma operand is contiguous in the tile: K (the
/// tile's rows run along K, as for A of a row-major A·B and B of A·Bᵀ), or M/N.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Major {
    K,
    Mn,
}

impl Major {
    const ALLOWED: &'static str = "\"k\", \"mn\"";

    /// The attribute spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Major::K => "k",
            Major::Mn => "mn",
        }
    }

    fn parse(value: &str) -> Option<Self> {
        match value {
            "k" => Some(Major::K),
            "mn" => Some(Major::Mn),
            _ => None,
        }
    }
}

/// `acopy.wgmma_descriptor`: the wgmma matrix descriptor of the operand that
/// starts `k` elements into each row of a shared `tile`.
#[derive(Clone)]
pub struct WgmmaDescriptor<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub tile: Value<'c, 'a>,
    pub tile_type: MemRefType<'c>,
    pub k: Value<'c, 'a>,
    /// Default K.
    pub major: Major,
}

impl<'c, 'a> WgmmaDescriptor<'c, 'a> {
    /// Reads the op: a statically shaped shared tile, an index, `major`.
    pub fn from_op(op: OperationRef<'c, 'a>) -> Result<Self, ViewError> {
        expect_name(&op, names::WGMMA_DESCRIPTOR)?;
        let operand_error = || ViewError::Operand("expected operands (tile, k)".into());
        let tile = op.operand(0).map_err(|_| operand_error())?;
        let k = op.operand(1).map_err(|_| operand_error())?;
        let tile_type = operand::shared_tile(tile, "tile")?;
        let major = attributes::enum_value(&op, "major", Major::ALLOWED, Major::parse)?;
        Ok(Self {
            op,
            tile,
            tile_type,
            k,
            major: major.unwrap_or(Major::K),
        })
    }
}
