//! Parsing `--pass-pipeline` strings that mix acopy and upstream passes.
//!
//! The MLIR C API cannot register passes by name, so upstream's parser does not
//! know ours. This parser walks the textual pipeline, adds acopy passes itself
//! (from [`crate::registry`]) and hands each run of upstream passes to
//! `mlirOpPassManagerAddPipeline`, nesting under `op(...)` anchors as written.
//!
//! Grammar: `pipeline := element (',' element)*`,
//! `element := name ('{' options '}')? ('(' pipeline ')')?`. A name with a dot
//! is an op anchor (`builtin.module`, `gpu.module`, `func.func`). A top-level
//! `builtin.module(...)` wraps the whole pipeline; it may be left out.

use std::ffi::c_void;

use melior::{pass::OperationPassManager, StringRef};

use crate::{options::OptionError, registry};

/// A pipeline string that cannot be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PipelineError {
    #[error("invalid pass pipeline '{text}': {reason}")]
    Syntax { text: String, reason: String },
    #[error("unknown acopy pass '{0}'; acopy passes are: {list}", list = registry::PASSES.iter().map(|info| info.argument).collect::<Vec<_>>().join(", "))]
    UnknownAcopyPass(String),
    #[error("pass '{0}' cannot anchor a nested pipeline")]
    NestedUnderPass(String),
    #[error(transparent)]
    Options(#[from] OptionError),
    #[error("{0}")]
    Upstream(String),
}

/// One element of a pipeline.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Element<'t> {
    name: &'t str,
    /// The full text, options included, for handing to upstream.
    text: &'t str,
    options: Option<&'t str>,
    nested: Option<&'t str>,
}

/// Adds the passes of `text` to `manager` (anchored on `builtin.module`).
pub fn add_pipeline(manager: OperationPassManager, text: &str) -> Result<(), PipelineError> {
    let text = text.trim();
    let elements = split(text)?;
    match elements.as_slice() {
        [only]
            if only.name == crate::ir::op_names::builtin::MODULE.name && only.options.is_none() =>
        {
            add_elements(manager, only.nested.unwrap_or(""))
        }
        _ => add_elements(manager, text),
    }
}

fn add_elements(manager: OperationPassManager, text: &str) -> Result<(), PipelineError> {
    let mut upstream: Vec<&str> = Vec::new();
    for element in split(text)? {
        let is_anchor = element.name.contains('.');
        let is_acopy = element.name.starts_with("acopy-");
        if !is_acopy && !is_anchor {
            upstream.push(element.text);
            continue;
        }
        flush_upstream(manager, &mut upstream)?;
        if is_anchor {
            let nested = manager.nested_under(element.name);
            add_elements(nested, element.nested.unwrap_or(""))?;
            continue;
        }
        if element.nested.is_some() {
            return Err(PipelineError::NestedUnderPass(element.name.into()));
        }
        let info = registry::find(element.name)
            .ok_or_else(|| PipelineError::UnknownAcopyPass(element.name.into()))?;
        manager.add_pass((info.create)(element.name, element.options.unwrap_or(""))?);
    }
    flush_upstream(manager, &mut upstream)
}

fn flush_upstream(
    manager: OperationPassManager,
    upstream: &mut Vec<&str>,
) -> Result<(), PipelineError> {
    if upstream.is_empty() {
        return Ok(());
    }
    let text = upstream.join(",");
    upstream.clear();
    let mut message = String::new();
    unsafe extern "C" fn collect(part: mlir_sys::MlirStringRef, data: *mut c_void) {
        // No panic may unwind into MLIR's pipeline parser.
        let _ = std::panic::catch_unwind(|| {
            // SAFETY: `data` is the `String` passed below, alive for the whole call.
            let message = unsafe { &mut *(data as *mut String) };
            let part = unsafe { StringRef::from_raw(part) };
            message.push_str(part.as_str().unwrap_or("<invalid utf-8>"));
        });
    }
    let text_ref = StringRef::new(&text);
    // Upstream's parser looks the names up in MLIR's unlocked pass registry.
    let _parsing = crate::context::parsing_pipeline();
    // SAFETY: the manager is alive, the string outlives the call and the callback
    // only appends to `message`.
    let result = unsafe {
        mlir_sys::mlirOpPassManagerAddPipeline(
            manager.to_raw(),
            text_ref.to_raw(),
            Some(collect),
            &mut message as *mut String as *mut c_void,
        )
    };
    if result.value == 1 {
        Ok(())
    } else {
        Err(PipelineError::Upstream(if message.is_empty() {
            format!("invalid upstream pass pipeline '{text}'")
        } else {
            message.trim_end().to_string()
        }))
    }
}

/// Splits `text` at top-level commas into elements.
fn split(text: &str) -> Result<Vec<Element<'_>>, PipelineError> {
    let syntax = |reason: &str| PipelineError::Syntax {
        text: text.into(),
        reason: reason.into(),
    };
    let mut elements = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let bytes = text.as_bytes();
    for (index, &byte) in bytes.iter().enumerate() {
        match byte {
            b'(' | b'{' => depth += 1,
            b')' | b'}' => {
                depth -= 1;
                if depth < 0 {
                    return Err(syntax("unbalanced ')' or '}'"));
                }
            }
            b',' if depth == 0 => {
                elements.push(element(&text[start..index]).map_err(syntax)?);
                start = index + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err(syntax("unbalanced '(' or '{'"));
    }
    if !text[start..].trim().is_empty() || !elements.is_empty() {
        elements.push(element(&text[start..]).map_err(syntax)?);
    }
    Ok(elements)
}

fn element(text: &str) -> Result<Element<'_>, &'static str> {
    let text = text.trim();
    if text.is_empty() {
        return Err("empty pass name");
    }
    let name_end = text.find(['{', '(']).unwrap_or(text.len());
    let name = text[..name_end].trim();
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c))
    {
        return Err("expected a pass or op name");
    }
    let mut rest = &text[name_end..];
    let mut options = None;
    if let Some(after) = rest.strip_prefix('{') {
        let close = after.find('}').ok_or("missing '}'")?;
        options = Some(&after[..close]);
        rest = after[close + 1..].trim_start();
    }
    let mut nested = None;
    if let Some(after) = rest.strip_prefix('(') {
        let inner = after.strip_suffix(')').ok_or("missing ')'")?;
        nested = Some(inner);
        rest = "";
    }
    if !rest.trim().is_empty() {
        return Err("unexpected text after a pass");
    }
    Ok(Element {
        name,
        text,
        options,
        nested,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_nested_elements() {
        let elements = split("acopy-verify{chip=sm_90}, gpu.module(convert-gpu-to-nvvm{index-bitwidth=64}, cse), canonicalize").unwrap();
        assert_eq!(elements.len(), 3);
        assert_eq!(elements[0].name, "acopy-verify");
        assert_eq!(elements[0].options, Some("chip=sm_90"));
        assert_eq!(elements[1].name, "gpu.module");
        assert_eq!(
            elements[1].nested,
            Some("convert-gpu-to-nvvm{index-bitwidth=64}, cse")
        );
        assert_eq!(elements[2].text, "canonicalize");
    }

    #[test]
    fn rejects_malformed_text() {
        for bad in ["acopy-verify(", "a,,b", "builtin.module(a))", "x y", "a{b"] {
            assert!(split(bad).is_err(), "{bad} should not split");
        }
        assert_eq!(split("").unwrap(), vec![]);
    }
}
