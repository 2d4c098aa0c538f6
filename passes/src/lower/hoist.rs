//! Values a kernel computes once, whichever copy asks first.
//!
//! Every copy needs values that depend only on its kernel: the thread's index,
//! whether it is the block's first thread, constants, the address of a kernel
//! argument or a workgroup buffer. Lowering each op on its own would compute
//! them again for every copy. Instead, a pure op (see `super::emitted`) whose
//! operands are all *kernel-level* (arguments of the function's entry block, or
//! values placed here before) is placed once near the top of the function's
//! entry block, and every later request for the same op, operands, result
//! types and attributes gets that op back. This is what upstream builders do
//! with `createOrFold` and a constant cache, extended to the thread and pointer
//! values a copy needs; CSE has nothing left to merge.
//!
//! Where: only in functions directly inside a module (`gpu.func`, `func.func`,
//! `llvm.func`), and only when every op between the acopy op and its function
//! is structured control flow (`scf.*`, `affine.*`), whose regions see the
//! entry block's values. Anything else (a `gpu.launch` body, an unknown
//! region op that might be isolated from above) is built in place, as before.
//!
//! The memo lives for one `acopy-lower` run ([`Scope`]). It holds raw pointers
//! to ops and blocks: placed ops are never erased by the lowering (only acopy
//! ops are), and [`erase_unused`] runs before the scope ends.

use std::{
    cell::RefCell,
    collections::{HashMap, HashSet},
};

use melior::ir::{block::BlockLike, operation::OperationLike, Operation, OperationRef, RegionLike};
use mlir_sys::{MlirBlock, MlirOperation};

use crate::scoped_memo::{self, Guard, Slot};

/// The function ops whose entry block takes kernel-level values.
const FUNCTION_OPS: [&str; 3] = ["gpu.func", "func.func", "llvm.func"];

/// Where kernel-level values of one function go: its entry block.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Point {
    entry: MlirBlock,
}

