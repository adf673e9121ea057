//! What one agent knows has happened before its next event: a vector clock over agents, plus
//! the number of barriers it knows each work-group has passed.
//!
//! A plain vector clock (Lamport 1978; Fidge and Mattern 1988) would carry one entry per
//! work-item, and a barrier of a 256-item group would join 256 clocks of 65,536 entries. GPU
//! kernels synchronise mostly through barriers, so knowledge of a group is kept as the number
//! of barriers it has passed: an access made before a group's k-th barrier (by a work-item
//! that fenced its memory there) happens before anything that knows the group passed k. Entries for single agents are
//! needed only where atomics, fences, warps or async copies connect them, so both maps are
//! sparse sorted vectors.

use std::rc::Rc;

/// A sparse vector clock with barrier counts.
///
/// Most agents of a large launch never learn anything (a vector add has no synchronisation at
/// all), so an empty clock is a null pointer: the two lists live behind one shared pointer
/// that is made on the first thing learned. An agent's four clocks then cost four words until
/// it synchronises.
///
/// The lists are shared between clocks that know the same and copied on the first write to
/// one of them (`Rc::make_mut`). Synchronisation makes many agents know exactly the same
/// thing: after a barrier every member, and in a lockstep warp every lane after every
/// instruction. Sharing makes handing that knowledge to each of them, and comparing two clocks
/// that share it, cost nothing per entry; it also makes forking a machine copy no list.
#[derive(Clone, Debug, Default)]
pub struct Knowledge {
    lists: Option<Rc<Lists>>,
}

/// The lists of a clock that knows something.
#[derive(Clone, Debug, Default)]
struct Lists {
    /// `(agent, clock)`, sorted by agent: every event of `agent` up to its `clock`-th happens
    /// before.
    items: Vec<(u32, u32)>,
    /// `(group, barriers)`, sorted by group: the group is known to have passed that many
    /// barriers, so what its members did before a barrier among those (in the memory they
    /// fenced there) happens before.
    groups: Vec<(u32, u32)>,
}

/// Two clocks are equal when they know the same, however their storage came about.
impl PartialEq for Knowledge {
    fn eq(&self, other: &Knowledge) -> bool {
        self.shares(other) || self.items() == other.items() && self.groups() == other.groups()
    }
}

impl Eq for Knowledge {}

impl Knowledge {
    /// The bytes its lists take, and their address, which clocks that share the lists have in
    /// common (so a sum over many clocks can count each list once); `None` for an empty clock.
    pub fn storage(&self) -> Option<(*const (), usize)> {
        self.lists.as_ref().map(|l| (Rc::as_ptr(l).cast::<()>(), std::mem::size_of::<Lists>() + 16 + (l.items.capacity() + l.groups.capacity()) * 8))
    }

    fn items(&self) -> &[(u32, u32)] {
        self.lists.as_ref().map_or(&[], |l| &l.items)
    }

    fn groups(&self) -> &[(u32, u32)] {
        self.lists.as_ref().map_or(&[], |l| &l.groups)
    }

    /// The lists to change: this clock's own, copied first if another clock shares them.
    fn lists_mut(&mut self) -> &mut Lists {
        Rc::make_mut(self.lists.get_or_insert_with(Default::default))
    }

    /// The last event of `agent` known to happen before (0: none).
    pub fn item(&self, agent: u32) -> u32 {
        let items = self.items();
        match items.binary_search_by_key(&agent, |&(a, _)| a) {
            Ok(k) => items[k].1,
            Err(_) => 0,
        }
    }

    /// How many barriers `group` is known to have passed.
    pub fn group(&self, group: u32) -> u32 {
        let groups = self.groups();
        match groups.binary_search_by_key(&group, |&(g, _)| g) {
            Ok(k) => groups[k].1,
            Err(_) => 0,
        }
    }

    /// Learns that `agent`'s events up to `clock` happen before.
    pub fn learn_item(&mut self, agent: u32, clock: u32) {
        let items = &mut self.lists_mut().items;
        match items.binary_search_by_key(&agent, |&(a, _)| a) {
            Ok(k) => items[k].1 = items[k].1.max(clock),
            Err(k) => items.insert(k, (agent, clock)),
        }
    }

    /// Learns that `group` has passed `barriers` barriers.
    pub fn learn_group(&mut self, group: u32, barriers: u32) {
        let groups = &mut self.lists_mut().groups;
        match groups.binary_search_by_key(&group, |&(g, _)| g) {
            Ok(k) => groups[k].1 = groups[k].1.max(barriers),
            Err(k) => groups.insert(k, (group, barriers)),
        }
    }

    /// Learns everything `other` knows (the pointwise maximum).
    pub fn join(&mut self, other: &Knowledge) {
        // Barriers join many clocks that are mostly equal; those joins must not allocate.
        if other.is_empty() || self == other {
            return;
        }
        if self.is_empty() {
            // Knowing nothing, it comes to know exactly what `other` knows: share it.
            *self = other.clone();
            return;
        }
        let (theirs_items, theirs_groups) = (other.items(), other.groups());
        let mine = self.lists_mut();
        merge_into(&mut mine.items, theirs_items, u32::max);
        merge_into(&mut mine.groups, theirs_groups, u32::max);
    }

    pub fn is_empty(&self) -> bool {
        self.items().is_empty() && self.groups().is_empty()
    }

    /// Whether the two clocks share their lists (and so know the same), which takes no
    /// comparison of entries.
    pub fn shares(&self, other: &Knowledge) -> bool {
        matches!((&self.lists, &other.lists), (Some(mine), Some(theirs)) if Rc::ptr_eq(mine, theirs))
    }
}

