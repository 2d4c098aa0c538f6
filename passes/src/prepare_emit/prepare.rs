//! `acopy-prepare-emit`: the first pass of the emit pipeline.
//!
//! **Needs**: IR after `acopy-lower`: no acopy op left, each kernel in a
//! `gpu.module` whose chip resolves (docs/dialect.md, "Target"; the `chip`
//! option overrides it).
//!
//! **Guarantees**: every `gpu.module` gets
//! `targets = [#nvvm.target<O = …, chip = "sm_XX", features = "+ptxNN">]`
//! for its chip, with the PTX ISA the chip model asks for
//! ([`acopy_target::Chip::ptx_features`]), because the NVPTX backend aborts the
//! whole process on a PTX version too old for the chip. The pass fails, with
//! an error at the op, on what LLVM would abort on or reject without a
//! location: an acopy op left unlowered, an NVVM op the chip cannot run
//! (`crate::target::gating`), an attribution or global upstream cannot compile
//! (`attributions`), a `gpu.module` the emit pipeline cannot reach
//! (nested deeper than [`MAX_NESTING`] `builtin.module`s, or in another op),
//! and, for PTX, a symbol that is no PTX identifier ([`super::symbols`]). A
//! kernel whose static shared memory passes the 48 KiB ptxas accepts gets its
//! workgroup attributions moved to dynamic shared memory, or an error naming
//! the chip, the total and the limit (`crate::static_shared`). A
//! `gpu.module` that uses `gpu.dynamic_shared_memory` gets an external
//! zero-sized shared global for the lowering to take it to, so that the
//! dynamic bytes follow the static ones instead of overlapping them
//! (`super::dynamic_shared`).
//!
//! **Options**: `chip=sm_XX` overrides every `gpu.module`'s chip;
//! `emit=llvm|ptx` (default `ptx`) says what the pipeline makes.

use acopy_target::Chip;
use melior::{
    ir::{
        operation::{OperationLike, WalkOrder, WalkResult},
        OperationRef,
    },
    pass::Pass,
};

use super::{attributions, dynamic_shared, kind::Emit, symbols};
use crate::ir::op_names;
use crate::{
    external::{external_pass, PassId, PassResult},
    ir,
    options::OptionError,
    target,
    target::gating,
    PassOptions,
};
use acopy_dialect::diagnostics::emit_error;

/// How many `builtin.module`s deep (below the top one) `--emit` compiles a
/// `gpu.module`.
pub const MAX_NESTING: usize = 3;

/// The pass's `--help` line.
pub const SUMMARY: &str =
    "Set each gpu.module's NVVM target to its chip and refuse IR the chip cannot compile";

/// The pass's options, as its `{…}` in a pipeline lists them.
pub const OPTIONS: &[&str] = &["chip", "emit"];

static PREPARE_ID: PassId = PassId;
static PREPARE_PTX_ID: PassId = PassId;

/// Creates `acopy-prepare-emit` for `emit` (LLVM IR or PTX; MLIR needs no
/// preparing and gets the LLVM IR checks), `chip` overriding every
/// `gpu.module`'s chip.
pub fn create_pass(emit: Emit, chip: Option<Chip>) -> Pass {
    let options = PassOptions {
        chip,
        ..PassOptions::default()
    };
    let (id, body): (_, fn(OperationRef, &PassOptions) -> PassResult) = match emit {
        Emit::Ptx => (&PREPARE_PTX_ID, prepare_ptx),
        Emit::Mlir | Emit::Llvm => (&PREPARE_ID, prepare),
    };
    external_pass(id, "acopy-prepare-emit", SUMMARY, options, &[], body)
}

/// Creates the pass from its `{…}` options in a pipeline.
pub fn parse_pass(pass: &str, text: &str) -> Result<Pass, OptionError> {
    let mut chip = None;
    let mut emit = Emit::Ptx;
    for item in text.split_whitespace() {
        let (key, value) = match item.split_once('=') {
            Some((key, value)) => (key, Some(value)),
            None => (item, None),
        };
        let missing = || OptionError::MissingValue {
            pass: pass.into(),
            key: key.into(),
        };
        match key {
            "chip" => chip = Some(Chip::parse(value.ok_or_else(missing)?)?),
            "emit" => {
                let value = value.ok_or_else(missing)?;
                emit = match Emit::parse(value) {
                    Some(emit @ (Emit::Llvm | Emit::Ptx)) => emit,
                    _ => {
                        return Err(OptionError::BadValue {
                            pass: pass.into(),
                            key: key.into(),
                            value: value.into(),
                            expected: "llvm or ptx",
                        })
                    }
                }
            }
            _ => {
                return Err(OptionError::Unknown {
                    pass: pass.into(),
                    key: key.into(),
                    takes: OPTIONS,
                })
            }
        }
    }
    Ok(create_pass(emit, chip))
}

