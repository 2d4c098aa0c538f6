//! Target resolution (docs/dialect.md, "Target"): which chip, cluster shape and block size an
//! acopy op is compiled for.
//!
//! The chip comes from the enclosing `gpu.module`'s `#nvvm.target<chip = ...>`,
//! unless [`PassOptions::chip`] overrides it. The cluster shape comes from the
//! enclosing function's `nvvm.cluster_dim` (default 1×1×1), the block size from
//! the `gpu.func`'s `known_block_size`, `gpu.known_block_size` or
//! `nvvm.reqntid` when one is present.

use std::cell::RefCell;

use acopy_target::{Chip, TargetError};
use melior::ir::{
    attribute::{ArrayAttribute, DenseI32ArrayAttribute},
    operation::{OperationLike, WalkOrder, WalkResult},
    Attribute, AttributeLike, OperationRef,
};
use rustc_hash::FxHashMap as HashMap;

use crate::ir::op_names;
use crate::{
    scoped_memo::{self, Slot},
    PassOptions,
};

pub(crate) mod by_parent;
pub(crate) mod gating;
mod retarget;
pub(crate) mod roles;
pub(crate) use retarget::{retarget, retarget_all};

/// Everything about the target that a rule or a lowering may depend on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target {
    pub chip: Chip,
    /// CTAs per cluster along x, y, z.
    pub cluster: [u32; 3],
    /// Threads per block along x, y, z, when the kernel declares it.
    pub block: Option<[u32; 3]>,
    /// The threads that issue the op's copies, when not the whole block: a
    /// warp-specialized loop's producer ([`ISSUERS`]).
    pub issuers: Option<Issuers>,
}

/// The discardable attribute `acopy.issuers = array<i32: first, count>` that
/// `acopy-pipeline` puts on a warp-specialized loop's producer region: the
/// copies in it are issued by the `count` threads from linear id `first` (the
/// ones that reach them), not by the whole block (docs/pipelining.md, "Warp
/// specialization").
pub const ISSUERS: &str = op_names::attributes::ISSUERS;

/// The discardable attribute `acopy.consumers = array<i32: 0, B>` that
/// `acopy-pipeline` puts on a warp-specialized loop's consumer region: only the
/// kernel's B declared threads run the ops in it, so an op there that deals work
/// over the block deals it over those B (read as [`Issuers`]), and every barrier
/// of the whole block in it is the consumers' named barrier (`crate::roles`).
pub const CONSUMERS: &str = op_names::attributes::CONSUMERS;

/// A range of linear thread ids that issue copies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Issuers {
    pub first: u32,
    pub count: u32,
}

impl Target {
    /// The number of CTAs in the cluster (saturating: a cluster this large
    /// cannot launch, and the rules only compare it with small numbers).
    pub fn cluster_size(&self) -> u32 {
        self.cluster
            .iter()
            .fold(1u32, |size, dim| size.saturating_mul(*dim))
    }
}

/// Why the chip of an op cannot be determined.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TargetProblem {
    /// No override and no `#nvvm.target` around the op.
    #[error("cannot determine the target chip: put the op in a gpu.module with targets = [#nvvm.target<chip = \"sm_XX\">], or set the chip option (chip=sm_XX)")]
    NoChip,
    /// An `#nvvm.target` without `chip`, which MLIR reads as sm_50.
    #[error("the gpu.module's #nvvm.target names no chip, so MLIR assumes sm_50, which acopy does not support: add chip = \"sm_XX\" (sm_80 or newer), or set the chip option (chip=sm_XX)")]
    DefaultChip,
    /// The named chip is unknown or too old.
    #[error("{0}")]
    Chip(#[from] TargetError),
    /// The gpu.module's `#nvvm.target`s name different chips; acopy lowers a
    /// gpu.module for one chip, so it could not serve them all.
    #[error("the gpu.module has #nvvm.targets for several chips ({0}); acopy lowers each gpu.module for one chip: put the kernels for each chip in their own gpu.module, or set the chip option (chip=sm_XX)")]
    SeveralChips(String),
    /// `nvvm.cluster_dim`, `known_block_size`, `gpu.known_block_size` or
    /// `nvvm.reqntid` holds a size below 1.
    #[error("'{attribute}' must hold sizes of at least 1, got {value}")]
    Dims { attribute: String, value: String },
    /// `acopy.issuers` is not `array<i32: first, count>` with count >= 1.
    #[error(
        "'acopy.issuers' must be array<i32: first, count> with first >= 0 and count >= 1, got {0}"
    )]
    Issuers(String),
}

