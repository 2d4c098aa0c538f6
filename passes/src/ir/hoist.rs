//! Values a kernel computes once, whichever copy asks first.
//!
//! Every copy needs values that depend only on its kernel: the thread's index,
//! whether it is the block's first thread, constants, the address of a kernel
//! argument or a workgroup buffer. Lowering each op on its own would compute
//! them again for every copy. Instead, a pure op (see `super::op_names`) whose
//! operands are all *kernel-level* (arguments of the function's entry block, or
//! kernel-level values built before) is remembered per kernel, and a later
//! request for the same op, operands, result types and attributes gets it
//! back. An op without operands (a constant, a thread-index read) goes to
//! the top of the function's entry block at once. Any other is first built
//! in place, next to its first use; when a request
//! comes from somewhere that place does not dominate (another copy's block, a
//! region), it moves, with the kernel-level values it uses, up to the top of
//! the function's entry block. So what several copies share is computed once
//! at the top, and what one copy alone needs (its chunk addresses) stays next
//! to that copy: hoisting everything to the top made LLVM's poison analysis
//! (`programUndefinedIfUndefOrPoison`, which walks a basic block) quadratic
//! in the distance between definitions and uses. This is what upstream
//! builders do with `createOrFold` and a constant cache, extended to the
//! thread and pointer values a copy needs; CSE has nothing left to merge.
//!
//! Where: only in functions directly inside a module (`gpu.func`, `func.func`,
//! `llvm.func`), and only when every op between the acopy op and its function
//! is structured control flow (`scf.*`, `affine.*`), whose regions see the
//! entry block's values. Anything else (a `gpu.launch` body, an unknown
//! region op that might be isolated from above) is built in place, as before.
//!
//! The memo lives for one `acopy-lower` run ([`scope`]). It holds raw pointers
//! to ops and blocks: remembered ops are never erased by the lowering (only
//! acopy ops are), and [`erase_unused`] runs before the scope ends.

use std::cell::RefCell;

// The memo is hit once per op the lowering builds: Fx hashing of addresses
// instead of SipHash (no untrusted keys here, only pointers).
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use smallvec::SmallVec;

use melior::ir::{block::BlockLike, operation::OperationLike, OperationRef, RegionLike};
use mlir_sys::{MlirBlock, MlirOperation, MlirValue};

use super::op_names::{builtin, func, gpu, llvm, OpName};
use crate::scoped_memo::{self, Slot};

/// The function ops whose entry block takes kernel-level values.
const FUNCTION_OPS: [OpName; 3] = [gpu::FUNC, func::FUNC, llvm::FUNC];

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
    pub operands: SmallVec<[usize; 3]>,
    pub results: SmallVec<[usize; 1]>,
    pub attributes: SmallVec<[(&'static str, usize); 2]>,
}

/// Where a kernel-level op is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// Near the top of the entry block, where it dominates the whole function.
    Top,
    /// Where it was first built, in this block (address).
    InPlace(usize),
}

/// A kernel's maps start at about the size a few copies fill: grown from
/// empty, their rehashes (keys of a few words each) were a tenth of building
/// an op, with a thousand small kernels. 28 is what 32 buckets hold (32
/// would take 64, and 8 MB more with a thousand kernels). A kernel after the
/// first starts at the size the previous one reached, if larger
/// ([`kernel_mut`]): the kernels of one module tend to be alike, and one of
/// ten copies outgrew 28 and rehashed, 1.5 % of `--acopy-lower` (its new
/// tables growing the heap) on the bench's 1000 TMA kernels
/// (bench/RESULTS.md, 2026-12-06 afternoon).
const KERNEL_CAPACITY: usize = 28;
/// A block's in-place ops: most blocks (an `scf.if` a copy issues in) hold few.
const BLOCK_CAPACITY: usize = 4;

#[derive(Default)]
struct Kernel {
    /// The last op moved to the top: the next goes after it (or first in the block).
    last: Option<MlirOperation>,
    ops: HashMap<Key, MlirOperation>,
    /// Where each remembered op (address) is.
    places: HashMap<usize, Place>,
    /// The results of remembered ops (value addresses).
    values: HashSet<usize>,
    /// Remembered ops in the order they were built.
    built: Vec<MlirOperation>,
    /// Values computed from kernel-level values alone, by what they are and
    /// the block (or stand-in) they were asked for in ([`once_in_place`]).
    computed: HashMap<(usize, Computed), MlirValue>,
}

/// What a value of [`once_in_place`] is: which threads issue, in a block of
/// which size (`crate::lower::issuers`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Computed {
    /// Whether this thread is the first issuer.
    FirstIssuer {
        issuers: Option<(u32, u32)>,
        block: Option<[u32; 3]>,
    },
}

