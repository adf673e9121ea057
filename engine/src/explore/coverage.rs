//! What an exploration covered: its runs up to reordering independent steps.
//!
//! Two runs that differ only in the order of independent steps (the exhaustive search's
//! dependency: [`super::dependent`] over [`super::Footprint`]s, plus program order within an
//! agent) are one Mazurkiewicz trace, and end the same way. Each run is named by a hash of
//! its trace's Foata normal form: every step gets a level, one more than the highest level
//! of the earlier steps it depends on, and the hash is of the multiset of (level, agent,
//! what the step is). Equivalent runs give the same multiset; runs that order two dependent
//! steps differently give different levels to them.
//!
//! The multiset is hashed as the sum of its elements' hashes (an additive multiset hash, as
//! in Clarke et al., "Incremental Multiset Hash Functions and Their Application to Memory
//! Integrity Checking", 2003), so that a run costs one addition a step and no memory: the
//! order the steps came in cannot change a sum. No two steps of a run are the same element
//! (an agent's levels increase), and two different multisets collide only when their sums of
//! 64-bit hashes do, as likely as two hashes colliding.

use rustc_hash::FxHashMap;
use std::collections::BTreeSet;

#[cfg(test)]
use super::dependent;
use super::Footprint;

/// The most distinct hashes an exploration keeps; past it the count is a lower bound.
pub const MAX_CLASSES: usize = 1_000_000;

/// The distinct trace hashes of an exploration's runs, at most [`MAX_CLASSES`] of them.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Classes {
    pub hashes: BTreeSet<u64>,
    /// A hash was left out because the set was full.
    pub capped: bool,
}

impl Classes {
    pub fn add(&mut self, hash: u64) {
        if self.hashes.len() < MAX_CLASSES {
            self.hashes.insert(hash);
        } else if !self.hashes.contains(&hash) {
            self.capped = true;
        }
    }

    /// The union, keeping the smallest hashes past the cap so that the result does not depend
    /// on how the runs were split.
    pub fn union(&mut self, hashes: &[u64], capped: bool) {
        self.hashes.extend(hashes.iter().copied());
        self.capped |= capped;
        while self.hashes.len() > MAX_CLASSES {
            self.hashes.pop_last();
            self.capped = true;
        }
    }
}

/// A 4-byte word of memory: space, owner, allocation and offset / 4.
type Word = (u8, u32, u32, u64);

/// Builds one run's Foata levels step by step, keeping, for every resource a step can touch,
/// the highest level of the steps that touched it, so that a step's level costs its own
/// footprint rather than a look at the whole run. It agrees with [`naive_levels`], the
/// definition, which a test checks.
#[derive(Default)]
pub(super) struct Foata {
    /// The level of each agent's latest step (program order).
    agent: Vec<u32>,
    /// The highest level of any step that touches something, and of any that touches
    /// everything.
    touching: u32,
    everything: u32,
    /// By 4-byte word of memory, for each of its bytes: the highest level of a write and of
    /// a read there. Bytes are what two steps must share to depend; the words only make one
    /// lookup serve a whole access.
    memory: FxHashMap<Word, [(u32, u32); 4]>,
    /// By work-group: the level of its latest barrier, collective or async copy.
    group: Vec<u32>,
    sc_fence: u32,
    heap: u32,
    printf: u32,
    /// The sum of the steps' hashes (each with its level), and how many there were.
    sum: u64,
    steps: u64,
}

impl Foata {
    pub fn clear(&mut self) {
        self.agent.clear();
        self.touching = 0;
        self.everything = 0;
        self.memory.clear();
        self.group.clear();
        self.sc_fence = 0;
        self.heap = 0;
        self.printf = 0;
        self.sum = 0;
        self.steps = 0;
    }