/// The innermost op named `name` that encloses `op` (or is `op`).
pub(crate) fn enclosing<'c, 'a>(
    op: OperationRef<'c, 'a>,
    name: op_names::OpName,
) -> Option<OperationRef<'c, 'a>> {
    let mut current = Some(op);
    while let Some(candidate) = current {
        if crate::ir::is(&candidate, name) {
            return Some(candidate);
        }
        current = candidate.parent_operation();
    }
    None
}

/// The chips of a `gpu.module`'s `targets`, by the attribute's address: MLIR
/// uniques attributes and keeps them while the context lives, so an edited
/// `targets` cannot make a key name another. Kept by [`run_scope`]
/// for one pass run, since printing each target is the only way to read it.
type Chips = HashMap<usize, Vec<Result<Chip, TargetProblem>>>;

thread_local! {
    static CHIPS: RefCell<Slot<Chips>> = RefCell::default();
}

#[cfg(test)]
thread_local! {
    /// How often [`module_chip`] ran on this thread: tests pin that a pass
    /// reads each gpu.module's chip once, not once per op.
    pub(crate) static MODULE_CHIP_READS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Keeps the chips memo until the returned guard is dropped; the outermost
/// one forgets it.
pub(crate) fn chips_scope() -> impl Sized {
    scoped_memo::enter(&CHIPS)
}

/// Keeps every run-long memo until the returned guard is dropped: the
/// answers of `crate::run_cache` and the chips above; the outermost one
/// forgets them.
pub(crate) fn run_scope() -> impl Sized {
    (crate::run_cache::scope(), chips_scope())
}

/// The chip of each `#nvvm.target` of a `gpu.module`, in order.
pub fn module_chips(gpu_module: OperationRef) -> Vec<Result<Chip, TargetProblem>> {
    let Some(attribute) = gpu_module.attribute("targets").ok() else {
        return Vec::new();
    };
    let key = attribute.to_raw().ptr as usize;
    if let Some(Some(known)) = scoped_memo::with(&CHIPS, |memo| memo.get(&key).cloned()) {
        return known;
    }
    let chips = targets_chips(attribute);
    scoped_memo::with(&CHIPS, |memo| memo.insert(key, chips.clone()));
    chips
}

/// The chip of one target attribute (a `gpu.binary` object's, say); `None`
/// when it is not an `#nvvm.target`.
pub fn target_chip(target: Attribute) -> Option<Result<Chip, TargetProblem>> {
    let text = target.to_string();
    text.starts_with("#nvvm.target")
        .then(|| chip_in_target(&text))
}

/// Reads the chips of a `targets` attribute by printing each target.
fn targets_chips(attribute: Attribute) -> Vec<Result<Chip, TargetProblem>> {
    let Ok(targets) = ArrayAttribute::try_from(attribute) else {
        return Vec::new();
    };
    (0..targets.len())
        .filter_map(|index| targets.element(index).ok())
        .filter_map(target_chip)
        .collect()
}

/// The chip named by a `gpu.module`'s `targets` attribute, if it has an
/// `#nvvm.target`.
pub fn module_chip(gpu_module: OperationRef) -> Option<Result<Chip, TargetProblem>> {
    #[cfg(test)]
    MODULE_CHIP_READS.with(|reads| reads.set(reads.get() + 1));
    let chips = module_chips(gpu_module);
    let first = chips.first()?.clone();
    let first_chip = first.as_ref().ok().copied();
    if chips
        .iter()
        .any(|chip| chip.as_ref().ok().copied() != first_chip)
    {
        let names: Vec<String> = chips
            .iter()
            .map(|chip| match chip {
                Ok(chip) => chip.name().to_string(),
                Err(_) => "an unsupported chip".to_string(),
            })
            .collect();
        return Some(Err(TargetProblem::SeveralChips(names.join(", "))));
    }
    Some(first)
}

/// Reads `chip = "sm_XX"` out of an `#nvvm.target<...>` spelling; the C API has
/// no accessor for NVVM target attributes.
fn chip_in_target(text: &str) -> Result<Chip, TargetProblem> {
    let Some(start) = text.find("chip = \"") else {
        return Err(TargetProblem::DefaultChip);
    };
    let rest = &text[start + "chip = \"".len()..];
    let name = rest.split('"').next().unwrap_or_default();
    Ok(Chip::parse(name)?)
}

/// The chip for `op`: the override, or the enclosing gpu.module's target.
pub fn resolve_chip(op: OperationRef, options: &PassOptions) -> Result<Chip, TargetProblem> {
    if let Some(chip) = options.chip {
        return Ok(chip);
    }
    enclosing(op, op_names::gpu::MODULE)
        .and_then(module_chip)
        .unwrap_or(Err(TargetProblem::NoChip))
}

/// `name` on `op` as x, y, z sizes (missing trailing sizes are 1); `None`
/// when `op` has no such `array<i32: ...>` attribute.
fn dims_attribute(op: OperationRef, name: &str) -> Option<Result<[u32; 3], TargetProblem>> {
    let attribute: Attribute = op.attribute(name).ok()?;
    let dims = DenseI32ArrayAttribute::try_from(attribute).ok()?;
    let mut out = [1u32; 3];
    for (index, slot) in out.iter_mut().enumerate().take(dims.len().min(3)) {
        match dims
            .element(index)
            .ok()
            .and_then(|dim| u32::try_from(dim).ok())
        {
            Some(dim) if dim >= 1 => *slot = dim,
            _ => {
                return Some(Err(TargetProblem::Dims {
                    attribute: name.to_string(),
                    value: attribute.to_string(),
                }))
            }
        }
    }
    Some(Ok(out))
}

/// The innermost enclosing function-like op carrying attribute `name`.
fn function_dims(op: OperationRef, name: &str) -> Option<Result<[u32; 3], TargetProblem>> {
    let mut current = Some(op);
    while let Some(candidate) = current {
        if let Some(dims) = dims_attribute(candidate, name) {
            return Some(dims);
        }
        current = candidate.parent_operation();
    }
    None
}

/// The full target of `op`, resolving its chip (one op; a pass resolves
/// every module's chip once with [`ModuleChips`]).
pub fn resolve(op: OperationRef, options: &PassOptions) -> Result<Target, TargetProblem> {
    function_target(op, resolve_chip(op, options)?)
}

/// `op`'s target on `chip`: the cluster and block of its function.
fn function_target(op: OperationRef, chip: Chip) -> Result<Target, TargetProblem> {
    let cluster =
        function_dims(op, op_names::attributes::NVVM_CLUSTER_DIM).unwrap_or(Ok([1, 1, 1]))?;
    let block = known_block(op)?;
    Ok(Target {
        chip,
        cluster,
        block,
        issuers: issuers_of(op)?,
    })
}

/// The block size `op`'s function declares, if any.
pub fn known_block(op: OperationRef) -> Result<Option<[u32; 3]>, TargetProblem> {
    // What [`known_block_attribute`] finds, read in the same walk (each op's
    // check and lowering ask).
    BLOCK_ATTRIBUTES
        .into_iter()
        .find_map(|name| function_dims(op, name))
        .transpose()
}

/// The attribute that declares `op`'s block size, by precedence (what
/// [`known_block`] reads).
pub fn known_block_attribute(op: OperationRef) -> Option<&'static str> {
    BLOCK_ATTRIBUTES
        .into_iter()
        .find(|name| function_dims(op, name).is_some())
}

