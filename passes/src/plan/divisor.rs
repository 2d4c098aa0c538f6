//! What can be proved about the alignment of an `index` value at compile time,
//! from how it was computed. The cp.async lowering uses it to pick chunk
//! sizes, and the TMA facts to decide whether a dynamic window start is
//! 16-byte aligned (rule A19): both call the same functions, so the two can
//! never disagree about what is proved.

use melior::ir::{
    attribute::IntegerAttribute, block::BlockLike, operation::OperationLike, BlockRef,
    OperationRef, Value, ValueLike,
};

use crate::ir;
use crate::ir::op_names::arith;

/// A bound on [`pow2_divisor`], so products never overflow.
pub(crate) const DIVISOR_CAP: u64 = 1 << 32;

/// The largest power of two that is known to divide `value` (capped at 2^32;
/// 0 counts as divisible by the cap).
pub(crate) fn pow2_divisor(value: Value) -> u64 {
    divisor_at_depth(value, 0)
}

/// The largest power of two dividing the constant `value` (the cap for 0).
pub(crate) fn pow2_of_constant(value: i64) -> u64 {
    if value == 0 {
        DIVISOR_CAP
    } else {
        (1u64 << value.unsigned_abs().trailing_zeros()).min(DIVISOR_CAP)
    }
}

fn integer_constant(op: OperationRef) -> Option<i64> {
    let value = op.attribute("value").ok()?;
    IntegerAttribute::try_from(value)
        .ok()
        .map(|value| value.value())
}

