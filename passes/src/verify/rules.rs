//! The one ordered table of verification rules.
//!
//! Each op is checked against the rules in table order, keeping those whose
//! [`Scope`] includes the chip's copy path and whose `ops` list the op; the
//! first rule whose condition holds gives the op's one error. Filtering the
//! table by path yields exactly the documented orders:
//!
//! - cp.async (sm_80–sm_89): E10, E1, E2, E3, E4, E5, E11, T4 (a swizzled
//!   tile is the same bytes on both paths), then our own rules;
//! - TMA (sm_90 and newer): E10, E8, E9, E6, E11, T1–T4 (the TMA shape rules),
//!   then our own rules.
//!
//! The documented rules (E*, T*) carry the reference compiler's exact texts.
//! Our own rules (A*) come after every documented one, so an op that breaks a
//! documented rule always reports it.
//!
//! `docs/verification.md` holds [`markdown_table`]'s output, and a test keeps
//! the two equal; another test requires a lit case under `tests/verify/` for
//! every rule id.

use acopy_dialect::{names, AcopyOp, LeaderTracked, OobMode, ReductionOp};
use acopy_manifest::ElementType;
use acopy_target::{Capability, Chip, CopyPath};

use super::{facts::Ctx, tensor_maps};
use crate::plan::loops::loop_plan::Broken;
use crate::plan::{
    alignment, chunk, cp_async_load, shape,
    source::{window_message, SourceError},
    tensor_map_key::{self, MAX_TENSOR_MAPS},
    tma_facts::{
        assumes_aligned_start, no_fallback_reason, tma_fallback_exists, SourceFacts, Start,
    },
    wide_tile,
};

/// Which chips a rule is checked on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Every chip.
    All,
    /// Chips that use the cp.async implementation (major version below 9).
    CpAsync,
    /// Chips that use the TMA implementation (sm_90 and newer).
    Tma,
}

impl Scope {
    /// Whether the rule is checked on chips of `path`.
    pub fn includes(self, path: CopyPath) -> bool {
        match self {
            Scope::All => true,
            Scope::CpAsync => path == CopyPath::CpAsync,
            Scope::Tma => path == CopyPath::Tma,
        }
    }

    /// The chips, for the docs.
    pub fn chips(self) -> &'static str {
        match self {
            Scope::All => "all",
            Scope::CpAsync => "sm_80–sm_89 (cp.async)",
            Scope::Tma => "sm_90 and newer (TMA)",
        }
    }
}

/// How fallback mode (docs/verification.md) keeps a rule's feature on cp.async chips.
pub struct Fallback {
    /// Whether the semantics can be kept exactly for this op; if not, the
    /// rule reports its error as in strict mode.
    pub keeps: fn(&Ctx) -> bool,
    /// When it keeps them, for the docs.
    pub when: &'static str,
    /// What acopy-lower does instead; the remark says it.
    pub lowering: &'static str,
    /// What the remark adds about this op (after the lowering, following a
    /// colon), when the op's facts say more: how a wide copy is split.
    pub detail: Option<fn(&Ctx) -> Option<String>>,
}

/// What a rule checks, by its subject.
pub enum Check {
    /// A rule of an acopy op: whether the op breaks it, and the message
    /// (evaluated on the op's facts, [`Ctx`]).
    Op {
        condition: fn(&Ctx) -> bool,
        message: fn(&Ctx) -> String,
    },
    /// A rule of a loop marked `acopy.pipeline` (P1–P18): the loop breaks it
    /// when the loop analysis (`crate::plan::loops::analysis::analyze`, run
    /// once per loop) refuses the loop at this stage; the message is the
    /// analysis's, which fills in this rule's template.
    Loop(Broken),
}

/// The rule of the table that a marked loop breaks when the loop analysis
/// says `broken`.
pub fn loop_rule(broken: Broken) -> Option<&'static Rule> {
    RULES
        .iter()
        .find(|rule| matches!(rule.check, Check::Loop(of) if of == broken))
}

/// One verification rule.
pub struct Rule {
    /// `E1`–`E11` (docs/verification.md), `T1`–`T4` (the documented TMA shape rules), `A1`… (ours).
    pub id: &'static str,
    /// The ops it checks (full names).
    pub ops: &'static [&'static str],
    pub scope: Scope,
    /// The condition in words, for the docs.
    pub when: &'static str,
    /// The message, with `{...}` where the check's `message` (or, for a loop
    /// rule, the loop analysis) fills in values.
    pub template: &'static str,
    /// What it checks and what it says.
    pub check: Check,
    /// `Some` for the rules fallback mode may waive (E1–E5).
    pub fallback: Option<Fallback>,
}

impl Rule {
    /// Whether the rule checks `op_name` on chips of `path`.
    pub fn applies(&self, op_name: &str, path: CopyPath) -> bool {
        self.scope.includes(path) && self.ops.contains(&op_name)
    }

    /// The longest fixed piece of the template: every message of this rule
    /// contains it, and no other rule's fragment equals it (tests use it to
    /// tell rules apart).
    pub fn fragment(&self) -> &'static str {
        literal_pieces(self.template)
            .into_iter()
            .max_by_key(|piece| piece.len())
            .unwrap_or(self.template)
    }
}

/// The text between `{...}` placeholders of a template.
pub(crate) fn literal_pieces(template: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        pieces.push(&rest[..open]);
        match rest[open..].find('}') {
            Some(close) => rest = &rest[open + close + 1..],
            None => {
                rest = "";
                break;
            }
        }
    }
    pieces.push(rest);
    pieces
        .into_iter()
        .filter(|piece| !piece.is_empty())
        .collect()
}

const LOAD: &[&str] = &[names::COPY_GMEM_TO_SMEM];
const STORE: &[&str] = &[names::COPY_SMEM_TO_GMEM];
const COPIES: &[&str] = &[names::COPY_GMEM_TO_SMEM, names::COPY_SMEM_TO_GMEM];
const WAIT_LOAD: &[&str] = &[names::WAIT_GMEM_TO_SMEM];
const WAIT_STORE: &[&str] = &[names::WAIT_SMEM_TO_GMEM];
const WAITS: &[&str] = &[names::WAIT_GMEM_TO_SMEM, names::WAIT_SMEM_TO_GMEM];
/// The pipeline rules' subject: the marked loop (P2: the op carrying the attribute).
const LOOP: &[&str] = &[crate::ir::op_names::scf::FOR.name];
const DESCRIPTOR: &[&str] = &[names::WGMMA_DESCRIPTOR];
const INDEX: &[&str] = &[names::SWIZZLED_INDEX];

const E1: &str = "copy_gmem_to_smem with a barrier is only supported Hopper and newer GPUs, which use the TMA implementation";
const E2: &str = "Only the TMA implementation supports collective copies";
const E3: &str = "Only the TMA implementation supports leader_tracked copies";
const E4: &str = "The cp.async implementation only supports oob_mode=OOBFillMode.PROMISE_IN_BOUNDS";
const E5: &str = "The cp.async implementation does not support user-defined predicates";
const E6: &str = "copy_gmem_to_smem without a barrier is only supported on pre-Hopper GPUs, which use the cp.async implementation";
const E7: &str = "wait_gmem_to_smem is only supported on pre-Hopper GPUs, which use cp.async for GMEM->SMEM copies.";
const E8: &str = "`collective_axes` must be specified when `leader_tracked` is set";
const T1: &str = "Async copies only support striding up to 5 dimensions";

/// The largest rank of a TMA copy.
const TMA_MAX_RANK: usize = 5;

/// Fallback mode's waiver of T2 and T4: a wide tile is split as
/// docs/dialect.md's "Wide tiles" says; A33 refuses, naming the limit, what
/// cannot be split, so the waiver itself always applies.
const WIDE_TILE: Fallback = Fallback {
    keeps: |_| true,
    when: "a wide tile that can be split (the waiver always applies: rule A33 refuses, naming the limit, one that cannot)",
    lowering: "the wide copy is split (docs/dialect.md, \"Wide tiles\")",
    detail: Some(wide_detail),
};
/// The multicast CTA mask has 16 bits.
const MAX_MULTICAST_CLUSTER: u64 = 16;

/// The element width, when it is one acopy copies (8, 16, 32 or 64 bits).
fn supported_bits(ctx: &Ctx) -> Option<u32> {
    ctx.copy
        .as_ref()
        .and_then(|copy| copy.element_bits)
        .filter(|bits| matches!(bits, 8 | 16 | 32 | 64))
}

fn window_rank(ctx: &Ctx) -> usize {
    ctx.copy.as_ref().map_or(0, |copy| copy.window.len())
}

fn partition_axis(ctx: &Ctx) -> Option<i64> {
    match ctx.load()?.leader_tracked? {
        LeaderTracked::Partitioned { axis } => Some(axis),
        LeaderTracked::Replicated => None,
    }
}

fn has(ctx: &Ctx, capability: Capability) -> bool {
    ctx.target.chip.has(capability)
}

/// The reduction table's key for the copy's element type: `i32` for any
/// 32-bit integer, the type itself otherwise; `None` for a type no tensor map
/// can describe.
fn reduction_key(ctx: &Ctx) -> Option<ElementType> {
    let copy = ctx.copy.as_ref()?;
    if copy.element_is_integer {
        ElementType::from_mlir_name(&format!("i{}", copy.element_bits?))
    } else {
        ElementType::from_mlir_name(&copy.dst_element)
    }
}

