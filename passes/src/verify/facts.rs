//! What a rule sees: the op's view, its target and the pass options, plus the
//! plan layer's facts about a copy (`crate::plan::copy_facts` for its
//! memrefs, `crate::plan::tma_facts` on TMA chips), so the rules themselves
//! stay plain Rust.

use acopy_dialect::{AcopyOp, CopyGmemToSmem, CopySmemToGmem, LeaderTracked};
use acopy_target::CopyPath;

use crate::{
    plan::{
        collective::Collective,
        copy_facts::CopyFacts,
        shape,
        tma_facts::TmaFacts,
        wide_tile::{self, BoxGrid, SplitProblem},
    },
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

    /// The swizzle of a load's dst tile or a store's src tile (`None` for
    /// other ops).
    pub fn swizzle(&self) -> acopy_dialect::Swizzle {
        match self.view {
            AcopyOp::CopyGmemToSmem(load) => load.swizzle,
            AcopyOp::CopySmemToGmem(store) => store.swizzle,
            _ => acopy_dialect::Swizzle::None,
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

    /// A load's collective group in the cluster (`plan::collective`, as the
    /// lowering's plan has it).
    fn collective(&self) -> Collective {
        let axes = self
            .load()
            .and_then(|load| load.collective_axes.as_deref())
            .unwrap_or(&[]);
        Collective::new(self.target.cluster, axes)
    }

    /// The number of CTAs along a load's `collective_axes` (1 without them).
    pub fn collective_size(&self) -> u64 {
        self.collective().size()
    }

    /// For a collective of exactly 2 CTAs, how far apart their cluster ranks
    /// are (`%cluster_ctarank` counts x fastest, then y, then z); `None` for
    /// any other group size. A `cta_group::2` pair is 1 rank apart.
    pub fn collective_rank_stride(&self) -> Option<u64> {
        let group = self.collective();
        match group.axes.as_slice() {
            [axis] if group.size() == 2 => Some(group.stride(*axis)),
            _ => None,
        }
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

    /// The box one TMA instruction copies for this op, before fallback mode
    /// splits a wide copy: what T2, T3 and T4 judge.
    pub fn tma_box(&self) -> Option<Vec<i64>> {
        let copy = self.copy.as_ref()?;
        Some(shape::tma_box(&copy.window, self.multicast_split()))
    }

    /// The box each TMA instruction of this op moves: [`Ctx::tma_box`], or
    /// the box of a wide copy fallback mode splits (its tensor map's box).
    /// Strict mode refuses such a copy itself (T2 to T4) but keys its map the
    /// same way, so that A27 answers alike in both modes for every other op.
    pub fn tma_issue_box(&self) -> Option<Vec<i64>> {
        match self.wide_split() {
            Some(Ok(Some(grid))) => Some(grid.box_shape),
            _ => self.tma_box(),
        }
    }

    /// How fallback mode would split this copy (docs/dialect.md, "Wide
    /// tiles"), as the lowering's plan splits it: on TMA chips its boxes
    /// (`None`: one box), on cp.async chips its column panels only, as a
    /// grid of one box per panel (`None`: one span, or no swizzle). `None`
    /// outside copies of a supported element type.
    pub(crate) fn wide_split(&self) -> Option<Result<Option<BoxGrid>, SplitProblem>> {
        let copy = self.copy.as_ref()?;
        let element_bytes = copy
            .element_bits
            .filter(|bits| matches!(bits, 8 | 16 | 32 | 64))
            .map(|bits| u64::from(bits / 8))?;
        let swizzle = self.swizzle().bytes();
        Some(match self.path() {
            CopyPath::CpAsync => wide_tile::panels(&copy.window, element_bytes, swizzle)
                .map(|panels| panels.map(|panels| panels.grid(&copy.window, element_bytes))),
            CopyPath::Tma => {
                let collective = self.multicasts()
                    || self
                        .load()
                        .is_some_and(|load| load.leader_tracked.is_some());
                let single = collective.then(|| self.tma_box()).flatten();
                wide_tile::tma_split(&copy.window, single.as_deref(), element_bytes, swizzle)
            }
        })
    }
}

/// The product of cluster sizes, saturating (sizes are up to 2³¹ each).
fn saturating_product(sizes: impl Iterator<Item = u32>) -> u64 {
    sizes.fold(1u64, |product, size| {
        product.saturating_mul(u64::from(size))
    })
}
