//! The targets of the acopy ops of one walk, worked out once per op that
//! holds them (a kernel, a loop, an `scf.if`) instead of once per acopy op.
//!
//! An op's [`Target`] is read from the op and every op around it: the
//! cluster and block-size attributes, the issuer marks, and the chip of the
//! enclosing `gpu.module` (`super::function_target`). Those are about a dozen
//! lookups of attributes by name per op, and verification and the lowering
//! each asked them for every copy (bench/RESULTS.md, compile speed). An acopy
//! op's own inherent attributes have none of those names, so an acopy op
//! without discardable attributes has the target of its parent op, which its
//! siblings share; one with discardable attributes (which could be one of
//! them) is read on its own, as before.
//!
//! The memo is keyed by the parent op's address, so it must not outlive a
//! walk in which such an op could be erased, or an attribute it reads be
//! changed: verification reads only, and the lowering erases only acopy ops
//! and constants and writes no target attribute.

use melior::ir::{operation::OperationLike, OperationRef};
use rustc_hash::FxHashMap as HashMap;

use super::{ModuleChips, Target, TargetProblem};

/// [`ModuleChips::target`], remembered per parent op for one walk.
pub struct TargetsByParent<'m> {
    chips: &'m ModuleChips,
    by_parent: HashMap<usize, Result<Target, TargetProblem>>,
}

impl<'m> TargetsByParent<'m> {
    /// An empty memo over the chips of a run.
    pub fn new(chips: &'m ModuleChips) -> Self {
        Self {
            chips,
            by_parent: HashMap::default(),
        }
    }

    /// The target of the acopy op `op`: what [`ModuleChips::target`] says.
    pub fn target(&mut self, op: OperationRef) -> Result<Target, TargetProblem> {
        let parent = match op.parent_operation() {
            Some(parent) if !has_discardable_attributes(op) => parent,
            _ => return self.chips.target(op),
        };
        let chips = self.chips;
        self.by_parent
            .entry(parent.to_raw().ptr as usize)
            .or_insert_with(|| chips.target(op))
            .clone()
    }
}

fn has_discardable_attributes(op: OperationRef) -> bool {
    // SAFETY: `op` is live (the caller holds it).
    unsafe { mlir_sys::mlirOperationGetNumDiscardableAttributes(op.to_raw()) > 0 }
}

#[cfg(test)]
mod tests {
    use melior::ir::{Module, OperationRef};

    use super::TargetsByParent;
    use crate::{target::ModuleChips, PassOptions};

    /// Each acopy op under `module`, in walk order.
    fn copies<'c, 'a>(module: &'a Module<'c>) -> Vec<OperationRef<'c, 'a>> {
        crate::ir::query::ops_where(module.as_operation(), |op| {
            acopy_dialect::AcopyOp::from_op(op).is_some()
        })
    }

    /// The memo answers what each op's own reading answers: siblings share
    /// their parent's target, read once, a copy in a marked region gets the
    /// mark's issuers, and a copy with its own mark (a discardable attribute)
    /// gets its own, however its siblings are marked.
    #[test]
    fn answers_what_each_op_reads() {
        let context = crate::context::create_context().expect("context");
        let copy = |attributes: &str| {
            format!(
                r#"      "acopy.copy_gmem_to_smem"(%src, %dst, %c0, %c0) {{operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"{attributes}}} : (memref<64x128xf32>, memref<64x128xf32, 3>, index, index) -> ()"#
            )
        };
        let text = format!(
            r#"gpu.module @m [#nvvm.target<chip = "sm_90">] {{
  gpu.func @k(%src: memref<64x128xf32>, %p: i1) workgroup(%dst: memref<64x128xf32, 3>) kernel attributes {{gpu.known_block_size = array<i32: 128, 1, 1>, nvvm.cluster_dim = array<i32: 2, 1, 1>}} {{
    %c0 = arith.constant 0 : index
{plain}
{own}
{plain}
{other}
    scf.if %p {{
{plain}
    }} {{acopy.issuers = array<i32: 96, 32>}}
    gpu.return
  }}
}}"#,
            plain = copy(""),
            own = copy(", acopy.issuers = array<i32: 64, 1>"),
            other = copy(", acopy.issuers = array<i32: 32, 1>"),
        );
        let module = Module::parse(&context, &text).expect("parses");
        let chips = ModuleChips::resolve(module.as_operation(), &PassOptions::default());
        let mut memo = TargetsByParent::new(&chips);
        let ops = copies(&module);
        assert_eq!(ops.len(), 5);
        let issuers: Vec<_> = ops
            .iter()
            .map(|op| {
                let remembered = memo.target(*op).expect("a target");
                assert_eq!(remembered, chips.target(*op).expect("a target"));
                assert_eq!(remembered.cluster, [2, 1, 1]);
                assert_eq!(remembered.block, Some([128, 1, 1]));
                remembered.issuers.map(|issuers| issuers.first)
            })
            .collect();
        assert_eq!(issuers, [None, Some(64), None, Some(32), Some(96)]);
        // The kernel's body and the marked if: one reading each, for the
        // three plain copies; the marked copies are read on their own.
        assert_eq!(memo.by_parent.len(), 2);
    }

    /// A problem is remembered as the op's own reading gives it.
    #[test]
    fn remembers_problems_too() {
        let context = crate::context::create_context().expect("context");
        let copy = r#"    "acopy.copy_gmem_to_smem"(%src, %dst, %c0, %c0) {operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = "promise_in_bounds"} : (memref<64x128xf32>, memref<64x128xf32, 3>, index, index) -> ()"#;
        let text = format!(
            r#"gpu.module @m [#nvvm.target<chip = "sm_90">] {{
  gpu.func @k(%src: memref<64x128xf32>) workgroup(%dst: memref<64x128xf32, 3>) kernel attributes {{nvvm.cluster_dim = array<i32: 0, 1, 1>}} {{
    %c0 = arith.constant 0 : index
{copy}
{copy}
    gpu.return
  }}
}}"#
        );
        let module = Module::parse(&context, &text).expect("parses");
        let chips = ModuleChips::resolve(module.as_operation(), &PassOptions::default());
        let mut memo = TargetsByParent::new(&chips);
        for op in copies(&module) {
            let problem = memo.target(op).expect_err("a size of 0");
            assert_eq!(Err(problem), chips.target(op));
        }
    }
}
