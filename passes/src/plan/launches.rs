//! Which kernels a `gpu.launch_func` launches, found with one walk per pass run.
//!
//! Rule A26 and the tensor-map parameters ask, for every TMA copy, whether its
//! kernel is launched in the same module. Walking the whole module per copy
//! (or per kernel) made verification and lowering quadratic in the module's
//! size. Inside a [`scope`] (held by `acopy-verify` and `acopy-lower` for the
//! length of their run) the first question walks the top-level module once and
//! keeps the set of launched `@module::@kernel` symbols; later ones look it up.
//! Outside a scope (a single op checked through the library) each question
//! walks, without allocating.
//!
//! The set is exact for the length of a pass run: neither pass adds or removes
//! `gpu.launch_func` ops, and the scope ends with the run, so no pointer
//! outlives the IR it was taken from.

use std::{cell::RefCell, collections::HashSet};

use crate::scoped_memo::{self, Slot};

use melior::ir::{
    operation::{OperationLike, WalkOrder, WalkResult},
    Attribute, AttributeLike, OperationRef,
};

/// The top-level op walked and the `kernel` symbols launched under it.
#[derive(Default)]
struct Launched(Option<(usize, HashSet<usize>)>);

thread_local! {
    static LAUNCHED: RefCell<Slot<Launched>> = RefCell::default();
}

/// Keeps the memo until the returned guard is dropped; the outermost one
/// forgets it.
pub(crate) fn scope() -> impl Sized {
    scoped_memo::enter(&LAUNCHED)
}

/// The kernels some `gpu.launch_func` under `root` launches, for [`seeded`].
pub(crate) fn launched(root: OperationRef) -> HashSet<usize> {
    collect(root)
}

/// A [`scope`] that starts with `symbols` as the kernels launched under
/// `root`: for a copy of a `gpu.module` lowered apart from the module whose
/// host code launches its kernels (`lower::per_module`), where a walk of
/// `root` would find none of them.
pub(crate) fn seeded(root: OperationRef, symbols: HashSet<usize>) -> impl Sized {
    let guard = scope();
    let root_key = root.to_raw().ptr as usize;
    scoped_memo::with(&LAUNCHED, |launched| launched.0 = Some((root_key, symbols)));
    guard
}

/// Whether the run's memo already knows that nothing under `root` is
/// launched (false when it has not walked `root` yet, or outside a scope).
pub(crate) fn none_launched(root: OperationRef) -> bool {
    let root_key = root.to_raw().ptr as usize;
    scoped_memo::with(&LAUNCHED, |launched| {
        launched
            .0
            .as_ref()
            .is_some_and(|(walked, symbols)| *walked == root_key && symbols.is_empty())
    })
    .unwrap_or(false)
}

fn is_launch(op: &OperationRef) -> bool {
    crate::ir::is(op, crate::ir::op_names::gpu::LAUNCH_FUNC)
}

/// Whether some `gpu.launch_func` under `root` has `kernel = symbol`.
pub(crate) fn is_launched(root: OperationRef, symbol: Attribute) -> bool {
    let key = symbol.to_raw().ptr as usize;
    let root_key = root.to_raw().ptr as usize;
    let answer = scoped_memo::with(&LAUNCHED, |launched| {
        launched
            .0
            .as_ref()
            .filter(|(walked, _)| *walked == root_key)
            .map(|(_, symbols)| symbols.contains(&key))
    });
    match answer {
        None => walk_for(root, symbol),
        Some(Some(found)) => found,
        Some(None) => {
            let symbols = collect(root);
            let found = symbols.contains(&key);
            scoped_memo::with(&LAUNCHED, |launched| launched.0 = Some((root_key, symbols)));
            found
        }
    }
}

/// Host code only: the walks skip the bodies of `gpu.module`s, which hold
/// device code (no lowering turns a `gpu.launch_func` there into a launch),
/// and which passes nested on `gpu.module` may be changing on other threads
/// while this one asks.
fn in_device_code(op: &OperationRef) -> bool {
    crate::ir::is(op, crate::ir::op_names::gpu::MODULE)
}

