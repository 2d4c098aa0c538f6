//! The attribute values of acopy ops (docs/dialect.md), parsed from their MLIR spelling.
//!
//! acopy.td declares every attribute as any attribute (so that ODS never
//! pre-empts these messages), and every value is checked here: an unknown value
//! becomes a [`ViewError`] that names the attribute and lists what it accepts.

use melior::ir::{
    attribute::{ArrayAttribute, BoolAttribute, IntegerAttribute, StringAttribute},
    operation::OperationLike,
    Attribute, AttributeLike,
};

use crate::ViewError;

/// What a copy does with window elements outside src.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OobMode {
    /// Zero-fill (the default).
    #[default]
    Zeros,
    /// The frontend promises the window stays inside src.
    PromiseInBounds,
    /// The values are unspecified.
    Undefined,
}

impl OobMode {
    const ALLOWED: &'static str = "\"zeros\", \"promise_in_bounds\", \"undefined\"";

    /// The attribute spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            OobMode::Zeros => "zeros",
            OobMode::PromiseInBounds => "promise_in_bounds",
            OobMode::Undefined => "undefined",
        }
    }

    fn parse(value: &str) -> Option<Self> {
        Some(match value {
            "zeros" => OobMode::Zeros,
            "promise_in_bounds" => OobMode::PromiseInBounds,
            "undefined" => OobMode::Undefined,
            _ => return None,
        })
    }
}

/// A cluster axis named in `collective_axes`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Axis {
    X,
    Y,
    Z,
}

impl Axis {
    const ALLOWED: &'static str = "\"x\", \"y\", \"z\"";

    /// The attribute spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Axis::X => "x",
            Axis::Y => "y",
            Axis::Z => "z",
        }
    }

    /// 0 for x, 1 for y, 2 for z.
    pub fn index(self) -> usize {
        self as usize
    }

    fn parse(value: &str) -> Option<Self> {
        Some(match value {
            "x" => Axis::X,
            "y" => Axis::Y,
            "z" => Axis::Z,
            _ => return None,
        })
    }
}

/// Which CTA's barrier tracks a collective copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeaderTracked {
    /// src is split along `axis` between the two CTAs of the cluster.
    Partitioned { axis: i64 },
    /// Every CTA receives the same data.
    Replicated,
}

impl LeaderTracked {
    const ALLOWED: &'static str = "\"partitioned\", \"replicated\"";
}

/// The byte swizzle of a shared-memory tile: the manifest's type, so the
/// attribute, the lowering's tensor-map records and the runtime share it.
pub use acopy_manifest::Swizzle;

/// What the `swizzle` attribute accepts, for [`ViewError::AttributeValue`].
const SWIZZLE_ALLOWED: &str = "0, 32, 64, 128 (i64)";

/// The reduction a store applies to global memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReductionOp {
    Add,
    Min,
    Max,
    Inc,
    Dec,
    And,
    Or,
    Xor,
    Umin,
    Umax,
    Smin,
    Smax,
}

impl ReductionOp {
    const ALLOWED: &'static str =
        "\"add\", \"min\", \"max\", \"inc\", \"dec\", \"and\", \"or\", \"xor\", \"umin\", \"umax\", \"smin\", \"smax\"";

    /// The attribute spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            ReductionOp::Add => "add",
            ReductionOp::Min => "min",
            ReductionOp::Max => "max",
            ReductionOp::Inc => "inc",
            ReductionOp::Dec => "dec",
            ReductionOp::And => "and",
            ReductionOp::Or => "or",
            ReductionOp::Xor => "xor",
            ReductionOp::Umin => "umin",
            ReductionOp::Umax => "umax",
            ReductionOp::Smin => "smin",
            ReductionOp::Smax => "smax",
        }
    }

    fn parse(value: &str) -> Option<Self> {
        Some(match value {
            "add" => ReductionOp::Add,
            "min" => ReductionOp::Min,
            "max" => ReductionOp::Max,
            "inc" => ReductionOp::Inc,
            "dec" => ReductionOp::Dec,
            "and" => ReductionOp::And,
            "or" => ReductionOp::Or,
            "xor" => ReductionOp::Xor,
            "umin" => ReductionOp::Umin,
            "umax" => ReductionOp::Umax,
            "smin" => ReductionOp::Smin,
            "smax" => ReductionOp::Smax,
            _ => return None,
        })
    }
}

/// The text of a string attribute. melior's `StringAttribute::value` builds a
/// slice from the C pointer, which is null for `""`; read it here instead.
pub fn string_value(attribute: StringAttribute<'_>) -> &str {
    // SAFETY: the attribute is live; MLIR owns the bytes for the context's lifetime.
    unsafe {
        let raw = mlir_sys::mlirStringAttrGetValue(attribute.to_raw());
        if raw.data.is_null() || raw.length == 0 {
            return "";
        }
        let bytes = std::slice::from_raw_parts(raw.data as *const u8, raw.length);
        std::str::from_utf8(bytes).unwrap_or("")
    }
}

/// Reads an optional attribute, from the discardable dictionary or from properties.
fn lookup<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>, name: &str) -> Option<Attribute<'c>> {
    op.attribute(name).ok()
}

fn bad_value(name: &'static str, allowed: &'static str, found: Attribute) -> ViewError {
    ViewError::AttributeValue {
        name,
        allowed,
        found: found.to_string(),
    }
}

