//! Shadow memory: for every 4-byte word of shared memory, the accesses a later access may
//! still race with, and the release an atomic there published.
//!
//! FastTrack (Flanagan and Freund, PLDI 2009) keeps the last write and the reads since it,
//! which finds *a* race whenever there is one. A finding here names a pair of source
//! locations, and every racing pair should be found, so a word keeps more: every access
//! that is not covered by a later one. An earlier access `p` is covered by a later access `q`
//! of the same source location, kind, bytes and value when `p` happens before `q`: whatever
//! is unordered with `q` is unordered with `p` too (happens-before is transitive), so `q`
//! races wherever `p` would, with the same pair of locations. Accesses of different source
//! locations are all kept (a plain write stays when an atomic write follows it, a read
//! when a write follows it), and so are concurrent ones (FastTrack's read sets).
//!
//! A covered access is dropped as soon as it is seen to be covered, which costs a
//! happens-before query. An access always covers its own work-item's earlier one of its kind;
//! whether it covers another work-item's is asked only when the two conflict anyway, or when
//! the word is full ([`MAX_ACCESSES`]). Until then the covered access stays, which changes no
//! finding (it races only where the access covering it does).
//!
//! When a full word still holds more than three quarters of its room after dropping what is
//! covered, it forgets its oldest accesses until half is free: each kind of access (`word`'s
//! groups) in proportion to how many it keeps and never its newest, so that no source
//! location is forgotten altogether while another fills the word. Atomics of one source
//! location from different work-groups are kinds of their own, and there the newest of the
//! location's accesses stay, from two groups at least, rather than each group's newest: a
//! counter that thousands of groups update must not keep an access per group. Doing it by halves keeps a
//! word that hundreds of work-items touch at once from paying a query per kept access at
//! every access. Forgetting can only hide a race, never invent one. The accesses a kind keeps
//! are marked as standing for what it forgot (`FORGOT`): a later access that conflicts with
//! such a kind and finds no race with its site, nor any known before, may have missed one,
//! and the run says so once per memory with a `race-detection-limit` warning. The crowded
//! kernels of the race oracle (`engine/tests/race_oracle.rs`) tell whether the room is
//! enough.
//!
//! Shadow pages are allocated when a word of the page is first touched, so a large buffer of
//! which a kernel uses a corner costs a corner. Each access keeps the bytes of the word it
//! touched, so work-items writing neighbouring bytes of one word do not race.

pub use super::release::Release;
use crate::ir::Level;

/// Words per shadow page.
const PAGE_WORDS: usize = 64;

/// One access, as the shadow remembers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Access {
    /// The agent (work-item, or a group's async-copy engine) that made it.
    pub agent: u32,
    /// The agent's clock at the access.
    pub clock: u32,
    /// Index of its event in the event log.
    pub event: u32,
    /// Its source location (the span's start and end), which findings pair up.
    pub site: (u32, u32),
    /// The bytes of the word it wrote or read (byte k in bits 8k..8k+8).
    pub value: u32,
    /// The bytes of the word it touched (bit k = byte k).
    pub mask: u8,
    /// `ATOMIC`, `WRITE`, `SAME_VALUE`, `MIXED`, `FORGOT` and the scope level.
    pub flags: u8,
}

impl Access {
    pub const ATOMIC: u8 = 1;
    /// A write that left the bytes as they were.
    pub const SAME_VALUE: u8 = 2;
    /// Bits 2..4: an atomic access's scope level ([`Level::index`]).
    pub const LEVEL_SHIFT: u8 = 2;
    pub const WRITE: u8 = 16;
    /// An access whose `value` does not stand for everything its site wrote or read: the
    /// bytes are wider than the access's value, or it covers earlier accesses of other values
    /// (so a race with it is never benign).
    pub const MIXED: u8 = 32;
    /// An access of a kind of which the word forgot older accesses, or one that covers such
    /// an access: it stands for them too, so where its site should race and does not, a race
    /// with a forgotten access may have gone unreported.
    pub const FORGOT: u8 = 64;

