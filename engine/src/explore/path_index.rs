//! Which steps of the exhaustive search's path may depend on a step about to be taken.
//!
//! Partial-order reduction looks, at every new state, for the earlier steps of the path that
//! race with each enabled agent's next step (`add_backtrack_points`), and for each race, for
//! the steps after it that depend on nothing before them (`add_sources`). Asked of every step
//! of the path, those questions cost the path's length times the enabled agents at every
//! state, and again for every race: on the gallery's reduction (1,024 work-items), four fifths
//! of the search offered after a seed exploration, and minutes for an exhaustive one to
//! reach a thousand steps, nearly all of it answering "no" for steps that touch other memory.
//!
//! The index keeps the path's steps listed by what they touch, so that a question reads only
//! the lists that can answer "yes": a memory access is listed under each 8-byte chunk its
//! bytes cover and under whether it writes (two reads never depend), a barrier under its
//! group, a fence, heap or `printf` step under its kind, and a step that depends on everything
//! in a list every question reads. What it answers is a superset of the dependent steps, in
//! increasing order, and the caller applies the exact test ([`super::dependent`]) to each:
//! the backtrack points are the ones the scan of the whole path finds, in the same order.
//!
//! The path changes only at its end (the search is depth-first), so the index follows it by
//! removing the steps from the first one that differs and listing the new ones; each list is
//! in increasing position, so a removed step is the last entry of each of its lists.

use rustc_hash::FxHashMap;

use super::Footprint;

/// A chunk of memory covers `1 << CHUNK_SHIFT` bytes.
const CHUNK_SHIFT: u32 = 3;
/// A memory step over more chunks than this is listed once, under its allocation
/// ([`Key::Wide`]), and a question about one is answered with every step of the path.
const MAX_CHUNKS: u64 = 4;

/// What a list of the index holds: steps that touch this.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Key {
    /// Memory accesses that cover this chunk and write (or only read) it.
    Chunk { space: u8, owner: u32, alloc: u32, chunk: u64, write: bool },
    /// Memory accesses of this allocation over more than [`MAX_CHUNKS`] chunks.
    Wide { space: u8, owner: u32, alloc: u32, write: bool },
    /// Steps of this footprint, when it is not memory: a group's barrier, an SC fence, the heap,
    /// `printf`, or everything (each depends on its own kind alone, and everything on all).
    Other(Footprint),
}

/// The chunks `start..end` covers, or `None` when they are too many to list.
fn chunks(start: u64, end: u64) -> Option<std::ops::RangeInclusive<u64>> {
    // An empty range (a footprint at the very end of the address space) touches nothing, and
    // listing it as wide keeps the index a superset all the same.
    if end <= start {
        return None;
    }
    let (first, last) = (start >> CHUNK_SHIFT, (end - 1) >> CHUNK_SHIFT);
    (last - first < MAX_CHUNKS).then_some(first..=last)
}

/// Calls `f` with each key a step of footprint `fp` is listed under.
fn keys_of(fp: Footprint, mut f: impl FnMut(Key)) {
    match fp {
        Footprint::Nothing => {}
        Footprint::Memory { space, owner, alloc, start, end, write } => match chunks(start, end) {
            Some(range) => range.for_each(|chunk| f(Key::Chunk { space, owner, alloc, chunk, write })),
            None => f(Key::Wide { space, owner, alloc, write }),
        },
        other => f(Key::Other(other)),
    }
}

/// Calls `f` with each key whose list may hold a step dependent with a step of footprint `fp`
/// (at most `2 * MAX_CHUNKS + 3` of them); `true` when no list can say, and every step must be
/// looked at.
fn question_keys(fp: Footprint, mut f: impl FnMut(Key)) -> bool {
    match fp {
        Footprint::Nothing => return false,
        Footprint::Everything => return true,
        Footprint::Memory { space, owner, alloc, start, end, write } => {
            let Some(range) = chunks(start, end) else { return true };
            // A read depends only on writes; a write on both.
            for w in [true, false].into_iter().filter(|&w| w || write) {
                for chunk in range.clone() {
                    f(Key::Chunk { space, owner, alloc, chunk, write: w });
                }
                f(Key::Wide { space, owner, alloc, write: w });
            }
        }
        other => f(Key::Other(other)),
    }
    f(Key::Other(Footprint::Everything));
    false
}

/// The path's steps (agent and footprint, by position), listed by what they touch.
#[derive(Debug, Default)]
pub(super) struct PathIndex {
    steps: Vec<(u32, Footprint)>,
    lists: FxHashMap<Key, Vec<u32>>,
    /// Scratch for merging lists.
    merged: Vec<u32>,
}

impl PathIndex {
    /// Makes the index that of `path`: the steps on the path, in order (`(agent, footprint)`).
    pub(super) fn sync(&mut self, path: impl Iterator<Item = (u32, Footprint)>) {
        let mut path = path.peekable();
        let mut same = 0;
        while same < self.steps.len() && path.next_if(|&step| step == self.steps[same]).is_some() {
            same += 1;
        }
        self.truncate(same);
        for step in path {
            self.push(step);
        }
    }

    /// Empties the index, keeping its lists' allocations.
    pub(super) fn clear(&mut self) {
        self.truncate(0);
    }

    /// Removes the steps from position `len` on.
    fn truncate(&mut self, len: usize) {
        while self.steps.len() > len {
            let (_, fp) = self.steps.pop().expect("there is a step to remove");
            let at = self.steps.len() as u32;
            keys_of(fp, |key| {
                let list = self.lists.get_mut(&key).expect("a listed step has its list");
                debug_assert_eq!(list.last(), Some(&at), "the path's last step is last in its lists");
                list.pop();
            });
        }
    }

