//! Emitting ops in front of an anchor op: the one builder of the passes
//! (the lowering, the pipeliner, the emit preparation).
//!
//! A [`Builder`] inserts each op it makes right before its anchor, so ops come
//! out in program order. Nested regions (`scf.for`, `scf.if`, `scf.while`,
//! `scf.index_switch`) are built with their terminators first; the body is then
//! filled by a builder anchored on a terminator (`control`). Everything is built
//! with the generic [`OperationBuilder`], so no helper can panic on a malformed
//! op: a failure is an `Err(String)` that the pass reports at its op. Op names
//! are [`OpName`]s from `super::op_names`, never strings; attributes are built
//! typed, and the few melior has no constructor for are spelled in
//! `super::spelled`.
//!
//! A builder made by [`Builder::before`] (the lowering's) builds pure ops whose
//! operands are kernel-level once per kernel and shares them between copies, at
//! the top of the function once a second copy asks (`super::hoist`); one made by
//! [`Builder::in_place`] builds every op where it is asked for. One made by
//! [`Builder::joining`] (the lowering's, per copy) may build a copy's issue if
//! into the previous copy's ([`joined_if`]).
//!
//! [`Ix`] is an index that may still be a compile-time constant; arithmetic
//! on it folds constants (`arith`, the one folder) so that static strides,
//! shapes and loop bounds leave no ops behind.

mod arith;
mod control;
pub(crate) mod issue_joins;
mod joined_if;
pub(crate) mod loop_carried;
mod memory;

use super::{
    hoist,
    op_names::{gpu, llvm, OpName},
    spelled,
};
use melior::{
    ir::{
        attribute::{DenseI32ArrayAttribute, IntegerAttribute, StringAttribute, TypeAttribute},
        block::BlockLike,
        operation::{OperationBuilder, OperationLike},
        r#type::IntegerType,
        Attribute, BlockRef, Identifier, Location, Operation, OperationRef, Region, Type, Value,
    },
    Context,
};

/// Inserts ops before an anchor op.
#[derive(Clone, Copy)]
pub(crate) struct Builder<'c, 'a> {
    pub context: &'c Context,
    pub location: Location<'c>,
    block: BlockRef<'c, 'a>,
    anchor: OperationRef<'c, 'a>,
    /// Where kernel-level values go, when the anchor's function takes them.
    hoist: Option<hoist::Point>,
    /// Whether pure ops are shared through `super::hoist` ([`Builder::before`]).
    shares: bool,
    /// The block `super::hoist` remembers this builder's pure ops for, when
    /// not `block` itself: a body joined to an earlier if ([`joined_if`]).
    place: Option<usize>,
    /// Where a copy's issue if may join the one before it ([`joined_if`]).
    joins: Option<&'a issue_joins::JoinedIfs>,
}

/// An `index` value, or a constant not materialised yet.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Ix<'c, 'a> {
    Const(i64),
    Val(Value<'c, 'a>),
}

impl Ix<'_, '_> {
    /// The constant, if this is one.
    pub fn constant(&self) -> Option<i64> {
        match self {
            Ix::Const(value) => Some(*value),
            Ix::Val(_) => None,
        }
    }
}

/// An `arith.cmpi` predicate (the values of MLIR's `CmpIPredicate`).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Cmp {
    Eq = 0,
    Ne = 1,
    Slt = 2,
    Sge = 5,
    Ult = 6,
    Uge = 9,
}

/// One of the three thread dimensions.
pub(crate) const DIMS: [&str; 3] = ["x", "y", "z"];

impl<'c, 'a> Builder<'c, 'a> {
    /// A builder that inserts before `anchor`, at `anchor`'s location, and
    /// shares kernel-level pure ops (the lowering's); `context` is the context
    /// that owns `anchor`.
    pub fn before(context: &'c Context, anchor: OperationRef<'c, 'a>) -> Result<Self, String> {
        Ok(Self {
            hoist: hoist::point_for(anchor),
            shares: true,
            ..Self::in_place(context, anchor)?
        })
    }

    /// A builder that inserts before `anchor` and builds every op where it is
    /// asked for: the pipeliner's rewrite and the launch-size update, whose
    /// output is pinned op for op (docs/pipelining.md).
    pub fn in_place(context: &'c Context, anchor: OperationRef<'c, 'a>) -> Result<Self, String> {
        let block = anchor
            .block()
            .ok_or_else(|| "internal error: the anchor op is not in a block".to_string())?;
        Ok(Self {
            context,
            location: anchor.location(),
            block,
            anchor,
            hoist: None,
            shares: false,
            place: None,
            joins: None,
        })
    }