fn cta_group2_chips() -> String {
    Chip::all()
        .iter()
        .filter(|chip| chip.has(Capability::CtaGroup2))
        .map(|chip| chip.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The rules, in the order they are checked.
pub static RULES: &[Rule] = &[
    Rule {
        id: "E10",
        ops: COPIES,
        scope: Scope::All,
        when: "src and dst element types differ",
        template: "Expected dtypes to match but src had type {T1} and dst had type {T2}",
        check: Check::Op {
            condition: |ctx| {
            ctx.copy
                .as_ref()
                .is_some_and(|copy| copy.src_element != copy.dst_element)
        },
        message: |ctx| {
            let (src, dst) = ctx.copy.as_ref().map_or((String::new(), String::new()), |copy| {
                (copy.src_element.clone(), copy.dst_element.clone())
            });
            format!("Expected dtypes to match but src had type {src} and dst had type {dst}")
        },
        },
        fallback: None,
    },
    Rule {
        id: "E1",
        ops: LOAD,
        scope: Scope::CpAsync,
        when: "a barrier is given",
        template: E1,
        check: Check::Op {
            condition: |ctx| ctx.load().is_some_and(|load| load.barrier.is_some()),
        message: |_| E1.to_string(),
        },
        fallback: Some(Fallback {
            keeps: |_| true,
            when: "always",
            lowering: "the barrier tracks completion through cp.async.mbarrier.arrive",
            detail: None,
        }),
    },
    Rule {
        id: "E2",
        ops: LOAD,
        scope: Scope::CpAsync,
        when: "`collective_axes` is given",
        template: E2,
        check: Check::Op {
            condition: |ctx| {
            ctx.load()
                .is_some_and(|load| load.collective_axes.is_some())
        },
        message: |_| E2.to_string(),
        },
        fallback: Some(Fallback {
            keeps: |ctx| ctx.single_cta_cluster(),
            when: "the cluster is 1×1×1",
            lowering: "collective_axes is dropped on a 1×1×1 cluster",
            detail: None,
        }),
    },
    Rule {
        id: "E3",
        ops: LOAD,
        scope: Scope::CpAsync,
        when: "`leader_tracked` is given",
        template: E3,
        check: Check::Op {
            condition: |ctx| ctx.load().is_some_and(|load| load.leader_tracked.is_some()),
        message: |_| E3.to_string(),
        },
        fallback: Some(Fallback {
            keeps: |ctx| {
                ctx.single_cta_cluster()
                    && ctx.load().is_some_and(|load| {
                        load.collective_axes.is_some()
                            && load.leader_tracked == Some(LeaderTracked::Replicated)
                    })
            },
            when: "the cluster is 1×1×1, `leader_tracked = \"replicated\"` and `collective_axes` is given",
            lowering: "leader_tracked is dropped on a 1×1×1 cluster",
            detail: None,
        }),
    },
    Rule {
        id: "E4",
        ops: LOAD,
        scope: Scope::CpAsync,
        when: "`oob_mode` is not `\"promise_in_bounds\"`, including when it is absent",
        template: E4,
        check: Check::Op {
            condition: |ctx| {
            ctx.load()
                .is_some_and(|load| load.oob_mode_or_default() != OobMode::PromiseInBounds)
        },
        message: |_| E4.to_string(),
        },
        fallback: Some(Fallback {
            keeps: |_| true,
            when: "always (`\"undefined\"` allows zeros too)",
            lowering: "out-of-bounds elements are zero-filled through the cp.async source size",
            detail: None,
        }),
    },
    Rule {
        id: "E5",
        ops: LOAD,
        scope: Scope::CpAsync,
        when: "a predicate is given",
        template: E5,
        check: Check::Op {
            condition: |ctx| ctx.load().is_some_and(|load| load.predicate.is_some()),
        message: |_| E5.to_string(),
        },
        fallback: Some(Fallback {
            keeps: |_| true,
            when: "always",
            lowering: "the predicate guards the copy",
            detail: None,
        }),
    },
    Rule {
        id: "E8",
        ops: LOAD,
        scope: Scope::Tma,
        when: "`leader_tracked` without `collective_axes`",
        template: E8,
        check: Check::Op {
            condition: |ctx| {
            ctx.load().is_some_and(|load| {
                load.leader_tracked.is_some() && load.collective_axes.is_none()
            })
        },
        message: |_| E8.to_string(),
        },
        fallback: None,
    },
    Rule {
        id: "E9",
        ops: LOAD,
        scope: Scope::Tma,
        when: "`leader_tracked = \"partitioned\"` and the cluster (`nvvm.cluster_dim`) does not have exactly 2 CTAs",
        template: "Partitioned loads only supported for clusters of size 2. Got cluster size {(X, Y, Z)}.",
        check: Check::Op {
            condition: |ctx| partition_axis(ctx).is_some() && ctx.cluster_ctas() != 2,
        message: |ctx| {
            format!(
                "Partitioned loads only supported for clusters of size 2. Got cluster size {}.",
                shape::py_tuple(&ctx.target.cluster)
            )
        },
        },
        fallback: None,
    },
    Rule {
        id: "E6",
        ops: LOAD,
        scope: Scope::Tma,
        when: "no barrier",
        template: E6,
        check: Check::Op {
            condition: |ctx| ctx.load().is_some_and(|load| load.barrier.is_none()),
        message: |_| E6.to_string(),
        },
        fallback: None,
    },
    Rule {
        id: "E7",
        ops: WAIT_LOAD,
        scope: Scope::Tma,
        when: "`acopy.wait_gmem_to_smem` is present",
        template: E7,
        check: Check::Op {
            condition: |_| true,
        message: |_| E7.to_string(),
        },
        fallback: None,
    },
    Rule {
        id: "E11",
        ops: LOAD,
        scope: Scope::All,
        when: "`oob_mode = \"promise_in_bounds\"`, every index (`arith.constant`) and src dimension is constant, and the window leaves src",
        template: "Out-of-bounds read of src: reading [{A0:B0, A1:B1}] but buffer has shape {(D0, D1)}.",
        check: Check::Op {
            condition: |ctx| {
            let promised = ctx
                .load()
                .is_some_and(|load| load.oob_mode_or_default() == OobMode::PromiseInBounds);
            promised
                && ctx.copy.as_ref().is_some_and(|copy| {
                    copy.constant_bounds().is_some_and(|(starts, dims)| {
                        shape::out_of_bounds(&starts, &copy.window, &dims)
                    })
                })
        },
        message: |ctx| {
            let (ranges, dims) = ctx
                .copy
                .as_ref()
                .and_then(|copy| {
                    let (starts, dims) = copy.constant_bounds()?;
                    Some((shape::ranges_text(&starts, &copy.window), shape::py_tuple(&dims)))
                })
                .unwrap_or_default();
            format!("Out-of-bounds read of src: reading [{ranges}] but buffer has shape {dims}.")
        },
        },
        fallback: None,
    },
    Rule {
        id: "T1",
        ops: COPIES,
        scope: Scope::Tma,
        when: "the global memref has rank above 5",
        template: T1,
        check: Check::Op {
            condition: |ctx| window_rank(ctx) > TMA_MAX_RANK,
        message: |_| T1.to_string(),
        },
        fallback: None,
    },
    Rule {
        id: "T2",
        ops: COPIES,
        scope: Scope::Tma,
        when: "a dimension of the TMA box is above 256 (the box is the window, with the split dimension divided by the collective size for a multicast)",
        template: "Async copies only support copying <=256 elements along each dimension, got {(A, B)}",
        check: Check::Op {
            condition: box_too_long,
        message: |ctx| {
            format!(
                "Async copies only support copying <=256 elements along each dimension, got {}",
                shape::py_tuple(&ctx.tma_box().unwrap_or_default())
            )
        },
        },
        fallback: Some(WIDE_TILE),
    },
    Rule {
        id: "T3",
        ops: COPIES,
        scope: Scope::Tma,
        when: "the box's innermost dimension is not a multiple of 16 bytes",
        template: "Async copies require the number of bits copied along the last dimension to be divisible by 128, but got {N}",
        check: Check::Op {
            condition: |ctx| last_dim_bits(ctx).is_some_and(|bits| bits % 128 != 0),
        message: |ctx| {
            format!(
                "Async copies require the number of bits copied along the last dimension to be divisible by 128, but got {}",
                last_dim_bits(ctx).unwrap_or_default()
            )
        },
        },
        fallback: None,
    },
    Rule {
        id: "T4",
        ops: COPIES,
        scope: Scope::All,
        when: "`swizzle = S` (a load's dst tile or a store's src tile) and the innermost window dimension is not exactly S bytes (on cp.async chips too: a swizzled tile is the same bytes on both paths)",
        template: "Async copies with swizzle={S} require the last dimension of the slice to be exactly {S} bytes i.e.  {N} elements, but got {M} elements.",
        check: Check::Op {
            condition: row_not_one_span,
        message: |ctx| {
            let (swizzle, want, got) = swizzle_elements(ctx).unwrap_or_default();
            format!(
                "Async copies with swizzle={swizzle} require the last dimension of the slice to be exactly {swizzle} bytes i.e.  {want} elements, but got {got} elements."
            )
        },
        },
        fallback: Some(WIDE_TILE),
    },
    Rule {
        id: "A1",
        ops: COPIES,
        scope: Scope::All,
        when: "the shared tile has a dimension of size 0",
        template: "the {dst} tile {memref<0x128xf32, 3>} has no elements; an acopy copy needs at least one",
        check: Check::Op {
            condition: |ctx| {
            ctx.copy
                .as_ref()
                .is_some_and(|copy| copy.tile_shape.contains(&0))
        },
        message: |ctx| {
            let (role, ty) = ctx.copy.as_ref().map_or(("", String::new()), |copy| {
                (copy.tile_role, copy.tile_type.clone())
            });
            format!("the {role} tile {ty} has no elements; an acopy copy needs at least one")
        },
        },
        fallback: None,
    },
    Rule {
        id: "A2",
        ops: COPIES,
        scope: Scope::All,
        when: "the element type is not an integer or float of 8, 16, 32 or 64 bits",
        template: "acopy copies integer or float elements of 8, 16, 32 or 64 bits, but the element type is {T}",
        check: Check::Op {
            condition: |ctx| ctx.copy.is_some() && supported_bits(ctx).is_none(),
        message: |ctx| {
            let ty = ctx
                .copy
                .as_ref()
                .map(|copy| copy.src_element.clone())
                .unwrap_or_default();
            format!(
                "acopy copies integer or float elements of 8, 16, 32 or 64 bits, but the element type is {ty}"
            )
        },
        },
        fallback: None,
    },
    Rule {
        id: "A3",
        ops: LOAD,
        scope: Scope::CpAsync,
        when: "src has rank above 5",
        template: "The cp.async implementation supports src ranks 1 to 5, but src has rank {R}",
        check: Check::Op {
            condition: |ctx| window_rank(ctx) > TMA_MAX_RANK,
        message: |ctx| {
            format!(
                "The cp.async implementation supports src ranks 1 to 5, but src has rank {}",
                window_rank(ctx)
            )
        },
        },
        fallback: None,
    },
    Rule {
        id: "A4",
        ops: LOAD,
        scope: Scope::CpAsync,
        when: "`swizzle = S` and the dst tile is not contiguous and row-major, or its alignment to 8 × S bytes (the swizzle pattern's repeat) cannot be guaranteed, as A14 and A25 require of a TMA tile: the cp.async implementation writes TMA's pattern on shared addresses",
        template: "swizzle={S} on the cp.async implementation writes TMA's swizzle pattern, which needs a contiguous, row-major dst tile aligned to {1024} bytes (8 rows of {S} bytes), but the {dst} tile {memref<64x32xf32, 3>} {is not contiguous}",
        check: Check::Op {
            condition: |ctx| cp_async_swizzle_problem(ctx).is_some(),
        message: |ctx| {
            let (swizzle, problem) = cp_async_swizzle_problem(ctx).unwrap_or_default();
            let (role, ty) = ctx.copy.as_ref().map_or(("", String::new()), |copy| {
                (copy.tile_role, copy.tile_type.clone())
            });
            format!(
                "swizzle={swizzle} on the cp.async implementation writes TMA's swizzle pattern, which needs a contiguous, row-major dst tile aligned to {} bytes (8 rows of {swizzle} bytes), but the {role} tile {ty} {problem}",
                shape::tma_smem_alignment(swizzle)
            )
        },
        },
        fallback: None,
    },
    Rule {
        id: "A5",
        ops: STORE,
        scope: Scope::All,
        when: "the chip has no TMA stores (pre-Hopper)",
        template: "copy_smem_to_gmem is only supported on Hopper and newer GPUs, which have TMA stores; {sm_80} uses the cp.async implementation, which only copies GMEM->SMEM",
        check: Check::Op {
            condition: |ctx| !has(ctx, Capability::BulkStore),
        message: |ctx| {
            format!(
                "copy_smem_to_gmem is only supported on Hopper and newer GPUs, which have TMA stores; {} uses the cp.async implementation, which only copies GMEM->SMEM",
                ctx.target.chip
            )
        },
        },
        fallback: None,
    },
    Rule {
        id: "A6",
        ops: WAIT_STORE,
        scope: Scope::All,
        when: "the chip has no TMA stores (pre-Hopper)",
        template: "wait_smem_to_gmem waits for TMA stores, which only Hopper and newer GPUs have; {sm_80} has none",
        check: Check::Op {
            condition: |ctx| !has(ctx, Capability::BulkStore),
        message: |ctx| {
            format!(
                "wait_smem_to_gmem waits for TMA stores, which only Hopper and newer GPUs have; {} has none",
                ctx.target.chip
            )
        },
        },
        fallback: None,
    },
    Rule {
        id: "A7",
        ops: LOAD,
        scope: Scope::Tma,
        when: "`leader_tracked` on a chip without `cta_group::2` (all but sm_100a, sm_101a, sm_103a, sm_110a)",
        template: "leader_tracked copies use the TMA cta_group::2 form, which {sm_90} does not have: it needs sm_100a or newer ({sm_100a, ...})",
        check: Check::Op {
            condition: |ctx| {
            ctx.load().is_some_and(|load| load.leader_tracked.is_some())
                && !has(ctx, Capability::CtaGroup2)
        },
        message: |ctx| {
            format!(
                "leader_tracked copies use the TMA cta_group::2 form, which {} does not have: it needs sm_100a or newer ({})",
                ctx.target.chip,
                cta_group2_chips()
            )
        },
        },
        fallback: None,
    },
    Rule {
        id: "A8",
        ops: LOAD,
        scope: Scope::Tma,
        when: "`leader_tracked` and the CTAs along `collective_axes` are not a CTA pair: exactly 2 CTAs whose cluster ranks differ only in bit 0 (`cta_group::2`)",
        template: "leader_tracked copies need collective_axes that span a CTA pair (2 CTAs whose ranks in the cluster differ only in bit 0), but {[\"y\"]} spans {1 CTA} in cluster {(X, Y, Z)}",
        check: Check::Op {
            condition: |ctx| {
            ctx.load().is_some_and(|load| load.leader_tracked.is_some())
                && ctx.collective_rank_stride() != Some(1)
        },
        message: |ctx| {
            let size = ctx.collective_size();
            let span = match ctx.collective_rank_stride() {
                Some(stride) => format!("2 CTAs {stride} ranks apart"),
                None if size == 1 => "1 CTA".to_string(),
                None => format!("{size} CTAs"),
            };
            format!(
                "leader_tracked copies need collective_axes that span a CTA pair (2 CTAs whose ranks in the cluster differ only in bit 0), but {} spans {span} in cluster {}",
                ctx.collective_axes_text(),
                shape::py_tuple(&ctx.target.cluster)
            )
        },
        },
        fallback: None,
    },
    Rule {
        id: "A9",
        ops: LOAD,
        scope: Scope::Tma,
        when: "`partition_axis` is not below the window's rank (the rank of src)",
        template: "partition_axis = {A} is not a dimension of the copy window, which has rank {R}",
        check: Check::Op {
            condition: |ctx| {
            partition_axis(ctx).is_some_and(|axis| {
                usize::try_from(axis).map_or(true, |axis| axis >= window_rank(ctx))
            })
        },
        message: |ctx| {
            format!(
                "partition_axis = {} is not a dimension of the copy window, which has rank {}",
                partition_axis(ctx).unwrap_or_default(),
                window_rank(ctx)
            )
        },
        },
        fallback: None,
    },
    Rule {
        id: "A10",
        ops: LOAD,
        scope: Scope::Tma,
        when: "a multicast (collective, not partitioned, over more than 1 CTA) on a chip without TMA multicast (sm_120, sm_120a, sm_121a)",
        template: "collective copies over more than one CTA use TMA multicast, which {sm_120} does not have",
        check: Check::Op {
            condition: |ctx| ctx.multicasts() && !has(ctx, Capability::Multicast),
        message: |ctx| {
            format!(
                "collective copies over more than one CTA use TMA multicast, which {} does not have",
                ctx.target.chip
            )
        },
        },
        fallback: None,
    },
    Rule {
        id: "A11",
        ops: LOAD,
        scope: Scope::Tma,
        when: "a multicast in a cluster of more than 16 CTAs",
        template: "collective copies need a cluster of at most 16 CTAs (the multicast mask has 16 bits), but the cluster is {(X, Y, Z)}",
        check: Check::Op {
            condition: |ctx| ctx.multicasts() && ctx.cluster_ctas() > MAX_MULTICAST_CLUSTER,
        message: |ctx| {
            format!(
                "collective copies need a cluster of at most 16 CTAs (the multicast mask has 16 bits), but the cluster is {}",
                shape::py_tuple(&ctx.target.cluster)
            )
        },
        },
        fallback: None,
    },
    Rule {
        id: "A12",
        ops: LOAD,
        scope: Scope::Tma,
        when: "a multicast (collective size N > 1) whose window has no leading dimension to split: the outermost dimension longer than 1, the innermost excluded, must divide by N",
        template: "None of the leading dimensions in the transformed slice shape {(A, B)} is divisible by the collective size {N}",
        check: Check::Op {
            condition: |ctx| ctx.multicasts() && ctx.multicast_split().is_none(),
        message: |ctx| {
            format!(
                "None of the leading dimensions in the transformed slice shape {} is divisible by the collective size {}",
                shape::py_tuple(&ctx.copy.as_ref().map(|copy| copy.window.clone()).unwrap_or_default()),
                ctx.collective_size()
            )
        },
        },
        fallback: None,
    },
    Rule {
        id: "A13",
        ops: COPIES,
        scope: Scope::Tma,
        when: "the global memref's layout is not strided, its innermost stride is not 1, or another static stride is not a multiple of 16 bytes",
        template: "TMA needs the innermost stride of the global memref to be 1 and every other stride to be a multiple of 16 bytes, but {src} {memref<256x100xf16>} has {strides [100, 1]}",
        check: Check::Op {
            condition: |ctx| {
            let Some(bits) = supported_bits(ctx) else {
                return false;
            };
            ctx.copy
                .as_ref()
                .is_some_and(|copy| match &copy.global_strides {
                    Some(strides) => !shape::tma_strides_ok(strides, bits),
                    None => true,
                })
        },
        message: |ctx| {
            let (role, ty, strides) = ctx.copy.as_ref().map_or(
                ("", String::new(), String::new()),
                |copy| {
                    let strides = copy.global_strides.as_ref().map_or(
                        "a layout that is not strided".to_string(),
                        |strides| format!("strides {}", shape::list_text(strides)),
                    );
                    (copy.global_role, copy.global_type.clone(), strides)
                },
            );
            format!(
                "TMA needs the innermost stride of the global memref to be 1 and every other stride to be a multiple of 16 bytes, but {role} {ty} has {strides}"
            )
        },
        },
        fallback: None,
    },
    Rule {
        id: "A14",
        ops: COPIES,
        scope: Scope::Tma,
        when: "the shared tile is not contiguous and row-major",
        template: "TMA copies a box to or from contiguous shared memory, but the {dst} tile {memref<64x128xf32, strided<[256, 1]>, 3>} is not contiguous",
        check: Check::Op {
            condition: |ctx| ctx.copy.as_ref().is_some_and(|copy| !copy.tile_contiguous),
        message: |ctx| {
            let (role, ty) = ctx.copy.as_ref().map_or(("", String::new()), |copy| {
                (copy.tile_role, copy.tile_type.clone())
            });
            format!(
                "TMA copies a box to or from contiguous shared memory, but the {role} tile {ty} is not contiguous"
            )
        },
        },
        fallback: None,
    },
    Rule {
        id: "A15",
        ops: STORE,
        scope: Scope::Tma,
        when: "`reduction_op` does not support the element type (add: f16, bf16, f32, i32, i64; min, max: f16, bf16; smin, smax: i32, i64; and, or, xor: i32, i64; umin, umax, inc, dec: none, as they need an unsigned tensor map)",
        template: "reduction_op = \"{add}\" does not support element type {T}; it supports {f16, bf16}",
        check: Check::Op {
            condition: |ctx| {
            ctx.store()
                .and_then(|store| store.reduction_op)
                .is_some_and(|op| {
                    reduction_key(ctx).is_none_or(|key| !shape::reduction_types(op).contains(&key))
                })
        },
        message: |ctx| {
            let op = ctx.store().and_then(|store| store.reduction_op);
            let ty = ctx
                .copy
                .as_ref()
                .map(|copy| copy.dst_element.clone())
                .unwrap_or_default();
            let supported = op.map(shape::reduction_types).unwrap_or_default();
            let supports = if supported.is_empty() {
                format!(
                    "no element type yet: it needs an unsigned tensor map (CU_TENSOR_MAP_DATA_TYPE_UINT{}), which the tensor-map manifest cannot ask for (its integer types are encoded signed)",
                    if op.is_some_and(|op| matches!(op, ReductionOp::Inc | ReductionOp::Dec)) {
                        32
                    } else {
                        ctx.copy.as_ref().and_then(|copy| copy.element_bits).unwrap_or(32)
                    }
                )
            } else {
                supported
                    .iter()
                    .map(|ty| ty.mlir_name())
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            format!(
                "reduction_op = \"{}\" does not support element type {ty}; it supports {supports}",
                op.map_or("", ReductionOp::as_str),
            )
        },
        },
        fallback: None,
    },
    Rule {
        id: "A16",
        ops: COPIES,
        scope: Scope::All,
        when: "the shared tile holds more than 227 KiB (232448 bytes), the most shared memory a block has on any supported chip",
        template: "the {dst} tile {memref<1024x1024xf32, 3>} holds {4194304 bytes}, more than the 232448 bytes (227 KiB) of shared memory a block can have on any chip",
        check: Check::Op {
            condition: |ctx| tile_bytes(ctx).is_some_and(|bytes| bytes > MAX_SHARED_BYTES),
        message: |ctx| {
            let (role, ty) = ctx.copy.as_ref().map_or(("", String::new()), |copy| {
                (copy.tile_role, copy.tile_type.clone())
            });
            let bytes = match tile_bytes(ctx).unwrap_or_default() {
                u128::MAX => "more than 2^128 bytes".to_string(),
                bytes => format!("{bytes} bytes"),
            };
            format!(
                "the {role} tile {ty} holds {bytes}, more than the {MAX_SHARED_BYTES} bytes (227 KiB) of shared memory a block can have on any chip"
            )
        },
        },
        fallback: None,
    },
    Rule {
        id: "A17",
        ops: COPIES,
        scope: Scope::Tma,
        when: "a constant window start (the index plus a constant `memref.subview` offset) does not fit the signed 32-bit coordinates of a TMA instruction",
        template: "TMA coordinates are signed 32-bit integers, but the window starts at {4294967296} along dimension {0}",
        check: Check::Op {
            condition: |ctx| out_of_i32_start(ctx).is_some(),
        message: |ctx| {
            let (dimension, start) = out_of_i32_start(ctx).unwrap_or_default();
            format!(
                "TMA coordinates are signed 32-bit integers, but the window starts at {start} along dimension {dimension}"
            )
        },
        },
        fallback: None,
    },
    Rule {
        id: "A18",
        ops: COPIES,
        scope: Scope::Tma,
        when: "the innermost window start (the index plus a constant `memref.subview` offset along that dimension) is a constant whose byte offset is not a multiple of 16; or, for a store, a start coordinate is a negative constant (a TMA store traps on either)",
        template: "TMA needs the innermost window start to be 16-byte aligned, but start {37} of {f32} is at byte offset {148}; use a multiple of {4} elements, or fallback mode for a non-TMA copy",
        check: Check::Op {
            condition: |ctx| misaligned_constant_start(ctx).is_some() || negative_store_start(ctx).is_some(),
        message: |ctx| {
            let tail = match no_fallback_reason(ctx.view) {
                None => "or fallback mode for a non-TMA copy".to_string(),
                Some(what) => format!("a {what} has no non-TMA path"),
            };
            if let Some((start, bytes)) = misaligned_constant_start(ctx) {
                return format!(
                    "TMA needs the innermost window start to be 16-byte aligned, but start {start} of {} is at byte offset {}; use a multiple of {} elements, {tail}",
                    tile_element(ctx),
                    start * i128::from(bytes),
                    16 / bytes
                );
            }
            let (dim, start) = negative_store_start(ctx).unwrap_or_default();
            format!(
                "a TMA store cannot start at a negative coordinate, but this one starts at {start} along dimension {dim}; start the window inside dst, {tail}"
            )
        },
        },
        fallback: Some(Fallback {
            keeps: |ctx| tma_fallback_exists(ctx.view),
            when: "a load without `leader_tracked`, or any store (`plan::tma_facts::tma_fallback_exists`)",
            lowering: "the copy takes a non-TMA path: cp.async completing the same barrier for a load, element-wise stores or atomics for a store",
            detail: None,
        }),
    },
    Rule {
        id: "A19",
        ops: COPIES,
        scope: Scope::Tma,
        when: "a copy without a non-TMA path (a load with `leader_tracked`) whose innermost window start is not constant, is not proved a multiple of 16 bytes, and has no `assume_aligned_start` attribute",
        template: "TMA needs the innermost window start to be 16-byte aligned; this {leader_tracked load} has no non-TMA path and its start is only known at run time (proved a multiple of {1} element), so make it provably a multiple of {4} elements (e.g. `%i * 4`) or promise it with the `assume_aligned_start` attribute",
        check: Check::Op {
            condition: |ctx| unproved_dynamic_start(ctx).is_some(),
        message: |ctx| {
            let (divisor, bytes, what) = unproved_dynamic_start(ctx).unwrap_or((1, 1, ""));
            let plural = if divisor == 1 { "" } else { "s" };
            let multiple = 16 / bytes;
            format!(
                "TMA needs the innermost window start to be 16-byte aligned; this {what} has no non-TMA path and its start is only known at run time (proved a multiple of {divisor} element{plural}), so make it provably a multiple of {multiple} elements (e.g. `%i * {multiple}`) or promise it with the `assume_aligned_start` attribute"
            )
        },
        },
        fallback: None,
    },
    Rule {
        id: "A20",
        ops: COPIES,
        scope: Scope::Tma,
        when: "the global memref is not an argument of the enclosing kernel `gpu.func`, nor a `memref.subview` of one with unit strides and the same rank (`memref.cast`s are looked through)",
        template: "the {src} of a TMA copy {is not a kernel argument}; it must be an argument of the enclosing kernel gpu.func, or a memref.subview of one with unit strides and the same rank (memref.casts are looked through), because its TMA tensor map is encoded on the host from that kernel argument",
        check: Check::Op {
            condition: |ctx| matches!(source_error(ctx), Some(SourceError::NotArgument(_))),
        message: |ctx| source_error_message(ctx),
        },
        fallback: None,
    },
    Rule {
        id: "A21",
        ops: COPIES,
        scope: Scope::Tma,
        when: "the global memref is an argument of a `gpu.func` that is not a `kernel`",
        template: "the {src} of a TMA copy is an argument of a gpu.func that is not a kernel; tensor maps are kernel parameters, so TMA copies must use the arguments of a `kernel` gpu.func",
        check: Check::Op {
            condition: |ctx| matches!(source_error(ctx), Some(SourceError::NotKernel)),
        message: |ctx| source_error_message(ctx),
        },
        fallback: None,
    },
    Rule {
        id: "A22",
        ops: COPIES,
        scope: Scope::Tma,
        when: "the global memref is a `memref.subview` narrower than its argument, the copy is a store or a load with `oob_mode = \"zeros\"`, and the window cannot be shown (constant indices, static sizes) to stay inside the subview",
        template: "the window of this TMA copy cannot be shown to stay inside the memref.subview {src} along dimension {0}: TMA's bounds are the kernel argument's, so it would {write argument elements outside the view}",
        check: Check::Op {
            condition: |ctx| tma_source(ctx).is_some_and(|source| source.leaves.is_some()),
        message: |ctx| {
            let role = ctx.copy.as_ref().map_or("", |copy| copy.global_role);
            tma_source(ctx)
                .and_then(|source| Some(window_message(source.leaves?, source.access, role)))
                .unwrap_or_default()
        },
        },
        fallback: None,
    },
    Rule {
        id: "A23",
        ops: COPIES,
        scope: Scope::Tma,
        when: "the element type is one a tensor map cannot describe (all but f16, bf16, f32, f64, i8, i16, i32, i64, f8E4M3FN, f8E5M2)",
        template: "TMA copies of element type {f8E4M3FNUZ} are not supported: the tensor-map manifest can only describe f16, bf16, f32, f64, i8, i16, i32, i64, f8E4M3FN, f8E5M2",
        check: Check::Op {
            condition: |ctx| {
            supported_bits(ctx).is_some()
                && ctx.copy.as_ref().is_some_and(|copy| copy.tile_tma_element.is_none())
        },
        message: |ctx| {
            format!(
                "TMA copies of element type {} are not supported: the tensor-map manifest can only describe {}",
                tile_element(ctx),
                ElementType::ALL.map(ElementType::mlir_name).join(", ")
            )
        },
        },
        fallback: None,
    },
    Rule {
        id: "A24",
        ops: LOAD,
        scope: Scope::Tma,
        when: "a multicast whose per-CTA slice of the shared tile is not a multiple of the tile alignment TMA needs (128 bytes, 8 × the swizzle with a swizzle)",
        template: "each CTA of this collective copy writes a slice of {512} bytes of the dst tile, but every slice must start {1024}-byte aligned for TMA; use a tile whose split dimension gives slices of a multiple of {1024} bytes",
        check: Check::Op {
            condition: |ctx| misaligned_slice(ctx).is_some(),
        message: |ctx| {
            let (bytes, align) = misaligned_slice(ctx).unwrap_or_default();
            format!(
                "each CTA of this collective copy writes a slice of {bytes} bytes of the dst tile, but every slice must start {align}-byte aligned for TMA; use a tile whose split dimension gives slices of a multiple of {align} bytes"
            )
        },
        },
        fallback: None,
    },
    Rule {
        id: "A25",
        ops: COPIES,
        scope: Scope::Tma,
        when: "the shared tile's alignment (128 bytes, 8 × the swizzle with a swizzle) cannot be guaranteed: it is not a workgroup attribution, a shared `memref.global` or a `memref.assume_alignment` (or a view of one with a static, aligned offset)",
        template: "the {dst} tile {memref<64x32xf32, 3>} of a TMA copy must be {128}-byte aligned in shared memory, but it {has a dynamic offset, so its alignment cannot be guaranteed}",
        check: Check::Op {
            condition: |ctx| ctx.tma.as_ref().is_some_and(|tma| tma.tile_alignment.is_some()),
        message: |ctx| {
            let (role, ty) = ctx.copy.as_ref().map_or(("", String::new()), |copy| {
                (copy.tile_role, copy.tile_type.clone())
            });
            let swizzle = ctx.swizzle().bytes();
            let problem = ctx
                .tma
                .as_ref()
                .and_then(|tma| tma.tile_alignment.clone())
                .unwrap_or_default();
            format!(
                "the {role} tile {ty} of a TMA copy must be {}-byte aligned in shared memory, but it {problem}",
                shape::tma_smem_alignment(swizzle)
            )
        },
        },
        fallback: None,
    },
    Rule {
        id: "A26",
        ops: COPIES,
        scope: Scope::Tma,
        when: "the kernel is launched with `gpu.launch_func` in the same module (its TMA tensor maps can only be encoded by host code through the manifest)",
        template: "kernel {@m::@k} is launched with gpu.launch_func in this module, but its TMA copies add CUtensorMap parameters that only host code can encode; launch it with acopy-runtime and the tensor-map manifest (docs/lowering-tma.md) instead",
        check: Check::Op {
            condition: |ctx| host_launch(ctx).is_some(),
        message: |ctx| {
            format!(
                "kernel {} is launched with gpu.launch_func in this module, but its TMA copies add CUtensorMap parameters that only host code can encode; launch it with acopy-runtime and the tensor-map manifest (docs/lowering-tma.md) instead",
                host_launch(ctx).unwrap_or_default()
            )
        },
        },
        fallback: None,
    },
    Rule {
        id: "A27",
        ops: COPIES,
        scope: Scope::Tma,
        when: "the copy would be the kernel's 17th distinct tensor map (one per source argument, element type, box and swizzle, in program order)",
        template: "this kernel would need more than {16} TMA tensor maps (one per distinct source argument, box, swizzle and OOB fill); split it or share boxes",
        check: Check::Op {
            condition: |ctx| tensor_maps::exceeds_limit(ctx),
        message: |_| {
            format!(
                "this kernel would need more than {} TMA tensor maps (one per distinct source argument, box, swizzle and OOB fill); split it or share boxes",
                MAX_TENSOR_MAPS
            )
        },
        },
        fallback: None,
    },
    Rule {
        id: "A28",
        ops: LOAD,
        scope: Scope::CpAsync,
        when: "src or dst has a layout that is not strided",
        template: "the cp.async implementation addresses memrefs through their strides, but {src} {memref<64x64xf32, affine_map<(d0, d1) -> (d1, d0)>>} has a layout that is not strided",
        check: Check::Op {
            condition: |ctx| not_strided(ctx).is_some(),
        message: |ctx| {
            let (role, ty) = not_strided(ctx).unwrap_or_default();
            format!(
                "the cp.async implementation addresses memrefs through their strides, but {role} {ty} has a layout that is not strided"
            )
        },
        },
        fallback: None,
    },
    Rule {
        id: "A29",
        ops: LOAD,
        scope: Scope::CpAsync,
        when: "a contiguous row of the window (`plan::chunk::plan_rows`) is not a multiple of 4 bytes (3 f16, say, or any f16 with a non-unit innermost stride)",
        template: "cp.async cannot copy rows of {6} bytes ({3} x {f16}): each contiguous row of the window must be a multiple of 4 bytes",
        check: Check::Op {
            condition: |ctx| cp_async_rows(ctx).is_some_and(|(elements, bytes)| !chunk::row_bytes_fit(elements * bytes)),
        message: |ctx| {
            let (elements, bytes) = cp_async_rows(ctx).unwrap_or_default();
            format!(
                "cp.async cannot copy rows of {} bytes ({elements} x {}): each contiguous row of the window must be a multiple of 4 bytes",
                elements * bytes,
                tile_element(ctx)
            )
        },
        },
        fallback: None,
    },
    Rule {
        id: "A30",
        ops: WAITS,
        scope: Scope::All,
        when: "`pending` is above 2147483647, the largest count the wait instructions take",
        template: "pending = {3000000000} is too large: the wait instruction takes a count of at most 2147483647",
        check: Check::Op {
            condition: |ctx| wait_pending(ctx).is_some_and(|pending| i32::try_from(pending).is_err()),
        message: |ctx| {
            format!(
                "pending = {} is too large: the wait instruction takes a count of at most 2147483647",
                wait_pending(ctx).unwrap_or_default()
            )
        },
        },
        fallback: None,
    },
    Rule {
        id: "A31",
        ops: DESCRIPTOR,
        scope: Scope::All,
        when: "`wgmma_descriptor` on a chip without wgmma (every chip but sm_90a)",
        template: "acopy.wgmma_descriptor describes a tile for wgmma, which only sm_90a has; {sm_90} has none",
        check: Check::Op {
            condition: |ctx| !ctx.target.chip.has(Capability::Wgmma),
            message: |ctx| {
                format!(
                    "acopy.wgmma_descriptor describes a tile for wgmma, which only sm_90a has; {} has none",
                    ctx.target.chip
                )
            },
        },
        fallback: None,
    },
    Rule {
        id: "A32",
        ops: DESCRIPTOR,
        scope: Scope::All,
        when: "the tile has no wgmma descriptor: an element type wgmma does not read, not rank 2 with whole 8-row groups, no acopy copy writes it or its writers disagree on the swizzle, written unswizzled, rows not a whole number of swizzle spans, a tile of column panels read through a view of part of it, `major = \"mn\"` of an element other than f16/bf16 or of rows (K) that are not whole K steps, a constant `k` that is no whole K step in the row (K-major) or the rows (MN-major), or a base that cannot be aligned to the pattern",
        template: "acopy.wgmma_descriptor cannot describe the tile {memref<64x64xf16, 3>}: {the copies that write the tile have swizzle = 0; ...}",
        check: Check::Op {
            condition: |ctx| descriptor_problem(ctx).is_some(),
            message: |ctx| {
                let tile = match ctx.view {
                    acopy_dialect::AcopyOp::WgmmaDescriptor(view) => view.tile_type.to_string(),
                    _ => String::new(),
                };
                format!(
                    "acopy.wgmma_descriptor cannot describe the tile {tile}: {}",
                    descriptor_problem(ctx).map(|p| p.to_string()).unwrap_or_default()
                )
            },
        },
        fallback: None,
    },
    Rule {
        id: "A33",
        ops: COPIES,
        scope: Scope::All,
        when: "fallback mode, a copy that T2 or T4 refuses in strict mode, and a wide tile that cannot be split (docs/dialect.md, \"Wide tiles\"): a swizzled row that is not a whole number of spans, column panels whose rows are not a multiple of 8, an unswizzled row longer than 256 elements in a window of several rows, a dimension no box length divides with aligned box starts, more than 32 boxes, or a multicast or `leader_tracked` copy",
        template: "fallback mode cannot split this wide copy (docs/dialect.md, \"Wide tiles\"): {it would need 64 TMA boxes, more than the 32 acopy issues for one copy}",
        check: Check::Op {
            condition: |ctx| wide_problem(ctx).is_some(),
            message: |ctx| {
                format!(
                    "fallback mode cannot split this wide copy (docs/dialect.md, \"Wide tiles\"): {}",
                    wide_problem(ctx).map(|p| p.to_string()).unwrap_or_default()
                )
            },
        },
        fallback: None,
    },
    Rule {
        id: "A34",
        ops: INDEX,
        scope: Scope::All,
        when: "the tile cannot be indexed: an element of other than 1, 2, 4 or 8 bytes, not rank 2 with contiguous rows, no acopy copy writes it or its writers disagree on the swizzle, rows not a whole number of swizzle spans, column panels whose rows are not a multiple of 8 or read through another view than the tile the copies write (rows of several spans that the copies do not write as panels included), or a swizzled tile whose start cannot be aligned to the pattern",
        template: "acopy.swizzled_index cannot index the tile {memref<64x48xf16, 3>}: {a tile written with swizzle = 128 needs rows of ...}",
        check: Check::Op {
            condition: |ctx| index_problem(ctx).is_some(),
            message: |ctx| {
                let tile = match ctx.view {
                    acopy_dialect::AcopyOp::SwizzledIndex(view) => view.tile_type.to_string(),
                    _ => String::new(),
                };
                format!(
                    "acopy.swizzled_index cannot index the tile {tile}: {}",
                    index_problem(ctx).map(|p| p.to_string()).unwrap_or_default()
                )
            },
        },
        fallback: None,
    },
    Rule {
        id: "A35",
        ops: LOAD,
        scope: Scope::CpAsync,
        when: "`src` is shared memory seen through `memref.memory_space_cast`: a view chain from a workgroup attribution, a shared `memref.global` or `gpu.dynamic_shared_memory` (on TMA chips A20 refuses such a source: it is no kernel argument)",
        template: "src must be global memory, but it is shared memory ({workgroup attribution #0}) seen through memref.memory_space_cast; cp.async reads global addresses only",
        check: Check::Op {
            condition: |ctx| shared_global_operand(ctx).is_some(),
            message: |ctx| {
                format!(
                    "src must be global memory, but it is shared memory ({}) seen through memref.memory_space_cast; cp.async reads global addresses only",
                    shared_global_operand(ctx).unwrap_or_default()
                )
            },
        },
        fallback: None,
    },
    Rule {
        id: "P1",
        ops: LOOP,
        scope: Scope::All,
        when: "a loop's `acopy.pipeline` is not a dictionary with `stages`, an integer in [1, `max-stages`] (default 8) or the string `\"auto\"`, and at most a `producer`, the string `\"block\"`, `\"warp\"` or `\"warpgroup\"`, and with `\"warpgroup\"` a `producer_registers`, an integer multiple of 8 in [24, 256], and with `\"warp\"` or `\"warpgroup\"` a `release`, the string `\"thread\"` or `\"warp\"`",
        template: "acopy.pipeline must be a dictionary with stages = S : i64 with S in [1, {8}] or stages = \"auto\", and optionally producer = \"block\", \"warp\" or \"warpgroup\" (with \"warpgroup\", optionally producer_registers = R : i64, a multiple of 8 in [24, 256]; with \"warp\" or \"warpgroup\", optionally release = \"thread\" or \"warp\"), but it is {3 : i64}",
        check: Check::Loop(Broken::Request),
        fallback: None,
    },
    Rule {
        id: "P2",
        ops: LOOP,
        scope: Scope::All,
        when: "`acopy.pipeline` is on an op that is not an `scf.for` (the error is at that op)",
        template: "acopy.pipeline marks scf.for loops only, but it is on '{scf.while}'",
        check: Check::Loop(Broken::NotALoop),
        fallback: None,
    },
    Rule {
        id: "P3",
        ops: LOOP,
        scope: Scope::All,
        when: "a marked loop has no `copy_gmem_to_smem` at its body's top level, or its copies are not followed by a `wait_gmem_to_smem`",
        template: "a loop marked acopy.pipeline needs, at the top level of its body, acopy.copy_gmem_to_smem ops followed by one acopy.wait_gmem_to_smem (pending = 0), but {it has no copy at its top level}",
        check: Check::Loop(Broken::BodyForm),
        fallback: None,
    },
    Rule {
        id: "P4",
        ops: LOOP,
        scope: Scope::All,
        when: "a marked loop holds another acopy op: one nested in the body, a copy after the wait, a second wait, a wait with `pending` above 0, a barrier op, a `copy_smem_to_gmem` of a pipelined tile (a TMA store of another shared tile and its `wait_smem_to_gmem` are consumers like any other)",
        template: "'{acopy.barrier_wait}' {nested in the body} cannot be in a loop marked acopy.pipeline: the pass owns the loop's copies and waits, so the body holds only copy_gmem_to_smem ops followed by one wait_gmem_to_smem (pending = 0) at its top level, then the consumers",
        check: Check::Loop(Broken::ForeignOp),
        fallback: None,
    },
    Rule {
        id: "P5",
        ops: LOOP,
        scope: Scope::All,
        when: "a pipelined copy's tile is not a workgroup attribution of the kernel `gpu.func` (a view, a `memref.global`, a value defined in the loop), has a layout, is written by two copies, is yielded, or is used outside the loop",
        template: "the dst tile {(workgroup attribution #0 : memref<64x128xf32, 3>)} of a pipelined copy must be a workgroup attribution of the kernel gpu.func, used only in the loop after its wait, but it {is yielded by the loop}",
        check: Check::Loop(Broken::TileHome),
        fallback: None,
    },
    Rule {
        id: "P6",
        ops: LOOP,
        scope: Scope::All,
        when: "a pipelined copy's tile is used in the body before the wait (a loop-carried hazard the pass cannot order)",
        template: "the dst tile {(workgroup attribution #0 : memref<64x128xf32, 3>)} of a pipelined copy is used by '{memref.load}' before the loop's wait_gmem_to_smem: the pass issues the copy of a later iteration early, so the body may use the tile only after the wait",
        check: Check::Loop(Broken::TileUsedEarly),
        fallback: None,
    },
    Rule {
        id: "P7",
        ops: LOOP,
        scope: Scope::All,
        when: "a pipelined copy's src or indices depend on an iter_arg, a memory read or any op that is not a pure index computation (they are recomputed S-1 iterations early)",
        template: "a pipelined copy is issued {2} iterations early, so its operands must be computed from the induction variable and loop-invariant values by pure ops, but its {index #0} depends on {'memref.load'}",
        check: Check::Loop(Broken::OperandSlice),
        fallback: None,
    },
    Rule {
        id: "P8",
        ops: LOOP,
        scope: Scope::All,
        when: "an op in the marked loop writes the memory of a pipelined copy's src (a store, atomic, vector store, memref.copy or copy_smem_to_gmem through the same root memref)",
        template: "the src {(kernel argument #0 : memref<4096x128xf32>)} of a pipelined copy is written in the loop by '{memref.store}': the copy of a later iteration would be issued before that write",
        check: Check::Loop(Broken::SrcWritten),
        fallback: None,
    },
    Rule {
        id: "P9",
        ops: LOOP,
        scope: Scope::All,
        when: "a copy in a marked loop has `leader_tracked`, a barrier (outside the native form) or a predicate, or `collective_axes` on a cp.async chip; or a multicast copy (a collective group of more than one CTA) on a chip without TMA multicast, with `producer = \"warp\"` beside a multicast copy over another group, or whose slices the pass cannot prove fill its slot (the slot's barrier expects the tile's bytes)",
        template: "pipelining a copy with {leader_tracked} is not supported: {only the pair leader's barrier tracks both CTAs' bytes, ...}",
        check: Check::Loop(Broken::CopyForm),
        fallback: None,
    },
    Rule {
        id: "P10",
        ops: LOOP,
        scope: Scope::All,
        when: "the kernel's shared memory with S padded slots per pipelined tile (and, on TMA, S mbarriers and an 8-byte tile count; for slots moved to dynamic shared memory, the bytes that align them there) exceeds the chip's per-block limit (163 KiB on sm_80 and sm_87, 99 KiB on sm_86, sm_89 and sm_120, 227 KiB on sm_90 to sm_110a)",
        template: "the pipelined loop needs {135300} bytes of shared memory on {sm_86} ({4 x 33792 bytes for memref<64x128xf32, 3>, ...}), more than the {101376} bytes a block can have; {at most 2 stages fit}",
        check: Check::Loop(Broken::Budget),
        fallback: None,
    },
    Rule {
        id: "P11",
        ops: LOOP,
        scope: Scope::All,
        when: "that total, all static, exceeds 48 KiB (the static shared memory ptxas accepts) and the slots cannot move to dynamic shared memory: the kernel uses `gpu.dynamic_shared_memory` itself or already carries `acopy.dynamic_shared_memory`, it has another marked loop, or its barriers, shared globals and workgroup attributions that cannot move (no static identity layout) alone exceed 48 KiB (swizzled slots move too: the rewrite keeps each slot's 8 × S alignment there)",
        template: "the pipelined loop puts {65536} bytes in static shared memory ({2 x 32768 bytes for memref<64x128xf32, 3>, ...}), more than the 49152 bytes ptxas accepts, and its slots cannot move to dynamic shared memory: {the kernel uses gpu.dynamic_shared_memory itself}; {at most 1 stage fits} in static shared memory",
        check: Check::Loop(Broken::StaticBudget),
        fallback: None,
    },
    Rule {
        id: "P12",
        ops: LOOP,
        scope: Scope::All,
        when: "a marked loop in the native TMA form (copies with a barrier, then `barrier_wait`) on a cp.async chip, or whose barrier the pass cannot replace: a copy without it, no `barrier_init` outside the loop or one after it, another use of the barrier, an `arrival_count` other than the copies per iteration, or a parity from an iter_arg or a memory read",
        template: "a loop marked acopy.pipeline in the native TMA form (copies with a barrier, then barrier_wait) is pipelined with the pass's own barriers and parities, so its barrier must be initialised once before the loop and used only by the loop's copies and its one barrier_wait, with a parity computed from the induction variable and loop-invariant values by pure ops, but {the barrier (workgroup attribution #1 : memref<1xi64, 3>) is also used by 'acopy.barrier_wait' outside the loop}",
        check: Check::Loop(Broken::NativeForm),
        fallback: None,
    },
    Rule {
        id: "P13",
        ops: LOOP,
        scope: Scope::All,
        when: "a marked loop is `scf.for unsigned` with an `index` or `i64` induction variable (signed loops of any integer type, and unsigned ones narrower than 64 bits, are pipelined)",
        template: "a loop marked acopy.pipeline cannot compare unsigned 64-bit induction values (scf.for unsigned with an index or i64 induction variable): the pass computes its schedule in signed 64-bit index arithmetic; use a signed loop, or an unsigned one narrower than 64 bits",
        check: Check::Loop(Broken::Induction),
        fallback: None,
    },
    Rule {
        id: "P14",
        ops: LOOP,
        scope: Scope::All,
        when: "a marked loop's consumers read a pipelined tile with wgmma (through `acopy.wgmma_descriptor`) and the body has no `nvvm.wgmma.wait.group.sync.aligned` at its top level after the last wgmma",
        template: "a loop marked acopy.pipeline whose consumers read a pipelined tile with wgmma (through acopy.wgmma_descriptor) must wait for them in its body, with a nvvm.wgmma.wait.group.sync.aligned N at the body's top level after the last wgmma: a wgmma reads its slot until that wait, and the pass refills the slot after it",
        check: Check::Loop(Broken::AsyncWait),
        fallback: None,
    },
    Rule {
        id: "P15",
        ops: LOOP,
        scope: Scope::All,
        when: "an `acopy.wgmma_descriptor` of a pipelined tile is yielded by the loop or used outside its body (the error is at the descriptor)",
        template: "a wgmma descriptor of a pipelined tile {is yielded to the next iteration}: the pass moves the tile to a different slot every iteration, so a descriptor is good only in the iteration that made it",
        check: Check::Loop(Broken::DescriptorEscapes),
        fallback: None,
    },
    Rule {
        id: "P16",
        ops: LOOP,
        scope: Scope::All,
        when: "a marked loop's body leaves N wgmma groups in flight (`nvvm.wgmma.wait.group.sync.aligned N`) and its stage count (after the clamp to a constant trip count) is at most N",
        template: "the loop's body leaves {1} wgmma group(s) in flight with nvvm.wgmma.wait.group.sync.aligned {1}, and each holds the slot it reads until it completes, so stages = {1} leaves no slot to refill: use stages >= {2}",
        check: Check::Loop(Broken::AsyncStages),
        fallback: None,
    },
    Rule {
        id: "P17",
        ops: LOOP,
        scope: Scope::All,
        when: "a loop marked with `producer = \"warp\"` (`\"warpgroup\"`) is in a kernel whose block size is not declared (`known_block_size`, `gpu.known_block_size` or `nvvm.reqntid`), not one-dimensional, not a multiple of 32 (128) or above 992 (896) threads",
        template: "a loop marked acopy.pipeline with producer = \"{warp}\" needs its kernel's block size known and one-dimensional, a multiple of {32} and at most {992} threads (the pass adds one {32-thread producer warp} after them), but {the kernel declares none (give it known_block_size or nvvm.reqntid)}",
        check: Check::Loop(Broken::WarpBlock),
        fallback: None,
    },
    Rule {
        id: "P18",
        ops: LOOP,
        scope: Scope::All,
        when: "a loop marked with `producer = \"warp\"` or `\"warpgroup\"` is neither at the top level of its kernel nor in one `scf.for` there without iter_args (or the kernel's body has several blocks); its bounds or its copies read a value before it that an op other than a value computation gives (a load, a wgmma, a region); an op before it that the producer does not need (the consumers run it alone: docs/pipelining.md, \"Code only the consumers run\") writes global memory, or it or an op after it is an acopy op (other than `wgmma_descriptor`, `swizzled_index`, `copy_smem_to_gmem`, `wait_smem_to_gmem`, and on TMA chips a `copy_gmem_to_smem` on a barrier, `barrier_init` and `barrier_wait`), `nvvm.barrier0`, an `nvvm.barrier` without a thread count, `nvvm.cluster.*`, `nvvm.griddepcontrol` (the producer's copies must wait too: at the top level it runs on both roles before anything the consumers run alone) or `gpu.all_reduce`; in the kernel's body before a persistent `scf.for`, an op does more than compute values (`copy_gmem_to_smem`, `wait_gmem_to_smem`, `barrier_init`, `barrier_wait` and `nvvm.griddepcontrol` may stand there too)",
        template: "a loop marked acopy.pipeline with producer = \"{warp}\" must stand at the top level of its kernel or in one scf.for there that carries no values; what its copies and bounds read may only be computed before it (the producer {warp} runs that code too), and the code the consumers run alone (the rest before it, and all after it) may hold no acopy op other than TMA copies on a barrier, barrier inits and waits, TMA stores and their waits, no barrier of the whole block other than gpu.barrier and, before the loop, no store to global memory, but {'memref.store' comes before it and writes global memory, which the producer's copies may read meanwhile}",
        check: Check::Loop(Broken::WarpPlace),
        fallback: None,
    },
    Rule {
        id: "P19",
        ops: LOOP,
        scope: Scope::All,
        when: "a loop marked with `producer = \"warpgroup\"` is compiled for a chip without `setmaxnreg` (any but sm_90a and the architecture-specific targets after it)",
        template: "a loop marked acopy.pipeline with producer = \"warpgroup\" needs a chip with setmaxnreg (sm_90a, or an architecture-specific target after it such as sm_100a), but {sm_90 has no setmaxnreg}",
        check: Check::Loop(Broken::WarpgroupChip),
        fallback: None,
    },
];

/// The first constant window start, as (dimension, value), that a TMA
/// coordinate cannot hold: the index plus the subview's offset where the
/// global memref resolves to a kernel argument (the coordinate the lowering
/// emits), else the index; a dynamic start is the frontend's to keep in range.
fn out_of_i32_start(ctx: &Ctx) -> Option<(usize, i128)> {
    let starts: Vec<Option<i128>> = match tma_source(ctx) {
        Some(source) => source.constant_starts.clone(),
        None => ctx
            .copy
            .as_ref()?
            .starts
            .iter()
            .map(|start| start.map(i128::from))
            .collect(),
    };
    starts.iter().enumerate().find_map(|(dimension, start)| {
        start
            .filter(|value| i32::try_from(*value).is_err())
            .map(|value| (dimension, value))
    })
}

/// The most shared memory one block can have on any supported chip: 227 KiB
/// on the sm_90 and sm_100 families (sm_80 has 163 KiB, sm_86, sm_89 and
/// sm_120 99 KiB). A larger tile can never be allocated, and rejecting it
/// keeps every size the lowering computes from the tile far from overflow.
const MAX_SHARED_BYTES: u128 = 227 * 1024;

/// The shared tile's size in bytes (saturating), for a supported element type.
fn tile_bytes(ctx: &Ctx) -> Option<u128> {
    let bytes = u128::from(supported_bits(ctx)? / 8);
    let shape = &ctx.copy.as_ref()?.tile_shape;
    Some(shape.iter().fold(bytes, |bytes, &dim| {
        bytes.saturating_mul(u128::try_from(dim).unwrap_or(0))
    }))
}

/// Bits along the box's innermost dimension, for a supported element type.
fn last_dim_bits(ctx: &Ctx) -> Option<i128> {
    let bits = supported_bits(ctx)?;
    let last = *ctx.tma_box()?.last()?;
    Some(i128::from(last) * i128::from(bits))
}

/// `(S, S bytes in elements, innermost window length)` for a swizzled load
/// or store.
fn swizzle_elements(ctx: &Ctx) -> Option<(u32, i64, i64)> {
    let swizzle = ctx.swizzle().bytes();
    if swizzle == 0 {
        return None;
    }
    let bits = supported_bits(ctx)?;
    let want = i64::from(swizzle * 8 / bits);
    let got = *ctx.tma_box()?.last()?;
    Some((swizzle, want, got))
}

/// T2: a dimension of the TMA box is above 256.
fn box_too_long(ctx: &Ctx) -> bool {
    ctx.path() == CopyPath::Tma
        && ctx
            .tma_box()
            .is_some_and(|tile| tile.iter().any(|&len| len > wide_tile::TMA_MAX_BOX))
}

/// T4: a swizzled row that is not exactly one span.
fn row_not_one_span(ctx: &Ctx) -> bool {
    swizzle_elements(ctx).is_some_and(|(_, want, got)| want != got)
}

/// Why fallback mode cannot split a copy that T2 or T4 refuses in strict
/// mode (A33); `None` in strict mode, where those rules report it.
fn wide_problem(ctx: &Ctx) -> Option<wide_tile::SplitProblem> {
    if !ctx.options.fallback || !(box_too_long(ctx) || row_not_one_span(ctx)) {
        return None;
    }
    ctx.wide_split()?.err()
}

/// How fallback mode splits a wide copy, for its remark: `swizzle=128 with
/// 128-element rows: 2 column panels, 2 boxes of (64, 64), one barrier,
/// expect_tx 16384 bytes`.
fn wide_detail(ctx: &Ctx) -> Option<String> {
    let grid = ctx.wide_split()?.ok()??;
    let swizzle = ctx.swizzle().bytes();
    let inner = *grid.window.last()?;
    let mut text = match swizzle {
        0 => format!("window {}: ", shape::py_tuple(&grid.window)),
        _ => format!("swizzle={swizzle} with {inner}-element rows: "),
    };
    // A TMA copy whose constant start TMA cannot take (A18, waived too)
    // takes only the non-TMA path: no boxes are issued.
    let no_tma = ctx.path() == CopyPath::CpAsync
        || misaligned_constant_start(ctx).is_some()
        || negative_store_start(ctx).is_some();
    if swizzle != 0 && grid.panels.count > 1 {
        text.push_str(&format!("{} column panels", grid.panels.count));
        if no_tma {
            let each = match ctx.load() {
                Some(_) => "each chunk placed in its panel",
                None => "each element read from its panel",
            };
            text.push_str(&format!(
                " of {} rows x {} bytes, {each}",
                grid.panels.rows, grid.panels.span
            ));
            return Some(text);
        }
        text.push_str(", ");
    }
    if no_tma {
        text.push_str("row-major, written by the non-TMA path");
        return Some(text);
    }
    text.push_str(&grid.describe());
    // Sized: wide_tile refuses windows of 2^31 bytes or more.
    let window_bytes = grid.window.iter().product::<i64>() * grid.element_bytes as i64;
    match ctx.load() {
        Some(_) => text.push_str(&format!(", one barrier, expect_tx {window_bytes} bytes")),
        None => text.push_str(", one bulk group"),
    }
    Some(text)
}

/// `(S, what is wrong)` of a swizzled cp.async load whose tile cannot hold
/// TMA's pattern: not dense and row-major, or not provably aligned to the
/// pattern's repeat (A4). The lowering XORs absolute shared addresses, as TMA
/// does, so the pattern starts at the tile only on such a tile.
fn cp_async_swizzle_problem(ctx: &Ctx) -> Option<(u32, String)> {
    let load = ctx.load()?;
    let swizzle = load.swizzle.bytes();
    if swizzle == 0 {
        return None;
    }
    if !ctx.copy.as_ref()?.tile_contiguous {
        return Some((swizzle, "is not contiguous".to_string()));
    }
    let align = shape::tma_smem_alignment(swizzle);
    alignment::alignment_problem(load.dst, element_bytes(ctx)?, align)
        .map(|problem| (swizzle, problem))
}

/// The element size in bytes, for a supported element type.
fn element_bytes(ctx: &Ctx) -> Option<u64> {
    supported_bits(ctx).map(|bits| u64::from(bits / 8))
}

/// The shared tile's element type, in MLIR spelling.
fn tile_element(ctx: &Ctx) -> String {
    ctx.copy
        .as_ref()
        .map(|copy| copy.tile_element.clone())
        .unwrap_or_default()
}

/// The kernel argument behind a TMA copy's global memref, when it resolves.
fn tma_source<'x, 'c, 'a>(ctx: &'x Ctx<'_, 'c, 'a>) -> Option<&'x SourceFacts<'c, 'a>> {
    ctx.tma.as_ref()?.source.as_ref().ok()
}

/// Why a TMA copy's global memref does not resolve to a kernel argument.
fn source_error<'x>(ctx: &'x Ctx) -> Option<&'x SourceError> {
    ctx.tma.as_ref()?.source.as_ref().err()
}

fn source_error_message(ctx: &Ctx) -> String {
    let role = ctx.copy.as_ref().map_or("", |copy| copy.global_role);
    source_error(ctx).map_or_else(String::new, |error| error.message(role))
}

/// `(start, element bytes)` of a constant innermost window start that is not
/// 16-byte aligned (A18).
/// `(dimension, start)` of a store's first negative constant start (A18).
fn negative_store_start(ctx: &Ctx) -> Option<(usize, i128)> {
    matches!(ctx.view, AcopyOp::CopySmemToGmem(_)).then_some(())?;
    tma_source(ctx)?
        .constant_starts
        .iter()
        .enumerate()
        .find_map(|(dim, start)| start.filter(|start| *start < 0).map(|start| (dim, start)))
}

fn misaligned_constant_start(ctx: &Ctx) -> Option<(i128, u64)> {
    let bytes = element_bytes(ctx)?;
    match tma_source(ctx)?.innermost_start? {
        start @ Start::Constant(value) if !start.aligned(bytes) => Some((value, bytes)),
        _ => None,
    }
}

/// `(proved divisor, element bytes, what the copy is)` of a dynamic
/// innermost start of a copy without a non-TMA path, neither proved nor
/// promised 16-byte aligned (A19).
fn unproved_dynamic_start(ctx: &Ctx) -> Option<(u64, u64, &'static str)> {
    let bytes = element_bytes(ctx)?;
    let what = no_fallback_reason(ctx.view)?;
    if assumes_aligned_start(ctx.view) {
        return None;
    }
    match tma_source(ctx)?.innermost_start? {
        start @ Start::Dynamic { divisor } if !start.aligned(bytes) => Some((divisor, bytes, what)),
        _ => None,
    }
}

/// `(slice bytes, alignment)` of a multicast whose per-CTA slices TMA
/// cannot place (A24).
fn misaligned_slice(ctx: &Ctx) -> Option<(i128, u64)> {
    let (dim, _) = ctx.multicast_split()?;
    let tile = ctx.tma_box()?;
    let bytes = shape::multicast_slice_bytes(&tile, dim, element_bytes(ctx)?);
    let align = shape::tma_smem_alignment(ctx.load()?.swizzle.bytes());
    (bytes % i128::from(align) != 0).then_some((bytes, align))
}

/// `@module::@kernel` when a `gpu.launch_func` launches the copy's kernel (A26).
fn host_launch(ctx: &Ctx) -> Option<String> {
    tensor_map_key::host_launch(tma_source(ctx)?.kernel)
}

/// The first of a cp.async load's memrefs whose layout is not strided (A28).
fn not_strided(ctx: &Ctx) -> Option<(&'static str, String)> {
    let copy = ctx.copy.as_ref()?;
    if copy.global_strides.is_none() {
        return Some((copy.global_role, copy.global_type.clone()));
    }
    if copy.tile_strides.is_none() {
        return Some((copy.tile_role, copy.tile_type.clone()));
    }
    None
}

/// `(elements per contiguous row, element bytes)` of a cp.async load, as
/// its plan has them (`plan::cp_async_load::window_dims`, `chunk::plan_rows`).
fn cp_async_rows(ctx: &Ctx) -> Option<(u64, u64)> {
    let copy = ctx.copy.as_ref()?;
    let bytes = element_bytes(ctx)?;
    let src = copy.global_strides.as_ref()?;
    let dst = copy.tile_strides.as_ref()?;
    if src.len() != copy.window.len() {
        return None;
    }
    let window = cp_async_load::window_dims(&copy.tile_shape, src, dst)?;
    let zero_fill = ctx.options.fallback
        && ctx
            .load()
            .is_some_and(|load| load.oob_mode_or_default() != OobMode::PromiseInBounds);
    let rows = chunk::plan_rows(&window, !zero_fill);
    Some((rows.row_elements, bytes))
}

/// The `pending` count of a wait op.
fn wait_pending(ctx: &Ctx) -> Option<u32> {
    match ctx.view {
        acopy_dialect::AcopyOp::WaitGmemToSmem(wait) => Some(wait.pending),
        acopy_dialect::AcopyOp::WaitSmemToGmem(wait) => Some(wait.pending),
        _ => None,
    }
}

/// Why a `wgmma_descriptor` has no plan (`crate::plan::wgmma_descriptor`).
fn descriptor_problem(ctx: &Ctx) -> Option<crate::plan::wgmma_descriptor::DescriptorProblem> {
    match ctx.view {
        acopy_dialect::AcopyOp::WgmmaDescriptor(view) => {
            crate::plan::wgmma_descriptor::DescriptorPlan::of(view).err()
        }
        _ => None,
    }
}

/// Why a `swizzled_index` has no plan (`crate::plan::swizzled_index`).
fn index_problem(ctx: &Ctx) -> Option<crate::plan::swizzled_index::IndexProblem> {
    match ctx.view {
        acopy_dialect::AcopyOp::SwizzledIndex(view) => {
            crate::plan::swizzled_index::IndexPlan::of(view).err()
        }
        _ => None,
    }
}

/// The shared memory a load's `src` views (rule A35), named.
fn shared_global_operand(ctx: &Ctx) -> Option<String> {
    match ctx.view {
        acopy_dialect::AcopyOp::CopyGmemToSmem(load) => {
            crate::plan::alignment::view_root(load.src).shared_memory()
        }
        _ => None,
    }
}

/// The rule table as Markdown, for `docs/verification.md`.
pub fn markdown_table() -> String {
    let mut out = String::from(
        "| id | op | chips | condition | message | fallback mode keeps it when |\n|---|---|---|---|---|---|\n",
    );
    for rule in RULES {
        let ops = rule
            .ops
            .iter()
            .map(|name| name.trim_start_matches("acopy."))
            .collect::<Vec<_>>()
            .join(", ");
        let fallback = rule.fallback.as_ref().map_or("—".to_string(), |fallback| {
            format!("{}: {}", fallback.when, fallback.lowering)
        });
        out.push_str(&format!(
            "| {} | {} | {} | {} | `` {} `` | {} |\n",
            rule.id,
            ops,
            rule.scope.chips(),
            rule.when,
            rule.template,
            fallback
        ));
    }
    out
}