fn divisor_at_depth(value: Value, depth: u32) -> u64 {
    const MAX_DEPTH: u32 = 24;
    if depth > MAX_DEPTH {
        return 1;
    }
    let operand = |op: OperationRef, index: usize| -> u64 {
        op.operand(index)
            .map_or(1, |operand| divisor_at_depth(operand, depth + 1))
    };
    if let Some(argument) = ir::as_argument(value) {
        // An scf.for induction variable: lower bound + k·step.
        let number = argument.argument_number();
        // SAFETY: the argument's block is alive while its value is.
        let block =
            unsafe { BlockRef::from_raw(mlir_sys::mlirBlockArgumentGetOwner(argument.to_raw())) };
        if let Some(parent) = block.parent_operation() {
            if ir::is(&parent, ir::op_names::scf::FOR) && number == 0 {
                return operand(parent, 0).min(operand(parent, 2));
            }
        }
        return 1;
    }
    let Some(result) = ir::as_result(value) else {
        return 1;
    };
    let op = result.owner();
    match ir::table_op(&op) {
        Some(arith::CONSTANT) => integer_constant(op).map_or(1, pow2_of_constant),
        Some(arith::MULI) => operand(op, 0)
            .saturating_mul(operand(op, 1))
            .min(DIVISOR_CAP),
        Some(arith::ADDI | arith::SUBI) => operand(op, 0).min(operand(op, 1)),
        Some(arith::SHLI) => {
            let shift = op
                .operand(1)
                .ok()
                .and_then(ir::as_result)
                .and_then(|shift| integer_constant(shift.owner()));
            match shift {
                Some(shift) if (0..32).contains(&shift) => {
                    operand(op, 0).saturating_mul(1 << shift).min(DIVISOR_CAP)
                }
                _ => operand(op, 0),
            }
        }
        Some(arith::INDEX_CAST | arith::INDEX_CASTUI | arith::EXTUI | arith::EXTSI) => {
            operand(op, 0)
        }
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::ir::{Module, RegionLike};

    /// The first result of each op in `@f`'s body, in order.
    fn results<'c>(module: &'c Module) -> Vec<Value<'c, 'c>> {
        let function = module.body().first_operation().unwrap();
        let block = function.region(0).unwrap().first_block().unwrap();
        let mut values = Vec::new();
        let mut current = block.first_operation();
        while let Some(op) = current {
            if let Ok(result) = op.result(0) {
                values.push(result.into());
            }
            if crate::ir::is(&op, crate::ir::op_names::scf::FOR) {
                let body = op.region(0).unwrap().first_block().unwrap();
                values.push(body.argument(0).unwrap().into());
            }
            current = op.next_in_block();
        }
        values
    }

    #[test]
    fn divisor_follows_index_arithmetic() {
        let context = crate::context::create_context().unwrap();
        let module = Module::parse(
            &context,
            r#"func.func @f(%a: index, %b: i32) {
                 %c64 = arith.constant 64 : index
                 %c3 = arith.constant 3 : index
                 %m = arith.muli %a, %c64 : index
                 %s = arith.addi %m, %c3 : index
                 %t = arith.subi %m, %c64 : index
                 %sh = arith.shli %a, %c3 : index
                 %cast = arith.index_cast %b : i32 to index
                 scf.for %iv = %m to %c64 step %c64 {
                 }
                 return
               }"#,
        )
        .unwrap();
        let divisors: Vec<u64> = results(&module).into_iter().map(pow2_divisor).collect();
        // c64, c3, m, s, t, sh, cast, iv
        assert_eq!(divisors, vec![64, 1, 64, 1, 64, 8, 1, 64]);
    }

    /// Casts and extensions keep the divisor of what they widen (a mutation
    /// survivor of shard 5, 2026-12-03: the arm deleted made every i32 start
    /// a run-time check).
    #[test]
    fn divisor_passes_through_casts() {
        let context = crate::context::create_context().unwrap();
        let module = Module::parse(
            &context,
            r#"func.func @f(%b: i32) {
                 %c16 = arith.constant 16 : i32
                 %m = arith.muli %b, %c16 : i32
                 %cast = arith.index_cast %m : i32 to index
                 %castui = arith.index_castui %m : i32 to index
                 %ext = arith.extsi %m : i32 to i64
                 %extu = arith.extui %m : i32 to i64
                 return
               }"#,
        )
        .unwrap();
        let divisors: Vec<u64> = results(&module).into_iter().map(pow2_divisor).collect();
        assert_eq!(divisors, vec![16, 16, 16, 16, 16, 16]);
    }

    /// The search follows 24 ops down and no further: a multiple of 64 at the
    /// end of a chain of 24 additions is found, at the end of 25 it is not (a
    /// mutation survivor of shard 5: `>` with `==` stopped one op earlier).
    #[test]
    fn divisor_search_stops_after_24_ops() {
        let context = crate::context::create_context().unwrap();
        for (length, divisor) in [(24, 64), (25, 1)] {
            let mut text = String::from("func.func @f() {\n %c64 = arith.constant 64 : index\n");
            text += " %v0 = arith.addi %c64, %c64 : index\n";
            for k in 1..length {
                text += &format!(" %v{k} = arith.addi %v{}, %c64 : index\n", k - 1);
            }
            text += " return\n}";
            let module = Module::parse(&context, &text).unwrap();
            let last = *results(&module).last().unwrap();
            // The chain's deepest op, %c64 under %v0, is `length` ops down.
            assert_eq!(pow2_divisor(last), divisor, "a chain of {length}");
        }
    }

    /// Only an scf.for's induction variable is lower bound + k·step: its
    /// carried values and the arguments of other ops' blocks are unknown (a
    /// mutation survivor of shard 10, 2026-12-03: `&&` with `||` read a
    /// carried value, or an scf.while's first argument, as a multiple of 64).
    #[test]
    fn only_the_induction_variable_is_read_from_the_loop() {
        let context = crate::context::create_context().unwrap();
        let module = Module::parse(
            &context,
            r#"func.func @f(%a: index) {
                 %c0 = arith.constant 0 : index
                 %c64 = arith.constant 64 : index
                 %r = scf.for %iv = %c0 to %c64 step %c64 iter_args(%carried = %a) -> (index) {
                   scf.yield %iv : index
                 }
                 %w = scf.while (%x = %c64) : (index) -> index {
                   %t = arith.cmpi slt, %x, %a : index
                   scf.condition(%t) %x : index
                 } do {
                 ^bb0(%y: index):
                   %n = arith.addi %y, %a : index
                   scf.yield %n : index
                 }
                 return
               }"#,
        )
        .unwrap();
        let function = module.body().first_operation().unwrap();
        let block = function.region(0).unwrap().first_block().unwrap();
        let ops: Vec<OperationRef> =
            std::iter::successors(block.first_operation(), |op| op.next_in_block()).collect();
        let for_body = ops[2].region(0).unwrap().first_block().unwrap();
        let induction: Value = for_body.argument(0).unwrap().into();
        let carried: Value = for_body.argument(1).unwrap().into();
        assert_eq!(pow2_divisor(induction), 64);
        assert_eq!(pow2_divisor(carried), 1);
        let while_before = ops[3].region(0).unwrap().first_block().unwrap();
        let first: Value = while_before.argument(0).unwrap().into();
        assert_eq!(pow2_divisor(first), 1);
    }

    #[test]
    fn divisor_of_constants() {
        assert_eq!(pow2_of_constant(48), 16);
        assert_eq!(pow2_of_constant(-8), 8);
        assert_eq!(pow2_of_constant(7), 1);
        assert_eq!(pow2_of_constant(0), DIVISOR_CAP);
    }
}
