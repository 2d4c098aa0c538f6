//! [`compile`] and [`verify`]: the whole pipeline in one call, errors as values.

use acopy_manifest::Manifest;
use acopy_passes::{
    diagnostics::{Collector, Detail, Diagnostic, PipelinedLoop, Position, Severity},
    emit::{self, Emitted},
};
use melior::{
    ir::{Location, Module},
    pass::PassManager,
    Context,
};

use crate::{Emit, Instrumentation, Options, Passes, Pipeline, RunError};

/// What to compile: a module (left unchanged: acopy works on a copy, in the
/// module's own context) or MLIR text.
#[derive(Clone, Copy)]
pub enum Input<'a, 'c> {
    Module(&'a Module<'c>),
    /// MLIR text; `name` is the file name diagnostics give.
    Text {
        name: &'a str,
        text: &'a str,
    },
}

impl<'a> Input<'a, 'static> {
    /// MLIR text read from the file `name`.
    pub fn file(name: &'a str, text: &'a str) -> Self {
        Input::Text { name, text }
    }
}

impl<'a, 'c> From<&'a Module<'c>> for Input<'a, 'c> {
    fn from(module: &'a Module<'c>) -> Self {
        Input::Module(module)
    }
}

impl<'a> From<&'a str> for Input<'a, 'static> {
    fn from(text: &'a str) -> Self {
        Input::Text {
            name: "<input>",
            text,
        }
    }
}

/// The output of one `gpu.module`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// The `gpu.module`'s symbol name.
    pub module: String,
    /// The chip the text is for, as the compiler knows it: the PTX object's
    /// target, or the one chip the `gpu.module`'s targets name (`None` when
    /// they name several or none; the chip option retargets them).
    pub chip: Option<String>,
    /// Lowered MLIR, LLVM IR or PTX, as [`Options::emit`] asked. A
    /// `gpu.module` for several chips gives one PTX output per chip.
    pub text: String,
    /// This module's kernels (for this output's chip): their tensor maps and
    /// launch facts.
    pub manifest: Manifest,
}

/// A successful [`compile`].
#[derive(Debug, Clone)]
pub struct Compiled {
    /// One per `gpu.module`, in IR order.
    pub outputs: Vec<Output>,
    /// Every kernel's tensor maps and launch facts, as `acopy-opt
    /// --tma-manifest` writes them.
    pub manifest: Manifest,
    /// Every diagnostic (remarks, warnings; no errors), in the order emitted.
    pub diagnostics: Vec<Diagnostic>,
}

impl Compiled {
    /// What `acopy-pipeline` chose for each loop it rewrote, with the loop's
    /// position, in the order the loops were rewritten: the data of each
    /// loop's remark ([`Diagnostic::detail`]).
    pub fn pipelined_loops(&self) -> impl Iterator<Item = (Option<&Position>, &PipelinedLoop)> {
        self.diagnostics
            .iter()
            .filter_map(|diagnostic| match &diagnostic.detail {
                Some(Detail::Pipelined(pipelined)) => {
                    Some((diagnostic.position.as_ref(), pipelined))
                }
                _ => None,
            })
    }
}

/// A failed [`compile`]: every diagnostic, at least one of them an error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", render(.diagnostics))]
pub struct Failed {
    pub diagnostics: Vec<Diagnostic>,
}

impl Failed {
    /// The error diagnostics alone.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|diagnostic| diagnostic.severity == Severity::Error)
    }
}

fn render(diagnostics: &[Diagnostic]) -> String {
    diagnostics
        .iter()
        .filter(|diagnostic| diagnostic.severity == Severity::Error)
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Verifies, lowers and emits every `gpu.module` of `input`, and reads the
/// tensor-map manifest at the one point where it is complete (after
/// `acopy-lower`, before the upstream passes). Errors come back as
/// diagnostics; nothing is printed.
pub fn compile<'a, 'c: 'a>(
    input: impl Into<Input<'a, 'c>>,
    options: &Options,
) -> Result<Compiled, Failed> {
    let mut result = None;
    let diagnostics = with_module(input.into(), options, |context, module| {
        result = Some(run_compile(context, module, options)?);
        Ok(())
    });
    match result {
        Some((outputs, manifest))
            if !diagnostics
                .iter()
                .any(|diagnostic| diagnostic.severity == Severity::Error) =>
        {
            Ok(Compiled {
                outputs,
                manifest,
                diagnostics,
            })
        }
        _ => Err(Failed { diagnostics }),
    }
}

/// Checks every acopy op of `input` as `acopy-verify` does and returns every
/// diagnostic; no error among them means the chip can do them all.
pub fn verify<'a, 'c: 'a>(input: impl Into<Input<'a, 'c>>, options: &Options) -> Vec<Diagnostic> {
    with_module(input.into(), options, |context, module| {
        check_dialect(module)?;
        let manager = new_manager(context);
        crate::add_verify_pass(manager.as_operation_pass_manager(), options);
        manager.run(module).map_err(|_| ())
    })
}

