//! TMA's 16-byte rule for the innermost window start, and what the lowering
//! does about it.
//!
//! A `cp.async.bulk.tensor` whose innermost start coordinate times the element
//! size is not a multiple of 16 bytes ends the kernel with an illegal
//! instruction (measured on an H200; docs/lowering-tma.md, "Misaligned
//! starts"). The lowering therefore never issues one it has not proved or
//! checked:
//!
//! - **proved**: the frontend promised it (`assume_aligned_start`), or the
//!   start is a constant multiple, or the alignment proof
//!   (`crate::plan::divisor`, which reads constants, `muli`, `shli`, loop
//!   steps…) shows a dynamic start to be one: TMA only;
//! - **misaligned constant**: only reachable in fallback mode (strict mode
//!   stops it in acopy-verify): the non-TMA path only;
//! - **dynamic, unproved**: both, chosen at run time by
//!   `(start & (16 / element_bytes - 1)) == 0`.
//!
//! A load's plan has made this decision already
//! (`crate::plan::tma_load::StartPath`); [`check`] builds its run-time test.
//! Stores add a rule of their own: no negative start coordinate
//! ([`classify_store`]), decided here as the starts are built.

use crate::ir::op_names::arith;
use melior::ir::Value;

use crate::ir::build::{Builder, Cmp, Ix};
use crate::plan::divisor::pow2_divisor;

use crate::plan::tma_load::TMA_START_ALIGN;

/// How a copy's innermost window start meets [`TMA_START_ALIGN`].
pub(crate) enum StartAlignment<'c, 'a> {
    /// Known aligned (or promised): TMA only.
    Proved,
    /// A constant that is not aligned: the non-TMA path only.
    Misaligned,
    /// Decided at run time by this `i1` (true: aligned, take TMA).
    Check(Value<'c, 'a>),
}

/// Decides, and for a dynamic start builds the run-time check.
/// `start` is the innermost coordinate in elements, subview offset included.
pub(crate) fn classify<'c, 'a>(
    b: &Builder<'c, 'a>,
    start: Ix<'c, 'a>,
    element_bytes: u64,
    promised: bool,
) -> Result<StartAlignment<'c, 'a>, String> {
    if promised || element_bytes.is_multiple_of(TMA_START_ALIGN) {
        return Ok(StartAlignment::Proved);
    }
    let aligned_elements = TMA_START_ALIGN / element_bytes.max(1);
    match start {
        Ix::Const(constant) => Ok(if constant.rem_euclid(aligned_elements as i64) == 0 {
            StartAlignment::Proved
        } else {
            StartAlignment::Misaligned
        }),
        Ix::Val(value) if pow2_divisor(value).is_multiple_of(aligned_elements) => {
            Ok(StartAlignment::Proved)
        }
        Ix::Val(_) => check(b, start, element_bytes),
    }
}

/// The run-time check of a dynamic `start` (in elements):
/// `(start & (16 / element_bytes - 1)) == 0`.
pub(crate) fn check<'c, 'a>(
    b: &Builder<'c, 'a>,
    start: Ix<'c, 'a>,
    element_bytes: u64,
) -> Result<StartAlignment<'c, 'a>, String> {
    let aligned_elements = TMA_START_ALIGN / element_bytes.max(1);
    let Ix::Val(value) = start else {
        return Err("internal error: a run-time start check of a constant".to_string());
    };
    let mask = b.index(aligned_elements as i64 - 1)?;
    let low = b.binary(arith::ANDI, value, mask)?;
    let zero = b.index(0)?;
    Ok(StartAlignment::Check(b.cmpi(Cmp::Eq, low, zero)?))
}

/// [`classify`] for a store, which TMA also cannot take at a negative
/// coordinate along any dimension (measured on an H200: a store at row −10
/// or column −64, aligned, traps; loads there are exact). `starts` are the
/// window's start coordinates, outermost first. A negative constant makes
/// the store [`StartAlignment::Misaligned`]; dynamic coordinates join the
/// run-time check as `(c_0 | c_1 | …) >= 0`. `promised` waives both checks.
pub(crate) fn classify_store<'c, 'a>(
    b: &Builder<'c, 'a>,
    starts: &[Ix<'c, 'a>],
    element_bytes: u64,
    promised: bool,
) -> Result<StartAlignment<'c, 'a>, String> {
    let innermost = *starts
        .last()
        .ok_or_else(|| "internal error: a store without indices".to_string())?;
    let aligned = classify(b, innermost, element_bytes, promised)?;
    if promised || matches!(aligned, StartAlignment::Misaligned) {
        return Ok(aligned);
    }
    let mut dynamic: Option<Value<'c, 'a>> = None;
    for start in starts {
        match *start {
            Ix::Const(constant) if constant < 0 => return Ok(StartAlignment::Misaligned),
            Ix::Const(_) => {}
            Ix::Val(value) => {
                dynamic = Some(match dynamic {
                    None => value,
                    Some(previous) => b.binary(arith::ORI, previous, value)?,
                });
            }
        }
    }
    let Some(bits) = dynamic else {
        return Ok(aligned);
    };
    let zero = b.index(0)?;
    let non_negative = b.cmpi(Cmp::Sge, bits, zero)?;
    Ok(match aligned {
        StartAlignment::Check(aligned) => {
            StartAlignment::Check(b.binary(arith::ANDI, aligned, non_negative)?)
        }
        _ => StartAlignment::Check(non_negative),
    })
}

/// Emits `tma` where the start is aligned and `other` where it is not.
pub(crate) fn branch<'c, 'a>(
    b: &Builder<'c, 'a>,
    alignment: StartAlignment<'c, 'a>,
    tma: impl FnOnce(&Builder<'c, 'a>) -> Result<(), String>,
    other: impl FnOnce(&Builder<'c, 'a>) -> Result<(), String>,
) -> Result<(), String> {
    match alignment {
        StartAlignment::Proved => tma(b),
        StartAlignment::Misaligned => other(b),
        StartAlignment::Check(aligned) => b.if_then_else(aligned, tma, other),
    }
}