/// Where a kernel may declare its block size: gpu.func's own attribute (what
/// MLIR 22 prints and the kernel builders make), the discardable form other
/// functions carry, and NVVM's.
pub const BLOCK_ATTRIBUTES: [&str; 3] = [
    "known_block_size",
    op_names::attributes::GPU_KNOWN_BLOCK_SIZE,
    op_names::attributes::NVVM_REQNTID,
];

/// The innermost [`ISSUERS`] or [`CONSUMERS`] around `op`, if any.
fn issuers_of(op: OperationRef) -> Result<Option<Issuers>, TargetProblem> {
    let mut current = Some(op);
    while let Some(candidate) = current {
        let marked = candidate
            .attribute(ISSUERS)
            .or_else(|_| candidate.attribute(CONSUMERS));
        if let Ok(attribute) = marked {
            return thread_range(attribute)
                .map(Some)
                .ok_or_else(|| TargetProblem::Issuers(attribute.to_string()));
        }
        current = candidate.parent_operation();
    }
    Ok(None)
}

/// The threads an [`ISSUERS`] or [`CONSUMERS`] mark names, `array<i32: first,
/// count>` with count at least 1, or `None` for any other value.
pub(crate) fn thread_range(mark: melior::ir::Attribute) -> Option<Issuers> {
    let values = DenseI32ArrayAttribute::try_from(mark).ok()?;
    if values.len() != 2 {
        return None;
    }
    let read = |index| {
        values
            .element(index)
            .ok()
            .and_then(|value| u32::try_from(value).ok())
    };
    match (read(0), read(1)) {
        (Some(first), Some(count)) if count >= 1 => Some(Issuers { first, count }),
        _ => None,
    }
}