    /// The scope level of an atomic access.
    pub fn level(self) -> Level {
        Level::from_index(((self.flags >> Access::LEVEL_SHIFT) & 3) as usize).unwrap_or(Level::System)
    }

    pub fn is_atomic(self) -> bool {
        self.flags & Access::ATOMIC != 0
    }

    pub fn is_write(self) -> bool {
        self.flags & Access::WRITE != 0
    }

    pub fn same_value(self) -> bool {
        self.flags & Access::SAME_VALUE != 0
    }

    /// Whether `self` and `other` wrote or read the same bytes where both touched the word.
    pub fn same_bytes(self, other: Access) -> bool {
        let bytes = self.mask & other.mask;
        let mut m = 0u32;
        for k in 0..4 {
            if bytes & (1 << k) != 0 {
                m |= 0xff << (8 * k);
            }
        }
        (self.flags | other.flags) & Access::MIXED == 0 && self.value & m == other.value & m
    }
}

/// The accesses a word keeps (see the module documentation): most words have one or two.
/// Several are kept in the order `word` groups them in: by kind, and each kind's in the order
/// they happened.
#[derive(Clone, Debug, Default)]
pub enum Accesses {
    #[default]
    None,
    One(Access),
    Many(Vec<Access>),
}

/// The most accesses a word remembers.
pub const MAX_ACCESSES: usize = 128;

/// The shadow of one word.
#[derive(Clone, Debug, Default)]
pub struct Cell {
    pub accesses: Accesses,
    pub release: Option<Box<Release>>,
}

/// The shadow of one allocation.
#[derive(Debug, Default)]
pub struct Shadow {
    /// Pages grow up to the highest word touched in them, so the shadow of a small buffer
    /// (a litmus test's location) is as small as the buffer. A page that is present but empty
    /// is the same as one never touched ([`Shadow::cell`] grows either alike).
    pages: Vec<Option<Vec<Cell>>>,
}

impl Clone for Shadow {
    fn clone(&self) -> Shadow {
        Shadow { pages: self.pages.clone() }
    }

    /// Copies `source` into this shadow's own pages. Pages that `source` lacks are emptied
    /// rather than freed, which is the same as untouched, so restoring a launched machine
    /// (whose shadow is usually bare) before each explored run keeps the pages the previous
    /// run allocated.
    fn clone_from(&mut self, source: &Shadow) {
        if self.pages.len() < source.pages.len() {
            self.pages.resize_with(source.pages.len(), || None);
        }
        for (k, page) in self.pages.iter_mut().enumerate() {
            match (page, source.pages.get(k)) {
                (Some(cells), Some(Some(from))) => cells.clone_from(from),
                (Some(cells), _) => cells.clear(),
                (page @ None, Some(from)) => page.clone_from(from),
                (None, None) => {}
            }
        }
    }
}

impl Shadow {
    /// The cell of word `word`, allocating its page on first use.
    pub fn cell(&mut self, word: usize) -> &mut Cell {
        let page = word / PAGE_WORDS;
        if page >= self.pages.len() {
            self.pages.resize_with(page + 1, || None);
        }
        let cells = self.pages[page].get_or_insert_with(Vec::new);
        let at = word % PAGE_WORDS;
        if at >= cells.len() {
            // Straight to the full page once past its first few words.
            let len = if at < 4 { at + 1 } else { PAGE_WORDS };
            cells.resize_with(len, Cell::default);
        }
        &mut cells[at]
    }

    /// The cell of word `word` if its page has been made that far (for a prefetch, which must
    /// not allocate).
    #[inline]
    pub fn cell_if_made(&self, word: usize) -> Option<&Cell> {
        self.pages.get(word / PAGE_WORDS)?.as_ref()?.get(word % PAGE_WORDS)
    }

    /// Forgets every access the shadow keeps, keeping the releases published at its words
    /// (an acquire may still read them). For memory whose every earlier access happens
    /// before every later one ([`super::Races::barrier_orders_local`]): no later access can
    /// race with, be covered by or stand for one of them. Lists are freed: most words of
    /// such memory see a few accesses between two barriers.
    pub fn forget_accesses(&mut self) {
        for cell in self.pages.iter_mut().flatten().flatten() {
            cell.accesses = Accesses::None;
        }
    }

