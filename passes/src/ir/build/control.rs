//! Structured control flow: `scf.for`, `scf.if` and `scf.while`,
//! each built with its terminators first and filled by a
//! builder anchored on them.

use melior::ir::{
    block::BlockLike, operation::OperationLike, Block, OperationRef, Region, RegionLike, Type,
    Value,
};

use super::{erase, Builder};
use crate::ir::{
    op_names::{arith, gpu, nvvm, scf, OpName},
    spelled,
};

impl<'c, 'a> Builder<'c, 'a> {
    /// `gpu.barrier`.
    pub fn block_barrier(&self) -> Result<(), String> {
        self.op(gpu::BARRIER, &[], &[], &[]).map(|_| ())
    }

    /// `barrier.cluster.arrive` (release) then `barrier.cluster.wait`
    /// (acquire): every thread of every CTA of the cluster has arrived, and
    /// what each did before is visible to all after.
    pub fn cluster_barrier(&self) -> Result<(), String> {
        self.op(nvvm::CLUSTER_ARRIVE, &[], &[], &[])?;
        self.op(nvvm::CLUSTER_WAIT, &[], &[], &[]).map(|_| ())
    }

    /// `wgmma.wait_group 0`: every wgmma group this thread issued has
    /// completed, so their shared-memory operands may be overwritten.
    pub fn wgmma_wait_all(&self) -> Result<(), String> {
        self.op(
            nvvm::WGMMA_WAIT_GROUP,
            &[],
            &[],
            &[("group", self.int_attr(64, 0))],
        )
        .map(|_| ())
    }

    /// `fence.proxy.async.shared::cta`: this thread's generic-proxy accesses
    /// of shared memory are ordered before later async-proxy (TMA) ones.
    pub fn proxy_fence(&self) -> Result<(), String> {
        let kind = spelled::proxy_kind_async_shared(self.context)?;
        let space = spelled::shared_space_cta(self.context)?;
        self.op(
            nvvm::FENCE_PROXY,
            &[],
            &[],
            &[("kind", kind), ("space", space)],
        )
        .map(|_| ())
    }

    /// `setmaxnreg.inc` (`increase`) or `.dec` to `count` registers a thread,
    /// for every warpgroup that runs it (docs/pipelining.md, "A producer
    /// warpgroup").
    pub fn set_max_registers(&self, count: u32, increase: bool) -> Result<(), String> {
        let action = spelled::set_max_register_action(self.context, increase)?;
        self.op(
            nvvm::SET_MAX_REGISTER,
            &[],
            &[],
            &[
                ("regCount", self.int_attr(32, i64::from(count))),
                ("action", action),
            ],
        )
        .map(|_| ())
    }

    /// A region holding one block (with `arguments`) that ends in `terminator`.
    fn region_with(
        &self,
        arguments: &[Type<'c>],
        terminator: OpName,
    ) -> Result<Region<'c>, String> {
        let block = Block::new(
            &arguments
                .iter()
                .map(|r#type| (*r#type, self.location))
                .collect::<Vec<_>>(),
        );
        let end = self.build(terminator, &[], &[], &[])?;
        block.append_operation(end);
        let region = Region::new();
        region.append_block(block);
        Ok(region)
    }

    /// A builder at the end (before the terminator) of `op`'s region `index`.
    pub(super) fn inside(&self, op: OperationRef<'c, 'a>, index: usize) -> Result<Self, String> {
        let block = op
            .region(index)
            .ok()
            .and_then(|region| region.first_block())
            .ok_or_else(|| "internal error: region without a block".to_string())?;
        let anchor = block
            .terminator()
            .ok_or_else(|| "internal error: block without a terminator".to_string())?;
        Ok(Self {
            block,
            anchor,
            place: None,
            ..*self
        })
    }

    /// `scf.for %iv = lower to upper step step { body(%iv) }`.
    pub fn for_loop(
        &self,
        lower: Value<'c, '_>,
        upper: Value<'c, '_>,
        step: Value<'c, '_>,
        body: impl FnOnce(&Builder<'c, 'a>, Value<'c, 'a>) -> Result<(), String>,
    ) -> Result<(), String> {
        let region = self.region_with(&[self.index_type()], scf::YIELD)?;
        let op = self.build_with_regions(scf::FOR, &[lower, upper, step], &[], vec![region])?;
        let op = self.insert(op);
        let inner = self.inside(op, 0)?;
        let induction = inner.block.argument(0).map_err(|error| {
            format!("internal error: scf.for without induction variable: {error}")
        })?;
        body(&inner, induction.into())
    }

    /// `scf.if %condition { then }`.
    pub fn if_then(
        &self,
        condition: Value<'c, '_>,
        then: impl FnOnce(&Builder<'c, 'a>) -> Result<(), String>,
    ) -> Result<(), String> {
        let op = self.insert_if(condition, false)?;
        then(&self.inside(op, 0)?)
    }

    /// `scf.if %condition { then } else { otherwise }`.
    pub fn if_then_else(
        &self,
        condition: Value<'c, '_>,
        then: impl FnOnce(&Builder<'c, 'a>) -> Result<(), String>,
        otherwise: impl FnOnce(&Builder<'c, 'a>) -> Result<(), String>,
    ) -> Result<(), String> {
        let op = self.insert_if(condition, true)?;
        then(&self.inside(op, 0)?)?;
        otherwise(&self.inside(op, 1)?)
    }

    pub(super) fn insert_if(
        &self,
        condition: Value<'c, '_>,
        with_else: bool,
    ) -> Result<OperationRef<'c, 'a>, String> {
        let then_region = self.region_with(&[], scf::YIELD)?;
        let else_region = if with_else {
            self.region_with(&[], scf::YIELD)?
        } else {
            Region::new()
        };
        let op =
            self.build_with_regions(scf::IF, &[condition], &[], vec![then_region, else_region])?;
        Ok(self.insert(op))
    }

    /// A loop that runs `step` until it returns `true`:
    /// `scf.while { %done = step; scf.condition(!%done) } do { }`.
    pub fn spin_until(
        &self,
        step: impl FnOnce(&Builder<'c, 'a>) -> Result<Value<'c, 'a>, String>,
    ) -> Result<(), String> {
        let before = Region::new();
        before.append_block(Block::new(&[]));
        let after = self.region_with(&[], scf::YIELD)?;
        let op = self.build_with_regions(scf::WHILE, &[], &[], vec![before, after])?;
        let op = self.insert(op);
        let block = op
            .region(0)
            .ok()
            .and_then(|region| region.first_block())
            .ok_or_else(|| "internal error: scf.while without a before block".to_string())?;
        // Build the condition with an anchor: a placeholder terminator that is
        // replaced once the condition value exists.
        let placeholder = self.build(scf::CONDITION, &[], &[], &[])?;
        let placeholder = block.append_operation(placeholder);
        let inner = Self {
            block,
            anchor: placeholder,
            place: None,
            ..*self
        };
        let done = step(&inner)?;
        let truth = inner.int(1, 1)?;
        let again = inner.binary(arith::XORI, done, truth)?;
        inner.op(scf::CONDITION, &[again], &[], &[])?;
        // SAFETY: the placeholder is live and unused, and no handle to it is
        // kept (the builder anchored on it, `inner`, is dropped here).
        unsafe { erase(placeholder) };
        Ok(())
    }
}