// A pass builds one `ModuleChips` for the op it runs on and hands it to
// every per-op check and lowering, which look their chip up by the enclosing
// `gpu.module` instead of reading its `targets` again.

/// The chip of each `gpu.module` under a pass's root, or the override.
#[derive(Debug, Clone)]
pub struct ModuleChips {
    /// `chip=`: every op's chip, whatever its module says.
    chip_override: Option<Chip>,
    /// Each gpu.module's chip (or why it has none), by the module's address.
    by_module: HashMap<usize, Result<Chip, TargetProblem>>,
}

impl ModuleChips {
    /// Resolves the chip of every `gpu.module` under `root` (and `root`
    /// itself), once each; nothing is read when `options` override the chip.
    pub fn resolve(root: OperationRef, options: &PassOptions) -> Self {
        let mut by_module = HashMap::default();
        if options.chip.is_none() {
            root.walk(WalkOrder::PreOrder, |op| {
                if crate::ir::is(&op, op_names::gpu::MODULE) {
                    by_module.insert(op.to_raw().ptr as usize, chip_of_module(op));
                }
                WalkResult::Advance
            });
        }
        ModuleChips {
            chip_override: options.chip,
            by_module,
        }
    }

    /// The chip `op` is compiled for: the override, or its gpu.module's.
    pub fn chip(&self, op: OperationRef) -> Result<Chip, TargetProblem> {
        if let Some(chip) = self.chip_override {
            return Ok(chip);
        }
        let module = enclosing(op, op_names::gpu::MODULE).ok_or(TargetProblem::NoChip)?;
        match self.by_module.get(&(module.to_raw().ptr as usize)) {
            Some(chip) => chip.clone(),
            // A module made after `resolve` (no pass here makes one) is read now.
            None => chip_of_module(module),
        }
    }

    /// The full target of `op`: its chip and its function's cluster and block.
    pub fn target(&self, op: OperationRef) -> Result<Target, TargetProblem> {
        function_target(op, self.chip(op)?)
    }

    /// How many gpu.modules were resolved.
    pub fn modules(&self) -> usize {
        self.by_module.len()
    }
}

fn chip_of_module(module: OperationRef) -> Result<Chip, TargetProblem> {
    module_chip(module).unwrap_or(Err(TargetProblem::NoChip))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_chip_from_target_spelling() {
        assert_eq!(
            chip_in_target("#nvvm.target<O = 3, chip = \"sm_90a\", features = \"+ptx80\">")
                .unwrap()
                .name(),
            "sm_90a"
        );
        assert_eq!(
            chip_in_target("#nvvm.target"),
            Err(TargetProblem::DefaultChip)
        );
        assert!(matches!(
            chip_in_target("#nvvm.target<chip = \"sm_75\">"),
            Err(TargetProblem::Chip(_))
        ));
    }
}