    /// [`Builder::before`], whose [`Builder::issue_if`] may join the issue if
    /// of the copy before (`joins` holds the copy being lowered).
    pub fn joining(
        context: &'c Context,
        anchor: OperationRef<'c, 'a>,
        joins: &'a issue_joins::JoinedIfs,
    ) -> Result<Self, String> {
        Ok(Self {
            joins: Some(joins),
            ..Self::before(context, anchor)?
        })
    }

    /// The same insertion point, with ops located at `location`.
    pub fn at(self, location: Location<'c>) -> Self {
        Self { location, ..self }
    }

    /// The op this builder inserts before.
    pub fn anchor(&self) -> OperationRef<'c, 'a> {
        self.anchor
    }

    /// Inserts `op` before the anchor.
    pub fn insert(&self, op: Operation<'c>) -> OperationRef<'c, 'a> {
        let op = self.block.insert_operation_before(self.anchor, op);
        // A joined body's ops are listed, in case the join is undone.
        if let (Some(_), Some(joins)) = (self.place, self.joins) {
            joins.inserted(op.to_raw());
        }
        op
    }

    /// Builds and inserts an op; a pure op with kernel-level operands is
    /// built once per kernel and shared (`super::hoist`).
    pub fn op(
        &self,
        name: OpName,
        operands: &[Value<'c, '_>],
        results: &[Type<'c>],
        attributes: &[(&'static str, Attribute<'c>)],
    ) -> Result<OperationRef<'c, 'a>, String> {
        use melior::ir::{AttributeLike, TypeLike, ValueLike};
        if !name.pure || !self.shares {
            let op = self.build(name, operands, results, attributes)?;
            return Ok(self.insert(op));
        }
        let key = hoist::Key {
            name: name.name,
            operands: operands
                .iter()
                .map(|value| value.to_raw().ptr as usize)
                .collect(),
            results: results
                .iter()
                .map(|r#type| r#type.to_raw().ptr as usize)
                .collect(),
            attributes: attributes
                .iter()
                .map(|(name, value)| (*name, value.to_raw().ptr as usize))
                .collect(),
        };
        let block = self.place.unwrap_or(self.block.to_raw().ptr as usize);
        match hoist::lookup(self.hoist, block, &key) {
            // SAFETY: ops in the memo stay in the IR while they are in it.
            hoist::Lookup::Found(raw) => Ok(unsafe { OperationRef::from_raw(raw) }),
            hoist::Lookup::KernelLevel => {
                let op = self.insert(self.build(name, operands, results, attributes)?);
                hoist::remember_kernel_level(self.hoist_point()?, block, key, op.to_raw());
                Ok(op)
            }
            hoist::Lookup::Local => {
                let op = self.insert(self.build(name, operands, results, attributes)?);
                hoist::remember_local(block, key, op.to_raw());
                Ok(op)
            }
            hoist::Lookup::InPlace => {
                let op = self.build(name, operands, results, attributes)?;
                Ok(self.insert(op))
            }
        }
    }

    /// `compute`, which builds pure ops from kernel-level values alone, or
    /// the value it gave for `what` in this block before (`hoist::computed`).
    pub fn once_in_place(
        &self,
        what: hoist::Computed,
        compute: impl FnOnce(&Self) -> Result<Value<'c, 'a>, String>,
    ) -> Result<Value<'c, 'a>, String> {
        use melior::ir::ValueLike;
        let Some(point) = self.hoist.filter(|_| self.shares) else {
            return compute(self);
        };
        let place = self.place.unwrap_or(self.block.to_raw().ptr as usize);
        if let Some(value) = hoist::computed(point, place, what) {
            // SAFETY: remembered values are results of ops the memo keeps in the IR.
            return Ok(unsafe { Value::from_raw(value) });
        }
        let value = compute(self)?;
        hoist::remember_computed(point, place, what, value.to_raw());
        Ok(value)
    }

    fn hoist_point(&self) -> Result<hoist::Point, String> {
        self.hoist
            .ok_or_else(|| "internal error: a kernel-level value without a kernel".to_string())
    }

    /// Builds an op without inserting it.
    fn build(
        &self,
        name: OpName,
        operands: &[Value<'c, '_>],
        results: &[Type<'c>],
        attributes: &[(&'static str, Attribute<'c>)],
    ) -> Result<Operation<'c>, String> {
        detached(
            self.context,
            self.location,
            name,
            operands,
            results,
            attributes,
            Vec::new(),
        )
    }

    /// Builds an op with regions (and no results) without inserting it.
    fn build_with_regions(
        &self,
        name: OpName,
        operands: &[Value<'c, '_>],
        attributes: &[(&'static str, Attribute<'c>)],
        regions: Vec<Region<'c>>,
    ) -> Result<Operation<'c>, String> {
        detached(
            self.context,
            self.location,
            name,
            operands,
            &[],
            attributes,
            regions,
        )
    }

    /// Builds and inserts an op with one result, and returns that result.
    pub fn value(
        &self,
        name: OpName,
        operands: &[Value<'c, '_>],
        result: Type<'c>,
        attributes: &[(&'static str, Attribute<'c>)],
    ) -> Result<Value<'c, 'a>, String> {
        let op = self.op(name, operands, &[result], attributes)?;
        Ok(op
            .result(0)
            .map_err(|error| format!("internal error: {} has no result: {error}", name.name))?
            .into())
    }

    // ---- types and attributes ----

    pub fn index_type(&self) -> Type<'c> {
        Type::index(self.context)
    }

