//! The MLIR spelling of a type, printed once per run.

use std::cell::RefCell;

use melior::ir::{Type, TypeLike};
use rustc_hash::FxHashMap as HashMap;

use crate::scoped_memo::{self, Slot};

thread_local! {
    /// Spellings by type address.
    static SPELLINGS: RefCell<Slot<HashMap<usize, String>>> = RefCell::default();
}

pub(super) fn scope() -> impl Sized {
    scoped_memo::enter(&SPELLINGS)
}

/// The MLIR spelling of `r#type`.
pub(crate) fn type_string(r#type: Type) -> String {
    let key = r#type.to_raw().ptr as usize;
    match scoped_memo::with(&SPELLINGS, |memo| memo.get(&key).cloned()) {
        None => r#type.to_string(),
        Some(Some(text)) => text,
        Some(None) => {
            let text = r#type.to_string();
            scoped_memo::with(&SPELLINGS, |memo| memo.insert(key, text.clone()));
            text
        }
    }
}