/// What makes two pure ops compute the same value. Types and attributes are
/// uniqued by MLIR, so their addresses identify them.
#[derive(PartialEq, Eq, Hash, Debug, Clone)]
pub(crate) struct Key {
    pub name: &'static str,
    pub operands: Vec<usize>,
    pub results: Vec<usize>,
    pub attributes: Vec<(&'static str, usize)>,
}

#[derive(Default)]
struct Kernel {
    /// The last op placed: the next goes after it (or first in the block).
    last: Option<MlirOperation>,
    ops: HashMap<Key, MlirOperation>,
    /// The results of placed ops (value addresses).
    values: HashSet<usize>,
    /// Placed ops in the order they were placed.
    placed: Vec<MlirOperation>,
}

#[derive(Default)]
struct Memo {
    kernels: HashMap<usize, Kernel>,
    /// Pure ops built in place (not kernel-level), by the block they were
    /// inserted into. Every insertion into a block goes before an anchor at
    /// or after the previous one (acopy ops are lowered in program order, and
    /// a region the builder makes is filled front to back), so an op found
    /// here for the same block dominates the new insertion point.
    local: HashMap<usize, HashMap<Key, MlirOperation>>,
    /// The ops built in place for the acopy op being lowered, in order.
    this_op: Vec<(usize, Key, MlirOperation)>,
}

thread_local! {
    static MEMO: RefCell<Slot<Memo>> = RefCell::default();
}

/// Keeps the memo for one pass run.
pub(crate) struct Scope {
    _guard: Guard<Memo>,
}

impl Scope {
    pub(crate) fn enter() -> Self {
        Scope {
            _guard: scoped_memo::enter(&MEMO),
        }
    }
}

/// The entry block that kernel-level values of `anchor`'s function go to, if
/// it may take them (module docs).
pub(crate) fn point_for(anchor: OperationRef) -> Option<Point> {
    let mut current = anchor.parent_operation()?;
    loop {
        let parent = current.parent_operation()?;
        if is_module(parent) {
            // `current` is the function.
            if !FUNCTION_OPS.contains(&name_of(current)?.as_str()) {
                return None;
            }
            let entry = current.region(0).ok()?.first_block()?;
            return Some(Point {
                entry: entry.to_raw(),
            });
        }
        // `current` lies between the acopy op and its function.
        let name = name_of(current)?;
        if !(name.starts_with("scf.") || name.starts_with("affine.")) {
            return None;
        }
        current = parent;
    }
}

fn name_of(op: OperationRef) -> Option<String> {
    let name = op.name();
    name.as_string_ref().as_str().ok().map(str::to_string)
}

fn is_module(op: OperationRef) -> bool {
    matches!(
        name_of(op).as_deref(),
        Some("gpu.module" | "builtin.module")
    )
}

/// What the memo says about a pure op with `key`, about to be inserted
/// before `anchor` in the function of `point` (if it takes kernel-level values).
pub(crate) enum Lookup {
    /// Not kept: no run in progress. Build it in place.
    InPlace,
    /// Built before, where it dominates this use: reuse it.
    Found(MlirOperation),
    /// Kernel-level and new: [`place`] it.
    New,
    /// New, not kernel-level: build it in place and [`remember_local`] it.
    Local,
}

pub(crate) fn lookup(point: Option<Point>, block: MlirBlock, key: &Key) -> Lookup {
    scoped_memo::with(&MEMO, |memo| {
        if let Some(point) = point {
            let kernel = memo.kernels.entry(point.entry.ptr as usize).or_default();
            if let Some(op) = kernel.ops.get(key) {
                return Lookup::Found(*op);
            }
            let kernel_level = key.operands.iter().all(|&operand| {
                kernel.values.contains(&operand) || is_entry_argument(point, operand)
            });
            if kernel_level {
                return Lookup::New;
            }
        }
        match memo
            .local
            .get(&(block.ptr as usize))
            .and_then(|ops| ops.get(key))
        {
            Some(op) => Lookup::Found(*op),
            None => Lookup::Local,
        }
    })
    .unwrap_or(Lookup::InPlace)
}

/// Remembers `op`, built in place in `block`, for later requests with the
/// same `key` in the same block.
pub(crate) fn remember_local(block: MlirBlock, key: Key, op: MlirOperation) {
    scoped_memo::with(&MEMO, |memo| {
        let block = block.ptr as usize;
        memo.local.entry(block).or_default().insert(key.clone(), op);
        memo.this_op.push((block, key, op));
    });
}

/// Ends the lowering of one acopy op: erases the ops it built in place that
/// nothing uses (an index computed for every chunk but needed by none), and
/// forgets them.
pub(crate) fn end_op() {
    let built =
        scoped_memo::with(&MEMO, |memo| std::mem::take(&mut memo.this_op)).unwrap_or_default();
    let erased = erase_unused_of(built.iter().map(|(_, _, op)| *op).collect());
    scoped_memo::with(&MEMO, |memo| {
        for (block, key, op) in &built {
            if erased.contains(&(op.ptr as usize)) {
                if let Some(ops) = memo.local.get_mut(block) {
                    ops.remove(key);
                }
            }
        }
    });
}

/// Places `op` (for which [`lookup`] said `New`) with the kernel-level values
/// of `point`'s function, and remembers it under `key`.
pub(crate) fn place<'c, 'a>(point: Point, key: Key, op: Operation<'c>) -> OperationRef<'c, 'a> {
    let placed = scoped_memo::with(&MEMO, |memo| {
        let kernel = memo.kernels.entry(point.entry.ptr as usize).or_default();
        let reference = kernel.last.unwrap_or(MlirOperation {
            ptr: std::ptr::null_mut(),
        });
        let raw = op.into_raw();
        // SAFETY: the entry block is live for the run; the reference is an op
        // placed in it before (never erased during the run) or null, which
        // puts the op first. The block takes ownership of `raw`.
        unsafe { mlir_sys::mlirBlockInsertOwnedOperationAfter(point.entry, reference, raw) };
        kernel.last = Some(raw);
        kernel.placed.push(raw);
        // SAFETY: `raw` is a live op.
        let results = unsafe { mlir_sys::mlirOperationGetNumResults(raw) };
        for index in 0..results {
            // SAFETY: `index` is below the number of results.
            let value = unsafe { mlir_sys::mlirOperationGetResult(raw, index) };
            kernel.values.insert(value.ptr as usize);
        }
        kernel.ops.insert(key, raw);
        raw
    });
    let raw = placed.expect("place is only called after lookup answered New, inside a scope");
    // SAFETY: the op was just inserted into the IR the caller builds into.
    unsafe { OperationRef::from_raw(raw) }
}

/// Erases placed ops that nothing uses (a block size asked for but not
/// needed, say), latest first so that an op's users go before it.
pub(crate) fn erase_unused() {
    let placed: Vec<MlirOperation> = scoped_memo::with(&MEMO, |memo| {
        let mut all = Vec::new();
        for kernel in memo.kernels.values_mut() {
            all.append(&mut kernel.placed);
            kernel.ops.clear();
            kernel.values.clear();
            kernel.last = None;
        }
        all
    })
    .unwrap_or_default();
    // Kernels are independent, so only the order within each matters: it is
    // kept, and reversed.
    erase_unused_of(placed);
    scoped_memo::with(&MEMO, |memo| memo.local.clear());
}

/// Erases the ops of `built` (pure, in the order they were built) that have
/// no uses, latest first so that an op's users go before it; returns the
/// addresses of those erased.
fn erase_unused_of(built: Vec<MlirOperation>) -> HashSet<usize> {
    let mut erased = HashSet::new();
    for raw in built.into_iter().rev() {
        // SAFETY: placed ops are live until erased here, once each.
        let unused = unsafe {
            (0..mlir_sys::mlirOperationGetNumResults(raw)).all(|index| {
                mlir_sys::mlirValueGetFirstUse(mlir_sys::mlirOperationGetResult(raw, index))
                    .ptr
                    .is_null()
            })
        };
        if unused {
            erased.insert(raw.ptr as usize);
            // SAFETY: the op is unused and attached; nothing refers to it after.
            unsafe { mlir_sys::mlirOperationDestroy(raw) };
        }
    }
    erased
}

fn is_entry_argument(point: Point, value: usize) -> bool {
    let value = mlir_sys::MlirValue {
        ptr: value as *const std::ffi::c_void,
    };
    // SAFETY: `value` is an operand of the op being built, so it is live.
    unsafe {
        mlir_sys::mlirValueIsABlockArgument(value)
            && mlir_sys::mlirBlockArgumentGetOwner(value).ptr == point.entry.ptr
    }
}
