//! Copying a state into one that already holds allocations of its own.
//!
//! Exploration restores the launched machine before every run, thousands of times a second,
//! and certifying a promise copies the machine for a solo run. `#[derive(Clone)]` gives a
//! type a `clone_from` that clones the source whole and drops the destination, so every copy
//! frees and allocates again each of the machine's many small vectors; under wasm's allocator
//! that was the largest single cost of a run. [`clone_fields!`] implements `Clone` field by
//! field instead: its `clone_from` calls each field's own `clone_from`, so a `Vec` keeps its
//! capacity and a `Vec` of such structs reuses each element's allocations, down to the
//! leaves. `clone` is the plain field-by-field copy that `derive` would write.
//!
//! The macro destructures the struct exhaustively, so a field added later without being
//! listed is a compile error, never a field silently left out of a copy.

/// Implements `Clone` for a struct with named fields, listing every field: `clone` copies
/// each one and `clone_from` copies each one into the destination's own field with that
/// field's `clone_from`.
macro_rules! clone_fields {
    ($ty:ident { $($field:ident),* $(,)? }) => {
        impl Clone for $ty {
            fn clone(&self) -> Self {
                let $ty { $($field),* } = self;
                $ty { $($field: Clone::clone($field)),* }
            }

            fn clone_from(&mut self, source: &Self) {
                let $ty { $($field),* } = source;
                $(Clone::clone_from(&mut self.$field, $field);)*
            }
        }
    };
}

pub(crate) use clone_fields;

/// Makes `slot` hold a copy of `kept`, or nothing, copying into the box it already holds
/// when there is one.
pub fn clone_boxed_into<T: Clone>(slot: &mut Option<Box<T>>, kept: Option<&T>) {
    match (slot.as_mut(), kept) {
        (Some(mine), Some(kept)) => (**mine).clone_from(kept),
        (None, Some(kept)) => *slot = Some(Box::new(kept.clone())),
        (_, None) => *slot = None,
    }
}