/// Merges `b` into `a`, both sorted by key, combining the values of equal keys, in `a`'s own
/// storage. The merged list is filled from its end, so no entry of `a` is overwritten before
/// it is read, and nothing is allocated once `a` has room.
fn merge_into<V: Copy>(a: &mut Vec<(u32, V)>, b: &[(u32, V)], combine: impl Fn(V, V) -> V) {
    let Some(&filler) = b.first() else { return };
    // The merged length: every key of `a`, and those of `b` that `a` lacks.
    let (mut i, mut j, mut extra) = (0, 0, 0);
    while j < b.len() {
        if i < a.len() && a[i].0 < b[j].0 {
            i += 1;
        } else {
            if i == a.len() || a[i].0 != b[j].0 {
                extra += 1;
            } else {
                i += 1;
            }
            j += 1;
        }
    }
    let old = a.len();
    a.resize(old + extra, filler);
    let (mut i, mut j, mut k) = (old, b.len(), old + extra);
    while j > 0 {
        k -= 1;
        if i > 0 && a[i - 1].0 > b[j - 1].0 {
            a[k] = a[i - 1];
            i -= 1;
        } else if i > 0 && a[i - 1].0 == b[j - 1].0 {
            a[k] = (b[j - 1].0, combine(a[i - 1].1, b[j - 1].1));
            i -= 1;
            j -= 1;
        } else {
            a[k] = b[j - 1];
            j -= 1;
        }
    }
    // What is left of `a` (keys below all of `b`'s) is already where it belongs.
    debug_assert_eq!(i, k);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_is_the_pointwise_maximum() {
        let mut a = Knowledge::default();
        a.learn_item(3, 5);
        a.learn_item(9, 1);
        a.learn_group(0, 2);
        let mut b = Knowledge::default();
        b.learn_item(3, 2);
        b.learn_item(4, 7);
        b.learn_group(0, 3);
        b.learn_group(2, 1);
        a.join(&b);
        assert_eq!((a.item(3), a.item(4), a.item(9), a.item(5)), (5, 7, 1, 0));
        assert_eq!((a.group(0), a.group(2), a.group(1)), (3, 1, 0));
    }
}

/// The laws that make knowledge a join-semilattice: joining is commutative, associative and
/// idempotent, and the result knows at least what each side knew.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod laws {
    use super::*;
    use proptest::prelude::*;

    fn knowledge() -> impl Strategy<Value = Knowledge> {
        (prop::collection::vec((0u32..12, 0u32..50), 0..8), prop::collection::vec((0u32..4, 0u32..6), 0..4)).prop_map(|(items, groups)| {
            let mut k = Knowledge::default();
            for (a, c) in items {
                k.learn_item(a, c);
            }
            for (g, n) in groups {
                k.learn_group(g, n);
            }
            k
        })
    }

    fn join(a: &Knowledge, b: &Knowledge) -> Knowledge {
        let mut out = a.clone();
        out.join(b);
        out
    }

    /// Happens-before between two points of knowledge: everything `a` knows, `b` knows.
    fn leq(a: &Knowledge, b: &Knowledge) -> bool {
        (0..12).all(|agent| a.item(agent) <= b.item(agent)) && (0..4).all(|g| a.group(g) <= b.group(g))
    }

    /// What `k` knows about every agent and group of the generated domain. Two clocks may
    /// store it differently (an explicit zero entry, or none) and still know the same.
    fn view(k: &Knowledge) -> (Vec<u32>, Vec<u32>) {
        ((0..12).map(|a| k.item(a)).collect(), (0..4).map(|g| k.group(g)).collect())
    }

    proptest! {
        #[test]
        fn join_is_commutative(a in knowledge(), b in knowledge()) {
            prop_assert_eq!(join(&a, &b), join(&b, &a));
        }

        #[test]
        fn join_is_associative(a in knowledge(), b in knowledge(), c in knowledge()) {
            prop_assert_eq!(join(&join(&a, &b), &c), join(&a, &join(&b, &c)));
        }

        /// The order knowledge defines is a partial order (reflexive, antisymmetric,
        /// transitive), and the join is its least upper bound: `a <= b` exactly when joining
        /// `a` into `b` teaches `b` nothing.
        #[test]
        fn knowing_less_is_a_partial_order_with_join_as_least_upper_bound(a in knowledge(), b in knowledge(), c in knowledge()) {
            prop_assert!(leq(&a, &a));
            if leq(&a, &b) && leq(&b, &a) {
                prop_assert_eq!(view(&a), view(&b));
            }
            if leq(&a, &b) && leq(&b, &c) {
                prop_assert!(leq(&a, &c));
            }
            prop_assert_eq!(leq(&a, &b), view(&join(&b, &a)) == view(&b));
            let j = join(&a, &b);
            prop_assert!(leq(&a, &j) && leq(&b, &j));
            if leq(&a, &c) && leq(&b, &c) {
                prop_assert!(leq(&j, &c));
            }
        }

        #[test]
        fn join_is_idempotent_and_an_upper_bound(a in knowledge(), b in knowledge()) {
            prop_assert_eq!(join(&a, &a), a.clone());
            let j = join(&a, &b);
            // Lookups search the lists, so a join must keep each strictly sorted by key.
            prop_assert!(j.items().windows(2).all(|w| w[0].0 < w[1].0), "{:?}", j.items());
            prop_assert!(j.groups().windows(2).all(|w| w[0].0 < w[1].0), "{:?}", j.groups());
            for agent in 0..12 {
                prop_assert_eq!(j.item(agent), a.item(agent).max(b.item(agent)));
            }
            for g in 0..4 {
                prop_assert_eq!(j.group(g), a.group(g).max(b.group(g)));
            }
        }
    }
}
