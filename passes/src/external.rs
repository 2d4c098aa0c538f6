//! Wrapping a Rust function as an MLIR pass.

use std::panic::{catch_unwind, AssertUnwindSafe};

use melior::{
    dialect::DialectHandle,
    ir::{operation::OperationLike, r#type::TypeId, OperationRef},
    pass::{create_external, ExternalPass, Pass},
};

use crate::PassOptions;

/// A unique address per pass, which MLIR uses as the pass's TypeID.
#[repr(align(8))]
pub(crate) struct PassId;

/// What a pass body returns: `Err` after it has emitted its error diagnostics.
pub(crate) type PassResult = Result<(), ()>;

/// Makes an MLIR pass that runs `body` on the op it is scheduled on (MLIR
/// clones the pass, `body` with it, for each thread that runs it). The pass
/// manager loads `dependent_dialects` into the context before it runs, so the
/// body may build their ops in a context whose IR never used them.
///
/// The body runs inside MLIR's pass manager, below C++ frames that a Rust
/// panic must never unwind through (it would abort the process). A panic is
/// caught here and becomes an error at the op and a failed pass.
pub(crate) fn external_pass(
    id: &'static PassId,
    argument: &'static str,
    summary: &'static str,
    options: PassOptions,
    dependent_dialects: &[DialectHandle],
    body: impl Fn(OperationRef, &PassOptions) -> PassResult + Clone + 'static,
) -> Pass {
    create_external(
        move |operation: OperationRef, pass: ExternalPass| {
            tracing::debug!(pass = argument, ?options, "running");
            let outcome = catch_unwind(AssertUnwindSafe(|| body(operation, &options)));
            let failed = match outcome {
                Ok(result) => result.is_err(),
                Err(payload) => {
                    report_panic(operation, argument, payload.as_ref());
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
        dependent_dialects,
    )
}

/// Reports a panic in pass `argument` as an error at `operation`. Nothing
/// here may panic again: it runs where no unwinding is allowed.
fn report_panic(operation: OperationRef, argument: &str, payload: &(dyn std::any::Any + Send)) {
    let detail = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("no message");
    let message = format!(
        "internal error: pass '{argument}' panicked: {detail} (a bug in acopy; please report it with this input)"
    );
    let _ = catch_unwind(AssertUnwindSafe(|| {
        acopy_dialect::diagnostics::emit_error(operation.location(), &message);
    }));
}

#[cfg(test)]
mod tests {
    use std::{cell::RefCell, rc::Rc};

    use melior::{
        ir::{Location, Module},
        pass::PassManager,
    };

    use super::*;

    static PANICKING: PassId = PassId;

    fn panics(_: OperationRef, _: &PassOptions) -> PassResult {
        panic!("deliberately, in a test");
    }

    /// A pass that panics fails, with an error at the op it ran on, and the
    /// process lives on (without the catch, it aborts at the FFI boundary).
    #[test]
    fn a_panicking_pass_fails_with_an_error() {
        let context = crate::context::create_context().unwrap();
        let errors: Rc<RefCell<Vec<String>>> = Rc::default();
        let sink = errors.clone();
        context.attach_diagnostic_handler(move |diagnostic| {
            sink.borrow_mut()
                .push(format!("{} @ {}", diagnostic, diagnostic.location()));
            true
        });
        let mut module = Module::parse(&context, "module {}\n").unwrap();
        let manager = PassManager::new(&context);
        manager.add_pass(external_pass(
            &PANICKING,
            "acopy-test-panic",
            "panics",
            PassOptions::default(),
            &[],
            panics,
        ));
        assert!(manager.run(&mut module).is_err());
        let errors = errors.borrow();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(
            errors[0].starts_with(
                "internal error: pass 'acopy-test-panic' panicked: deliberately, in a test"
            ),
            "{errors:?}"
        );
        assert!(
            errors[0].ends_with(&format!("@ {}", Location::new(&context, "", 1, 1))),
            "{errors:?}"
        );
    }
}
