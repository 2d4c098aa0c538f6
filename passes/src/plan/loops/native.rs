//! The native TMA form of a marked loop (docs/pipelining.md, "The native TMA
//! form"): the copies carry a barrier that one `barrier_init` before the loop
//! initialised, and the body waits with `barrier_wait` instead of
//! `wait_gmem_to_smem`. The pass replaces that barrier with its own S
//! barriers and parities, as for the portable form, and removes the user's
//! init and wait; [`check`] accepts only the uses of the barrier that this
//! replacement keeps right (rule P12).

use acopy_dialect::{names, BarrierInit, BarrierWait, CopyGmemToSmem};
use acopy_target::CopyPath;
use melior::ir::{operation::OperationLike, BlockRef, OperationRef, Value};

use crate::ir;
use crate::ir::op_names::is_pure;
use crate::ir::query::{ancestor_in, describe, is_inside, users};

/// A loop in the native form: the init of its barrier, which the rewrite
/// removes with the wait.
pub struct Native<'c, 'a> {
    pub init: OperationRef<'c, 'a>,
}

fn p12(what: &str) -> String {
    format!("a loop marked acopy.pipeline in the native TMA form (copies with a barrier, then barrier_wait) is pipelined with the pass's own barriers and parities, so its barrier must be initialised once before the loop and used only by the loop's copies and its one barrier_wait, with a parity computed from the induction variable and loop-invariant values by pure ops, but {what}")
}

/// Checks the native form of the loop whose body waits with `wait` (a
/// `barrier_wait`); an error is rule P12's message.
pub fn check<'c, 'a>(
    loop_op: OperationRef<'c, 'a>,
    body: BlockRef<'c, 'a>,
    copies: &[OperationRef<'c, 'a>],
    wait: OperationRef<'c, 'a>,
    path: CopyPath,
    chip: acopy_target::Chip,
) -> Result<Native<'c, 'a>, String> {
    if path != CopyPath::Tma {
        return Err(p12(&format!(
            "the loop is compiled for {chip}, whose copies are cp.async and have no barrier (write them without one, followed by wait_gmem_to_smem (pending = 0))"
        )));
    }
    let wait_view = BarrierWait::from_op(wait).map_err(|error| error.to_string())?;
    let barrier = wait_view.barrier;
    let name = describe(barrier);
    for (position, copy) in copies.iter().enumerate() {
        let view = CopyGmemToSmem::from_op(*copy).map_err(|error| error.to_string())?;
        if view.barrier != Some(barrier) {
            let carries = match view.barrier {
                Some(other) => format!("the barrier {}", describe(other)),
                None => "no barrier".to_string(),
            };
            return Err(p12(&format!(
                "copy #{position} of the loop carries {carries}, not the barrier {name} of its barrier_wait"
            )));
        }
    }
    let mut init = None;
    for (user, _) in users(barrier) {
        if user == wait || copies.contains(&user) {
            continue;
        }
        let user_name = ir::op_name(&user);
        if user_name == names::BARRIER_INIT && !is_inside(user, loop_op) && init.is_none() {
            init = Some(user);
            continue;
        }
        let place = if is_inside(user, loop_op) {
            "in the loop"
        } else {
            "outside the loop"
        };
        return Err(p12(&format!(
            "the barrier {name} is also used by '{user_name}' {place}"
        )));
    }
    let Some(init) = init else {
        return Err(p12(&format!(
            "the barrier {name} is not initialised by a barrier_init outside the loop"
        )));
    };
    if !before(init, loop_op) {
        return Err(p12(&format!(
            "the barrier_init of the barrier {name} does not come before the loop"
        )));
    }
    let arrivals = BarrierInit::from_op(init)
        .map_err(|error| error.to_string())?
        .arrival_count;
    if arrivals as usize != copies.len() {
        return Err(p12(&format!(
            "the barrier_init of the barrier {name} expects {arrivals} arrivals per phase, while each iteration's copies arrive {} {}",
            copies.len(),
            if copies.len() == 1 { "time" } else { "times" }
        )));
    }
    if let Some(what) = impure_parity(wait_view.parity, body) {
        return Err(p12(&format!(
            "the parity of the loop's barrier_wait depends on {what}"
        )));
    }
    Ok(Native { init })
}

/// Whether `op` comes before `loop_op`: in the block of the loop or of one
/// of its ancestors, `op` (or the op holding it) precedes the loop's side.
fn before(op: OperationRef, loop_op: OperationRef) -> bool {
    let Some(block) = op.block() else {
        return false;
    };
    let Some(side) = ancestor_in(loop_op, block) else {
        return false;
    };
    let mut current = op.next_in_block();
    while let Some(next) = current {
        if next == side {
            return true;
        }
        current = next.next_in_block();
    }
    false
}

/// What the parity depends on that the pass cannot drop with the wait: an
/// iter_arg, or an op of the body that is not pure (a memory read).
fn impure_parity(parity: Value, body: BlockRef) -> Option<String> {
    let mut stack = vec![parity];
    let mut seen: Vec<OperationRef> = Vec::new();
    while let Some(value) = stack.pop() {
        if let Some((block, position)) = ir::block_argument(value) {
            if block == body && position > 0 {
                return Some(format!("the iter_arg #{}", position - 1));
            }
            continue;
        }
        let Some(op) = ir::defining_op(value) else {
            continue;
        };
        if op.block() != Some(body) {
            if ancestor_in(op, body).is_some() {
                return Some("a value defined in a nested region".to_string());
            }
            continue;
        }
        if seen.contains(&op) {
            continue;
        }
        let name = ir::op_name(&op);
        if !is_pure(&name) || op.region_count() > 0 {
            return Some(format!("'{name}'"));
        }
        seen.push(op);
        stack.extend(op.operands());
    }
    None
}
