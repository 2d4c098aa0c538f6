//! The one way acopy turns a [`ContextRef`] (what IR hands out) into the
//! `&Context` that melior's constructors take.
//!
//! melior's `ContextRef::to_ref` returns a reference *into the `ContextRef`
//! value itself*, labelled with the context's lifetime: it dangles as soon as
//! that value goes out of scope, and nothing stops a caller from keeping it.
//! [`with_context`] keeps the `ContextRef` alive for the whole call and hands
//! the closure a reference of a lifetime the closure's result cannot name, so
//! the reference cannot leave the closure.

use melior::{Context, ContextRef};

/// Runs `body` with the context `context` refers to.
pub fn with_context<T>(context: ContextRef<'_>, body: impl for<'x> FnOnce(&'x Context) -> T) -> T {
    // SAFETY: `context` (the value the reference points into) lives in this
    // frame until `body` returns, and `body` cannot return the reference or
    // anything borrowing it (`T` cannot name `'x`).
    body(unsafe { context.to_ref() })
}

#[cfg(test)]
mod tests {
    use melior::ir::{Location, Module};

    #[test]
    fn the_closure_sees_the_modules_context() {
        let context = melior::Context::new();
        let module = Module::new(Location::unknown(&context));
        let same = super::with_context(module.context(), |inner| {
            inner.to_raw().ptr == context.to_raw().ptr
        });
        assert!(same, "the closure got another context");
    }
}
