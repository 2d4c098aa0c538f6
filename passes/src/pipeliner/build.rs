//! The few ops the pipeliner builds, inserted before an anchor op, with
//! index arithmetic folded where its operands are constants (so a loop with
//! constant bounds gets constant slots and guards).
//!
//! The pipeliner does not use the lowering's builder: `acopy-lower` calls the
//! pipeliner, so the pipeliner must not depend on the lowering.

use melior::{
    ir::{
        attribute::{IntegerAttribute, StringAttribute, TypeAttribute},
        block::BlockLike,
        operation::{OperationBuilder, OperationLike},
        r#type::IntegerType,
        Attribute, Block, BlockRef, Identifier, Location, Operation, OperationRef, Region,
        RegionLike, Type, Value, ValueLike,
    },
    Context,
};

/// An `index` value, or a constant not materialised yet.
#[derive(Clone, Copy)]
pub enum Ix<'c, 'a> {
    Const(i64),
    Val(Value<'c, 'a>),
}

/// `arith.cmpi` predicates used here (MLIR's `CmpIPredicate` values).
#[derive(Clone, Copy)]
pub enum Cmp {
    Slt = 2,
}

/// Inserts ops before `anchor` in `block`.
#[derive(Clone, Copy)]
pub struct B<'c, 'a> {
    pub context: &'c Context,
    pub location: Location<'c>,
    block: BlockRef<'c, 'a>,
    anchor: OperationRef<'c, 'a>,
}

type R<T> = Result<T, String>;

fn built<'c>(name: &str, result: Result<Operation<'c>, melior::Error>) -> R<Operation<'c>> {
    result.map_err(|error| format!("internal error: cannot build {name}: {error}"))
}

impl<'c, 'a> B<'c, 'a> {
    pub fn before(context: &'c Context, anchor: OperationRef<'c, 'a>) -> R<Self> {
        let block = anchor
            .block()
            .ok_or("internal error: the anchor op is not in a block")?;
        Ok(B {
            context,
            location: anchor.location(),
            block,
            anchor,
        })
    }

    /// The same insertion point, with ops located at `location`.
    pub fn at(self, location: Location<'c>) -> Self {
        B { location, ..self }
    }

    pub fn insert(&self, op: Operation<'c>) -> OperationRef<'c, 'a> {
        self.block.insert_operation_before(self.anchor, op)
    }