    /// Adds the next step: `agent` touching `fp`; `label` says what the step is (its
    /// instruction and decisions). Returns its level.
    pub fn push(&mut self, agent: u32, fp: Footprint, label: u64) -> u32 {
        // A promise step (`agent | PROMISE`) is in its work-item's program order.
        let who = (agent & !crate::exec::PROMISE) as usize;
        if self.agent.len() <= who {
            self.agent.resize(who + 1, 0);
        }
        let mut level = self.agent[who];
        match fp {
            Footprint::Nothing => {}
            Footprint::Everything => level = level.max(self.touching),
            // An access within one word (nearly every one) looks the word up once, to read
            // its levels and then raise them.
            Footprint::Memory { space, owner, alloc, start, end, write } if end > start && start / 4 == (end - 1) / 4 => {
                let levels = self.memory.entry((space, owner, alloc, start / 4)).or_insert([(0, 0); 4]);
                let within = (start % 4) as usize..(end - start / 4 * 4) as usize;
                let level = above(&levels[within.clone()], write, level.max(self.everything)) + 1;
                raise(&mut levels[within], write, level);
                return self.record(who, agent, fp, label, level);
            }
            Footprint::Memory { space, owner, alloc, start, end, write } => {
                level = level.max(self.everything);
                for (word, within) in words(start, end) {
                    if let Some(levels) = self.memory.get(&(space, owner, alloc, word)) {
                        level = above(&levels[within], write, level);
                    }
                }
            }
            Footprint::Group(g) => level = level.max(self.everything).max(self.group.get(g as usize).copied().unwrap_or(0)),
            Footprint::ScFence => level = level.max(self.everything).max(self.sc_fence),
            Footprint::Heap => level = level.max(self.everything).max(self.heap),
            Footprint::Printf => level = level.max(self.everything).max(self.printf),
        }
        let level = level + 1;
        match fp {
            Footprint::Nothing => {}
            Footprint::Everything => self.everything = level,
            Footprint::Memory { space, owner, alloc, start, end, write } => {
                for (word, within) in words(start, end) {
                    let levels = self.memory.entry((space, owner, alloc, word)).or_insert([(0, 0); 4]);
                    raise(&mut levels[within], write, level);
                }
            }
            Footprint::Group(g) => {
                let g = g as usize;
                if self.group.len() <= g {
                    self.group.resize(g + 1, 0);
                }
                self.group[g] = level;
            }
            Footprint::ScFence => self.sc_fence = level,
            Footprint::Heap => self.heap = level,
            Footprint::Printf => self.printf = level,
        }
        self.record(who, agent, fp, label, level)
    }

    /// Gives the step of `agent` (`who` its work-item) `level`, and adds it to the run's hash.
    fn record(&mut self, who: usize, agent: u32, fp: Footprint, label: u64, level: u32) -> u32 {
        self.agent[who] = level;
        if fp != Footprint::Nothing {
            self.touching = self.touching.max(level);
        }
        self.sum = self.sum.wrapping_add(step_hash(level, agent, fp, label));
        self.steps += 1;
        level
    }

    /// The hash of the run so far: of the multiset of its steps.
    pub fn hash(&self) -> u64 {
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&self.sum.to_le_bytes());
        bytes[8..].copy_from_slice(&self.steps.to_le_bytes());
        xxhash_rust::xxh3::xxh3_64(&bytes)
    }
}

/// `level` raised to the highest level of the earlier steps at `bytes` (each a write's and a
/// read's level) that an access, writing or not, depends on: every write, and every read if
/// it writes.
fn above(bytes: &[(u32, u32)], write: bool, level: u32) -> u32 {
    bytes.iter().fold(level, |level, &(w, r)| if write { level.max(w).max(r) } else { level.max(w) })
}

/// Records an access at `bytes` at `level`, as a write's or a read's.
fn raise(bytes: &mut [(u32, u32)], write: bool, level: u32) {
    for slot in bytes {
        let last = if write { &mut slot.0 } else { &mut slot.1 };
        *last = (*last).max(level);
    }
}

/// The most decisions of a step [`label`] hashes from a buffer on the stack (a step draws
/// one or two; more go through the streaming hasher, which gives the same hash).
const LABEL_DECISIONS: usize = 6;

