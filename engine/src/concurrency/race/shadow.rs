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
//! location is forgotten altogether while another fills the word. Doing it by halves keeps a
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
