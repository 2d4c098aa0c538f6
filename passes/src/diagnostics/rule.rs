//! Rule ids that travel with their error.
//!
//! [`emit_rule_error`] emits a rule's error at a fused location that wraps
//! the op's own location and carries `{acopy.rule = "E4"}` as its metadata.
//! A diagnostic keeps its location wherever it goes: under a multi-threaded
//! pass manager, MLIR's parallel diagnostic handler buffers what the worker
//! threads emit and hands it to the handler later, in op order, from another
//! thread. So the id arrives with the error it names, where a side channel
//! beside the diagnostic (a thread-local, say) would be read on the wrong
//! thread or out of order. Positions look through fused locations
//! ([`super::position_of`]) and a message never holds its location, so the
//! printed diagnostic is the same as for an error at the op's location.
//!
//! [`super::Diagnostic::rule`] is a `&'static str`, and metadata holds text:
//! the ids emitted are remembered (one entry per distinct rule, process-wide)
//! so that the collector hands back the caller's own `&'static str`, and
//! metadata that no emission wrote (hand-written IR) names no rule.

use std::sync::Mutex;

use acopy_dialect::diagnostics::emit_error;
use melior::ir::{attribute::StringAttribute, Location};
use mlir_sys::MlirStringRef;

/// The metadata's key.
const KEY: &str = crate::ir::op_names::attributes::RULE;

/// The rule ids emitted so far in this process.
static EMITTED: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());

/// Emits an error at `location`, carrying `rule` (when there is one) with it
/// for the collector to read back.
pub fn emit_rule_error(location: Location, rule: Option<&'static str>, message: &str) {
    match rule {
        Some(rule) => {
            remember(rule);
            emit_error(tagged(location, rule), message);
        }
        None => emit_error(location, message),
    }
}

/// The rule id that [`emit_rule_error`] attached to `location`, if any.
pub(super) fn rule_at(location: Location) -> Option<&'static str> {
    let id = StringAttribute::try_from(super::fused::metadata_entry(location, KEY)?).ok()?;
    recall(acopy_dialect::string_value(id))
}

/// `location` fused alone with the metadata `{acopy.rule = "<rule>"}`.
///
/// Through the C API: melior builds attributes from a `&Context`, and a
/// location gives only the context's raw handle.
fn tagged<'c>(location: Location<'c>, rule: &str) -> Location<'c> {
    let text = |text: &str| MlirStringRef {
        data: text.as_ptr().cast(),
        length: text.len(),
    };
    // SAFETY: the location belongs to a live context, which the new
    // attributes and location belong to as well and which outlives 'c; the
    // string refs point at `KEY` and `rule`, which MLIR copies during the
    // calls; the one-element arrays live across the calls that read them.
    unsafe {
        let context = mlir_sys::mlirLocationGetContext(location.to_raw());
        let entry = mlir_sys::mlirNamedAttributeGet(
            mlir_sys::mlirIdentifierGet(context, text(KEY)),
            mlir_sys::mlirStringAttrGet(context, text(rule)),
        );
        let metadata = mlir_sys::mlirDictionaryAttrGet(context, 1, &entry);
        let inner = location.to_raw();
        Location::from_raw(mlir_sys::mlirLocationFusedGet(context, 1, &inner, metadata))
    }
}

fn remember(rule: &'static str) {
    // A poisoned lock only means another thread panicked while pushing; the
    // list is still whole.
    let mut emitted = EMITTED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if !emitted.contains(&rule) {
        emitted.push(rule);
    }
}

fn recall(text: &str) -> Option<&'static str> {
    let emitted = EMITTED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    emitted.iter().copied().find(|rule| *rule == text)
}

#[cfg(test)]
mod tests {
    use melior::{ir::Attribute, Context};

    use super::*;
    use crate::diagnostics::{position_of, Collector, Position, Severity};