impl Kernel {
    fn sized(capacity: usize) -> Self {
        Self {
            ops: sized_map(capacity),
            places: sized_map(capacity),
            values: HashSet::with_capacity_and_hasher(capacity, Default::default()),
            built: Vec::with_capacity(capacity),
            ..Self::default()
        }
    }
}

/// The memo of the kernel whose entry block is `entry`, made if new: sized
/// for what the previous kernel made held, at least [`KERNEL_CAPACITY`].
fn kernel_mut(memo: &mut Memo, entry: usize) -> &mut Kernel {
    let Memo {
        kernels,
        last_kernel,
        ..
    } = memo;
    // Asked once per op built: the kernel made last costs no lookup more.
    let previous = match *last_kernel {
        Some(last) if last != entry && !kernels.contains_key(&entry) => {
            kernels.get(&last).map_or(0, |kernel| kernel.ops.len())
        }
        _ => 0,
    };
    kernels.entry(entry).or_insert_with(|| {
        *last_kernel = Some(entry);
        Kernel::sized(previous.max(KERNEL_CAPACITY))
    })
}

fn sized_map<K, V>(capacity: usize) -> HashMap<K, V> {
    HashMap::with_capacity_and_hasher(capacity, Default::default())
}

#[derive(Default)]
struct Memo {
    kernels: HashMap<usize, Kernel>,
    /// The entry block of the kernel made last ([`kernel_mut`]).
    last_kernel: Option<usize>,
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

/// Keeps the memo until the returned guard is dropped; the outermost one
/// forgets it.
pub(crate) fn scope() -> impl Sized {
    scoped_memo::enter(&MEMO)
}

/// The entry block that kernel-level values of `anchor`'s function go to, if
/// it may take them (module docs).
pub(crate) fn point_for(anchor: OperationRef) -> Option<Point> {
    let mut current = anchor.parent_operation()?;
    loop {
        let parent = current.parent_operation()?;
        if is_module(parent) {
            // `current` is the function.
            if !FUNCTION_OPS.iter().any(|name| super::is(&current, *name)) {
                return None;
            }
            let entry = current.region(0).ok()?.first_block()?;
            return Some(Point {
                entry: entry.to_raw(),
            });
        }
        // `current` lies between the acopy op and its function.
        if !name_is(current, |name| {
            name.starts_with("scf.") || name.starts_with("affine.")
        }) {
            return None;
        }
        current = parent;
    }
}

/// Whether `op`'s name satisfies `test` (read in place: this runs for every
/// ancestor of every acopy op).
fn name_is(op: OperationRef, test: impl FnOnce(&str) -> bool) -> bool {
    let name = op.name();
    name.as_string_ref().as_str().is_ok_and(test)
}

fn is_module(op: OperationRef) -> bool {
    super::is(&op, gpu::MODULE) || super::is(&op, builtin::MODULE)
}

/// What the memo says about a pure op with `key`, about to be inserted in the
/// block `place` (its address, or the stand-in of a body joined to an earlier
/// if: `super::build::joined_if`), in the function of `point` (if it takes
/// kernel-level values).
pub(crate) enum Lookup {
    /// Not kept: no run in progress. Build it in place.
    InPlace,
    /// Built before, where it dominates this use: reuse it.
    Found(MlirOperation),
    /// Kernel-level and new: build it in place and [`remember_kernel_level`] it.
    KernelLevel,
    /// New, not kernel-level: build it in place and [`remember_local`] it.
    Local,
}

pub(crate) fn lookup(point: Option<Point>, place: usize, key: &Key) -> Lookup {
    scoped_memo::with(&MEMO, |memo| {
        if let Some(point) = point {
            let kernel = kernel_mut(memo, point.entry.ptr as usize);
            if let Some(&op) = kernel.ops.get(key) {
                let here = Place::InPlace(place);
                if matches!(kernel.places.get(&(op.ptr as usize)), Some(&place) if place != Place::Top && place != here)
                {
                    // Asked for from another block: it (and what it uses)
                    // goes to the top, where it dominates every use.
                    to_top(kernel, point, op);
                }
                return Lookup::Found(op);
            }
            let kernel_level = key.operands.iter().all(|&operand| {
                kernel.values.contains(&operand) || is_entry_argument(point, operand)
            });
            if kernel_level {
                return Lookup::KernelLevel;
            }
        }
        match memo
            .local
            .get(&place)
            .and_then(|ops| ops.get(key))
        {
            Some(op) => Lookup::Found(*op),
            None => Lookup::Local,
        }
    })
    .unwrap_or(Lookup::InPlace)
}

/// The value `what` asked for in the block `place` of the kernel of `point`
/// had, if it was asked for there before ([`remember_computed`]). Such a value
/// is built from kernel-level ops alone, and after the first request each of
/// them is at the top or in place in that block, where [`lookup`] finds it
/// again without moving it: asking again gives the same value, with no op
/// built or moved, which this answer skips the lookups for.
pub(crate) fn computed(point: Point, place: usize, what: Computed) -> Option<MlirValue> {
    scoped_memo::with(&MEMO, |memo| {
        memo.kernels
            .get(&(point.entry.ptr as usize))
            .and_then(|kernel| kernel.computed.get(&(place, what)).copied())
    })
    .flatten()
}

/// Remembers `value`, what `what` asked for in the block `place` gave.
pub(crate) fn remember_computed(point: Point, place: usize, what: Computed, value: MlirValue) {
    scoped_memo::with(&MEMO, |memo| {
        kernel_mut(memo, point.entry.ptr as usize)
            .computed
            .insert((place, what), value);
    });
}

/// Remembers `op`, a kernel-level op just built in place in the block `place`.
pub(crate) fn remember_kernel_level(point: Point, place: usize, key: Key, op: MlirOperation) {
    scoped_memo::with(&MEMO, |memo| {
        let kernel = kernel_mut(memo, point.entry.ptr as usize);
        kernel.places.insert(op.ptr as usize, Place::InPlace(place));
        // SAFETY: `op` is a live op.
        let results = unsafe { mlir_sys::mlirOperationGetNumResults(op) };
        for index in 0..results {
            // SAFETY: `index` is below the number of results.
            let value = unsafe { mlir_sys::mlirOperationGetResult(op, index) };
            kernel.values.insert(value.ptr as usize);
        }
        let leaf = key.operands.is_empty();
        kernel.ops.insert(key, op);
        kernel.built.push(op);
        if leaf {
            // Constants and thread-index reads go to the top at once: they
            // cost nothing to keep there (LLVM folds constants into their
            // uses), and a constant in a loop body is not what a person writes.
            to_top(kernel, point, op);
        }
    });
}

/// Moves `op` to the top of the entry block, after the kernel-level values
/// moved there before, moving first the remembered ops it uses that are not
/// there yet (they were built before it, so the recursion ends).
fn to_top(kernel: &mut Kernel, point: Point, op: MlirOperation) {
    // SAFETY: remembered ops and their operands are live during the run.
    let operands = unsafe { mlir_sys::mlirOperationGetNumOperands(op) };
    for index in 0..operands {
        // SAFETY: `index` is below the number of operands.
        let operand = unsafe { mlir_sys::mlirOperationGetOperand(op, index) };
        // SAFETY: a live value.
        if unsafe { mlir_sys::mlirValueIsAOpResult(operand) } {
            // SAFETY: an op result has an owner.
            let owner = unsafe { mlir_sys::mlirOpResultGetOwner(operand) };
            if matches!(
                kernel.places.get(&(owner.ptr as usize)),
                Some(Place::InPlace(_))
            ) {
                to_top(kernel, point, owner);
            }
        }
    }
    // SAFETY: `op` and `last` are live ops of the function; the entry block is
    // live; moving an op within the function keeps it owned by the IR.
    unsafe {
        match kernel.last {
            Some(last) => mlir_sys::mlirOperationMoveAfter(op, last),
            None => {
                let first = mlir_sys::mlirBlockGetFirstOperation(point.entry);
                if first.ptr != op.ptr {
                    mlir_sys::mlirOperationMoveBefore(op, first);
                }
            }
        }
    }
    kernel.last = Some(op);
    kernel.places.insert(op.ptr as usize, Place::Top);
}

/// Remembers `op`, built in place in the block `place`, for later requests
/// with the same `key` in the same block.
pub(crate) fn remember_local(place: usize, key: Key, op: MlirOperation) {
    scoped_memo::with(&MEMO, |memo| {
        let block = place;
        memo.local
            .entry(block)
            .or_insert_with(|| sized_map(BLOCK_CAPACITY))
            .insert(key.clone(), op);
        memo.this_op.push((block, key, op));
    });
}

/// Ends the lowering of one acopy op: erases the ops it built in place that
/// nothing uses (an index computed for every chunk but needed by none), and
/// forgets them; returns those erased.
pub(crate) fn end_op() -> Vec<MlirOperation> {
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
    built
        .into_iter()
        .map(|(_, _, op)| op)
        .filter(|op| erased.contains(&(op.ptr as usize)))
        .collect()
}

/// Erases remembered kernel-level ops that nothing uses (a block size asked for but not
/// needed, say), latest first so that an op's users go before it.
pub(crate) fn erase_unused() {
    let placed: Vec<MlirOperation> = scoped_memo::with(&MEMO, |memo| {
        let mut all = Vec::new();
        for (_, mut kernel) in memo.kernels.drain() {
            all.append(&mut kernel.built);
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
    let mut erased = HashSet::default();
    for raw in built.into_iter().rev() {
        // Placed ops are live until erased here, once each.
        if unused(raw) {
            erased.insert(raw.ptr as usize);
            // SAFETY: the op is unused and attached; nothing refers to it after.
            unsafe { mlir_sys::mlirOperationDestroy(raw) };
        }
    }
    erased
}

/// Whether no result of the live op `op` has a use.
pub(crate) fn unused(op: MlirOperation) -> bool {
    // SAFETY: the caller passes a live op; its results are live with it.
    unsafe {
        (0..mlir_sys::mlirOperationGetNumResults(op)).all(|index| {
            mlir_sys::mlirValueGetFirstUse(mlir_sys::mlirOperationGetResult(op, index))
                .ptr
                .is_null()
        })
    }
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

#[cfg(test)]
mod tests {
    use melior::ir::{block::BlockLike, operation::OperationLike, Module, RegionLike, ValueLike};

    use super::{kernel_mut, Computed, Key, Memo, KERNEL_CAPACITY};
    use crate::ir::build::Builder;

    /// A new kernel's memo holds at least [`KERNEL_CAPACITY`] entries, or as
    /// many as the kernel made last, without a rehash; asking for a kernel
    /// made before gives that kernel's memo back and leaves the size to copy
    /// alone.
    #[test]
    fn a_new_kernel_is_sized_like_the_last_one() {
        let mut memo = Memo::default();
        assert!(kernel_mut(&mut memo, 1).ops.capacity() >= KERNEL_CAPACITY);
        let grown = 3 * KERNEL_CAPACITY;
        for operand in 0..grown {
            let key = Key {
                name: "test.op",
                operands: [operand].into_iter().collect(),
                results: Default::default(),
                attributes: Default::default(),
            };
            // Never dereferenced: the memo only keeps the address.
            let op = mlir_sys::MlirOperation {
                ptr: std::ptr::null_mut(),
            };
            kernel_mut(&mut memo, 1).ops.insert(key, op);
        }
        let second = kernel_mut(&mut memo, 2);
        assert!(second.ops.capacity() >= grown);
        assert!(second.places.capacity() >= grown);
        assert!(second.values.capacity() >= grown);
        assert!(second.built.capacity() >= grown);
        assert_eq!(kernel_mut(&mut memo, 1).ops.len(), grown);
        assert_eq!(memo.last_kernel, Some(2));
        // Kernel 3 follows kernel 2, which holds nothing: back to the floor.
        let third = kernel_mut(&mut memo, 3).ops.capacity();
        assert!((KERNEL_CAPACITY..grown).contains(&third));
    }

    /// A value asked for again in the same block of the same kernel is the
    /// first answer, with nothing computed again; in another block, or for
    /// another block size, it is computed again; with no run in progress,
    /// every time.
    #[test]
    fn a_computed_value_is_found_again_in_its_block() {
        let context = crate::context::create_context().expect("context");
        let module = Module::parse(
            &context,
            "func.func @f(%p: i1) {\n  scf.if %p {\n  }\n  return\n}",
        )
        .expect("parses");
        let entry = module
            .body()
            .first_operation()
            .and_then(|function| function.region(0).ok()?.first_block())
            .expect("an entry block");
        let branch = entry.first_operation().expect("the if");
        let inner_end = branch
            .region(0)
            .ok()
            .and_then(|region| region.first_block()?.terminator())
            .expect("the if's yield");
        let end = entry.terminator().expect("the return");
        let what = |block| Computed::FirstIssuer {
            issuers: None,
            block,
        };
        // The value's address, as the values outlive no builder here.
        let count = |b: &Builder, what, computed: &mut usize| -> usize {
            b.once_in_place(what, |b| {
                *computed += 1;
                b.index(7)
            })
            .expect("builds")
            .to_raw()
            .ptr as usize
        };
        let mut computed = 0;
        {
            let _memo = super::scope();
            let top = Builder::before(&context, end).expect("a builder");
            let first = count(&top, what(None), &mut computed);
            assert_eq!(count(&top, what(None), &mut computed), first);
            assert_eq!(computed, 1);
            count(&top, what(Some([32, 1, 1])), &mut computed);
            assert_eq!(computed, 2);
            let inside = Builder::before(&context, inner_end).expect("a builder");
            assert_eq!(count(&inside, what(None), &mut computed), first);
            assert_eq!(computed, 3);
        }
        let top = Builder::before(&context, end).expect("a builder");
        count(&top, what(None), &mut computed);
        count(&top, what(None), &mut computed);
        assert_eq!(computed, 5);
    }
}
