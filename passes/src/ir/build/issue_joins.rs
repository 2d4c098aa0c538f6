//! The state of the issue ifs the lowering joins (`super::joined_if`): which
//! copy is being lowered, its pending join, the last issue if built. Kept
//! apart from the joining so that [`super::Builder`] can hold it without
//! importing what uses the builder.

use std::cell::{Cell, RefCell};

use melior::ir::OperationRef;
use mlir_sys::{MlirLocation, MlirOperation, MlirValue};

/// The joins of one lowering run: at most one per copy, settled after it.
#[derive(Default)]
pub(crate) struct JoinedIfs {
    /// The acopy op being lowered.
    pub(super) copy: Cell<Option<MlirOperation>>,
    /// Its join, until [`JoinedIfs::settle`].
    pub(super) pending: RefCell<Option<Join>>,
    /// Stand-in blocks handed out so far.
    pub(super) places: Cell<usize>,
    /// The last issue if built, which the next copy's may join.
    pub(super) last: Cell<Option<MlirOperation>>,
}

/// A copy's issue body, put at the end of an earlier if's.
pub(super) struct Join {
    /// The earlier if.
    pub(super) into: MlirOperation,
    /// The ops the copy inserted into its body, in order.
    pub(super) body: Vec<MlirOperation>,
    /// The constants between the earlier if and the copy's insertion point,
    /// in block order.
    pub(super) skipped: Vec<MlirOperation>,
    /// What the copy's own if would have had.
    pub(super) condition: MlirValue,
    pub(super) location: MlirLocation,
}

impl JoinedIfs {
    /// The copy `copy` is lowered next.
    pub fn begin(&self, copy: OperationRef) {
        self.copy.set(Some(copy.to_raw()));
        self.pending.replace(None);
    }

    /// `op` was inserted into the pending join's body.
    pub(super) fn inserted(&self, op: MlirOperation) {
        if let Some(join) = self.pending.borrow_mut().as_mut() {
            join.body.push(op);
        }
    }

    /// A stand-in block number for a joined body: odd, unlike any block's
    /// address, and new.
    pub(super) fn new_place(&self) -> usize {
        let next = self.places.get() + 1;
        self.places.set(next);
        (next << 1) | 1
    }
}