    /// Builds and inserts `name` with these operands, results and attributes.
    pub fn op(
        &self,
        name: &str,
        operands: &[Value<'c, '_>],
        results: &[Type<'c>],
        attributes: &[(&str, Attribute<'c>)],
    ) -> R<OperationRef<'c, 'a>> {
        let attributes: Vec<(Identifier, Attribute)> = attributes
            .iter()
            .map(|(key, value)| (Identifier::new(self.context, key), *value))
            .collect();
        let op = built(
            name,
            OperationBuilder::new(name, self.location)
                .add_operands(operands)
                .add_results(results)
                .add_attributes(&attributes)
                .build(),
        )?;
        Ok(self.insert(op))
    }

    fn value(
        &self,
        name: &str,
        operands: &[Value<'c, '_>],
        result: Type<'c>,
        attributes: &[(&str, Attribute<'c>)],
    ) -> R<Value<'c, 'a>> {
        let op = self.op(name, operands, &[result], attributes)?;
        op.result(0)
            .map(Into::into)
            .map_err(|error| format!("internal error: {name} has no result: {error}"))
    }

    pub fn index_type(&self) -> Type<'c> {
        Type::index(self.context)
    }

    pub fn int_type(&self, bits: u32) -> Type<'c> {
        IntegerType::new(self.context, bits).into()
    }

    pub fn attr(&self, text: &str) -> R<Attribute<'c>> {
        Attribute::parse(self.context, text)
            .ok_or_else(|| format!("internal error: cannot parse attribute {text}"))
    }

    fn int_attr(&self, bits: u32, value: i64) -> Attribute<'c> {
        IntegerAttribute::new(self.int_type(bits), value).into()
    }

    /// `arith.constant value : iN` (`bits` 0: index).
    pub fn constant(&self, bits: u32, value: i64) -> R<Value<'c, 'a>> {
        let r#type = if bits == 0 {
            self.index_type()
        } else {
            self.int_type(bits)
        };
        let attribute = IntegerAttribute::new(r#type, value).into();
        self.value("arith.constant", &[], r#type, &[("value", attribute)])
    }

    pub fn ix(&self, value: Ix<'c, 'a>) -> R<Value<'c, 'a>> {
        match value {
            Ix::Const(constant) => self.constant(0, constant),
            Ix::Val(value) => Ok(value),
        }
    }

    fn binary(&self, name: &str, lhs: Ix<'c, 'a>, rhs: Ix<'c, 'a>) -> R<Ix<'c, 'a>> {
        let (lhs, rhs) = (self.ix(lhs)?, self.ix(rhs)?);
        Ok(Ix::Val(self.value(
            name,
            &[lhs, rhs],
            self.index_type(),
            &[],
        )?))
    }

    pub fn add(&self, lhs: Ix<'c, 'a>, rhs: Ix<'c, 'a>) -> R<Ix<'c, 'a>> {
        match (lhs, rhs) {
            (Ix::Const(a), Ix::Const(b)) => Ok(Ix::Const(a.wrapping_add(b))),
            (Ix::Const(0), other) | (other, Ix::Const(0)) => Ok(other),
            _ => self.binary("arith.addi", lhs, rhs),
        }
    }

    pub fn sub(&self, lhs: Ix<'c, 'a>, rhs: Ix<'c, 'a>) -> R<Ix<'c, 'a>> {
        match (lhs, rhs) {
            (Ix::Const(a), Ix::Const(b)) => Ok(Ix::Const(a.wrapping_sub(b))),
            (other, Ix::Const(0)) => Ok(other),
            _ => self.binary("arith.subi", lhs, rhs),
        }
    }

    pub fn mul(&self, lhs: Ix<'c, 'a>, rhs: Ix<'c, 'a>) -> R<Ix<'c, 'a>> {
        match (lhs, rhs) {
            (Ix::Const(a), Ix::Const(b)) => Ok(Ix::Const(a.wrapping_mul(b))),
            (Ix::Const(0), _) | (_, Ix::Const(0)) => Ok(Ix::Const(0)),
            (Ix::Const(1), other) | (other, Ix::Const(1)) => Ok(other),
            _ => self.binary("arith.muli", lhs, rhs),
        }
    }

    /// Unsigned division (both operands are non-negative here).
    pub fn div(&self, lhs: Ix<'c, 'a>, rhs: Ix<'c, 'a>) -> R<Ix<'c, 'a>> {
        match (lhs, rhs) {
            (Ix::Const(a), Ix::Const(b)) if a >= 0 && b > 0 => Ok(Ix::Const(a / b)),
            (other, Ix::Const(1)) => Ok(other),
            _ => self.binary("arith.divui", lhs, rhs),
        }
    }

    /// `lhs mod divisor` for a non-negative `lhs`: a mask for a power of two.
    pub fn rem(&self, lhs: Ix<'c, 'a>, divisor: i64) -> R<Ix<'c, 'a>> {
        match lhs {
            _ if divisor == 1 => Ok(Ix::Const(0)),
            Ix::Const(a) if a >= 0 => Ok(Ix::Const(a % divisor)),
            _ if divisor & (divisor - 1) == 0 => {
                self.binary("arith.andi", lhs, Ix::Const(divisor - 1))
            }
            _ => self.binary("arith.remui", lhs, Ix::Const(divisor)),
        }
    }

    pub fn min(&self, lhs: Ix<'c, 'a>, rhs: Ix<'c, 'a>) -> R<Ix<'c, 'a>> {
        match (lhs, rhs) {
            (Ix::Const(a), Ix::Const(b)) => Ok(Ix::Const(a.min(b))),
            _ => self.binary("arith.minsi", lhs, rhs),
        }
    }

    pub fn max(&self, lhs: Ix<'c, 'a>, rhs: Ix<'c, 'a>) -> R<Ix<'c, 'a>> {
        match (lhs, rhs) {
            (Ix::Const(a), Ix::Const(b)) => Ok(Ix::Const(a.max(b))),
            _ => self.binary("arith.maxsi", lhs, rhs),
        }
    }

    pub fn ceil_div(&self, lhs: Ix<'c, 'a>, rhs: Ix<'c, 'a>) -> R<Ix<'c, 'a>> {
        match (lhs, rhs) {
            (other, Ix::Const(1)) => Ok(other),
            _ => self.binary("arith.ceildivsi", lhs, rhs),
        }
    }

    /// `lhs < rhs` (signed), or the constant answer.
    pub fn less(&self, lhs: Ix<'c, 'a>, rhs: Ix<'c, 'a>) -> R<Result<Value<'c, 'a>, bool>> {
        if let (Ix::Const(a), Ix::Const(b)) = (lhs, rhs) {
            return Ok(Err(a < b));
        }
        let (lhs, rhs) = (self.ix(lhs)?, self.ix(rhs)?);
        let predicate = self.int_attr(64, Cmp::Slt as i64);
        Ok(Ok(self.value(
            "arith.cmpi",
            &[lhs, rhs],
            self.int_type(1),
            &[("predicate", predicate)],
        )?))
    }

    /// `arith.index_cast` of an index to `iN`, or back (`bits` 0).
    pub fn cast(&self, value: Value<'c, '_>, bits: u32) -> R<Value<'c, 'a>> {
        let to = if bits == 0 {
            self.index_type()
        } else {
            self.int_type(bits)
        };
        self.value("arith.index_cast", &[value], to, &[])
    }

    /// An integer `value` as an `index`, sign- or zero-extended.
    pub fn extend_to_index(&self, value: Value<'c, '_>, unsigned: bool) -> R<Value<'c, 'a>> {
        let name = if unsigned {
            "arith.index_castui"
        } else {
            "arith.index_cast"
        };
        self.value(name, &[value], self.index_type(), &[])
    }

    /// `memref.view %buffer[%shift][] : ... to result`.
    pub fn view(
        &self,
        buffer: Value<'c, '_>,
        shift: Ix<'c, 'a>,
        result: Type<'c>,
    ) -> R<Value<'c, 'a>> {
        let shift = self.ix(shift)?;
        self.value("memref.view", &[buffer, shift], result, &[])
    }

    /// `memref.assume_alignment %value, align`.
    pub fn assume_aligned(&self, value: Value<'c, 'a>, align: u64) -> R<Value<'c, 'a>> {
        use melior::ir::ValueLike;
        let align = self.int_attr(32, align as i64);
        self.value(
            "memref.assume_alignment",
            &[value],
            value.r#type(),
            &[("alignment", align)],
        )
    }

    pub fn get_global(&self, symbol: &str, r#type: Type<'c>) -> R<Value<'c, 'a>> {
        let name = self.attr(&format!("@{symbol}"))?;
        self.value("memref.get_global", &[], r#type, &[("name", name)])
    }

    pub fn load(
        &self,
        memref: Value<'c, '_>,
        index: Value<'c, '_>,
        r#type: Type<'c>,
    ) -> R<Value<'c, 'a>> {
        self.value("memref.load", &[memref, index], r#type, &[])
    }

    pub fn store(
        &self,
        value: Value<'c, '_>,
        memref: Value<'c, '_>,
        index: Value<'c, '_>,
    ) -> R<()> {
        self.op("memref.store", &[value, memref, index], &[], &[])
            .map(|_| ())
    }

    pub fn barrier(&self) -> R<()> {
        self.op("gpu.barrier", &[], &[], &[]).map(|_| ())
    }

    /// `fence.proxy.async.shared::cta`: this thread's generic-proxy accesses
    /// of shared memory are ordered before later async-proxy (TMA) ones.
    pub fn proxy_fence(&self) -> R<()> {
        let kind = self.attr("#nvvm.proxy_kind<async.shared>")?;
        let space = self.attr("#nvvm.shared_space<cta>")?;
        self.op(
            "nvvm.fence.proxy",
            &[],
            &[],
            &[("kind", kind), ("space", space)],
        )
        .map(|_| ())
    }

    /// A region of one block that ends in `scf.yield`.
    fn yield_region(&self) -> R<Region<'c>> {
        let block = Block::new(&[]);
        block.append_operation(built(
            "scf.yield",
            OperationBuilder::new("scf.yield", self.location).build(),
        )?);
        let region = Region::new();
        region.append_block(block);
        Ok(region)
    }

    /// A builder before the terminator of region `index` of `op`.
    fn inside(&self, op: OperationRef<'c, 'a>, index: usize) -> R<Self> {
        let block = op
            .region(index)
            .ok()
            .and_then(|region| region.first_block())
            .ok_or("internal error: region without a block")?;
        let anchor = block
            .terminator()
            .ok_or("internal error: block without a terminator")?;
        Ok(B {
            block,
            anchor,
            ..*self
        })
    }

    /// `scf.if %condition { ... }`: the builder inside, or this one when the
    /// condition is a constant true (`None` when it is a constant false).
    pub fn guarded(&self, condition: Result<Value<'c, 'a>, bool>) -> R<Option<Self>> {
        let condition = match condition {
            Err(true) => return Ok(Some(*self)),
            Err(false) => return Ok(None),
            Ok(value) => value,
        };
        let op = built(
            "scf.if",
            OperationBuilder::new("scf.if", self.location)
                .add_operands(&[condition])
                .add_regions([self.yield_region()?, Region::new()])
                .build(),
        )?;
        let op = self.insert(op);
        Ok(Some(self.inside(op, 0)?))
    }

    /// `scf.index_switch %value` with `cases` and a default: one builder per
    /// case, then the default's.
    pub fn switch(&self, value: Value<'c, '_>, cases: &[i64]) -> R<Vec<Self>> {
        let mut regions = vec![self.yield_region()?];
        for _ in cases {
            regions.push(self.yield_region()?);
        }
        let cases_attr = self.attr(&format!(
            "array<i64: {}>",
            cases
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ))?;
        let op = built(
            "scf.index_switch",
            OperationBuilder::new("scf.index_switch", self.location)
                .add_operands(&[value])
                .add_attributes(&[(Identifier::new(self.context, "cases"), cases_attr)])
                .add_regions_vec(regions)
                .build(),
        )?;
        let op = self.insert(op);
        // Region 0 is the default; cases follow.
        let mut builders = Vec::new();
        for index in 1..=cases.len() {
            builders.push(self.inside(op, index)?);
        }
        builders.push(self.inside(op, 0)?);
        Ok(builders)
    }

    /// Clones `op` here and returns the clone.
    pub fn clone_op(&self, op: OperationRef<'c, '_>) -> OperationRef<'c, 'a> {
        // SAFETY: cloning a live op gives a new detached op, owned by the block
        // once inserted.
        let clone = unsafe { Operation::from_raw(mlir_sys::mlirOperationClone(op.to_raw())) };
        self.insert(clone)
    }
}

/// A private, uninitialised `memref.global` in shared memory.
pub fn shared_global<'c>(
    context: &'c Context,
    location: Location<'c>,
    symbol: &str,
    r#type: Type<'c>,
    alignment: i64,
) -> R<Operation<'c>> {
    let attributes = [
        (
            Identifier::new(context, "sym_name"),
            StringAttribute::new(context, symbol).into(),
        ),
        (
            Identifier::new(context, "sym_visibility"),
            StringAttribute::new(context, "private").into(),
        ),
        (
            Identifier::new(context, "type"),
            TypeAttribute::new(r#type).into(),
        ),
        (
            Identifier::new(context, "initial_value"),
            Attribute::unit(context),
        ),
        (
            Identifier::new(context, "alignment"),
            IntegerAttribute::new(IntegerType::new(context, 64).into(), alignment).into(),
        ),
    ];
    built(
        "memref.global",
        OperationBuilder::new("memref.global", location)
            .add_attributes(&attributes)
            .build(),
    )
}

/// Sets operand `index` of `op`.
pub fn set_operand(op: OperationRef, index: usize, value: Value) {
    // SAFETY: a live op and a value of the same context.
    unsafe { mlir_sys::mlirOperationSetOperand(op.to_raw(), index as isize, value.to_raw()) }
}

/// Erases an op whose results are unused.
pub fn erase(op: OperationRef) {
    // SAFETY: the op is attached and unused; nothing refers to it afterwards.
    unsafe { mlir_sys::mlirOperationDestroy(op.to_raw()) }
}
