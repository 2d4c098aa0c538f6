//! Emitting ops in front of an anchor op: the small builder every lowering
//! file uses.
//!
//! A [`Builder`] inserts each op it makes right before its anchor, so ops come
//! out in program order. Nested regions (`scf.for`, `scf.if`, `scf.while`) are
//! built with their terminator first; the body is then filled by a builder
//! anchored on that terminator. Everything is built with the generic
//! [`OperationBuilder`], so no helper can panic on a malformed op: a failure is
//! an `Err(String)` that the pass reports at the acopy op. Op names are
//! [`OpName`]s from `super::op_names`, never strings.
//!
//! Pure ops whose operands are kernel-level are built once per kernel and
//! shared by every copy, at the top of the function once a second copy asks
//! (`super::hoist`).
//!
//! [`Ix`] is an index that may still be a compile-time constant; arithmetic
//! on it folds constants so that static strides and shapes leave no ops
//! behind.

use super::{
    hoist,
    op_names::{arith, gpu, llvm, scf, OpName},
};
use melior::{
    ir::{
        attribute::IntegerAttribute,
        block::BlockLike,
        operation::{OperationBuilder, OperationLike},
        r#type::IntegerType,
        Attribute, Block, BlockRef, Identifier, Location, Operation, OperationRef, Region,
        RegionLike, Type, Value,
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
    Sge = 5,
    Ult = 6,
}

/// One of the three thread dimensions.
pub(crate) const DIMS: [&str; 3] = ["x", "y", "z"];

impl<'c, 'a> Builder<'c, 'a> {
    /// A builder that inserts before `anchor`, at `anchor`'s location;
    /// `context` is the context that owns `anchor`.
    pub fn before(context: &'c Context, anchor: OperationRef<'c, 'a>) -> Result<Self, String> {
        let block = anchor
            .block()
            .ok_or_else(|| "internal error: the op to lower is not in a block".to_string())?;
        Ok(Self {
            context,
            location: anchor.location(),
            block,
            anchor,
            hoist: hoist::point_for(anchor),
        })
    }

    /// Inserts `op` before the anchor.
    pub fn insert(&self, op: Operation<'c>) -> OperationRef<'c, 'a> {
        self.block.insert_operation_before(self.anchor, op)
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
        if !name.pure {
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
        let block = self.block.to_raw();
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
        let attributes: Vec<(Identifier<'c>, Attribute<'c>)> = attributes
            .iter()
            .map(|(name, value)| (Identifier::new(self.context, name), *value))
            .collect();
        OperationBuilder::new(name.name, self.location)
            .add_operands(operands)
            .add_results(results)
            .add_attributes(&attributes)
            .build()
            .map_err(|error| format!("internal error: cannot build {}: {error}", name.name))
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

    /// Parses an attribute spelled in MLIR syntax (once per run and spelling).
    pub fn attr(&self, text: &str) -> Result<Attribute<'c>, String> {
        crate::run_cache::attribute(self.context, text)
            .ok_or_else(|| format!("internal error: cannot parse attribute {text}"))
    }

    /// An integer attribute of `bits` width.
    pub fn int_attr(&self, bits: u32, value: i64) -> Attribute<'c> {
        IntegerAttribute::new(self.int_type(bits), value).into()
    }

    // ---- constants and arithmetic ----

    /// `arith.constant value : index`.
    pub fn index(&self, value: i64) -> Result<Value<'c, 'a>, String> {
        let attribute = IntegerAttribute::new(self.index_type(), value).into();
        self.value(
            arith::CONSTANT,
            &[],
            self.index_type(),
            &[("value", attribute)],
        )
    }

    /// `arith.constant value : iN`.
    pub fn int(&self, bits: u32, value: i64) -> Result<Value<'c, 'a>, String> {
        self.value(
            arith::CONSTANT,
            &[],
            self.int_type(bits),
            &[("value", self.int_attr(bits, value))],
        )
    }

    /// A binary `arith` op whose result has the type of `lhs`.
    pub fn binary(
        &self,
        name: OpName,
        lhs: Value<'c, '_>,
        rhs: Value<'c, '_>,
    ) -> Result<Value<'c, 'a>, String> {
        use melior::ir::ValueLike;
        self.value(name, &[lhs, rhs], lhs.r#type(), &[])
    }

    /// `arith.cmpi`.
    pub fn cmpi(
        &self,
        predicate: Cmp,
        lhs: Value<'c, '_>,
        rhs: Value<'c, '_>,
    ) -> Result<Value<'c, 'a>, String> {
        self.value(
            arith::CMPI,
            &[lhs, rhs],
            self.int_type(1),
            &[("predicate", self.int_attr(64, predicate as i64))],
        )
    }

    /// `arith.index_cast` between `index` and an integer type.
    /// A constant input folds to a constant of `to`, as `createOrFold` would.
    pub fn index_cast(&self, value: Value<'c, '_>, to: Type<'c>) -> Result<Value<'c, 'a>, String> {
        use melior::ir::TypeLike;
        if let Some(constant) = crate::ir::constant_int(value) {
            if to.is_index() {
                return self.index(constant);
            }
            if to.is_integer() {
                if let Ok(integer) = IntegerType::try_from(to) {
                    let bits = integer.width();
                    return self.int(bits, truncate(constant, bits));
                }
            }
        }
        self.value(arith::INDEX_CAST, &[value], to, &[])
    }

    /// Materialises an [`Ix`].
    pub fn ix(&self, value: Ix<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        match value {
            Ix::Const(constant) => self.index(constant),
            Ix::Val(value) => Ok(value),
        }
    }

    /// `lhs + rhs`, folded when possible.
    pub fn add(&self, lhs: Ix<'c, 'a>, rhs: Ix<'c, 'a>) -> Result<Ix<'c, 'a>, String> {
        Ok(match (lhs, rhs) {
            (Ix::Const(a), Ix::Const(b)) => Ix::Const(a.wrapping_add(b)),
            (Ix::Const(0), other) | (other, Ix::Const(0)) => other,
            _ => Ix::Val(self.binary(arith::ADDI, self.ix(lhs)?, self.ix(rhs)?)?),
        })
    }

    /// `lhs * rhs`, folded when possible.
    pub fn mul(&self, lhs: Ix<'c, 'a>, rhs: Ix<'c, 'a>) -> Result<Ix<'c, 'a>, String> {
        Ok(match (lhs, rhs) {
            (Ix::Const(a), Ix::Const(b)) => Ix::Const(a.wrapping_mul(b)),
            (Ix::Const(0), _) | (_, Ix::Const(0)) => Ix::Const(0),
            (Ix::Const(1), other) | (other, Ix::Const(1)) => other,
            _ => Ix::Val(self.binary(arith::MULI, self.ix(lhs)?, self.ix(rhs)?)?),
        })
    }

    /// `lhs / divisor` (unsigned), folded when possible.
    pub fn div(&self, lhs: Ix<'c, 'a>, divisor: u64) -> Result<Ix<'c, 'a>, String> {
        Ok(match lhs {
            _ if divisor == 1 => lhs,
            Ix::Const(a) => Ix::Const(((a as u64) / divisor) as i64),
            Ix::Val(value) => {
                Ix::Val(self.binary(arith::DIVUI, value, self.index(divisor as i64)?)?)
            }
        })
    }

    /// `lhs % divisor` (unsigned), folded when possible.
    pub fn rem(&self, lhs: Ix<'c, 'a>, divisor: u64) -> Result<Ix<'c, 'a>, String> {
        Ok(match lhs {
            _ if divisor == 1 => Ix::Const(0),
            Ix::Const(a) => Ix::Const(((a as u64) % divisor) as i64),
            Ix::Val(value) => {
                Ix::Val(self.binary(arith::REMUI, value, self.index(divisor as i64)?)?)
            }
        })
    }

    // ---- threads ----

    /// `gpu.thread_id <dim>`.
    pub fn thread_id(&self, dim: &str) -> Result<Value<'c, 'a>, String> {
        let dimension = self.attr(&format!("#gpu<dim {dim}>"))?;
        self.value(
            gpu::THREAD_ID,
            &[],
            self.index_type(),
            &[("dimension", dimension)],
        )
    }

    /// `gpu.block_dim <dim>`.
    pub fn block_dim(&self, dim: &str) -> Result<Value<'c, 'a>, String> {
        let dimension = self.attr(&format!("#gpu<dim {dim}>"))?;
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
        use melior::ir::{attribute::DenseI32ArrayAttribute, attribute::TypeAttribute, ValueLike};
        const DYNAMIC: i32 = i32::MIN;
        let element: Attribute = TypeAttribute::new(self.int_type(8)).into();
        match offset {
            Ix::Const(0) => Ok(pointer_value(pointer)),
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

    // ---- control flow ----

    /// `gpu.barrier`.
    pub fn block_barrier(&self) -> Result<(), String> {
        self.op(gpu::BARRIER, &[], &[], &[]).map(|_| ())
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
    fn inside(&self, op: OperationRef<'c, 'a>, index: usize) -> Result<Self, String> {
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
        let op = OperationBuilder::new(scf::FOR.name, self.location)
            .add_operands(&[lower, upper, step])
            .add_regions([region])
            .build()
            .map_err(|error| format!("internal error: cannot build scf.for: {error}"))?;
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

    fn insert_if(
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
        let op = OperationBuilder::new(scf::IF.name, self.location)
            .add_operands(&[condition])
            .add_regions([then_region, else_region])
            .build()
            .map_err(|error| format!("internal error: cannot build scf.if: {error}"))?;
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
        let op = OperationBuilder::new(scf::WHILE.name, self.location)
            .add_regions([before, after])
            .build()
            .map_err(|error| format!("internal error: cannot build scf.while: {error}"))?;
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
            ..*self
        };
        let done = step(&inner)?;
        let truth = inner.int(1, 1)?;
        let again = inner.binary(arith::XORI, done, truth)?;
        inner.op(scf::CONDITION, &[again], &[], &[])?;
        erase(placeholder);
        Ok(())
    }
}

/// `value` truncated to `bits` and sign-extended back, as `arith.index_cast`
/// to an `i<bits>` computes it.
fn truncate(value: i64, bits: u32) -> i64 {
    match bits {
        0 => 0,
        64.. => value,
        _ => {
            let shift = 64 - bits;
            (value << shift) >> shift
        }
    }
}

/// Rebinds a value to the builder's lifetime (values are handles into the IR).
fn pointer_value<'c, 'a>(value: Value<'c, '_>) -> Value<'c, 'a> {
    use melior::ir::ValueLike;
    // SAFETY: the value is alive in the IR the builder inserts into.
    unsafe { Value::from_raw(value.to_raw()) }
}

/// Removes `op` from the IR and destroys it. It must have no uses.
pub(crate) fn erase(op: OperationRef) {
    // SAFETY: the op is attached to the IR and unused; destroying it unlinks it
    // from its block, and no reference to it is used afterwards.
    unsafe { mlir_sys::mlirOperationDestroy(op.to_raw()) }
}

#[cfg(test)]
mod tests {
    use melior::{
        dialect::DialectRegistry, ir::Module, pass::PassManager, utility::register_all_dialects,
        Context,
    };

    /// What MLIR's canonicalizer folds `arith.index_cast` of the constant
    /// `value` to `i<bits>` into.
    fn mlir_fold(value: i64, bits: u32) -> i64 {
        let registry = DialectRegistry::new();
        register_all_dialects(&registry);
        let context = Context::new();
        context.append_dialect_registry(&registry);
        context.load_all_available_dialects();
        let text = format!(
            "func.func @f() -> i{bits} {{
               %c = arith.constant {value} : index
               %t = arith.index_cast %c : index to i{bits}
               return %t : i{bits}
             }}"
        );
        let mut module = Module::parse(&context, &text).expect("the input parses");
        let manager = PassManager::new(&context);
        manager.add_pass(melior::pass::transform::create_canonicalizer());
        assert!(manager.run(&mut module).is_ok());
        let folded = module.as_operation().to_string();
        let start = folded
            .find("arith.constant ")
            .expect("folded to a constant")
            + 15;
        let number: String = folded[start..]
            .chars()
            .take_while(|c| *c == '-' || c.is_ascii_digit())
            .collect();
        number.parse().expect("an integer constant")
    }

    /// The builder folds `arith.index_cast` of a constant itself (instead of
    /// building the cast for a canonicalizer to fold); it must give MLIR's value,
    /// including for constants that do not fit the target width.
    #[test]
    fn truncate_folds_as_mlir_folds_index_cast() {
        for (value, bits) in [
            (5, 32),
            (-7, 32),
            ((1 << 32) + 5, 32),
            ((1 << 31) + 3, 32),
            (0xFFFF_FFFF, 32),
            (70_000, 16),
            (-(1 << 40) - 9, 32),
            (i64::MAX, 64),
            (i64::MIN + 3, 64),
            (255, 8),
            (5, 0),
            (5, 128),
            (i64::MIN + 3, 128),
        ] {
            assert_eq!(
                super::truncate(value, bits),
                mlir_fold(value, bits),
                "index_cast of {value} to i{bits}"
            );
        }
    }
}
