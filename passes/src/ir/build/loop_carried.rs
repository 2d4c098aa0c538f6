//! Values an `scf.for` carries from one iteration to the next, added to a
//! loop that already exists: the pipeliner's slot index, phase parity and
//! iteration number, which would otherwise be recomputed from the induction
//! variable with a division in every iteration (docs/pipelining.md, "The
//! steady state").
//!
//! MLIR cannot add results to an op in place, so [`carry`] builds a new
//! `scf.for` with the extra `iter_args`, moves the old body into it (the body's
//! block and ops stay the same objects, so handles to them stay valid) and
//! erases the old loop.

use melior::ir::{
    block::BlockLike, operation::OperationLike, BlockRef, Location, OperationRef, Region,
    RegionLike, Type, Value, ValueLike,
};

use super::{detached, erase, Builder, Cmp, Ix};
use crate::ir::op_names::{arith, scf};

/// Appends one argument per type to an `scf.for` body: the carried values
/// as the body sees them. They are valid IR once [`carry`] gives the loop
/// the matching `iter_args`.
pub(crate) fn add_body_arguments<'c, 'a>(
    body: BlockRef<'c, 'a>,
    types: &[Type<'c>],
    location: Location<'c>,
) -> Vec<Value<'c, 'a>> {
    types
        .iter()
        .map(|r#type| body.add_argument(*r#type, location))
        .collect()
}

/// Rebuilds `loop_op` with `inits` appended to its `iter_args` and `nexts`
/// to its `scf.yield`; the body's last `inits.len()` arguments must be the
/// ones [`add_body_arguments`] made. Returns the new loop, which has the old
/// one's attributes and gives its results to the old results' users.
///
/// # Safety
/// `loop_op` is destroyed: no handle to it may be used afterwards (handles
/// to its body's block and ops stay valid).
pub(crate) unsafe fn carry<'c, 'a>(
    context: &'c melior::Context,
    loop_op: OperationRef<'c, 'a>,
    inits: &[Value<'c, 'a>],
    nexts: &[Value<'c, 'a>],
) -> Result<OperationRef<'c, 'a>, String> {
    let body = loop_op
        .region(0)
        .ok()
        .and_then(|region| region.first_block())
        .ok_or("internal error: scf.for without a body")?;
    let terminator = body
        .terminator()
        .ok_or("internal error: scf.for body without a terminator")?;
    let mut yielded: Vec<Value> = (0..terminator.operand_count())
        .filter_map(|index| terminator.operand(index).ok())
        .collect();
    yielded.extend_from_slice(nexts);
    let raw: Vec<mlir_sys::MlirValue> = yielded.iter().map(|value| value.to_raw()).collect();
    // SAFETY: a live terminator; the values dominate it (they are built in
    // the body before it, or are its own operands).
    unsafe {
        mlir_sys::mlirOperationSetOperands(terminator.to_raw(), raw.len() as isize, raw.as_ptr())
    };

    let mut operands: Vec<Value> = (0..loop_op.operand_count())
        .filter_map(|index| loop_op.operand(index).ok())
        .collect();
    operands.extend_from_slice(inits);
    let mut results: Vec<Type> = (0..loop_op.result_count())
        .filter_map(|index| loop_op.result(index).ok())
        .map(|result| result.r#type())
        .collect();
    results.extend(inits.iter().map(|value| value.r#type()));
    let attributes: Vec<(String, melior::ir::Attribute)> = (0..loop_op.attribute_count())
        .filter_map(|index| loop_op.attribute_at(index).ok())
        .map(|(name, value)| {
            (
                name.as_string_ref().as_str().unwrap_or("").to_string(),
                value,
            )
        })
        .collect();
    let attributes: Vec<(&str, melior::ir::Attribute)> = attributes
        .iter()
        .map(|(name, value)| (name.as_str(), *value))
        .collect();
    let rebuilt = detached(
        context,
        loop_op.location(),
        scf::FOR,
        &operands,
        &results,
        &attributes,
        vec![Region::new()],
    )?;
    let block = loop_op
        .block()
        .ok_or("internal error: scf.for outside a block")?;
    let rebuilt = block.insert_operation_before(loop_op, rebuilt);
    let (new_region, old_region) = match (rebuilt.region(0), loop_op.region(0)) {
        (Ok(new), Ok(old)) => (new, old),
        _ => return Err("internal error: scf.for without a region".into()),
    };
    // SAFETY: both regions are live; the old loop is erased below, so its
    // emptied region is never seen by the verifier.
    unsafe { mlir_sys::mlirRegionTakeBody(new_region.to_raw(), old_region.to_raw()) };
    for index in 0..loop_op.result_count() {
        let (Ok(old), Ok(new)) = (loop_op.result(index), rebuilt.result(index)) else {
            return Err("internal error: scf.for lost a result".into());
        };
        // SAFETY: live values of one context and the same type.
        unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), new.to_raw()) };
    }
    // SAFETY: the old loop has no uses left and an empty body; the caller
    // keeps no handle to it.
    unsafe { erase(loop_op) };
    Ok(rebuilt)
}

impl<'c, 'a> Builder<'c, 'a> {
    /// `(value + step) mod modulus` for `value` in `0..modulus` and `step` in
    /// `0..modulus`, without a division: a mask when `modulus` is a power of
    /// two, else a compare and a select.
    pub fn wrapping_add(
        &self,
        value: Ix<'c, 'a>,
        step: u64,
        modulus: u64,
    ) -> Result<Ix<'c, 'a>, String> {
        if step == 0 {
            return Ok(value);
        }
        let sum = self.add(value, Ix::Const(step as i64))?;
        if modulus.is_power_of_two() {
            return self.rem_masked(sum, modulus);
        }
        if let Ix::Const(sum) = sum {
            return Ok(Ix::Const(sum % modulus as i64));
        }
        let limit = Ix::Const(modulus as i64);
        let wrapped = self.sub(sum, limit)?;
        let past = self.cmpi(Cmp::Sge, self.ix(sum)?, self.ix(limit)?)?;
        let (wrapped, sum) = (self.ix(wrapped)?, self.ix(sum)?);
        Ok(Ix::Val(self.value(
            arith::SELECT,
            &[past, wrapped, sum],
            self.index_type(),
            &[],
        )?))
    }
}

#[cfg(test)]
mod tests {
    use melior::{
        dialect::DialectRegistry,
        ir::{block::BlockLike, operation::OperationLike, Module, RegionLike, Value},
        pass::PassManager,
        utility::register_all_dialects,
        Context,
    };

    use super::super::{set_operand, Builder, Ix};

    fn context() -> Context {
        let registry = DialectRegistry::new();
        register_all_dialects(&registry);
        let context = Context::new();
        context.append_dialect_registry(&registry);
        context.load_all_available_dialects();
        context
    }

    /// The function's last op (its `return`) and first op.
    fn ops<'c, 'a>(
        module: &'a Module<'c>,
    ) -> (
        melior::ir::OperationRef<'c, 'a>,
        melior::ir::OperationRef<'c, 'a>,
    ) {
        let function = module.body().first_operation().expect("a function");
        let block = function
            .region(0)
            .ok()
            .and_then(|region| region.first_block())
            .expect("a body");
        (
            block.terminator().expect("a return"),
            block.first_operation().expect("an op"),
        )
    }

    /// What the canonicalizer folds the function's returned index to.
    fn folded(context: &Context, module: &mut Module) -> i64 {
        let manager = PassManager::new(context);
        manager.add_pass(melior::pass::transform::create_canonicalizer());
        assert!(manager.run(module).is_ok());
        let text = module.as_operation().to_string();
        let start = text.find("arith.constant ").expect("a constant") + 15;
        let number: String = text[start..]
            .chars()
            .take_while(|c| *c == '-' || c.is_ascii_digit())
            .collect();
        number.parse().expect("an integer")
    }

    /// The IR `wrapping_add` builds for a value computes (value + step) mod
    /// modulus for every slot and step, power of two or not.
    #[test]
    fn wrapping_add_is_addition_modulo() {
        let context = context();
        for modulus in 1..=7u64 {
            for step in 0..modulus {
                for value in 0..modulus {
                    let text = format!(
                        "func.func @f() -> index {{
                           %v = arith.constant {value} : index
                           return %v : index
                         }}"
                    );
                    let mut module = Module::parse(&context, &text).expect("parses");
                    {
                        let (ret, first) = ops(&module);
                        let b = Builder::in_place(&context, ret).expect("a builder");
                        let input: Value = first.result(0).expect("a result").into();
                        let sum = b
                            .wrapping_add(Ix::Val(input), step, modulus)
                            .expect("builds");
                        let sum = b.ix(sum).expect("a value");
                        // SAFETY: the return has one operand; `sum` is built before it.
                        unsafe { set_operand(ret, 0, sum) };
                    }
                    assert!(module.as_operation().verify());
                    assert_eq!(
                        folded(&context, &mut module),
                        ((value + step) % modulus) as i64,
                        "({value} + {step}) mod {modulus}"
                    );
                }
            }
        }
    }

    /// `carry` gives a loop new iter_args: the old results keep their users,
    /// the body's new argument counts the iterations, and the module verifies.
    #[test]
    fn carry_adds_iter_args_and_keeps_the_results() {
        let context = context();
        let text = "func.func @f(%n: index) -> (index, index) {
               %c0 = arith.constant 0 : index
               %c1 = arith.constant 1 : index
               %c5 = arith.constant 5 : index
               %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%a = %c0) -> (index) {
                 %s = arith.addi %a, %i : index
                 scf.yield %s : index
               } {marked}
               return %r, %r : index, index
             }";
        let module = Module::parse(&context, text).expect("parses");
        {
            let function = module.body().first_operation().expect("a function");
            let block = function
                .region(0)
                .ok()
                .and_then(|region| region.first_block())
                .expect("a body");
            let loop_op = block
                .first_operation()
                .and_then(|op| op.next_in_block())
                .and_then(|op| op.next_in_block())
                .and_then(|op| op.next_in_block())
                .expect("the loop");
            let ret = block.terminator().expect("a return");
            let body = loop_op
                .region(0)
                .ok()
                .and_then(|region| region.first_block())
                .expect("a body");
            let index = melior::ir::Type::index(&context);
            let [count] = super::add_body_arguments(body, &[index], loop_op.location())[..] else {
                panic!("one argument");
            };
            let end = body.terminator().expect("a yield");
            let b = Builder::in_place(&context, end).expect("a builder");
            let next = b.add(Ix::Val(count), Ix::Const(1)).expect("adds");
            let next = b.ix(next).expect("a value");
            let zero: Value = block
                .first_operation()
                .expect("c0")
                .result(0)
                .expect("r")
                .into();
            // SAFETY: the loop is not used after this but through the result.
            let rebuilt =
                unsafe { super::carry(&context, loop_op, &[zero], &[next]) }.expect("rebuilds");
            assert_eq!(rebuilt.result_count(), 2);
            assert!(rebuilt.has_attribute("marked"));
            // The count leaves the loop through the second result.
            let counted: Value = rebuilt.result(1).expect("the count").into();
            // SAFETY: the return has two operands; the loop dominates it.
            unsafe { set_operand(ret, 1, counted) };
        }
        assert!(module.as_operation().verify(), "{}", module.as_operation());
        let text = module.as_operation().to_string();
        assert!(
            text.contains("iter_args(%arg2 = %c0, %arg3 = %c0)"),
            "{text}"
        );
        assert!(text.contains("return %0#0, %0#1"), "{text}");
    }
}
