//! What a rule sees: the op's view, its target and the pass options, plus the
//! facts about a copy's memrefs read once from MLIR (shapes, strides, element
//! width, constant indices), so the rules themselves stay plain Rust.

use acopy_dialect::{AcopyOp, CopyGmemToSmem, CopySmemToGmem, LeaderTracked};
use acopy_manifest::ElementType;
use acopy_target::CopyPath;
use melior::ir::{
    r#type::{IntegerType, MemRefType},
    ShapedTypeLike, Type, TypeLike, Value,
};

use crate::{
    ir,
    plan::{shape, tma_facts::TmaFacts},
    run_cache,
    target::Target,
    PassOptions,
};

/// The context a rule's condition and message are evaluated in.
pub struct Ctx<'v, 'c, 'a> {
    pub view: &'v AcopyOp<'c, 'a>,
    pub target: Target,
    pub options: &'v PassOptions,
    /// Facts about the memrefs of `copy_gmem_to_smem` / `copy_smem_to_gmem`;
    /// `None` for the other ops.
    pub copy: Option<CopyFacts>,
    /// What the TMA rules need, for copies on TMA chips; `None` otherwise.
    pub(crate) tma: Option<TmaFacts<'c, 'a>>,
}

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

impl<'v, 'c: 'a, 'a> Ctx<'v, 'c, 'a> {
    /// Builds the context, reading the copy facts from the view.
    pub fn new(view: &'v AcopyOp<'c, 'a>, target: Target, options: &'v PassOptions) -> Self {
        let copy = match view {
            AcopyOp::CopyGmemToSmem(load) => {
                CopyFacts::read("src", load.src_type, "dst", load.dst_type, &load.indices)
            }
            AcopyOp::CopySmemToGmem(store) => {
                CopyFacts::read("dst", store.dst_type, "src", store.src_type, &store.indices)
            }
            _ => None,
        };
        let tma = if target.chip.copy_path() == CopyPath::Tma {
            let element_bytes = copy
                .as_ref()
                .and_then(|copy| copy.element_bits)
                .filter(|bits| matches!(bits, 8 | 16 | 32 | 64))
                .map(|bits| u64::from(bits / 8));
            TmaFacts::read(view, element_bytes)
        } else {
            None
        };
        Self {
            view,
            target,
            options,
            copy,
            tma,
        }
    }

    /// The copy path of the chip.
    pub fn path(&self) -> CopyPath {
        self.target.chip.copy_path()
    }

    /// The op, if it is `copy_gmem_to_smem`.
    pub fn load(&self) -> Option<&CopyGmemToSmem<'c, 'a>> {
        match self.view {
            AcopyOp::CopyGmemToSmem(load) => Some(load),
            _ => None,
        }
    }

    /// The op, if it is `copy_smem_to_gmem`.
    pub fn store(&self) -> Option<&CopySmemToGmem<'c, 'a>> {
        match self.view {
            AcopyOp::CopySmemToGmem(store) => Some(store),
            _ => None,
        }
    }

    /// The number of CTAs in the cluster.
    pub fn cluster_ctas(&self) -> u64 {
        saturating_product(self.target.cluster.iter().copied())
    }

    /// Whether the kernel's cluster is 1×1×1.
    pub fn single_cta_cluster(&self) -> bool {
        self.target.cluster == [1, 1, 1]
    }

    /// The number of CTAs along a load's `collective_axes` (1 without them).
    pub fn collective_size(&self) -> u64 {
        self.load()
            .and_then(|load| load.collective_axes.as_ref())
            .map_or(1, |axes| {
                saturating_product(axes.iter().map(|axis| self.target.cluster[axis.index()]))
            })
    }

    /// For a collective of exactly 2 CTAs, how far apart their cluster ranks
    /// are (`%cluster_ctarank` counts x fastest, then y, then z); `None` for
    /// any other group size. A `cta_group::2` pair is 1 rank apart.
    pub fn collective_rank_stride(&self) -> Option<u64> {
        if self.collective_size() != 2 {
            return None;
        }
        let axes = self.load()?.collective_axes.as_ref()?;
        let axis = axes
            .iter()
            .map(|axis| axis.index())
            .find(|&axis| self.target.cluster[axis] > 1)?;
        Some(saturating_product(
            self.target.cluster[..axis].iter().copied(),
        ))
    }

    /// The `collective_axes` spelled as in the attribute: `["x", "y"]`.
    pub fn collective_axes_text(&self) -> String {
        let axes = self
            .load()
            .and_then(|load| load.collective_axes.as_ref())
            .map(|axes| {
                axes.iter()
                    .map(|axis| format!("\"{}\"", axis.as_str()))
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .unwrap_or_default();
        format!("[{axes}]")
    }

    /// Whether the load multicasts: collective over more than one CTA and not
    /// partitioned (a partitioned load splits along `partition_axis` instead).
    pub fn multicasts(&self) -> bool {
        self.load().is_some_and(|load| {
            load.collective_axes.is_some()
                && !matches!(load.leader_tracked, Some(LeaderTracked::Partitioned { .. }))
        }) && self.collective_size() > 1
    }

    /// The dimension a multicast load is split along (see
    /// [`shape::multicast_split_dim`]).
    pub fn multicast_split(&self) -> Option<(usize, u64)> {
        if !self.multicasts() {
            return None;
        }
        let n = self.collective_size();
        let copy = self.copy.as_ref()?;
        shape::multicast_split_dim(&copy.window, n).map(|dim| (dim, n))
    }

    /// The box one TMA instruction copies for this op.
    pub fn tma_box(&self) -> Option<Vec<i64>> {
        let copy = self.copy.as_ref()?;
        Some(shape::tma_box(&copy.window, self.multicast_split()))
    }
}

impl CopyFacts {
    fn read(
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

/// The product of cluster sizes, saturating (sizes are up to 2³¹ each).
fn saturating_product(sizes: impl Iterator<Item = u32>) -> u64 {
    sizes.fold(1u64, |product, size| {
        product.saturating_mul(u64::from(size))
    })
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

/// The bit width of an integer or float type.
pub(crate) fn element_bits(element: Type) -> Option<u32> {
    // `is_integer` first: a failed `try_from` prints the type into its error.
    if element.is_integer() {
        return IntegerType::try_from(element)
            .ok()
            .map(|integer| integer.width());
    }
    // SAFETY: both calls only read the type; the width is asked for floats only.
    unsafe {
        if mlir_sys::mlirTypeIsAFloat(element.to_raw()) {
            return Some(mlir_sys::mlirFloatTypeGetWidth(element.to_raw()));
        }
    }
    None
}
