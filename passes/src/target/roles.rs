//! Which threads reach a barrier in a warp-specialized kernel
//! (docs/pipelining.md, "Warp specialization", and "Why it is right").
//!
//! `acopy-pipeline` splits such a kernel into two regions: the producer's
//! (`scf.if` marked [`ISSUERS`], the appended warp) and the consumers'
//! (`scf.if` marked [`CONSUMERS`], the B declared threads). A barrier of the
//! whole block (`bar.sync 0`) inside either waits for threads that never come
//! there, and the block deadlocks. So, whoever built it (the user's
//! `gpu.barrier`, or one a lowering adds: a TMA store's, its wait's, a swizzled
//! store's), every whole-block barrier in the consumers' region becomes their
//! named barrier, `bar.sync 1, B`, and one in the producer's region is refused
//! at its location. The pipeliner runs this on what it wrote and `acopy-lower`
//! again on what it lowered.

use melior::ir::{
    attribute::DenseI32ArrayAttribute,
    operation::{OperationLike, WalkOrder, WalkResult},
    OperationRef,
};

use super::{Issuers, CONSUMERS, ISSUERS};
use crate::ir::{
    self,
    build::{self, Builder},
    op_names::{gpu, nvvm},
};

/// The named barrier of a warp-specialized kernel's consumers; barrier 0 is
/// the whole block's.
pub const CONSUMER_BARRIER: i64 = 1;

/// A whole-block barrier that no rewrite can keep: the op and why.
pub struct StrandedBarrier<'c, 'a> {
    pub op: OperationRef<'c, 'a>,
    pub message: String,
}

/// Turns every whole-block barrier in a consumer region under `root` into the
/// consumers' named barrier, and returns the whole-block barriers left in a
/// producer region (none, unless a lowering put one there).
pub fn name_barriers<'c, 'a>(
    context: &'c melior::Context,
    root: OperationRef<'c, 'a>,
) -> Result<Vec<StrandedBarrier<'c, 'a>>, String> {
    let mut stranded = Vec::new();
    for (raw, consumers) in whole_block_barriers(root) {
        // SAFETY: found by the walk, each once; each is erased at most once.
        let op = unsafe { OperationRef::from_raw(raw) };
        match consumers {
            Role::Consumers(count) => name_one(context, op, count)?,
            Role::Producer => stranded.push(StrandedBarrier {
                op,
                message: producer_barrier(&ir::op_name(&op)),
            }),
            Role::Malformed(mark) => stranded.push(StrandedBarrier {
                op,
                message: malformed(&mark),
            }),
        }
    }
    Ok(stranded)
}

/// The message for a whole-block barrier in the producer warp's region.
pub fn producer_barrier(name: &str) -> String {
    format!(
        "'{name}' is a barrier of the whole block inside the producer warp's region of a loop marked acopy.pipeline with producer = \"warp\": the consumers never reach it, so the block would wait forever"
    )
}

/// The message for a barrier under an `acopy.consumers` mark that is not one
/// the pipeliner writes (a hand-written or damaged one).
pub fn malformed(mark: &str) -> String {
    format!(
        "a barrier inside a region marked {CONSUMERS} = {mark}: the mark must be array<i32: 0, B> with B a positive multiple of 32 (the consumers' named barrier counts B threads)"
    )
}

/// Which threads reach a barrier.
enum Role {
    /// The consumers of a warp-specialized loop, B of them.
    Consumers(u32),
    /// The producer warp.
    Producer,
    /// A consumer mark that names no such B (its text).
    Malformed(String),
}

/// Each whole-block barrier in a role's region, with its role.
fn whole_block_barriers(root: OperationRef) -> Vec<(mlir_sys::MlirOperation, Role)> {
    let mut found = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        if is_whole_block_barrier(&op) {
            if let Some(role) = role_of(op) {
                found.push((op.to_raw(), role));
            }
        }
        WalkResult::Advance
    });
    found
}

/// The role of the innermost marked region around `op`, if any.
fn role_of(op: OperationRef) -> Option<Role> {
    let mut current = op.parent_operation();
    while let Some(candidate) = current {
        if let Ok(attribute) = candidate.attribute(CONSUMERS) {
            return Some(consumers(attribute));
        }
        if candidate.has_attribute(ISSUERS) {
            return Some(Role::Producer);
        }
        current = candidate.parent_operation();
    }
    None
}

/// The consumers a mark names: `array<i32: 0, B>`, B a positive multiple of
/// 32 (a named barrier counts whole warps); anything else is refused, not
/// guessed.
fn consumers(mark: melior::ir::Attribute) -> Role {
    match super::thread_range(mark) {
        Some(Issuers { first: 0, count }) if count % 32 == 0 => Role::Consumers(count),
        _ => Role::Malformed(mark.to_string()),
    }
}

/// `gpu.barrier`, or `nvvm.barrier` without a thread count (barrier 0, or a
/// named barrier of every thread of the block).
pub(crate) fn is_whole_block_barrier(op: &OperationRef) -> bool {
    // Asked of every op of the module: the name is read in place.
    let name = op.name();
    let name = name.as_string_ref().as_str().unwrap_or_default();
    if name == gpu::BARRIER.name || name == nvvm::BARRIER0.name {
        return true;
    }
    if name != nvvm::BARRIER.name {
        return false;
    }
    // Operands: barrier id, thread count, (reduction predicate); a count
    // names the threads that take part.
    let segments = op
        .attribute("operandSegmentSizes")
        .ok()
        .and_then(|value| DenseI32ArrayAttribute::try_from(value).ok());
    match segments {
        Some(sizes) => sizes.element(1).map_or(true, |count| count == 0),
        None => op.operand_count() < 2,
    }
}