fn walk_for(root: OperationRef, symbol: Attribute) -> bool {
    let mut found = false;
    root.walk(WalkOrder::PreOrder, |op| {
        if in_device_code(&op) {
            return WalkResult::Skip;
        }
        if is_launch(&op) && op.attribute("kernel").is_ok_and(|value| value == symbol) {
            found = true;
            return WalkResult::Interrupt;
        }
        WalkResult::Advance
    });
    found
}

/// Attributes are uniqued in their context, so a symbol is known by its pointer.
fn collect(root: OperationRef) -> HashSet<usize> {
    let mut launched = HashSet::new();
    root.walk(WalkOrder::PreOrder, |op| {
        if in_device_code(&op) {
            return WalkResult::Skip;
        }
        if is_launch(&op) {
            if let Ok(kernel) = op.attribute("kernel") {
                launched.insert(kernel.to_raw().ptr as usize);
            }
        }
        WalkResult::Advance
    });
    launched
}

#[cfg(test)]
mod tests {
    use melior::ir::{attribute::FlatSymbolRefAttribute, Module};

    use super::*;

    /// The answer is the same with and without a scope: outside one (a single
    /// op checked through the library) each question walks the module.
    #[test]
    fn launched_kernels_are_found_with_and_without_a_scope() {
        let context = crate::context::create_context().expect("context");
        let module = Module::parse(
            &context,
            r#"module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @launched() kernel { gpu.return }
    gpu.func @idle() kernel { gpu.return }
  }
  func.func @host() {
    %c1 = arith.constant 1 : index
    gpu.launch_func @m::@launched blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}"#,
        )
        .expect("the test input parses");
        let symbol = |kernel: &str| {
            Attribute::parse(&context, &format!("@m::@{kernel}")).expect("a symbol reference")
        };
        let root = module.as_operation();
        let flat = FlatSymbolRefAttribute::new(&context, "launched");
        let answers = || {
            [
                is_launched(root, symbol("launched")),
                is_launched(root, symbol("idle")),
                is_launched(root, flat.into()),
            ]
        };
        assert_eq!(answers(), [true, false, false]);
        let _scope = scope();
        assert_eq!(answers(), [true, false, false]);
    }

    /// The set a scope keeps belongs to the root it was walked from: a
    /// question about another root walks that one (the same symbol, uniqued
    /// in the context, is launched under one root and not the other).
    #[test]
    fn a_scope_keeps_the_set_of_its_own_root() {
        let context = crate::context::create_context().expect("context");
        let parse = |launched: &str| {
            Module::parse(
                &context,
                &format!(
                    r#"module attributes {{gpu.container_module}} {{
  gpu.module @m {{
    gpu.func @a() kernel {{ gpu.return }}
    gpu.func @b() kernel {{ gpu.return }}
  }}
  func.func @host() {{
    %c1 = arith.constant 1 : index
    gpu.launch_func @m::@{launched} blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }}
}}"#
                ),
            )
            .expect("the test input parses")
        };
        let (first, second) = (parse("a"), parse("b"));
        let symbol = |kernel: &str| {
            Attribute::parse(&context, &format!("@m::@{kernel}")).expect("a symbol reference")
        };
        let _scope = scope();
        let ask =
            |module: &Module, kernel: &str| is_launched(module.as_operation(), symbol(kernel));
        assert_eq!([ask(&first, "a"), ask(&first, "b")], [true, false]);
        assert_eq!([ask(&second, "a"), ask(&second, "b")], [false, true]);
        assert_eq!([ask(&first, "a"), ask(&first, "b")], [true, false]);
    }

    /// Only host code launches: a `gpu.launch_func` in a `gpu.module`'s body
    /// is device code, which the walk does not enter (passes nested on
    /// `gpu.module` may be changing it on another thread).
    #[test]
    fn launches_in_device_code_are_not_host_launches() {
        let context = crate::context::create_context().expect("context");
        let module = Module::parse(
            &context,
            r#"module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @a() kernel { gpu.return }
    gpu.func @b() kernel {
      %c1 = arith.constant 1 : index
      gpu.launch_func @m::@a blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
      gpu.return
    }
  }
}"#,
        )
        .expect("the test input parses");
        let a = Attribute::parse(&context, "@m::@a").expect("a symbol reference");
        let root = module.as_operation();
        assert!(!is_launched(root, a));
        let _scope = scope();
        assert!(!is_launched(root, a));
        assert!(launched(root).is_empty());
    }
}