    /// Bytes of shadow allocated, for the snapshot budget.
    pub fn bytes(&self) -> usize {
        self.pages.iter().flatten().map(Vec::len).sum::<usize>() * std::mem::size_of::<Cell>()
    }
}

/// Shadows packed for a snapshot, as [`crate::exec::frozen`] packs work-items: mid-run, a
/// launch's local memory keeps several accesses a word, 28 bytes each in a 40-byte cell, while
/// an access differs from the one packed before it (the same site, a neighbouring agent, a
/// nearby clock and event) by a few bytes' worth. The few releases are kept whole.
#[derive(Debug, Default)]
pub struct FrozenShadows {
    bytes: Vec<u8>,
    releases: Vec<Release>,
}

// A packed cell's first byte: how many accesses it keeps (0, 1, or `MANY`, followed by the
// count), and whether it holds a release.
const MANY: u8 = 2;
const HAS_RELEASE: u8 = 4;

/// The fields an access is compared with: the access packed before it.
#[derive(Clone, Copy, Default)]
struct Previous {
    agent: u32,
    clock: u32,
    event: u32,
    site: (u32, u32),
}

fn put_access(bytes: &mut Vec<u8>, a: &Access, prev: &mut Previous) {
    let Access { agent, clock, event, site, value, mask, flags } = *a;
    use crate::pack::{put, put_delta};
    put_delta(bytes, u64::from(agent), u64::from(prev.agent));
    put_delta(bytes, u64::from(clock), u64::from(prev.clock));
    put_delta(bytes, u64::from(event), u64::from(prev.event));
    put_delta(bytes, u64::from(site.0), u64::from(prev.site.0));
    put_delta(bytes, u64::from(site.1), u64::from(prev.site.1));
    put(bytes, u64::from(value));
    bytes.push(mask);
    bytes.push(flags);
    *prev = Previous { agent, clock, event, site };
}

fn get_access(reader: &mut crate::pack::Reader, prev: &mut Previous) -> Access {
    let agent = reader.get_delta(u64::from(prev.agent)) as u32;
    let clock = reader.get_delta(u64::from(prev.clock)) as u32;
    let event = reader.get_delta(u64::from(prev.event)) as u32;
    let site = (reader.get_delta(u64::from(prev.site.0)) as u32, reader.get_delta(u64::from(prev.site.1)) as u32);
    let value = reader.get_u32();
    let mask = reader.byte();
    let flags = reader.byte();
    *prev = Previous { agent, clock, event, site };
    Access { agent, clock, event, site, value, mask, flags }
}