    pub fn int_type(&self, bits: u32) -> Type<'c> {
        IntegerType::new(self.context, bits).into()
    }

    /// `!llvm.ptr` in `address_space`.
    pub fn ptr_type(&self, address_space: u32) -> Result<Type<'c>, String> {
        Ok(melior::dialect::llvm::r#type::pointer(
            self.context,
            address_space,
        ))
    }

    /// `array<i32: ...>` of operand segment sizes (`operandSegmentSizes`).
    pub fn segments(&self, sizes: &[usize]) -> Attribute<'c> {
        let sizes: Vec<i32> = sizes.iter().map(|size| *size as i32).collect();
        DenseI32ArrayAttribute::new(self.context, &sizes).into()
    }

    /// An integer attribute of `bits` width.
    pub fn int_attr(&self, bits: u32, value: i64) -> Attribute<'c> {
        IntegerAttribute::new(self.int_type(bits), value).into()
    }

    // ---- threads ----

    /// `gpu.thread_id <dim>`.
    pub fn thread_id(&self, dim: &str) -> Result<Value<'c, 'a>, String> {
        let dimension = spelled::gpu_dim(self.context, dim)?;
        self.value(
            gpu::THREAD_ID,
            &[],
            self.index_type(),
            &[("dimension", dimension)],
        )
    }

    /// `gpu.block_id <dim>`.
    pub fn block_id(&self, dim: &str) -> Result<Value<'c, 'a>, String> {
        let dimension = spelled::gpu_dim(self.context, dim)?;
        self.value(
            gpu::BLOCK_ID,
            &[],
            self.index_type(),
            &[("dimension", dimension)],
        )
    }

    /// `gpu.block_dim <dim>`.
    pub fn block_dim(&self, dim: &str) -> Result<Value<'c, 'a>, String> {
        let dimension = spelled::gpu_dim(self.context, dim)?;
        self.value(
            gpu::BLOCK_DIM,
            &[],
            self.index_type(),
            &[("dimension", dimension)],
        )
    }

    /// The thread's linear id in its block, `x + dx * (y + dy * z)`, and the
    /// number of threads in the block. With a known block size the extents
    /// are constants and dimensions of extent 1 are left out.
    pub fn linear_thread(
        &self,
        block: Option<[u32; 3]>,
    ) -> Result<(Ix<'c, 'a>, Ix<'c, 'a>), String> {
        let mut extents = Vec::with_capacity(3);
        for (index, dim) in DIMS.iter().enumerate() {
            extents.push(match block {
                Some(sizes) => Ix::Const(i64::from(sizes[index])),
                None => Ix::Val(self.block_dim(dim)?),
            });
        }
        // Horner's scheme from z inwards.
        let mut linear = Ix::Const(0);
        for index in (0..3).rev() {
            if extents[index].constant() == Some(1) {
                continue;
            }
            let id = Ix::Val(self.thread_id(DIMS[index])?);
            let scaled = self.mul(linear, extents[index])?;
            linear = self.add(scaled, id)?;
        }
        let mut count = Ix::Const(1);
        for extent in extents {
            count = self.mul(count, extent)?;
        }
        Ok((linear, count))
    }

    // ---- pointers ----

    /// `llvm.inttoptr` of an `index` byte address into `address_space`.
    pub fn int_to_ptr(
        &self,
        address: Value<'c, '_>,
        address_space: u32,
    ) -> Result<Value<'c, 'a>, String> {
        let as_i64 = self.index_cast(address, self.int_type(64))?;
        self.value(
            llvm::INTTOPTR,
            &[as_i64],
            self.ptr_type(address_space)?,
            &[],
        )
    }

    /// A global pointer (`!llvm.ptr<1>`) to the byte address `address`,
    /// which is a generic address when `generic` and a global one otherwise.
    pub fn global_ptr(
        &self,
        address: Value<'c, '_>,
        generic: bool,
    ) -> Result<Value<'c, 'a>, String> {
        if !generic {
            return self.int_to_ptr(address, 1);
        }
        let pointer = self.int_to_ptr(address, 0)?;
        self.value(llvm::ADDRSPACECAST, &[pointer], self.ptr_type(1)?, &[])
    }

    /// `pointer + offset` bytes (`llvm.getelementptr` over `i8`), in the
    /// pointer's address space.
    pub fn byte_offset(
        &self,
        pointer: Value<'c, '_>,
        offset: Ix<'c, 'a>,
    ) -> Result<Value<'c, 'a>, String> {
        use melior::ir::{attribute::TypeAttribute, ValueLike};
        const DYNAMIC: i32 = i32::MIN;
        let element: Attribute = TypeAttribute::new(self.int_type(8)).into();
        match offset {
            // SAFETY: `pointer` is an operand the caller built this copy from,
            // alive in the IR the builder inserts into.
            Ix::Const(0) => Ok(unsafe { pointer_value(pointer) }),
            Ix::Const(constant) if i32::try_from(constant).is_ok_and(|c| c != DYNAMIC) => self
                .value(
                    llvm::GETELEMENTPTR,
                    &[pointer],
                    pointer.r#type(),
                    &[
                        ("elem_type", element),
                        (
                            "rawConstantIndices",
                            DenseI32ArrayAttribute::new(self.context, &[constant as i32]).into(),
                        ),
                    ],
                ),
            _ => {
                let offset = self.ix(offset)?;
                let offset = self.index_cast(offset, self.int_type(64))?;
                self.value(
                    llvm::GETELEMENTPTR,
                    &[pointer, offset],
                    pointer.r#type(),
                    &[
                        ("elem_type", element),
                        (
                            "rawConstantIndices",
                            DenseI32ArrayAttribute::new(self.context, &[DYNAMIC]).into(),
                        ),
                    ],
                )
            }
        }
    }
}

