//! The facts about a copy's memrefs, read once from MLIR as plain data:
//! shapes, strides, element width, constant indices. The rules
//! (`verify/rules.rs`) read them.

use acopy_manifest::ElementType;
use melior::ir::{r#type::MemRefType, ShapedTypeLike, TypeLike, Value};

use super::shape;
use crate::ir::memref_layout::element_bits;
use crate::{ir, run_cache};

/// The global and shared memrefs of a copy, as plain data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopyFacts {
    /// `src` for loads, `dst` for stores.
    pub global_role: &'static str,
    pub global_type: String,
    /// Static sizes, `None` where dynamic.
    pub global_dims: Vec<Option<i64>>,
    /// Strides in elements (`None` where dynamic); `None` for a layout that
    /// is not strided.
    pub global_strides: Option<Vec<Option<i64>>>,
    /// `dst` for loads, `src` for stores.
    pub tile_role: &'static str,
    pub tile_type: String,
    pub tile_shape: Vec<i64>,
    /// Whether the tile is dense and row-major.
    pub tile_contiguous: bool,
    /// The tile's strides in elements (`None` where dynamic); `None` for a
    /// layout that is not strided.
    pub tile_strides: Option<Vec<Option<i64>>>,
    /// The tile's element type, in MLIR spelling (any type, for messages).
    pub tile_element: String,
    /// The tile's element type if a tensor map can describe it (rule A23).
    pub tile_tma_element: Option<ElementType>,
    /// The window: the tile's shape padded with leading 1s to the global rank.
    pub window: Vec<i64>,
    /// The window start, where each index is an `arith.constant`.
    pub starts: Vec<Option<i64>>,
    /// Element types of the op's `src` and `dst`, in MLIR spelling.
    pub src_element: String,
    pub dst_element: String,
    /// The bit width of the (global) element type, for integers and floats.
    pub element_bits: Option<u32>,
    /// Whether the element type is an integer (of any signedness).
    pub element_is_integer: bool,
}

impl CopyFacts {
    pub fn read(
        global_role: &'static str,
        global: MemRefType,
        tile_role: &'static str,
        tile: MemRefType,
        indices: &[Value],
    ) -> Option<Self> {
        // The view guarantees a static tile; without one there is nothing to check.
        let tile_shape: Vec<i64> = ir::shape(tile).into_iter().collect::<Option<_>>()?;
        let tile_strides = strides(tile);
        let tile_contiguous = strides(tile).is_some_and(|strides| {
            strides
                .into_iter()
                .collect::<Option<Vec<i64>>>()
                .is_some_and(|strides| shape::is_row_major(&tile_shape, &strides))
        });
        let (src, dst) = if global_role == "src" {
            (global, tile)
        } else {
            (tile, global)
        };
        Some(Self {
            global_role,
            global_type: run_cache::type_string(global.into()),
            global_dims: ir::shape(global),
            global_strides: strides(global),
            tile_role,
            tile_type: run_cache::type_string(tile.into()),
            window: shape::window_shape(global.rank(), &tile_shape),
            tile_shape,
            tile_contiguous,
            tile_strides,
            tile_element: run_cache::type_string(tile.element()),
            tile_tma_element: ElementType::from_mlir_name(&run_cache::type_string(tile.element())),
            starts: indices
                .iter()
                .map(|index| ir::constant_int(*index))
                .collect(),
            src_element: run_cache::type_string(src.element()),
            dst_element: run_cache::type_string(dst.element()),
            element_bits: element_bits(global.element()),
            element_is_integer: global.element().is_integer(),
        })
    }

    /// The window start and the global shape, when every index and every
    /// global dimension is a constant.
    pub fn constant_bounds(&self) -> Option<(Vec<i64>, Vec<i64>)> {
        let starts = self.starts.iter().copied().collect::<Option<Vec<_>>>()?;
        let dims = self
            .global_dims
            .iter()
            .copied()
            .collect::<Option<Vec<_>>>()?;
        (starts.len() == self.window.len() && dims.len() == self.window.len())
            .then_some((starts, dims))
    }
}

/// The strides of a memref in elements (`None` where dynamic), or `None` for
/// a layout that is not strided.
fn strides(memref: MemRefType) -> Option<Vec<Option<i64>>> {
    let (strides, _) = crate::run_cache::layout(memref)?;
    // SAFETY: a pure query of MLIR's dynamic-stride sentinel.
    let dynamic = unsafe { mlir_sys::mlirShapedTypeGetDynamicStrideOrOffset() };
    Some(
        strides
            .into_iter()
            .map(|stride| (stride != dynamic).then_some(stride))
            .collect(),
    )
}