fn gpu_modules<'c, 'a>(top: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut raw = Vec::new();
    top.walk(WalkOrder::PreOrder, |op| {
        // Nested gpu.modules too: check_nesting refuses them with an error,
        // where skipping them would drop their kernels silently.
        if ir::is(&op, ir::op_names::gpu::MODULE) {
            raw.push(op.to_raw());
        }
        if ir::is_function(&op) {
            WalkResult::Skip
        } else {
            WalkResult::Advance
        }
    });
    raw.into_iter()
        // SAFETY: the walk found these ops under `top`, which is alive.
        .map(|raw| unsafe { OperationRef::from_raw(raw) })
        .collect()
}

/// Where to report that `top` holds no gpu.module: its location, except
/// that MLIR places the module it makes around an input without an op (empty,
/// or comments only) at line 0, column 0, no place in the file; there,
/// line 1, column 1 of the same file.
fn in_the_file<'c>(top: OperationRef<'c, '_>) -> melior::ir::Location<'c> {
    let location = top.location();
    let raw = location.to_raw();
    // SAFETY: `raw` is the live location of a live op; the FileLineColRange
    // accessors are called only on a location of that kind.
    unsafe {
        if !mlir_sys::mlirLocationIsAFileLineColRange(raw)
            || mlir_sys::mlirLocationFileLineColRangeGetStartLine(raw) != 0
        {
            return location;
        }
        let name =
            mlir_sys::mlirIdentifierStr(mlir_sys::mlirLocationFileLineColRangeGetFilename(raw));
        // An empty name may come with a null pointer (docs/robustness.md).
        let file = if name.data.is_null() || name.length == 0 {
            String::new()
        } else {
            let bytes = std::slice::from_raw_parts(name.data.cast::<u8>(), name.length);
            String::from_utf8_lossy(bytes).into_owned()
        };
        melior::ir::Location::new(location.context().to_ref(), &file, 1, 1)
    }
}

fn prepare(top: OperationRef, options: &PassOptions) -> PassResult {
    prepare_modules(top, gpu_modules(top), options)
}

/// [`prepare`] on `modules`, the gpu.modules of `top` ([`gpu_modules`]).
fn prepare_modules(
    top: OperationRef,
    modules: Vec<OperationRef>,
    options: &PassOptions,
) -> PassResult {
    if modules.is_empty() {
        emit_error(
            in_the_file(top),
            "LLVM IR and PTX are compiled from gpu.modules, and this input has none: put the kernels in a gpu.module",
        );
        return Err(());
    }
    let mut failed = false;
    for module in &modules {
        if let Err(message) = check_nesting(*module, top) {
            emit_error(module.location(), &message);
            failed = true;
        } else if check_module(*module, options).is_err() {
            failed = true;
        }
    }
    if failed {
        return Err(());
    }
    // Before the extern global: a kernel may only now use dynamic shared memory.
    crate::static_shared::move_oversized(top, |module| {
        crate::static_shared::binding_chip(module, options)
    })?;
    for module in modules {
        if let Err(message) = dynamic_shared::declare_extern(module) {
            emit_error(module.location(), &message);
            failed = true;
        }
    }
    if failed {
        Err(())
    } else {
        Ok(())
    }
}