/// Rebinds a value to the builder's lifetime (values are handles into the IR).
///
/// # Safety
/// `value` must stay alive (in the IR) for `'a`.
unsafe fn pointer_value<'c, 'a>(value: Value<'c, '_>) -> Value<'c, 'a> {
    use melior::ir::ValueLike;
    // SAFETY: the caller keeps the value alive for `'a`.
    unsafe { Value::from_raw(value.to_raw()) }
}

/// Removes `op` from the IR and destroys it.
///
/// # Safety
/// `op` must be live, attached to a block, and without uses; no handle to it
/// (any copy of `op`, a result of it, an op nested in it) may be used after.
pub(crate) unsafe fn erase(op: OperationRef) {
    // SAFETY: the caller's contract: destroying it unlinks it from its block,
    // and no reference to it is used afterwards.
    unsafe { mlir_sys::mlirOperationDestroy(op.to_raw()) }
}

/// Sets operand `index` of `op` to `value`.
///
/// # Safety
/// `op` must be live with more than `index` operands, and `value` a live value
/// of the same context that dominates `op` (or the verifier will refuse it).
pub(crate) unsafe fn set_operand(op: OperationRef, index: usize, value: Value) {
    use melior::ir::ValueLike;
    // SAFETY: the caller's contract.
    unsafe { mlir_sys::mlirOperationSetOperand(op.to_raw(), index as isize, value.to_raw()) }
}

/// Builds `name` at `location`, not inserted anywhere: a module-level op (a
/// global), or one the builder inserts.
pub(crate) fn detached<'c>(
    context: &'c Context,
    location: Location<'c>,
    name: OpName,
    operands: &[Value<'c, '_>],
    results: &[Type<'c>],
    attributes: &[(&str, Attribute<'c>)],
    regions: Vec<Region<'c>>,
) -> Result<Operation<'c>, String> {
    let attributes: Vec<(Identifier<'c>, Attribute<'c>)> = attributes
        .iter()
        .map(|(name, value)| (Identifier::new(context, name), *value))
        .collect();
    OperationBuilder::new(name.name, location)
        .add_operands(operands)
        .add_results(results)
        .add_attributes(&attributes)
        .add_regions_vec(regions)
        .build()
        .map_err(|error| format!("internal error: cannot build {}: {error}", name.name))
}

/// A private, uninitialised `memref.global` in shared memory (not inserted).
pub(crate) fn shared_global<'c>(
    context: &'c Context,
    location: Location<'c>,
    symbol: &str,
    r#type: Type<'c>,
    alignment: i64,
) -> Result<Operation<'c>, String> {
    let attributes: [(&str, Attribute); 5] = [
        ("sym_name", StringAttribute::new(context, symbol).into()),
        (
            "sym_visibility",
            StringAttribute::new(context, "private").into(),
        ),
        ("type", TypeAttribute::new(r#type).into()),
        ("initial_value", Attribute::unit(context)),
        (
            "alignment",
            IntegerAttribute::new(IntegerType::new(context, 64).into(), alignment).into(),
        ),
    ];
    detached(
        context,
        location,
        crate::ir::op_names::memref::GLOBAL,
        &[],
        &[],
        &attributes,
        Vec::new(),
    )
}
