//! Attributes parsed from text, parsed once per run.

use std::cell::RefCell;

use melior::ir::{Attribute, AttributeLike};
use rustc_hash::FxHashMap as HashMap;

use crate::scoped_memo::{self, Slot};

/// Parsed attributes by context, then spelling (a hit allocates nothing).
type Parsed = HashMap<usize, HashMap<String, usize>>;

thread_local! {
    static PARSED: RefCell<Slot<Parsed>> = RefCell::default();
}

pub(super) fn scope() -> impl Sized {
    scoped_memo::enter(&PARSED)
}

/// `text` parsed as an attribute of `context`, parsed once per run: the
/// lowering asks for the same few (`#gpu<dim x>`, segment sizes) per copy.
pub(crate) fn attribute<'c>(context: &'c melior::Context, text: &str) -> Option<Attribute<'c>> {
    let context_key = context.to_raw().ptr as usize;
    let found = scoped_memo::with(&PARSED, |memo| {
        memo.get(&context_key)
            .and_then(|spellings| spellings.get(text))
            .copied()
    });
    if let Some(Some(raw)) = found {
        // SAFETY: parsed in this context during this run; attributes are
        // uniqued and live as long as their context.
        return Some(unsafe {
            Attribute::from_raw(mlir_sys::MlirAttribute {
                ptr: raw as *const std::ffi::c_void,
            })
        });
    }
    let parsed = Attribute::parse(context, text)?;
    scoped_memo::with(&PARSED, |memo| {
        memo.entry(context_key)
            .or_default()
            .insert(text.to_string(), parsed.to_raw().ptr as usize)
    });
    Some(parsed)
}
