//! Which threads issue a copy: the whole block, or a warp-specialized loop's
//! producer (`crate::target::Issuers`, from `acopy.issuers` around the op).
//! cp.async deals chunks out over the issuers; TMA issues from the first.

use melior::ir::Value;

use crate::ir::build::{Builder, Cmp, Ix, DIMS};
use crate::ir::hoist::Computed;
use crate::ir::op_names::arith;
use crate::target::Target;

/// This thread's rank among the issuers and their count: its linear id and
/// the block's thread count, or its id after the producer's first thread and
/// the producer's size.
pub(super) fn issuing_threads<'c, 'a>(
    b: &Builder<'c, 'a>,
    target: &Target,
) -> Result<(Ix<'c, 'a>, Ix<'c, 'a>), String> {
    let (linear, threads) = b.linear_thread(target.block)?;
    match target.issuers {
        None => Ok((linear, threads)),
        Some(issuers) => Ok((
            b.sub(linear, Ix::Const(i64::from(issuers.first)))?,
            Ix::Const(i64::from(issuers.count)),
        )),
    }
}

/// Whether this thread is the first issuer: the block's thread (0, 0, 0), or
/// the producer's first thread.
pub(super) fn is_first_issuer<'c, 'a>(
    b: &Builder<'c, 'a>,
    target: &Target,
) -> Result<Value<'c, 'a>, String> {
    // Every TMA copy asks; a kernel's answer is found once per block.
    let what = Computed::FirstIssuer {
        issuers: target.issuers.map(|issuers| (issuers.first, issuers.count)),
        block: target.block,
    };
    b.once_in_place(what, |b| {
        let Some(issuers) = target.issuers else {
            return first_thread(b);
        };
        let (linear, _) = b.linear_thread(target.block)?;
        let linear = b.ix(linear)?;
        let first = b.index(i64::from(issuers.first))?;
        b.cmpi(Cmp::Eq, linear, first)
    })
}

/// Whether this thread is the block's first, the one that issues TMA
/// instructions (correct for any block size).
pub(super) fn first_thread<'c, 'a>(b: &Builder<'c, 'a>) -> Result<Value<'c, 'a>, String> {
    let mut all: Option<Value<'c, 'a>> = None;
    let zero = b.index(0)?;
    for dim in DIMS {
        let id = b.thread_id(dim)?;
        let is_zero = b.cmpi(Cmp::Eq, id, zero)?;
        all = Some(match all {
            None => is_zero,
            Some(previous) => b.binary(arith::ANDI, previous, is_zero)?,
        });
    }
    all.ok_or_else(|| "internal error: no thread dimensions".to_string())
}