/// A gpu.module `--emit` can reach: under `top` through at most
/// [`MAX_NESTING`] `builtin.module`s and nothing else.
fn check_nesting(module: OperationRef, top: OperationRef) -> Result<(), String> {
    let mut depth = 0usize;
    let mut current = module.parent_operation();
    while let Some(parent) = current {
        if parent == top {
            break;
        }
        let name = ir::op_name(&parent);
        if !ir::is(&parent, ir::op_names::builtin::MODULE) {
            return Err(format!(
                "this gpu.module is inside '{name}'; LLVM IR and PTX are compiled from gpu.modules in builtin.modules only"
            ));
        }
        depth += 1;
        current = parent.parent_operation();
    }
    if depth > MAX_NESTING {
        return Err(format!(
            "this gpu.module is {depth} builtin.modules deep; LLVM IR and PTX are compiled from gpu.modules at most {MAX_NESTING} nested builtin.modules deep: move it up"
        ));
    }
    Ok(())
}

/// [`prepare`], and every symbol that becomes a PTX name must be a PTX
/// identifier: the NVPTX backend aborts the process ("Symbol name with
/// unsupported characters") on a kernel named `@"a b"`.
fn prepare_ptx(top: OperationRef, options: &PassOptions) -> PassResult {
    let modules = gpu_modules(top);
    let symbols = modules
        .iter()
        .map(|module| symbols::check_ptx_symbols(*module))
        .fold(Ok(()), PassResult::and);
    let prepared = prepare_modules(top, modules, options);
    symbols.and(prepared)
}
fn check_module(module: OperationRef, options: &PassOptions) -> PassResult {
    let chips = match target::resolve_chip(module, options) {
        Ok(chip) => vec![chip],
        // A gpu.module for several chips holds no acopy op (acopy-verify
        // refuses one there, and acopy-lower retargets the modules it
        // lowers to their one chip): compile it once per chip, as
        // gpu-module-to-binary does for several targets.
        Err(target::TargetProblem::SeveralChips(_)) => {
            match target::module_chips(module)
                .into_iter()
                .collect::<Result<Vec<_>, _>>()
            {
                Ok(chips) => chips,
                Err(problem) => {
                    emit_error(module.location(), &problem.to_string());
                    return Err(());
                }
            }
        }
        Err(problem) => {
            emit_error(module.location(), &problem.to_string());
            return Err(());
        }
    };
    let mut failed = false;
    module.walk(WalkOrder::PreOrder, |op| {
        // Read in place: this runs for every op of the module.
        let identifier = op.name();
        let name = identifier.as_string_ref().as_str().unwrap_or_default();
        if ir::is(&op, op_names::gpu::MODULE) && op != module {
            // Refused by check_nesting on its own.
            return WalkResult::Skip;
        }
        if name.starts_with("acopy.") {
            emit_error(
                op.location(),
                &format!("'{name}' must be lowered before LLVM IR or PTX is emitted: run acopy-lower first"),
            );
            failed = true;
        } else if ir::is(&op, op_names::gpu::FUNC) {
            if let Err(message) = attributions::check_attributions(op) {
                emit_error(op.location(), &message);
                failed = true;
            }
        } else if ir::is(&op, op_names::memref::GLOBAL) {
            if let Err(message) = attributions::check_global(op) {
                emit_error(op.location(), &message);
                failed = true;
            }
        }
        if let Some(message) = gating::refusal(name, &chips) {
            emit_error(op.location(), &message);
            failed = true;
        }
        WalkResult::Advance
    });
    if failed {
        return Err(());
    }
    set_targets(module, &chips)
}

/// Replaces the module's `#nvvm.target`s with one for each of `chips`.
fn set_targets(module: OperationRef, chips: &[Chip]) -> PassResult {
    target::retarget_all(module, chips).map_err(|message| emit_error(module.location(), &message))
}

#[cfg(test)]
mod tests {
    use melior::ir::Module;

    /// The gpu.modules at the top and in nested builtin.modules, in order,
    /// past functions whose bodies it does not enter.
    #[test]
    fn gpu_modules_are_found_at_every_module_level() {
        let context = crate::context::create_context().expect("context");
        let module = Module::parse(
            &context,
            "module attributes {gpu.container_module} {\n\
             func.func @host() {\n return\n }\n\
             gpu.module @a {\n gpu.func @k() kernel {\n gpu.return\n }\n }\n\
             module {\n gpu.module @b {\n }\n }\n}",
        )
        .expect("parses");
        let names: Vec<String> = super::gpu_modules(module.as_operation())
            .into_iter()
            .filter_map(crate::ir::symbol_name)
            .collect();
        assert_eq!(names, ["a", "b"]);
    }
}
