//! Wrapping a Rust function as an MLIR pass.

use melior::{
    ir::{operation::OperationLike, r#type::TypeId, OperationRef},
    pass::{create_external, ExternalPass, Pass},
};

use acopy_dialect::diagnostics::emit_error;

use crate::PassOptions;

/// A unique address per pass, which MLIR uses as the pass's TypeID.
#[repr(align(8))]
pub(crate) struct PassId;

/// What a pass body returns: `Err` after it has emitted its error diagnostics.
pub(crate) type PassResult = Result<(), ()>;

/// Makes an MLIR pass that runs `body` on the op it is scheduled on.
///
/// A panic in `body` (a bug in acopy, never the input's fault) must not
/// unwind into MLIR's C++ frames, which aborts the process: it is caught and
/// becomes an error at the op and a failed pass, for the driver and for
/// library callers alike.
pub(crate) fn external_pass(
    id: &'static PassId,
    argument: &'static str,
    summary: &'static str,
    options: PassOptions,
    body: fn(OperationRef, &PassOptions) -> PassResult,
) -> Pass {
    create_external(
        move |operation: OperationRef, pass: ExternalPass| {
            tracing::debug!(pass = argument, ?options, "running");
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                body(operation, &options)
            }));
            let failed = match run {
                Ok(result) => result.is_err(),
                Err(payload) => {
                    emit_error(
                        operation.location(),
                        &format!(
                            "internal error in acopy: pass '{argument}' panicked ({}); please report it with this input",
                            panic_message(payload.as_ref())
                        ),
                    );
                    true
                }
            };
            if failed {
                pass.signal_failure();
            }
        },
        TypeId::create(id),
        argument,
        argument,
        summary,
        "",
        &[],
    )
}

/// The text a panic was raised with, if it was text.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("no message")
}

#[cfg(test)]
mod tests {
    use std::{cell::RefCell, rc::Rc};

    use melior::{ir::Module, pass::PassManager};

    use super::*;

    static PANICS_ID: PassId = PassId;

    #[test]
    fn a_panicking_pass_is_an_error_not_an_abort() {
        let context = crate::context::create_context().expect("context");
        let messages = Rc::new(RefCell::new(Vec::new()));
        let sink = messages.clone();
        context.attach_diagnostic_handler(move |diagnostic| {
            sink.borrow_mut().push(diagnostic.to_string());
            true
        });
        let mut module = Module::parse(&context, "module {}").expect("parses");
        let manager = PassManager::new(&context);
        manager.add_pass(external_pass(
            &PANICS_ID,
            "acopy-test-panics",
            "panics",
            PassOptions::default(),
            |_, _| panic!("planted bug"),
        ));
        assert!(manager.run(&mut module).is_err());
        assert_eq!(
            *messages.borrow(),
            ["internal error in acopy: pass 'acopy-test-panics' panicked (planted bug); please report it with this input"]
        );
    }
}
