//! Shadow memory: for every 4-byte word of shared memory, the last write, the reads since it
//! (FastTrack's adaptive representation: one read epoch, or a set when reads are concurrent;
//! Flanagan and Freund, PLDI 2009), and the release an atomic there published.
//!
//! Shadow pages are allocated when a word of the page is first touched, so a large buffer of
//! which a kernel uses a corner costs a corner. Each access keeps the bytes of the word it
//! touched, so work-items writing neighbouring bytes of one word do not race.

use super::clock::Knowledge;

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
    /// The bytes of the word it touched (bit k = byte k).
    pub mask: u8,
    /// `ATOMIC`, `SAME_VALUE`.
    pub flags: u8,
}

impl Access {
    pub const ATOMIC: u8 = 1;
    /// A write that left the bytes as they were.
    pub const SAME_VALUE: u8 = 2;
    /// Bits 2..4: an atomic access's scope level (0 work-group, 1 device, 2 system).
    pub const LEVEL_SHIFT: u8 = 2;

    /// The scope level of an atomic access.
    pub fn level(self) -> usize {
        ((self.flags >> Access::LEVEL_SHIFT) & 3) as usize
    }

    pub fn is_atomic(self) -> bool {
        self.flags & Access::ATOMIC != 0
    }

    pub fn same_value(self) -> bool {
        self.flags & Access::SAME_VALUE != 0
    }
}

/// The reads of a word since its last write.
#[derive(Clone, Debug, Default)]
pub enum Reads {
    #[default]
    None,
    /// Every read so far is ordered before this one.
    One(Access),
    /// Concurrent reads, at most [`MAX_READS`] (the oldest are forgotten, which can only hide a
    /// race, never invent one).
    Many(Box<Vec<Access>>),
}

/// The most concurrent reads a word remembers.
pub const MAX_READS: usize = 64;

/// A release published at a word by an atomic write: what the releasing agent knew, for an
/// acquire there to learn.
#[derive(Clone, Debug)]
pub struct Release {
    /// What the release publishes, per address space ([`super::GLOBAL`], [`super::LOCAL`]):
    /// empty for memory it does not release (an atomic on a local object releases local
    /// memory only, unless a release fence before it named global memory too).
    pub know: [Knowledge; super::SPACES],
    /// The work-group of the releaser when it released at work-group scope: only members of
    /// that group may synchronise with it.
    pub group_scope: Option<u32>,
    /// The releasing agent's group and device, and the release's scope level: an acquire
    /// synchronises only when each one's scope includes the other.
    pub group: u32,
    pub device: u32,
    pub level: u8,
    /// The releasing agent: its own later relaxed stores continue the release sequence.
    pub agent: u32,
    /// The releasing event, for a scope-mismatch finding.
    pub event: u32,
}

/// The shadow of one word.
#[derive(Clone, Debug, Default)]
pub struct Cell {
    pub write: Option<Access>,
    pub reads: Reads,
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

    /// Bytes of shadow allocated, for the snapshot budget.
    pub fn bytes(&self) -> usize {
        self.pages.iter().flatten().map(Vec::len).sum::<usize>() * std::mem::size_of::<Cell>()
    }
}
