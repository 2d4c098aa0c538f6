//! Constants and `index` arithmetic, folded where the operands are
//! constants: the one constant folder ([`fold`]) of every op the passes build.

use melior::ir::{attribute::IntegerAttribute, r#type::IntegerType, Type, Value, ValueLike};

use super::{Builder, Cmp, Ix};
use crate::ir::op_names::{arith, OpName};

impl<'c, 'a> Builder<'c, 'a> {
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

    /// `lhs < rhs` (signed), or the constant answer.
    pub fn less(
        &self,
        lhs: Ix<'c, 'a>,
        rhs: Ix<'c, 'a>,
    ) -> Result<Result<Value<'c, 'a>, bool>, String> {
        if let (Ix::Const(a), Ix::Const(b)) = (lhs, rhs) {
            return Ok(Err(a < b));
        }
        let (lhs, rhs) = (self.ix(lhs)?, self.ix(rhs)?);
        Ok(Ok(self.cmpi(Cmp::Slt, lhs, rhs)?))
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
        self.index_cast_unfolded(value, to)
    }

    /// `arith.index_cast`, built even for a constant input: the pipeliner's
    /// rewrite casts what it materialised, and its output is pinned as it is
    /// (docs/pipelining.md shows it).
    pub fn index_cast_unfolded(
        &self,
        value: Value<'c, '_>,
        to: Type<'c>,
    ) -> Result<Value<'c, 'a>, String> {
        self.value(arith::INDEX_CAST, &[value], to, &[])
    }

    /// An integer `value` as an `index`, sign- or zero-extended.
    pub fn extend_to_index(
        &self,
        value: Value<'c, '_>,
        unsigned: bool,
    ) -> Result<Value<'c, 'a>, String> {
        let name = if unsigned {
            arith::INDEX_CASTUI
        } else {
            arith::INDEX_CAST
        };
        self.value(name, &[value], self.index_type(), &[])
    }

    /// Materialises an [`Ix`].
    pub fn ix(&self, value: Ix<'c, 'a>) -> Result<Value<'c, 'a>, String> {
        match value {
            Ix::Const(constant) => self.index(constant),
            Ix::Val(value) => Ok(value),
        }
    }

    /// `name` over two `index` operands: folded when [`fold`] can, else built.
    fn arith(&self, name: OpName, lhs: Ix<'c, 'a>, rhs: Ix<'c, 'a>) -> Result<Ix<'c, 'a>, String> {
        match fold(name, lhs, rhs) {
            Some(folded) => Ok(folded),
            None => Ok(Ix::Val(self.binary(name, self.ix(lhs)?, self.ix(rhs)?)?)),
        }
    }

    /// `lhs + rhs`, folded when possible.
    pub fn add(&self, lhs: Ix<'c, 'a>, rhs: Ix<'c, 'a>) -> Result<Ix<'c, 'a>, String> {
        self.arith(arith::ADDI, lhs, rhs)
    }

    /// `lhs - rhs`, folded when possible.
    pub fn sub(&self, lhs: Ix<'c, 'a>, rhs: Ix<'c, 'a>) -> Result<Ix<'c, 'a>, String> {
        self.arith(arith::SUBI, lhs, rhs)
    }

    /// `lhs * rhs`, folded when possible.
    pub fn mul(&self, lhs: Ix<'c, 'a>, rhs: Ix<'c, 'a>) -> Result<Ix<'c, 'a>, String> {
        self.arith(arith::MULI, lhs, rhs)
    }

    /// `lhs / rhs` (unsigned), folded when possible.
    pub fn div(&self, lhs: Ix<'c, 'a>, rhs: impl Into<Ix<'c, 'a>>) -> Result<Ix<'c, 'a>, String> {
        self.arith(arith::DIVUI, lhs, rhs.into())
    }

    /// `lhs % divisor` (unsigned, `arith.remui`), folded when possible.
    pub fn rem(&self, lhs: Ix<'c, 'a>, divisor: u64) -> Result<Ix<'c, 'a>, String> {
        self.arith(arith::REMUI, lhs, divisor.into())
    }

    /// `lhs mod divisor` for a non-negative `lhs`, as a mask (`arith.andi`)
    /// when `divisor` is a power of two, folded when possible.
    pub fn rem_masked(&self, lhs: Ix<'c, 'a>, divisor: u64) -> Result<Ix<'c, 'a>, String> {
        if let Some(folded) = fold(arith::REMUI, lhs, divisor.into()) {
            return Ok(folded);
        }
        if divisor.is_power_of_two() {
            self.arith(arith::ANDI, lhs, (divisor - 1).into())
        } else {
            self.arith(arith::REMUI, lhs, divisor.into())
        }
    }

    /// The signed maximum, folded when both are constants.
    pub fn max(&self, lhs: Ix<'c, 'a>, rhs: Ix<'c, 'a>) -> Result<Ix<'c, 'a>, String> {
        self.arith(arith::MAXSI, lhs, rhs)
    }

    /// `lhs / rhs` rounded up (signed); folded only for a divisor of 1.
    pub fn ceil_div(&self, lhs: Ix<'c, 'a>, rhs: Ix<'c, 'a>) -> Result<Ix<'c, 'a>, String> {
        self.arith(arith::CEILDIVSI, lhs, rhs)
    }
}

impl From<u64> for Ix<'_, '_> {
    fn from(value: u64) -> Self {
        Ix::Const(value as i64)
    }
}

/// What `name` gives for two `index` operands without an op, if it can be
/// known: both constants (unsigned for `divui`/`remui`, as MLIR folds them),
/// or an identity (`x + 0`, `x * 1`, `x / 1`, `x % 1`, ...).
fn fold<'c, 'a>(name: OpName, lhs: Ix<'c, 'a>, rhs: Ix<'c, 'a>) -> Option<Ix<'c, 'a>> {
    use Ix::Const as C;
    Some(match (name, lhs, rhs) {
        (arith::ADDI, C(a), C(b)) => C(a.wrapping_add(b)),
        (arith::ADDI, C(0), other) | (arith::ADDI, other, C(0)) => other,
        (arith::SUBI, C(a), C(b)) => C(a.wrapping_sub(b)),
        (arith::SUBI, other, C(0)) => other,
        (arith::MULI, C(a), C(b)) => C(a.wrapping_mul(b)),
        (arith::MULI, C(0), _) | (arith::MULI, _, C(0)) => C(0),
        (arith::MULI, C(1), other) | (arith::MULI, other, C(1)) => other,
        (arith::DIVUI | arith::CEILDIVSI, other, C(1)) => other,
        (arith::DIVUI, C(a), C(b)) if b != 0 => C(((a as u64) / (b as u64)) as i64),
        (arith::REMUI, _, C(1)) => C(0),
        (arith::REMUI, C(a), C(b)) if b != 0 => C(((a as u64) % (b as u64)) as i64),
        (arith::MINSI, C(a), C(b)) => C(a.min(b)),
        (arith::MAXSI, C(a), C(b)) => C(a.max(b)),
        _ => return None,
    })
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

#[cfg(test)]
mod tests {
    use super::{fold, Ix};
    use crate::ir::op_names::arith;

    fn constant(folded: Option<Ix>) -> Option<i64> {
        folded.and_then(|ix| ix.constant())
    }

    /// Constant divisions fold as MLIR folds them (unsigned), and never by a
    /// zero divisor: that stays an op for the verifier (a mutation survivor of
    /// shard 5, 2026-12-03: the `b != 0` guard dropped panicked here).
    #[test]
    fn constant_divisions_fold_but_not_by_zero() {
        let (c, zero) = (Ix::Const(-8), Ix::Const(0));
        assert_eq!(
            constant(fold(arith::DIVUI, Ix::Const(9), Ix::Const(2))),
            Some(4)
        );
        assert_eq!(
            constant(fold(arith::REMUI, Ix::Const(9), Ix::Const(4))),
            Some(1)
        );
        assert_eq!(
            constant(fold(arith::DIVUI, c, Ix::Const(2))),
            Some(((-8i64 as u64) / 2) as i64)
        );
        assert!(fold(arith::DIVUI, Ix::Const(9), zero).is_none());
        assert!(fold(arith::REMUI, Ix::Const(9), zero).is_none());
    }

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

    /// `less` answers two constants itself: strictly less, so equal is false
    /// (the pipeliner's prologue guards `j < T` with it).
    #[test]
    fn less_of_constants_is_strict() {
        use super::super::{Builder, Ix};
        use melior::ir::{block::BlockLike, operation::OperationLike, RegionLike};
        let registry = DialectRegistry::new();
        register_all_dialects(&registry);
        let context = Context::new();
        context.append_dialect_registry(&registry);
        context.load_all_available_dialects();
        let module = Module::parse(&context, "func.func @f() { return }").expect("parses");
        let function = module.body().first_operation().expect("a function");
        let ret = function
            .region(0)
            .ok()
            .and_then(|region| region.first_block())
            .and_then(|block| block.terminator())
            .expect("a return");
        let b = Builder::in_place(&context, ret).expect("a builder");
        for (lhs, rhs, less) in [(2, 3, true), (3, 3, false), (4, 3, false), (-1, 0, true)] {
            match b.less(Ix::Const(lhs), Ix::Const(rhs)) {
                Ok(Err(answer)) => assert_eq!(answer, less, "{lhs} < {rhs}"),
                _ => panic!("{lhs} < {rhs} was not answered as a constant"),
            }
        }
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
