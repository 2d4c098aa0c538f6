//! The plan of a cp.async copy: its window, its rows ([`super::chunk`]), and
//! what its base pointers are proved aligned to. What depends on values the
//! lowering builds (the window start, the strides it reads at run time) joins
//! the chunk choice there, through [`super::chunk::choose_chunk`].

use acopy_dialect::{CopyGmemToSmem, OobMode};
use melior::ir::{r#type::MemRefType, ShapedTypeLike};

use super::{
    alignment::{view_root, Root},
    chunk::{self, Rows, Stride, WindowDim},
    wide_tile::{self, Panels},
    PlanError,
};
use crate::ir;
use crate::ir::memref_layout::{self, static_layout, Static};

/// The largest alignment a cp.async copy needs (a 16-byte chunk).
pub(crate) const MAX_ALIGN: u64 = 16;

/// What a base pointer is proved aligned to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Base<'c, 'a> {
    /// Where the memory comes from: the lowering raises it to [`MAX_ALIGN`].
    pub root: Root<'c, 'a>,
    /// The alignment in bytes once raised; `None` when only a run-time check
    /// can tell.
    pub align: Option<u64>,
}

impl<'c, 'a> Base<'c, 'a> {
    fn of(memref: melior::ir::Value<'c, 'a>, shared: bool) -> Self {
        let root = view_root(memref);
        Self {
            root,
            align: root
                .guaranteed(shared, MAX_ALIGN)
                .map(|align| align.min(MAX_ALIGN)),
        }
    }
}

/// Everything about a cp.async copy that the IR already says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CpAsyncPlan<'c, 'a> {
    pub element_bytes: u64,
    /// Fallback mode: a predicate guards the copy and a barrier tracks it.
    pub fallback: bool,
    /// Out-of-bounds elements are zero-filled (fallback mode, `oob_mode`
    /// other than `"promise_in_bounds"`).
    pub zero_fill: bool,
    /// Leading window dimensions that dst does not have.
    pub leading: usize,
    /// One entry per window dimension (src's rank), outermost first.
    pub window: Vec<WindowDim>,
    pub rows: Rows,
    /// The bytes of one contiguous row.
    pub row_bytes: u64,
    pub src: Base<'c, 'a>,
    pub dst: Base<'c, 'a>,
    /// The dst tile's swizzle in bytes (0 for none): the chunks land where
    /// TMA's pattern puts them (docs/lowering-cp-async.md, "Swizzled tiles").
    pub swizzle: u32,
    /// The column panels of a swizzled row of several spans (fallback mode,
    /// docs/dialect.md, "Wide tiles"): each chunk goes to its panel.
    pub panels: Option<Panels>,
}

impl<'c, 'a> CpAsyncPlan<'c, 'a> {
    /// Plans `view` as a cp.async copy; `fallback` is fallback mode (the TMA
    /// path passes `true` for its non-TMA path).
    pub fn of(view: &CopyGmemToSmem<'c, 'a>, fallback: bool) -> Result<Self, PlanError> {
        Self::with_src_strides(view, fallback, strides(view.src_type)?)
    }

    /// The non-TMA path of a TMA load (`plan::tma_load`). Its src also has a
    /// tensor map, which the host encodes only for an innermost stride of 1
    /// (rule A13 checks a static one, the host a dynamic one), so a dynamic
    /// innermost stride is 1 whenever the kernel runs: the rows are contiguous.
    pub fn of_tma_fallback(view: &CopyGmemToSmem<'c, 'a>) -> Result<Self, PlanError> {
        let mut src = strides(view.src_type)?;
        if let Some(innermost) = src.last_mut() {
            innermost.get_or_insert(1);
        }
        Self::with_src_strides(view, true, src)
    }