/// A label for a step: its agent's instruction (function and position) and the decisions it
/// drew (which write a relaxed load read, a spurious failure): the hash of their
/// little-endian bytes in that order.
pub(super) fn label(func: u32, pc: u32, decisions: &[u32]) -> u64 {
    if decisions.len() > LABEL_DECISIONS {
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        h.update(&func.to_le_bytes());
        h.update(&pc.to_le_bytes());
        for d in decisions {
            h.update(&d.to_le_bytes());
        }
        return h.digest();
    }
    let mut bytes = [0u8; 8 + 4 * LABEL_DECISIONS];
    bytes[..4].copy_from_slice(&func.to_le_bytes());
    bytes[4..8].copy_from_slice(&pc.to_le_bytes());
    for (i, d) in decisions.iter().enumerate() {
        bytes[8 + 4 * i..12 + 4 * i].copy_from_slice(&d.to_le_bytes());
    }
    xxhash_rust::xxh3::xxh3_64(&bytes[..8 + 4 * decisions.len()])
}

/// The words a memory step's bytes `start..end` cover (a few bytes for one access; at most
/// 4 KiB are looked at), each with the range of its bytes within it.
fn words(start: u64, end: u64) -> impl Iterator<Item = (u64, std::ops::Range<usize>)> {
    let end = end.min(start.saturating_add(1 << 12));
    (start / 4..end.div_ceil(4)).map(move |word| {
        let first = (word * 4).max(start);
        let last = (word * 4 + 4).min(end);
        (word, (first - word * 4) as usize..(last - word * 4) as usize)
    })
}

/// One step's hash, in a fixed little-endian layout so that it is the same on every platform.
fn step_hash(level: u32, agent: u32, fp: Footprint, label: u64) -> u64 {
    let mut bytes = [0u8; 48];
    bytes[0..4].copy_from_slice(&level.to_le_bytes());
    bytes[4..8].copy_from_slice(&agent.to_le_bytes());
    bytes[8..16].copy_from_slice(&label.to_le_bytes());
    let (tag, a, b, c, d, e) = match fp {
        Footprint::Nothing => (0u8, 0u32, 0u32, 0u64, 0u64, 0u8),
        Footprint::Memory { space, owner, alloc, start, end, write } => (1 + 8 * space, owner, alloc, start, end, write as u8),
        Footprint::Group(g) => (2, g, 0, 0, 0, 0),
        Footprint::ScFence => (3, 0, 0, 0, 0, 0),
        Footprint::Heap => (4, 0, 0, 0, 0, 0),
        Footprint::Printf => (5, 0, 0, 0, 0, 0),
        Footprint::Everything => (6, 0, 0, 0, 0, 0),
    };
    bytes[16] = tag;
    bytes[17] = e;
    bytes[18..22].copy_from_slice(&a.to_le_bytes());
    bytes[22..26].copy_from_slice(&b.to_le_bytes());
    bytes[26..34].copy_from_slice(&c.to_le_bytes());
    bytes[34..42].copy_from_slice(&d.to_le_bytes());
    xxhash_rust::xxh3::xxh3_64(&bytes)
}