    fn at(line: u32, column: u32) -> Option<Position> {
        Some(Position {
            file: "k.mlir".into(),
            line,
            column,
        })
    }

    #[test]
    fn the_rule_arrives_with_its_error_at_the_ops_position() {
        let context = Context::new();
        let collector = Collector::default();
        collector.attach(&context);
        let op = Location::new(&context, "k.mlir", 3, 7);
        emit_rule_error(op, Some("T9"), "tagged");
        emit_rule_error(op, None, "plain");
        emit_rule_error(Location::unknown(&context), Some("E1"), "nowhere");
        let got: Vec<_> = collector
            .take()
            .into_iter()
            .map(|d| (d.severity, d.position, d.message, d.rule))
            .collect();
        assert_eq!(
            got,
            [
                (Severity::Error, at(3, 7), "tagged".to_string(), Some("T9")),
                (Severity::Error, at(3, 7), "plain".to_string(), None),
                (Severity::Error, None, "nowhere".to_string(), Some("E1")),
            ]
        );
    }

    #[test]
    fn metadata_no_emission_wrote_names_no_rule() {
        let context = Context::new();
        let op = Location::new(&context, "k.mlir", 1, 1);
        let forged = Attribute::parse(&context, "{acopy.rule = \"Z99\"}").unwrap();
        let location = Location::fused(&context, &[op], forged);
        assert_eq!(rule_at(location), None);
        assert_eq!(position_of(location), at(1, 1));
        let other = Attribute::parse(&context, "{other = \"T9\"}").unwrap();
        remember("T9");
        assert_eq!(rule_at(Location::fused(&context, &[op], other)), None);
        assert_eq!(rule_at(tagged(op, "T9")), Some("T9"));
        assert_eq!(rule_at(op), None);
    }

    /// Sixteen gpu.modules verified on MLIR's thread pool: each error still
    /// names its own rule, though worker threads emitted them and the parallel
    /// handler re-emitted them in op order.
    #[test]
    fn rule_ids_survive_the_multi_threaded_pass_manager() {
        let module_text = |index: usize| {
            let (dst, rule) = if index.is_multiple_of(2) {
                ("memref<64x128xf16, 3>", "E10")
            } else {
                ("memref<0x128xf32, 3>", "A1")
            };
            let text = format!(
                "gpu.module @m{index} [#nvvm.target<chip = \"sm_80\">] {{\n\
                 gpu.func @k(%src: memref<256x512xf32>, %dst: {dst}, %i: index) kernel {{\n\
                 \"acopy.copy_gmem_to_smem\"(%src, %dst, %i, %i) {{operandSegmentSizes = array<i32: 1, 1, 2, 0, 0>, oob_mode = \"promise_in_bounds\"}} : (memref<256x512xf32>, {dst}, index, index) -> ()\n\
                 gpu.return\n}}\n}}\n"
            );
            (text, rule)
        };
        let modules: Vec<_> = (0..16).map(module_text).collect();
        let source: String = modules.iter().map(|(text, _)| text.as_str()).collect();
        let context = crate::context::create_context().expect("context");
        context.enable_multi_threading(true);
        let collector = Collector::default();
        collector.attach(&context);
        let mut module = melior::ir::Module::parse(&context, &source).expect("parses");
        let manager = melior::pass::PassManager::new(&context);
        manager
            .nested_under("gpu.module")
            .add_pass(crate::verify::create_pass(crate::PassOptions::default()));
        assert!(manager.run(&mut module).is_err());
        let got: Vec<_> = collector
            .take()
            .into_iter()
            .map(|d| (d.position.map(|p| p.line), d.rule))
            .collect();
        // Module `index` starts at line 6 * index + 1; its copy is 2 lines on.
        let expected: Vec<_> = modules
            .iter()
            .enumerate()
            .map(|(index, (_, rule))| (Some(6 * index as u32 + 3), Some(*rule)))
            .collect();
        assert_eq!(got, expected);
    }
}