impl FrozenShadows {
    /// Packs `shadows`, in order.
    pub fn freeze<'a>(shadows: impl IntoIterator<Item = &'a Shadow>) -> FrozenShadows {
        use crate::pack::put;
        let mut frozen = FrozenShadows::default();
        let bytes = &mut frozen.bytes;
        let mut prev = Previous::default();
        for shadow in shadows {
            put(bytes, shadow.pages.len() as u64);
            for page in &shadow.pages {
                let cells = page.as_deref().unwrap_or(&[]);
                put(bytes, cells.len() as u64);
                for cell in cells {
                    let release = if cell.release.is_some() { HAS_RELEASE } else { 0 };
                    match &cell.accesses {
                        Accesses::None => bytes.push(release),
                        Accesses::One(a) => {
                            bytes.push(1 | release);
                            put_access(bytes, a, &mut prev);
                        }
                        Accesses::Many(list) => {
                            bytes.push(MANY | release);
                            put(bytes, list.len() as u64);
                            for a in list {
                                put_access(bytes, a, &mut prev);
                            }
                        }
                    }
                    if let Some(r) = &cell.release {
                        frozen.releases.push((**r).clone());
                    }
                }
            }
        }
        frozen.bytes.shrink_to_fit();
        frozen
    }

    /// Makes `shadows` (as many, in the same order) the shadows that were frozen, reusing
    /// their pages. A page the frozen shadow did not have is left empty, which is the same as
    /// absent.
    pub fn thaw_into<'a>(&self, shadows: impl IntoIterator<Item = &'a mut Shadow>) {
        let mut reader = crate::pack::Reader::new(&self.bytes);
        let mut releases = self.releases.iter();
        let mut prev = Previous::default();
        for shadow in shadows {
            let pages = reader.get() as usize;
            shadow.pages.truncate(pages);
            shadow.pages.resize_with(pages, || None);
            for page in &mut shadow.pages {
                let len = reader.get() as usize;
                if len == 0 {
                    if let Some(cells) = page {
                        cells.clear();
                    }
                    continue;
                }
                let cells = page.get_or_insert_with(Vec::new);
                cells.truncate(len);
                cells.resize_with(len, Cell::default);
                for cell in cells.iter_mut() {
                    let tag = reader.byte();
                    match tag & (1 | MANY) {
                        0 => cell.accesses = Accesses::None,
                        1 => cell.accesses = Accesses::One(get_access(&mut reader, &mut prev)),
                        _ => {
                            let n = reader.get() as usize;
                            let mut list = match std::mem::take(&mut cell.accesses) {
                                Accesses::Many(mut list) => {
                                    list.clear();
                                    list
                                }
                                _ => Vec::with_capacity(n),
                            };
                            list.extend((0..n).map(|_| get_access(&mut reader, &mut prev)));
                            cell.accesses = Accesses::Many(list);
                        }
                    }
                    let kept = (tag & HAS_RELEASE != 0).then(|| releases.next().expect("every frozen release is kept"));
                    crate::reuse::clone_boxed_into(&mut cell.release, kept);
                }
            }
        }
        debug_assert!(reader.done() && releases.next().is_none(), "every frozen shadow is read back");
    }
}

/// Property tests, natively only: proptest is not built for wasm.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod properties {
    use super::*;
    use proptest::prelude::*;

    fn access() -> impl Strategy<Value = Access> {
        let small = prop_oneof![0u32..40, any::<u32>(), (0u32..40).prop_map(|v| u32::MAX - v)];
        (small.clone(), small.clone(), small.clone(), (small.clone(), small), any::<u32>(), any::<u8>(), any::<u8>())
            .prop_map(|(agent, clock, event, site, value, mask, flags)| Access { agent, clock, event, site, value, mask, flags })
    }

    fn cell() -> impl Strategy<Value = Cell> {
        let accesses = prop_oneof![Just(Accesses::None), access().prop_map(Accesses::One), prop::collection::vec(access(), 0..4).prop_map(Accesses::Many)];
        let release = prop::option::of(
            (any::<u32>(), any::<u32>(), any::<u32>(), any::<u32>())
                .prop_map(|(agent, event, group, device)| Box::new(Release { parts: Vec::new(), agent, event, group, device })),
        );
        (accesses, release).prop_map(|(accesses, release)| Cell { accesses, release })
    }

    fn shadow() -> impl Strategy<Value = Shadow> {
        prop::collection::vec(prop::option::of(prop::collection::vec(cell(), 0..5)), 0..4).prop_map(|pages| Shadow { pages })
    }

    /// A shadow as its accesses and releases show it: a page that is present but empty is
    /// the same as an absent one.
    fn shown(shadows: &[Shadow]) -> String {
        format!("{:?}", shadows.iter().map(|s| s.pages.iter().map(|p| p.as_deref().unwrap_or(&[])).collect::<Vec<_>>()).collect::<Vec<_>>())
    }

    proptest! {
        /// Whatever shadows the thawed-into allocations had, they end as the frozen ones.
        #[test]
        fn thawing_gives_back_the_frozen_shadows(frozen in prop::collection::vec(shadow(), 0..4), live in prop::collection::vec(shadow(), 4)) {
            let packed = FrozenShadows::freeze(&frozen);
            let mut into = live;
            into.truncate(frozen.len());
            packed.thaw_into(&mut into);
            prop_assert_eq!(shown(&into), shown(&frozen));
        }
    }
}