    /// Adds `step` (agent and footprint) after the last one.
    pub(super) fn push(&mut self, step: (u32, Footprint)) {
        let at = self.steps.len() as u32;
        keys_of(step.1, |key| self.lists.entry(key).or_default().push(at));
        self.steps.push(step);
    }

    /// Whether some step of the index is dependent with a step of footprint `fp`.
    pub(super) fn any_dependent(&self, fp: Footprint) -> bool {
        let dependent = |i: &u32| super::dependent(self.steps[*i as usize].1, fp);
        let mut found = false;
        let whole = question_keys(fp, |key| found = found || self.lists.get(&key).is_some_and(|list| list.iter().any(&dependent)));
        if whole {
            return self.steps.iter().any(|&(_, f)| super::dependent(f, fp));
        }
        found
    }

    /// The path's steps.
    pub(super) fn steps(&self) -> &[(u32, Footprint)] {
        &self.steps
    }

    /// Positions of the path, in increasing order, that include every step dependent with a
    /// step of footprint `fp`, into `out` (emptied first).
    pub(super) fn candidates(&mut self, fp: Footprint, out: &mut Vec<u32>) {
        out.clear();
        let mut lists: [Option<&[u32]>; MAX_CHUNKS as usize * 2 + 3] = [None; MAX_CHUNKS as usize * 2 + 3];
        let mut n = 0;
        let whole = question_keys(fp, |key| {
            if let Some(list) = self.lists.get(&key).filter(|l| !l.is_empty()) {
                lists[n] = Some(list);
                n += 1;
            }
        });
        if whole {
            out.extend(0..self.steps.len() as u32);
            return;
        }
        for list in lists[..n].iter().flatten() {
            if out.is_empty() {
                out.extend_from_slice(list);
            } else {
                merge_into(out, list, &mut self.merged);
            }
        }
    }
}

/// Makes `out` the sorted union, without repeats, of the increasing lists `out` and `list`.
fn merge_into(out: &mut Vec<u32>, list: &[u32], scratch: &mut Vec<u32>) {
    scratch.clear();
    let (mut i, mut j) = (0, 0);
    while i < out.len() && j < list.len() {
        let (a, b) = (out[i], list[j]);
        scratch.push(a.min(b));
        i += usize::from(a <= b);
        j += usize::from(b <= a);
    }
    scratch.extend_from_slice(&out[i..]);
    scratch.extend_from_slice(&list[j..]);
    std::mem::swap(out, scratch);
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn footprint() -> impl Strategy<Value = Footprint> {
        prop_oneof![
            Just(Footprint::Nothing),
            Just(Footprint::Everything),
            Just(Footprint::ScFence),
            Just(Footprint::Heap),
            Just(Footprint::Printf),
            (0u32..3).prop_map(Footprint::Group),
            // Narrow and wide accesses over a few allocations, owners and spaces, at any
            // offset, so that ranges overlap, touch and straddle chunks.
            (0u8..2, 0u32..2, 0u32..2, 0u64..80, prop_oneof![1u64..=8, 9u64..=40, 60u64..=120], any::<bool>())
                .prop_map(|(space, owner, alloc, start, len, write)| Footprint::Memory { space, owner, alloc, start, end: start + len, write }),
        ]
    }

    proptest! {
        /// Whatever the path went through, the index answers exactly the dependent steps of
        /// the path it was last synced to, once the exact test is applied, in increasing
        /// order: the steps a scan of the whole path finds.
        #[test]
        fn the_index_finds_what_the_scan_finds(
            paths in prop::collection::vec(prop::collection::vec((0u32..4, footprint()), 0..40), 1..5),
            cut in prop::collection::vec(0usize..40, 5),
            questions in prop::collection::vec(footprint(), 1..12),
        ) {
            let mut index = PathIndex::default();
            let mut out = Vec::new();
            // Each path after the first shares a prefix with the one before, as a depth-first
            // search's paths do (and sometimes nothing).
            let mut path: Vec<(u32, Footprint)> = Vec::new();
            for (k, next) in paths.iter().enumerate() {
                path.truncate(cut[k].min(path.len()));
                path.extend(next.iter().copied());
                // Followed by syncing, or built again step by step.
                if k % 2 == 0 {
                    index.sync(path.iter().copied());
                } else {
                    index.clear();
                    path.iter().for_each(|&step| index.push(step));
                }
                prop_assert_eq!(index.steps(), &path[..]);
                for &q in &questions {
                    prop_assert_eq!(index.any_dependent(q), path.iter().any(|&(_, f)| super::super::dependent(f, q)));
                    index.candidates(q, &mut out);
                    prop_assert!(out.windows(2).all(|w| w[0] < w[1]), "increasing, without repeats: {:?}", out);
                    let found: Vec<u32> = out.iter().copied().filter(|&i| super::super::dependent(path[i as usize].1, q)).collect();
                    let scanned: Vec<u32> = (0..path.len() as u32).filter(|&i| super::super::dependent(path[i as usize].1, q)).collect();
                    prop_assert_eq!(found, scanned);
                }
            }
        }
    }

    #[test]
    fn merging_keeps_order_and_drops_repeats() {
        let mut out = vec![1, 4, 6, 9];
        let mut scratch = Vec::new();
        merge_into(&mut out, &[0, 4, 5, 9, 12], &mut scratch);
        assert_eq!(out, [0, 1, 4, 5, 6, 9, 12]);
        merge_into(&mut out, &[], &mut scratch);
        assert_eq!(out, [0, 1, 4, 5, 6, 9, 12]);
    }
}
