//! Marking an `scf.for` for `acopy-pipeline` (docs/pipelining.md) from Rust: the
//! discardable `{acopy.pipeline = {stages = S : i64}}` that `acopy-lower` pipelines.

use melior::{
    ir::{
        attribute::{DictionaryAttribute, IntegerAttribute},
        r#type::IntegerType,
        Attribute, AttributeLike, Identifier, OperationRef,
    },
    Context, StringRef,
};

/// The attribute's name.
pub const PIPELINE: &str = "acopy.pipeline";

/// `{stages = S : i64}`.
pub fn pipeline_attribute(context: &Context, stages: u32) -> Attribute<'_> {
    let stages: Attribute =
        IntegerAttribute::new(IntegerType::new(context, 64).into(), i64::from(stages)).into();
    DictionaryAttribute::new(context, &[(Identifier::new(context, "stages"), stages)]).into()
}

/// Marks `loop_op` (an `scf.for`) for pipelining with `stages` slots per tile;
/// acopy-verify checks the loop (rules P1–P11) and acopy-lower pipelines it.
pub fn mark_for_pipelining(context: &Context, loop_op: OperationRef, stages: u32) {
    let name = StringRef::new(PIPELINE);
    // SAFETY: a live op and an attribute of the same context; MLIR copies the name.
    unsafe {
        mlir_sys::mlirOperationSetDiscardableAttributeByName(
            loop_op.to_raw(),
            name.to_raw(),
            pipeline_attribute(context, stages).to_raw(),
        )
    }
}

#[cfg(test)]
mod tests {
    use melior::ir::{operation::OperationLike, Module};

    #[test]
    fn marks_a_loop_as_the_text_form_does() {
        let context = melior::Context::new();
        let registry = melior::dialect::DialectRegistry::new();
        melior::utility::register_all_dialects(&registry);
        context.append_dialect_registry(&registry);
        context.load_all_available_dialects();
        let module = Module::parse(
            &context,
            "func.func @f(%n: index) {\n  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  scf.for %i = %c0 to %n step %c1 {\n  }\n  return\n}\n",
        )
        .expect("parses");
        let mut found = None;
        module
            .as_operation()
            .walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
                if op.name().as_string_ref().as_str() == Ok("scf.for") {
                    found = Some(op.to_raw());
                }
                melior::ir::operation::WalkResult::Advance
            });
        // SAFETY: the loop lives in `module`.
        let loop_op = unsafe { melior::ir::OperationRef::from_raw(found.expect("a loop")) };
        super::mark_for_pipelining(&context, loop_op, 3);
        let text = module.as_operation().to_string();
        assert!(
            text.contains("{acopy.pipeline = {stages = 3 : i64}}"),
            "{text}"
        );
    }
}
