//! The plan of a TMA store (`copy_smem_to_gmem` on sm_90 and newer): its
//! window, the reduction it performs, the kernel argument it writes through,
//! its tensor map and the shared tile's allocation. Whether its start takes
//! the TMA or the element-wise path is decided where the lowering builds the
//! start (`lower/tma/start.rs`): every store has both.

use acopy_dialect::CopySmemToGmem;
use acopy_manifest::TensorMap;
use melior::ir::ShapedTypeLike;

use super::{
    alignment::{view_root, Root},
    cp_async_load::static_shape,
    shape,
    source::{self, Access},
    tensor_map_key,
    tma_facts::SourceFacts,
    tma_load::tile_element,
    wide_tile::{self, BoxGrid},
    PlanError,
};

/// Everything the lowering of one TMA store needs, worked out from the IR.
pub(crate) struct TmaStorePlan<'c, 'a> {
    pub element_bytes: u64,
    /// The copy window in dst: the tile's shape padded with leading 1s.
    pub window: Vec<i64>,
    /// The `#nvvm.tma_redux_kind` of a reduction.
    pub reduction: Option<&'static str>,
    /// The kernel argument behind dst, and the window in it.
    pub destination: SourceFacts<'c, 'a>,
    pub map: TensorMap,
    /// The boxes of a window longer than 256 elements (fallback mode,
    /// docs/dialect.md, "Wide tiles"), in one bulk group; `None`: one box.
    pub boxes: Option<BoxGrid>,
    /// The allocation of the src tile, raised to `align`.
    pub tile: Root<'c, 'a>,
    /// The tile alignment TMA needs (128 bytes, 8 × the swizzle).
    pub align: u64,
    /// The src tile's swizzle in bytes (0 for none).
    pub swizzle: u32,
    /// The column panels of a swizzled row of several spans (fallback
    /// mode, docs/dialect.md, "Wide tiles"), for the element-wise path.
    pub panels: Option<wide_tile::Panels>,
}

impl<'c: 'a, 'a> TmaStorePlan<'c, 'a> {
    /// Plans `view`.
    pub fn of(view: &CopySmemToGmem<'c, 'a>) -> Result<Self, PlanError> {
        let element_type = tile_element(view.src_type)?;
        let window = shape::window_shape(view.dst_type.rank(), &static_shape(view.src_type)?);
        let reduction = match view.reduction_op {
            None => None,
            Some(op) => Some(shape::reduction_kind(op).ok_or(PlanError::Reduction)?),
        };
        let global = source::resolve(view.dst).map_err(|_| PlanError::Source)?;
        let destination = SourceFacts::read(global, &view.indices, &window, Access::Store);
        if destination.leaves.is_some() {
            return Err(PlanError::LeavesSubview);
        }
        let element_bytes = u64::from(element_type.bytes());
        let boxes = wide_tile::tma_split(&window, None, element_bytes, view.swizzle.bytes())
            .map_err(|_| PlanError::WideTile)?;
        let map = tensor_map_key::tensor_map(
            destination.arg_index,
            element_type,
            boxes.as_ref().map_or(&window, |grid| &grid.box_shape),
            view.swizzle,
        )?;
        let panels = wide_tile::panels(&window, element_bytes, view.swizzle.bytes())
            .map_err(|_| PlanError::WideTile)?;
        Ok(Self {
            element_bytes,
            window,
            reduction,
            destination,
            map,
            boxes,
            tile: view_root(view.src),
            align: shape::tma_smem_alignment(view.swizzle.bytes()),
            swizzle: view.swizzle.bytes(),
            panels,
        })
    }
}