/// Runs `body` on a module of `input` with a collector attached, and returns
/// what it collected. A failure without an error diagnostic gets one, so
/// that a caller never mistakes it for success.
fn with_module(
    input: Input,
    options: &Options,
    body: impl FnOnce(&Context, &mut Module) -> Result<(), ()>,
) -> Vec<Diagnostic> {
    let collector = Collector::default();
    let outcome = match input {
        Input::Text { name, text } => {
            let context = match crate::create_context() {
                Ok(context) => context,
                Err(error) => return vec![internal(format!("cannot create a context: {error}"))],
            };
            context.enable_multi_threading(options.threads.unwrap_or(false));
            collector.attach(&context);
            let outcome = match parse(&context, text) {
                Some(mut module) => body(&context, &mut module),
                None => Err(()),
            };
            let mut diagnostics = collector.take_for(name);
            add_missing_error(outcome, &mut diagnostics);
            return diagnostics;
        }
        Input::Module(module) => match acopy_dialect::with_context(module.context(), |context| {
            with_module_in(context, module, &collector, options, body)
        }) {
            Ok(outcome) => outcome,
            Err(diagnostics) => return diagnostics,
        },
    };
    let mut diagnostics = collector.take();
    add_missing_error(outcome, &mut diagnostics);
    diagnostics
}

/// `with_module` on a copy of a module the caller gives, in its context: the
/// outcome of `body`, or the diagnostics when the context cannot be prepared.
fn with_module_in(
    context: &Context,
    module: &Module,
    collector: &Collector,
    options: &Options,
    body: impl FnOnce(&Context, &mut Module) -> Result<(), ()>,
) -> Result<Result<(), ()>, Vec<Diagnostic>> {
    if let Err(error) = crate::prepare_context(context) {
        return Err(vec![internal(format!(
            "cannot prepare the module's context: {error}"
        ))]);
    }
    if let Some(threads) = options.threads {
        context.enable_multi_threading(threads);
    }
    let attached = collector.attach_scoped(context);
    // SAFETY: cloning a live op gives a new op that nothing owns yet;
    // the `Operation` takes ownership of it.
    let copy = unsafe {
        melior::ir::Operation::from_raw(mlir_sys::mlirOperationClone(
            module.as_operation().to_raw(),
        ))
    };
    let outcome = match Module::from_operation(copy) {
        Some(mut copy) => body(context, &mut copy),
        None => {
            attached_error(context, "the module's operation is not a builtin.module");
            Err(())
        }
    };
    // SAFETY: the context outlives the module, which is alive here.
    unsafe { attached.detach() };
    Ok(outcome)
}

fn attached_error(context: &Context, message: &str) {
    acopy_dialect::diagnostics::emit_error(Location::unknown(context), message);
}

fn add_missing_error(outcome: Result<(), ()>, diagnostics: &mut Vec<Diagnostic>) {
    let has_error = diagnostics
        .iter()
        .any(|diagnostic| diagnostic.severity == Severity::Error);
    if outcome.is_err() && !has_error {
        diagnostics.push(internal(
            "a pass failed without reporting an error".to_string(),
        ));
    }
}

fn internal(message: String) -> Diagnostic {
    Diagnostic {
        severity: Severity::Error,
        position: None,
        message: format!("internal error in acopy: {message}"),
        rule: None,
        notes: Vec::new(),
        detail: None,
    }
}

/// Parses `text` as mlir-opt does, refusing first the text MLIR's parser
/// would crash on (with an error at it): `acopy_dialect::source`.
fn parse<'c>(context: &'c Context, text: &str) -> Option<Module<'c>> {
    acopy_dialect::source::parse_module(context, text.as_bytes())
}

/// The dialect's own checks (attribute values, which acopy.td leaves to the views).
fn check_dialect(module: &Module) -> Result<(), ()> {
    if acopy_dialect::check_module(module) > 0 {
        Err(())
    } else {
        Ok(())
    }
}

fn new_manager(context: &Context) -> PassManager<'_> {
    let manager = PassManager::new(context);
    manager.enable_verifier(true);
    manager
}

fn run_compile(
    context: &Context,
    module: &mut Module,
    options: &Options,
) -> Result<(Vec<Output>, Manifest), ()> {
    let pipeline = Pipeline {
        passes: Passes::Lower,
        options: options.clone(),
        manifest: true,
        instrumentation: Instrumentation::default(),
    };
    let ran = pipeline.run(context, module).map_err(|error| match error {
        RunError::Diagnosed => {}
        RunError::Manifest(error) => acopy_dialect::diagnostics::emit_error(
            error.location(context),
            &format!("cannot collect the tensor-map manifest: {error}"),
        ),
        RunError::Pipeline(error) => {
            attached_error(context, &format!("internal error in acopy: {error}"))
        }
        RunError::Internal(message) => {
            attached_error(context, &format!("internal error in acopy: {message}"))
        }
    })?;
    let manifest = ran.manifest.unwrap_or_default();
    let emitted = if options.emit == Emit::Mlir {
        emit::collect(module, Emit::Mlir).map_err(|_| ())?
    } else {
        ran.outputs
    };
    let outputs = emitted
        .into_iter()
        .map(|Emitted { name, chip, text }| Output {
            manifest: Manifest {
                kernels: manifest
                    .kernels
                    .iter()
                    // A module compiled for several chips has an entry per chip.
                    .filter(|kernel| {
                        kernel.module == name && chip.as_ref().is_none_or(|c| kernel.chip == *c)
                    })
                    .cloned()
                    .collect(),
                ..manifest.clone()
            },
            module: name,
            chip,
            text,
        })
        .collect();
    Ok((outputs, manifest))
}