    fn with_src_strides(
        view: &CopyGmemToSmem<'c, 'a>,
        fallback: bool,
        src: Vec<Option<i64>>,
    ) -> Result<Self, PlanError> {
        let element_bytes =
            memref_layout::element_bytes(view.src_type.element()).ok_or(PlanError::ElementType)?;
        let zero_fill = fallback && view.oob_mode_or_default() != OobMode::PromiseInBounds;
        let tile = static_shape(view.dst_type)?;
        let dst = strides(view.dst_type)?;
        let window = window_dims(&tile, &src, &dst).ok_or(PlanError::Rank)?;
        let sizes = super::shape::window_shape(src.len(), &tile);
        let panels = wide_tile::panels(&sizes, element_bytes, view.swizzle.bytes())
            .map_err(|_| PlanError::WideTile)?;
        let rows = chunk::plan_rows(&window, !zero_fill);
        let row_bytes = rows.row_elements * element_bytes;
        if !chunk::row_bytes_fit(row_bytes) {
            return Err(PlanError::RowBytes(row_bytes));
        }
        Ok(Self {
            element_bytes,
            fallback,
            zero_fill,
            leading: src.len() - dst.len(),
            window,
            rows,
            row_bytes,
            src: Base::of(view.src, false),
            dst: Base::of(view.dst, true),
            swizzle: view.swizzle.bytes(),
            panels,
        })
    }

    /// The alignment in bytes the dst tile needs: the largest chunk, or the
    /// swizzle pattern's repeat (8 rows of the swizzle span) with a swizzle,
    /// as on the TMA path ([`super::shape::tma_smem_alignment`]).
    pub fn tile_alignment(&self) -> u64 {
        tile_alignment(self.swizzle)
    }
}

/// The alignment in bytes a cp.async tile with `swizzle` bytes of swizzle
/// (0 for none) needs: [`MAX_ALIGN`], or the swizzle pattern's repeat.
pub(crate) fn tile_alignment(swizzle: u32) -> u64 {
    match swizzle {
        0 => MAX_ALIGN,
        swizzle => super::shape::tma_smem_alignment(swizzle),
    }
}

/// The window of a copy whose dst tile has shape `tile`, from the static
/// strides of src and dst (`None` where dynamic): leading dimensions of size
/// 1 up to src's rank, then the tile. `None` when dst has more dimensions
/// than src, or a dimension size is negative. Rule A29 reads the same rows.
pub(crate) fn window_dims(
    tile: &[i64],
    src: &[Option<i64>],
    dst: &[Option<i64>],
) -> Option<Vec<WindowDim>> {
    let rank = src.len();
    let leading = rank.checked_sub(dst.len())?;
    if tile.len() != dst.len() {
        return None;
    }
    let stride = |stride: Option<i64>| stride.map_or(Stride::Dynamic, Stride::Known);
    (0..rank)
        .map(|dim| {
            let size = if dim < leading {
                1
            } else {
                u64::try_from(tile[dim - leading]).ok()?
            };
            Some(WindowDim {
                size,
                src: stride(src[dim]),
                dst: (dim >= leading).then(|| stride(dst[dim - leading])),
            })
        })
        .collect()
}

/// A memref's strides in elements, `None` where dynamic.
fn strides(memref: MemRefType) -> Result<Vec<Option<i64>>, PlanError> {
    let (strides, _) = static_layout(memref).ok_or(PlanError::NotStrided)?;
    Ok(strides
        .into_iter()
        .map(|stride| match stride {
            Static::Known(stride) => Some(stride),
            Static::Dynamic => None,
        })
        .collect())
}

/// The static shape of a shared tile.
pub(crate) fn static_shape(memref: MemRefType) -> Result<Vec<i64>, PlanError> {
    let shape: Option<Vec<i64>> = ir::shape(memref).into_iter().collect();
    shape
        .filter(|shape| shape.len() == memref.rank())
        .ok_or(PlanError::DynamicTile)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_pads_leading_dimensions_and_keeps_dynamic_strides() {
        let window = window_dims(&[8, 16], &[None, Some(512), Some(1)], &[Some(16), Some(1)])
            .expect("a window");
        assert_eq!(
            window,
            vec![
                WindowDim {
                    size: 1,
                    src: Stride::Dynamic,
                    dst: None
                },
                WindowDim {
                    size: 8,
                    src: Stride::Known(512),
                    dst: Some(Stride::Known(16))
                },
                WindowDim {
                    size: 16,
                    src: Stride::Known(1),
                    dst: Some(Stride::Known(1))
                },
            ]
        );
    }

    #[test]
    fn a_tile_of_higher_rank_or_a_negative_size_has_no_window() {
        assert_eq!(window_dims(&[4, 4], &[Some(1)], &[Some(4), Some(1)]), None);
        assert_eq!(window_dims(&[-1], &[Some(1)], &[Some(1)]), None);
        assert_eq!(window_dims(&[4], &[Some(1)], &[Some(4), Some(1)]), None);
    }
}