/// A string attribute restricted to a set, parsed by `parse`.
fn enum_attr<'c: 'a, 'a, T>(
    op: &impl OperationLike<'c, 'a>,
    name: &'static str,
    allowed: &'static str,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<Option<T>, ViewError> {
    let Some(attribute) = lookup(op, name) else {
        return Ok(None);
    };
    StringAttribute::try_from(attribute)
        .ok()
        .and_then(|string| parse(string_value(string)))
        .map(Some)
        .ok_or_else(|| bad_value(name, allowed, attribute))
}

/// A string attribute restricted to a set, for views outside this file.
pub(crate) fn enum_value<'c: 'a, 'a, T>(
    op: &impl OperationLike<'c, 'a>,
    name: &'static str,
    allowed: &'static str,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<Option<T>, ViewError> {
    enum_attr(op, name, allowed, parse)
}

/// An integer attribute; `check` says whether the value is allowed.
pub(crate) fn int_attr<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
    name: &'static str,
    allowed: &'static str,
    check: impl Fn(i64) -> bool,
) -> Result<Option<i64>, ViewError> {
    let Some(attribute) = lookup(op, name) else {
        return Ok(None);
    };
    match IntegerAttribute::try_from(attribute) {
        Ok(integer) if check(integer.value()) => Ok(Some(integer.value())),
        _ => Err(bad_value(name, allowed, attribute)),
    }
}

/// A boolean attribute (`true`/`false`).
pub(crate) fn bool_attr<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
    name: &'static str,
) -> Result<Option<bool>, ViewError> {
    let Some(attribute) = lookup(op, name) else {
        return Ok(None);
    };
    BoolAttribute::try_from(attribute)
        .map(|boolean| Some(boolean.value()))
        .map_err(|_| bad_value(name, "true, false", attribute))
}

/// The name of the unit attribute by which a frontend promises that a TMA
/// copy's innermost window start is 16-byte aligned (docs/lowering-tma.md,
/// "Misaligned starts"): the lowering then emits no run-time check.
pub const ASSUME_ALIGNED_START: &str = "assume_aligned_start";

/// `assume_aligned_start`: a unit attribute; present means the promise is made.
pub(crate) fn assume_aligned_start<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
) -> Result<bool, ViewError> {
    let Some(attribute) = lookup(op, ASSUME_ALIGNED_START) else {
        return Ok(false);
    };
    // Attributes are printed canonically, and a unit attribute prints as `unit`.
    if attribute.to_string() == "unit" {
        Ok(true)
    } else {
        Err(bad_value(
            ASSUME_ALIGNED_START,
            "unit (the name alone, as in {assume_aligned_start})",
            attribute,
        ))
    }
}

pub(crate) fn oob_mode<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
) -> Result<Option<OobMode>, ViewError> {
    enum_attr(op, "oob_mode", OobMode::ALLOWED, OobMode::parse)
}

pub(crate) fn reduction_op<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
) -> Result<Option<ReductionOp>, ViewError> {
    enum_attr(op, "reduction_op", ReductionOp::ALLOWED, ReductionOp::parse)
}

pub(crate) fn swizzle<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Result<Swizzle, ViewError> {
    let bytes = int_attr(op, "swizzle", SWIZZLE_ALLOWED, |value| {
        Swizzle::from_bytes(value).is_some()
    })?;
    Ok(bytes.and_then(Swizzle::from_bytes).unwrap_or_default())
}

/// `collective_axes`: absent, or an array of distinct axis names.
pub(crate) fn collective_axes<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
) -> Result<Option<Vec<Axis>>, ViewError> {
    const NAME: &str = "collective_axes";
    let Some(attribute) = lookup(op, NAME) else {
        return Ok(None);
    };
    let allowed = "an array of distinct \"x\", \"y\", \"z\"";
    let array =
        ArrayAttribute::try_from(attribute).map_err(|_| bad_value(NAME, allowed, attribute))?;
    let mut axes = Vec::with_capacity(array.len());
    for index in 0..array.len() {
        let element = array
            .element(index)
            .map_err(|_| bad_value(NAME, allowed, attribute))?;
        let axis = StringAttribute::try_from(element)
            .ok()
            .and_then(|string| Axis::parse(string_value(string)))
            .ok_or_else(|| bad_value(NAME, Axis::ALLOWED, element))?;
        if axes.contains(&axis) {
            return Err(bad_value(NAME, allowed, attribute));
        }
        axes.push(axis);
    }
    Ok(Some(axes))
}

/// `leader_tracked`, with `partition_axis` when it is `"partitioned"`.
pub(crate) fn leader_tracked<'c: 'a, 'a>(
    op: &impl OperationLike<'c, 'a>,
) -> Result<Option<LeaderTracked>, ViewError> {
    #[derive(Clone, Copy)]
    enum Kind {
        Partitioned,
        Replicated,
    }
    let kind = enum_attr(
        op,
        "leader_tracked",
        LeaderTracked::ALLOWED,
        |value| match value {
            "partitioned" => Some(Kind::Partitioned),
            "replicated" => Some(Kind::Replicated),
            _ => None,
        },
    )?;
    let axis = int_attr(op, "partition_axis", "a non-negative i64", |value| {
        value >= 0
    })?;
    match kind {
        None => Ok(None),
        Some(Kind::Replicated) => Ok(Some(LeaderTracked::Replicated)),
        Some(Kind::Partitioned) => match axis {
            Some(axis) => Ok(Some(LeaderTracked::Partitioned { axis })),
            None => Err(ViewError::AttributeMissing {
                name: "partition_axis",
                reason: "when leader_tracked = \"partitioned\"",
            }),
        },
    }
}
