//! One mechanism for the memos that live for the length of a pass run (or of
//! one verification walk): a thread-local value, kept while at least one
//! [`Guard`] over it is held and reset when the outermost one is dropped (also
//! on unwinding, so a panicking pass forgets it too). Outside a guard nothing
//! is kept and [`with`] answers `None`, so a library caller checking one op
//! gets an uncached answer.
//!
//! Each memo chooses its own lifetime by where its guard is taken: memos keyed
//! by uniqued types and attributes may span a whole `acopy-lower` run, while
//! one keyed by op addresses must end before any op is erased.

use std::{cell::RefCell, thread::LocalKey};

/// A memo and the number of live guards over it.
#[derive(Default)]
pub(crate) struct Slot<T> {
    depth: usize,
    memo: T,
}

/// The thread-local a memo lives in.
pub(crate) type Key<T> = LocalKey<RefCell<Slot<T>>>;

/// Keeps the memo in `key` alive until dropped.
pub(crate) struct Guard<T: Default + 'static>(&'static Key<T>);

pub(crate) fn enter<T: Default>(key: &'static Key<T>) -> Guard<T> {
    key.with(|slot| slot.borrow_mut().depth += 1);
    Guard(key)
}

impl<T: Default> Drop for Guard<T> {
    fn drop(&mut self) {
        self.0.with(|slot| {
            let mut slot = slot.borrow_mut();
            slot.depth -= 1;
            if slot.depth == 0 {
                slot.memo = T::default();
            }
        });
    }
}

/// `f` on the memo in `key` when a guard is held, else `None`. `f` must not
/// reach the same memo again (compute outside, then store).
pub(crate) fn with<T, R>(key: &'static Key<T>, f: impl FnOnce(&mut T) -> R) -> Option<R> {
    key.with(|slot| {
        let mut slot = slot.borrow_mut();
        (slot.depth > 0).then(|| f(&mut slot.memo))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        static COUNT: RefCell<Slot<u32>> = RefCell::default();
    }

    #[test]
    fn the_memo_lives_while_a_guard_is_held_and_resets_after_the_outermost() {
        assert_eq!(with(&COUNT, |n| *n += 1), None);
        let outer = enter(&COUNT);
        assert_eq!(
            with(&COUNT, |n| {
                *n += 1;
                *n
            }),
            Some(1)
        );
        {
            let _inner = enter(&COUNT);
            assert_eq!(
                with(&COUNT, |n| {
                    *n += 1;
                    *n
                }),
                Some(2)
            );
        }
        // The inner guard's end keeps the memo: the outer one is still held.
        assert_eq!(with(&COUNT, |n| *n), Some(2));
        drop(outer);
        assert_eq!(with(&COUNT, |n| *n), None);
        let _again = enter(&COUNT);
        assert_eq!(with(&COUNT, |n| *n), Some(0));
    }
}