/// Replaces the barrier `op` by `bar.sync 1, count`.
fn name_one(context: &melior::Context, op: OperationRef, count: u32) -> Result<(), String> {
    let b = Builder::in_place(context, op)?;
    let id = b.int(32, CONSUMER_BARRIER)?;
    let threads = b.int(32, i64::from(count))?;
    b.op(
        nvvm::BARRIER,
        &[id, threads],
        &[],
        &[("operandSegmentSizes", b.segments(&[1, 1, 0]))],
    )?;
    // SAFETY: a barrier has no results; no handle to it is kept.
    unsafe { build::erase(op) };
    Ok(())
}

#[cfg(test)]
mod tests {
    use melior::ir::Module;

    use super::name_barriers;
    use crate::context::create_context;

    /// A kernel split as the pipeliner splits it, with `producer` and
    /// `consumers` the bodies of the two roles' regions.
    fn split(producer: &str, consumers: &str) -> String {
        format!(
            r#"gpu.module @m {{
  gpu.func @k() kernel {{
    %tid = gpu.thread_id x
    %c128 = arith.constant 128 : index
    %p = arith.cmpi uge, %tid, %c128 : index
    scf.if %p {{
{producer}
    }} {{acopy.issuers = array<i32: 128, 32>}}
    %c = arith.cmpi ult, %tid, %c128 : index
    scf.if %c {{
{consumers}
    }} {{acopy.consumers = array<i32: 0, 128>}}
    gpu.barrier
    gpu.return
  }}
}}"#
        )
    }

    fn run(text: &str) -> (usize, String) {
        let context = create_context().expect("the acopy dialect loads");
        let module = Module::parse(&context, text).expect("the test input parses");
        let stranded = name_barriers(&context, module.as_operation()).expect("no internal error");
        let messages: Vec<String> = stranded
            .iter()
            .map(|barrier| barrier.message.clone())
            .collect();
        (
            stranded.len(),
            module.as_operation().to_string() + &messages.concat(),
        )
    }

    #[test]
    fn consumer_barriers_become_the_named_barrier_of_the_consumers() {
        // A lowering's gpu.barrier and a user's bar.sync 0 (nvvm.barrier with
        // no count), nested in a loop: both become bar.sync 1, 128; the
        // barrier outside both roles stays the block's.
        let consumers = "      %c0 = arith.constant 0 : index\n      %c1 = arith.constant 1 : index\n      scf.for %i = %c0 to %c128 step %c1 {\n        gpu.barrier\n        nvvm.barrier\n      }";
        let (stranded, printed) = run(&split("", consumers));
        assert_eq!(stranded, 0);
        assert_eq!(
            printed.matches("nvvm.barrier id = ").count(),
            2,
            "{printed}"
        );
        assert_eq!(printed.matches("gpu.barrier").count(), 1, "{printed}");
        assert!(!printed.contains("nvvm.barrier\n"), "{printed}");
    }

    #[test]
    fn a_named_barrier_with_a_count_is_left_alone() {
        let consumers = "      %id = arith.constant 2 : i32\n      %n = arith.constant 64 : i32\n      nvvm.barrier id = %id number_of_threads = %n";
        let (stranded, printed) = run(&split("", consumers));
        assert_eq!(stranded, 0);
        assert!(printed.contains("number_of_threads = %"), "{printed}");
        assert_eq!(
            printed.matches("nvvm.barrier id = ").count(),
            1,
            "{printed}"
        );
    }

    #[test]
    fn a_consumer_mark_that_names_no_whole_warps_is_refused_at_the_barrier() {
        for mark in [
            "array<i32: 0, 0>",
            "array<i32: 0, 48>",
            "array<i32: 32, 64>",
            "array<i32: 0>",
            "\"x\"",
        ] {
            let text = split("", "      gpu.barrier").replace("array<i32: 0, 128>", mark);
            let (stranded, printed) = run(&text);
            assert_eq!(stranded, 1, "{mark}: {printed}");
            assert!(
                printed.contains("the mark must be array<i32: 0, B>"),
                "{mark}: {printed}"
            );
            assert!(
                printed.contains("gpu.barrier"),
                "{mark}: left in place: {printed}"
            );
        }
        // A well-formed mark of 64 consumers names their barrier.
        let (stranded, printed) =
            run(&split("", "      gpu.barrier").replace("array<i32: 0, 128>", "array<i32: 0, 64>"));
        assert_eq!(stranded, 0);
        assert!(printed.contains("nvvm.barrier id = "), "{printed}");
    }

    #[test]
    fn a_whole_block_barrier_planted_in_the_producer_is_refused() {
        let (stranded, printed) = run(&split("      gpu.barrier", ""));
        assert_eq!(stranded, 1);
        assert!(
            printed.contains(
                "'gpu.barrier' is a barrier of the whole block inside the producer warp's region"
            ),
            "{printed}"
        );
    }
}