/// The Foata levels by their definition: a step's level is one more than the highest level of
/// the earlier steps of its agent or dependent with it.
#[cfg(test)]
fn naive_levels(steps: &[(u32, Footprint)]) -> Vec<u32> {
    let mut levels: Vec<u32> = Vec::with_capacity(steps.len());
    for (i, &(a, f)) in steps.iter().enumerate() {
        let before = steps[..i].iter().zip(&levels).filter(|((b, g), _)| *b == a || dependent(*g, f)).map(|(_, &l)| l).max().unwrap_or(0);
        levels.push(before + 1);
    }
    levels
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small pseudo-random generator for the test's runs (the engine's own `rng` is seeded
    /// the same way every time too).
    fn footprints(seed: u64, len: usize) -> Vec<(u32, Footprint)> {
        let mut rng = crate::rng::Rng::new(seed);
        (0..len)
            .map(|_| {
                let agent = rng.below(4) as u32;
                let fp = match rng.below(8) {
                    0 => Footprint::Nothing,
                    1 => Footprint::Everything,
                    2 => Footprint::Group(rng.below(2) as u32),
                    3 => Footprint::ScFence,
                    4 => Footprint::Printf,
                    _ => {
                        let start = rng.below(12);
                        Footprint::Memory { space: rng.below(2) as u8, owner: 0, alloc: 0, start, end: start + 1 + rng.below(4), write: rng.below(2) == 0 }
                    }
                };
                (agent, fp)
            })
            .collect()
    }

    fn hash_of(steps: &[(u32, Footprint)]) -> u64 {
        let mut foata = Foata::default();
        for &(a, f) in steps {
            foata.push(a, f, 7);
        }
        foata.hash()
    }

    /// The incremental levels are the definition's.
    #[test]
    fn levels_agree_with_the_definition() {
        for seed in 0..200 {
            let steps = footprints(seed, 40);
            let mut foata = Foata::default();
            let levels: Vec<u32> = steps.iter().map(|&(a, f)| foata.push(a, f, 0)).collect();
            assert_eq!(levels, naive_levels(&steps), "seed {seed}");
        }
    }

    /// Swapping two adjacent steps keeps the hash exactly when they are independent (of
    /// different agents and not dependent).
    #[test]
    fn swapping_adjacent_steps_changes_the_hash_only_when_they_depend() {
        for seed in 0..200 {
            let steps = footprints(seed, 30);
            for i in 0..steps.len() - 1 {
                let ((a, f), (b, g)) = (steps[i], steps[i + 1]);
                if (a, f) == (b, g) {
                    continue;
                }
                let mut swapped = steps.clone();
                swapped.swap(i, i + 1);
                let independent = a != b && !dependent(f, g);
                assert_eq!(hash_of(&steps) == hash_of(&swapped), independent, "seed {seed}, step {i}: {:?} then {:?}", steps[i], steps[i + 1]);
            }
        }
    }

    /// Two writes of the same word by different agents, then a read: the two orders of the
    /// writes are two traces; moving an unrelated step around is not.
    #[test]
    fn dependent_orders_differ_and_independent_ones_do_not() {
        let w = Footprint::Memory { space: 0, owner: 0, alloc: 0, start: 0, end: 4, write: true };
        let other = Footprint::Memory { space: 0, owner: 0, alloc: 1, start: 0, end: 4, write: true };
        assert_ne!(hash_of(&[(0, w), (1, w)]), hash_of(&[(1, w), (0, w)]));
        assert_eq!(hash_of(&[(0, w), (1, other), (2, w)]), hash_of(&[(1, other), (0, w), (2, w)]));
    }

    /// A label is the hash of its bytes however many decisions it has: from the buffer on
    /// the stack or through the streaming hasher.
    #[test]
    fn a_label_hashes_its_bytes() {
        for len in 0..=2 * LABEL_DECISIONS {
            let decisions: Vec<u32> = (0..len as u32).map(|d| d.wrapping_mul(0x9e37_79b9) ^ 5).collect();
            let mut h = xxhash_rust::xxh3::Xxh3::new();
            h.update(&3u32.to_le_bytes());
            h.update(&41u32.to_le_bytes());
            for d in &decisions {
                h.update(&d.to_le_bytes());
            }
            assert_eq!(label(3, 41, &decisions), h.digest(), "{len} decisions");
        }
        assert_ne!(label(3, 41, &[]), label(3, 41, &[0]), "a decision of 0 is still a decision");
    }

    /// The union does not depend on the order of the parts, nor on how they were split.
    #[test]
    fn the_union_is_order_independent() {
        let parts: Vec<Vec<u64>> = vec![vec![1, 5, 9], vec![5, 2], vec![], vec![9, 3, 1]];
        let mut forward = Classes::default();
        for p in &parts {
            forward.union(p, false);
        }
        let mut backward = Classes::default();
        for p in parts.iter().rev() {
            backward.union(p, false);
        }
        assert_eq!(forward, backward);
        assert_eq!(forward.hashes.len(), 5);
    }
}
